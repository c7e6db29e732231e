region = {c["id"]: c["region"] for c in customers}
counts = {}
for o in orders:
    if o["amount"] > 300:
        r = region[o["customer_id"]]
        counts[r] = counts.get(r, 0) + 1
[{"key": r, "n": n} for r, n in sorted(counts.items())]
