#!/usr/bin/env bash
# What a plugin's first panic costs the host with RUST_BACKTRACE=1: the time of the call that
# panics and the resident memory it leaves behind, against a second panicking call. (Issue 22: the
# panic hook of the plugin's std symbolizes the backtrace, which reads the debug information of every
# library on the stack and keeps what it read for the rest of the process.)
#
#   bench/first-panic.sh [--runs N] [--backtrace VALUE] HOST PLUGIN_LIBRARY
#
#   HOST            the mcp-plugin-host binary to start
#   PLUGIN_LIBRARY  libpanicky.so (host/tests/fixtures/panicky), the only plugin the host loads
#   --runs N        fresh host processes, one measurement each (default 5); the medians are printed
#   --backtrace V   RUST_BACKTRACE for the host (default 1; "unset" leaves it unset)
#
# Each run starts the host on a configuration of its own (init --plugin-dir over a folder holding
# the library alone), makes the MCP handshake over stdio, calls `still_works` (which creates the
# plugin and starts its call threads, so neither counts below), then `panic_in_call` twice. It
# prints one line a run and the medians: each panicking call's time (request written to answer
# read, bash's EPOCHREALTIME) and the change of the host's VmRSS (/proc/PID/status) across it.
set -euo pipefail

runs=5
backtrace=1
while [[ $# -gt 0 ]]; do
    case "$1" in
    --runs)
        runs="$2"
        shift
        ;;
    --backtrace)
        backtrace="$2"
        shift
        ;;
    -h | --help)
        sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) break ;;
    esac
    shift
done
[[ $# -eq 2 ]] || { echo "usage: bench/first-panic.sh [--runs N] [--backtrace VALUE] HOST PLUGIN_LIBRARY" >&2; exit 2; }
host="$(realpath "$1")"
library="$(realpath "$2")"

scratch="$(mktemp -d)"
trap '[[ -n ${FIRST_PANIC_KEEP:-} ]] || rm -rf "$scratch"' EXIT
mkdir -p "$scratch/plugins"
cp "$library" "$scratch/plugins/"
"$host" init --config "$scratch/appsettings.json" --plugin-dir "$scratch/plugins" >/dev/null

rss_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status"; }

# Sends request `id` (method, params) to the host and reads lines until its answer; sets `took` to
# the microseconds that took (no subshell: the coprocess's pipes are not available in one).
took=0
ask() {
    local id="$1" method="$2" params="$3" line started
    started="${EPOCHREALTIME/./}"
    printf '{"jsonrpc":"2.0","id":%s,"method":"%s","params":%s}\n' "$id" "$method" "$params" >&"${server[1]}"
    while IFS= read -r -t 120 line <&"${server[0]}"; do
        if [[ $line == *"\"id\":$id,"* || $line == *"\"id\":$id}"* ]]; then
            took=$((${EPOCHREALTIME/./} - started))
            return 0
        fi
    done
    echo "first-panic: no answer to $method (id $id)" >&2
    return 1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf 'run  first panic ms  RSS +kB  second panic ms  RSS +kB\n'
: >"$scratch/results"
for ((run = 1; run <= runs; run++)); do
    if [[ $backtrace == unset ]]; then
        coproc server { exec env -u RUST_BACKTRACE "$host" --config "$scratch/appsettings.json" 2>>"$scratch/host.log"; }
    else
        coproc server { RUST_BACKTRACE="$backtrace" exec "$host" --config "$scratch/appsettings.json" 2>>"$scratch/host.log"; }
    fi
    pid="$server_PID"
    ask 1 initialize '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"first-panic","version":"1"}}'
    printf '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' >&"${server[1]}"
    ask 2 tools/call '{"name":"still_works","arguments":{}}'
    before="$(rss_kb "$pid")"
    ask 3 tools/call '{"name":"panic_in_call","arguments":{}}'
    first_us=$took
    after_first="$(rss_kb "$pid")"
    ask 4 tools/call '{"name":"panic_in_call","arguments":{}}'
    second_us=$took
    after_second="$(rss_kb "$pid")"
    exec {server[1]}>&-
    wait "$pid" || true
    line="$(awk -v a="$first_us" -v b="$((after_first - before))" -v c="$second_us" -v d="$((after_second - after_first))" \
        'BEGIN { printf "%.1f %d %.1f %d", a / 1000, b, c / 1000, d }')"
    echo "$line" >>"$scratch/results"
    printf '%3d  %14s  %7s  %15s  %7s\n' "$run" $line
done
printf 'med  %14s  %7s  %15s  %7s\n' \
    "$(cut -d ' ' -f 1 "$scratch/results" | median)" "$(cut -d ' ' -f 2 "$scratch/results" | median)" \
    "$(cut -d ' ' -f 3 "$scratch/results" | median)" "$(cut -d ' ' -f 4 "$scratch/results" | median)"
grep -c 'a call panicked' "$scratch/host.log" | xargs printf 'panics the host logged: %s (2 a run expected)\n'
