# shellcheck shell=bash
# Whether a package registry can be reached from this machine: one bounded probe per registry
# and per run (the answer is exported, so scripts started by a script do not probe again).
#
#   source scripts/lib/reach.sh
#   if reachable pypi; then ...; fi       # crates | pypi | npm
#   registry_url npm                      # the URL that was (or would be) probed
#
# Environment:
#   MCP_UNREACHABLE="crates pypi"   treat these registries as unreachable without probing
#                                   (space or comma separated; "all" for every one), e.g. to
#                                   try the skip paths on a machine that reaches everything
#   MCP_PROBE_TIMEOUT=5             seconds a probe may take
#   PIP_INDEX_URL, npm's registry   the probes follow the index pip and npm are configured with

# The URL probed for a registry: a small document every mirror of it serves.
registry_url() {
    case "$1" in
    crates) echo "${MCP_CRATES_PROBE_URL:-https://index.crates.io/config.json}" ;;
    pypi)
        local index="${PIP_INDEX_URL:-https://pypi.org/simple/}"
        echo "${index%/}/mcp/"
        ;;
    npm)
        local registry=""
        if command -v npm >/dev/null 2>&1; then
            registry="$(npm config get registry 2>/dev/null || true)"
        fi
        echo "${registry:-https://registry.npmjs.org/}"
        ;;
    *)
        echo "reach.sh: unknown registry '$1' (crates, pypi or npm)" >&2
        return 2
        ;;
    esac
}

# Fetches a URL within the time limit; succeeds on a 2xx answer only (a proxy's refusal is not
# the registry). Uses curl, else Python's urllib.
_reach_fetch() {
    local url="$1" limit="${MCP_PROBE_TIMEOUT:-5}"
    if command -v curl >/dev/null 2>&1; then
        curl -fsS -m "$limit" -o /dev/null "$url" 2>/dev/null
    elif command -v python3 >/dev/null 2>&1; then
        python3 - "$url" "$limit" <<'PY' 2>/dev/null
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=float(sys.argv[2])) as answer:
    sys.exit(0 if 200 <= answer.status < 300 else 1)
PY
    else
        return 1
    fi
}

# reachable NAME: 0 when the registry answered (or was answered before in this run), 1 otherwise.
reachable() {
    local name="$1" forced="${MCP_UNREACHABLE:-}" var answer
    case " ${forced//,/ } " in
    *" $name "* | *" all "*) return 1 ;;
    esac
    var="MCP_REACH_${name^^}"
    answer="${!var:-}"
    if [[ -z $answer ]]; then
        local url
        url="$(registry_url "$name")" || return 2
        if _reach_fetch "$url"; then answer=yes; else answer=no; fi
        printf -v "$var" '%s' "$answer"
        export "${var?}"
    fi
    [[ $answer == yes ]]
}
