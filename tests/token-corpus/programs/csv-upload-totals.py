import csv, io
totals = [{"vendor": u["vendor"], "total": round(sum(int(r["qty"]) * float(r["unit_price"]) for r in csv.DictReader(io.StringIO(u["csv"]))), 2)} for u in uploads]
sorted(totals, key=lambda t: -t["total"])
