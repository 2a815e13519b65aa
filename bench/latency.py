#!/usr/bin/env python3
"""Latency against the terminal, and start-up, on the real SDK (issue 21, points 1 and 5).

    bench/latency.py --host PATH [--plugin-dir DIR] [--runs N] [--build-servers default|on|off|both]
                     [--cases all|builds|smoke] [--startup] [--markdown FILE] [--json FILE] [--keep]

Run it with the Python interpreter of a venv that has the official MCP Python SDK (`mcp`);
`scripts/bench --real-sdk` does (the venv of scripts/install-clients). Needs a real `dotnet` (SDK
10) on PATH and the packages of `dotnet new xunit` (a feed, or the local package cache).

Latency (the default mode). In a scratch folder it makes a console app (`App`) and an xunit
project of 20 tests (`Tests`), builds both once on each side (so that a terminal's build servers
are running, as they are for a developer who has built before), then measures each case N times
on each side, alternating: the tool side is one `tools/call` round trip through
`ClientSession.call_tool` (one long-lived session with the host over stdio), the terminal side the
same `dotnet` command line as a subprocess. The side that goes first alternates from run to run.
Before each measurement, the case's preparation runs untimed (obj/bin removed for a cold build, a
source file changed for a one-file build, a fresh folder for `new console`).

The terminal's environment is this process's, without MSBUILDDISABLENODEREUSE,
DOTNET_CLI_USE_MSBUILD_SERVER and UseSharedCompilation (a developer's default: MSBuild nodes and
the compiler server stay up between commands), with DOTNET_CLI_TELEMETRY_OPTOUT=1 and
DOTNET_NOLOGO=1 (which the tool sets too). The host gets the same environment, so that what it
sets for dotnet is its own choice: `--build-servers on|off` sets `BuildServers` to true or false in
`Plugins.Config` of the appsettings file written in the scratch folder; `default` (the default)
leaves it out, `both` measures off and on in turn.

Start-up (`--startup`). For each dotnet family, N times: start the host, list the tools, time the
first call of a cheap read-only action (the plugin is created on that call), then time the same
call N more times in that session. Reported: the median first call against the median of the
later calls.

Every process the bench's dotnet commands leave running (MSBuild nodes, the compiler server) is
found by an environment marker at the end and stopped by its process id. Prints each measurement
as it is taken (stderr) and a markdown report (stdout, or --markdown FILE).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent
# What this machine's global environment sets and a developer's terminal does not.
SERVER_SWITCHES = ("MSBUILDDISABLENODEREUSE", "DOTNET_CLI_USE_MSBUILD_SERVER", "UseSharedCompilation")
MARKER = "MCP_LATENCY_BENCH_RUN"
CALL_TIMEOUT_SECONDS = 600


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def user_environment(marker: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in SERVER_SWITCHES}
    env.update({"DOTNET_CLI_TELEMETRY_OPTOUT": "1", "DOTNET_NOLOGO": "1", MARKER: marker})
    return env


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def dotnet(work: Path, env: dict[str, str], args: list[str]) -> float:
    """Runs `dotnet ARGS` in `work` as a terminal does; returns the seconds it took."""
    start = time.perf_counter()
    done = subprocess.run(["dotnet", *args], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"latency: dotnet {' '.join(args)} failed ({done.returncode}):\n{done.stdout.decode(errors='replace')[-4000:]}")
    return elapsed


def program(counter: int) -> str:
    return f'Console.WriteLine("Hello, {counter}!");\n'


def calculator(counter: int) -> str:
    return f"namespace Tests;\n\npublic static class Calculator\n{{\n    // edit {counter}\n    public static int Add(int a, int b) => a + b;\n}}\n"


def suite() -> str:
    facts = "\n".join(
        f"    [Fact]\n    public void Adds{n:02}() => Assert.Equal({n + 1}, Calculator.Add({n}, 1));\n" for n in range(20)
    )
    return f"namespace Tests;\n\npublic class Suite\n{{\n{facts}}}\n"


def make_projects(work: Path, env: dict[str, str]) -> None:
    dotnet(work, env, ["new", "console", "-n", "App", "-o", "App"])
    dotnet(work, env, ["new", "xunit", "-n", "Tests", "-o", "Tests"])
    (work / "Tests" / "UnitTest1.cs").unlink()
    write(work / "Tests" / "Suite.cs", suite())
    write(work / "Tests" / "Calculator.cs", calculator(0))
    write(work / "App" / "Program.cs", program(0))


def remove_outputs(project: Path) -> None:
    for folder in ("obj", "bin"):
        shutil.rmtree(project / folder, ignore_errors=True)


@dataclass
class Case:
    """One measured step: the terminal's arguments, the tool call, and what runs untimed before
    each measurement (given a tag unique to the measurement)."""

    name: str
    terminal: Callable[[str], list[str]]
    tool: Callable[[str], tuple[str, dict]]
    prepare: Callable[[str], None] = lambda tag: None
    smoke: bool = False
    # One of the no-op and one-file builds that issue 21's goal (at most 1.05x the terminal) is about.
    goal: bool = False


def cases(work: Path) -> list[Case]:
    edits = iter(range(1, 1_000_000))
    app, tests = "App/App.csproj", "Tests/Tests.csproj"

    def build(project: str) -> Callable[[str], tuple[str, dict]]:
        return lambda tag: ("dotnet_project", {"action": "Build", "project": project})

    def restore(project: str) -> Callable[[str], tuple[str, dict]]:
        return lambda tag: ("dotnet_project", {"action": "Restore", "project": project})

    return [
        Case(
            "new console",
            lambda tag: ["new", "console", "-n", f"New{tag}", "-o", f"new/New{tag}"],
            lambda tag: ("dotnet_project", {"action": "New", "template": "console", "name": f"New{tag}", "output": f"new/New{tag}"}),
        ),
        Case("console: restore (obj removed)", lambda tag: ["restore", app], restore(app), lambda tag: remove_outputs(work / "App")),
        Case("console: cold build (obj, bin removed)", lambda tag: ["build", app], build(app), lambda tag: remove_outputs(work / "App")),
        Case("console: no-op build", lambda tag: ["build", app], build(app), smoke=True, goal=True),
        Case(
            "console: build after one file changed",
            lambda tag: ["build", app],
            build(app),
            lambda tag: write(work / "App" / "Program.cs", program(next(edits))),
            smoke=True,
            goal=True,
        ),
        Case("console: run", lambda tag: ["run", "--project", app], lambda tag: ("dotnet_project", {"action": "Run", "project": app})),
        Case("tests: restore (obj removed)", lambda tag: ["restore", tests], restore(tests), lambda tag: remove_outputs(work / "Tests")),
        Case("tests: cold build (obj, bin removed)", lambda tag: ["build", tests], build(tests), lambda tag: remove_outputs(work / "Tests")),
        Case("tests: no-op build", lambda tag: ["build", tests], build(tests), goal=True),
        Case(
            "tests: build after one file changed",
            lambda tag: ["build", tests],
            build(tests),
            lambda tag: write(work / "Tests" / "Calculator.cs", calculator(next(edits))),
            goal=True,
        ),
        Case("tests: test run (20 tests)", lambda tag: ["test", tests], lambda tag: ("dotnet_project", {"action": "Test", "project": tests})),
    ]


# Start-up: one cheap read-only action a family, and what it needs in the scratch folder.
STARTUP_CALLS: list[tuple[str, dict]] = [
    ("dotnet_sdk", {"action": "Version"}),
    ("dotnet_project", {"action": "GetProperty", "project": "App/App.csproj", "propertyName": "TargetFramework"}),
    ("dotnet_package", {"action": "ListReferences", "project": "App/App.csproj"}),
    ("dotnet_solution", {"action": "List", "solution": "Both.slnx"}),
    ("dotnet_ef", {"action": "DbContextList", "project": "App/App.csproj"}),
    ("dotnet_tool", {"action": "List"}),
    ("dotnet_workload", {"action": "List"}),
    ("dotnet_dev_certs", {"action": "CertificateCheck"}),
    ("dotnet_help", {"command": "build"}),
    ("dotnet_server_capabilities", {}),
]


@dataclass
class Host:
    """How the bench starts the host: binary, plugin folder, environment, scratch folder."""

    binary: str
    plugin_dir: str
    env: dict[str, str]
    work: Path
    log_path: Path

    def config(self, build_servers: str | None) -> Path:
        shared: dict[str, object] = {"WorkingDirectory": str(self.work)}
        if build_servers is not None:
            shared["BuildServers"] = build_servers == "on"
        path = self.work / f"appsettings-{build_servers or 'default'}.json"
        config = {
            "Host": {"LogLevel": "info", "ToolTimeoutSeconds": CALL_TIMEOUT_SECONDS},
            "Plugins": {"Directory": self.plugin_dir, "Enabled": ["*"], "Disabled": ["conformance"], "Config": shared},
        }
        path.write_text(json.dumps(config, indent=2), encoding="utf-8")
        return path

    def parameters(self, build_servers: str | None) -> StdioServerParameters:
        return StdioServerParameters(
            command=self.binary, args=["--config", str(self.config(build_servers))], env=self.env, cwd=str(self.work)
        )


async def call(session: ClientSession, tool: str, arguments: dict, allow_error: bool = False) -> tuple[float, bool]:
    """One `tools/call` round trip: seconds, and whether the result was an error."""
    start = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = time.perf_counter() - start
    if result.is_error and not allow_error:
        text = "\n".join(getattr(item, "text", "") for item in result.content)
        sys.exit(f"latency: {tool} {json.dumps(arguments)} failed:\n{text[-4000:]}")
    return elapsed, bool(result.is_error)


@dataclass
class Row:
    case: str
    servers: str
    tool: list[float] = field(default_factory=list)
    terminal: list[float] = field(default_factory=list)


async def measure_latency(host: Host, work: Path, env: dict[str, str], runs: int, servers: list[str | None], which: str) -> list[Row]:
    rows = []
    chosen = [case for case in cases(work) if which == "all" or (case.smoke if which == "smoke" else case.goal)]
    for build_servers in servers:
        label = build_servers or "default"
        with open(host.log_path, "a") as errlog:
            async with stdio_client(host.parameters(build_servers), errlog=errlog) as (read, write_stream):
                async with ClientSession(read, write_stream) as session:
                    await session.initialize()
                    await session.list_tools()
                    log(f"latency: warm-up (untimed), build servers {label}: a build of App and Tests on each side")
                    for project in ("App/App.csproj", "Tests/Tests.csproj"):
                        await anyio.to_thread.run_sync(dotnet, work, env, ["build", project])
                        await call(session, "dotnet_project", {"action": "Build", "project": project})
                    for case in chosen:
                        row = Row(case.name, label)
                        for run in range(runs):
                            order = ("tool", "terminal") if run % 2 == 0 else ("terminal", "tool")
                            for side in order:
                                tag = f"{label.capitalize()}{side.capitalize()}{run}"
                                case.prepare(tag)
                                if side == "tool":
                                    tool, arguments = case.tool(tag)
                                    seconds, _ = await call(session, tool, arguments)
                                    row.tool.append(seconds)
                                else:
                                    seconds = await anyio.to_thread.run_sync(dotnet, work, env, case.terminal(tag))
                                    row.terminal.append(seconds)
                                log(f"  {case.name} [{label}] run {run + 1}/{runs} {side}: {seconds * 1000:.0f} ms")
                        rows.append(row)
    return rows


async def measure_startup(host: Host, work: Path, env: dict[str, str], runs: int) -> list[dict]:
    dotnet(work, env, ["new", "sln", "-n", "Both", "--format", "slnx"])
    dotnet(work, env, ["sln", "Both.slnx", "add", "App/App.csproj", "Tests/Tests.csproj"])
    rows = []
    for tool, arguments in STARTUP_CALLS:
        first, steady, error = [], [], False
        for run in range(runs):
            with open(host.log_path, "a") as errlog:
                async with stdio_client(host.parameters(None), errlog=errlog) as (read, write_stream):
                    async with ClientSession(read, write_stream) as session:
                        await session.initialize()
                        await session.list_tools()
                        seconds, error = await call(session, tool, arguments, allow_error=True)
                        first.append(seconds)
                        later = [(await call(session, tool, arguments, allow_error=True))[0] for _ in range(runs)]
                        steady += later
            log(f"  start-up {tool} run {run + 1}/{runs}: first {seconds * 1000:.0f} ms, then " + ", ".join(f"{s * 1000:.0f}" for s in later) + " ms")
        rows.append({"tool": tool, "arguments": arguments, "first": first, "steady": steady, "error": error})
    return rows


def stop_leftovers(marker: str) -> list[int]:
    """Stops, by process id, every process that carries this run's marker (MSBuild nodes and
    the compiler server that the terminal side or the tool left running)."""
    needle = f"{MARKER}={marker}".encode()
    stopped = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                os.kill(int(entry.name), signal.SIGTERM)
                stopped.append(int(entry.name))
        except (OSError, ProcessLookupError):
            continue
    return stopped


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f}"


def machine(work: Path, env: dict[str, str]) -> list[tuple[str, str]]:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    sdk = subprocess.run(["dotnet", "--version"], cwd=work, env=env, capture_output=True, text=True).stdout.strip()
    return [
        ("CPU", f"{cpu} ({os.cpu_count()} cores, `nproc`)"),
        ("kernel", platform.release()),
        (".NET SDK", sdk),
        ("client", f"Python {platform.python_version()} with mcp {__import__('importlib.metadata').metadata.version('mcp')}"),
        ("load average at the end", " ".join(f"{x:.2f}" for x in os.getloadavg())),
        ("date", time.strftime("%Y-%m-%d", time.gmtime())),
    ]


def sign_test(slower: int, faster: int) -> float:
    """Two-sided p of a sign test on paired runs: how likely a split this lopsided (or more) is
    when neither side is slower (ties left out)."""
    pairs = slower + faster
    tail = sum(math.comb(pairs, k) for k in range(min(slower, faster) + 1)) / 2**pairs
    return min(1.0, 2 * tail)


def latency_report(rows: list[Row], runs: int) -> str:
    lines = [
        "| case | build servers (tool) | tool median, ms | terminal median, ms | tool ÷ terminal "
        "| tool slower in (pairs) | sign test p | tool runs, ms | terminal runs, ms |",
        "|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        tool, terminal = statistics.median(row.tool), statistics.median(row.terminal)
        # Each run is one tool and one terminal measurement back to back: a pair.
        slower = sum(t > m for t, m in zip(row.tool, row.terminal))
        faster = sum(t < m for t, m in zip(row.tool, row.terminal))
        lines.append(
            f"| {row.case} | {row.servers} | {ms(tool)} | {ms(terminal)} | {tool / terminal:.2f}× "
            f"| {slower} of {len(row.tool)} | {sign_test(slower, faster):.2f} | "
            + ", ".join(ms(s) for s in row.tool) + " | " + ", ".join(ms(s) for s in row.terminal) + " |"
        )
    return "\n".join(lines)


def startup_report(rows: list[dict]) -> str:
    lines = [
        "| tool | call | first call after start, median ms | later calls, median ms | first − later, ms | first calls, ms |",
        "|---|---|---:|---:|---:|---|",
    ]
    for row in rows:
        first, steady = statistics.median(row["first"]), statistics.median(row["steady"])
        what = json.dumps(row["arguments"], separators=(", ", ": ")) + (" (answers isError)" if row["error"] else "")
        lines.append(
            f"| {row['tool']} | `{what}` | {ms(first)} | {ms(steady)} | {ms(first - steady)} | " + ", ".join(ms(s) for s in row["first"]) + " |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", required=True, help="the mcp-plugin-host binary")
    parser.add_argument("--plugin-dir", help="the plugin libraries' folder (default: the host's)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--build-servers", choices=["default", "on", "off", "both"], default="default")
    parser.add_argument(
        "--cases",
        choices=["all", "builds", "smoke"],
        default="all",
        help="builds: the no-op and one-file builds of both projects (the goal's cases); smoke: those of the console app",
    )
    parser.add_argument("--startup", action="store_true", help="measure the first call of each family instead")
    parser.add_argument("--markdown", type=Path, help="write the report here (default: stdout)")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    options = parser.parse_args()
    if shutil.which("dotnet") is None:
        sys.exit("latency: needs a real dotnet on PATH")
    if options.runs < 1:
        sys.exit("latency: --runs must be at least 1")
    marker = uuid.uuid4().hex
    env = user_environment(marker)
    work = Path(tempfile.mkdtemp(prefix="mcp-latency-"))
    host = Host(os.path.abspath(options.host), options.plugin_dir or os.path.dirname(os.path.abspath(options.host)), env, work, work / "host.log")
    servers = {"default": [None], "on": ["on"], "off": ["off"], "both": ["off", "on"]}[options.build_servers]
    try:
        log(f"latency: scratch folder {work}")
        make_projects(work, env)
        if options.startup:
            data = anyio.run(measure_startup, host, work, env, options.runs)
            body = startup_report(data)
            title = f"Start-up: first call after the host starts vs later calls, {options.runs} host starts a family, {options.runs} later calls each"
        else:
            rows = anyio.run(measure_latency, host, work, env, options.runs, servers, options.cases)
            data = [row.__dict__ for row in rows]
            body = latency_report(rows, options.runs)
            title = f"Latency: tool vs terminal, median of {options.runs} alternating runs a side"
        details = machine(work, env)
    finally:
        stopped = stop_leftovers(marker)
        if stopped:
            log(f"latency: stopped {len(stopped)} process(es) the run left running (pids {', '.join(map(str, stopped))})")
        if options.keep:
            log(f"latency: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    command = "scripts/bench --real-sdk" + (" --startup" if options.startup else "")
    command += " --quick" if options.cases == "smoke" else f" --runs {options.runs}"
    command += " --builds" if options.cases == "builds" else ""
    if options.build_servers != "default" and not options.startup:
        command += f" --build-servers {options.build_servers}"
    meta = "\n".join(f"| {key} | {value} |" for key, value in details)
    report = f"#### {title}\n\n|  |  |\n|---|---|\n{meta}\n| command | `{command}` |\n| host | `{options.host}` |\n\n{body}\n"
    if options.markdown:
        options.markdown.write_text(report, encoding="utf-8")
    else:
        print(report)
    if options.json:
        options.json.write_text(json.dumps(data, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
