#!/usr/bin/env bash
# `make deb`: builds .build/deb/grain-stories_<version>_<arch>.deb with dpkg-deb from a release binary built with
# --static-swift-stdlib (so the only run-time dependencies are Debian libraries), Templates/, Public/, the place
# tables (reverse lookups and the create form's place search), the systemd units and the configuration file in
# Packaging/debian/.
#
# Usage: build-deb.sh BINARY PLACES_CSV PLACE_NAMES_CSV OUTPUT_DIR
# Depends: is worked out from the binary by dpkg-shlibdeps: the package of each shared library it needs, at the
# lowest version that has the symbols it uses.
set -euo pipefail
BIN=$1 PLACES=$2 PLACE_NAMES=$3 OUT=$4
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v $tool >/dev/null || { echo "build-deb: $tool is missing (make deb installs dpkg-dev)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "build-deb: no binary at $BIN" >&2; exit 1; }
[ -r "$PLACES" ] || { echo "build-deb: no place table at $PLACES (make places-data)" >&2; exit 1; }
[ -r "$PLACE_NAMES" ] || { echo "build-deb: no place search table at $PLACE_NAMES (make places-data)" >&2; exit 1; }

ARCH=$(dpkg --print-architecture)
# A version that sorts by commit time: 0.1.0~git<date>.<commit>, or 0.1.0 outside git.
VERSION=${VERSION:-0.1.0$(git -C "$ROOT" log -1 --format='~git%cd.%h' --date=format:%Y%m%d%H%M 2>/dev/null || true)}

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
install -D -m 0755 "$BIN" "$STAGE/usr/bin/grain-stories"
mkdir -p "$STAGE/usr/share/grain-stories"
cp -R "$ROOT/Templates" "$ROOT/Public" "$STAGE/usr/share/grain-stories/"
install -D -m 0644 "$PLACES" "$STAGE/usr/share/grain-stories/places/cities1000.csv"
install -D -m 0644 "$PLACE_NAMES" "$STAGE/usr/share/grain-stories/places/place-names.csv"
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
# The lowest version of each library's package that has every symbol the binary uses (dpkg-shlibdeps reads the
# packages' symbols files), not the version installed here: a build machine with bookworm-security's libssl3 must
# not make a package that a box on plain bookworm cannot install.
SHLIBS=$(mktemp -d)
mkdir "$SHLIBS/debian" && printf 'Source: grain-stories\n\nPackage: grain-stories\nArchitecture: any\n' >"$SHLIBS/debian/control"
DEPENDS=$(cd "$SHLIBS" && dpkg-shlibdeps -O -e "$STAGE/usr/bin/grain-stories" 2>"$SHLIBS/warnings") \
  || { cat "$SHLIBS/warnings" >&2; echo "build-deb: dpkg-shlibdeps could not work out the libraries' packages" >&2; exit 1; }
DEPENDS=${DEPENDS#shlibs:Depends=}
rm -rf "$SHLIBS"
SIZE=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$SIZE/" -e "s/@DEPENDS@/$DEPENDS/" "$D/control.in" >"$STAGE/DEBIAN/control"
echo /etc/grain-stories/grain-stories.conf >"$STAGE/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "$D/$script" "$STAGE/DEBIAN/$script"; done

mkdir -p "$OUT"
DEB="$OUT/grain-stories_${VERSION}_${ARCH}.deb"
rm -f "$OUT"/grain-stories_*.deb
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null
echo "$DEB"
