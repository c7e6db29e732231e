counts = {}
for s in signups:
    counts[s["at"][:10]] = counts.get(s["at"][:10], 0) + 1
[{"day": f"2024-03-{d:02}", "n": counts.get(f"2024-03-{d:02}", 0)} for d in range(1, 15)]
