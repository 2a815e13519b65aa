"""The Python peer: the `echo` tool on the official MCP Python SDK (`mcp` on PyPI, 2.x).

    python echo_server.py                       # stdio
    python echo_server.py --http 127.0.0.1:PORT # streamable HTTP at /mcp (loopback only)

The tool answers as the host's sample plugin does: the text back, and {text, length} as
structured content (declared by the return type). Logging is set to WARNING, as a production
deployment would: at INFO the SDK and uvicorn write a line per request.
"""

import argparse
import ipaddress
import sys
from typing import TypedDict

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations


class EchoOutput(TypedDict):
    text: str
    length: int


server = MCPServer("python-echo", version="1.0.0", log_level="WARNING")


@server.tool(
    name="echo",
    title="Echo",
    description="Returns the text it is given, unchanged, with its length.",
    annotations=ToolAnnotations(readOnlyHint=True, idempotentHint=True, openWorldHint=False),
)
def echo(text: str) -> EchoOutput:
    return {"text": text, "length": len(text)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP on this loopback address")
    args = parser.parse_args()
    if args.http is None:
        server.run("stdio")
        return
    host, _, port = args.http.rpartition(":")
    host = host.strip("[]")
    if not ipaddress.ip_address(host).is_loopback:
        sys.exit(f"refusing to listen on {host}: loopback only")
    server.run("streamable-http", host=host, port=int(port), streamable_http_path="/mcp")


if __name__ == "__main__":
    main()
