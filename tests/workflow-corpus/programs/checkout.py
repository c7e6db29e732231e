def checkout():
    cart = get_cart(cart="C-7")
    try:
        r = reserve(items=cart["items"])["reservation"]
    except Exception as e:
        return {"failed": f"reserve: {e}"}
    try:
        c = charge(card="tok-9", amount=cart["total"])["charge"]
    except Exception as e:
        release(reservation=r)
        return {"failed": f"charge: {e}"}
    try:
        s = ship(reservation=r, address=cart["address"])
    except Exception as e:
        refund(charge=c)
        release(reservation=r)
        return {"failed": f"ship: {e}"}
    return {"tracking": s["tracking"]}

checkout()
