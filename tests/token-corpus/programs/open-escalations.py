rank = {"urgent": 0, "high": 1}
open_ = [t for t in tickets if t["closed_at"] is None and t["priority"] in rank]
open_.sort(key=lambda t: (rank[t["priority"]], t["opened_at"]))
[{"id": t["id"], "priority": t["priority"], "opened_at": t["opened_at"]} for t in open_]
