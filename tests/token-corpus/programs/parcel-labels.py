[f"TRK-{p['id']:06}" for p in sorted(parcels, key=lambda p: p["id"]) if not p["delivered"]]
