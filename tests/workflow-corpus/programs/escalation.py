acked_by = None
for p in ["ana", "ben", "cho"]:
    try:
        if page(person=p, incident="INC-88")["acked"]:
            acked_by = p
            break
    except Exception:
        pass
{"acked_by": acked_by}
