[{**s, "rank": i + 5} for i, s in enumerate(sorted(scores, key=lambda s: -s["points"])[4:10])]
