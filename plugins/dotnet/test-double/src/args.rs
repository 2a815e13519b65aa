//! Reading options out of an argument list the way System.CommandLine and MSBuild accept them:
//! `--name value`, `--name:value` and `--name=value`. Everything after `--` is left alone.

/// The options of build-like commands that take a value, so that their values are not
/// mistaken for positional arguments.
pub const VALUED: &[&str] = &[
    "-c",
    "--configuration",
    "-f",
    "--framework",
    "-r",
    "--runtime",
    "-o",
    "--output",
    "-v",
    "--verbosity",
    "-a",
    "--arch",
    "--os",
    "-s",
    "--source",
    "--version-suffix",
    "--artifacts-path",
    "--packages",
    "--configfile",
    "--project",
    "-p",
    "--property",
    "-l",
    "--logger",
    "--filter",
    "--collect",
    "--results-directory",
    "--settings",
    "-lp",
    "--launch-profile",
    "--diagnostics",
    "--severity",
    "--include",
    "--exclude",
    "--version",
    "--startup-project",
    "--context",
    "--output-dir",
    "--context-dir",
    "--connection",
    "--from",
    "--to",
    "--take",
    "--skip",
    "--format",
    "--tool-path",
    "--export-path",
    "-ep",
    "--password",
    "--id",
    "--nuget-source",
    "--add-source",
    "--sln",
    "-n",
    "--name",
    "-lang",
    "--language",
    "--type",
    "--columns",
    "--tag",
    "--author",
    "--package",
];

fn before_double_dash(args: &[String]) -> &[String] {
    match args.iter().position(|a| a == "--") {
        Some(i) => &args[..i],
        None => args,
    }
}

/// The value of an option form (`--name value`, `--name:value`, `--name=value`) at `arg`, if
/// `arg` is one of `names`; `next` is the argument after it.
fn value_at(arg: &str, next: Option<&String>, names: &[&str]) -> Option<Option<String>> {
    for name in names {
        if arg == *name {
            return Some(next.cloned());
        }
        if let Some(rest) = arg.strip_prefix(name)
            && let Some(v) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('='))
        {
            return Some(Some(v.to_string()));
        }
    }
    None
}

/// The value of the first of `names` present.
pub fn value(args: &[String], names: &[&str]) -> Option<String> {
    values(args, names).into_iter().next()
}

/// The values of every occurrence of `names`, in order.
pub fn values(args: &[String], names: &[&str]) -> Vec<String> {
    let args = before_double_dash(args);
    let mut found = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let Some(Some(v)) = value_at(a, args.get(i + 1), names) {
            found.push(v);
        }
    }
    found
}

/// Whether one of the flags `names` is present.
pub fn flag(args: &[String], names: &[&str]) -> bool {
    before_double_dash(args).iter().any(|a| names.contains(&a.as_str()))
}

/// The arguments that are neither options nor option values (before any `--`).
pub fn positionals(args: &[String]) -> Vec<String> {
    let args = before_double_dash(args);
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if VALUED.contains(&a.as_str()) {
            i += 2;
            continue;
        }
        if !a.starts_with('-') || a == "-" {
            out.push(a.clone());
        }
        i += 1;
    }
    out
}

/// MSBuild-style `-p:Name=Value` / `--property:Name=Value` / `/p:Name=Value` pairs.
pub fn msbuild_properties(args: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for a in before_double_dash(args) {
        let body = ["-property:", "--property:", "/property:", "-p:", "--p:", "/p:"]
            .iter()
            .find_map(|p| strip_prefix_ignore_case(a, p));
        if let Some(body) = body {
            for pair in body.split(';') {
                if let Some((k, v)) = pair.split_once('=') {
                    out.push((k.trim().to_string(), v.to_string()));
                }
            }
        }
    }
    out
}

/// `s` without `prefix`, compared without regard to ASCII case.
pub fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    if s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix) {
        Some(&s[prefix.len()..])
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_all_option_forms() {
        let a = v(&["build", "-c", "Release", "--framework:net8.0", "-o=out", "--", "-c", "x"]);
        assert_eq!(value(&a, &["-c", "--configuration"]).as_deref(), Some("Release"));
        assert_eq!(value(&a, &["-f", "--framework"]).as_deref(), Some("net8.0"));
        assert_eq!(value(&a, &["-o", "--output"]).as_deref(), Some("out"));
        assert_eq!(positionals(&a), v(&["build"]));
    }

    #[test]
    fn reads_msbuild_properties() {
        let a = v(&["-p:Configuration=Release;Version=2.0.0", "/P:Foo=bar"]);
        assert_eq!(
            msbuild_properties(&a),
            vec![
                ("Configuration".into(), "Release".into()),
                ("Version".into(), "2.0.0".into()),
                ("Foo".into(), "bar".into())
            ]
        );
    }
}
