#!/usr/bin/env bash
# `make test` as CI meets it on a new machine: a fresh clone in a fresh Debian 12 root (debootstrap), with nothing
# installed but what a Debian 12 machine with the Swift toolchain has (the toolchain's own prerequisites, git, make,
# python3), so every package, Python tool, data set and build is made cold. Prints make test's phase table and the
# wall time in all. Needs root. The toolchain is the host's, bind-mounted read-only at /opt/swift.
#
#   bash Tests/Benchmarks/make-test-fresh-root.sh [WORK_DIR]     (default /var/tmp/make-test-root)
#
# Environment: SWIFT_TOOLCHAIN (default /opt/swift), DEBIAN_MIRROR, KEEP=1 keeps the root afterwards.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/var/tmp/make-test-root}
toolchain=${SWIFT_TOOLCHAIN:-/opt/swift}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, chroot, mounts)"; exit 1; }
command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)"; exit 1; }

# What swift.org's Debian 12 image installs for the toolchain, and what a developer's machine has to clone and make.
base="ca-certificates,git,make,python3,procps,binutils,gcc,libc6-dev,libstdc++-12-dev,libicu-dev,libcurl4-openssl-dev"
base+=",libedit-dev,libsqlite3-dev,libncurses-dev,libpython3-dev,libxml2-dev,pkg-config,uuid-dev,tzdata"

root=$work/root
mkdir -p "$work"
if mountpoint -q "$root/proc" 2>/dev/null; then echo "$root is in use"; exit 1; fi
rm -rf --one-file-system "$root"
mkdir -m 0755 "$root"
echo "== debootstrap (not part of the measure)"
debootstrap --variant=minbase --include="$base" bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }

mounts=()
bind() { mkdir -p "$root$2"; mount "${@:3}" "$1" "$root$2"; mounts=("$root$2" "${mounts[@]}"); }
cleanup() {
    for m in "${mounts[@]}"; do umount -R -l "$m" 2>/dev/null || true; done
    [ "${KEEP:-0}" = 1 ] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
# The root is a mount point of its own, as / is on a machine: `unshare --propagation` and `ip -n` remount it.
bind "$root" / --bind
mount --make-rprivate "$root"
bind proc /proc -t proc
bind sysfs /sys -t sysfs
bind /dev /dev --rbind
# Mounts and unmounts under the root's /dev must not reach the host's.
mount --make-rslave "$root/dev"
bind tmpfs /run -t tmpfs
bind "$toolchain" /opt/swift --bind -o ro
bind "$repo" /src --bind -o ro
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The host's own extra trust anchors (a network that inspects TLS has its CA there): a machine on this network has them.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
fi

echo "== make test in a fresh clone, in the fresh root"
started=$(date +%s)
status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 CI=true PATH=/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c 'git config --global --add safe.directory "*" && git clone -q /src /work/ci && cd /work/ci && bash .ci/run' \
    >"$work/make-test.log" 2>&1 || status=$?
total=$(($(date +%s) - started))
rm -rf "$work/test-logs"
cp -r "$root/work/ci/.build/test-logs" "$work/test-logs" 2>/dev/null || true
sed -n '/^make test: phases/,$p' "$work/make-test.log"
echo "clone and make test in a fresh Debian 12 root: $total s, exit $status (logs: $work/make-test.log, $work/test-logs)"
exit "$status"
