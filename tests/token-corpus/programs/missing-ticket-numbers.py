nos = {t["no"] for t in ticket_export}
[n for n in range(min(nos), max(nos)) if n not in nos]
