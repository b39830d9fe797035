"""The kiosk's memory over thousands of slides in headless Chromium (run by kiosk-soak.sh against a live server).

Counts slides as the kiosk paints them (a MutationObserver on its photo), reads the JS heap after a forced garbage
collection and the DOM counters through the DevTools protocol after WARMUP slides, half way and after SLIDES more (default 2,000), and
fails if either grew by more than 10% from the first reading to the last. Prints METRIC lines for BENCHMARKS.md.
"""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BASE = os.environ["BASE_URL"].rstrip("/")
SLIDES = int(os.environ.get("SLIDES", "2000"))
# Past the first 250 photos: the browser's resource-timing buffer keeps one entry per fetch until it holds 250,
# then stops, and those entries count in the heap; a start before that measures the buffer filling, not the kiosk.
WARMUP = int(os.environ.get("WARMUP", "300"))
WIDTH, HEIGHT = (int(x) for x in os.environ.get("WINDOW", "1920x1080").split("x"))

COUNTER = """
window.__slides = 0;
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) if (n.dataset && n.dataset.storyItem) window.__slides += 1;
}).observe(document.querySelector('[data-kiosk]'), {childList: true, subtree: true});
"""


def sample(d):
    d.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    heap = d.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]
    counters = d.execute_cdp_cmd("Memory.getDOMCounters", {})
    return {"heap": heap, "nodes": counters["nodes"], "listeners": counters["jsEventListeners"],
            "slides": d.execute_script("return window.__slides")}


def main():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={WIDTH},{HEIGHT}",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"]:
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        d.execute_cdp_cmd("HeapProfiler.enable", {})
        d.get(BASE + "/kiosk")
        d.execute_script(COUNTER)
        started = time.time()
        while d.execute_script("return window.__slides") < WARMUP:
            time.sleep(0.5)
        first = sample(d)
        while d.execute_script("return window.__slides") < WARMUP + SLIDES // 2:
            time.sleep(2)
        middle = sample(d)
        while d.execute_script("return window.__slides") < WARMUP + SLIDES:
            time.sleep(2)
        last = sample(d)
        elapsed = time.time() - started
    finally:
        d.quit()
    for key in ["heap", "nodes", "listeners"]:
        print(f"METRIC kiosk-soak {key} start={first[key]} middle={middle[key]} end={last[key]}"
              f" growth={(last[key] - first[key]) / first[key]:+.1%}")
    print(f"METRIC kiosk-soak measured={last['slides'] - first['slides']} slides, {last['slides']} in all,"
          f" seconds={elapsed:.0f} window={WIDTH}x{HEIGHT}")
    failed = [k for k in ["heap", "nodes"] if last[k] > first[k] * 1.10]
    if failed:
        print(f"FAIL: {', '.join(failed)} grew by more than 10% over {last['slides'] - first['slides']} slides")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
