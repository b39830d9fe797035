#!/usr/bin/env bash
# `make deb`: builds .build/deb/grain-stories_<version>_<arch>.deb with dpkg-deb from a release binary built with
# --static-swift-stdlib (so the only run-time dependencies are Debian libraries), Templates/, Public/, the place
# table, the systemd units and the configuration file in Packaging/debian/.
#
# Usage: build-deb.sh BINARY PLACES_CSV OUTPUT_DIR
# Depends: is worked out from the binary: each shared library it needs (ELF NEEDED), the Debian package that holds
# it on this machine (dpkg -S), at least the version installed here.
set -euo pipefail
BIN=$1 PLACES=$2 OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
for tool in dpkg-deb dpkg-query objdump; do
  command -v $tool >/dev/null || { echo "build-deb: $tool is missing (dpkg-dev / binutils)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "build-deb: no binary at $BIN" >&2; exit 1; }
[ -r "$PLACES" ] || { echo "build-deb: no place table at $PLACES (make places-data)" >&2; exit 1; }

ARCH=$(dpkg --print-architecture)
# A version that sorts by commit time: 0.1.0~git<date>.<commit>, or 0.1.0 outside git.
VERSION=${VERSION:-0.1.0$(git -C "$ROOT" log -1 --format='~git%cd.%h' --date=format:%Y%m%d%H%M 2>/dev/null || true)}

# The package of each library the binary links, with the version installed here as the lower bound.
depends=()
for soname in $(objdump -p "$BIN" | awk '$1 == "NEEDED" {print $2}'); do
  path=$(ldconfig -p | awk -v s="$soname" '$1 == s && $NF ~ /^\// {print $NF; exit}')
  [ -n "$path" ] || { echo "build-deb: $soname (needed by the binary) is not installed" >&2; exit 1; }
  real=$(readlink -f "$path")
  package=$(dpkg-query -S "$real" 2>/dev/null | head -1 | cut -d: -f1) || true
  [ -n "$package" ] || package=$(dpkg-query -S "$path" 2>/dev/null | head -1 | cut -d: -f1) || true
  [ -n "$package" ] || { echo "build-deb: no Debian package owns $path" >&2; exit 1; }
  version=$(dpkg-query -W -f='${Version}' "$package")
  depends+=("$package (>= ${version%%-*})")
done
DEPENDS=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
install -D -m 0755 "$BIN" "$STAGE/usr/bin/grain-stories"
mkdir -p "$STAGE/usr/share/grain-stories"
cp -R "$ROOT/Templates" "$ROOT/Public" "$STAGE/usr/share/grain-stories/"
install -D -m 0644 "$PLACES" "$STAGE/usr/share/grain-stories/places/cities1000.csv"
D="$HERE/debian"
for unit in grain-stories.service grain-stories-backup.service grain-stories-backup.timer; do
  install -D -m 0644 "$D/$unit" "$STAGE/lib/systemd/system/$unit"
done
install -D -m 0755 "$D/nightly-backup" "$STAGE/usr/lib/grain-stories/nightly-backup"
install -D -m 0644 "$D/grain-stories.conf" "$STAGE/etc/grain-stories/grain-stories.conf"
install -D -m 0644 "$D/copyright" "$STAGE/usr/share/doc/grain-stories/copyright"
install -D -m 0644 "$ROOT/README.md" "$STAGE/usr/share/doc/grain-stories/README.md"
find "$STAGE" -type d -exec chmod 0755 {} +
find "$STAGE/usr/share/grain-stories" -type f -exec chmod 0644 {} +

mkdir -p "$STAGE/DEBIAN"
SIZE=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$SIZE/" -e "s/@DEPENDS@/$DEPENDS/" "$D/control.in" >"$STAGE/DEBIAN/control"
echo /etc/grain-stories/grain-stories.conf >"$STAGE/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "$D/$script" "$STAGE/DEBIAN/$script"; done

mkdir -p "$OUT"
DEB="$OUT/grain-stories_${VERSION}_${ARCH}.deb"
rm -f "$OUT"/grain-stories_*.deb
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null
echo "$DEB"
