for attempt in range(1, 4):
    try:
        c = charge(customer="cu-3", amount=49.9, currency="EUR", key="inv-2207")
        result = {"charge": c["charge"], "attempts": attempt}
        break
    except Exception as e:
        result = {"failed": str(e), "attempts": attempt}
        if str(e) != "gateway timeout":
            break
result
