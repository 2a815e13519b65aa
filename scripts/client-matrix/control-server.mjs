// The negative control of the client matrix: a deliberately wrong MCP server over stdio (plain
// Node, no dependencies), so that each client's zero rejections against the host is shown to
// come from a live check and not from a client that checks nothing.
//
//   node control-server.mjs
//
// It serves three tools, each wrong in one way a client may catch:
//   mismatch        outputSchema wants {count: integer}; the result carries {count: "three"}
//   error_mismatch  the same schema; an isError result whose structuredContent is {error: "..."}
//   rpc_error       answers tools/call with a JSON-RPC error (-32603): how the client reports an
//                   error answer, as opposed to an answer it refuses
//   untyped         listed only with --untyped-schema: its outputSchema has no root "type",
//                   which the MCP schema forbids (outputSchema.type must be "object")
// and three tools whose outputSchema has the layout of the dotnet plugins' (plugins/dotnet/README.md,
// "The output schema"): a type two results share defined once under "$defs" and referenced, with
// sibling keywords beside a "$ref". A client must resolve both to check them:
//   shared_defs          a result that matches: the client accepts it
//   shared_defs_mismatch a result that breaks the referenced definition (a version that is a number)
//   shared_defs_sibling  a result that matches the referenced definition but not the keywords beside
//                        the reference (an action its branch does not name)
// The server never checks what it sends: that is the point.

import { createInterface } from "node:readline";

const untypedListing = process.argv.includes("--untyped-schema");
const countSchema = {
  type: "object",
  properties: { count: { type: "integer" } },
  required: ["count"],
};
const sharedSchema = {
  type: "object",
  properties: { success: { type: "boolean" }, exitCode: { type: "integer" } },
  required: ["success"],
  anyOf: [
    { $ref: "#/$defs/Listed", properties: { success: { const: true }, action: { enum: ["List"] } }, required: ["success", "action"] },
    {
      type: "object",
      properties: { success: { const: true }, action: { enum: ["Install"] }, package: { $ref: "#/$defs/Package" } },
      required: ["success", "action", "package"],
    },
    { type: "object", properties: { success: { const: false }, errors: { type: "array", minItems: 1 } }, required: ["success", "errors"] },
  ],
  $defs: {
    Package: { type: "object", properties: { id: { type: "string" }, version: { type: "string" } }, required: ["id", "version"] },
    Listed: { type: "object", properties: { packages: { type: "array", items: { $ref: "#/$defs/Package" } } }, required: ["packages"] },
  },
};
const tools = [
  { name: "mismatch", description: "Returns structuredContent that breaks its outputSchema.", inputSchema: { type: "object" }, outputSchema: countSchema },
  { name: "error_mismatch", description: "Returns an isError result whose structuredContent breaks its outputSchema.", inputSchema: { type: "object" }, outputSchema: countSchema },
  { name: "rpc_error", description: "Answers with a JSON-RPC error.", inputSchema: { type: "object" } },
];
if (untypedListing) {
  tools.push({ name: "untyped", description: "Its outputSchema has no root type.", inputSchema: { type: "object" }, outputSchema: { properties: { count: { type: "integer" } } } });
}
tools.push(
  { name: "shared_defs", description: "Returns structuredContent that matches an outputSchema with $defs.", inputSchema: { type: "object" }, outputSchema: sharedSchema },
  { name: "shared_defs_mismatch", description: "Breaks a definition its outputSchema references.", inputSchema: { type: "object" }, outputSchema: sharedSchema },
  { name: "shared_defs_sibling", description: "Breaks the keywords beside a $ref.", inputSchema: { type: "object" }, outputSchema: sharedSchema },
);

const listed = (version, action) => ({
  content: [{ type: "text", text: "1 package" }],
  structuredContent: { success: true, action, packages: [{ id: "Newtonsoft.Json", version }] },
});
const results = {
  shared_defs: listed("13.0.3", "List"),
  shared_defs_mismatch: listed(13, "List"),
  shared_defs_sibling: listed("13.0.3", "Install"),
  mismatch: { content: [{ type: "text", text: "three" }], structuredContent: { count: "three" } },
  error_mismatch: { content: [{ type: "text", text: "failed" }], structuredContent: { error: "failed" }, isError: true },
  untyped: { content: [{ type: "text", text: "3" }], structuredContent: { count: 3 } },
};

function answer(request) {
  switch (request.method) {
    case "initialize":
      return {
        protocolVersion: request.params?.protocolVersion ?? "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "client-matrix-control", version: "1.0.0" },
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools };
    case "tools/call":
      if (request.params?.name === "rpc_error") return { error: { code: -32603, message: "the control server fails this call" } };
      return results[request.params?.name] ?? { content: [{ type: "text", text: "no such tool" }], isError: true };
    default:
      return undefined;
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  if (request.id === undefined) return; // a notification
  const result = answer(request);
  const reply = result === undefined
    ? { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: `method not found: ${request.method}` } }
    : result.error
      ? { jsonrpc: "2.0", id: request.id, error: result.error }
      : { jsonrpc: "2.0", id: request.id, result };
  process.stdout.write(JSON.stringify(reply) + "\n");
});
