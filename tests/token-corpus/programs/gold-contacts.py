sorted(f'{c["name"]} <{c["email"]}>' for c in customers if c["tier"] == "gold" and c["region"] == "EU")
