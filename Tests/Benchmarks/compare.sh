#!/usr/bin/env bash
# Two or more builds of grain-stories side by side on one page, with nginx serving the same bytes, alternating round
# by round so that the machine's noise hits all alike: what a change to the request path is measured with before it
# lands (BENCHMARKS.md, issue 29).
#
#   bash Tests/Benchmarks/compare.sh path/to/before path/to/after
#
# Seeds the benchmark household once (lib.sh), then in each round starts each binary on it in turn, signs a member in,
# loads TARGET (story: a signed-in story page, the default; strip: the signed-in strip) with
# `wrk -t2 -c64 -d$DURATION`, stops it, and loads nginx on the last answer's bytes. Prints each run's req/s and p99, then
# the median req/s of each server over the ROUNDS rounds. ROUNDS=3, DURATION=8s, VISIBILITY=household.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
[ $# -ge 1 ] || { echo "usage: $0 BINARY [BINARY...]" >&2; exit 2; }
PHOTOS=${PHOTOS:-.build/demo-photos}
PORT=${PORT:-18284}
NGINX_PORT=${NGINX_PORT:-18285}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-8s}
TARGET=${TARGET:-story}
WORK=$(mktemp -d)
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; nginx -c "$WORK/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

BIN=$1 seed_and_serve "$WORK" "$PORT"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
mkdir -p "$WORK/www"
declare -A RATES

# Serves `binary` on the seeded data, signs the member in and loads the target; prints "req/s p99".
run_ours() {
  local binary=$1 cookie url out
  "$binary" serve --port "$PORT" --data "$WORK/data" --geocoder none --visibility "${VISIBILITY:-household}" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  cookie=$(member_cookie "$PORT")
  case $TARGET in
    story) url=$(story_path "$PORT" "$cookie") ;;
    strip) url=/ ;;
    *) echo "TARGET is story or strip, not $TARGET" >&2; exit 2 ;;
  esac
  curl -fsS -H "Cookie: $cookie" "http://127.0.0.1:$PORT$url" >"$WORK/www/index.html"
  out=$(wrk -t2 -c64 -d"$DURATION" --latency -H "Cookie: $cookie" "http://127.0.0.1:$PORT$url")
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') $(echo "$out" | awk '$1 == "99%" {print $2}')"
}

for round in $(seq 1 "$ROUNDS"); do
  for binary in "$@" nginx; do
    if [ "$binary" = nginx ]; then
      [ -f "$WORK/nginx.pid" ] || { start_nginx "$WORK" "$NGINX_PORT"; sleep 0.3; }
      out=$(wrk -t2 -c64 -d"$DURATION" --latency "http://127.0.0.1:$NGINX_PORT/index.html")
      result="$(echo "$out" | awk '/Requests\/sec/ {print $2}') $(echo "$out" | awk '$1 == "99%" {print $2}')"
    else
      result=$(run_ours "$binary")
    fi
    RATES[$binary]="${RATES[$binary]:-} ${result%% *}"
    echo "round $round $binary: ${result%% *} req/s, p99 ${result##* }; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
for binary in "$@" nginx; do
  # shellcheck disable=SC2086 # the rates are a list of numbers
  echo "median $binary: $(median ${RATES[$binary]}) req/s (rounds:${RATES[$binary]})"
done
