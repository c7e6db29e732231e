from datetime import datetime, timezone
weeks = {}
for o in orders:
    t = datetime.fromisoformat(o["created_at"].replace("Z", "+00:00")).astimezone(timezone.utc)
    if o["status"] == "completed" and t.year == 2024 and t.month == 1:
        w = t.isocalendar()[1]
        weeks[w] = weeks.get(w, 0) + 1
[{"key": w, "n": n} for w, n in sorted(weeks.items())]
