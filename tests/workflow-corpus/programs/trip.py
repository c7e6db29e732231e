def trip():
    try:
        f = book_flight(flight="LH-400", date="2025-05-02", traveller="T-5")["booking"]
    except Exception as e:
        return {"failed": str(e)}
    try:
        h = book_hotel(hotel="H-BER", nights=3, traveller="T-5")["booking"]
    except Exception as e:
        cancel_flight(booking=f)
        return {"failed": str(e)}
    try:
        car = book_car(city="Berlin", date="2025-05-02", traveller="T-5")["booking"]
    except Exception:
        car = None
    return {"flight": f, "hotel": h, "car": car}

trip()
