# The Python twin's host, as Monty gives a model (like tests/token-corpus/harness.py):
# each tool is a function taking keyword arguments, a failing tool raises, and
# the value of the program's last expression is its answer. The tools are the
# corpus's stateful mocks, interpreted from the same JSON description as
# mocks.cjs (README.md states the rules). Reads {"code", "situations": [{"tools":
# {name: spec}}]} as JSON on stdin (each situation's specs already merged);
# runs the code once per situation in a fresh namespace; prints
# [{"answer", "effects"}] as JSON.
import ast
import json
import re
import sys


class ToolError(Exception):
    pass


def as_text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, separators=(",", ":"))


def fill(template, args, n):
    def get(name):
        return n if name == "#" else args.get(name)

    if isinstance(template, str):
        whole = re.fullmatch(r"\{([\w#]+)\}", template)
        if whole:
            return get(whole.group(1))
        return re.sub(r"\{([\w#]+)\}", lambda m: as_text(get(m.group(1))), template)
    if isinstance(template, list):
        return [fill(t, args, n) for t in template]
    if isinstance(template, dict):
        return {k: fill(v, args, n) for k, v in template.items()}
    return template


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def applies(rule, args, n):
    if "when" in rule and not all(same(args.get(k), v) for k, v in rule["when"].items()):
        return False
    if "call" in rule:
        calls = rule["call"] if isinstance(rule["call"], list) else [rule["call"]]
        if n not in calls:
            return False
    return True


def make_tool(name, spec, effects):
    state = {"calls": 0, "seen": {}}

    def tool(**args):
        state["calls"] += 1
        n = state["calls"]
        key = json.dumps(args.get(spec["idempotent"])) if "idempotent" in spec else None
        if key is not None and key in state["seen"]:
            return state["seen"][key]
        rule = next((r for r in spec.get("rules", []) if applies(r, args, n)), {})
        result = fill(rule["returns"] if "returns" in rule else spec.get("returns"), args, n)
        if rule.get("effect", spec.get("effect") is True and "fail" not in rule):
            effects.append([name, dict(args)])
            if key is not None:
                state["seen"][key] = result
        if "fail" in rule:
            raise ToolError(fill(rule["fail"], args, n))
        return result

    return tool


def run(code, scope):
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<program>", "exec"), scope)
    return eval(compile(ast.Expression(last.value), "<program>", "eval"), scope) if last else None


def main():
    job = json.load(sys.stdin)
    out = []
    for situation in job["situations"]:
        effects = []
        scope = {name: make_tool(name, spec, effects) for name, spec in situation["tools"].items()}
        out.append({"answer": run(job["code"], scope), "effects": effects})
    print(json.dumps(out))


main()
