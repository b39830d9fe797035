#!/usr/bin/env bash
# The libmicrohttpd bridge's own cost on a trivial route, so a change to the access handler can be checked for a
# slower GET path: builds a throwaway release package around this tree's Sources/HTTPServer (and around
# BASE=<another checkout>'s, if given), serves a 1 KiB page from a routed handler (/) and from the immediate
# responder (/cached), and runs wrk against each, interleaved round by round so the machine's noise hits both trees
# alike. Prints the median req/s and p99 of each.
#
#   bash Tests/Benchmarks/access-handler.sh                      this tree only
#   BASE=/work/main bash Tests/Benchmarks/access-handler.sh      this tree against main (a BASE from before
#                                                                PreparedResponse, 2026-12-06, needs line 55 as it was)
# DURATION=8s ROUNDS=5 CONNECTIONS=64 are the defaults.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
DURATION=${DURATION:-8s}
ROUNDS=${ROUNDS:-5}
CONNECTIONS=${CONNECTIONS:-64}
WORK=$(mktemp -d)
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT
source "$HERE/lib.sh"

# A package whose targets are symlinks to TREE's sources, with a main serving the two routes.
make_package() {
  local tree=$1 dir=$2
  mkdir -p "$dir/Sources/Bench"
  local targets='.target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),'
  local deps='"CMicroHTTPD"'
  ln -s "$tree/Sources/CMicroHTTPD" "$dir/Sources/CMicroHTTPD"
  ln -s "$tree/Sources/HTTPServer" "$dir/Sources/HTTPServer"
  if [ -d "$tree/Sources/ByteCompression" ]; then
    for t in ByteCompression CZlib CBrotli; do ln -s "$tree/Sources/$t" "$dir/Sources/$t"; done
    targets="$targets"'
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"), .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc"),
        .target(name: "ByteCompression", dependencies: ["CZlib", "CBrotli"]),'
    deps="$deps"', "ByteCompression"'
  fi
  cat >"$dir/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "bench", targets: [
        $targets
        .target(name: "HTTPServer", dependencies: [$deps]),
        .executableTarget(name: "Bench", dependencies: ["HTTPServer"]),
])
SWIFT
  cat >"$dir/Sources/Bench/main.swift" <<'SWIFT'
import HTTPServer

var router = Router()
let page = Response.text(String(repeating: "x", count: 1024))
router.on(.get, "/") { _ in page }
router.on(.get, "/cached") { _ in page }
let prepared = PreparedResponse(page)
router.immediateResponder = { request in request.path == "/cached" ? prepared : nil }
var configuration = ServerConfiguration()
configuration.port = UInt16(CommandLine.arguments[1])!
configuration.threadCount = 2
let server = HTTPServer(configuration: configuration, router: router)
try server.start()
await server.runUntilSignal()
SWIFT
  "$SWIFT" build -c release --package-path "$dir" >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; exit 1; }
}

declare -A PORTS=([this]=18431 [base]=18432)
SIDES=(this)
make_package "$ROOT" "$WORK/this"
if [ -n "${BASE:-}" ]; then
  make_package "$(cd "$BASE" && pwd)" "$WORK/base"
  SIDES+=(base)
fi
for side in "${SIDES[@]}"; do
  "$WORK/$side/.build/release/Bench" "${PORTS[$side]}" >"$WORK/$side.log" 2>&1 &
  PIDS+=($!)
done
sleep 1

declare -A RPS P99
for round in $(seq 1 "$ROUNDS"); do
  for path in / /cached; do
    for side in "${SIDES[@]}"; do
      out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:${PORTS[$side]}$path")
      rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
      p99=$(echo "$out" | awk '$1=="99%" {print $2}' | to_ms)
      RPS[$side$path]="${RPS[$side$path]:-} $rps"; P99[$side$path]="${P99[$side$path]:-} $p99"
      echo "round $round $side $path: $rps req/s, p99 $p99 ms" >&2
    done
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| route | tree | req/s (median of $ROUNDS) | p99 (median) |"
echo "|---|---|---|---|"
for path in / /cached; do
  for side in "${SIDES[@]}"; do
    echo "| $path | $side | $(echo "${RPS[$side$path]}" | median) | $(echo "${P99[$side$path]}" | median) ms |"
  done
done
