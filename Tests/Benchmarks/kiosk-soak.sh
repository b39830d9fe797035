#!/usr/bin/env bash
# `make bench-kiosk`: the kiosk left running, measured. A release server with the 20-author household turns a
# slide every STORY_SECONDS (default 0.25) while headless Chromium plays /kiosk for WARMUP + SLIDES slides (default 300 + 2000);
# every STEP slides (default 250) from the warm-up on, the kiosk is paused on the same story, and the JS heap (after
# forced garbage collections) and the DOM node count are read. Fails if either grew by more than 10% from the first
# reading to the last. Heap snapshots at the first and last readings say what grew (SNAPSHOTS=0 skips them;
# SNAPSHOT_DIR=dir keeps them for Tests/Benchmarks/heap-diff.py).
#
# BIN=path/to/grain-stories overrides the binary; WINDOW=1920x1080 the screen.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
PORT=${PORT:-18286}
WORK=$(mktemp -d)
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

VISIBILITY=public seed_and_serve "$WORK" "$PORT" --story-seconds "${STORY_SECONDS:-0.25}"
BASE_URL="http://127.0.0.1:$PORT" SLIDES="${SLIDES:-2000}" WINDOW="${WINDOW:-1920x1080}" python3 "$HERE/kiosk-soak.py"
