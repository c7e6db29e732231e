from datetime import datetime, timezone
months = {}
for o in orders:
    if o["status"] == "completed":
        m = datetime.fromisoformat(o["created_at"].replace("Z", "+00:00")).astimezone(timezone.utc).strftime("%Y-%m")
        months[m] = months.get(m, 0) + o["amount"]
[{"key": m, "revenue": round(v, 2)} for m, v in sorted(months.items())]
