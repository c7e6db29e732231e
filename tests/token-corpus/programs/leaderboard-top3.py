levels = sorted({s["points"] for s in scores}, reverse=True)
[{**s, "rank": levels.index(s["points"]) + 1} for s in sorted(scores, key=lambda s: -s["points"]) if s["points"] >= levels[2]]
