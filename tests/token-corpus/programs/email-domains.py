counts = {}
for c in customers:
    d = c["email"].split("@")[-1].lower()
    counts[d] = counts.get(d, 0) + 1
[{"key": d, "customers": n} for d, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))]
