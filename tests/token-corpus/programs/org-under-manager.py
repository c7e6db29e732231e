under, ids = [], [3]
while ids:
    kids = [s for s in staff if s["manager_id"] in ids]
    under += kids
    ids = [s["id"] for s in kids]
sorted(s["name"] for s in under)
