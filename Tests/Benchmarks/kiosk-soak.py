"""The kiosk's memory over thousands of slides in headless Chromium (run by kiosk-soak.sh against a live server).

Counts slides as the kiosk paints them (a MutationObserver on its photo). After WARMUP slides, and then every STEP
slides until SLIDES more (default 2,000), it reads the page in a steady state: it pauses the kiosk at the first paint
of the same story as the first reading (one photo, not a pair), waits for the page to settle, forces two garbage
collections (the second takes what the first only detached), reads the JS heap and the DOM counters through the
DevTools protocol, and plays on. Fails if the heap or the DOM node count at the last reading is more than 10% above
the first. Unless SNAPSHOTS=0, it also takes a heap snapshot at the first and last readings and prints what grew
between them by kind and class (Tests/Benchmarks/heap-diff.py, which can diff saved snapshots too).
Prints METRIC lines for BENCHMARKS.md.

Everything the script asks of the page goes through Runtime.evaluate with returnByValue, which leaves nothing
behind: Selenium's execute_script results stay in the page's heap, held by the DevTools console's handles (about
60 bytes a call), so polling with it made the heap grow with the benchmark's own polling.
"""
import json
import os
import sys
import time
import urllib.request

import websocket
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib  # noqa: E402

heap_diff = importlib.import_module("heap-diff")

BASE = os.environ["BASE_URL"].rstrip("/")
SLIDES = int(os.environ.get("SLIDES", "2000"))
STEP = int(os.environ.get("STEP", "250"))
# Past the first 250 photos, which fill the browser's resource-timing buffer (one entry per fetch, up to 250;
# Blink's heap, not the JS heap) and let V8 optimize the kiosk's functions once.
WARMUP = int(os.environ.get("WARMUP", "300"))
WIDTH, HEIGHT = (int(x) for x in os.environ.get("WINDOW", "1920x1080").split("x"))
SNAPSHOTS = os.environ.get("SNAPSHOTS", "1") != "0"
SNAPSHOT_DIR = os.environ.get("SNAPSHOT_DIR", "")

HOOKS = """
window.__slides = 0;
window.__waiting = null;
(() => {
  const root = document.querySelector('[data-kiosk]');
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!(n.dataset && n.dataset.storyItem)) continue;
      window.__slides += 1;
      const w = window.__waiting;
      if (w && window.__slides >= w.mark && root.dataset.paired === 'false' && (!w.uri || n.dataset.storyItem === w.uri)) {
        window.__waiting = null;
        document.querySelector('[data-pause]').click();
        w.resolve(n.dataset.storyItem);
      }
    }
  }).observe(root, {childList: true, subtree: true});
  window.__pauseAt = (mark, uri) => new Promise((resolve) => { window.__waiting = {mark, uri, resolve}; });
})();
"""


def main():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={WIDTH},{HEIGHT}",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"]:
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

    def evaluate(expression, wait=False):
        answer = d.execute_cdp_cmd("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": wait})
        return answer["result"].get("value")

    def snapshot():
        # Through a second DevTools client on the page: the snapshot arrives as events, which Selenium does not pass on.
        address = d.capabilities["goog:chromeOptions"]["debuggerAddress"]
        page = [t for t in json.load(urllib.request.urlopen(f"http://{address}/json")) if t["type"] == "page"][0]
        ws = websocket.create_connection(page["webSocketDebuggerUrl"], suppress_origin=True, timeout=600)
        chunks = []
        ws.send(json.dumps({"id": 1, "method": "HeapProfiler.takeHeapSnapshot", "params": {"reportProgress": False}}))
        while True:
            message = json.loads(ws.recv())
            if message.get("method") == "HeapProfiler.addHeapSnapshotChunk":
                chunks.append(message["params"]["chunk"])
            elif message.get("id") == 1:
                break
        ws.close()
        return "".join(chunks)

    readings, snaps = [], []
    try:
        d.execute_cdp_cmd("HeapProfiler.enable", {})
        d.get(BASE + "/kiosk")
        evaluate(HOOKS)
        started = time.time()
        story = None
        marks = list(range(WARMUP, WARMUP + SLIDES, STEP)) + [WARMUP + SLIDES]
        for mark in marks:
            story = evaluate(f"window.__pauseAt({mark}, {json.dumps(story)})", wait=True)
            time.sleep(1.5)  # the avatar and the next photo's preload land; nothing else is due while paused
            d.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            d.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            heap = d.execute_cdp_cmd("Runtime.getHeapUsage", {})
            counters = d.execute_cdp_cmd("Memory.getDOMCounters", {})
            reading = {"slides": evaluate("window.__slides"), "heap": heap["usedSize"],
                       "blink": heap.get("embedderHeapUsedSize", 0), "nodes": counters["nodes"],
                       "listeners": counters["jsEventListeners"], "documents": counters["documents"],
                       "seconds": round(time.time() - started)}
            readings.append(reading)
            print("reading " + json.dumps(reading), flush=True)
            if SNAPSHOTS and mark in (marks[0], marks[-1]):
                text = snapshot()
                if SNAPSHOT_DIR:
                    with open(os.path.join(SNAPSHOT_DIR, f"kiosk-{reading['slides']}.heapsnapshot"), "w") as f:
                        f.write(text)
                snaps.append(heap_diff.summarize(json.loads(text)))
            evaluate("document.querySelector('[data-pause]').click()")
        elapsed = time.time() - started
    finally:
        d.quit()
    first, last = readings[0], readings[-1]
    for key in ["heap", "nodes", "listeners", "blink"]:
        series = " ".join(str(r[key]) for r in readings)
        print(f"METRIC kiosk-soak {key} start={first[key]} end={last[key]} growth={(last[key] - first[key]) / first[key]:+.1%}"
              f" every {STEP} slides: {series}")
    print(f"METRIC kiosk-soak measured={last['slides'] - first['slides']} slides, {last['slides']} in all,"
          f" seconds={elapsed:.0f} window={WIDTH}x{HEIGHT}")
    if len(snaps) == 2:
        print(f"heap snapshot at slide {first['slides']} against slide {last['slides']}:")
        heap_diff.report(snaps[0], snaps[1], top=12)
    failed = [k for k in ["heap", "nodes"] if last[k] > first[k] * 1.10]
    if failed:
        print(f"FAIL: {', '.join(failed)} grew by more than 10% over {last['slides'] - first['slides']} slides")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
