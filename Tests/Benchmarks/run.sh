#!/usr/bin/env bash
# MockServer benchmarks. Usage: Tests/Benchmarks/run.sh [SECTION...]   (default: every section)
#
# Section "wire": `recorder replay` serving a cassette whose one interaction is a 300-byte JSON answer,
# against nginx serving the same 300 bytes, on loopback, measured back to back with the same wrk settings:
#   1. keep-alive throughput, 64 connections            (target: ours >= 0.9 x nginx)
#   2. p99 latency, 1 connection (wrk --latency)        (target: ours <= 1.2 x nginx)
#   3. new connection per request (Connection: close)   (target: ours >= 0.8 x nginx)
# The machine is shared and noisy, so each measurement runs ROUNDS times, alternating which server
# goes first; the verdict uses the median of the per-round ratios (each ratio from two runs measured
# back to back). Latency at one connection is the most sensitive to other processes (a scheduler
# delay of a few ms lands in the p99 of whichever server it hits), so it runs twice as many rounds of
# half the duration. Server CPU time per request (from /proc) is printed too: it barely depends on load.
# nginx and wrk are installed from Debian packages when missing (needs apt-get and root); otherwise
# the section is skipped with a message.
#
# Section "raw": the same comparison with MockServer's bare HTTP server answering a fixed response
# (no cassette, matching or journal): how much of the wire figures the replay path costs.
# Section "lookup": the cost of one replay lookup in-process at 10, 1,000 and 100,000 interactions, and
# end to end: wrk against `recorder replay` on a 10-interaction and a 100,000-interaction cassette
# (target: flat, the 100,000 figure within 1.25x of the 10 figure both ways).
# Section "load": loading a 10,000-interaction cassette (target: under 0.5 s), with Foundation's
# JSONSerialization parsing the same bytes as the reference measured in the same run.
# Section "startstop": what one short test pays for withMockServer(replaying:) with an empty body, on
# cassettes of 10, 100 and 1,000 interactions: the cassette read and prepared once per process (now)
# against read for every test (before), measured in the same run (no target; the ratio is the point).
# Section "stream": the replay rate of a 10,000-event server-sent event stream with instant timing, read
# over loopback to the end, next to the very same bytes replayed as one ordinary body in the same run (no
# target; a stream is sent as one chunk per event, a body by reference). Then `recorder capture` proxying
# one 100,000-event stream from an upstream in mockserver-bench to a reading client: its resident memory
# after 100,000 events against after 10,000, the stream still open (target: flat, at most 1.1x), and its
# rate against the same stream read straight from the upstream (no target).
# Section "routing": what a client pays to reach the same recorded 300-byte answer four ways in one process
# (mockserver-bench routing): an in-process URLProtocol stub (the reference, what OHHTTPStubs or mattt/Replay
# do), the server's base URL (a socket, as the client chose), host-routed through sessionConfiguration()
# (answered in-process), and host-routed with the in-process answer turned off (the socket road it replaced).
# Per request (100 GETs on one session) and per test (start a server, one GET, stop), medians of ROUNDS*2
# rounds (targets: routed <= 1.5 x the stub per request, <= 2 x per test; base URL and socket have none).
# Section "memory": the resident memory of `recorder replay` serving a 10,000-interaction cassette,
# after DURATION seconds of keep-alive load (target: under 30 MB), next to nginx's as the reference.
# Section "ready": how soon `recorder replay` answers on a cassette of READY_INTERACTIONS (default 100,000)
# interactions, and its resident memory then: from launch to the answer of its first request (the server's
# first line, printed once the cassette is loaded and the port listens, is awaited through a pipe, then one
# request is sent), ROUNDS times. With BASELINE the baseline's recorder (built as for "wire") is measured in
# the same rounds, the two taking turns at going first, and the section prints ours/baseline for both
# figures (the median of the per-round ratios; below 1 is better), so that a slip in loading shows in the
# run that causes it. Without BASELINE it prints ours alone (no target).
# Section "capture": recording through a reverse proxy. nginx serving the 300-byte answer is measured
# direct, behind `recorder capture`, and behind mitmproxy's reverse proxy (`mitmdump --mode reverse:`,
# from PyPI in a venv under .build/; without it the mitmproxy figures are skipped with a message), with
# the same wrk settings: throughput and p50/p99 latency at 1 connection, throughput at 8 connections
# (targets: capture >= 1.5 x mitmproxy at 1 connection, >= 4 x at 8). Then a fresh capture's rate at the
# start against its rate after CAPTURE_EXCHANGES (default 20,000) recorded exchanges (target: late/early
# >= 0.9). mitmdump runs with -q and writes no flow file, so it does less work than capture.
# Section "matrix": the fault matrix of GitHub's user service (24 rows, 1 s client timeout) once on the real
# clock and ROUNDS times on the virtual clock (`FaultMatrix.Timing`), through the test FaultMatrixBenchmark
# (a debug `swift test`, the way users run it). Every virtual run must give each row the real run's outcome
# and verdict (the test fails otherwise); prints the wall times (target: virtual median under 100 ms) and the
# ratio virtual/real.
#
# Environment: DURATION (seconds per run, default 5), ROUNDS (default 7), THREADS (wrk threads,
# default 2), CONNECTIONS (default 64), CAPTURE_EXCHANGES (default 20000), READY_INTERACTIONS (default
# 100000), CONFIGURATION (release, or debug for a quick smoke run that only checks the figures are printed),
# BASELINE (a git revision: the wire section then also measures that revision's `recorder replay`, built
# once into .build/baseline/SHA, in the same rounds, taking turns with ours and nginx, and prints
# ours/baseline: what a change costs, against nginx in one run; both replay servers restart before each
# round; the ready section compares with it too). A before/after comparison of a change, on one machine:
#   BASELINE=main Tests/Benchmarks/run.sh wire ready
# (throughput, latency and connection rate at 64 connections; readiness and resident memory at 100,000
# interactions).
#
# Adding a section: write a function section_NAME below and add NAME to ALL_SECTIONS; use
# $BENCH (mockserver-bench, Tests/Benchmarks/Server) and $RECORDER (release builds), start_replay, and the
# helpers median, ratio and verdict.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=${DURATION:-5}
ROUNDS=${ROUNDS:-7}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
CAPTURE_EXCHANGES=${CAPTURE_EXCHANGES:-20000}
READY_INTERACTIONS=${READY_INTERACTIONS:-100000}
CONFIGURATION=${CONFIGURATION:-release}
CORES=$(nproc 2>/dev/null || echo 2)
ALL_SECTIONS="wire lookup load memory ready startstop routing stream capture matrix"

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- shared helpers ------------------------------------------------------------------------------
median() { sort -g | awk '{ a[NR]=$1 } END { if (NR == 0) print 0; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'; }
ratio() { awk -v o="$1" -v n="$2" 'BEGIN { printf "%.2f", (n > 0 ? o / n : 0) }'; }

start_replay() { # interactions, port: serves a generated cassette with recorder replay --quiet; sets REPLAY_PID
    local cassette="$WORK/cassette-$1.json"
    [ -f "$cassette" ] || "$BENCH" cassette --interactions "$1" --out "$cassette"
    # A baseline from before the format's current version refuses the newer number; the generated cassette holds
    # nothing version 2 lacks (no WebSocket conversation), so the baseline gets it labelled version 2.
    if [ -n "${CASSETTE_VERSION:-}" ]; then
        sed -E "s/^  \"version\" : [0-9]+$/  \"version\" : $CASSETTE_VERSION/" "$cassette" > "$cassette.v$CASSETTE_VERSION"
        cassette="$cassette.v$CASSETTE_VERSION"
    fi
    setsid "$RECORDER" replay "$cassette" --port "$2" --quiet > "$WORK/replay-$1-$2.log" 2>&1 &
    REPLAY_PID=$!
    PIDS+=("$REPLAY_PID")
    wait_ready "$2"
}

rss_kb() { # pids...: resident set size in kB, summed
    local total=0 pid
    for pid in "$@"; do total=$((total + $(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0))); done
    echo "$total"
}

build_products() { # $CONFIGURATION builds of mockserver-bench and recorder; sets BENCH and RECORDER
    local product
    for product in mockserver-bench recorder; do
        echo "== swift build -c $CONFIGURATION --product $product" >&2
        if ! swift build -c "$CONFIGURATION" --product "$product" > "$WORK/build.log" 2>&1; then
            cat "$WORK/build.log" >&2
            echo "benchmark failed: the $CONFIGURATION build of $product did not succeed." >&2
            exit 1
        fi
    done
    BENCH="$(swift build -c "$CONFIGURATION" --show-bin-path)/mockserver-bench"
    RECORDER="$(swift build -c "$CONFIGURATION" --show-bin-path)/recorder"
}

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local port
    for port in $(seq "$1" $(("$1" + 200))); do
        if port_is_free "$port"; then echo "$port"; return; fi
    done
    echo "no free port near $1" >&2; exit 1
}

wait_ready() { # port; bounded at 10 s
    local attempt
    for attempt in $(seq 1 100); do
        curl -sf -o /dev/null "http://127.0.0.1:$1/" && return 0
        sleep 0.1
    done
    echo "server on port $1 did not answer within 10 s" >&2; exit 1
}

cpu_ticks() { # pids...: user+system clock ticks of every thread
    local total=0 pid task
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            total=$((total + $(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null || echo 0)))
        done
    done
    echo "$total"
}

# --- section: wire -------------------------------------------------------------------------------
find_nginx() { command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }

ensure_tools() { # installs nginx and wrk when missing; returns 1 (after a message) when they cannot be had
    if [ -z "$(find_nginx)" ] || ! command -v wrk >/dev/null; then
        if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
            echo "== installing nginx and wrk from Debian packages (apt-get install nginx-light wrk)"
            apt-get install -y nginx-light wrk >/dev/null 2>&1 \
                || { apt-get update >/dev/null 2>&1 && apt-get install -y nginx-light wrk >/dev/null 2>&1; } \
                || true
        fi
    fi
    if [ -z "$(find_nginx)" ] || ! command -v wrk >/dev/null; then
        echo "benchmark skipped: nginx and wrk are not installed and cannot be installed with apt-get here."
        return 1
    fi
}

start_nginx() { # sets NGINX_PORT and NGINX_PIDS (its workers), once
    [ -n "${NGINX_PORT:-}" ] && return 0
    local nginx
    nginx=$(find_nginx)
    NGINX_PORT=$(free_port 28180)
    "$BENCH" payload > "$WORK/payload.json"
    cat > "$WORK/nginx.conf" <<CONF
worker_processes $CORES;
pid $WORK/nginx.pid;
error_log $WORK/error.log;
daemon on;
events { worker_connections 8192; }
http {
    access_log off;
    keepalive_requests 10000000;
    keepalive_timeout 65;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            default_type application/json;
            return 200 '$(cat "$WORK/payload.json")';
        }
    }
}
CONF
    # nginx daemonizes into its own session, and with CFS autogroup a session is a scheduling group;
    # our servers get their own sessions too (setsid), so that none shares CPU shares with wrk.
    "$nginx" -c "$WORK/nginx.conf" -p "$WORK" -e "$WORK/error.log"
    wait_ready "$NGINX_PORT"
    NGINX_PIDS=$(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')
}

section_wire() {
    ensure_tools || return 0
    start_nginx
    OURS_PORT=$(free_port 28080)
    start_ours
    if [ -n "${BASELINE:-}" ]; then
        build_baseline "$BASELINE"
        BASELINE_PORT=$(free_port $((OURS_PORT + 1)))
        start_baseline
    fi
    wire_header "recorder replay, 1 interaction"
    wire_all
    if [ -n "${BASELINE_PIDS:-}" ]; then kill $BASELINE_PIDS 2>/dev/null || true; fi
    BASELINE_PORT=""; BASELINE_PIDS=""
}

start_ours() { start_replay 1 "$OURS_PORT"; OURS_PIDS=$REPLAY_PID; }
start_baseline() { RECORDER=$BASELINE_RECORDER CASSETTE_VERSION=2 start_replay 1 "$BASELINE_PORT"; BASELINE_PIDS=$REPLAY_PID; }

# Before each round of a comparison with the baseline, both replay servers start afresh, in an order that
# alternates by round: two copies of one binary, started one after the other and left running, differ by up to
# 10% on this benchmark (where their threads land), which would hide what a change costs.
restart_compared() { # round
    kill $OURS_PIDS $BASELINE_PIDS 2>/dev/null || true
    wait $OURS_PIDS $BASELINE_PIDS 2>/dev/null || true
    if [ $(($1 % 2)) = 1 ]; then start_ours; start_baseline; else start_baseline; start_ours; fi
}

build_baseline() { # revision: a release build of its recorder in .build/baseline/SHA; sets BASELINE_RECORDER
    local sha dir
    sha=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "benchmark failed: BASELINE=$1 is not a git revision here." >&2; exit 1; }
    dir=".build/baseline/$sha"
    if [ ! -x "$dir/.build/release/recorder" ]; then
        echo "== building the baseline recorder ($1 = ${sha:0:10}) in $dir" >&2
        rm -rf "$dir" && mkdir -p "$dir"
        git archive "$sha" | tar -x -C "$dir"
        if ! (cd "$dir" && swift build -c release --product recorder) > "$WORK/baseline-build.log" 2>&1; then
            cat "$WORK/baseline-build.log" >&2
            echo "benchmark failed: the release build of recorder at $1 did not succeed." >&2
            exit 1
        fi
    fi
    BASELINE_RECORDER="$PWD/$dir/.build/release/recorder"
    BASELINE_NAME="$1 (${sha:0:10})"
}

section_raw() {
    ensure_tools || return 0
    start_nginx
    OURS_PORT=$(free_port 28090)
    setsid "$BENCH" serve --port "$OURS_PORT" > "$WORK/raw.log" 2>&1 &
    OURS_PIDS=$!
    PIDS+=("$OURS_PIDS")
    wait_ready "$OURS_PORT"
    wire_header "bare HTTPServer, fixed response"
    wire_all
}

wire_header() { # what "ours" is
    echo "== wire ($1): ours on :$OURS_PORT ($(curl -s "http://127.0.0.1:$OURS_PORT/" | wc -c)-byte body, $CORES event loops);" \
         "nginx $("$(find_nginx)" -v 2>&1 | sed 's/.*\///') on :$NGINX_PORT ($(curl -s "http://127.0.0.1:$NGINX_PORT/" | wc -c)-byte body, $CORES workers)"
    [ -n "${BASELINE_PORT:-}" ] && echo "== baseline: recorder replay built from $BASELINE_NAME on :$BASELINE_PORT, the same cassette"
    echo "== wrk: $THREADS threads, $DURATION s per run, $ROUNDS rounds alternating which server goes first" \
         "(latency: 1 thread, $(((DURATION + 1) / 2)) s per run, $((ROUNDS * 2)) rounds)"
    echo
}

wire_all() {
    wire_measure throughput "keep-alive throughput, $CONNECTIONS conns" "req/s" ge 0.9
    wire_measure latency "p99 latency, 1 connection" "us" le 1.2
    wire_measure connect "new connection per request" "req/s" ge 0.8
    kill $OURS_PIDS 2>/dev/null || true
}

# --- section: lookup -----------------------------------------------------------------------------
section_lookup() {
    echo "== lookup, in-process (ns per ReplayEngine.answer, best of 3):"
    local lines small large
    lines=$("$BENCH" lookup)
    echo "$lines" | awk '{ printf "    %7d interactions: %6d ns\n", $2, $3 }'
    small=$(echo "$lines" | awk '$2 == 10 { print $3 }')
    large=$(echo "$lines" | awk '$2 == 100000 { print $3 }')
    verdict "lookup 100,000 / 10 interactions" "$(ratio "$large" "$small")" le 1.25
    ensure_tools || return 0
    local port_small port_large pid_small pid_large figures_small=() figures_large=() ratios=() round a b
    port_small=$(free_port 28280)
    port_large=$(free_port $((port_small + 1)))
    start_replay 10 "$port_small"
    pid_small=$REPLAY_PID
    start_replay 100000 "$port_large"
    pid_large=$REPLAY_PID
    echo "== lookup, end to end: wrk keep-alive against recorder replay on 10 and on 100,000 interactions, $ROUNDS rounds"
    for round in $(seq 1 "$ROUNDS"); do
        a=$(wire_run "$port_small" throughput "$DURATION" "$pid_small"); b=$(wire_run "$port_large" throughput "$DURATION" "$pid_large")
        figures_small+=("${a% *}"); figures_large+=("${b% *}"); ratios+=("$(ratio "${b% *}" "${a% *}")")
    done
    echo "    10 interactions: $(printf '%s\n' "${figures_small[@]}" | median) req/s;" \
         "100,000 interactions: $(printf '%s\n' "${figures_large[@]}" | median) req/s"
    verdict "throughput 100,000 / 10 interactions" "$(printf '%s\n' "${ratios[@]}" | median)" ge 0.8
    kill "$pid_small" "$pid_large" 2>/dev/null || true
}

# --- section: load -------------------------------------------------------------------------------
section_load() {
    local out ms bytes reference
    out=$("$BENCH" load --interactions 10000)
    ms=$(echo "$out" | awk '$1 == "load" { print $2 }')
    bytes=$(echo "$out" | awk '$1 == "load" { print $3 }')
    reference=$(echo "$out" | awk '$1 == "reference" { print $2 }')
    echo "== load: a 10,000-interaction cassette of $bytes bytes, decoded and indexed (best of 5)"
    echo "    cassette load: $ms ms; JSONSerialization alone on the same bytes: $reference ms"
    verdict "load / JSONSerialization parse" "$(ratio "$ms" "$reference")" le 1.0
    verdict "load time in seconds" "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')" le 0.5
}

# --- section: startstop --------------------------------------------------------------------------
section_startstop() {
    local n out uncached cached
    for n in 10 100 1000; do
        out=$("$BENCH" startstop --interactions "$n" --runs 200)
        uncached=$(echo "$out" | awk '$1 == "uncached" { print $2 }')
        cached=$(echo "$out" | awk '$1 == "cached" { print $2 }')
        echo "== startstop: one short test's withMockServer(replaying:) on a $n-interaction cassette (mean of 200)"
        echo "    reading the cassette for every test: $uncached µs; read once per process: $cached µs"
        echo "    read once / read every time: $(ratio "$cached" "$uncached")x"
    done
}

# --- section: routing ----------------------------------------------------------------------------
section_routing() {
    local out way
    out=$("$BENCH" routing --rounds $((ROUNDS * 2)))
    figure() { echo "$out" | awk -v kind="$1" -v way="$2" '$1 == kind && $2 == way { print $3 }'; }
    for kind in per-request per-test; do
        echo "== routing, $kind (median µs of $((ROUNDS * 2)) rounds): stub $(figure "$kind" stub), base URL $(figure "$kind" base), routed $(figure "$kind" routed), routed over the socket $(figure "$kind" socket)"
        for way in base socket; do
            echo "    $way / stub: $(ratio "$(figure "$kind" "$way")" "$(figure "$kind" stub)")x"
        done
    done
    verdict "routed / stub, per request" "$(ratio "$(figure per-request routed)" "$(figure per-request stub)")" le 1.5
    verdict "routed / stub, per test" "$(ratio "$(figure per-test routed)" "$(figure per-test stub)")" le 2
}

# --- section: stream -----------------------------------------------------------------------------
section_stream() {
    local out stream body
    out=$("$BENCH" stream --events 10000 --runs 20)
    stream=$(echo "$out" | awk '$1 == "stream" { print $2 }')
    body=$(echo "$out" | awk '$1 == "body" { print $2 }')
    echo "== stream: a 10,000-event stream replayed with instant timing (best of 20)"
    echo "    $(echo "$out" | awk '$1 == "stream"')"
    echo "    the same bytes as one body: $body events/s; stream / body: $(ratio "$stream" "$body")x"

    local first last rate direct
    out=$("$BENCH" capture-stream --recorder "$RECORDER" --out "$WORK/capture-stream.json" --events 100000 --first 10000)
    first=$(echo "$out" | awk '$1 == "rss_first" { print $2 }')
    last=$(echo "$out" | awk '$1 == "rss_last" { print $2 }')
    rate=$(echo "$out" | awk '$1 == "rate" { print $2 }')
    direct=$(echo "$out" | awk '$1 == "direct" { print $2 }')
    echo "== stream: recorder capture proxying one 100,000-event stream, resident memory with the stream still open"
    echo "    after 10,000 events: $((first / 1024)) MB; after 100,000: $((last / 1024)) MB"
    verdict "resident memory, 100,000 / 10,000 events" "$(ratio "$last" "$first")" le 1.1
    echo "    through capture (proxied and logged): $rate events/s; straight from the upstream: $direct events/s;" \
         "capture / direct: $(ratio "$rate" "$direct")x"
}

# --- section: memory -----------------------------------------------------------------------------
section_memory() {
    ensure_tools || return 0
    start_nginx
    local port pid before after nginx_rss
    port=$(free_port 28380)
    start_replay 10000 "$port"
    pid=$REPLAY_PID
    before=$(rss_kb "$pid")
    wire_run "$port" throughput "$DURATION" "$pid" > /dev/null
    after=$(rss_kb "$pid")
    wire_run "$NGINX_PORT" throughput "$DURATION" $NGINX_PIDS > /dev/null
    nginx_rss=$(rss_kb $NGINX_PIDS "$(cat "$WORK/nginx.pid")")
    echo "== memory: recorder replay serving 10,000 interactions: $((before / 1024)) MB after loading," \
         "$((after / 1024)) MB after $DURATION s of load; nginx (master and workers): $((nginx_rss / 1024)) MB"
    verdict "resident memory serving, MB" "$((after / 1024))" le 30
    echo "    ratio to nginx's resident memory: $(ratio "$after" "$nginx_rss")"
    kill "$pid" 2>/dev/null || true
}

# --- section: ready -------------------------------------------------------------------------------
ready_run() { # recorder, cassette, port: prints "MILLISECONDS RSS_KB", from launch to the first answer
    local fifo="$WORK/ready-$3.fifo" start end line pid fd
    rm -f "$fifo" && mkfifo "$fifo"
    start=$(date +%s%N)
    setsid "$1" replay "$2" --port "$3" --quiet > "$fifo" 2>&1 &
    pid=$!
    PIDS+=("$pid")
    # Held open until the server is stopped: a pipe without a reader would end it at its next line.
    exec {fd}< "$fifo"
    if ! read -r -t 300 -u "$fd" line || ! curl -sf -o /dev/null "http://127.0.0.1:$3/"; then
        echo "benchmark failed: $1 did not answer on port $3 within 300 s (it said: ${line:-nothing})." >&2
        exit 1
    fi
    end=$(date +%s%N)
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", (e - s) / 1e6 }') $(rss_kb "$pid")"
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    exec {fd}<&-
}

section_ready() {
    local cassette="$WORK/cassette-$READY_INTERACTIONS.json" port names=(ours) recorders=("$RECORDER") round turn slot out
    [ -f "$cassette" ] || "$BENCH" cassette --interactions "$READY_INTERACTIONS" --out "$cassette"
    port=$(free_port 28580)
    if [ -n "${BASELINE:-}" ]; then
        build_baseline "$BASELINE"
        names+=(baseline); recorders+=("$BASELINE_RECORDER")
    fi
    echo "== ready: recorder replay on $READY_INTERACTIONS interactions ($(($(wc -c < "$cassette") / 1048576)) MB), launch to first answer" \
         "and resident memory then, $ROUNDS rounds$([ ${#names[@]} = 2 ] && echo " taking turns with the baseline, $BASELINE_NAME")"
    local -A times=() memory=()
    local time_ratios=() memory_ratios=() figure_time=() figure_memory=()
    for round in $(seq 1 "$ROUNDS"); do
        for turn in $(seq 0 $((${#names[@]} - 1))); do
            slot=$(((round + turn) % ${#names[@]}))
            out=$(ready_run "${recorders[$slot]}" "$cassette" "$port")
            times[${names[$slot]}]+="${out% *} "; memory[${names[$slot]}]+="${out#* } "
            figure_time[$slot]=${out% *}; figure_memory[$slot]=${out#* }
        done
        if [ ${#names[@]} = 2 ]; then
            time_ratios+=("$(ratio "${figure_time[0]}" "${figure_time[1]}")")
            memory_ratios+=("$(ratio "${figure_memory[0]}" "${figure_memory[1]}")")
        fi
    done
    local name t m
    for name in "${names[@]}"; do
        t=$(echo ${times[$name]} | tr ' ' '\n' | median)
        m=$(echo ${memory[$name]} | tr ' ' '\n' | median)
        printf '    %-9s ready in %7s ms, resident %5s MB   (rounds, ms: %s)\n' "$name" "$t" "$(awk -v k="$m" 'BEGIN { printf "%.1f", k / 1024 }')" \
            "$(echo ${times[$name]})"
    done
    if [ ${#names[@]} = 2 ]; then
        echo "    ours/baseline: ready $(printf '%s\n' "${time_ratios[@]}" | median)x, resident memory $(printf '%s\n' "${memory_ratios[@]}" | median)x" \
             "(medians of the per-round ratios; lower is better)"
        echo "    per-round ratios, ready: ${time_ratios[*]}; memory: ${memory_ratios[*]}"
    fi
}

# --- section: capture ----------------------------------------------------------------------------
ensure_mitmproxy() { # sets MITMDUMP, or leaves it empty after a message
    local venv=.build/mitmproxy-venv
    MITMDUMP=""
    if ! [ -x "$venv/bin/mitmdump" ]; then
        echo "== installing mitmproxy from PyPI into $venv"
        if ! { python3 -m venv "$venv" && timeout 600 "$venv/bin/pip" install --quiet mitmproxy; } > "$WORK/pip.log" 2>&1; then
            echo "mitmproxy figures skipped: mitmproxy cannot be installed from PyPI here. pip said:"
            tail -n 3 "$WORK/pip.log" | sed 's/^/    /'
            return 0
        fi
    fi
    MITMDUMP="$venv/bin/mitmdump"
}

start_capture() { # port, out: recorder capture in front of nginx; sets CAPTURE_PID and CAPTURE_LOG
    CAPTURE_LOG="$WORK/capture-$1.log"
    setsid "$RECORDER" capture --upstream "http://127.0.0.1:$NGINX_PORT" --port "$1" --out "$2" > "$CAPTURE_LOG" 2>&1 &
    CAPTURE_PID=$!
    PIDS+=("$CAPTURE_PID")
    wait_ready "$1"
}

capture_run() { # port, connections, seconds: prints "REQUESTS_PER_S P50_US P99_US"
    local out
    out=$(wrk -t"$([ "$2" = 1 ] && echo 1 || echo "$THREADS")" -c"$2" -d"${3}s" --latency "http://127.0.0.1:$1/")
    echo "$(echo "$out" | awk '/Requests\/sec/ { print $2 }')" \
         "$(echo "$out" | awk '$1 == "50%" { print $2 }' | to_microseconds)" \
         "$(echo "$out" | awk '$1 == "99%" { print $2 }' | to_microseconds)"
}

section_capture() {
    ensure_tools || return 0
    start_nginx
    ensure_mitmproxy
    local capture_port mitm_port="" mitm_pid="" names=(nginx capture) ports=() round name index figures
    capture_port=$(free_port 28480)
    start_capture "$capture_port" "$WORK/capture.json"
    ports=("$NGINX_PORT" "$capture_port")
    if [ -n "$MITMDUMP" ]; then
        mitm_port=$(free_port $((capture_port + 1)))
        setsid "$MITMDUMP" -q --mode "reverse:http://127.0.0.1:$NGINX_PORT" --listen-host 127.0.0.1 --listen-port "$mitm_port" \
            > "$WORK/mitmdump.log" 2>&1 &
        mitm_pid=$!
        PIDS+=("$mitm_pid")
        wait_ready "$mitm_port"
        names+=(mitmproxy); ports+=("$mitm_port")
    fi
    echo "== capture: nginx on :$NGINX_PORT direct, recorder capture on :$capture_port$([ -n "$mitm_port" ] && echo ", mitmdump on :$mitm_port") in front of it;" \
         "wrk $DURATION s per run, $ROUNDS rounds in rotating order, medians"
    declare -A one_rate one_p50 one_p99 eight_rate
    local -A lists
    for round in $(seq 1 "$ROUNDS"); do
        for index in "${!names[@]}"; do
            index=$(( (index + round) % ${#names[@]} ))
            name=${names[$index]}
            figures=$(capture_run "${ports[$index]}" 1 "$DURATION")
            lists[$name.one]+="$(echo "$figures" | cut -d' ' -f1) "
            lists[$name.p50]+="$(echo "$figures" | cut -d' ' -f2) "
            lists[$name.p99]+="$(echo "$figures" | cut -d' ' -f3) "
            lists[$name.eight]+="$(capture_run "${ports[$index]}" 8 "$DURATION" | cut -d' ' -f1) "
        done
    done
    for name in "${names[@]}"; do
        one_rate[$name]=$(echo ${lists[$name.one]} | tr ' ' '\n' | median)
        one_p50[$name]=$(echo ${lists[$name.p50]} | tr ' ' '\n' | median)
        one_p99[$name]=$(echo ${lists[$name.p99]} | tr ' ' '\n' | median)
        eight_rate[$name]=$(echo ${lists[$name.eight]} | tr ' ' '\n' | median)
        printf '    %-10s 1 conn %9s req/s  p50 %7s us  p99 %7s us   8 conns %9s req/s\n' \
            "$name" "${one_rate[$name]}" "${one_p50[$name]}" "${one_p99[$name]}" "${eight_rate[$name]}"
    done
    echo "    capture / nginx: 1 conn $(ratio "${one_rate[capture]}" "${one_rate[nginx]}"), 8 conns $(ratio "${eight_rate[capture]}" "${eight_rate[nginx]}")"
    if [ -n "$mitm_port" ]; then
        echo "    mitmproxy / nginx: 1 conn $(ratio "${one_rate[mitmproxy]}" "${one_rate[nginx]}"), 8 conns $(ratio "${eight_rate[mitmproxy]}" "${eight_rate[nginx]}")"
        echo "    p50 at 1 conn, capture / mitmproxy: $(ratio "${one_p50[capture]}" "${one_p50[mitmproxy]}");" \
             "p99: $(ratio "${one_p99[capture]}" "${one_p99[mitmproxy]}")"
        verdict "capture / mitmproxy, 1 connection" "$(ratio "${one_rate[capture]}" "${one_rate[mitmproxy]}")" ge 1.5
        verdict "capture / mitmproxy, 8 connections" "$(ratio "${eight_rate[capture]}" "${eight_rate[mitmproxy]}")" ge 4
        kill "$mitm_pid" 2>/dev/null || true
    else
        echo "    capture / mitmproxy: skipped (no mitmproxy)"
    fi
    kill -INT "$CAPTURE_PID" 2>/dev/null || true

    # A fresh capture: its rate at the start, then again after CAPTURE_EXCHANGES recorded exchanges.
    local port early late recorded=0 spent=0
    port=$(free_port $((capture_port + 2)))
    start_capture "$port" "$WORK/growing.json"
    early=$(capture_run "$port" 1 "$DURATION" | cut -d' ' -f1)
    while [ "$recorded" -lt "$CAPTURE_EXCHANGES" ] && [ "$spent" -lt 600 ]; do
        wrk -t"$THREADS" -c8 -d2s "http://127.0.0.1:$port/" > /dev/null
        spent=$((spent + 2))
        recorded=$(grep -c ' → ' "$CAPTURE_LOG" || true)
    done
    late=$(capture_run "$port" 1 "$DURATION" | cut -d' ' -f1)
    echo "    a fresh capture at 1 conn: $early req/s at the start, $late req/s after $recorded recorded exchanges"
    verdict "capture rate late / early" "$(ratio "$late" "$early")" ge 0.9
    kill -INT "$CAPTURE_PID" 2>/dev/null || true
}

verdict() { # label, value, comparison (ge|le), target
    local ok
    ok=$(awk -v r="$2" -v t="$4" -v c="$3" 'BEGIN { ok = (c == "ge") ? (r >= t) : (r <= t); print (ok ? "meets" : "MISSES") }')
    printf '    %-40s %8s  (%s target %s %s)\n' "$1" "$2" "$ok" "$([ "$3" = ge ] && echo '>=' || echo '<=')" "$4"
}

# One wrk run; prints "FIGURE CPU_US_PER_REQUEST" (latency in microseconds, rates in requests/s).
# Latency runs also print their p50 to stderr, as a diagnostic that is less sensitive to noise.
wire_run() { # port, kind, seconds, pids...
    local port=$1 kind=$2 seconds=$3
    shift 3
    local before after out
    before=$(cpu_ticks "$@")
    case "$kind" in
        throughput) out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" "http://127.0.0.1:$port/") ;;
        latency)    out=$(wrk -t1 -c1 -d"${seconds}s" --latency "http://127.0.0.1:$port/") ;;
        connect)    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" -H "Connection: close" "http://127.0.0.1:$port/") ;;
    esac
    after=$(cpu_ticks "$@")
    local errors
    errors=$(echo "$out" | grep -E "Socket errors|Non-2xx" | tr '\n' ' ' || true)
    [ -n "$errors" ] && echo "    (port $port, $kind: $errors)" >&2
    local figure requests
    if [ "$kind" = latency ]; then
        # wrk prints 12.34us / 1.23ms / 1.00s
        figure=$(echo "$out" | awk '$1 == "99%" { print $2 }' | to_microseconds)
        echo "    (port $port p50 $(echo "$out" | awk '$1 == "50%" { print $2 }' | to_microseconds) us)" >&2
    else
        figure=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
    fi
    requests=$(echo "$out" | awk '/requests in/ { print $1 }')
    echo "$figure $(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v r="$requests" 'BEGIN { printf "%.2f", (r > 0 ? t / hz * 1000000 / r : 0) }')"
}

to_microseconds() { # wrk prints 12.34us / 1.23ms / 1.00s
    awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); print v } else if (v ~ /ms$/) { sub(/ms$/,"",v); print v*1000 } else { sub(/s$/,"",v); print v*1000000 } }'
}

wire_measure() { # kind, label, unit, comparison (ge|le), target
    local kind=$1 round rounds=$ROUNDS seconds=$DURATION
    if [ "$kind" = latency ]; then
        rounds=$((ROUNDS * 2))
        seconds=$(((DURATION + 1) / 2))
    fi
    # The servers take turns, each round starting from the next one, so that none always runs first.
    local names=(ours nginx) ports=("$OURS_PORT" "$NGINX_PORT") pids=("$OURS_PIDS" "$NGINX_PIDS")
    if [ -n "${BASELINE_PORT:-}" ]; then names+=(baseline); ports+=("$BASELINE_PORT"); pids+=("$BASELINE_PIDS"); fi
    local count=${#names[@]} turn slot
    declare -A figure=() cpu=()
    local ours_figures=() nginx_figures=() baseline_figures=() ratios=() baseline_ratios=() ours_cpu=() nginx_cpu=() baseline_cpu=()
    for round in $(seq 1 "$rounds"); do
        if [ "$count" = 3 ]; then
            restart_compared "$round"
            pids=("$OURS_PIDS" "$NGINX_PIDS" "$BASELINE_PIDS")
        fi
        for turn in $(seq 0 $((count - 1))); do
            slot=$(((round + turn) % count))
            local out
            out=$(wire_run "${ports[$slot]}" "$kind" "$seconds" ${pids[$slot]})
            figure[${names[$slot]}]=${out% *}; cpu[${names[$slot]}]=${out#* }
        done
        ours_figures+=("${figure[ours]}"); nginx_figures+=("${figure[nginx]}")
        ours_cpu+=("${cpu[ours]}"); nginx_cpu+=("${cpu[nginx]}")
        ratios+=("$(ratio "${figure[ours]}" "${figure[nginx]}")")
        if [ "$count" = 3 ]; then
            baseline_figures+=("${figure[baseline]}"); baseline_cpu+=("${cpu[baseline]}")
            baseline_ratios+=("$(ratio "${figure[ours]}" "${figure[baseline]}")")
        fi
    done
    local o n r verdict oc nc
    o=$(printf '%s\n' "${ours_figures[@]}" | median)
    n=$(printf '%s\n' "${nginx_figures[@]}" | median)
    r=$(printf '%s\n' "${ratios[@]}" | median)
    oc=$(printf '%s\n' "${ours_cpu[@]}" | median)
    nc=$(printf '%s\n' "${nginx_cpu[@]}" | median)
    verdict=$(awk -v r="$r" -v t="$5" -v c="$4" 'BEGIN { ok = (c == "ge") ? (r >= t) : (r <= t); print (ok ? "meets" : "MISSES") }')
    printf '%-32s ours %9s %s  nginx %9s %s  ratio ours/nginx %s  (%s target %s %s)\n' \
        "$2" "$o" "$3" "$n" "$3" "$r" "$verdict" "$([ "$4" = ge ] && echo '>=' || echo '<=')" "$5"
    printf '%-32s server CPU per request: ours %s us, nginx %s us, ratio %s\n' "" "$oc" "$nc" "$(ratio "$oc" "$nc")"
    if [ "$count" = 3 ]; then
        local b bc br
        b=$(printf '%s\n' "${baseline_figures[@]}" | median)
        bc=$(printf '%s\n' "${baseline_cpu[@]}" | median)
        br=$(printf '%s\n' "${baseline_ratios[@]}" | median)
        printf '%-32s baseline %9s %s  ratio baseline/nginx %s  ratio ours/baseline %s (%s)\n' \
            "" "$b" "$3" "$(ratio "$b" "$n")" "$br" "$([ "$4" = ge ] && echo 'higher is better' || echo 'lower is better')"
        printf '%-32s server CPU per request: baseline %s us, ratio ours/baseline %s\n' "" "$bc" "$(ratio "$oc" "$bc")"
        echo "    rounds baseline: ${baseline_figures[*]}"
        echo "    per-round ratios ours/baseline: ${baseline_ratios[*]}"
    fi
    echo "    rounds ours: ${ours_figures[*]}"
    echo "    rounds nginx: ${nginx_figures[*]}"
    echo "    per-round ratios: ${ratios[*]}"
}

# --- section: matrix -----------------------------------------------------------------------------
section_matrix() {
    echo "== matrix: GitHubUserService's fault matrix, real clock once, virtual clock $ROUNDS times (debug swift test)"
    local out line median
    if ! out=$(FAULT_MATRIX_BENCHMARK=1 FAULT_MATRIX_ROUNDS=$ROUNDS timeout 600 swift test --filter FaultMatrixBenchmark 2>&1); then
        echo "$out" | grep -E '✘|error' | head -20 >&2
        echo "matrix: the benchmark failed: a virtual run gave a row another verdict than the real run (above)" >&2
        return 1
    fi
    line=$(echo "$out" | grep '^matrix:')
    echo "$line"
    median=$(echo "$line" | sed -E 's/.*virtual median ([0-9.]+) ms.*/\1/')
    awk -v m="$median" 'BEGIN { printf "%-32s virtual median %s ms (%s target < 100 ms)\n", "matrix wall time", m, (m < 100 ? "meets" : "MISSES") }'
}

# --- main ----------------------------------------------------------------------------------------
SECTIONS=${*:-$ALL_SECTIONS}
build_products
for section in $SECTIONS; do
    if ! declare -F "section_$section" >/dev/null; then
        echo "Unknown section '$section'; known sections: $ALL_SECTIONS." >&2
        exit 1
    fi
    "section_$section"
done
