#!/usr/bin/env bash
# Soak: each way a test reaches a server, run as TESTS short tests one after the other in one process,
# as a real app's suite runs thousands of tests, under a descriptor limit of 256 (the soft limit a macOS
# shell gives): `Tests/Benchmarks/soak.sh [TESTS] [WAY...]`, TESTS default 10000, every way by default.
#
# The ways are the tests of Tests/ServicesReplayTests/Soak/SoakTests.swift: routedSession, baseURL,
# withMockServerClosure, withReplayClient, trait, faultMatrix, recordOnce, recordNewEpisodes. Each runs in
# a process of its own (so one way's leak cannot fail another), starting a server on the bundled
# `github/users` cassette per test, sending one request and stopping it. Every 1,000 tests (four times in
# a shorter run) it prints the descriptors open and the resident memory. A way fails when one of its
# tests fails or its last checkpoint counts more than 8 descriptors above its first; the script then exits
# 1 after the others ran. Goal: descriptors flat, resident memory growing under 2 MB per 10,000 tests after
# the first 1,000 (printed, not enforced: on Linux each URLSession task alone keeps about 140 bytes).
#
# Environment: SOAK_DESCRIPTORS (the limit, default 256), LOGS (where each way's full output goes, default
# .build/soak). The tests run in a debug build, as `swift test` runs them.
set -euo pipefail
cd "$(dirname "$0")/../.."

count=10000
if [[ $# -gt 0 ]]; then
    if [[ ! $1 =~ ^[0-9]+$ || $1 -eq 0 ]]; then
        echo "soak: TESTS must be a whole number above 0, not '$1'; usage: Tests/Benchmarks/soak.sh [TESTS] [WAY...]" >&2
        exit 2
    fi
    count=$1
    shift
fi
all_ways=(routedSession baseURL withMockServerClosure withReplayClient trait faultMatrix recordOnce recordNewEpisodes)
ways=("$@")
if [[ ${#ways[@]} -eq 0 ]]; then
    ways=("${all_ways[@]}")
fi
for way in "${ways[@]}"; do
    if [[ " ${all_ways[*]} " != *" $way "* ]]; then
        echo "soak: there is no way '$way'; the ways are: ${all_ways[*]}" >&2
        exit 2
    fi
done
limit=${SOAK_DESCRIPTORS:-256}
logs=${LOGS:-.build/soak}
mkdir -p "$logs"
swift build --build-tests
failed=()
for way in "${ways[@]}"; do
    log=$logs/$way.log
    echo "== soak $way: $count tests under a limit of $limit descriptors"
    # The limit is set in a subshell, soft and hard, so the test process cannot raise it.
    if (ulimit -n "$limit" && MOCKSERVER_SOAK=$count swift test --skip-build --filter "SoakTests/$way\\(") >"$log" 2>&1; then
        status=passed
    else
        status=FAILED
        failed+=("$way")
    fi
    grep -E '^soak ' "$log" || true
    grep -E '✘' "$log" | head -3 | cut -c1-300 || true
    echo "== soak $way: $status ($log)"
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "soak: ${#failed[@]} way(s) failed: ${failed[*]}" >&2
    exit 1
fi
echo "soak: every way passed $count tests under a limit of $limit descriptors"
