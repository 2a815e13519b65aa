# shellcheck shell=bash
# How a script says that it skipped a step it cannot run here (a registry out of reach, a tool
# missing from the toolchain): one line that names what was skipped and why, recorded so that
# scripts/test lists it again in its final summary. A skip never hides a failure: whatever could
# run still runs, and still fails the run when it fails.
#
#   source scripts/lib/skip.sh
#   skip "the Python SDK peer (bench)" "PyPI is unreachable (https://pypi.org/simple/mcp/)"
#   skip_exit "the MCP conformance suite" "npm is not on PATH"   # skip, then exit $SKIPPED
#
# A script that skips all of its work exits with status $SKIPPED (75, EX_TEMPFAIL) after
# skip_exit, so a caller can tell "skipped, already reported" from a failure; allow_skip runs
# such a script and turns that status into success:
#
#   allow_skip scripts/install-clients      # 0 when it passed or skipped, its status otherwise
#
# Environment: MCP_SKIP_LOG, a file (scripts/test makes one per run) that gets one line per skip.

SKIPPED=75

# skip WHAT WHY: prints "SKIPPED: WHAT: WHY" on stderr and records it.
skip() {
    local line="$1: $2"
    printf 'SKIPPED: %s\n' "$line" >&2
    if [[ -n ${MCP_SKIP_LOG:-} ]]; then
        printf '%s\n' "$line" >>"$MCP_SKIP_LOG"
    fi
}

# skip_exit WHAT WHY: skip, then end the script with status $SKIPPED.
skip_exit() {
    skip "$1" "$2"
    exit "$SKIPPED"
}

# allow_skip COMMAND...: runs COMMAND; its status, except $SKIPPED (already reported), which is 0.
allow_skip() {
    local status=0
    "$@" || status=$?
    [[ $status -eq $SKIPPED ]] && status=0
    return "$status"
}
