counts = {}
for o in orders:
    d = o["created_at"][:10]
    counts[d] = counts.get(d, 0) + 1
day = max(counts, key=counts.get)
{"key": day, "n": counts[day]}
