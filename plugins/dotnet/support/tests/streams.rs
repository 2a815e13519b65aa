//! Redaction of a real process whose stdout and stderr interleave: each stream carries a private
//! key, printed a line at a time with lines of the other stream (its key's lines, a note) in
//! between (the script pauses between lines so that the reader is likely to see them in that
//! order; the unit test `interleaved_streams_are_redacted_each_by_itself_in_every_order` of
//! `redact` covers every order). Whatever order the lines arrive
//! in, no line of either key reaches the transcript, the progress messages or either stream's
//! output, and every ordinary line does.

#![cfg(unix)]

use dotnet_support::{
    exec::{self, Command, ProgressKind},
    settings::DotnetSettings,
};

const OUT_KEY: [&str; 3] =
    ["MIIEowIBAAKCAQEAstdoutKeyLine1xx", "c3Rkb3V0S2V5TGluZTJzZWNyZXQ=", "b3V0MyBzZWNyZXQgbGluZQ=="];
const ERR_KEY: [&str; 3] =
    ["MIIEvQIBADANBgkqstderrKeyLine1yy", "c3RkZXJyS2V5TGluZTJzZWNyZXQ=", "ZXJyMyBzZWNyZXQgbGluZQ=="];

#[test]
fn a_private_key_on_each_stream_is_hidden_however_the_streams_interleave() {
    let scratch = tempfile::tempdir().unwrap();
    let script = scratch.path().join("interleave.sh");
    let mut body = String::from(
        "out() { printf '%s\\n' \"$1\"; sleep 0.05; }\nerr() { printf '%s\\n' \"$1\" >&2; sleep 0.05; }\n",
    );
    body.push_str("out '-----BEGIN RSA PRIVATE KEY-----'\nerr 'warning: first stderr line'\n");
    body.push_str("err '-----BEGIN PRIVATE KEY-----'\n");
    for (out, err) in OUT_KEY.iter().zip(ERR_KEY) {
        body.push_str(&format!("out '{out}'\nerr '{err}'\n"));
    }
    body.push_str(
        "out '-----END RSA PRIVATE KEY-----'\nerr 'note: the stdout key ended'\nerr '-----END PRIVATE KEY-----'\n",
    );
    body.push_str("out 'Build succeeded.'\n");
    std::fs::write(&script, body).unwrap();
    let settings = DotnetSettings { dotnet_path: Some("/bin/sh".into()), ..DotnetSettings::default() };
    let command =
        Command::new(vec![script.display().to_string()], scratch.path(), "interleaving").progress(ProgressKind::Lines);
    let call = mcp_plugin_api::testkit::TestCall::new();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let ran = runtime.block_on(exec::run(&settings, &call.context(), command)).expect("the script runs");
    assert!(ran.succeeded(), "{}", ran.outcome.transcript);
    let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    let outcome = &ran.outcome;
    for (what, text) in [
        ("transcript", outcome.transcript.clone()),
        ("stdout", outcome.stdout.clone()),
        ("stderr", outcome.stderr.clone()),
        ("progress", progress.join("\n")),
    ] {
        for secret in OUT_KEY.iter().chain(&ERR_KEY) {
            assert!(!text.contains(secret), "{secret} reached the {what}:\n{text}");
        }
    }
    let transcript: Vec<&str> = outcome.transcript.lines().collect();
    for line in ["warning: first stderr line", "note: the stdout key ended", "Build succeeded."] {
        assert!(transcript.contains(&line), "{line} is kept:\n{}", outcome.transcript);
    }
    for marker in ["-----END RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----"] {
        assert!(transcript.contains(&marker), "{marker} frames the redaction:\n{}", outcome.transcript);
    }
}
