//! The held-out corpus (`tests/heldout/corpus.jsonl`; who wrote it and how: its README) through
//! every path by which a dotnet plugin's output reaches a client:
//!
//! - `text`: [`redact::redact`], what tool text, `RunOutcome::into_redacted` and the error
//!   envelope's messages use;
//! - `structured`: [`redact::redact_json`] on the entry's structured form (or its text as a string
//!   field), what structuredContent goes through;
//! - `progress`: [`exec::run`] on a real process (`cat` printing the entry) with line progress:
//!   every progress message and the run's redacted stdout;
//! - `session log`: [`redact::LineRedactor`] line by line, what background sessions keep and
//!   their logs action returns;
//! - `failure`: [`ErrorResponse::from_failed_run`] with the entry as the failed command's output,
//!   what a failing command's envelope carries.
//!
//! (No dotnet plugin sends MCP log notifications: none calls the context's logger. A plugin that
//! starts to must pass its messages through `redact` first; the `text` path measures that.)
//!
//! A leak is a listed secret substring that survives on a path; an over-redaction is a clean
//! entry (no secrets listed) that a path changes; damage is an entry whose `keep` substrings (the
//! non-secret text around a secret: the rest of its line, its neighbours, a path) do not all
//! survive on a path that shows them. The test prints the three per path and per batch, and fails
//! on any in a batch that is not open ([`OPEN_BATCHES`]), but the known leaks it was closed with
//! ([`KNOWN_LEAKS`]).

#![cfg(unix)]

use std::path::Path;

use dotnet_support::{
    errors::ErrorResponse,
    exec::{self, Command, ProgressKind},
    redact::{LineRedactor, redact, redact_json},
    settings::DotnetSettings,
};
use serde_json::{Value, json};

const CORPUS: &str = include_str!("heldout/corpus.jsonl");

/// Batches whose classes are not all closed yet (issue 24): measured and printed, not held. A
/// batch leaves this list when it reaches issue 24's goal (at most 2 % leaked, 3 % over-redacted,
/// no damage); every other batch fails the test on any defect but the [`KNOWN_LEAKS`] it left
/// with, so a closed class cannot reopen. A new batch enters the list when it is committed, before
/// it is first measured.
const OPEN_BATCHES: &[u64] = &[];

/// Entries of a held batch whose secret still leaks, each a form the rules do not cover (see the
/// corpus README, "Known limits"): printed, not failed. Any other leak, any over-redaction and
/// any damage fails the test; an entry that stops leaking must leave this list (the test says so).
const KNOWN_LEAKS: &[&str] = &[
    "b6-wrapped-token-terminal",
    "b6-snyk-config-api-guid",
    "b6-scala-case-class-positional",
    "b6-neo4j-auth-env",
    "b6-influx-auth-create",
    "b6-form-urlencoded-json-payload",
    "b6-bundle-config-output",
    "b7-key-postmark-ildasm",
    "b7-az-keyvault-secret-show-tsv",
    "b7-yarp-config-transform-header",
    "b8-ef-sensitive-params-apikey-column",
    "b8-env-dump-nonsecret-names",
    "b8-fernet-key-python",
    "b9-dotnet-dump-analyze-dumpobj-string",
    "b9-tsv-az-rest-query-output",
    "b9-wrapped-connection-string-format-table-wrap",
];

/// The entry of [`KNOWN_LEAKS`] a leak (`"<id> (<secret>)"`) belongs to, if any.
fn known_leak(leak: &str) -> Option<&'static str> {
    KNOWN_LEAKS.iter().copied().find(|id| leak.starts_with(&format!("{id} (")))
}

struct Entry {
    id: String,
    batch: u64,
    text: String,
    json: Option<Value>,
    secrets: Vec<String>,
    keep: Vec<String>,
}

fn corpus() -> Vec<Entry> {
    CORPUS
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: Value =
                serde_json::from_str(line).unwrap_or_else(|error| panic!("bad corpus line {line}: {error}"));
            let list = |field: &str| -> Vec<String> {
                value.get(field).and_then(Value::as_array).map_or_else(Vec::new, |items| {
                    items.iter().map(|s| s.as_str().expect("a string").to_owned()).collect()
                })
            };
            Entry {
                id: value["id"].as_str().expect("id").to_owned(),
                batch: value["batch"].as_u64().expect("batch"),
                text: value["text"].as_str().expect("text").to_owned(),
                json: value.get("json").cloned(),
                secrets: list("secrets"),
                keep: list("keep"),
            }
        })
        .collect()
}

/// Every string in a JSON value (keys too), one per line.
fn strings(value: &Value) -> String {
    let mut out = String::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => {
                for (key, value) in map {
                    out.push_str(key);
                    out.push('\n');
                    pending.push(value);
                }
            }
            _ => {}
        }
    }
    out
}

/// What one path made of one entry: everything it shows, whether it kept a clean entry as is,
/// and what it would show without redaction (a `keep` substring counts on a path that shows it).
struct Shown {
    text: String,
    unchanged: bool,
    original: String,
}

fn text_path(entry: &Entry) -> Option<Shown> {
    (!entry.text.is_empty()).then(|| {
        let out = redact(&entry.text);
        Shown { unchanged: out == entry.text, text: out.into_owned(), original: entry.text.clone() }
    })
}

fn structured_path(entry: &Entry) -> Option<Shown> {
    let before = entry.json.clone().unwrap_or_else(|| json!({ "stdout": entry.text }));
    let mut after = before.clone();
    redact_json(&mut after);
    Some(Shown { text: strings(&after), unchanged: after == before, original: strings(&before) })
}

fn session_log_path(entry: &Entry) -> Option<Shown> {
    (!entry.text.is_empty()).then(|| {
        let mut redactor = LineRedactor::new();
        let kept: Vec<String> =
            entry.text.lines().filter_map(|line| redactor.line(line)).map(|line| line.into_owned()).collect();
        let text = kept.join("\n");
        let original = entry.text.lines().collect::<Vec<_>>().join("\n");
        Shown { unchanged: text == original, text, original }
    })
}

fn failure_path(entry: &Entry) -> Option<Shown> {
    (!entry.text.is_empty()).then(|| {
        let envelope = ErrorResponse::from_failed_run(&["dotnet", "build"], 1, &entry.text, &entry.text);
        let value = serde_json::to_value(&envelope).expect("the envelope serializes");
        // The envelope adds its own words: a clean entry is kept when each of its lines reaches
        // the envelope untouched.
        let shown = strings(&value);
        let unchanged =
            entry.text.lines().map(str::trim).filter(|line| !line.is_empty()).all(|line| shown.contains(line));
        // The envelope trims the end of the output whatever redaction does: what this path would
        // show unredacted is the text without its trailing blanks.
        Shown { text: shown, unchanged, original: entry.text.trim_end().to_owned() }
    })
}

/// `cat` stands in for dotnet: the runner reads its lines, `exec::run` masks, redacts and reports
/// each one as progress, then redacts the kept output.
fn progress_path(entry: &Entry, scratch: &Path, runtime: &tokio::runtime::Runtime) -> Option<Shown> {
    if entry.text.is_empty() {
        return None;
    }
    let file = scratch.join(format!("{}.txt", entry.id));
    std::fs::write(&file, &entry.text).expect("the entry is written");
    let settings = DotnetSettings { dotnet_path: Some("/bin/cat".into()), ..DotnetSettings::default() };
    let command = Command::new(vec![file.display().to_string()], scratch, "printing").progress(ProgressKind::Lines);
    let call = mcp_plugin_api::testkit::TestCall::new();
    let ran = runtime.block_on(exec::run(&settings, &call.context(), command)).expect("cat runs");
    assert!(ran.succeeded(), "{}: cat failed", entry.id);
    let messages: Vec<String> = call.progress().into_iter().skip(1).filter_map(|report| report.message).collect();
    let expected: Vec<&str> = entry.text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    // The runner delivers lines without their `\r` (CRLF output reads as LF), whatever redaction
    // does: what this path would show unredacted is the text with LF endings.
    let original = entry.text.replace("\r\n", "\n");
    let unchanged = messages == expected && ran.outcome.stdout.trim_end() == original.trim_end();
    Some(Shown { text: format!("{}\n{}", messages.join("\n"), ran.outcome.stdout), unchanged, original })
}

#[derive(Default)]
struct Tally {
    entries: usize,
    secrets: usize,
    leaks: Vec<String>,
    clean: usize,
    over_redacted: Vec<String>,
    with_keep: usize,
    damaged: Vec<String>,
}

impl Tally {
    fn add(&mut self, entry: &Entry, shown: &Shown) {
        self.entries += 1;
        if entry.secrets.is_empty() {
            self.clean += 1;
            if !shown.unchanged {
                self.over_redacted.push(entry.id.clone());
            }
        }
        for secret in &entry.secrets {
            self.secrets += 1;
            if shown.text.contains(secret.as_str()) {
                self.leaks.push(format!("{} ({secret})", entry.id));
            }
        }
        let keep: Vec<&String> = entry.keep.iter().filter(|keep| shown.original.contains(keep.as_str())).collect();
        if !keep.is_empty() {
            self.with_keep += 1;
            let lost: Vec<&&String> = keep.iter().filter(|keep| !shown.text.contains(keep.as_str())).collect();
            if !lost.is_empty() {
                self.damaged.push(format!("{} (lost {lost:?})", entry.id));
            }
        }
    }

    fn line(&self) -> String {
        format!(
            "{} entries, {} / {} secrets leaked, {} / {} clean entries over-redacted, {} / {} entries with keep damaged",
            self.entries,
            self.leaks.len(),
            self.secrets,
            self.over_redacted.len(),
            self.clean,
            self.damaged.len(),
            self.with_keep
        )
    }

    /// Leaks of entries not in [`KNOWN_LEAKS`].
    fn new_leaks(&self) -> impl Iterator<Item = &String> {
        self.leaks.iter().filter(|leak| known_leak(leak).is_none())
    }

    fn failed(&self) -> bool {
        self.new_leaks().next().is_some() || !self.over_redacted.is_empty() || !self.damaged.is_empty()
    }
}

/// `HELDOUT_BATCHES=7,8` limits a run to those batches and `HELDOUT_NO_PROGRESS=1` skips the
/// progress path (a process per entry, the slow one), for quick iterations while writing rules;
/// the default run takes every batch on every path.
#[test]
fn no_secret_of_the_held_out_corpus_survives_any_path_and_clean_lines_stay_untouched() {
    let corpus = corpus();
    let corpus = match std::env::var("HELDOUT_BATCHES") {
        Ok(list) => {
            let wanted: Vec<u64> =
                list.split(',').map(|b| b.trim().parse().expect("HELDOUT_BATCHES: numbers")).collect();
            corpus.into_iter().filter(|entry| wanted.contains(&entry.batch)).collect()
        }
        Err(_) => corpus,
    };
    let with_progress = std::env::var_os("HELDOUT_NO_PROGRESS").is_none();
    let scratch = std::env::temp_dir().join(format!("dotnet-support-heldout-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();

    type Path_<'a> = Box<dyn Fn(&Entry) -> Option<Shown> + 'a>;
    let mut paths: Vec<(&str, Path_)> = vec![
        ("text", Box::new(text_path)),
        ("structured", Box::new(structured_path)),
        ("session log", Box::new(session_log_path)),
        ("failure", Box::new(failure_path)),
    ];
    if with_progress {
        paths.insert(2, ("progress", Box::new(|entry| progress_path(entry, &scratch, &runtime))));
    }
    let mut batches: Vec<u64> = corpus.iter().map(|entry| entry.batch).collect();
    batches.sort_unstable();
    batches.dedup();
    let mut report = String::new();
    let mut failed = false;
    let mut leaked_ids: Vec<&str> = Vec::new();
    for (name, path) in &paths {
        let mut tally = Tally::default();
        let mut per_batch: Vec<(u64, Tally)> = batches.iter().map(|batch| (*batch, Tally::default())).collect();
        for entry in &corpus {
            let Some(shown) = path(entry) else { continue };
            tally.add(entry, &shown);
            if let Some((_, batch)) = per_batch.iter_mut().find(|(batch, _)| *batch == entry.batch) {
                batch.add(entry, &shown);
            }
        }
        report.push_str(&format!("{name:>12}: {}\n", tally.line()));
        for (batch, tally) in &per_batch {
            report.push_str(&format!("{:>12}  batch {batch}: {}\n", "", tally.line()));
        }
        for leak in &tally.leaks {
            let known = known_leak(leak);
            let label = if known.is_some() { " (known)" } else { "" };
            report.push_str(&format!("{:>12}  leak{label}: {leak}\n", ""));
            leaked_ids.extend(known);
        }
        for id in &tally.over_redacted {
            report.push_str(&format!("{:>12}  over-redacted: {id}\n", ""));
        }
        for id in &tally.damaged {
            report.push_str(&format!("{:>12}  damaged: {id}\n", ""));
        }
        failed |= per_batch.iter().any(|(batch, tally)| !OPEN_BATCHES.contains(batch) && tally.failed());
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let fixed: Vec<&&str> = KNOWN_LEAKS
        .iter()
        .filter(|id| corpus.iter().any(|entry| entry.id == **id) && !leaked_ids.contains(id))
        .collect();
    assert!(fixed.is_empty(), "no longer leaking, remove from KNOWN_LEAKS: {fixed:?}\n{report}");
    assert!(!failed, "the held-out corpus found leaks, over-redactions or damage in a closed batch:\n{report}");
    println!("{report}");
}
