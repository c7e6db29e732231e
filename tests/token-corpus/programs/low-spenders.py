spent = {}
for o in orders:
    if o["status"] == "completed":
        spent[o["customer_id"]] = spent.get(o["customer_id"], 0) + o["amount"]
low_spenders = [c for c, s in spent.items() if s < 1500]
len(low_spenders)
# turn
sorted(c["name"] for c in customers if c["tier"] == "gold" and c["id"] in low_spenders)
