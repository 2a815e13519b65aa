"""The Python SDK's run of the client matrix (scripts/clients), with `mcp` (the official Python SDK).

Lists tools, prompts, resources and resource templates through `ClientSession` (pydantic checks
every answer against the MCP schema; a failure raises), reads every listed resource, gets every
prompt and asks every completion of scenarios.json's "offer" (validated the same way; a JSON-RPC
error answer is a read's "error" outcome) and makes every call of scenarios.json
through `ClientSession.call_tool`, which checks each structuredContent against the tool's
outputSchema on the client side. A call the SDK raises on, other than a JSON-RPC error answer
(`MCPError`), is counted as rejected. Prints one line per problem and a summary line; exits 1
when anything was rejected or came out otherwise than the scenario expects.

    python_client.py --scenarios FILE --workspace DIR --label LABEL --sweep normal|runtime-only \
        (--command JSON_ARGV [--log FILE] | --url URL)
    python_client.py --control --command JSON_ARGV --label LABEL

`--control` is the negative control: against scripts/client-matrix/control-server.mjs it must reject
a structuredContent that breaks the outputSchema, so that the matrix's zero is not vacuous.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

CALL_TIMEOUT_SECONDS = 120
CONCURRENCY = 8
METHOD_NOT_FOUND = -32601
# Outcomes decided before dotnet runs (arguments checked, the user asked), so the same with a
# dotnet that has no SDK; every other outcome becomes SDK_NOT_FOUND there, unless stated.
CHECKED_BEFORE_DOTNET = {"INVALID_PARAMS", "OPERATION_CANCELLED", "isError"}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenarios", type=Path)
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--label", required=True, help="client, version and transport, for the output lines")
    parser.add_argument("--sweep", choices=["normal", "runtime-only"], default="normal")
    parser.add_argument("--command", help="the server's argument vector as a JSON array (stdio)")
    parser.add_argument("--log", type=Path, help="where the stdio server's stderr goes")
    parser.add_argument("--url", help="the server's streamable HTTP endpoint")
    parser.add_argument("--control", action="store_true")
    return parser.parse_args()


# --- scenarios (the same rules as scenarios.mjs) ---------------------------------------------------


def one_line(text: str) -> str:
    """A message on one line: the SDK's validation messages span several."""
    return " | ".join(line.strip() for line in str(text).strip().splitlines() if line.strip())


def make_workspace(directory: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def expected(call: dict[str, Any], conditions: set[str]) -> str:
    """The outcome a call must have under `conditions` (see "about" in scenarios.json)."""
    table = call["expect"] if isinstance(call["expect"], dict) else {"default": call["expect"]}
    if table["default"] not in CHECKED_BEFORE_DOTNET:
        table = {"runtimeOnly": "SDK_NOT_FOUND", **table}
    return pick(table, conditions, call["id"])


def pick(table: Any, conditions: set[str], what: str) -> Any:
    """The entry of an expectation table (`{default, condition keys...}`) under `conditions`; any
    other value stands for itself."""
    if not isinstance(table, dict):
        return table
    # The most specific key whose conditions all hold; two equally specific ones are a slip in
    # the data, not a choice to make here.
    matching = sorted(
        (key for key in table if key != "default" and set(key.split("+")) <= conditions),
        key=lambda key: -len(key.split("+")),
    )
    if not matching:
        return table["default"]
    if len(matching) > 1 and len(matching[1].split("+")) == len(matching[0].split("+")):
        raise ValueError(f"{what}: expectations {matching[0]} and {matching[1]} both apply")
    return table[matching[0]]


def outcome(is_error: bool, structured: Any) -> str:
    """The outcome of a result, in the words of `expect`."""
    if not is_error:
        if isinstance(structured, dict) and structured.get("success") is False:
            return "ok with success false"
        return "ok"
    if structured is None:
        return "isError"
    errors = structured.get("errors") if isinstance(structured, dict) else None
    if structured.get("success") is False and errors and isinstance(errors[0], dict) and errors[0].get("code"):
        return errors[0]["code"]
    return "isError with a structuredContent that is not the error envelope"


def substitute(arguments: Any, captured: dict[str, str]) -> Any:
    if isinstance(arguments, dict):
        return {key: substitute(value, captured) for key, value in arguments.items()}
    if isinstance(arguments, list):
        return [substitute(value, captured) for value in arguments]
    if isinstance(arguments, str) and arguments.startswith("${") and arguments.endswith("}"):
        return captured.get(arguments[2:-1], "not-captured")
    return arguments


def runs_alone(call: dict[str, Any]) -> bool:
    """Calls that answer an elicitation or use a captured value run one at a time, after the rest."""
    return "elicitation" in call or "${" in json.dumps(call["arguments"])


# --- the run ---------------------------------------------------------------------------------------


class Matrix:
    def __init__(self, label: str, calls: list[dict[str, Any]], offer: dict[str, Any], conditions: set[str]):
        self.label = label
        self.calls = calls
        self.offer = offer
        self.conditions = conditions
        self.answer = "decline"  # what the elicitation callback answers; set before each lone call
        self.captured: dict[str, str] = {}
        self.made = 0
        self.rejected = 0
        self.unexpected = 0

    def say(self, text: str) -> None:
        print(f"clients: {self.label}: {one_line(text)}", flush=True)

    async def elicit(self, _context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        if self.answer == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")

    async def call(self, session: ClientSession, call: dict[str, Any]) -> None:
        arguments = substitute(call["arguments"], self.captured)
        want = expected(call, self.conditions)
        self.made += 1
        try:
            result = await session.call_tool(call["tool"], arguments, read_timeout_seconds=CALL_TIMEOUT_SECONDS)
        except MCPError as error:
            self.unexpected += 1
            self.say(f"UNEXPECTED {call['id']}: expected {want}, got JSON-RPC error {error.code}: {error.message}")
            return
        except Exception as error:  # the SDK refused the answer
            self.rejected += 1
            self.say(f"REJECTED {call['id']}: {type(error).__name__}: {error}")
            return
        got = outcome(result.is_error, result.structured_content)
        if got != want:
            self.unexpected += 1
            text = next((block.text for block in result.content if isinstance(block, types.TextContent)), "")
            first = text.strip().splitlines()[0] if text.strip() else ""
            self.say(f"UNEXPECTED {call['id']}: expected {want}, got {got}: {first}")
        if "capture" in call and isinstance(result.structured_content, dict):
            session_id = result.structured_content.get("sessionId")
            if isinstance(session_id, str):
                self.captured[call["capture"]] = session_id

    async def listing(self, session: ClientSession, capabilities: types.ServerCapabilities) -> str:
        tools = await session.list_tools()
        counts = [f"{len(tools.tools)} tools"]
        listed = {tool.name for tool in tools.tools}
        missing = sorted({call["tool"] for call in self.calls} - listed)
        if missing:
            self.unexpected += 1
            self.say(f"UNEXPECTED tools/list: no tool named {', '.join(missing)}")
        kinds = [
            ("prompts", capabilities.prompts, session.list_prompts, "prompts"),
            ("resources", capabilities.resources, session.list_resources, "resources"),
            ("templates", capabilities.resources, session.list_resource_templates, "resource_templates"),
        ]
        for name, offered, method, field in kinds:
            try:
                answer = await method()
                counts.append(f"{len(getattr(answer, field))} {name}")
            except MCPError as error:
                if offered is None and error.code == METHOD_NOT_FOUND:
                    counts.append(f"no {name} ({METHOD_NOT_FOUND})")
                else:
                    self.unexpected += 1
                    self.say(f"UNEXPECTED {name} list: JSON-RPC error {error.code}: {error.message}")
        return ", ".join(counts) + " listed"

    def judge_offer(self, what: str, want: Any, got: Any) -> None:
        if got != want:
            self.unexpected += 1
            self.say(f"UNEXPECTED {what}: expected {json.dumps(want)}, got {json.dumps(got)}")

    async def ask(self, what: str, request: Any) -> tuple[str, Any]:
        """("ok", answer), ("error", message) for a JSON-RPC error, or ("rejected", None)."""
        try:
            return "ok", await request()
        except MCPError as error:
            return "error", error.message
        except Exception as error:  # the SDK refused the answer
            self.rejected += 1
            self.say(f"REJECTED {what}: {type(error).__name__}: {error}")
            return "rejected", None

    async def offered(self, session: ClientSession, capabilities: types.ServerCapabilities) -> str:
        """Reads every listed resource, gets every prompt and asks every completion of the offer."""
        if capabilities.resources is None and capabilities.prompts is None:
            return "nothing offered beside tools"
        resources = (await session.list_resources()).resources
        for resource in resources:
            uri = str(resource.uri)
            what = f"resources/read {uri}"
            want = pick(self.offer["resources"].get(uri, "ok"), self.conditions, what)
            state, answer = await self.ask(what, lambda: session.read_resource(uri))
            if state == "rejected":
                continue
            got = state if state == "error" else ("ok" if answer.contents and str(answer.contents[0].uri) == uri else "empty")
            self.judge_offer(what, want, got)
        for prompt in self.offer["prompts"]:
            what = f"prompts/get {prompt['name']}"
            state, answer = await self.ask(what, lambda: session.get_prompt(prompt["name"], prompt["arguments"]))
            if state == "rejected":
                continue
            got = f"error {answer}" if state == "error" else ("messages" if answer.messages else "none")
            self.judge_offer(what, "messages", got)
        for entry in self.offer["completions"]:
            what = f"completion/complete {entry['prompt']}.{entry['argument']}"
            want = pick(entry["expect"], self.conditions, what)
            reference = types.PromptReference(type="ref/prompt", name=entry["prompt"])
            argument = {"name": entry["argument"], "value": entry["value"]}
            state, answer = await self.ask(what, lambda: session.complete(reference, argument))
            if state == "rejected":
                continue
            self.judge_offer(what, want, f"error {answer}" if state == "error" else answer.completion.values)
        prompts, completions = len(self.offer["prompts"]), len(self.offer["completions"])
        return f"{len(resources)} resources read, {prompts} prompts got, {completions} completions"

    async def run(self, session: ClientSession) -> str:
        initialized = await session.initialize()
        try:
            listed = await self.listing(session, initialized.capabilities)
            listed = f"{listed}; {await self.offered(session, initialized.capabilities)}"
        except Exception as error:
            self.rejected += 1
            self.say(f"REJECTED the listing: {type(error).__name__}: {error}")
            return "listing rejected"
        limit = anyio.Semaphore(CONCURRENCY)

        async def limited(call: dict[str, Any]) -> None:
            async with limit:
                await self.call(session, call)

        async with anyio.create_task_group() as group:
            for call in self.calls:
                if not runs_alone(call):
                    group.start_soon(limited, call)
        for call in self.calls:
            if runs_alone(call):
                self.answer = call.get("elicitation", "decline")
                await self.call(session, call)
        return listed


async def connect(args: argparse.Namespace, matrix: Matrix | None, run: Any) -> Any:
    """Opens the transport and a session (with an elicitation callback when `matrix` is given)."""
    elicit = matrix.elicit if matrix else None
    if args.url:
        async with streamable_http_client(args.url) as (read, write):
            async with ClientSession(read, write, elicitation_callback=elicit) as session:
                return await run(session)
    argv = json.loads(args.command)
    server = StdioServerParameters(command=argv[0], args=argv[1:])
    with open(args.log or "/dev/null", "a") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write):
            async with ClientSession(read, write, elicitation_callback=elicit) as session:
                return await run(session)


class SdkWarnings(logging.Handler):
    """What the SDK's client logs at WARNING or above: a server it disagrees with, such as
    `Session termination failed: 202` at the end of an HTTP session."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


async def matrix_main(args: argparse.Namespace) -> int:
    scenarios = json.loads(args.scenarios.read_text())
    make_workspace(args.workspace, scenarios["workspace"])
    conditions = {"runtimeOnly"} if args.sweep == "runtime-only" else set()
    matrix = Matrix(args.label, scenarios["calls"], scenarios["offer"], conditions)
    warnings = SdkWarnings()
    logging.getLogger("mcp.client").addHandler(warnings)
    started = time.monotonic()
    listed = await connect(args, matrix, matrix.run)
    seconds = time.monotonic() - started
    for message in warnings.messages:
        matrix.say(f"the SDK warned: {message}")
    matrix.say(
        f"{listed}; {matrix.made} calls; {matrix.rejected} rejected; {matrix.unexpected} unexpected; "
        f"{len(warnings.messages)} SDK warnings ({seconds:.1f} s)"
    )
    failed = matrix.rejected or matrix.unexpected or warnings.messages
    return 1 if failed or matrix.made != len(matrix.calls) else 0


async def control_main(args: argparse.Namespace) -> int:
    """The negative control: what the SDK does with wrong answers and one right answer (see control-server.mjs)."""

    def say(text: str) -> None:
        print(f"clients: {args.label} control: {one_line(text)}", flush=True)

    async def wrong_results(session: ClientSession) -> int:
        await session.initialize()
        await session.list_tools()
        status = 0
        # (tool, what, whether the SDK must accept the result)
        for tool, what, valid in [
            ("mismatch", "structuredContent breaking the outputSchema", False),
            ("error_mismatch", "isError result whose structuredContent breaks the outputSchema", None),
            ("shared_defs", "structuredContent matching an outputSchema with $defs and $ref", True),
            ("shared_defs_mismatch", "structuredContent breaking a referenced definition", False),
            ("shared_defs_sibling", "structuredContent breaking the keywords beside a $ref", False),
        ]:
            try:
                await session.call_tool(tool, {})
                say(f"{what}: accepted")
                status = 1 if valid is False else status
            except MCPError as error:
                say(f"{what}: JSON-RPC error {error.code}: {error.message}")
                status = 1
            except Exception as error:
                say(f"{what}: rejected: {type(error).__name__}: {error}")
                status = 1 if valid is True else status
        return status

    async def untyped_listing(session: ClientSession) -> int:
        await session.initialize()
        try:
            listed = await session.list_tools()
            say(f"outputSchema without a root type: tools/list accepted ({len(listed.tools)} tools)")
        except Exception as error:
            say(f"outputSchema without a root type: tools/list rejected: {type(error).__name__}: {error}")
        return 0

    status = await connect(args, None, wrong_results)
    args.command = json.dumps(json.loads(args.command) + ["--untyped-schema"])
    await connect(args, None, untyped_listing)
    if status:
        say("FAILED: the SDK did not check a structuredContent against the outputSchema as it should")
    return status


def main() -> int:
    args = parse_args()
    if bool(args.url) == bool(args.command):
        sys.exit("python_client.py: give exactly one of --command and --url")
    return anyio.run(control_main if args.control else matrix_main, args)


if __name__ == "__main__":
    sys.exit(main())
