latest = {}
for r in status_log:
    if r["ticket"] not in latest or r["at"] > latest[r["ticket"]]["at"]:
        latest[r["ticket"]] = r
counts = {}
for r in latest.values():
    counts[r["status"]] = counts.get(r["status"], 0) + 1
[{"key": s, "n": n} for s, n in sorted(counts.items())]
