eng = [{"name": e["name"], "salary": float(e["salary"])} for e in employees if e["department"] == "Engineering"]
sorted(eng, key=lambda e: (-e["salary"], e["name"]))[:5]
