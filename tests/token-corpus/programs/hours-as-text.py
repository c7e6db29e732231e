hours = {}
for t in timesheet:
    h, m = t["spent"].split(":")
    hours[t["person"]] = hours.get(t["person"], 0) + int(h) + int(m) / 60
[{"key": p, "hours": round(v, 2)} for p, v in sorted(hours.items())]
