// What the Node drivers of the client matrix share (typescript.mjs, inspector.mjs): the command
// line, scenarios.json and its rules, the tally and its output lines. python_client.py follows
// the same rules in Python.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";

/** Outcomes decided before dotnet runs (arguments checked, the user asked): the same with a
 * dotnet that has no SDK. Every other outcome becomes SDK_NOT_FOUND there, unless stated. */
const CHECKED_BEFORE_DOTNET = new Set(["INVALID_PARAMS", "OPERATION_CANCELLED", "isError"]);

/** The options every driver takes (see the header of each driver). */
export function options(extra = {}) {
  const { values } = parseArgs({
    options: {
      scenarios: { type: "string" },
      workspace: { type: "string" },
      label: { type: "string" },
      sweep: { type: "string", default: "normal" },
      command: { type: "string" },
      log: { type: "string" },
      url: { type: "string" },
      control: { type: "boolean", default: false },
      ...extra,
    },
  });
  if (!values.label || Boolean(values.command) === Boolean(values.url)) {
    throw new Error("give --label and exactly one of --command (a JSON argument vector) and --url");
  }
  if (!["normal", "runtime-only"].includes(values.sweep)) throw new Error(`unknown --sweep ${values.sweep}`);
  return values;
}

/** Reads scenarios.json and lays its workspace out in `workspace`. */
export function loadScenarios(file, workspace) {
  const scenarios = JSON.parse(readFileSync(file, "utf8"));
  for (const [relative, text] of Object.entries(scenarios.workspace)) {
    const path = join(workspace, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return scenarios.calls;
}

/** The outcome a call must have under `conditions` (see "about" in scenarios.json). */
export function expected(call, conditions) {
  let table = typeof call.expect === "string" ? { default: call.expect } : call.expect;
  if (!CHECKED_BEFORE_DOTNET.has(table.default)) table = { runtimeOnly: "SDK_NOT_FOUND", ...table };
  return pick(table, conditions, call.id);
}

/** The entry of an expectation table (`{default, condition keys...}`) under `conditions`; any
 * other value stands for itself. */
export function pick(table, conditions, id) {
  if (table === null || typeof table !== "object" || Array.isArray(table)) return table;
  // The most specific key whose conditions all hold; two equally specific ones are a slip in
  // the data, not a choice to make here.
  const matching = Object.keys(table)
    .filter((key) => key !== "default" && key.split("+").every((need) => conditions.has(need)))
    .sort((a, b) => b.split("+").length - a.split("+").length);
  if (!matching.length) return table.default;
  if (matching[1] && matching[1].split("+").length === matching[0].split("+").length) {
    throw new Error(`${id}: expectations ${matching[0]} and ${matching[1]} both apply; add one for ${[...conditions].join("+")}`);
  }
  return table[matching[0]];
}

/** What scenarios.json asks of the server beside tool calls ("offer"). */
export function loadOffer(file) {
  return JSON.parse(readFileSync(file, "utf8")).offer;
}

/** The outcome of a tools/call result, in the words of `expect`. */
export function outcome(result) {
  const structured = result.structuredContent;
  if (!result.isError) return structured?.success === false ? "ok with success false" : "ok";
  if (structured === undefined || structured === null) return "isError";
  const code = structured.success === false ? structured.errors?.[0]?.code : undefined;
  return typeof code === "string" && code ? code : "isError with a structuredContent that is not the error envelope";
}

/** The first line of a result's text, to show with an unexpected outcome. */
export function firstLine(result) {
  const text = (result.content ?? []).find((block) => block.type === "text")?.text ?? "";
  return text.trim().split("\n")[0];
}

/** The arguments with `${name}` replaced by what an earlier call captured. */
export function substitute(value, captured) {
  if (Array.isArray(value)) return value.map((item) => substitute(item, captured));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, captured)]));
  }
  if (typeof value === "string" && value.startsWith("${") && value.endsWith("}")) {
    return captured.get(value.slice(2, -1)) ?? "not-captured";
  }
  return value;
}

/** Calls that answer an elicitation or use a captured value run one at a time, after the rest. */
export function runsAlone(call) {
  return "elicitation" in call || JSON.stringify(call.arguments).includes("${");
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function pool(items, limit, work) {
  const queue = [...items];
  const workers = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    while (queue.length) await work(queue.shift());
  });
  await Promise.all(workers);
}

/** Counts and reports the calls of one client on one transport. */
export class Tally {
  constructor(label, calls, conditions) {
    this.label = label;
    this.calls = calls;
    this.conditions = conditions;
    this.captured = new Map();
    this.made = 0;
    this.rejected = 0;
    this.unexpected = 0;
    this.started = performance.now();
  }

  say(text) {
    console.log(`clients: ${this.label}: ${oneLine(text)}`);
  }

  reject(what, text) {
    this.rejected += 1;
    this.say(`REJECTED ${what}: ${text}`);
  }

  surprise(what, text) {
    this.unexpected += 1;
    this.say(`UNEXPECTED ${what}: ${text}`);
  }

  /** Checks a result against the call's expectation and keeps what the call captures. */
  judge(call, result) {
    const want = expected(call, this.conditions);
    const got = outcome(result);
    if (got !== want) this.surprise(call.id, `expected ${want}, got ${got}: ${firstLine(result)}`);
    const sessionId = result.structuredContent?.sessionId;
    if (call.capture && typeof sessionId === "string") this.captured.set(call.capture, sessionId);
  }

  /** Checks what a read, a prompt or a completion gave (`got`) against `want` (JSON-equal). */
  judgeOffer(what, want, got) {
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      this.surprise(what, `expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }

  /** Checks that every tool the scenarios call was listed. */
  listed(names) {
    const missing = [...new Set(this.calls.map((call) => call.tool))].filter((tool) => !names.includes(tool));
    if (missing.length) this.surprise("tools/list", `no tool named ${missing.join(", ")}`);
  }

  /** Prints the summary line; returns the exit status (1 on any rejection or surprise). */
  finish(listing) {
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    this.say(`${listing}; ${this.made} calls; ${this.rejected} rejected; ${this.unexpected} unexpected (${seconds} s)`);
    return this.rejected || this.unexpected || this.made !== this.calls.length ? 1 : 0;
  }
}

/** A message on one line: the SDKs' validation messages span several. */
export function oneLine(text) {
  return String(text).trim().split(/\s*\n\s*/).join(" | ");
}
