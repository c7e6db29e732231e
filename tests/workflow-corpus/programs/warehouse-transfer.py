def transfer():
    available = get_stock(warehouse="east", sku="K-77")["available"]
    if available < 40:
        return {"error": f"only {available} available"}
    try:
        take_stock(warehouse="east", sku="K-77", qty=40)
    except Exception as e:
        return {"error": str(e)}
    try:
        return {"ok": receive_stock(warehouse="west", sku="K-77", qty=40)["receipt"]}
    except Exception as e:
        return_stock(warehouse="east", sku="K-77", qty=40)
        return {"error": str(e)}

transfer()
