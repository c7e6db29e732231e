def provision():
    try:
        u = create_account(name="Dana Ito", email="dana@acme.io")["id"]
    except Exception as e:
        return {"error": str(e)}
    added = []
    try:
        for g in ["eng", "vpn"]:
            add_to_group(user=u, group=g)
            added.append(g)
        create_mailbox(user=u)
    except Exception as e:
        for g in reversed(added):
            remove_from_group(user=u, group=g)
        delete_account(user=u)
        return {"error": str(e)}
    return {"ok": u}

provision()
