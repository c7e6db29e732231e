total = 0
for i in range(0, len(wishlist), 10):
    total += sum(p["value"] for p in get_prices(skus=wishlist[i:i + 10]))
round(total, 2)
