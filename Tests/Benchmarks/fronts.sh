#!/usr/bin/env bash
# `make bench`: the signed-in strip (/) on one front keeping its sessions in SQLite against two fronts sharing
# theirs in PostgreSQL (--sessions), side by side in one run (issue 15). Every front is a public front on the same
# remote hatk: one grain-stories serving the demo household of 20 authors, reached with --appview. The SQLite side
# gets one wrk with CONNECTIONS connections; the PostgreSQL side two wrk at once, CONNECTIONS/2 on each front (req/s
# added, the worse p99). ROUNDS rounds of DURATION, interleaved; the table gives the medians. PostgreSQL is
# Debian's (a throwaway cluster in the work directory, on a unix socket, default durability settings).
#
# BIN=path/to/grain-stories overrides the binary; DURATION=15s ROUNDS=3 CONNECTIONS=64 are the defaults.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
DURATION=${DURATION:-15s}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
PHOTOS=${PHOTOS:-.build/demo-photos}
HATK_PORT=${HATK_PORT:-18291}
SQLITE_PORT=${SQLITE_PORT:-18292}
PG_PORT_A=${PG_PORT_A:-18293}
PG_PORT_B=${PG_PORT_B:-18294}
WORK=$(mktemp -d)
chmod 755 "$WORK"
PIDS=()
PGBIN=$(pg_config --bindir)
AS_POSTGRES=()
[ "$(id -u)" = 0 ] && AS_POSTGRES=(runuser -u postgres --)
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  kill "${SERVER_PID:-}" 2>/dev/null || true
  [ -d "$WORK/pg/data" ] && "${AS_POSTGRES[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
source "$HERE/lib.sh"

# The upstream: the demo household, as any hatk would serve it.
VISIBILITY=public seed_and_serve "$WORK" "$HATK_PORT"
HATK="http://127.0.0.1:$HATK_PORT"

mkdir -p "$WORK/pg"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$WORK/pg"
"${AS_POSTGRES[@]}" "$PGBIN/initdb" -D "$WORK/pg/data" -A trust -U postgres --no-sync >"$WORK/pg-init.log" 2>&1
"${AS_POSTGRES[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/server.log" -w start \
  -o "-c listen_addresses='' -k $WORK/pg -c max_connections=200" >/dev/null
SESSIONS="postgresql:///postgres?host=$WORK/pg&user=postgres"
PG_VERSION=$("${AS_POSTGRES[@]}" psql -X -A -t -h "$WORK/pg" -U postgres -c 'SHOW server_version')

# One sealing key for the two PostgreSQL fronts, each opening what the other sealed.
export GRAIN_STORIES_DATA_KEY=$(python3 -c 'import base64, os; print(base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode())')
front() {
  local name=$1 port=$2
  shift 2
  "$BIN" serve --port "$port" --data "$WORK/$name" --appview "$HATK" --geocoder none "$@" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 300); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "front $name did not start; see its log:" >&2; cat "$WORK/$name.log" >&2; return 1
}
front sqlite "$SQLITE_PORT"
front pg-a "$PG_PORT_A" --sessions "$SESSIONS"
front pg-b "$PG_PORT_B" --sessions "$SESSIONS"

COOKIE_SQLITE=$(python3 "$HERE/fronts_signin.py" "http://127.0.0.1:$SQLITE_PORT" maya.home.test maya-stories)
COOKIE_PG=$(python3 "$HERE/fronts_signin.py" "http://127.0.0.1:$PG_PORT_A" maya.home.test maya-stories)
# Signed in on both PostgreSQL fronts with one cookie, and really signed in (the strip greets the member).
for port in "$PG_PORT_A" "$PG_PORT_B"; do
  curl -fsS -H "Cookie: $COOKIE_PG" "http://127.0.0.1:$port/create" -o /dev/null -w '%{http_code}' | grep -q 200 \
    || { echo "the PostgreSQL session does not hold on port $port" >&2; exit 1; }
done
curl -fsS -H "Cookie: $COOKIE_SQLITE" "http://127.0.0.1:$SQLITE_PORT/create" -o /dev/null -w '%{http_code}' | grep -q 200 \
  || { echo "the SQLite session does not hold" >&2; exit 1; }
AUTHORS=$(curl -fsS -H "Cookie: $COOKIE_PG" "http://127.0.0.1:$PG_PORT_B/" | grep -o 'data-story-author=' | wc -l)

# wrk's summary: "req/s p99-ms errors non2xx".
measure() {
  local out
  out=$(wrk -t"$1" -c"$2" -d"$DURATION" --latency -H "Cookie: $3" "$4")
  echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') $(echo "$out" | awk '$1=="99%" {print $2}' | to_ms) \
$(echo "$out" | awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' | grep . || echo 0) \
$(echo "$out" | awk '/Non-2xx/ {print $5}' | grep . || echo 0)"
}

echo "Signed-in strip of $AUTHORS authors through --appview $HATK; PostgreSQL $PG_VERSION; wrk $CONNECTIONS connections in all; $ROUNDS rounds of $DURATION" >&2
S_RPS="" S_P99="" P_RPS="" P_P99="" FAILED=0
for round in $(seq 1 "$ROUNDS"); do
  read -r rps p99 errors non <<<"$(measure 2 "$CONNECTIONS" "$COOKIE_SQLITE" "http://127.0.0.1:$SQLITE_PORT/")"
  S_RPS="$S_RPS $rps" S_P99="$S_P99 $p99"
  [ "$errors" -eq 0 ] && [ "$non" -eq 0 ] || FAILED=1
  echo "round $round, one front on SQLite: $rps req/s, p99 $p99 ms, $errors socket errors, $non non-2xx" >&2
  measure 1 $((CONNECTIONS / 2)) "$COOKIE_PG" "http://127.0.0.1:$PG_PORT_A/" >"$WORK/a.out" &
  a=$!
  measure 1 $((CONNECTIONS / 2)) "$COOKIE_PG" "http://127.0.0.1:$PG_PORT_B/" >"$WORK/b.out"
  wait $a
  read -r ra pa ea na <"$WORK/a.out"
  read -r rb pb eb nb <"$WORK/b.out"
  rps=$(awk "BEGIN {print $ra + $rb}")
  p99=$(awk "BEGIN {print ($pa > $pb) ? $pa : $pb}")
  P_RPS="$P_RPS $rps" P_P99="$P_P99 $p99"
  [ $((ea + eb + na + nb)) -eq 0 ] || FAILED=1
  echo "round $round, two fronts on PostgreSQL: $rps req/s ($ra + $rb), p99 $p99 ms ($pa, $pb), $((ea + eb)) socket errors, $((na + nb)) non-2xx" >&2
done

echo "| Signed-in strip (\`/\`, $AUTHORS authors, --appview) | req/s (median) | p99 (median) |"
echo "|---|---|---|"
printf '| one front, sessions in SQLite (front.sqlite) | %.0f | %.2f ms |\n' "$(median $S_RPS)" "$(median $S_P99)"
printf '| two fronts, sessions in PostgreSQL %s (--sessions) | %.0f | %.2f ms |\n' "$PG_VERSION" "$(median $P_RPS)" "$(median $P_P99)"
if [ "$FAILED" -ne 0 ]; then
  echo "FAILED: some requests failed (socket errors or non-2xx answers)" >&2
  exit 1
fi
