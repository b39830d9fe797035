#!/usr/bin/env python3
"""The create form's place search on a running grain-stories: signs in, waits for the table to be mapped (the
first search maps it, and that first answer's time is printed), then times each query RUNS times through
`GET /api/places` over loopback and prints one Markdown row per query: the median and slowest whole request
(HTTP included, so an upper bound on the search itself) and the first result.

Usage: places.py BASE_URL [RUNS]
"""
import json
import statistics
import sys
import time
import urllib.parse

from uploads import Client, sign_in

QUERIES = ["p", "pa", "par", "paris", "san francisco", "münchen", "Париж", "londn", "amsterdma", "springfield, illinois",
           "paris, texas", "reykjavik", "xqzvvvqqz"]


def main():
    base = sys.argv[1].rstrip("/")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    client = Client(base)
    sign_in(client, "maya.home.test", "maya-stories")
    started = time.monotonic()
    status, _, _ = client.request("GET", "/api/places?q=paris")
    first = time.monotonic() - started
    for _ in range(100):
        if status == 200:
            break
        time.sleep(0.2)
        status, _, _ = client.request("GET", "/api/places?q=paris")
    print(f"First search (maps the table): {first * 1000:.0f} ms, status {status}.")
    print()
    print("| Query | median | slowest | results | first result |")
    print("|---|---|---|---|---|")
    for query in QUERIES:
        target = "/api/places?q=" + urllib.parse.quote(query)
        times = []
        for _ in range(runs):
            started = time.monotonic()
            status, _, body = client.request("GET", target)
            times.append(time.monotonic() - started)
            assert status == 200, f"{query}: {status}"
        places = json.loads(body)["places"]
        top = f"{places[0]['name']} ({places[0]['detail']})" if places else "–"
        print(f"| `{query}` | {statistics.median(times) * 1000:.2f} ms | {max(times) * 1000:.2f} ms | {len(places)} | {top} |")


if __name__ == "__main__":
    main()
