#!/usr/bin/env bash
# `make bench`: wrk against grain-stories (release build) and nginx serving the same bytes, side by side in
# one run, on loopback: the strip (/) for an anonymous visitor and for a signed-in member (one sign-in, its cookie
# reused by wrk), a story page for that member, an anonymous viewer page and the full-size blob. Each URL gets
# ROUNDS rounds of DURATION with CONNECTIONS connections, interleaved with nginx so that the machine's noise
# hits both alike; the table gives the median of the rounds. Prints a Markdown table for BENCHMARKS.md and
# exits non-zero if any request failed (socket errors or a non-2xx/3xx answer). Peak RSS is the kernel's
# high-water mark from after the sign-in to the end.
#
# BIN=path/to/grain-stories overrides the binary; DURATION=20s ROUNDS=3 CONNECTIONS=64 are the defaults.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
DURATION=${DURATION:-20s}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
PHOTOS=${PHOTOS:-.build/demo-photos}
WORK=$(mktemp -d)
PORT=${PORT:-18281}
NGINX_PORT=${NGINX_PORT:-18282}
SERVER_PID=
trap 'kill $SERVER_PID 2>/dev/null || true; nginx -c "$WORK/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

seed_and_serve "$WORK" "$PORT"
mkdir -p "$WORK/www"
curl -fsS "http://127.0.0.1:$PORT/" -o "$WORK/www/index.html"
VIEWER=$(curl -fsS -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$PORT/stories/maya.home.test" | sed "s|http://127.0.0.1:$PORT||")
curl -fsS "http://127.0.0.1:$PORT$VIEWER" -o "$WORK/www/viewer.html"
BLOB=$(grep -o 'class="viewer__photo" src="[^"]*"' "$WORK/www/viewer.html" | head -1 | sed -e 's/.*src="//' -e 's/"$//' -e "s|http://127.0.0.1:$PORT||")
[ -n "$BLOB" ] || { echo "no full-size image on the viewer page $VIEWER" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$PORT$BLOB" -o "$WORK/www/blob.jpg"
AUTHORS=$(grep -o 'data-story-author=' "$WORK/www/index.html" | wc -l)
# A member signed in once; wrk sends the cookie with every request, as the member's browser would.
COOKIE=$(python3 "$HERE/signin.py" "http://127.0.0.1:$PORT" jonas.home.test jonas-stories)
curl -fsS -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/" -o "$WORK/www/signed-in.html"
grep -q 'data-signed-in-as' "$WORK/www/signed-in.html" || { echo "the signed-in strip does not show the member" >&2; exit 1; }
curl -fsS -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT$VIEWER" -o "$WORK/www/signed-in-story.html"
start_nginx "$WORK" "$NGINX_PORT"
# The one sign-in's password hash (scrypt, N=2^17, r=8) takes 128 MiB for a moment; pages never do. The peak
# reported is what serving pages takes, so the kernel's high-water mark starts again here (as memory.sh does).
echo 5 >"/proc/$SERVER_PID/clear_refs"
SIGNED_IN_RSS=$(awk '/VmRSS/ {print $2}' /proc/$SERVER_PID/status)

FAILED=0
# TCP connections from the server process to its own port: in embedded mode there must be none (reads are in
# process). Sampled every half second while wrk runs; the largest count is kept.
SELF_MAX=0
WATCHERS=()
watch_self_connections() {
  while kill -0 "$1" 2>/dev/null; do
    local n
    n=$(ss -tnpH state established "( dport = :$PORT )" 2>/dev/null | grep -c "pid=$SERVER_PID," || true)
    [ "$n" -gt "$(cat "$WORK/self-max" 2>/dev/null || echo 0)" ] && echo "$n" >"$WORK/self-max"
    sleep 0.5
  done
}

# One wrk run: prints "req/s p99-ms errors non2xx". A second argument is a Cookie header.
measure() {
  local out rps p99 errors non2xx
  local header=()
  [ -n "${2:-}" ] && header=(-H "Cookie: $2")
  out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "${header[@]}" "$1")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}' | to_ms)
  errors=$(echo "$out" | awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  echo "$rps ${p99:-0} ${errors:-0} ${non2xx:-0}"
}

declare -A RPS P99 ERR NON
TARGETS=("strip" "signedstrip" "signedstory" "viewer" "blob")
declare -A OURS=([strip]="http://127.0.0.1:$PORT/" [signedstrip]="http://127.0.0.1:$PORT/" [signedstory]="http://127.0.0.1:$PORT$VIEWER"
  [viewer]="http://127.0.0.1:$PORT$VIEWER" [blob]="http://127.0.0.1:$PORT$BLOB")
declare -A COOKIES=([signedstrip]="$COOKIE" [signedstory]="$COOKIE")
declare -A THEIRS=([strip]="http://127.0.0.1:$NGINX_PORT/index.html" [signedstrip]="http://127.0.0.1:$NGINX_PORT/signed-in.html"
  [signedstory]="http://127.0.0.1:$NGINX_PORT/signed-in-story.html" [viewer]="http://127.0.0.1:$NGINX_PORT/viewer.html"
  [blob]="http://127.0.0.1:$NGINX_PORT/blob.jpg")
echo "Strip of $AUTHORS authors; viewer page $VIEWER; blob $BLOB ($(stat -c %s "$WORK/www/blob.jpg") bytes); wrk -t2 -c$CONNECTIONS, $ROUNDS rounds of $DURATION" >&2
for round in $(seq 1 "$ROUNDS"); do
  for target in "${TARGETS[@]}"; do
    for side in ours theirs; do
      cookie=
      if [ $side = ours ]; then url=${OURS[$target]}; cookie=${COOKIES[$target]:-}; else url=${THEIRS[$target]}; fi
      if [ $side = ours ]; then
        ( sleep 1; watch_self_connections "$(pgrep -n wrk)" ) &
        WATCHERS+=($!)
      fi
      read -r rps p99 errors non2xx <<<"$(measure "$url" "$cookie")"
      key="$target.$side"
      RPS[$key]="${RPS[$key]:-} $rps"; P99[$key]="${P99[$key]:-} $p99"
      ERR[$key]=$(( ${ERR[$key]:-0} + errors )); NON[$key]=$(( ${NON[$key]:-0} + non2xx ))
      echo "round $round $key: $rps req/s, p99 $p99 ms, $errors socket errors, $non2xx non-2xx" >&2
    done
  done
done
RSS=$(awk '/VmHWM/ {print $2}' /proc/$SERVER_PID/status)
# Only the watchers: a bare `wait` would also wait for the server, which runs until the trap stops it.
wait "${WATCHERS[@]}"
SELF_MAX=$(cat "$WORK/self-max" 2>/dev/null || echo 0)

declare -A LABEL=([strip.ours]="grain-stories \`/\` anonymous (strip of $AUTHORS authors)" [strip.theirs]="nginx, same bytes as \`/\`"
  [signedstrip.ours]="grain-stories \`/\` signed in" [signedstrip.theirs]="nginx, same bytes as the signed-in \`/\`"
  [signedstory.ours]="grain-stories story page signed in" [signedstory.theirs]="nginx, same bytes as the signed-in story page"
  [viewer.ours]="grain-stories viewer page" [viewer.theirs]="nginx, same bytes as the viewer page"
  [blob.ours]="grain-stories full-size blob (\`/img/feed_fullsize/…\`)" [blob.theirs]="nginx, same bytes as the blob")
echo "| What | req/s (median) | p99 (median) | socket errors | non-2xx |"
echo "|---|---|---|---|---|"
for target in "${TARGETS[@]}"; do
  for side in ours theirs; do
    key="$target.$side"
    printf '| %s | %.0f | %.2f ms | %d | %d |\n' "${LABEL[$key]}" "$(median ${RPS[$key]})" "$(median ${P99[$key]})" "${ERR[$key]}" "${NON[$key]}"
    [ "${ERR[$key]}" -eq 0 ] && [ "${NON[$key]}" -eq 0 ] || FAILED=1
  done
done
echo
ratios=""
for target in "${TARGETS[@]}"; do
  ratios="$ratios $target $(awk "BEGIN {printf \"%.2f\", $(median ${RPS[$target.ours]}) / $(median ${RPS[$target.theirs]})}"),"
done
echo "Ratio to nginx (medians):${ratios%,}. Peak RSS of grain-stories while serving: $((RSS / 1024)) MiB ($RSS kB; $((SIGNED_IN_RSS / 1024)) MiB after the sign-in, before the first request)."
echo "Most TCP connections from grain-stories to its own port while it served: $SELF_MAX."
if [ "$FAILED" -ne 0 ]; then
  echo "FAILED: some requests failed (socket errors or non-2xx answers)" >&2
  exit 1
fi
