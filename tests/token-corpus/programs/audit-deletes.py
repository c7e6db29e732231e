logs, cursor = [], None
while True:
    r = list_audit(cursor=cursor)
    logs += r["items"]
    cursor = r["next_cursor"]
    if not cursor:
        break
counts = {}
for l in logs:
    if l["action"] == "delete":
        counts[l["actor"]] = counts.get(l["actor"], 0) + 1
[{"key": a, "n": n} for a, n in sorted(counts.items(), key=lambda x: -x[1])]
