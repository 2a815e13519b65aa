# Shared by the scripts that install outside programs under <repo>/.tools (install-node,
# install-conformance, install-clients): one lock per install folder, npm installs from a
# generated package.json of exact versions, and registry probes that answer quickly when a
# registry is out of reach. Source it; it defines functions only.

# The "version" of a package.json, read with sed (no node needed); empty when absent.
pkg_version() {
  [ -f "$1/package.json" ] || return 0
  sed -n 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$1/package.json" | head -n1
}

# Serializes concurrent installs into one folder (two test jobs starting at once) on a lock
# file there. The lock holds until the calling script exits.
lock_install_dir() {
  mkdir -p "$1"
  if command -v flock > /dev/null 2>&1; then
    exec 9> "$1/.install.lock"
    flock 9
  fi
}

# True when every "name@version" argument is installed at exactly that version under DIR.
npm_pinned_installed() {
  local dir="$1" spec
  shift
  for spec in "$@"; do
    [ "$(pkg_version "$dir/node_modules/${spec%@*}")" = "${spec##*@}" ] || return 1
  done
}

# Installs exactly the "name@version" arguments into DIR/node_modules (with the system npm),
# from a package.json written here, so that a changed pin also removes what is no longer
# listed. npm's output goes to stderr. Lifecycle scripts stay off: none of the pinned
# packages needs one to run.
npm_install_pinned() {
  local dir="$1" spec sep="" deps=""
  shift
  for spec in "$@"; do
    deps="$deps$sep    \"${spec%@*}\": \"${spec##*@}\""
    sep=$',\n'
  done
  mkdir -p "$dir"
  printf '{\n  "name": "mcp-plugin-host-tools",\n  "private": true,\n  "dependencies": {\n%s\n  }\n}\n' \
    "$deps" > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --no-package-lock >&2
}

# The registry probes (bounded, once per run, MCP_UNREACHABLE to force a skip): scripts/lib/reach.sh.
# shellcheck source=reach.sh
. "$(dirname "${BASH_SOURCE[0]}")/reach.sh"

# Why the npm registry cannot be used, in a few words; nothing (and status 0) when it can.
npm_unusable() {
  command -v npm > /dev/null 2>&1 || { echo "npm is not on PATH"; return 0; }
  reachable npm || echo "the npm registry ($(registry_url npm)) is unreachable"
}

# Why the Python package index cannot be used, in a few words; nothing when it can.
pypi_unusable() {
  reachable pypi || echo "the Python package index ($(registry_url pypi)) is unreachable"
}
