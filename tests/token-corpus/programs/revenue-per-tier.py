tier = {c["id"]: c["tier"] for c in customers}
totals = {}
for o in orders:
    if o["status"] == "completed":
        t = tier[o["customer_id"]]
        totals[t] = totals.get(t, 0) + o["amount"]
[{"key": t, "revenue": round(v, 2)} for t, v in sorted(totals.items())]
