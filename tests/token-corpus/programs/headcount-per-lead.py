def under(i):
    kids = [s for s in staff if s["manager_id"] == i]
    return len(kids) + sum(under(k["id"]) for k in kids)
[{"name": d["name"], "headcount": under(d["id"])} for d in staff if d["manager_id"] == 1]
