out = []
for a in flagged:
    try:
        risk = get_account(id=a)["risk"]
    except Exception:
        risk = None
    out.append({"id": a, "risk": risk})
sorted(out, key=lambda r: (r["risk"] is None, -(r["risk"] or 0)))
