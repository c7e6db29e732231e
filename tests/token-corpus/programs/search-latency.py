import statistics
ms = sorted(r["duration_ms"] for r in requests if r["endpoint"] == "/api/search" and r["status"] == 200)
rank = 0.95 * (len(ms) - 1)
lo = int(rank)
p95 = ms[lo] + (ms[min(lo + 1, len(ms) - 1)] - ms[lo]) * (rank - lo)
{"median": statistics.median(ms), "p95": p95}
