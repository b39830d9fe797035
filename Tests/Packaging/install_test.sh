#!/usr/bin/env bash
# The Debian package, installed as a household would install it (issue 15 item 5), in a fresh Debian 12 root made
# with debootstrap: dpkg -i, systemd-analyze verify on the units and their memory and task limits, the unit's
# ExecStart run as its user (no systemd as PID 1: the script does what systemd would for StateDirectory=) until
# /healthz answers, the backup service (after a killed backup, whose leftovers it must remove), the `users` commands
# as the README gives them, and a restore as docs/operations.md describes it. Needs root (debootstrap, chroot, mount
# namespaces).
#
# Usage: install_test.sh DEB. The finished root is cached as a tarball under .build/debootstrap (named by the
# package list), so only the first run downloads Debian; later runs unpack it in seconds.
set -uo pipefail
DEB=$(readlink -f "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT_DIR=$(cd "$HERE/../.." && pwd)
CACHE=${DEBOOTSTRAP_CACHE:-$ROOT_DIR/.build/debootstrap}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PASSED=0 FAILED=0
pass() { echo "ok: $1"; PASSED=$((PASSED + 1)); }
fail() { echo "FAILED: $1"; FAILED=$((FAILED + 1)); }
finish() { echo "deb install: $PASSED passed, $FAILED failed"; [ "$FAILED" -eq 0 ]; exit $?; }

[ "$(id -u)" = 0 ] || { echo "install_test.sh needs root (debootstrap and chroot)"; exit 1; }
for tool in debootstrap unshare chroot dpkg-deb curl; do
  command -v $tool >/dev/null || { echo "missing $tool: make test-deps installs it"; exit 1; }
done

# The root: minbase, systemd (for systemd-analyze and what a box has), and the package's dependencies.
depends=$(dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed -e 's/(.*)//' -e 's/ //g' | grep -v '^$' | sort -u | paste -sd, -)
include="systemd,$depends"
key=$(echo "bookworm $include" | sha256sum | cut -c1-16)
TARBALL="$CACHE/bookworm-$key.tar.gz"
if [ ! -s "$TARBALL" ]; then
  echo "making a Debian 12 root with debootstrap (first run only; cached as $TARBALL)"
  mkdir -p "$CACHE"
  build=$(mktemp -d "$CACHE/root.XXXXXX")
  # mktemp makes 0700 folders; a root directory must be 0755 or no user but root can reach anything in it.
  chmod 0755 "$build"
  if ! debootstrap --variant=minbase --include="$include" bookworm "$build" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1; then
    tail -20 "$CACHE/debootstrap.log"; rm -rf "$build"; fail "debootstrap made a root"; finish
  fi
  rm -rf "$build"/var/cache/apt/archives/*.deb "$build"/var/lib/apt/lists/*
  tar -C "$build" -czf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
  rm -rf "$build"
fi

ROOT=$(mktemp -d /var/tmp/grain-stories-root.XXXXXX)
SERVER=
cleanup() {
  [ -n "$SERVER" ] && stop_server
  rm -f "$ROOT.server.log" "$ROOT.users.log" "$ROOT.restore.log"
  # Mounts live only in the namespaces below, so nothing of the host is under $ROOT when it is removed.
  rm -rf --one-file-system "$ROOT"
}
trap cleanup EXIT
tar -C "$ROOT" -xzf "$TARBALL"
# The tarball's "." carries the mode of the folder it was made in; a cache made before the chmod above has 0700.
chmod 0755 "$ROOT"
pass "a fresh Debian 12 root ($(cat "$ROOT/etc/debian_version"))"

# Runs a command in the root, in its own mount and PID namespaces with /proc and /dev, as root or (with -u) a user.
in_root() {
  local user=
  if [ "$1" = -u ]; then user=$2; shift 2; fi
  unshare --mount --pid --fork --kill-child --propagation private -- /bin/sh -c '
    root=$1; user=$2; shift 2
    mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" || exit 97
    if [ -n "$user" ]; then exec chroot --userspec="$user:$user" "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/nonexistent "$@"; fi
    exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
  ' sh "$ROOT" "$user" "$@"
}

cp "$DEB" "$ROOT/tmp/grain-stories.deb"
if out=$(in_root dpkg -i /tmp/grain-stories.deb 2>&1); then pass "dpkg -i installs $(basename "$DEB") with its dependencies present"; else
  echo "$out"; fail "dpkg -i"; finish; fi
in_root getent passwd grain-stories | grep -q ':/var/lib/grain-stories:/usr/sbin/nologin$' \
  && pass "the package made the grain-stories system user (no shell)" || fail "the system user"
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/grain-stories.service" ] \
  && [ -L "$ROOT/etc/systemd/system/timers.target.wants/grain-stories-backup.timer" ] \
  && pass "the service and the backup timer are enabled" || fail "the units are not enabled"
# Owners are read inside the root: its users and groups are not the host's.
mode=$(in_root stat -c '%U:%G %a' /etc/grain-stories/grain-stories.conf)
[ "$mode" = "root:grain-stories 640" ] && pass "the configuration file is root:grain-stories 0640" || fail "configuration file mode: $mode"
# Both place tables ship, readable by the service, and the configuration file names them.
for table in places:cities1000.csv place-names:place-names.csv; do
  key=${table%%:*} file=/usr/share/grain-stories/places/${table#*:}
  if [ -s "$ROOT$file" ] && in_root -u grain-stories test -r "$file" \
    && grep -qx "$key = $file" "$ROOT/etc/grain-stories/grain-stories.conf"; then
    pass "$file ships and the configuration file names it ($key)"
  else
    fail "the place table $file (configuration key $key)"
  fi
done

units="grain-stories.service grain-stories-backup.service grain-stories-backup.timer"
if out=$(in_root systemd-analyze verify $(for u in $units; do echo /lib/systemd/system/$u; done) 2>&1) && [ -z "$out" ]; then
  pass "systemd-analyze verify finds nothing to say about $units"
else
  echo "$out"; fail "systemd-analyze verify"
fi
# A runaway decode or a stuck backup must not take the whole box (issue 25, N7): each unit bounds memory and tasks.
for unit in grain-stories.service grain-stories-backup.service; do
  missing=$(for key in MemoryHigh MemoryMax TasksMax; do grep -q "^$key=" "$ROOT/lib/systemd/system/$unit" || echo "$key"; done)
  [ -z "$missing" ] && pass "$unit sets MemoryHigh, MemoryMax and TasksMax" || fail "$unit sets no $(echo $missing)"
done
exposure=$(in_root systemd-analyze security --offline=yes /lib/systemd/system/grain-stories.service 2>/dev/null | awk '/Overall exposure level/ {print $(NF-1), $NF}')
echo "systemd-analyze security (offline) of grain-stories.service: ${exposure:-unknown}"

# What systemd does before ExecStart: StateDirectory= makes both directories, the user's own, mode 0700.
for dir in /var/lib/grain-stories /var/lib/grain-stories-keys; do
  install -d -m 0700 "$ROOT$dir"
  in_root chown grain-stories:grain-stories "$dir"
done
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The shipped file with the test's address: the server reads host and port from it.
sed -i -e "s/^host = .*/host = 127.0.0.1/" -e "s/^port = .*/port = $PORT/" "$ROOT/etc/grain-stories/grain-stories.conf"
exec_start=$(sed -n 's/^ExecStart=//p' "$ROOT/lib/systemd/system/grain-stories.service")
user=$(sed -n 's/^User=//p' "$ROOT/lib/systemd/system/grain-stories.service")
LOG="$ROOT.server.log"
# Starts the unit's ExecStart as its user in the background (SERVER), and waits for /healthz; false if it never answers.
start_server() {
  echo "running ExecStart as $user: $exec_start"
  in_root -u "$user" /bin/sh -c "cd /var/lib/grain-stories && umask 0077 && exec $exec_start" >>"$LOG" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 300); do
    curl -fsS --noproxy '*' --max-time 2 "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# The server's own process: the grain-stories whose root is $ROOT (unshare does not pass signals on to its child).
# When this test itself runs in a chroot, the kernel names the root of a process in another mount namespace from the
# machine's own root, so the path may carry the outer root in front of $ROOT.
server_pid() {
  local pid
  for pid in $(pgrep -x grain-stories); do
    [[ "$(readlink "/proc/$pid/root")" == *"$ROOT" ]] && echo "$pid" && return
  done
}
# SIGTERM to the server itself, as systemd stops it; waits for it to end.
stop_server() {
  local pid
  pid=$(server_pid)
  [ -n "$pid" ] && kill -TERM "$pid"
  for _ in $(seq 1 100); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
  kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; SERVER=
}
# A member added from the command line before the first start, as the README says, to find again after a restart.
if printf 'package-test-password\n' | in_root -u "$user" /usr/bin/grain-stories users add maya --password-stdin \
  >"$ROOT.users.log" 2>&1; then
  pass "grain-stories users add, as $user, adds a member where the configuration file says"
else
  cat "$ROOT.users.log"; fail "users add"
fi
# Every users command reads the file too, from whatever folder it is run in.
if in_root -u "$user" /bin/sh -c 'cd / && exec /usr/bin/grain-stories users list' >"$ROOT.users.log" 2>&1 \
  && grep -Eq '^maya\.home\.test +owner +active' "$ROOT.users.log"; then
  pass "grain-stories users list, as $user, lists the member from the data the configuration file names"
else
  cat "$ROOT.users.log"; fail "users list"
fi
# A stranger's read of a member's profile: the package serves a household whose stories are its own (the default).
profile() { curl -sS --noproxy '*' -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/xrpc/social.grain.unspecced.getActorProfile?actor=maya.home.test" 2>/dev/null; }
front_door() { curl -fsS --noproxy '*' "http://127.0.0.1:$PORT/" 2>/dev/null; }
if start_server; then pass "the unit's ExecStart, run as $user, answers /healthz on the port of the configuration file"; else
  cat "$LOG"; fail "/healthz never answered"; fi
page=$(curl -fsS --noproxy "*" "http://127.0.0.1:$PORT/login" 2>/dev/null || true)
echo "$page" | grep -q 'grain' && pass "pages render from /usr/share/grain-stories/Templates" || fail "the sign-in page did not render"
key=$(find "$ROOT/var/lib/grain-stories-keys" -name '*.key' -user "$(in_root id -u grain-stories)" -perm 0600 | head -1)
[ -n "$key" ] && pass "the sealing key is in /var/lib/grain-stories-keys (0600), outside the data" || fail "no sealing key in the key directory"
[ -z "$(find "$ROOT/var/lib/grain-stories" -name '*.key')" ] && pass "no key file in the data directory" || fail "a key file in the data directory"
[ -s "$ROOT/var/lib/grain-stories/backend.sqlite" ] && [ "$(in_root stat -c %U /var/lib/grain-stories/backend.sqlite)" = grain-stories ] \
  && pass "the data is written by grain-stories in /var/lib/grain-stories" || fail "no data in /var/lib/grain-stories"
grep -q "no readable place" "$LOG" && { grep "no readable place" "$LOG"; fail "the server found no place table"; } \
  || pass "the server opened both place tables from the configuration file"

# A backup killed midway, as a reboot or an OOM kill would: the blob-removal lock is held so that it stops right
# after making its folder under a temporary name, and then it is sent SIGKILL there.
BACKUPS=/var/backups/grain-stories
in_root -u grain-stories /bin/sh -c '
  umask 0077 && exec 9>>/var/lib/grain-stories/backup.lock && flock -x 9 || exit 1
  /usr/bin/grain-stories backup --data /var/lib/grain-stories --to "$1/20000101T000000Z" 9>&- >/dev/null 2>&1 &
  for _ in $(seq 1 300); do
    [ -e "$(echo "$1"/20000101T000000Z.partial-*)/.grain-stories-backup-in-progress" ] && break
    sleep 0.1
  done
  kill -KILL $!' sh "$BACKUPS"
leftover=$(ls -d "$ROOT$BACKUPS"/*.partial-* 2>/dev/null)
[ -n "$leftover" ] && pass "a killed backup left $(basename "$leftover")" || fail "the killed backup left no folder to clean up"

# The nightly backup's ExecStart as its user, while the server runs.
if in_root /usr/bin/grain-stories help 2>&1 | grep -q 'grain-stories backup'; then
  backup_exec=$(sed -n 's/^ExecStart=//p' "$ROOT/lib/systemd/system/grain-stories-backup.service")
  environment=$(sed -n 's/^Environment=//p' "$ROOT/lib/systemd/system/grain-stories-backup.service")
  if out=$(in_root -u grain-stories /usr/bin/env $environment $backup_exec 2>&1) && ls -d "$ROOT$BACKUPS"/[0-9]*Z >/dev/null 2>&1; then
    pass "the backup service's ExecStart made $(ls "$ROOT$BACKUPS")"
  else
    echo "$out"; fail "the nightly backup"
  fi
  [ -n "$leftover" ] && [ ! -e "$leftover" ] && [ -z "$(ls -d "$ROOT$BACKUPS"/*.partial* 2>/dev/null)" ] \
    && pass "the next backup removed what the killed one left" || fail "the killed backup's folder is still there"
else
  fail "grain-stories help names no backup command, so the backup service could not be run"
fi
NIGHTLY=$(ls -d "$ROOT$BACKUPS"/[0-9]*Z 2>/dev/null | tail -1)
NIGHTLY=${NIGHTLY#"$ROOT"}

# A member added after that backup, which restoring it takes away.
printf 'another-password\n' | in_root -u "$user" /usr/bin/grain-stories users add ines --password-stdin >"$ROOT.users.log" 2>&1 \
  || { cat "$ROOT.users.log"; fail "users add ines"; }

stop_server
grep -q "grain-stories stopped" "$LOG" && pass "SIGTERM (systemd's stop) ends it cleanly" || { cat "$LOG"; fail "no clean stop"; }

# A restore on the packaged box, as docs/operations.md gives it: the service stopped (above), the backup restored as
# root into a new folder, swapped in for the data, given to the service user; then the service starts again.
restored=/var/lib/grain-stories.restored
if [ -n "$NIGHTLY" ] && in_root /usr/bin/grain-stories restore --from "$NIGHTLY" --data $restored >"$ROOT.restore.log" 2>&1 \
  && in_root /bin/sh -c "mv /var/lib/grain-stories /var/lib/grain-stories.before-restore && mv $restored /var/lib/grain-stories \
    && chown -R grain-stories:grain-stories /var/lib/grain-stories && chmod 0700 /var/lib/grain-stories"; then
  pass "grain-stories restore --from $NIGHTLY, swapped in for /var/lib/grain-stories and given to grain-stories"
else
  cat "$ROOT.restore.log"; fail "the restore on the packaged box"
fi

# The start after the restore (also what a reboot or an upgrade's try-restart does): the same key opens the restored
# data, the member from before the backup is there and the one added after it is not.
key_before=$(sha256sum "$ROOT"/var/lib/grain-stories-keys/* 2>/dev/null)
if start_server; then pass "it starts again on the restored data"; else cat "$LOG"; fail "no start after the restore"; fi
[ -n "$key_before" ] && [ "$(sha256sum "$ROOT"/var/lib/grain-stories-keys/*)" = "$key_before" ] \
  && pass "the restart kept the sealing key (no new key was made)" || fail "the key changed across the restart"
[ "$(profile)" = 401 ] && front_door | grep -q 'data-front-door' && ! front_door | grep -qi 'maya' \
  && pass "a stranger gets the front door and a 401 for a member's profile: the household is private by default" \
  || { profile; front_door; cat "$LOG"; fail "a stranger could read the restored household"; }
in_root -u "$user" /usr/bin/grain-stories users list >"$ROOT.users.log" 2>&1
grep -q '^maya\.home\.test' "$ROOT.users.log" && ! grep -q '^ines\.home\.test' "$ROOT.users.log" \
  && pass "the restored data is the backup's: ines, added after it, is not there" || { cat "$ROOT.users.log"; fail "users after the restore"; }
stop_server
rm -f "$LOG" "$ROOT.users.log" "$ROOT.restore.log"

if out=$(in_root dpkg --purge grain-stories 2>&1) && [ ! -e "$ROOT/usr/bin/grain-stories" ] && [ -s "$ROOT/var/lib/grain-stories/backend.sqlite" ] \
  && [ -n "$(ls "$ROOT/var/lib/grain-stories-keys")" ]; then
  pass "dpkg --purge removes the program and keeps the data and the key"
else
  echo "$out"; fail "purge"
fi
finish
