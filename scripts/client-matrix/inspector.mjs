// The MCP Inspector's run of the client matrix (scripts/clients), through its command-line mode
// (`--cli`; the Inspector is built on @modelcontextprotocol/client, the TypeScript SDK's
// second generation).
//
// One Inspector process per request, as a script or an agent uses it: `--method tools/list`
// (with --strict, so its schema portability check reports every problem), prompts/list,
// resources/list, resources/templates/list; `--method resources/read --uri URI` for every listed
// resource and `--method prompts/get --prompt-name NAME --prompt-args K=V...` for every prompt of
// scenarios.json's "offer" (the CLI has no completion method: "Unsupported method"); then `--method tools/call --tool-name NAME
// --tool-args-json JSON` for every call of scenarios.json. The Inspector checks each
// structuredContent against the tool's outputSchema itself. A call that prints no result is
// counted as rejected (the Inspector prints a refused answer and a JSON-RPC error answer alike,
// as {"error":{"code":"error",...}}). Over stdio each call starts a new server, so background
// sessions do not outlive their call (condition serverPerCall); the Inspector declares no
// elicitation capability (condition noElicitation).
//
//   node inspector.mjs --inspector LAUNCHER --home DIR --scenarios FILE --workspace DIR \
//       --label LABEL --sweep normal|runtime-only (--command JSON_ARGV [--log FILE] | --url URL)
//   node inspector.mjs --inspector LAUNCHER --home DIR --control --command JSON_ARGV --label LABEL
//
// LAUNCHER is @modelcontextprotocol/inspector/clients/launcher/build/index.js; HOME points at
// DIR, because the Inspector keeps its catalog and settings under ~/.mcp-inspector.

import { execFile } from "node:child_process";
import { appendFileSync } from "node:fs";
import { Tally, loadOffer, loadScenarios, oneLine, options, pick, pool, runsAlone, substitute } from "./scenarios.mjs";

const CALL_TIMEOUT_MS = 120_000;

/** Runs one Inspector request; resolves to its exit code, parsed stdout and stderr. */
function inspect(opts, args) {
  const target = opts.url ? [opts.url] : ["--", ...JSON.parse(opts.command)];
  const argv = [opts.inspector, "--cli", ...args, "--format", "json", ...target];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { env: { ...process.env, HOME: opts.home }, timeout: CALL_TIMEOUT_MS, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (opts.log && stderr) appendFileSync(opts.log, stderr);
        let answer;
        try {
          answer = JSON.parse(stdout);
        } catch {
          answer = undefined;
        }
        const code = error ? (typeof error.code === "number" ? error.code : `${error.signal ?? error.code}`) : 0;
        resolve({ code, answer, stderr: stderr.trim() });
      },
    );
  });
}

/** The error the Inspector printed on stderr (its last JSON line), or its whole stderr. */
function complaint(run) {
  const lines = run.stderr.split("\n").filter((line) => line.startsWith("{"));
  try {
    const { error } = JSON.parse(lines.at(-1));
    return `${error.code}: ${error.message}`;
  } catch {
    return `exit ${run.code}: ${run.stderr || "(no output)"}`;
  }
}

async function listing(opts, tally) {
  const tools = await inspect(opts, ["--method", "tools/list", "--strict"]);
  if (!tools.answer?.result) {
    tally.reject("tools/list", complaint(tools));
    return { listed: "listing rejected" };
  }
  tally.listed(tools.answer.result.tools.map((tool) => tool.name));
  const warnings = (tools.stderr.match(/^Warning: tool /gm) ?? []).length;
  const errors = (tools.stderr.match(/^Error: tool /gm) ?? []).length;
  if (tools.code !== 0 || errors) tally.reject("tools/list --strict", `exit ${tools.code}, ${errors} schema portability errors`);
  const counts = [`${tools.answer.result.tools.length} tools`];
  let resources;
  for (const [name, method, field] of [
    ["prompts", "prompts/list", "prompts"],
    ["resources", "resources/list", "resources"],
    ["templates", "resources/templates/list", "resourceTemplates"],
  ]) {
    const run = await inspect(opts, ["--method", method, "-q"]);
    if (run.answer?.result?.[field]) counts.push(`${run.answer.result[field].length} ${name}`);
    else tally.reject(method, complaint(run));
    if (field === "resources" && run.answer?.result?.resources?.length) {
      resources = run.answer.result.resources.map((resource) => resource.uri);
    }
  }
  return { listed: `${counts.join(", ")} listed (schema portability: ${errors} errors, ${warnings} warnings)`, resources };
}

/** Reads every listed resource and gets every prompt of `offer`, one Inspector process each; a
 * request that prints no result is a read's "error" outcome. */
async function offered(opts, offer, tally, resources) {
  if (!resources) return "nothing offered beside tools";
  const answer = (run) => run.answer?.result;
  for (const uri of resources) {
    const want = pick(offer.resources[uri] ?? "ok", tally.conditions, uri);
    const read = answer(await inspect(opts, ["--method", "resources/read", "--uri", uri, "-q"]));
    const got = !read ? "error" : read.contents?.length && read.contents[0].uri === uri ? "ok" : "empty";
    tally.judgeOffer(`resources/read ${uri}`, want, got);
  }
  for (const prompt of offer.prompts) {
    const pairs = Object.entries(prompt.arguments).map(([key, value]) => `${key}=${value}`);
    const run = await inspect(opts, ["--method", "prompts/get", "--prompt-name", prompt.name, "--prompt-args", ...pairs, "-q"]);
    const got = answer(run) ? (answer(run).messages?.length ? "messages" : "none") : `error ${complaint(run)}`;
    tally.judgeOffer(`prompts/get ${prompt.name}`, "messages", got);
  }
  // Its CLI has no completion method (2.12.0 lists the ones it has when asked for another).
  return `${resources.length} resources read, ${offer.prompts.length} prompts got, no completions (not in the CLI)`;
}

async function matrix(opts) {
  const calls = loadScenarios(opts.scenarios, opts.workspace);
  const conditions = new Set(["noElicitation"]);
  if (opts.sweep === "runtime-only") conditions.add("runtimeOnly");
  if (opts.command) conditions.add("serverPerCall");
  const tally = new Tally(opts.label, calls, conditions);
  const { listed: counts, resources } = await listing(opts, tally);
  const listed = `${counts}; ${await offered(opts, loadOffer(opts.scenarios), tally, resources)}`;
  const call = async (entry) => {
    const args = JSON.stringify(substitute(entry.arguments, tally.captured));
    tally.made += 1;
    const run = await inspect(opts, ["--method", "tools/call", "--tool-name", entry.tool, "--tool-args-json", args, "-q"]);
    if (run.answer?.result) tally.judge(entry, run.answer.result);
    else tally.reject(entry.id, complaint(run));
  };
  // Over stdio every call is a server start as well: fewer at once on a 2-core machine.
  await pool(calls.filter((entry) => !runsAlone(entry)), opts.command ? 4 : 6, call);
  for (const entry of calls.filter(runsAlone)) await call(entry);
  return tally.finish(listed);
}

/** The negative control: what the Inspector does with wrong answers and one right answer (see control-server.mjs). */
async function control(opts) {
  const say = (text) => console.log(`clients: ${opts.label} control: ${oneLine(text)}`);
  let status = 0;
  // [tool, what, whether the Inspector must accept the result]
  for (const [tool, what, valid] of [
    ["mismatch", "structuredContent breaking the outputSchema", false],
    ["error_mismatch", "isError result whose structuredContent breaks the outputSchema", undefined],
    ["rpc_error", "JSON-RPC error answer", undefined],
    ["shared_defs", "structuredContent matching an outputSchema with $defs and $ref", true],
    ["shared_defs_mismatch", "structuredContent breaking a referenced definition", false],
    ["shared_defs_sibling", "structuredContent breaking the keywords beside a $ref", false],
  ]) {
    const run = await inspect(opts, ["--method", "tools/call", "--tool-name", tool, "--tool-args-json", "{}", "-q"]);
    if (run.answer?.result) {
      say(`${what}: accepted (exit ${run.code})`);
      if (valid === false) status = 1;
    } else {
      say(`${what}: no result, exit ${run.code}: ${complaint(run)}`);
      if (valid === true) status = 1;
    }
  }
  const untyped = { ...opts, command: JSON.stringify([...JSON.parse(opts.command), "--untyped-schema"]) };
  const run = await inspect(untyped, ["--method", "tools/list", "-q"]);
  const names = run.answer?.result?.tools?.map((tool) => tool.name);
  if (!names) say(`outputSchema without a root type: tools/list rejected: ${complaint(run)}`);
  else if (names.includes("untyped")) say("outputSchema without a root type: tools/list accepted, the tool listed");
  else say(`outputSchema without a root type: the tool left out of the listing without a word (exit ${run.code}; listed: ${names.join(", ")})`);
  if (status) say("FAILED: the Inspector did not check a structuredContent against the outputSchema as it should");
  return status;
}

const opts = options({ inspector: { type: "string" }, home: { type: "string" } });
if (!opts.inspector || !opts.home) throw new Error("give --inspector LAUNCHER and --home DIR");
process.exitCode = await (opts.control ? control(opts) : matrix(opts));
