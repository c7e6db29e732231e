totals = {}
for p in products:
    if p["price"] != "n/a":
        totals[p["category"]] = totals.get(p["category"], 0) + p["qty"] * float(p["price"])
[{"key": k, "value": round(v, 2)} for k, v in sorted(totals.items())]
