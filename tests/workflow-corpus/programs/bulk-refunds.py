refunded, failed = [], []
for o in ["o-11", "o-12", "o-13", "o-14"]:
    try:
        refund(order=o, amount=get_order(order=o)["paid"])
        refunded.append(o)
    except Exception as e:
        failed.append({"order": o, "reason": str(e)})
{"refunded": refunded, "failed": failed}
