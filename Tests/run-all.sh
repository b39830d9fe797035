#!/usr/bin/env bash
# `make test`: every test, in timed phases, ending with a table of the phases and the 15 slowest tests.
#
#   install  what the build and the tests need (Debian packages, Python tools, demo photos, place tables)
#   lint     swift format, and the kiosk's scripts parsed as ES2017
#   build    the debug build with tests; the release build the Debian package needs then starts, niced, in its
#            own scratch path, and is ready by the time the package is made
#   front    the front's tests, in process, in parallel
#   suites   everything else but the deployment suite, one suite at a time (live servers, the H3 oracle, the
#            browser suite); the browser matrix's repeats are `make test-matrix`'s
#   deploy   the deployment suite on the release build, two topologies at once
#   fuzz     every fuzz target's seeds and regressions replayed, then each target fuzzed for 10 s, two at once
#   deb      the Debian package installed in a fresh Debian 12 root
#
# Each phase's output goes to the terminal and to .build/test-logs/<phase>.log. Environment: SWIFT, STRICT (extra
# build flags), DEMO_PHOTOS, DEB_SCRATCH (the package's build directory).
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
LOGS=.build/test-logs
DEB_SCRATCH=${DEB_SCRATCH:-.build/deb-build}
rm -rf "$LOGS"
mkdir -p "$LOGS"
started=$(date +%s)
release_pid=""

summary() {
    if [ -n "$release_pid" ] && kill -0 "$release_pid" 2>/dev/null; then
        pkill -TERM -P "$release_pid" 2>/dev/null
        kill "$release_pid" 2>/dev/null
    fi
    echo
    python3 Tests/test_summary.py "$LOGS" "$(($(date +%s) - started))"
}
trap summary EXIT

# phase NAME COMMAND...: runs COMMAND, its output also in $LOGS/NAME.log, and records when it started and ended.
phase() {
    local name=$1 begin end status
    shift
    begin=$(date +%s)
    echo "== $name started at $(date -u +%T) UTC"
    "$@" 2>&1 | tee "$LOGS/$name.log"
    status=${PIPESTATUS[0]}
    end=$(date +%s)
    printf '%s\t%s\t%s\t%s\n' "$name" "$begin" "$end" "$status" >>"$LOGS/phases.tsv"
    echo "== $name took $((end - begin)) s (exit $status)"
    return "$status"
}

lint() {
    "$SWIFT" format lint --strict --recursive --parallel Package.swift Sources Tests && make --no-print-directory check-js
}

# The release build for the Debian package, in the background at the lowest priority: the tests come first.
start_release_build() {
    (
        begin=$(date +%s)
        nice -n 19 "$SWIFT" build -c release --static-swift-stdlib --product grain-stories --scratch-path "$DEB_SCRATCH" \
            >"$LOGS/release.log" 2>&1
        status=$?
        printf '%s\t%s\t%s\t%s\n' "release (niced, beside the tests)" "$begin" "$(date +%s)" "$status" >>"$LOGS/phases.tsv"
        exit $status
    ) &
    release_pid=$!
}

# Waits (in this shell, whose child the build is) for the niced release build; the wait is a row of the table.
release_built() {
    local begin status
    begin=$(date +%s)
    echo "== waiting for the release build (started after the debug build)"
    wait "$release_pid"
    status=$?
    release_pid=""
    printf '%s\t%s\t%s\t%s\n' "waiting for the release build" "$begin" "$(date +%s)" "$status" >>"$LOGS/phases.tsv"
    [ "$status" = 0 ] || tail -40 "$LOGS/release.log"
    return "$status"
}

deployment() {
    GRAIN_STORIES_BINARY=$PWD/$DEB_SCRATCH/release/grain-stories "$SWIFT" test --skip-build --filter 'DeploymentSuiteTests'
}

export GRAIN_DEMO_PHOTOS=${DEMO_PHOTOS:-$PWD/.build/demo-photos}
phase install make --no-print-directory deps test-deps test-python demo-photos places-data || exit 1
phase lint lint || exit 1
# shellcheck disable=SC2086 # STRICT is a list of flags
phase build "$SWIFT" build --build-tests ${STRICT:-} || exit 1
start_release_build
phase front "$SWIFT" test --skip-build --filter '^AppTests\.' || exit 1
phase suites "$SWIFT" test --skip-build --no-parallel --skip '^AppTests\.' --skip 'BrowserMatrixTests' \
    --skip 'DeploymentSuiteTests' || exit 1
release_built || exit 1
phase deploy deployment || exit 1
phase fuzz env SWIFT="$SWIFT" FUZZ_PARALLEL=2 bash Tests/Fuzz/run.sh check 10 || exit 1
phase deb make --no-print-directory deb-test || exit 1
