#!/usr/bin/env bash
# `make test`: every test, in timed phases, ending with a table of the phases and the 15 slowest tests.
#
#   install   what the build needs (Debian packages); what the tests need (packages, Python tools, demo photos,
#             place tables) installs meanwhile, beside the build
#   build     the debug build with tests
#   lint      swift format, and the kiosk's scripts parsed as ES2017
#   timings   the browser tests that assert how fast the viewer answers, alone on a quiet machine
#   lanes     everything else in two lanes at once (the width of the machine's two cores), each a list of jobs run
#             one after another (`lane1`, `lane2` below): the front's in-process tests (in parallel), the other
#             suites one at a time, the browser suite's cells, the deployment suite and the Debian package on the
#             release build, and the fuzz targets. The release build and then the fuzz build start, niced, when
#             the lanes do, each in its own scratch path, and the jobs that need them wait for them.
#
# Each phase's output goes to .build/test-logs/<phase>.log; the lanes' jobs write only there (their names and times,
# and a failing job's log, come to the terminal). Environment: SWIFT, STRICT (extra build flags), DEMO_PHOTOS,
# DEB_SCRATCH (the package's build directory).
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
LOGS=.build/test-logs
DEB_SCRATCH=${DEB_SCRATCH:-.build/deb-build}
rm -rf "$LOGS"
mkdir -p "$LOGS"
started=$(date +%s)
background_builds_pid=""
test_installs_pid=""

summary() {
    for pid in $background_builds_pid $test_installs_pid; do
        if kill -0 "$pid" 2>/dev/null; then
            pkill -TERM -P "$pid" 2>/dev/null
            kill "$pid" 2>/dev/null
        fi
    done
    echo
    python3 Tests/test_summary.py "$LOGS" "$(($(date +%s) - started))"
}
trap summary EXIT

# record NAME BEGIN STATUS: a row of the final table, ending now.
record() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$(date +%s)" "$3" >>"$LOGS/phases.tsv"
}

# phase NAME COMMAND...: runs COMMAND, its output also in $LOGS/NAME.log, and records when it started and ended.
phase() {
    local name=$1 begin end status
    shift
    begin=$(date +%s)
    echo "== $name started at $(date -u +%T) UTC"
    "$@" 2>&1 | tee "$LOGS/$name.log"
    status=${PIPESTATUS[0]}
    end=$(date +%s)
    record "$name" "$begin" "$status"
    echo "== $name took $((end - begin)) s (exit $status)"
    return "$status"
}

# job NAME COMMAND...: a lane's job; like a phase, but its output goes only to $LOGS/NAME.log.
job() {
    local name=$1 begin end status
    shift
    begin=$(date +%s)
    echo "== $name started at $(date -u +%T) UTC"
    "$@" >"$LOGS/$name.log" 2>&1
    status=$?
    end=$(date +%s)
    record "$name" "$begin" "$status"
    echo "$status" >"$LOGS/$name.status"
    echo "== $name took $((end - begin)) s (exit $status)"
    if [ "$status" != 0 ]; then
        echo "== $name failed; the end of $LOGS/$name.log:"
        grep -E "✘|FAIL|Error|error:" "$LOGS/$name.log" | head -40
        tail -30 "$LOGS/$name.log"
    fi
    return "$status"
}

# lane JOB...: runs the functions named JOB... one after another, every one of them even when one fails; fails when
# any failed. Two lanes run at once, the width of the machine's two cores.
lane() {
    local failed=0
    for name in "$@"; do "$name" || failed=1; done
    return "$failed"
}

two_lanes() {
    local first second
    lane "${lane1[@]}" &
    first=$!
    lane "${lane2[@]}" &
    second=$!
    wait "$first"
    local status=$?
    wait "$second" && return "$status"
}

lint() {
    "$SWIFT" format lint --strict --recursive --parallel Package.swift Sources Tests && make --no-print-directory check-js
}

# What only the tests need, installed in the background while the debug build runs (apt-get is not running then:
# the build's own packages are in).
start_test_installs() {
    (
        begin=$(date +%s)
        make --no-print-directory test-deps test-python demo-photos places-data >"$LOGS/install-tests.log" 2>&1
        status=$?
        record "install for the tests (beside the build)" "$begin" "$status"
        exit $status
    ) &
    test_installs_pid=$!
}

# The release build for the deployment suite and the Debian package, then the fuzz targets' sanitizer build, in the
# background at the lowest priority while the lanes run: the tests come first, and their waits leave cores idle.
# The release build's exit status lands in $LOGS/release.status for the jobs that wait for it; the fuzz job's own
# build waits on SwiftPM's lock for this one and finds everything built.
start_background_builds() {
    (
        begin=$(date +%s)
        nice -n 19 "$SWIFT" build -c release --static-swift-stdlib --product grain-stories --scratch-path "$DEB_SCRATCH" \
            >"$LOGS/release.log" 2>&1
        status=$?
        record "release build (niced, beside the lanes)" "$begin" "$status"
        echo "$status" >"$LOGS/release.status"
        begin=$(date +%s)
        nice -n 19 env SWIFT="$SWIFT" bash Tests/Fuzz/run.sh build >"$LOGS/fuzz-build.log" 2>&1
        record "fuzz build (niced, beside the lanes)" "$begin" "$?"
        exit $status
    ) &
    background_builds_pid=$!
}

# Waits for the niced release build (a lane's job is not its parent, so it watches for the status file).
release_built() {
    while [ ! -s "$LOGS/release.status" ]; do sleep 1; done
    [ "$(cat "$LOGS/release.status")" = 0 ] || { tail -40 "$LOGS/release.log"; return 1; }
}

# `swift test` for one lane's job: the lanes share .build's test binary, which none of them writes.
swift_test() { "$SWIFT" test --skip-build --ignore-lock "$@"; }

# The lanes' jobs.
# The front's in-process tests and its state's and publishing modules', which are as quick and as independent of one another.
front() { job front swift_test --filter '^(AppTests|FrontStateTests|PublishingTests)\.'; }
suites() {
    job suites swift_test --no-parallel --skip '^(AppTests|FrontStateTests|PublishingTests)\.' --skip 'Browser' --skip 'DeploymentSuiteTests' --skip '^VideoTests\.' \
        --skip 'ClipPostingTests'
}
# Clips spend their time in ffmpeg children: a job of their own, in the lane whose browser cells leave a core free.
clips() { job clips swift_test --filter '^VideoTests\.' --filter 'ClipPostingTests'; }
browser_phone() { job browser-phone swift_test --filter 'BrowserSuiteTests/phone\(\)'; }
browser_remote() { job browser-remote swift_test --filter 'BrowserSuiteTests/remote\(\)'; }
browser_kiosk() { job browser-kiosk swift_test --no-parallel --filter 'BrowserSuiteTests/(phoneKiosk|remoteKiosk)\(\)'; }
browser_sizes() { job browser-sizes swift_test --no-parallel --filter 'BrowserSuiteTests/(desktop|wall|seenMarks[A-Za-z]*)\(\)'; }
# Some topologies make a network namespace, and adding or removing its veth link is a network change to every
# Chromium on the host, which drops their pages in flight (ERR_NETWORK_CHANGED): the deployment suite starts once
# the browser suite's cells are done.
deployment() {
    release_built || return 1
    for cell in browser-phone browser-remote browser-kiosk browser-sizes; do
        while [ ! -s "$LOGS/$cell.status" ]; do sleep 1; done
    done
    job deploy env GRAIN_STORIES_BINARY="$PWD/$DEB_SCRATCH/release/grain-stories" "$SWIFT" test --skip-build --ignore-lock \
        --filter 'DeploymentSuiteTests'
}
fuzz() { job fuzz env SWIFT="$SWIFT" FUZZ_PARALLEL=2 bash Tests/Fuzz/run.sh check 10; }
deb() {
    release_built || return 1
    job deb make --no-print-directory deb-test
}
lane1=(browser_phone browser_remote browser_kiosk clips deployment fuzz)
lane2=(front suites browser_sizes deb)

export GRAIN_DEMO_PHOTOS=${DEMO_PHOTOS:-$PWD/.build/demo-photos}
phase install make --no-print-directory deps || exit 1
start_test_installs
# shellcheck disable=SC2086 # STRICT is a list of flags
phase build "$SWIFT" build --build-tests ${STRICT:-} || exit 1
wait "$test_installs_pid" || { tail -40 "$LOGS/install-tests.log"; exit 1; }
phase lint lint || exit 1
phase timings "$SWIFT" test --skip-build --filter 'BrowserSuiteTests/timings\(\)' || exit 1
start_background_builds
phase lanes two_lanes || exit 1
