#!/usr/bin/env python3
"""Is the tool's build slower than the terminal's because of how the runner spawns `dotnet`?

Issue 21 measures `dotnet build` through the tool at 3-8 % over the same command typed in a
terminal, with the runner's own cost about 2 ms a call. This bench takes the MCP server out and
runs the same `dotnet build` from one script in two ways, alternating, with build servers on:

- `terminal`: as `bench/latency.py`'s terminal side (stdin inherited, stdout and stderr on one
  pipe, the script's process group, the developer's environment);
- `runner`: with every attribute `dotnet_support::runner` gives a child (stdin null, its own
  process group, stdout and stderr on separate pipes read together, `PR_SET_PDEATHSIG`, the
  runner's pinned environment and the build-server switches it sets).

If the runner's way is as slow as the tool, the spawn is the cause; if it is as fast as the
terminal, the gap is elsewhere (the server, the plugin, the client). Medians and the ratio
runner/terminal for a no-op build and a build after one changed file, plus a sign test on the
pairs (each pair is one terminal and one runner build, run back to back, order alternating).

    .tools/clients/python/bin/python bench/spawn_ways.py --runs 21   # the venv scripts/install-clients makes
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from latency import dotnet as terminal, program, sign_test, stop_leftovers, user_environment  # noqa: E402

# dotnet_support::runner::PINNED_ENV and exec::build_server_env(true), as the tool sets them.
RUNNER_ENV = {
    "DOTNET_CLI_UI_LANGUAGE": "en",
    "DOTNET_NOLOGO": "1",
    "DOTNET_CLI_TELEMETRY_OPTOUT": "1",
    "DOTNET_GENERATE_ASPNET_CERTIFICATE": "false",
    "DOTNET_ADD_GLOBAL_TOOLS_TO_PATH": "false",
    "DOTNET_CLI_WORKLOAD_UPDATE_NOTIFY_DISABLE": "true",
    "MSBUILDTERMINALLOGGER": "off",
    "MSBUILDDISABLENODEREUSE": "0",
    "DOTNET_CLI_USE_MSBUILD_SERVER": "0",
    "UseSharedCompilation": "true",
}
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def runner(work: Path, env: dict[str, str], args: list[str]) -> float:
    env = {key: value for key, value in env.items() if key != "DOTNET_SYSTEM_CONSOLE_ALLOW_ANSI_COLOR_REDIRECTION"}
    env.update(RUNNER_ENV)
    start = time.perf_counter()
    child = subprocess.Popen(
        ["dotnet", *args],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        process_group=0,
        preexec_fn=die_with_parent,
    )
    out, err = child.communicate()
    elapsed = time.perf_counter() - start
    if child.returncode != 0:
        sys.exit(f"spawn_ways: dotnet {' '.join(args)} failed:\n{(out + err).decode(errors='replace')[-4000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="pairs per case (default 21)")
    runs = parser.parse_args().runs
    marker = f"spawn-ways-{os.getpid()}"
    env = user_environment(marker)
    ways = {"terminal": terminal, "runner": runner}
    with tempfile.TemporaryDirectory(prefix="spawn-ways-") as temp:
        work = Path(temp)
        terminal(work, env, ["new", "console", "-n", "App", "-o", "App"])
        project = work / "App" / "App.csproj"
        for way in ways.values():
            way(work, env, ["build", str(project)])
        print(f"# dotnet {subprocess.run(['dotnet', '--version'], capture_output=True, text=True).stdout.strip()}, "
              f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at start, {runs} pairs a case, build servers on")
        print("| case | terminal median (ms) | runner median (ms) | runner / terminal | runner slower in | sign test p |")
        print("|---|---:|---:|---:|---:|---:|")
        try:
            for case in ("no-op build", "one-file build"):
                times: dict[str, list[float]] = {name: [] for name in ways}
                slower = 0
                for run in range(runs):
                    order = ("terminal", "runner") if run % 2 == 0 else ("runner", "terminal")
                    pair = {}
                    for name in order:
                        if case == "one-file build":
                            (work / "App" / "Program.cs").write_text(program(run * 2 + order.index(name)))
                        pair[name] = ways[name](work, env, ["build", str(project)])
                        times[name].append(pair[name])
                    slower += pair["runner"] > pair["terminal"]
                    print(f"  {case} pair {run + 1}/{runs}: terminal {pair['terminal'] * 1000:.0f} ms, "
                          f"runner {pair['runner'] * 1000:.0f} ms", file=sys.stderr, flush=True)
                median = {name: statistics.median(values) * 1000 for name, values in times.items()}
                print(f"| {case} | {median['terminal']:.0f} | {median['runner']:.0f} | "
                      f"{median['runner'] / median['terminal']:.3f} | {slower} of {runs} | {sign_test(slower, runs - slower):.3f} |")
        finally:
            left = stop_leftovers(marker)
            print(f"# build servers stopped after the run: {len(left)}", file=sys.stderr)


if __name__ == "__main__":
    main()
