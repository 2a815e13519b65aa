#!/usr/bin/env python3
"""Output economy (issue 21, point 3): what an answer costs the model's context against the raw
CLI text it replaces, and whether anything an agent needs was lost on the way.

    bench/economy.py [--host PATH] [--plugin-dir DIR] [--keep]

    --host        the mcp-plugin-host binary (default target/debug/mcp-plugin-host)
    --plugin-dir  the folder of the plugin libraries (default: the host's folder)
    --keep        keep the scratch folder (its path is printed), with each case's raw output and
                  `content` in it (`<case>.raw.txt`, `<case>.content.txt`; build, test, package, shop)

Needs a real `dotnet` on PATH (SDK 10) and the NuGet packages of `dotnet new xunit` (a restore
that reaches a feed, or a local cache). In a scratch folder it writes four cases:

- a console app whose build fails with 50 compiler errors (three kinds, in two files);
- an xunit project of 200 tests of which 10 fail (Assert.Equal);
- a solution of two projects (the app with one package, the tests with the template's four) for
  `package list`;
- a second `package list` case, a solution of the shape most projects have: a web API (the
  template's package and five usual ones: EF Core with SQL Server and its design-time package,
  JWT bearer authentication, Serilog, Swashbuckle) and its tests (the template's four, Moq,
  FluentAssertions, the ASP.NET Core test host), 13 packages of mostly long ids.

For each case it runs the same command a developer types (`dotnet build App/App.csproj`, `dotnet
test Tests/Tests.csproj`, `dotnet package list --project Both.slnx`, the same for `Shop/Shop.slnx`) and keeps stdout and stderr
together, as a terminal shows them; then calls the tool through the host over stdio with the
default presentation (no feature tags), and counts UTF-8 bytes of `content` (its text items) and
of `structuredContent` (compact JSON). It then checks that `content` alone still holds what an agent
needs, read from the raw output: every error's file, line, column, code and message; every failing
test's name, message and first frame in the user's code (file and line); the totals; every
package's id and resolved version, and every warning of the restore before a list (its code and
message) (a message written once with `{0}` placeholders counts when the
names after a location, put back, give the raw message; a test listed under its class counts with
the class in front). It prints a markdown table and the checks that failed, and
exits 1 when a check failed (the byte counts are measured, not asserted). For the package lists
the table also gives the bytes of the ids and resolved versions and the restore warnings alone
(`id version` and `code: message` a line): no text that keeps every package and every warning
can be shorter.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def dotnet(cwd, *args, check=True):
    done = subprocess.run(["dotnet", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if check and done.returncode != 0:
        sys.exit(f"economy: dotnet {' '.join(args)} failed:\n{done.stdout.decode(errors='replace')}")
    return done.stdout.decode("utf-8", errors="replace")


def broken_source(name, numbers):
    """A class whose body has one compiler error per number: CS0029, CS0103 or CS1061 in turn."""
    kinds = ['int a{0} = "text{0}";', "missing{0}++;", "string s{0} = {0}.Nope{0}();"]
    body = "\n".join("        " + kinds[n % 3].format(n) for n in numbers)
    return f"namespace App;\n\npublic static class {name}\n{{\n    public static void Run()\n    {{\n{body}\n    }}\n}}\n"


def suite_source(index):
    """Fifty facts; the one whose number ends in 7 every 20 expects a wrong sum."""
    facts = []
    for n in range(index * 50, index * 50 + 50):
        expected = n + 2 if n % 20 == 7 else n + 1
        facts.append(
            f"    [Fact]\n    public void Case{n:03}()\n    {{\n"
            f"        var total = Calculator.Add({n}, 1);\n        Assert.Equal({expected}, total);\n    }}\n"
        )
    return f"namespace Tests;\n\npublic class Suite{index}\n{{\n" + "\n".join(facts) + "}\n"


def make_cases(work):
    dotnet(work, "new", "console", "-n", "App", "-o", "App")
    dotnet(work, "new", "xunit", "-n", "Tests", "-o", "Tests")
    os.remove(os.path.join(work, "Tests", "UnitTest1.cs"))
    write(os.path.join(work, "App", "Broken.cs"), broken_source("Broken", range(0, 25)))
    write(os.path.join(work, "App", "AlsoBroken.cs"), broken_source("AlsoBroken", range(25, 50)))
    for index in range(4):
        write(os.path.join(work, "Tests", f"Suite{index}.cs"), suite_source(index))
    write(
        os.path.join(work, "Tests", "Calculator.cs"),
        "namespace Tests;\n\npublic static class Calculator\n{\n    public static int Add(int a, int b) => a + b;\n}\n",
    )
    dotnet(work, "add", "App/App.csproj", "package", "Newtonsoft.Json", "--version", "13.0.3")
    dotnet(work, "new", "sln", "-n", "Both")
    solution = "Both.slnx" if os.path.exists(os.path.join(work, "Both.slnx")) else "Both.sln"
    dotnet(work, "sln", solution, "add", "App/App.csproj", "Tests/Tests.csproj")
    dotnet(work, "restore", solution)
    return solution, make_shop(work)


# The web API's usual packages and its tests', at versions that restore on net10.0.
SHOP_PACKAGES = {
    "Api": [
        ("Microsoft.EntityFrameworkCore.SqlServer", "10.0.15"),
        ("Microsoft.EntityFrameworkCore.Design", "10.0.15"),
        ("Microsoft.AspNetCore.Authentication.JwtBearer", "10.0.15"),
        ("Serilog.AspNetCore", "10.0.0"),
        ("Swashbuckle.AspNetCore", "10.1.0"),
    ],
    "Api.Tests": [("Moq", "4.20.72"), ("FluentAssertions", "7.2.2"), ("Microsoft.AspNetCore.Mvc.Testing", "10.0.15")],
}


def make_shop(work):
    """The second package-list case: a web API and its tests in one solution (`Shop/`)."""
    shop = os.path.join(work, "Shop")
    dotnet(work, "new", "webapi", "-n", "Api", "-o", "Shop/Api")
    dotnet(work, "new", "xunit", "-n", "Api.Tests", "-o", "Shop/Api.Tests")
    for project, packages in SHOP_PACKAGES.items():
        for package, version in packages:
            dotnet(shop, "add", f"{project}/{project}.csproj", "package", package, "--version", version, "--no-restore")
    dotnet(shop, "new", "sln", "-n", "Shop")
    solution = "Shop.slnx" if os.path.exists(os.path.join(shop, "Shop.slnx")) else "Shop.sln"
    dotnet(shop, "sln", solution, "add", "Api/Api.csproj", "Api.Tests/Api.Tests.csproj")
    dotnet(shop, "restore", solution)
    return os.path.join("Shop", solution)


class Host:
    """One MCP session over the host's stdio: JSON-RPC lines out, answers by id back."""

    def __init__(self, host, plugin_dir, work):
        env = dict(os.environ, MCP_PLUGIN_HOST__PLUGINS__CONFIG__WORKINGDIRECTORY=work)
        self.log = open(os.path.join(work, "host.log"), "wb")
        self.process = subprocess.Popen(
            [host, "--config", os.path.join(ROOT, "appsettings.json"), "--plugin-dir", plugin_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
        )
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "economy", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        for line in self.process.stdout:
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    sys.exit(f"economy: {method} failed: {message['error']}")
                return message["result"]
        sys.exit("economy: the host closed its output; see host.log")

    def call(self, tool, arguments):
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.log.close()


def content_text(result):
    return "\n".join(item.get("text", "") for item in result.get("content", []))


def structured_bytes(result):
    return len(json.dumps(result.get("structuredContent"), separators=(",", ":"), ensure_ascii=False).encode())


# `path(line,column): error CODE: message [project]`, as MSBuild's console logger prints it.
DIAGNOSTIC = re.compile(r"^\s*(?P<file>[^\s(][^(]*)\((?P<line>\d+),(?P<column>\d+)\): error (?P<code>[A-Z]+\d+): (?P<message>.*?)(?: \[[^\]]+\])?$")


# In `content`: a `CODE: message` line (quoted names that vary written `{0}`, `{1}`, ...), then an
# `at` line of `File.cs(line,column)` each followed by its names in quotes.
CODE_LINE = re.compile(r"^\s*(?P<code>[A-Z]+\d+): (?P<template>.*)$")
AT_ENTRY = re.compile(r"(?P<file>[^\s,(]+)\((?P<line>\d+),(?P<column>\d+)\)(?P<names>(?: '[^']*')*)")


def said_errors(text):
    """Every (file name, line, column, code, message) that `content` gives, placeholders filled in."""
    said, code, template = set(), None, None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("at "):
            for entry in AT_ENTRY.finditer(stripped[3:]):
                message = template
                for number, name in enumerate(re.findall(r"'([^']*)'", entry["names"])):
                    message = message.replace("{" + str(number) + "}", name)
                said.add((os.path.basename(entry["file"]), entry["line"], entry["column"], code, message))
        elif found := CODE_LINE.match(line):
            code, template = found["code"], found["template"]
    return said


def check_build(raw, text):
    missing = []
    errors = {m.groups() for m in map(DIAGNOSTIC.match, raw.splitlines()) if m}
    said = said_errors(text)
    for file, line, column, code, message in sorted(errors):
        name = os.path.basename(file)
        if (name, line, column, code, message) not in said:
            missing.append(f"error {code} at {name}({line},{column}): {message}")
    if len(errors) != 50:
        missing.append(f"the raw output held {len(errors)} distinct errors, not 50")
    return missing


# `  Failed NAME [time]`, `  Error Message:` lines, `  Stack Trace:` and its `at ... in FILE:line N`.
FAILED = re.compile(r"^\s+Failed (?P<name>\S+) \[")
FRAME = re.compile(r"^\s+at (?P<method>\S+)\(.*\) in (?P<file>.+):line (?P<line>\d+)$")


def check_test(raw, text):
    missing = []
    lines = raw.splitlines()
    failures = []
    for index, line in enumerate(lines):
        found = FAILED.match(line)
        if not found:
            continue
        message, frame, section = [], None, None
        for next_line in lines[index + 1 :]:
            if FAILED.match(next_line) or next_line.startswith(("Failed!", "Passed!")):
                break
            if next_line.strip() == "Error Message:":
                section = "message"
            elif next_line.strip() == "Stack Trace:":
                section = "trace"
            elif section == "message":
                message.append(next_line.strip())
            elif section == "trace" and frame is None:
                frame = FRAME.match(next_line)
        failures.append((found["name"], message, frame))
    if len(failures) != 10:
        missing.append(f"the raw output held {len(failures)} failed tests, not 10")
    # Failing tests are listed under their class (`Ns.Class:`, then `  Method: ...`): give each
    # test line its full name back.
    named, current = [], None
    for line in text.splitlines():
        if re.match(r"^\s*\S+:$", line):
            current = line.strip()[:-1]
        elif current and line.startswith("    "):
            named.append(f"{current}.{line.strip()}")
        else:
            named.append(line)
    for name, message, frame in failures:
        # What content says of this test: the lines that name it.
        said = "\n".join(line for line in named if name + ":" in line)
        if not said:
            missing.append(f"failed test {name}")
        for part in message:
            if part and part not in said:
                missing.append(f"{name}: message line {part!r}")
        if frame is None:
            missing.append(f"{name}: no frame in the raw output")
        elif not re.search(re.escape(os.path.basename(frame["file"])) + r":(line )?" + frame["line"] + r"\b", said):
            missing.append(f"{name}: first frame {os.path.basename(frame['file'])}:{frame['line']}")
    totals = re.search(r"Failed:\s+(\d+), Passed:\s+(\d+), Skipped:\s+(\d+), Total:\s+(\d+)", raw)
    for number, what in zip(totals.groups() if totals else (), ("failed", "passed", "skipped", "total")):
        if not re.search(r"\b" + number + r"\b", text):
            missing.append(f"the {what} count {number}")
    return missing


PACKAGE = re.compile(r"^\s+> (?P<id>\S+)\s+(?P<requested>\S+)\s+(?P<resolved>\S+)")
# `/path/Api.csproj : warning NU1603: message [/path/Shop.slnx]`
RESTORE_WARNING = re.compile(r"^(?P<project>\S+) : warning (?P<code>NU\d+): (?P<message>.*?)(?: \[[^\]]*\])?$")


def listed_packages(raw):
    return [m for m in map(PACKAGE.match, raw.splitlines()) if m]


def restore_warnings(raw):
    return [m for m in map(RESTORE_WARNING.match, raw.splitlines()) if m]


def package_floor(raw):
    """The bytes no text that keeps them can go below: each package's id and resolved version
    (`id version` and a line break) and each restore warning's code and message (`code: message`
    and a line break), without project names, counts or frameworks."""
    packages = sum(len(f"{m['id']} {m['resolved']}\n".encode()) for m in listed_packages(raw))
    return packages + sum(len(f"{m['code']}: {m['message']}\n".encode()) for m in restore_warnings(raw))


def check_list(count):
    """The check of a package list of `count` packages: each id with its resolved version."""

    def check(raw, text):
        missing = []
        packages = listed_packages(raw)
        if len(packages) != count:
            missing.append(f"the raw output listed {len(packages)} packages, not {count}")
        for package in packages:
            if not re.search(re.escape(package["id"]) + r"\W+" + re.escape(package["resolved"]), text):
                missing.append(f"package {package['id']} {package['resolved']}")
        # What the restore before the listing warned about, with its code and message.
        for warning in restore_warnings(raw):
            if f"{warning['code']}: {warning['message']}" not in text:
                missing.append(f"restore warning {warning['code']} of {os.path.basename(warning['project'])}")
        return missing

    return check


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=os.path.join(ROOT, "target", "debug", "mcp-plugin-host"))
    parser.add_argument("--plugin-dir")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    if shutil.which("dotnet") is None:
        sys.exit("economy: needs a real dotnet on PATH")
    plugin_dir = options.plugin_dir or os.path.dirname(os.path.abspath(options.host))
    work = tempfile.mkdtemp(prefix="mcp-economy-")
    try:
        solution, shop = make_cases(work)
        version = dotnet(work, "--version").strip()
        cases = [
            ("build", "build failing with 50 errors", ["build", "App/App.csproj"], "dotnet_project", {"action": "Build", "project": "App/App.csproj"}, check_build),
            ("test", "test run: 200 tests, 10 failing", ["test", "Tests/Tests.csproj"], "dotnet_project", {"action": "Test", "project": "Tests/Tests.csproj"}, check_test),
            ("package", "package list of a two-project solution", ["package", "list", "--project", solution], "dotnet_package", {"action": "List", "project": solution}, check_list(5)),
            ("shop", "package list of a web API and its tests (13 packages)", ["package", "list", "--project", shop], "dotnet_package", {"action": "List", "project": shop}, check_list(13)),
        ]
        host = Host(options.host, plugin_dir, work)
        rows, problems = [], []
        for stem, label, args, tool, arguments, check in cases:
            raw = dotnet(work, *args, check=False)
            result = host.call(tool, arguments)
            text = content_text(result)
            for kind, body in (("raw", raw), ("content", text)):
                write(os.path.join(work, f"{stem}.{kind}.txt"), body)
            raw_bytes, text_bytes = len(raw.encode()), len(text.encode())
            floor = package_floor(raw) if tool == "dotnet_package" else None
            rows.append((label, raw_bytes, text_bytes, floor, structured_bytes(result)))
            problems += [f"{label}: content lacks {what}" for what in check(raw, text)]
        host.close()
    finally:
        if options.keep:
            print(f"economy: kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"SDK {version}; host {options.host}\n")
    print("| case | raw CLI output | content | content / raw | packages and warnings alone / raw | structuredContent |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, raw_bytes, text_bytes, floor, structured in rows:
        alone = "" if floor is None else f"{floor:,} ({100 * floor / raw_bytes:.0f} %)"
        print(f"| {label} | {raw_bytes:,} | {text_bytes:,} | {100 * text_bytes / raw_bytes:.0f} % | {alone} | {structured:,} |")
    print()
    if problems:
        print("What an agent needs and `content` lacks:")
        print("\n".join(f"- {problem}" for problem in problems))
        sys.exit(1)
    print("content holds every error's location, code and message, every failing test's name, message and first frame, the totals, every package and every restore warning.")


if __name__ == "__main__":
    main()
