from datetime import datetime
sessions = {}
prev = None
for v in views:
    t = datetime.fromisoformat(v["at"].replace("Z", "+00:00"))
    if prev is None or prev[0] != v["user"] or (t - prev[1]).total_seconds() > 1800:
        sessions[v["user"]] = sessions.get(v["user"], 0) + 1
    prev = (v["user"], t)
[{"key": u, "n": n} for u, n in sessions.items()]
