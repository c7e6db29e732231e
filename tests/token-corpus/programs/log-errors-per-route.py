stats = {}
for line in app_log:
    f = dict(p.split("=", 1) for p in line.split() if "=" in p)
    if f["level"] == "error":
        stats.setdefault(f["route"], []).append(int(f["ms"]))
sorted([{"key": r, "errors": len(v), "avg_ms": round(sum(v) / len(v), 1)} for r, v in stats.items()], key=lambda x: -x["errors"])
