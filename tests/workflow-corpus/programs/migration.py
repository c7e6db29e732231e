tables = list_tables()
done = get_checkpoint()["done"]
result = {"status": "complete"}
for t in tables[done:]:
    try:
        migrate(table=t)
    except Exception as e:
        result = {"status": "stopped", "table": t, "reason": str(e)}
        break
    save_checkpoint(table=t)
result
