import statistics
from datetime import datetime
def ts(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))
hours = {}
for t in tickets:
    if t["closed_at"] is not None:
        h = (ts(t["closed_at"]) - ts(t["opened_at"])).total_seconds() / 3600
        hours.setdefault(t["team"], []).append(h)
[{"key": k, "closed": len(hs), "within_24h": sum(h <= 24 for h in hs), "median_hours": statistics.median(hs)} for k, hs in hours.items()]
