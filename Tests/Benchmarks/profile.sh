#!/usr/bin/env bash
# `make bench-profile`: where a cached page's time goes. Seeds the benchmark household (lib.sh), signs a member in,
# loads one URL with wrk (-t2 -c64) and records the server with perf (linux-perf) for SECONDS seconds, then prints
# the share of each library and the functions (with their callees) above 2%, as BENCHMARKS.md shows them.
#
#   TARGET=story bash Tests/Benchmarks/profile.sh     the signed-in story page (default)
#   TARGET=strip | blob                               the signed-in strip, the story's full-size photo
# BIN= (the release build by default), SECONDS_TO_RECORD=8, VISIBILITY=household; SELF=1 adds each function's own time.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
PORT=${PORT:-18283}
RECORD_SECONDS=${SECONDS_TO_RECORD:-8}
TARGET=${TARGET:-story}
WORK=$(mktemp -d)
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

seed_and_serve "$WORK" "$PORT"
COOKIE=$(member_cookie "$PORT")
VIEWER=$(story_path "$PORT" "$COOKIE")
case $TARGET in
  story) URL=$VIEWER ;;
  strip) URL=/ ;;
  blob)
    URL=$(curl -fsS -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT$VIEWER" | grep -o 'class="viewer__photo" src="[^"]*"' | head -1 | sed -e 's/.*src="//' -e 's/"$//')
    ;;
  *) echo "TARGET is story, strip or blob, not $TARGET" >&2; exit 1 ;;
esac
curl -fsS -H "Cookie: $COOKIE" -o /dev/null "http://127.0.0.1:$PORT$URL"
wrk -t2 -c64 -d$((RECORD_SECONDS + 4))s -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT$URL" >"$WORK/wrk.txt" &
WRK=$!
sleep 1
perf record -F 999 -g -p "$SERVER_PID" -o "$WORK/perf.data" -- sleep "$RECORD_SECONDS" 2>/dev/null
wait "$WRK"
echo "$TARGET ($URL): $(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt") req/s while recorded; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "By library (self time):"
perf report -i "$WORK/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' | head -8
if [ -n "${SELF:-}" ]; then
  echo "Functions by their own time, above 0.4% (SELF=1):"
  perf report -i "$WORK/perf.data" --no-children --percent-limit 0.4 --stdio -g none --sort sym 2>/dev/null \
    | grep -E '^ +[0-9]' | swift demangle --simplified 2>/dev/null | cut -c1-150 | head -50
fi
echo "Functions with their callees, above 2% (kernel frames left out):"
perf report -i "$WORK/perf.data" --children --percent-limit ${LIMIT:-2} --stdio -g none --sort sym 2>/dev/null \
  | grep -E '^ +[0-9]' | grep -v '\[k\]' | grep -v ' 0x' | swift demangle --simplified 2>/dev/null | cut -c1-160 | head -${LINES_SHOWN:-30}
