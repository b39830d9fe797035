"""The end of `make test`: a table of its phases, and its 15 slowest tests, Swift and Python.

Usage: test_summary.py LOG_DIR TOTAL_SECONDS. Reads LOG_DIR/phases.tsv (name, start, end and exit status of each
phase, as Tests/run-all.sh writes them) and every LOG_DIR/*.log for swift-testing's `✔ Test "…" passed after S
seconds.` lines and the browser suite's `DURATION S CELL TEST` lines.
"""
import pathlib
import re
import sys
import time

SWIFT_TEST = re.compile(r'^[✔✘] Test (?!run with )(.+?) (?:passed|failed) after ([0-9.]+) seconds')
PYTHON_TEST = re.compile(r'^DURATION ([0-9.]+) (\S+(?: remote)?) (\S+)$')


def main(directory, total):
    logs = pathlib.Path(directory)
    rows = []
    phases = logs / "phases.tsv"
    if phases.exists():
        for line in phases.read_text().splitlines():
            name, begin, end, status = line.split("\t")
            rows.append((int(begin), name, int(end) - int(begin), status))
    print("make test: phases")
    print(f"  {'phase':<36} {'started (UTC)':>13} {'seconds':>8}  exit")
    for begin, name, seconds, status in sorted(rows):
        print(f"  {name:<36} {time.strftime('%H:%M:%S', time.gmtime(begin)):>13} {seconds:>8}  {status}")
    print(f"  {'all of make test':<36} {'':>13} {total:>8}")

    tests = set()  # a failing test's line comes again in the report at the end of its log
    for log in sorted(logs.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            line = line.strip()
            if m := SWIFT_TEST.match(line):
                tests.add((float(m.group(2)), "swift", m.group(1), log.name))
            elif m := PYTHON_TEST.match(line):
                tests.add((float(m.group(1)), "browser " + m.group(2), m.group(3), log.name))
    print()
    print(f"make test: the 15 slowest of {len(tests)} timed tests")
    for seconds, kind, name, _ in sorted(tests, reverse=True)[:15]:
        print(f"  {seconds:8.1f} s  {kind:<22} {name[:110]}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
