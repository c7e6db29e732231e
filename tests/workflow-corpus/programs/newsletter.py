sent, skipped, result = 0, [], None
for e in list_subscribers():
    try:
        send(email=e, campaign="april-news")
        sent += 1
    except Exception as ex:
        if str(ex) == "rate limited":
            result = {"stopped_at": e}
            break
        skipped.append(e)
result or {"sent": sent, "skipped": skipped}
