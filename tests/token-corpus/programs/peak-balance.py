balance = peak = 0
for e in ledger:
    balance += e["amount"] if e["type"] == "deposit" else -e["amount"]
    peak = max(peak, balance)
{"final": balance, "peak": peak}
