latest = sorted([o for o in orders if o["customer_id"] == "C007"], key=lambda o: o["created_at"], reverse=True)[:3]
[o["id"] for o in latest]
# turn
latest[1]["amount"]
