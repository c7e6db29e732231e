# The Python twin's host, as Monty gives a model: each context value is a
# variable, each tool a function taking keyword arguments, and the value of the
# program's last expression is its answer. Reads {"context", "tools", "turns"}
# as JSON on stdin; the turns run one after the other in one namespace (a
# conversation); prints the answer of each turn as a JSON list.
import ast
import json
import sys


class ToolError(Exception):
    pass


def make_tool(spec):
    kind = spec["kind"]
    if kind == "pages":
        def pages(page=1):
            size, items = spec["size"], spec["items"]
            more = page * size < len(items)
            return {"items": items[(page - 1) * size : page * size], "next_page": page + 1 if more else None}
        return pages
    if kind == "cursor":
        def cursor_tool(cursor=None):
            size, items = spec["size"], spec["items"]
            at = 0 if cursor is None else int(cursor[1:])
            nxt = at + size
            return {"items": items[at:nxt], "next_cursor": f"c{nxt}" if nxt < len(items) else None}
        return cursor_tool
    if kind == "lookup":
        def lookup(**args):
            key = args[spec["key"]]
            key = str(key)
            if key not in spec["table"]:
                raise ToolError(f"not found: {key}")
            return spec["table"][key]
        return lookup
    if kind == "batch":
        def batch(**args):
            ids = args[spec["key"]]
            if len(ids) > spec["max"]:
                raise ToolError(f"at most {spec['max']} ids per call")
            return [{"id": i, "value": spec["table"].get(i)} for i in ids]
        return batch
    raise ValueError(kind)


def run(code, scope):
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<program>", "exec"), scope)
    return eval(compile(ast.Expression(last.value), "<program>", "eval"), scope) if last else None


def main():
    job = json.load(sys.stdin)
    scope = dict(job["context"])
    scope.update({name: make_tool(spec) for name, spec in job["tools"].items()})
    print(json.dumps([run(code, scope) for code in job["turns"]]))


main()
