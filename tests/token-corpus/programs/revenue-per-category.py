groups = {}
for o in orders:
    if o["status"] == "completed":
        g = groups.setdefault(o["category"], {"revenue": 0, "orders": 0})
        g["revenue"] += o["amount"]
        g["orders"] += 1
rows = [{"key": k, "revenue": round(g["revenue"], 2), "orders": g["orders"]} for k, g in groups.items()]
sorted(rows, key=lambda r: -r["revenue"])
