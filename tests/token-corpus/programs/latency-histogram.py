counts = {}
for r in requests:
    if r["status"] == 200:
        b = r["duration_ms"] // 100 * 100
        counts[b] = counts.get(b, 0) + 1
[{"key": b, "n": n} for b, n in sorted(counts.items())]
