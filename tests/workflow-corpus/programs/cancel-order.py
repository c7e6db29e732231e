o = get_order(order="o-301")
if o["status"] == "shipped":
    result = {"cancelled": False, "reason": "shipped"}
else:
    cancel_order(order="o-301")
    rf = refund(order="o-301", amount=o["paid"])["refund"] if o["paid"] > 0 else None
    for sku in o["items"]:
        restock(sku=sku)
    email(order="o-301", template="cancelled")
    result = {"cancelled": True, "refund": rf}
result
