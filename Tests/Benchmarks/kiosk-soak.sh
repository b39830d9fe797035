#!/usr/bin/env bash
# `make bench-kiosk`: the kiosk left running, measured. A release server with the 20-author household turns a
# slide every STORY_SECONDS (default 0.25) while headless Chromium plays /kiosk for WARMUP + SLIDES slides (default 300 + 2000);
# the JS heap (after a forced garbage collection) and the DOM node count are read after a warm-up of 300 slides (WARMUP), half way
# and at the end. Fails if either grew by more than 10%.
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

seed_and_serve "$WORK" "$PORT" --story-seconds "${STORY_SECONDS:-0.25}"
BASE_URL="http://127.0.0.1:$PORT" SLIDES="${SLIDES:-2000}" WINDOW="${WINDOW:-1920x1080}" python3 "$HERE/kiosk-soak.py"
