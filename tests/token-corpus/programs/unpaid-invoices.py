invoices = []
page = 1
while page:
    r = list_invoices(page=page)
    invoices += r["items"]
    page = r["next_page"]
unpaid = [i for i in invoices if not i["paid"]]
{"count": len(unpaid), "owed": round(sum(i["total"] for i in unpaid), 2)}
