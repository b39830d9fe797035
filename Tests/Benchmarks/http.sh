#!/usr/bin/env bash
# `make bench`: wrk against grain-stories (release build) and nginx serving the same bytes, side by side in
# one run, on loopback. Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/grain-stories
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
WORK=$(mktemp -d)
PORT=18281
NGINX_PORT=18282
trap 'kill $SERVER_PID 2>/dev/null || true; nginx -c "$WORK/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$WORK"' EXIT

# Seed 20 authors in a first run, then measure a fresh process, so peak RSS is the serving's, not the seeding's.
"$BIN" serve --port $PORT --data "$WORK/data" --demo --demo-extra-members 17 --demo-photos .build/demo-photos >"$WORK/seed.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 300); do
  n=$(curl -fsS "http://127.0.0.1:$PORT/" 2>/dev/null | grep -o 'data-story-author=' | wc -l || true)
  [ "$n" -ge 20 ] && break; sleep 0.2
done
kill $SERVER_PID; wait $SERVER_PID 2>/dev/null || true
"$BIN" serve --port $PORT --data "$WORK/data" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
mkdir -p "$WORK/www"
curl -fsS "http://127.0.0.1:$PORT/" -o "$WORK/www/index.html"
VIEWER=$(curl -fsS -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$PORT/stories/maya.home.test" | sed "s|http://127.0.0.1:$PORT||")
curl -fsS "http://127.0.0.1:$PORT$VIEWER" -o "$WORK/www/viewer.html"
AUTHORS=$(grep -o 'data-story-author=' "$WORK/www/index.html" | wc -l)

cat >"$WORK/nginx.conf" <<CONF
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp; uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
  server { listen 127.0.0.1:$NGINX_PORT; root $WORK/www; }
}
CONF
mkdir -p "$WORK/tmp"
chmod -R a+rX "$WORK"
nginx -c "$WORK/nginx.conf"

run() { # name url -> "req/s p99"
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$2")
  local rps p99
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  local errors
  errors=$(echo "$out" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')
  echo "$1|$rps|$p99|${errors:-none}"
}

echo "Strip of $AUTHORS authors; viewer page $VIEWER; wrk -t2 -c$CONNECTIONS -d$DURATION" >&2
results=()
results+=("$(run "grain-stories /" "http://127.0.0.1:$PORT/")")
results+=("$(run "nginx, same bytes as /" "http://127.0.0.1:$NGINX_PORT/index.html")")
results+=("$(run "grain-stories viewer page" "http://127.0.0.1:$PORT$VIEWER")")
results+=("$(run "nginx, same bytes as the viewer page" "http://127.0.0.1:$NGINX_PORT/viewer.html")")
RSS=$(awk '/VmHWM/ {print $2}' /proc/$SERVER_PID/status)

echo "| What | req/s | p99 | errors |"
echo "|---|---|---|---|"
for r in "${results[@]}"; do IFS='|' read -r name rps p99 errs <<<"$r"; echo "| $name | $rps | $p99 | $errs |"; done
strip=$(echo "${results[0]}" | cut -d'|' -f2); nstrip=$(echo "${results[1]}" | cut -d'|' -f2)
view=$(echo "${results[2]}" | cut -d'|' -f2); nview=$(echo "${results[3]}" | cut -d'|' -f2)
echo
echo "Ratio to nginx: strip $(awk "BEGIN {printf \"%.2f\", $strip/$nstrip}"), viewer $(awk "BEGIN {printf \"%.2f\", $view/$nview}"). Peak RSS of grain-stories: $((RSS / 1024)) MiB ($RSS kB)."
