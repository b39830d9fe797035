#!/usr/bin/env bash
# `make soak`: steady load on a release server for SOAK_SECONDS (default 600) while its resident memory and
# open file descriptors are sampled from /proc every SAMPLE_SECONDS (default 10). The load is wrk with 16
# connections cycling through the strip (/), a viewer page and that page's full-size blob. Fails if, from
# WARMUP_SECONDS (default 60) to the end of the load, RSS grew by more than RSS_GROWTH_MIB (default 16) or the
# descriptor count by more than FD_GROWTH (default 8); if, idle again after the load, more than IDLE_FD_SLACK
# (default 16) descriptors are open than before it; or if any request failed.
#
# BIN=path/to/grain-stories overrides the binary.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
SOAK_SECONDS=${SOAK_SECONDS:-600}
SAMPLE_SECONDS=${SAMPLE_SECONDS:-10}
WARMUP_SECONDS=${WARMUP_SECONDS:-60}
RSS_GROWTH_MIB=${RSS_GROWTH_MIB:-16}
FD_GROWTH=${FD_GROWTH:-8}
# Idle again, a few more descriptors than at the start are expected: the front's pooled keep-alive connections
# to its own backend (two descriptors each, until the 30 s idle timeout) and SQLite reader connections.
IDLE_FD_SLACK=${IDLE_FD_SLACK:-16}
CONNECTIONS=${CONNECTIONS:-16}
PORT=${PORT:-18284}
WORK=$(mktemp -d)
SERVER_PID=
WRK_PID=
trap 'kill $WRK_PID $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

VISIBILITY=public seed_and_serve "$WORK" "$PORT"
VIEWER=$(story_path "$PORT")
BLOB=$(curl -fsS "http://127.0.0.1:$PORT$VIEWER" | grep -o 'class="viewer__photo" src="[^"]*"' | head -1 \
  | sed -e 's/.*src="//' -e 's/"$//' -e "s|http://127.0.0.1:$PORT||")
[ -n "$BLOB" ] || { echo "no full-size image on the viewer page $VIEWER" >&2; exit 1; }
cat >"$WORK/mix.lua" <<LUA
local paths = {"/", "$VIEWER", "$BLOB"}
local next = 0
request = function()
  next = next % #paths + 1
  return wrk.format("GET", paths[next])
end
LUA

sample() { # "seconds rss-kB fds"
  echo "$1 $(awk '/VmRSS/ {print $2}' /proc/$SERVER_PID/status) $(ls /proc/$SERVER_PID/fd | wc -l)"
}
echo "Soak: $SOAK_SECONDS s, wrk -t1 -c$CONNECTIONS over /, $VIEWER and $BLOB; a sample every $SAMPLE_SECONDS s" >&2
sample 0 >"$WORK/samples"
wrk -t1 -c"$CONNECTIONS" -d"${SOAK_SECONDS}s" --latency -s "$WORK/mix.lua" "http://127.0.0.1:$PORT" >"$WORK/wrk.out" 2>&1 &
WRK_PID=$!
started=$(date +%s)
while kill -0 "$WRK_PID" 2>/dev/null; do
  sleep "$SAMPLE_SECONDS"
  kill -0 "$WRK_PID" 2>/dev/null || break
  sample $(( $(date +%s) - started )) >>"$WORK/samples"
done
wait "$WRK_PID" || true
WRK_PID=
# Once the load stops every connection is closed: the descriptor count should be back where it started.
sleep 2
read -r _ rss_idle fd_idle < <(sample idle)

rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.out")
p99=$(awk '$1=="99%" {print $2}' "$WORK/wrk.out" | to_ms)
errors=$(awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' "$WORK/wrk.out")
non2xx=$(awk '/Non-2xx/ {print $5}' "$WORK/wrk.out")
requests=$(awk '/requests in/ {print $1}' "$WORK/wrk.out")
read -r rss_start fd_start < <(awk 'NR == 1 {print $2, $3}' "$WORK/samples")
read -r rss_end fd_end < <(awk 'END {print $2, $3}' "$WORK/samples")
read -r rss_max fd_max < <(awk 'BEGIN {r = 0; f = 0} {if ($2 > r) r = $2; if ($3 > f) f = $3} END {print r, f}' "$WORK/samples")
read -r rss_warm fd_warm < <(awk -v w="$WARMUP_SECONDS" '$1 >= w {print $2, $3; exit}' "$WORK/samples")
rss_warm=${rss_warm:-$rss_start}; fd_warm=${fd_warm:-$fd_start}
rss_growth=$(( (rss_end - rss_warm) / 1024 )); fd_growth=$(( fd_end - fd_warm )); fd_left=$(( fd_idle - fd_start ))

echo "Samples (seconds, RSS kB, open fds):" >&2
cat "$WORK/samples" >&2
echo "| | start (idle) | after warm-up (${WARMUP_SECONDS} s) | max | end of load | idle after | growth after warm-up | limit |"
echo "|---|---|---|---|---|---|---|---|"
echo "| RSS | $((rss_start / 1024)) MiB | $((rss_warm / 1024)) MiB | $((rss_max / 1024)) MiB | $((rss_end / 1024)) MiB | $((rss_idle / 1024)) MiB | $rss_growth MiB | $RSS_GROWTH_MIB MiB |"
echo "| open fds | $fd_start | $fd_warm | $fd_max | $fd_end | $fd_idle | $fd_growth (idle: $fd_left) | $FD_GROWTH (idle: $IDLE_FD_SLACK) |"
echo
echo "Load: $requests requests in $SOAK_SECONDS s ($rps req/s), p99 ${p99:-?} ms, ${errors:-0} socket errors, ${non2xx:-0} non-2xx."
failed=0
[ "$rss_growth" -le "$RSS_GROWTH_MIB" ] || { echo "FAILED: RSS grew by $rss_growth MiB after warm-up" >&2; failed=1; }
[ "$fd_growth" -le "$FD_GROWTH" ] || { echo "FAILED: open descriptors grew by $fd_growth after warm-up" >&2; failed=1; }
[ "$fd_left" -le "$IDLE_FD_SLACK" ] || { echo "FAILED: $fd_left more descriptors open when idle than at the start" >&2; failed=1; }
[ "${errors:-0}" -eq 0 ] && [ "${non2xx:-0}" -eq 0 ] || { echo "FAILED: requests failed during the soak" >&2; failed=1; }
exit $failed
