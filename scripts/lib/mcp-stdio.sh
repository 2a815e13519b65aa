# shellcheck shell=bash
# A raw MCP session over stdio for the shell checks (check-scaffold, check-dist): start a server
# as a coprocess, send JSON-RPC lines, wait for the answer to a request id, check what it holds.
#
#   source scripts/lib/mcp-stdio.sh
#   mcp_start LOG COMMAND ARGS...      # stderr goes to LOG
#   mcp_initialize                     # initialize + notifications/initialized (request id 1)
#   mcp_request ID METHOD PARAMS_JSON  # sends it and leaves the answer in $mcp_reply
#   mcp_expect TEXT WHAT               # fails unless $mcp_reply contains TEXT
#   mcp_stop                           # closes stdin; fails unless the server exits with 0
#
# The caller defines fail() (prints its argument and exits non-zero).

mcp_pid=""
mcp_reply=""
mcp_log=""

mcp_start() {
    mcp_log="$1"
    shift
    coproc MCP_SERVER { exec "$@" 2>"$mcp_log"; }
    mcp_pid=$MCP_SERVER_PID
    mcp_to=${MCP_SERVER[1]}
    mcp_from=${MCP_SERVER[0]}
}

mcp_send() { printf '%s\n' "$1" >&"$mcp_to"; }

# Reads the server's lines until the response to request $1; leaves it in $mcp_reply.
mcp_await() {
    local line
    while true; do
        IFS= read -r -t 30 -u "$mcp_from" line ||
            fail "no answer to request $1; server log:
$(cat "$mcp_log")"
        if [[ $line == *"\"id\":$1,"* || $line == *"\"id\":$1}"* ]]; then
            mcp_reply="$line"
            return
        fi
    done
}

mcp_request() {
    mcp_send "{\"jsonrpc\":\"2.0\",\"id\":$1,\"method\":\"$2\",\"params\":$3}"
    mcp_await "$1"
}

mcp_expect() {
    [[ $mcp_reply == *"$1"* ]] || fail "$2: the answer lacks $1:
$mcp_reply"
}

mcp_initialize() {
    mcp_request 1 initialize '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scripts","version":"1"}}'
    mcp_expect '"serverInfo"' "initialize"
    mcp_send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
}

# Closing stdin ends the session; the server must exit cleanly.
mcp_stop() {
    local status=0
    eval "exec $mcp_to>&-"
    for _ in $(seq 100); do
        kill -0 "$mcp_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$mcp_pid" 2>/dev/null && fail "the server did not exit when its stdin closed"
    wait "$mcp_pid" || status=$?
    mcp_pid=""
    [[ $status -eq 0 ]] || fail "the server exited with status $status; its log:
$(cat "$mcp_log")"
}

# Kills the server if it still runs (for an EXIT trap).
mcp_kill() {
    if [[ -n $mcp_pid ]] && kill -0 "$mcp_pid" 2>/dev/null; then
        kill "$mcp_pid" 2>/dev/null || true
    fi
}
