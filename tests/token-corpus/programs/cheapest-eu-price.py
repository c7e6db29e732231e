best = {}
for p in eu_prices:
    price = float(p["price"].replace("€", "").replace(".", "").replace(",", ".").strip())
    if p["product"] not in best or price < best[p["product"]]["price"]:
        best[p["product"]] = {"product": p["product"], "shop": p["shop"], "price": price}
[best[k] for k in sorted(best)]
