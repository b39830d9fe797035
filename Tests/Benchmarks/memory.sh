#!/usr/bin/env bash
# `make bench` (third part): how much a burst of big uploads raises the release server's peak memory (issue 14
# item 5: uploads stream to disk and are decoded from there, so the bound is the image workers, not the uploads).
#
# Rounds, each on the same server, each through the create form (Tests/Benchmarks/uploads.py: every answer must be
# 303 or 503 with Retry-After):
#   12 at once × a 25 MB PNG (synthetic 4400×2900 noise, which the pipeline cannot pass through), and
#   50 at once × a 6 MB JPEG (synthetic 4000×3000, quality 86).
# Each round signs in first (the password hash takes about 128 MiB of its own); then uploads.py resets the kernel's
# peak-RSS mark (`echo 5 > /proc/PID/clear_refs`) and notes VmRSS, and the uploads start. VmHWM afterwards minus
# that RSS is the increase. VmRSS is also sampled every 50 ms from then on, as a check on the mark. Fails when any
# answer is not 303 or 503 with Retry-After, a file is left in the uploads directory, or a round's peak is more
# than 200 MB above the idle server (the issue's bound).
# BIN=path/to/grain-stories, MEMORY_ROUNDS="12:synthetic:4400x2900 50:synthetic-jpeg:4000x3000" to choose others.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
MEMORY_ROUNDS=${MEMORY_ROUNDS:-12:synthetic:4400x2900 50:synthetic-jpeg:4000x3000}
PORT=${PORT:-18284}
WORK=$(mktemp -d)
SERVER_PID=
SAMPLER_PID=
trap 'kill $SAMPLER_PID 2>/dev/null || true; kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

kb() { awk -v key="$1:" '$1 == key {print $2}' "/proc/$SERVER_PID/status"; }

VISIBILITY=public seed_and_serve "$WORK" "$PORT" --uploads-per-minute 1000
idle=$(kb VmRSS)
# Warm the pages and the first upload's code paths, so the rounds measure uploads and not first use.
for _ in 1 2 3; do curl -fsS -o /dev/null "http://127.0.0.1:$PORT/"; done
failed=0
over_bound=
echo "Server: $BIN, $(nproc) cores, default image pool (one worker per core) and upload queue (16)."
echo
echo "| Round | answers (uploads.py) | RSS before | peak RSS (VmHWM) | peak − before | sampled peak − before | peak − idle |"
echo "|---|---|---|---|---|---|---|"
for round in $MEMORY_ROUNDS; do
  count=${round%%:*}
  photo=${round#*:}
  rm -f "$WORK/before" "$WORK/sampled"
  (peak=0; while [ ! -s "$WORK/before" ]; do sleep 0.02; done; while kill -0 "$SERVER_PID" 2>/dev/null; do
     now=$(awk '$1 == "VmRSS:" {print $2}' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0)
     [ "${now:-0}" -gt "$peak" ] && { peak=$now; echo "$peak" >"$WORK/sampled"; }
     sleep 0.05
   done) &
  SAMPLER_PID=$!
  row=$(UPLOADS_NO_HEADER=no UPLOADS_RESET_PEAK_PID=$SERVER_PID UPLOADS_RSS_BEFORE_FILE="$WORK/before" \
    python3 "$HERE/uploads.py" "http://127.0.0.1:$PORT" "$photo" "$count" | tail -1) || failed=1
  before=$(cat "$WORK/before" 2>/dev/null || echo 0)
  kill "$SAMPLER_PID" 2>/dev/null || true; wait "$SAMPLER_PID" 2>/dev/null || true
  hwm=$(kb VmHWM)
  sampled=$(cat "$WORK/sampled" 2>/dev/null || echo "$before")
  answers=$(echo "$row" | awk -F'|' '{for (i = 2; i <= 6; i++) gsub(/^ +| +$/, "", $i); print $2 ": " $3 " posted (303), " $4 " shed (503 + Retry-After), " $5 " other, in " $6}')
  printf '| %s | %s | %d MiB | %d MiB | **%d MiB** | %d MiB | %d MiB |\n' "$count × $photo" "$answers" $((before / 1024)) \
    $((hwm / 1024)) $(((hwm - before) / 1024)) $(((sampled - before) / 1024)) $(((hwm - idle) / 1024))
  # The issue's bound: a burst of uploads raises the peak at most 200 MB (decimal) above the idle server.
  if [ $(((hwm - idle) * 1024)) -gt 200000000 ]; then
    over_bound="$over_bound $count × $photo: $(((hwm - idle) / 1024)) MiB over idle;"
  fi
done
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")
leftovers=$(find "$WORK/data/uploads" -type f | wc -l)
echo
echo "Idle RSS after start: $((idle / 1024)) MiB. Afterwards / answers $status; files left in the uploads directory: $leftovers."
[ -z "$over_bound" ] || echo "Over the 200 MB bound:$over_bound"
[ "$status" = 200 ] && [ "$failed" = 0 ] && [ "$leftovers" = 0 ] && [ -z "$over_bound" ]
