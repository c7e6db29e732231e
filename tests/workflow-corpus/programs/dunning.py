counts = {"reminder": 0, "final": 0}
suspended = []
for inv in list_overdue():
    if inv["days"] < 15:
        continue
    t = "final" if inv["days"] > 30 else "reminder"
    try:
        send_email(customer=inv["customer"], template=t, invoice=inv["invoice"])
    except Exception:
        continue
    counts[t] += 1
    if inv["days"] > 60:
        suspend(customer=inv["customer"])
        suspended.append(inv["customer"])
{"reminders": counts["reminder"], "finals": counts["final"], "suspended": suspended}
