rev = {}
for c in carts:
    for l in c["lines"]:
        rev[l["sku"]] = rev.get(l["sku"], 0) + l["qty"] * l["price"]
top = sorted(rev.items(), key=lambda x: -x[1])[:3]
[{"key": s, "revenue": round(v, 2)} for s, v in top]
