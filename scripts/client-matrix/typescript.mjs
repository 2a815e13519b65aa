// The TypeScript SDK's run of the client matrix (scripts/clients), with @modelcontextprotocol/sdk
// (the official TypeScript SDK, on zod; the client inside most desktop and IDE clients).
//
// Lists tools, prompts, resources and resource templates through `Client` (zod checks every
// answer against the MCP schema; a failure throws), reads every listed resource, gets every
// prompt and asks every completion of scenarios.json's "offer" (zod checks those answers too;
// a JSON-RPC error answer is a read's "error" outcome) and makes every call of scenarios.json through
// `Client.callTool`, which checks each structuredContent against the tool's outputSchema on the
// client side (with ajv). A call that throws although the server answered with a result is
// counted as rejected; a JSON-RPC error answer is told apart by watching the transport. Prints
// one line per problem and a summary line; exits 1 when anything was rejected or came out
// otherwise than the scenario expects.
//
//   node typescript.mjs --scenarios FILE --workspace DIR --label LABEL --sweep normal|runtime-only \
//       (--command JSON_ARGV [--log FILE] | --url URL)
//   node typescript.mjs --control --command JSON_ARGV --label LABEL
//
// --control is the negative control: against control-server.mjs the SDK must reject a
// structuredContent that breaks the outputSchema, so that the matrix's zero is not vacuous.
// The SDK is found through scripts/client-matrix/node_modules, a link that scripts/install-clients makes.

import { openSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Tally, loadOffer, loadScenarios, oneLine, options, pick, pool, runsAlone, substitute } from "./scenarios.mjs";

const CALL_TIMEOUT_MS = 120_000;
const CONCURRENCY = 8;
const METHOD_NOT_FOUND = -32601;
const SDK_VERSION = "1.32.2";

/** A connected client, and the ids of the requests the server answered with a JSON-RPC error. */
async function connect(opts, elicitation) {
  const client = new Client(
    { name: "mcp-plugin-host-client-matrix", version: SDK_VERSION },
    { capabilities: elicitation ? { elicitation: {} } : {} },
  );
  if (elicitation) client.setRequestHandler(ElicitRequestSchema, elicitation);
  let transport;
  if (opts.url) {
    transport = new StreamableHTTPClientTransport(new URL(opts.url));
  } else {
    const [command, ...args] = JSON.parse(opts.command);
    const stderr = opts.log ? openSync(opts.log, "a") : "ignore";
    transport = new StdioClientTransport({ command, args, stderr });
  }
  await client.connect(transport);
  // Watch the wire: which tools/call request (by its arguments object) got which id, and which
  // ids came back as JSON-RPC errors.
  const ids = new WeakMap();
  const errorAnswers = new Map();
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    if (message.method === "tools/call" && message.params?.arguments) ids.set(message.params.arguments, message.id);
    return send(message, sendOptions);
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.id !== undefined && message.error) errorAnswers.set(message.id, message.error);
    return receive(message, extra);
  };
  const errorFor = (args) => errorAnswers.get(ids.get(args));
  return { client, errorFor };
}

async function listing(client, tally) {
  const tools = await client.listTools();
  tally.listed(tools.tools.map((tool) => tool.name));
  const counts = [`${tools.tools.length} tools`];
  const capabilities = client.getServerCapabilities() ?? {};
  const kinds = [
    ["prompts", capabilities.prompts, () => client.listPrompts(), "prompts"],
    ["resources", capabilities.resources, () => client.listResources(), "resources"],
    ["templates", capabilities.resources, () => client.listResourceTemplates(), "resourceTemplates"],
  ];
  for (const [name, offered, list, field] of kinds) {
    try {
      counts.push(`${(await list())[field].length} ${name}`);
    } catch (error) {
      if (!offered && error.code === METHOD_NOT_FOUND) counts.push(`no ${name} (${METHOD_NOT_FOUND})`);
      else throw error;
    }
  }
  return `${counts.join(", ")} listed`;
}

/** Reads every listed resource, gets every prompt and asks every completion of `offer`; the
 * SDK validates each answer (a rejected answer throws and is counted as rejected). */
async function offered(client, offer, tally) {
  const capabilities = client.getServerCapabilities() ?? {};
  if (!capabilities.resources && !capabilities.prompts) return "nothing offered beside tools";
  const ask = async (what, request) => {
    try {
      return { answer: await request() };
    } catch (error) {
      if (error.code !== undefined && typeof error.code === "number") return { error };
      tally.reject(what, describe(error));
      return { rejected: true };
    }
  };
  const { resources } = await client.listResources();
  for (const resource of resources) {
    const want = pick(offer.resources[resource.uri] ?? "ok", tally.conditions, resource.uri);
    const read = await ask(`resources/read ${resource.uri}`, () => client.readResource({ uri: resource.uri }));
    if (read.rejected) continue;
    const got = read.error ? "error" : read.answer.contents.length && read.answer.contents[0].uri === resource.uri ? "ok" : "empty";
    tally.judgeOffer(`resources/read ${resource.uri}`, want, got);
  }
  for (const prompt of offer.prompts) {
    const got = await ask(`prompts/get ${prompt.name}`, () => client.getPrompt({ name: prompt.name, arguments: prompt.arguments }));
    if (got.rejected) continue;
    tally.judgeOffer(`prompts/get ${prompt.name}`, "messages", got.error ? `error ${got.error.message}` : got.answer.messages.length ? "messages" : "none");
  }
  for (const entry of offer.completions) {
    const what = `completion/complete ${entry.prompt}.${entry.argument}`;
    const want = pick(entry.expect, tally.conditions, what);
    const got = await ask(what, () =>
      client.complete({ ref: { type: "ref/prompt", name: entry.prompt }, argument: { name: entry.argument, value: entry.value } }),
    );
    if (got.rejected) continue;
    tally.judgeOffer(what, want, got.error ? `error ${got.error.message}` : got.answer.completion.values);
  }
  return `${resources.length} resources read, ${offer.prompts.length} prompts got, ${offer.completions.length} completions`;
}

async function matrix(opts) {
  const calls = loadScenarios(opts.scenarios, opts.workspace);
  const tally = new Tally(opts.label, calls, new Set(opts.sweep === "runtime-only" ? ["runtimeOnly"] : []));
  let answer = "decline";
  const elicit = async () => (answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: "decline" });
  const { client, errorFor } = await connect(opts, elicit);
  let listed;
  try {
    listed = await listing(client, tally);
    listed = `${listed}; ${await offered(client, loadOffer(opts.scenarios), tally)}`;
  } catch (error) {
    tally.reject("the listing", describe(error));
    await client.close();
    return tally.finish("listing rejected");
  }
  const call = async (entry) => {
    const args = substitute(entry.arguments, tally.captured);
    tally.made += 1;
    try {
      tally.judge(entry, await client.callTool({ name: entry.tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS }));
    } catch (error) {
      const answered = errorFor(args);
      if (answered) tally.surprise(entry.id, `JSON-RPC error ${answered.code}: ${answered.message}`);
      else tally.reject(entry.id, describe(error));
    }
  };
  await pool(calls.filter((entry) => !runsAlone(entry)), CONCURRENCY, call);
  for (const entry of calls.filter(runsAlone)) {
    answer = entry.elicitation ?? "decline";
    await call(entry);
  }
  await client.close();
  return tally.finish(listed);
}

/** The negative control: what the SDK does with wrong answers and one right answer (see control-server.mjs). */
async function control(opts) {
  const say = (text) => console.log(`clients: ${opts.label} control: ${oneLine(text)}`);
  let status = 0;
  const { client, errorFor } = await connect(opts);
  await client.listTools();
  // [tool, what, whether the SDK must accept the result]
  for (const [tool, what, valid] of [
    ["mismatch", "structuredContent breaking the outputSchema", false],
    ["error_mismatch", "isError result whose structuredContent breaks the outputSchema", undefined],
    ["shared_defs", "structuredContent matching an outputSchema with $defs and $ref", true],
    ["shared_defs_mismatch", "structuredContent breaking a referenced definition", false],
    ["shared_defs_sibling", "structuredContent breaking the keywords beside a $ref", false],
  ]) {
    const args = {};
    try {
      await client.callTool({ name: tool, arguments: args });
      say(`${what}: accepted`);
      if (valid === false) status = 1;
    } catch (error) {
      if (errorFor(args) || valid === true) status = 1;
      say(`${what}: ${errorFor(args) ? "JSON-RPC error" : "rejected"}: ${describe(error)}`);
    }
  }
  await client.close();
  const untyped = await connect({ ...opts, command: JSON.stringify([...JSON.parse(opts.command), "--untyped-schema"]) });
  try {
    const listed = await untyped.client.listTools();
    say(`outputSchema without a root type: tools/list accepted (${listed.tools.length} tools)`);
  } catch (error) {
    say(`outputSchema without a root type: tools/list rejected: ${describe(error)}`);
  }
  await untyped.client.close();
  if (status) say("FAILED: the SDK did not check a structuredContent against the outputSchema as it should");
  return status;
}

/** An error as one line: a zod error's message is pretty-printed JSON, shown compact here. */
function describe(error) {
  try {
    return `${error.name}: ${JSON.stringify(JSON.parse(error.message))}`;
  } catch {
    return `${error.name}: ${error.message}`;
  }
}

const opts = options();
// Exit at once: after close() the HTTP transport's idle keep-alive sockets would hold the process
// for seconds more. stdout is a pipe or a file here, and both are written synchronously.
process.exit(await (opts.control ? control(opts) : matrix(opts)));
