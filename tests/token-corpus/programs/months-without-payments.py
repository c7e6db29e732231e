paid = {i["paid_on"][:7] for i in paid_invoices}
[m for m in (f"2024-{k:02}" for k in range(1, 13)) if m not in paid]
