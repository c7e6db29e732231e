gold = {}
for c in customers:
    gold[c["region"]] = gold.get(c["region"], False) or c["tier"] == "gold"
[{"key": r, "gold": g} for r, g in sorted(gold.items())]
