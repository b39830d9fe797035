#!/usr/bin/env bash
# `make bench-backup` (and part of `make bench`): backup and restore of a household with STORIES stories (issue 15:
# 2,000 stories, about 1 GB of blobs; the targets are a backup under 30 s and a strip p99 under 20 ms meanwhile).
#
# The household: the demo household of 20 authors plus STORIES archive stories (`--demo-archive-stories`: spread
# over the past STORIES/5 days, each with its own full-size JPEG of about 500 KB, stored through the embedded
# backend's blob store with its thumbnail and avatar variants, like an upload). The server then serves it from a
# fresh process, and:
#   1. one backup (`grain-stories backup --data DIR --to DEST`) with the server idle;
#   2. ROUNDS rounds, each measuring the anonymous and the signed-in strip (`/`) with wrk (-t2, CONNECTIONS
#      connections, DURATION, --latency) three ways side by side: with no backup running; while backups run back
#      to back into the same file system (blobs hard-linked); while they run back to back into another file
#      system (COPY_DIR, default /dev/shm when it is one: blobs copied); and the first again under `nice -n 10
#      ionice -c 3`, as the Debian package's timer runs it. Each backup's wall time is kept, and the backup is
#      removed before the next starts;
#   3. `backup verify` and `restore --from SRC --data EMPTYDIR` of one backup, ROUNDS times each, idle;
#   4. a server started on the restored data must show the same strip.
# Prints Markdown tables (medians of the rounds) and exits non-zero if a request failed or a step did.
#
# BIN=path/to/grain-stories; STORIES=2000 ROUNDS=3 DURATION=15s CONNECTIONS=16 COPY_DIR=/dev/shm (COPY_DIR= none).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../.."
BIN=${BIN:-.build/release/grain-stories}
PHOTOS=${PHOTOS:-.build/demo-photos}
STORIES=${STORIES:-2000}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-16}
PORT=${PORT:-18285}
WORK=$(mktemp -d)
COPY_DIR=${COPY_DIR-/dev/shm}
# Copies only when COPY_DIR really is another file system than the work directory.
if [ -n "$COPY_DIR" ] && [ -d "$COPY_DIR" ] && [ "$(stat -c %d "$COPY_DIR")" != "$(stat -c %d "$WORK")" ]; then
  COPIES=$(mktemp -d "$COPY_DIR/grain-backup-bench.XXXXXX")
else
  COPIES=
fi
SERVER_PID=
LOOP_PID=
RESTORED_PID=
cleanup() {
  [ -n "$LOOP_PID" ] && { touch "$WORK/stop"; wait "$LOOP_PID" 2>/dev/null || true; }
  kill $SERVER_PID $RESTORED_PID 2>/dev/null || true
  wait $SERVER_PID $RESTORED_PID 2>/dev/null || true
  rm -rf "$WORK"
  [ -n "$COPIES" ] && rm -rf "$COPIES"
  return 0
}
trap cleanup EXIT
source "$HERE/lib.sh"

seeding_started=$(now_s)
VISIBILITY=public SEED_FLAGS="--demo-archive-stories $STORIES" SEED_SECONDS=${SEED_SECONDS:-900} seed_and_serve "$WORK" "$PORT"
SEEDING=$(awk "BEGIN {printf \"%.0f\", $(now_s) - $seeding_started}")
DATA=$WORK/data
BLOB_FILES=$(find "$DATA/blobs" -type f | wc -l)
BLOB_BYTES=$(du -sb "$DATA/blobs" | cut -f1)
STORY_ROWS=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute("SELECT COUNT(*) FROM records WHERE collection = ?", ("social.grain.story",)).fetchone()[0])' "$DATA/backend.sqlite")
COOKIE=$(member_cookie "$PORT")
curl -fsS -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/" | grep -q 'data-signed-in-as' \
  || { echo "the signed-in strip does not show the member" >&2; exit 1; }
echo "Household: $STORY_ROWS stories, $BLOB_FILES blob files, $((BLOB_BYTES / 1048576)) MiB of blobs, seeded in $SEEDING s;" \
  "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# One backup of DATA into $1 (any further arguments go before the command: nice); prints its wall time in seconds.
timed_backup() {
  local started dest=$1
  shift
  started=$(now_s)
  "$@" "$BIN" backup --data "$DATA" --to "$dest" >"$WORK/backup.log" 2>&1 || { cat "$WORK/backup.log" >&2; return 1; }
  awk "BEGIN {printf \"%.2f\", $(now_s) - $started}"
}

# Backups into $1 back to back until WORK/stop exists; each one's wall time is appended to $2, and each backup is
# removed before the next starts. Further arguments go before the command (nice).
backup_loop() {
  local root=$1 times=$2 i=0 seconds
  shift 2
  while [ ! -e "$WORK/stop" ]; do
    i=$((i + 1))
    seconds=$(timed_backup "$root/backup-$i" "$@") || { echo failed >>"$times"; return 1; }
    echo "$seconds" >>"$times"
    rm -rf "$root/backup-$i"
  done
}

IDLE_BACKUP=$(timed_backup "$WORK/idle-backup")
BACKUP_BYTES=$(du -sb --apparent-size "$WORK/idle-backup" | cut -f1)
echo "One backup with the server idle: $IDLE_BACKUP s ($((BACKUP_BYTES / 1048576)) MiB, blobs hard-linked)" >&2

# Warm-up, not counted: the first seconds of load on a fresh process are slower than the rest.
wrk -t2 -c"$CONNECTIONS" -d3s "http://127.0.0.1:$PORT/" >/dev/null
wrk -t2 -c"$CONNECTIONS" -d3s -H "Cookie: $COOKIE" "http://127.0.0.1:$PORT/" >/dev/null

declare -A RPS P50 P99 ERR TIMES
# nice: as the Debian package's grain-stories-backup.service runs it (Nice=10, IOSchedulingClass=idle).
MODES=(none links nice)
[ -n "$COPIES" ] && MODES+=(copies)
TARGETS=(anonymous signed)
FAILED=0
for round in $(seq 1 "$ROUNDS"); do
  for target in "${TARGETS[@]}"; do
    header=()
    [ "$target" = signed ] && header=(-H "Cookie: $COOKIE")
    for mode in "${MODES[@]}"; do
      rm -f "$WORK/stop" "$WORK/times"
      if [ "$mode" != none ]; then
        root=$WORK/loop
        [ "$mode" = copies ] && root=$COPIES
        prefix=()
        [ "$mode" = nice ] && prefix=(nice -n 10 ionice -c 3)
        mkdir -p "$root"
        backup_loop "$root" "$WORK/times" "${prefix[@]}" &
        LOOP_PID=$!
        sleep 0.5
      fi
      read -r rps p50 p99 errors non <<<"$(wrk_summary -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "${header[@]}" "http://127.0.0.1:$PORT/")"
      times=
      if [ "$mode" != none ]; then
        touch "$WORK/stop"
        wait "$LOOP_PID" || FAILED=1
        LOOP_PID=
        times=$(tr '\n' ' ' <"$WORK/times")
        TIMES[$mode]="${TIMES[$mode]:-} $times"
      fi
      key=$target.$mode
      RPS[$key]="${RPS[$key]:-} $rps" P50[$key]="${P50[$key]:-} $p50" P99[$key]="${P99[$key]:-} $p99"
      ERR[$key]=$((${ERR[$key]:-0} + errors + non))
      [ $((errors + non)) -eq 0 ] || FAILED=1
      echo "round $round, $target strip, backups: $mode: $rps req/s, p50 $p50 ms, p99 $p99 ms, $errors socket errors, $non non-2xx${times:+; backups took $times s}" >&2
    done
  done
done

# Verify and restore, idle, each ROUNDS times on one backup (the idle one, hard-linked to the data's blobs).
VERIFY_TIMES="" RESTORE_TIMES=""
for round in $(seq 1 "$ROUNDS"); do
  started=$(now_s)
  "$BIN" backup verify "$WORK/idle-backup" >"$WORK/verify.log" 2>&1 || { cat "$WORK/verify.log" >&2; exit 1; }
  VERIFY_TIMES="$VERIFY_TIMES $(awk "BEGIN {printf \"%.2f\", $(now_s) - $started}")"
  rm -rf "$WORK/restored"
  started=$(now_s)
  "$BIN" restore --from "$WORK/idle-backup" --data "$WORK/restored" >"$WORK/restore.log" 2>&1 || { cat "$WORK/restore.log" >&2; exit 1; }
  RESTORE_TIMES="$RESTORE_TIMES $(awk "BEGIN {printf \"%.2f\", $(now_s) - $started}")"
  echo "round $round: verify $(echo "$VERIFY_TIMES" | awk '{print $NF}') s, restore $(echo "$RESTORE_TIMES" | awk '{print $NF}') s" >&2
done

# The restored data serves the strip the original serves at the same moment (same sealing key: the default key
# directory).
# Any free port (--port 0), read from the log: a fixed one may be another process's on a shared machine.
"$BIN" serve --port 0 --data "$WORK/restored" --geocoder none --visibility public >"$WORK/restored.log" 2>&1 &
RESTORED_PID=$!
RESTORED_URL=
for _ in $(seq 1 300); do
  RESTORED_URL=$(sed -n 's/^grain-stories is serving on \(http[^ ]*\).*/\1/p' "$WORK/restored.log")
  [ -n "$RESTORED_URL" ] && curl -fsS "$RESTORED_URL/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
[ -n "$RESTORED_URL" ] || { echo "the server on the restored data did not start:" >&2; cat "$WORK/restored.log" >&2; exit 1; }
RESTORED_STRIP=$(curl -fsS "$RESTORED_URL/" | grep -o 'data-story-author="[^"]*"' | sort | tr -d '\n')
STRIP=$(curl -fsS "http://127.0.0.1:$PORT/" | grep -o 'data-story-author="[^"]*"' | sort | tr -d '\n')
RESTORED_FILES=$(find "$WORK/restored/blobs" -type f | wc -l)
if [ "$RESTORED_STRIP" = "$STRIP" ] && [ "$RESTORED_FILES" = "$BLOB_FILES" ]; then
  RESTORED_OK=yes
else
  RESTORED_OK=no FAILED=1
  echo "restored: $RESTORED_FILES blob files (the data: $BLOB_FILES); strip authors restored / original:" >&2
  diff <(echo "$RESTORED_STRIP" | sed 's/"data/"\ndata/g') <(echo "$STRIP" | sed 's/"data/"\ndata/g') >&2 || true
fi

count() { echo $#; }
echo "| Step ($STORY_ROWS stories, $BLOB_FILES blob files, $((BLOB_BYTES / 1048576)) MiB of blobs) | wall time (median) | runs |"
echo "|---|---|---|"
printf '| `backup`, server idle, same file system (blobs hard-linked) | %.2f s | 1 |\n' "$IDLE_BACKUP"
printf '| `backup` while wrk loads the strip, same file system (hard links) | %.2f s | %d |\n' "$(median ${TIMES[links]})" "$(count ${TIMES[links]})"
printf '| `nice -n 10 ionice -c 3 backup` (as the packaged timer runs it) while wrk loads the strip, same file system | %.2f s | %d |\n' \
  "$(median ${TIMES[nice]})" "$(count ${TIMES[nice]})"
[ -n "$COPIES" ] && printf '| `backup` while wrk loads the strip, into %s (another file system: copies) | %.2f s | %d |\n' \
  "$COPY_DIR" "$(median ${TIMES[copies]})" "$(count ${TIMES[copies]})"
printf '| `backup verify` (SHA-256 of every file, integrity checks) | %.2f s | %d |\n' "$(median $VERIFY_TIMES)" "$ROUNDS"
printf '| `restore --from SRC --data EMPTYDIR` (checks, then copies databases, links blobs) | %.2f s | %d |\n' "$(median $RESTORE_TIMES)" "$ROUNDS"
echo
echo "| Strip (\`/\`), wrk -t2 -c$CONNECTIONS -d$DURATION | backups running | req/s (median) | p50 (median) | p99 (median) | failed requests |"
echo "|---|---|---|---|---|---|"
declare -A MODE_LABEL=([none]="none" [links]="back to back, same file system" [nice]="back to back, same file system, nice 10 + idle I/O"
  [copies]="back to back, into $COPY_DIR")
for target in "${TARGETS[@]}"; do
  for mode in "${MODES[@]}"; do
    key=$target.$mode
    printf '| %s | %s | %.0f | %.2f ms | %.2f ms | %d |\n' "$target" "${MODE_LABEL[$mode]}" "$(median ${RPS[$key]})" \
      "$(median ${P50[$key]})" "$(median ${P99[$key]})" "${ERR[$key]}"
  done
done
echo
ratios=""
for target in "${TARGETS[@]}"; do
  for mode in "${MODES[@]}"; do
    [ "$mode" = none ] && continue
    ratios="$ratios $target/$mode $(awk "BEGIN {printf \"%.2f\", $(median ${P99[$target.$mode]}) / $(median ${P99[$target.none]})}"),"
  done
done
echo "p99 during backups over p99 without (medians):${ratios%,}. Seeding took $SEEDING s. Restored data serves the same strip: $RESTORED_OK."
if [ "$FAILED" -ne 0 ]; then
  echo "FAILED: a request, a backup or the restored server failed" >&2
  exit 1
fi
