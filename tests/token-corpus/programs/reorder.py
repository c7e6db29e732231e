low = [p for p in products if p["qty"] <= p["reorder_level"]]
[p["sku"] for p in sorted(low, key=lambda p: (p["qty"], p["sku"]))]
