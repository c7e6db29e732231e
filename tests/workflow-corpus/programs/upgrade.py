sub = get_subscription(subscription="sub-41")
amount = round((30 - sub["price"]) * sub["days_left"] / 30, 2)
try:
    c = charge(subscription="sub-41", amount=amount)["charge"]
except Exception as e:
    result = {"failed": str(e), "refund": None}
else:
    try:
        change_plan(subscription="sub-41", plan="pro")
        result = {"charged": amount, "charge": c}
    except Exception as e:
        result = {"failed": str(e), "refund": refund(charge=c)["refund"]}
result
