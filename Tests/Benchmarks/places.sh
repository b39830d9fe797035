#!/usr/bin/env bash
# `make bench` (place search): each query of Tests/Benchmarks/places.py timed through /api/places on the release
# server, with the real table (`make places-data`). BIN=path/to/grain-stories, RUNS=21.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
PORT=${PORT:-18285}
WORK=$(mktemp -d)
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

VISIBILITY=public seed_and_serve "$WORK" "$PORT" --place-names "$PWD/.build/places/place-names.csv"
before=$(awk '$1 == "VmRSS:" {print $2}' "/proc/$SERVER_PID/status")
python3 "$HERE/places.py" "http://127.0.0.1:$PORT" "${RUNS:-21}"
after=$(awk '$1 == "VmRSS:" {print $2}' "/proc/$SERVER_PID/status")
echo
echo "RSS before the first search $((before / 1024)) MiB, after the searches $((after / 1024)) MiB (the mapped table's touched pages included)."
