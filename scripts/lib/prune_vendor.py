#!/usr/bin/env python3
"""Prunes a `cargo vendor` directory down to what the supported targets build.

    prune_vendor.py VENDOR_DIR CONFIG PLATFORMS MANIFEST...

`cargo vendor` copies every crate of every lock file, for every platform: the Windows
import-library crates alone (prebuilt .a/.lib files) are about a third of it. A crate that no
supported platform needs must stay in the directory (cargo resolves the whole lock file, so the
crate's manifest must be there), but its code need not. This keeps the manifest of such a crate
byte for byte, empties its sources and rewrites its `.cargo-checksum.json`:

- `package` (the checksum of the .crate file, compared with Cargo.lock) is kept as it was;
- `files` (sha256 of each file, checked when cargo builds the crate) lists what is left:
  Cargo.toml with its original hash, and one empty file for each target the manifest declares
  (lib, bins, build script...), so the manifest still names files that exist.

Which crates are needed comes from `cargo metadata --all-features --filter-platform T` for each
supported platform T and each manifest, read from the vendored directory itself (CONFIG is its
source-replacement fragment) with an empty CARGO_HOME, offline. A stub is never compiled on a
supported platform; building for another platform fails on it, by design.

Prints a summary, with the names of the emptied crates, on stderr; stdout stays empty.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

CHECKSUM_FILE = ".cargo-checksum.json"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def metadata(manifest: str, config: str, home: str, platforms: list) -> dict:
    """`cargo metadata` for a manifest, resolved from the vendored crates only."""
    command = ["cargo", "--config", config, "metadata", "--format-version", "1", "--offline",
               "--all-features", "--manifest-path", manifest]
    for platform in platforms:
        command += ["--filter-platform", platform]
    env = dict(os.environ, CARGO_HOME=home)
    result = subprocess.run(command, env=env, stdout=subprocess.PIPE, check=True)
    return json.loads(result.stdout)


def stub(directory: str, targets: list) -> int:
    """Empties a vendored crate but for its manifest; returns the bytes removed."""
    checksum_path = os.path.join(directory, CHECKSUM_FILE)
    with open(checksum_path, encoding="utf-8") as handle:
        checksums = json.load(handle)
    manifest_path = os.path.join(directory, "Cargo.toml")
    with open(manifest_path, "rb") as handle:
        manifest = handle.read()
    if checksums["files"].get("Cargo.toml") != sha256(manifest):
        raise SystemExit(f"prune: {manifest_path} does not match its checksum; re-vendor")
    removed = 0
    for entry in os.listdir(directory):
        if entry in ("Cargo.toml", CHECKSUM_FILE):
            continue
        path = os.path.join(directory, entry)
        if os.path.isdir(path) and not os.path.islink(path):
            for base, _, files in os.walk(path):
                removed += sum(os.path.getsize(os.path.join(base, name)) for name in files)
            shutil.rmtree(path)
        else:
            removed += os.path.getsize(path)
            os.remove(path)
    files = {"Cargo.toml": sha256(manifest)}
    for target in sorted(set(targets)):
        path = os.path.join(directory, target)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "wb").close()
        files[target] = sha256(b"")
    checksums["files"] = files
    with open(checksum_path, "w", encoding="utf-8") as handle:
        json.dump(checksums, handle, sort_keys=True)
    return removed


def main() -> None:
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    vendor, config, platforms, manifests = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
    vendor = os.path.realpath(vendor)
    with tempfile.TemporaryDirectory(prefix="mcp-prune-home.") as home:
        everything, needed = {}, set()
        for manifest in manifests:
            for package in metadata(manifest, config, home, [])["packages"]:
                if package["source"] is not None:
                    everything[package["id"]] = package
            needed.update(package["id"] for package in metadata(manifest, config, home, platforms)["packages"])
    pruned, removed = [], 0
    for package_id, package in sorted(everything.items(), key=lambda item: item[1]["name"]):
        if package_id in needed:
            continue
        directory = os.path.dirname(os.path.realpath(package["manifest_path"]))
        if os.path.dirname(directory) != vendor:
            raise SystemExit(f"prune: {package['name']} {package['version']} is not in {vendor} ({directory})")
        targets = [os.path.relpath(target["src_path"], directory) for target in package["targets"]]
        removed += stub(directory, targets)
        pruned.append(f"{package['name']} {package['version']}")
    print(f"prune: {len(pruned)} of {len(everything)} crates emptied, {removed / 1e6:.1f} MB removed: no supported "
          f"platform ({' '.join(platforms)}) builds {', '.join(pruned)}", file=sys.stderr)


if __name__ == "__main__":
    main()
