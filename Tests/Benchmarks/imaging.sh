#!/usr/bin/env bash
# `make bench` (images): the upload pipeline against pyvips and Pillow on the same inputs, in one run.
#
# Inputs are made once into .build/bench-images from the demo photos (never committed): a 12 MP and a 48 MP
# phone-like JPEG (enlarged photos with fine and coarse noise, so they compress like detailed photos), a 12 MP
# HEIC (heif-enc), a PNG screenshot, and an 8x8 image per format for each tool's start-up. Each tool fits the
# image in 2000 px and searches the highest JPEG quality under 900,000 bytes (Tests/Benchmarks/imaging.py).
# BIN=path/to/grain-stories, RUNS=7, IMAGES=directory for the inputs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
IMAGES=${IMAGES:-.build/bench-images}
RUNS=${RUNS:-7}
[ -x "$BIN" ] || { echo "no grain-stories binary at $BIN (make release, or BIN=...)" >&2; exit 1; }
python3 "$HERE/imaging.py" inputs "$IMAGES" "$PHOTOS"
echo "Upload pipeline, work time (median of $RUNS, minus the same tool on an 8x8 image) and peak RSS:"
python3 "$HERE/imaging.py" measure "$IMAGES" "$BIN" "$RUNS"
