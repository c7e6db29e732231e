done = []
result = {"live": "4.2.0"}
for s in ["canary", "10pct", "50pct", "100pct"]:
    try:
        deploy(service="web", version="4.2.0", stage=s)
    except Exception:
        result = {"failed_stage": s}
        break
    done.append(s)
    if not health(service="web", stage=s)["healthy"]:
        result = {"failed_stage": s}
        break
if "failed_stage" in result:
    for s in reversed(done):
        rollback(service="web", stage=s)
    result["rolled_back"] = done[::-1]
result
