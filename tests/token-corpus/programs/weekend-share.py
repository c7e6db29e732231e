from datetime import datetime, timezone
done = [o for o in orders if o["status"] == "completed"]
weekend = [o for o in done if datetime.fromisoformat(o["created_at"].replace("Z", "+00:00")).astimezone(timezone.utc).weekday() >= 5]
round(100 * len(weekend) / len(done), 1)
