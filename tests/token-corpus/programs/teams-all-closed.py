teams = {}
for t in tickets:
    teams.setdefault(t["team"], []).append(t)
[{"key": k, "all_closed": all(t["closed_at"] for t in v)} for k, v in sorted(teams.items())]
