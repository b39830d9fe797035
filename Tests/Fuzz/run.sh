#!/usr/bin/env bash
# Builds the libFuzzer targets (Tests/Fuzz/Package.swift) with -sanitize=fuzzer,address and runs them.
#
#   run.sh replay [TARGET...]          run every seed in Corpus/<Target>/ and Regressions/<Target>/ once; fail on
#                                      any crash, property failure, timeout or out-of-memory
#   run.sh fuzz SECONDS [TARGET...]    fuzz each target for SECONDS, starting from its seeds and regressions; new
#                                      inputs go to a temporary directory, a failing input is saved to
#                                      Regressions/<Target>/ and the run fails
#   run.sh check SECONDS [TARGET...]   one build, then replay, then fuzz (what `make test` and `make fuzz` run)
#   run.sh build                       the build alone (`make test` makes it, niced, while tests run)
#
# Environment: SWIFT (the swift driver), FUZZ_JOBS (build jobs, default 2), FUZZ_PARALLEL (targets fuzzed at once,
# default 1), FUZZ_SCRATCH (build directory, default .build/fuzz of the repository), FUZZ_KEEP_CORPUS=DIR (copy each
# target's grown corpus to DIR/<Target>).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
swift=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
scratch=${FUZZ_SCRATCH:-$root/.build/fuzz}
jobs=${FUZZ_JOBS:-2}

all_targets=(FuzzMultipart FuzzURLEncodedForm FuzzCookies FuzzExif FuzzJPEG FuzzHEIF FuzzWebP FuzzHTMLEscaping FuzzATProtoSyntax)

# Longest input libFuzzer may generate per target: long enough for every structure the parser reads, short
# enough to keep runs fast in a sanitised debug build.
max_len() {
    case $1 in
        FuzzExif | FuzzJPEG | FuzzMultipart | FuzzWebP) echo 4096 ;;
        FuzzHEIF) echo 8192 ;;
        *) echo 1024 ;;
    esac
}

# Swift's own crash backtracer would run next to libFuzzer's and ASan's handlers and confuse the report;
# libFuzzer prints the stack itself. ASan and libFuzzer keep their defaults: stop at the first error, and report
# an input that leaks like one that crashes.
export SWIFT_BACKTRACE=enable=no
# Leaks inside Debian libraries we cannot fix are listed, each with its reason, in lsan-suppressions.txt.
export LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

usage() {
    sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# `--sanitize=fuzzer` makes SwiftPM leave `main` to libFuzzer (it otherwise renames the executable's entry point
# and aliases `main` to it). The sanitizers themselves come from one comma-separated flag, passed after SwiftPM's
# own: with `--sanitize=fuzzer --sanitize=address` SwiftPM passes two flags in an order that varies between runs
# and swiftc keeps only the last, so modules came out with coverage but no ASan or the reverse.
# lld instead of gold, which warns about every ASan symbol it cannot export.
flags=(--package-path "$here" --scratch-path "$scratch" --sanitize=fuzzer
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld)

build() {
    echo "== building fuzz targets in $scratch"
    "$swift" build "${flags[@]}" -j "$jobs"
    bin=$("$swift" build "${flags[@]}" --show-bin-path)
}

# Seed and regression files of a target (READMEs and .gitkeep are documentation, not inputs).
inputs() {
    local dir
    for dir in "$here/Corpus/$1" "$here/Regressions/$1"; do
        [ -d "$dir" ] || continue
        find "$dir" -maxdepth 1 -type f ! -name 'README*' ! -name '.gitkeep' | sort
    done
}

replay() {
    local target files log executed status=0
    for target in "${targets[@]}"; do
        mapfile -t files < <(inputs "$target")
        if [ ${#files[@]} -eq 0 ]; then
            echo "!! $target: no seeds in Corpus/$target" >&2
            status=1
            continue
        fi
        log=$(mktemp)
        if "$bin/$target" -timeout=25 -rss_limit_mb=2048 "${files[@]}" >"$log" 2>&1; then
            # libFuzzer reports each file it ran; fewer means the binary's `main` is not libFuzzer's.
            executed=$(grep -c '^Executed ' "$log" || true)
            if [ "$executed" = ${#files[@]} ]; then
                echo "ok $target: replayed ${#files[@]} inputs"
            else
                echo "!! $target: ran $executed of ${#files[@]} inputs" >&2
                tail -20 "$log" >&2
                status=1
            fi
        else
            echo "!! $target: an input failed" >&2
            grep -E '^Running: ' "$log" | tail -1 >&2 || true
            tail -60 "$log" >&2
            status=1
        fi
        rm -f "$log"
    done
    return $status
}

# Fuzzes one target for SECONDS in a work directory of its own, removed however it ends; its report goes to
# standard output in one piece when it is done, so targets fuzzed at once do not interleave their lines. Runs as a
# background job (its own subshell), whose exit removes the directory.
fuzz_one() {
    local target=$1 seconds=$2 work log status=0 found artifact report
    work=$(mktemp -d "${TMPDIR:-/tmp}/grain-fuzz-$target.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    mkdir "$work/corpus" "$work/artifacts"
    inputs "$target" | while read -r file; do cp "$file" "$work/corpus/"; done
    local dict=()
    [ -f "$here/Dictionaries/$target.dict" ] && dict=("-dict=$here/Dictionaries/$target.dict")
    log="$work/log"
    report="$work/report"
    echo "== fuzzed $target for ${seconds}s" >"$report"
    if "$bin/$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=25 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict[@]}" "$work/corpus" >"$log" 2>&1; then
        grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$log" | tail -2 | sed "s/^/   /" >>"$report" || true
        if ! grep -q '^#[0-9]*.*INITED' "$log"; then
            echo "!! $target did not start fuzzing:" >>"$report"
            tail -20 "$log" >>"$report"
            status=1
        fi
    else
        status=1
        {
            echo "!! $target failed:"
            grep -E 'Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY' "$log" | head -5 || true
            tail -40 "$log"
        } >>"$report"
        found=0
        mkdir -p "$here/Regressions/$target"
        for artifact in "$work"/artifacts/*; do
            [ -f "$artifact" ] || continue
            cp "$artifact" "$here/Regressions/$target/"
            echo "!! saved Tests/Fuzz/Regressions/$target/$(basename "$artifact")" >>"$report"
            found=1
        done
        [ $found = 1 ] || echo "!! no failing input was written (see the log above)" >>"$report"
    fi
    if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then
        mkdir -p "$FUZZ_KEEP_CORPUS/$target"
        cp "$work"/corpus/* "$FUZZ_KEEP_CORPUS/$target/" 2>/dev/null || true
    fi
    cat "$report"
    return $status
}

# Fuzzes every target for SECONDS, FUZZ_PARALLEL of them at once; fails if any did.
fuzz() {
    local seconds=$1 parallel=${FUZZ_PARALLEL:-1} target status=0 running=0
    for target in "${targets[@]}"; do
        if [ "$running" -ge "$parallel" ]; then
            wait -n || status=1
            running=$((running - 1))
        fi
        fuzz_one "$target" "$seconds" &
        running=$((running + 1))
    done
    while [ "$running" -gt 0 ]; do
        wait -n || status=1
        running=$((running - 1))
    done
    return $status
}

command=${1:-}
[ -n "$command" ] || usage
shift
case $command in
    build) build ;;
    replay)
        targets=("$@")
        [ $# -gt 0 ] || targets=("${all_targets[@]}")
        build
        replay
        ;;
    fuzz | check)
        seconds=${1:-}
        [[ $seconds =~ ^[0-9]+$ ]] || usage
        shift
        targets=("$@")
        [ $# -gt 0 ] || targets=("${all_targets[@]}")
        build
        if [ "$command" = check ]; then replay; fi
        fuzz "$seconds"
        ;;
    *) usage ;;
esac
