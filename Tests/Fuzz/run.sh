#!/usr/bin/env bash
# Builds the libFuzzer targets in Tests/Fuzz/Targets and runs each for SECONDS (default 60), or only the
# TARGETs named: `Tests/Fuzz/run.sh [SECONDS] [TARGET...]`.
#
# Each target is one file with an `LLVMFuzzerTestOneInput` entry point. It reaches internal code through
# `@testable import` of a module that this script compiles from a copy of the package's own sources (every
# *.swift under Sources/NAME, so files may move) with `-sanitize=fuzzer,address -enable-testing`; the
# package itself needs no fuzzing target. Modules are rebuilt only when their sources change.
#
# Seeds come from Tests/Fuzz/Corpus/TARGET (read only); what libFuzzer learns goes to .build/fuzz/corpus,
# so a later run continues the campaign. A crash, leak or AddressSanitizer report stops that target,
# leaves the input in .build/fuzz/crashes and makes the script exit non-zero after the other targets ran.
#
# FUZZ_RUNS=N stops each target after N inputs (SECONDS still bounds it).
# FUZZ_SEED=N makes a run repeatable: libFuzzer's random seed is N and Swift's hashing is deterministic, so
# from the same corpus a short run replays the first inputs of a longer one. CI uses it, so that what CI
# runs has been run, longer, before.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=60
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
build=.build/fuzz
mkdir -p "$build/modules" "$build/bin" "$build/corpus" "$build/crashes" "$build/logs"

all_targets=()
for file in Tests/Fuzz/Targets/*.swift; do
    all_targets+=("$(basename "$file" .swift)")
done
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=("${all_targets[@]}")
fi
for target in "${targets[@]}"; do
    if [[ ! -f Tests/Fuzz/Targets/$target.swift ]]; then
        echo "fuzz: there is no target '$target'; the targets are: ${all_targets[*]}" >&2
        exit 2
    fi
done

# Package.swift's settings, its availability macro read from there so the platform list stays in one place.
availability_macro=$(grep -o 'AvailabilityMacro=[^"]*' Package.swift)
flags=(-swift-version 6 -package-name ServiceReplay -enable-upcoming-feature ExistentialAny
       -enable-experimental-feature "$availability_macro" -O -sanitize=fuzzer,address -parse-as-library
       -I "$build/modules" -L "$build/modules")

# Runs a command with its output in the log file $1, shown only when it fails (linking an ASan binary with
# gold prints pages of harmless "Cannot export local symbol" warnings).
quietly() {
    local log=$1
    shift
    if ! "$@" > "$log" 2>&1; then
        grep -v 'Cannot export local symbol' "$log" >&2
        echo "fuzz: '$*' failed; its output is in $log" >&2
        exit 1
    fi
}

# The modules each library module needs, in link order.
dependencies() {
    case $1 in
        MockServerWire | ServiceKit) echo "ServiceReplayShared" ;;
        MockServer) echo "MockServerWire ServiceReplayShared" ;;
        recorder) echo "MockServer MockServerWire ServiceReplayShared" ;;
        *) echo "" ;;
    esac
}

# Compiles Sources/$1 into a static library and module, unless nothing changed since the last build.
build_module() {
    local module=$1 sources
    for dependency in $(dependencies "$module"); do
        build_module "$dependency"
    done
    # A copy of the sources is compiled, so that editing them meanwhile does not break a long build.
    # recorder's main.swift is the executable's top-level code; libFuzzer brings its own main.
    local copy=$build/sources/$module
    rm -rf "$copy"
    mkdir -p "$copy"
    cp -R "Sources/$module/." "$copy"
    rm -f "$copy/main.swift"
    mapfile -t sources < <(find "$copy" -name '*.swift' | sort)
    local stamp
    stamp=$( (printf '%s\n' "${flags[@]}"; cat "${sources[@]}"; for d in $(dependencies "$module"); do cat "$build/modules/$d.stamp"; done) | sha256sum | cut -d' ' -f1)
    if [[ -f $build/modules/$module.stamp && $(cat "$build/modules/$module.stamp") == "$stamp" ]]; then
        return
    fi
    echo "== fuzz: compiling $module"
    rm -f "$build/modules/$module.stamp"
    quietly "$build/logs/compile-$module.log" swiftc "${flags[@]}" -enable-testing -module-name "$module" -emit-module \
        -emit-module-path "$build/modules/$module.swiftmodule" -emit-library -static -o "$build/modules/lib$module.a" "${sources[@]}"
    echo "$stamp" > "$build/modules/$module.stamp"
}

# The package module a target tests: the one it imports with @testable.
module_of() {
    sed -nE 's/^@testable import ([A-Za-z]+)$/\1/p' "Tests/Fuzz/Targets/$1.swift" | head -1
}

failed=()
for target in "${targets[@]}"; do
    module=$(module_of "$target")
    build_module "$module"
    libraries=(-l"$module")
    for dependency in $(dependencies "$module"); do
        libraries+=(-l"$dependency")
    done
    binary=$build/bin/$target
    echo "== fuzz: linking $target"
    quietly "$build/logs/link-$target.log" swiftc "${flags[@]}" -module-name "Fuzz$target" Tests/Fuzz/Support/*.swift \
        "Tests/Fuzz/Targets/$target.swift" "${libraries[@]}" -o "$binary"

    mkdir -p "$build/corpus/$target"
    seeds=()
    [[ -d Tests/Fuzz/Corpus/$target ]] && seeds=("Tests/Fuzz/Corpus/$target")
    log=$build/logs/$target.log
    echo "== fuzz: running $target for $seconds s"
    options=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$build/crashes/$target-")
    # The runtime's backtracer would inspect a crash under ASan and report itself; the suppressions name statics
    # that LeakSanitizer cannot see are still referenced.
    environment=(SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=Tests/Fuzz/lsan-suppressions.txt)
    if [[ -n ${FUZZ_RUNS:-} ]]; then
        options+=(-runs="$FUZZ_RUNS")
    fi
    if [[ -n ${FUZZ_SEED:-} ]]; then
        options+=(-seed="$FUZZ_SEED")
        environment+=(SWIFT_DETERMINISTIC_HASHING=1)
    fi
    started=$SECONDS
    if env "${environment[@]}" "$binary" "${options[@]}" "$build/corpus/$target" "${seeds[@]}" > "$log" 2>&1; then
        executions=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
        echo "fuzz: $target ran ${executions:-?} inputs in $((SECONDS - started)) s without a crash, leak or sanitizer report"
    else
        echo "fuzz: $target failed; the end of $log:" >&2
        tail -40 "$log" >&2
        failed+=("$target")
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: ${failed[*]} found a crash, leak or sanitizer report; the inputs are in $build/crashes" >&2
    exit 1
fi
