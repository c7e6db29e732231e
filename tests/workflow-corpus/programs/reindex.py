def rebuild():
    try:
        lock = acquire_lock(resource="search")["lock"]
    except Exception as e:
        return {"failed": "lock", "reason": str(e)}
    docs = 0
    try:
        for ix in ["products", "orders", "users"]:
            try:
                docs += reindex(index=ix)["docs"]
            except Exception as e:
                return {"failed": ix, "reason": str(e)}
        return {"docs": docs}
    finally:
        release_lock(lock=lock)

rebuild()
