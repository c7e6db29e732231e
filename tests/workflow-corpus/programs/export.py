cursor, part, total = None, 0, 0
while True:
    page = fetch_rows(report="R-9", cursor=cursor)
    try:
        upload(report="R-9", part=part + 1, rows=page["rows"])
    except Exception:
        result = {"uploaded": part, "resume_cursor": cursor}
        break
    part += 1
    total += len(page["rows"])
    cursor = page["next"]
    if cursor is None:
        result = {"uploaded": part, "rows": total}
        break
result
