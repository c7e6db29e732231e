by_id = {c["id"]: c for c in customers}
[{"number": i["number"], "name": by_id[i["customer_id"]]["name"], "tier": by_id[i["customer_id"]]["tier"]} for i in invoices if not i["paid"]]
