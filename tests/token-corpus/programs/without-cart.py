ids = {c["customer_id"] for c in carts}
[c["id"] for c in customers if c["id"] not in ids]
