//! `dotnet test`, in the VSTest format (per-assembly `Passed!`/`Failed!` summary lines,
//! `Failed <name> [N ms]` blocks with `Error Message:` and `Stack Trace:`) or the
//! Microsoft.Testing.Platform format (`failed <name> (N ms)` lines and a
//! `Test run summary:` block with lower-case counts).
//!
//! The runner is VSTest unless `DOTNET_DOUBLE_TEST_RUNNER=mtp` or the nearest global.json sets
//! `test.runner` to `Microsoft.Testing.Platform`, as the SDK decides it. Results come from
//! `fixtures/test/results.json`: the n-th test project gets the n-th entry (cycling), and only
//! under `test-fail` do the entries' failures fail.

use serde::Deserialize;

use crate::args;
use crate::cmd::build::{self, Opts};
use crate::ctx::{Ctx, Scenario, TestRunner};
use crate::fixture::Vars;
use crate::host;
use crate::out;
use crate::target::Project;

const RESULTS: &str = crate::fixture::body(include_str!("../../fixtures/test/results.json"));
const MSB1001: &str = crate::fixture::body(include_str!("../../fixtures/test/msb1001.txt"));

#[derive(Deserialize)]
struct Results {
    assemblies: Vec<Assembly>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Assembly {
    passed: u32,
    duration_ms: u64,
    tests: Vec<String>,
    skipped: Vec<String>,
    failures: Vec<Failure>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Failure {
    name: String,
    duration_ms: u64,
    message: Vec<String>,
    stack_trace: Vec<String>,
}

/// The counts of one assembly's run.
#[derive(Default, Clone, Copy)]
struct Counts {
    passed: u32,
    failed: u32,
    skipped: u32,
    duration_ms: u64,
}

impl Counts {
    fn total(&self) -> u32 {
        self.passed + self.failed + self.skipped
    }

    fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
        self.duration_ms += other.duration_ms;
    }
}

/// The runner selected by the environment or the nearest global.json.
pub fn runner(ctx: &Ctx) -> TestRunner {
    if let Some(r) = ctx.test_runner {
        return r;
    }
    let mtp = host::global_json(ctx)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .is_some_and(|json| {
            json.pointer("/test/runner").and_then(|r| r.as_str()) == Some("Microsoft.Testing.Platform")
        });
    if mtp { TestRunner::Mtp } else { TestRunner::VsTest }
}

/// How to run and report the tests.
pub struct Run {
    runner: TestRunner,
    list_only: bool,
    trx: bool,
    coverage: bool,
    results_dir: Option<String>,
}

impl Run {
    /// Reads the test options from `args`.
    pub fn from_args(ctx: &Ctx, args: &[String]) -> Run {
        let loggers = args::values(args, &["-l", "--logger"]);
        Run {
            runner: runner(ctx),
            list_only: args::flag(args, &["-t", "--list-tests"]),
            trx: loggers.iter().any(|l| l.to_ascii_lowercase().starts_with("trx")),
            coverage: args::value(args, &["--collect"]).is_some(),
            results_dir: args::value(args, &["--results-directory"])
                .map(|d| crate::target::normalize(&ctx.cwd.join(d)).display().to_string()),
        }
    }

    /// Runs the test assemblies of `projects` and prints their results. Returns whether every
    /// test passed.
    pub fn report(&self, ctx: &Ctx, projects: &[Project], opts: &Opts) -> bool {
        let results: Results = serde_json::from_str(RESULTS).expect("results.json is valid");
        let mut all_passed = true;
        let mut total = Counts::default();
        let mut dlls = Vec::new();
        for (i, p) in projects.iter().enumerate() {
            let assembly = &results.assemblies[i % results.assemblies.len()];
            let vars = p.vars(ctx).with("tfm", &opts.framework);
            let dll = format!("{}{}.dll", opts.bin_dir(p), p.name);
            if i == 0 {
                out::phase(ctx, "  Running tests...", false);
            }
            let counts = match (self.runner, self.list_only) {
                (_, true) => {
                    self.list(&dll, opts, assembly, &vars);
                    continue;
                }
                (TestRunner::VsTest, false) => self.vstest(ctx, p, &dll, opts, assembly, i == 0),
                (TestRunner::Mtp, false) => self.mtp(ctx, &dll, opts, assembly, i == 0, &vars),
            };
            all_passed &= counts.failed == 0;
            total.add(counts);
            dlls.push(dll);
        }
        if self.runner == TestRunner::Mtp && !self.list_only {
            let verdict = if all_passed { "Passed!" } else { "Failed!" };
            out::line("");
            match dlls.as_slice() {
                [dll] => out::line(&format!("Test run summary: {verdict} - {dll} ({}|x64)", opts.framework)),
                _ => out::line(&format!("Test run summary: {verdict}")),
            }
            out::line(&format!("  total: {}", total.total()));
            out::line(&format!("  failed: {}", total.failed));
            out::line(&format!("  succeeded: {}", total.passed));
            out::line(&format!("  skipped: {}", total.skipped));
            out::line(&format!("  duration: {}", mtp_duration(total.duration_ms)));
        }
        all_passed
    }

    /// Under `test-fail` only the first assembly's failures fail, so that a solution shows
    /// one `Failed!` and one `Passed!` summary.
    fn counts(ctx: &Ctx, assembly: &Assembly, first: bool) -> (Counts, bool) {
        let failing = ctx.has(Scenario::TestFail) && first;
        let failed = if failing { assembly.failures.len() as u32 } else { 0 };
        let passed = assembly.passed + if failing { 0 } else { assembly.failures.len() as u32 };
        let counts =
            Counts { passed, failed, skipped: assembly.skipped.len() as u32, duration_ms: assembly.duration_ms };
        (counts, failing)
    }

    fn vstest_header(&self, dll: &str, opts: &Opts, ctx: &Ctx) {
        let version = opts.framework.trim_start_matches("net");
        out::line(&format!("Test run for {dll} (.NETCoreApp,Version=v{version})"));
        out::line(&format!("VSTest version {} (x64)", vstest_version(ctx)));
        out::line("");
    }

    fn list(&self, dll: &str, opts: &Opts, assembly: &Assembly, vars: &Vars) {
        if self.runner == TestRunner::VsTest {
            let version = opts.framework.trim_start_matches("net");
            out::line(&format!("Test run for {dll} (.NETCoreApp,Version=v{version})"));
            out::line("");
        } else {
            out::line(&format!("Running tests from {dll} ({}|x64)", opts.framework));
        }
        out::line("The following Tests are available:");
        for t in &assembly.tests {
            out::line(&format!("    {}", vars.render(t)));
        }
    }

    fn vstest(&self, ctx: &Ctx, project: &Project, dll: &str, opts: &Opts, assembly: &Assembly, first: bool) -> Counts {
        let vars = &project.vars(ctx).with("tfm", &opts.framework);
        let (counts, failing) = Self::counts(ctx, assembly, first);
        self.vstest_header(dll, opts, ctx);
        out::line("Starting test execution, please wait...");
        out::line("A total of 1 test files matched the specified pattern.");
        if failing {
            for f in &assembly.failures {
                out::line(&format!("  Failed {} [{} ms]", vars.render(&f.name), f.duration_ms));
                out::line("  Error Message:");
                for (i, m) in f.message.iter().enumerate() {
                    let indent = if i == 0 { "   " } else { "" };
                    out::line(&format!("{indent}{}", vars.render(m)));
                }
                out::line("  Stack Trace:");
                for (i, s) in f.stack_trace.iter().enumerate() {
                    let indent = if i == 0 { "     " } else { "   " };
                    out::line(&format!("{indent}{}", vars.render(s)));
                }
                out::line("");
            }
        }
        for s in &assembly.skipped {
            out::line(&format!("  Skipped {} [1 ms]", vars.render(s)));
        }
        let results_dir =
            self.results_dir.clone().unwrap_or_else(|| format!("{}/TestResults", project.dir().display()));
        if self.trx {
            out::line(&format!("Results File: {results_dir}/_double_2026-01-15_10_00_00.trx"));
        }
        if self.coverage {
            out::line("");
            out::line("Attachments:");
            out::line(&format!("  {results_dir}/3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f/coverage.cobertura.xml"));
        }
        out::line("");
        let verdict = if counts.failed > 0 { "Failed!" } else { "Passed!" };
        let file = dll.rsplit('/').next().unwrap_or(dll);
        out::line(&format!(
            "{verdict}  - Failed: {:>5}, Passed: {:>5}, Skipped: {:>5}, Total: {:>5}, Duration: {} - {file} ({})",
            counts.failed,
            counts.passed,
            counts.skipped,
            counts.total(),
            vstest_duration(counts.duration_ms),
            opts.framework
        ));
        counts
    }

    fn mtp(&self, ctx: &Ctx, dll: &str, opts: &Opts, assembly: &Assembly, first: bool, vars: &Vars) -> Counts {
        let (counts, failing) = Self::counts(ctx, assembly, first);
        let target = format!("{dll} ({}|x64)", opts.framework);
        out::line(&format!("Running tests from {target}"));
        if failing {
            for f in &assembly.failures {
                out::line(&format!("failed {} ({}ms)", vars.render(&f.name), f.duration_ms));
                for m in &f.message {
                    out::line(&format!("  {}", vars.render(m)));
                }
                out::line("  Stack Trace:");
                for s in &f.stack_trace {
                    out::line(&format!("    {}", vars.render(s)));
                }
            }
        }
        for s in &assembly.skipped {
            out::line(&format!("skipped {} (0ms)", vars.render(s)));
        }
        let duration = mtp_duration(counts.duration_ms);
        if counts.failed > 0 {
            out::line(&format!("{target} failed with {} error(s) ({duration})", counts.failed));
        } else {
            out::line(&format!("{target} passed ({duration})"));
        }
        counts
    }
}

/// The VSTest version bundled with the SDK.
fn vstest_version(ctx: &Ctx) -> &'static str {
    match ctx.sdk_major() {
        0..=8 => "17.11.1",
        9 => "17.14.1",
        _ => "18.0.1",
    }
}

/// VSTest's summary duration: `< 1 ms`, `N ms`, `N s`, `N m N s`.
fn vstest_duration(ms: u64) -> String {
    match ms {
        0 => "< 1 ms".into(),
        1..=999 => format!("{ms} ms"),
        1000..=59_999 => format!("{} s", ms / 1000),
        _ => format!("{} m {} s", ms / 60_000, ms % 60_000 / 1000),
    }
}

/// Microsoft.Testing.Platform's duration: `842ms`, `4s 210ms`, `1m 05s 120ms`.
fn mtp_duration(ms: u64) -> String {
    match ms {
        0..=999 => format!("{ms}ms"),
        1000..=59_999 => format!("{}s {:03}ms", ms / 1000, ms % 1000),
        _ => format!("{}m {:02}s {:03}ms", ms / 60_000, ms % 60_000 / 1000, ms % 1000),
    }
}

/// `dotnet test`.
pub fn test(ctx: &Ctx, args: &[String]) -> u8 {
    let run = Run::from_args(ctx, args);
    if run.runner == TestRunner::VsTest && args::value(args, &["--project"]).is_some() {
        let shown = args.join(" ");
        out::text(&ctx.vars().with("args", &shown).render(MSB1001));
        return 1;
    }
    let target = match build::resolve(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Debug");
    let built = if args::flag(args, &["--no-build"]) {
        target.projects.clone()
    } else {
        let (built, diags) = build::restore_and_compile(ctx, &target, &opts, None);
        if diags.failed() {
            return 1;
        }
        built
    };
    let tests: Vec<Project> =
        if target.is_solution { built.into_iter().filter(Project::is_test).collect() } else { built };
    u8::from(!run.report(ctx, &tests, &opts))
}

#[cfg(test)]
mod tests {
    use super::{mtp_duration, vstest_duration};

    #[test]
    fn durations_format_like_the_runners() {
        assert_eq!(vstest_duration(0), "< 1 ms");
        assert_eq!(vstest_duration(842), "842 ms");
        assert_eq!(vstest_duration(4210), "4 s");
        assert_eq!(vstest_duration(65_000), "1 m 5 s");
        assert_eq!(mtp_duration(842), "842ms");
        assert_eq!(mtp_duration(4210), "4s 210ms");
        assert_eq!(mtp_duration(65_120), "1m 05s 120ms");
    }
}
