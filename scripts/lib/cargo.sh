# shellcheck shell=bash
# Where this run's crates come from, decided once for every cargo invocation of every script.
# Every script that runs cargo sources this file before its first cargo command (all but
# scripts/vendor, which talks to the registry by design, and scripts/new-plugin, whose
# `cargo fmt` reads no dependency):
#
#   source "$root/scripts/lib/cargo.sh"
#
# It chooses, in this order, and says which in one line on stderr (only the first script of a
# run decides and prints; the scripts it starts inherit the choice through the environment):
#
#   1. MCP_VENDOR_DIR=DIR set: the crates vendored in DIR (written by scripts/vendor DIR);
#   2. the crates registry answers a quick probe (scripts/lib/reach.sh): the registry, as usual;
#   3. otherwise ../shared/vendor beside the checkout, when it holds vendored crates;
#   4. otherwise the registry anyway, with a warning: cargo can use only what it has cached.
#
# With vendored crates, cargo never asks a registry: this file exports CARGO_HOME, pointing at a
# folder of this checkout (target/cargo-home-vendored, or MCP_CARGO_HOME) whose config.toml
# replaces crates.io with the vendored directory and turns on offline mode, and exports
# CARGO_NET_OFFLINE=true (the same as --offline). Because both travel in the environment, the
# cargo that tests start themselves (the test kit's host build, the fixture builds, the test
# double's build, a scaffold's tests) inherit them. No global cargo configuration is written.
# (cargo cannot define a [source] table through environment variables alone, hence CARGO_HOME.)
#
# Exports MCP_CRATES_SOURCE (registry | vendored) and, when vendored, MCP_VENDOR_DIR (absolute).
#
# cargo_has fmt|clippy: whether the toolchain has that cargo component (rustfmt, clippy may be
# missing from a minimal toolchain; callers skip with scripts/lib/skip.sh then).

_cargo_lib="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=reach.sh
source "$_cargo_lib/reach.sh"

# Points CARGO_HOME at a folder whose config replaces crates.io with the vendored directory $1.
_cargo_use_vendored() {
    local dir="$1" home
    [[ -d $dir ]] || {
        echo "crates: the vendored directory $dir does not exist (write it with scripts/vendor DIR)" >&2
        return 1
    }
    dir="$(cd "$dir" && pwd -P)"
    home="${MCP_CARGO_HOME:-$(cd "$_cargo_lib/../.." && pwd -P)/target/cargo-home-vendored}"
    mkdir -p "$home"
    cat >"$home/config.toml" <<EOF
# Written by scripts/lib/cargo.sh: build from the vendored crates in $dir, never from a registry.
[source.crates-io]
replace-with = "mcp-vendored"

[source.mcp-vendored]
directory = "$dir"

[net]
offline = true
EOF
    export CARGO_HOME="$home" CARGO_NET_OFFLINE=true MCP_VENDOR_DIR="$dir" MCP_CRATES_SOURCE=vendored
}

if [[ -z ${MCP_CRATES_SOURCE:-} ]]; then
    _cargo_shared="$(cd "$_cargo_lib/../../.." && pwd -P)/shared/vendor"
    if [[ -n ${MCP_VENDOR_DIR:-} ]]; then
        _cargo_use_vendored "$MCP_VENDOR_DIR" || return 1 2>/dev/null || exit 1
        echo "crates: vendored, from $MCP_VENDOR_DIR (MCP_VENDOR_DIR), offline; CARGO_HOME=$CARGO_HOME" >&2
    elif reachable crates; then
        export MCP_CRATES_SOURCE=registry
        echo "crates: the registry ($(registry_url crates) answers)" >&2
    elif [[ -f $_cargo_shared/cargo-config.toml ]]; then
        _cargo_use_vendored "$_cargo_shared" || return 1 2>/dev/null || exit 1
        echo "crates: vendored, from $MCP_VENDOR_DIR (the crates registry is unreachable), offline; CARGO_HOME=$CARGO_HOME" >&2
    else
        export MCP_CRATES_SOURCE=registry
        echo "crates: WARNING: the crates registry is unreachable and $_cargo_shared holds no vendored crates;" \
            "cargo can use only what it has cached (scripts/vendor DIR vendors them, MCP_VENDOR_DIR=DIR uses them)" >&2
    fi
    unset _cargo_shared
fi

# cargo_has fmt|clippy: 0 when `cargo fmt` / `cargo clippy` runs in this toolchain.
cargo_has() {
    cargo "$1" --version >/dev/null 2>&1
}
