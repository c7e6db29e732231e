totals = {}
for e in expenses:
    amount = float(e["amount"].replace("$", "").replace(",", ""))
    totals[e["category"]] = totals.get(e["category"], 0) + amount
[{"key": k, "total": round(v, 2)} for k, v in sorted(totals.items(), key=lambda x: -x[1])]
