#!/usr/bin/env bash
# MockServer benchmarks. Usage: Tests/Benchmarks/run.sh [SECTION...]   (default: every section)
#
# Section "wire": MockServer's HTTP server against nginx, both serving the same 300-byte JSON on
# loopback, measured back to back with the same wrk settings:
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
# Environment: DURATION (seconds per run, default 5), ROUNDS (default 7), THREADS (wrk threads,
# default 2), CONNECTIONS (default 64).
#
# Adding a section: write a function section_NAME below and add NAME to ALL_SECTIONS; use
# bench_binary for the release build of mockserver-bench (Tests/Benchmarks/Server, one file per
# command) and the helpers median and ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=${DURATION:-5}
ROUNDS=${ROUNDS:-7}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
CORES=$(nproc 2>/dev/null || echo 2)
ALL_SECTIONS="wire"

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

BENCH=""
bench_binary() { # builds once, then prints the path of the release mockserver-bench
    if [ -z "$BENCH" ]; then
        echo "== swift build -c release --product mockserver-bench" >&2
        if ! swift build -c release --product mockserver-bench > "$WORK/build.log" 2>&1; then
            cat "$WORK/build.log" >&2
            echo "benchmark failed: the release build did not succeed." >&2
            exit 1
        fi
        BENCH="$(swift build -c release --show-bin-path)/mockserver-bench"
    fi
    echo "$BENCH"
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

section_wire() {
    if [ -z "$(find_nginx)" ] || ! command -v wrk >/dev/null; then
        if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
            echo "== installing nginx and wrk from Debian packages (apt-get install nginx-light wrk)"
            apt-get install -y nginx-light wrk >/dev/null 2>&1 \
                || { apt-get update >/dev/null 2>&1 && apt-get install -y nginx-light wrk >/dev/null 2>&1; } \
                || true
        fi
    fi
    local nginx
    nginx=$(find_nginx)
    if [ -z "$nginx" ] || ! command -v wrk >/dev/null; then
        echo "wire benchmark skipped: nginx and wrk are not installed and cannot be installed with apt-get here."
        return 0
    fi
    local bench
    bench=$(bench_binary)

    OURS_PORT=$(free_port 28080)
    NGINX_PORT=$(free_port $((OURS_PORT + 1)))
    "$bench" payload > "$WORK/payload.json"
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
    "$nginx" -c "$WORK/nginx.conf" -p "$WORK" -e "$WORK/error.log"
    # nginx daemonizes into its own session, and with CFS autogroup a session is a scheduling group;
    # our server gets its own session too, so that neither shares CPU shares with wrk.
    setsid "$bench" serve --port "$OURS_PORT" > "$WORK/ours.log" 2>&1 &
    OURS_PIDS=$!
    PIDS+=("$OURS_PIDS")
    wait_ready "$OURS_PORT"
    wait_ready "$NGINX_PORT"
    NGINX_PIDS=$(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')

    echo "== wire: ours on :$OURS_PORT ($(curl -s "http://127.0.0.1:$OURS_PORT/" | wc -c)-byte body, $CORES event loops);" \
         "nginx $("$nginx" -v 2>&1 | sed 's/.*\///') on :$NGINX_PORT ($(curl -s "http://127.0.0.1:$NGINX_PORT/" | wc -c)-byte body, $CORES workers)"
    echo "== wrk: $THREADS threads, $DURATION s per run, $ROUNDS rounds alternating which server goes first" \
         "(latency: 1 thread, $(((DURATION + 1) / 2)) s per run, $((ROUNDS * 2)) rounds)"
    echo
    wire_measure throughput "keep-alive throughput, $CONNECTIONS conns" "req/s" ge 0.9
    wire_measure latency "p99 latency, 1 connection" "us" le 1.2
    wire_measure connect "new connection per request" "req/s" ge 0.8
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
    local kind=$1 round ours theirs rounds=$ROUNDS seconds=$DURATION
    if [ "$kind" = latency ]; then
        rounds=$((ROUNDS * 2))
        seconds=$(((DURATION + 1) / 2))
    fi
    local ours_figures=() nginx_figures=() ratios=() ours_cpu=() nginx_cpu=()
    for round in $(seq 1 "$rounds"); do
        if [ $((round % 2)) = 1 ]; then
            ours=$(wire_run "$OURS_PORT" "$kind" "$seconds" $OURS_PIDS); theirs=$(wire_run "$NGINX_PORT" "$kind" "$seconds" $NGINX_PIDS)
        else
            theirs=$(wire_run "$NGINX_PORT" "$kind" "$seconds" $NGINX_PIDS); ours=$(wire_run "$OURS_PORT" "$kind" "$seconds" $OURS_PIDS)
        fi
        ours_figures+=("${ours% *}"); nginx_figures+=("${theirs% *}")
        ours_cpu+=("${ours#* }"); nginx_cpu+=("${theirs#* }")
        ratios+=("$(ratio "${ours% *}" "${theirs% *}")")
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
    echo "    rounds ours: ${ours_figures[*]}"
    echo "    rounds nginx: ${nginx_figures[*]}"
    echo "    per-round ratios: ${ratios[*]}"
}

# --- main ----------------------------------------------------------------------------------------
SECTIONS=${*:-$ALL_SECTIONS}
for section in $SECTIONS; do
    if ! declare -F "section_$section" >/dev/null; then
        echo "Unknown section '$section'; known sections: $ALL_SECTIONS." >&2
        exit 1
    fi
    "section_$section"
done
