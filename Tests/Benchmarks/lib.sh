# Shared by the benchmark scripts (sourced, not run). Expects BIN and PHOTOS to be set.

# Seeds a household of 20 authors into WORK/data in a first run, then starts a fresh process on it (so that its
# memory is the serving's, not the seeding's) on PORT with any further arguments. Sets SERVER_PID.
# SEED_FLAGS adds seeding options (backup.sh: "--demo-archive-stories 2000"); SEED_SECONDS (default 120) is how
# long the seeding may take. VISIBILITY (default household, the server's own default) is the served household's
# `--visibility`: the benchmarks that load its pages as anyone, or read it as a remote hatk (fronts.sh), call this
# with VISIBILITY=public. The seeding run is public whatever VISIBILITY says, since its check counts the authors on
# `/` as anyone would; visibility is a serve option and nothing of it is kept in the data.
seed_and_serve() {
  local work=$1 port=$2
  shift 2
  [ -x "$BIN" ] || { echo "no grain-stories binary at $BIN (make release, or BIN=...)" >&2; return 1; }
  # shellcheck disable=SC2086 # SEED_FLAGS is a list of words
  "$BIN" serve --port "$port" --data "$work/data" --demo --demo-extra-members 17 ${SEED_FLAGS:-} --demo-photos "$PHOTOS" \
    --geocoder none --visibility public >"$work/seed.log" 2>&1 &
  SERVER_PID=$!
  local n=0
  for _ in $(seq 1 $((${SEED_SECONDS:-120} * 5))); do
    n=$(curl -fsS "http://127.0.0.1:$port/" 2>/dev/null | grep -o 'data-story-author=' | wc -l || true)
    [ "$n" -ge 20 ] && break
    sleep 0.2
  done
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  [ "$n" -ge 20 ] || { echo "seeding did not produce 20 authors; see $work/seed.log" >&2; cat "$work/seed.log" >&2; return 1; }
  "$BIN" serve --port "$port" --data "$work/data" --geocoder none --visibility "${VISIBILITY:-household}" "$@" >"$work/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "grain-stories did not start; see $work/server.log" >&2
  return 1
}

# Signs the benchmarks' member in on the server on PORT through the OAuth flow a browser takes (signin.py) and prints
# the Cookie header its browser would then send.
member_cookie() {
  python3 "$HERE/signin.py" "http://127.0.0.1:$1" jonas.home.test jonas-stories
}

# The path of Maya's first story page on the server on PORT (where /stories/maya.home.test sends a browser), asked
# with the Cookie header given as the second argument, if any.
story_path() {
  local port=$1 cookie=${2:-} args=()
  [ -n "$cookie" ] && args=(-H "Cookie: $cookie")
  curl -fsS "${args[@]}" -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$port/stories/maya.home.test" | sed "s|http://127.0.0.1:$port||"
}

# nginx 1.22 (Debian's nginx-light) serving WORK/www on PORT with 2 workers, logging nothing.
start_nginx() {
  local work=$1 port=$2
  cat >"$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
  server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
  mkdir -p "$work/tmp"
  chmod -R a+rX "$work"
  nginx -c "$work/nginx.conf"
}

# The median of the numbers given as arguments.
median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {if (NR == 0) print 0; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

# wrk's latencies ("850.00us", "5.38ms", "1.13s") in milliseconds, one per line on standard input.
to_ms() {
  awk '{v = $1; if (v ~ /us$/) {sub(/us$/, "", v); v /= 1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v *= 1000}; printf "%.2f\n", v}'
}

# wrk's summary of one run as "req/s p50-ms p99-ms errors non2xx"; arguments are wrk's (add --latency for the
# percentiles).
wrk_summary() {
  local out
  out=$(wrk "$@")
  echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') \
$(echo "$out" | awk '$1=="50%" {print $2}' | to_ms | grep . || echo 0) \
$(echo "$out" | awk '$1=="99%" {print $2}' | to_ms | grep . || echo 0) \
$(echo "$out" | awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' | grep . || echo 0) \
$(echo "$out" | awk '/Non-2xx/ {print $5}' | grep . || echo 0)"
}

# Seconds since the epoch, with nanoseconds.
now_s() { date +%s.%N; }
