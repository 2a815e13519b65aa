//! The MSBuild-driven commands: `restore`, `build`, `publish`, `pack`, `clean`, `run`,
//! `watch` and `format`, in the classic console logger's format (the terminal logger is off
//! when output is redirected, and the plugins switch it off explicitly).
//!
//! Progress lines go to stdout, and so do diagnostics: MSBuild's console logger writes its
//! errors and warnings to stdout. `build` and `clean` end with the logger's summary, which
//! repeats every warning and then every error before the `N Warning(s)` / `N Error(s)` lines.

use std::path::PathBuf;

use crate::args;
use crate::cmd::test;
use crate::ctx::{Ctx, Scenario};
use crate::fixture::Vars;
use crate::out;
use crate::target::{self, Project, Target};

const WARNINGS: &str = crate::fixture::body(include_str!("../../fixtures/build/warnings.txt"));
const ERRORS: &str = crate::fixture::body(include_str!("../../fixtures/build/errors.txt"));
const ERRORS_MSBUILD: &str = crate::fixture::body(include_str!("../../fixtures/build/errors-msbuild.txt"));
const RESTORE_WARNINGS: &str = crate::fixture::body(include_str!("../../fixtures/build/restore-warnings.txt"));
const RESTORE_ERRORS: &str = crate::fixture::body(include_str!("../../fixtures/build/restore-errors.txt"));
const CLEAN: &str = crate::fixture::body(include_str!("../../fixtures/build/clean.txt"));
const APP: &str = crate::fixture::body(include_str!("../../fixtures/run/app.txt"));
const APP_CRASH: &str = crate::fixture::body(include_str!("../../fixtures/run/crash.txt"));
const RUN_BUILD_FAILED: &str = crate::fixture::body(include_str!("../../fixtures/run/build-failed.txt"));
const WATCH_BANNER: &str = crate::fixture::body(include_str!("../../fixtures/run/watch-banner.txt"));

/// The options that shape build output paths.
#[derive(Clone, Debug)]
pub struct Opts {
    /// `-c`, defaulting per command (Release for publish and pack since SDK 8).
    pub configuration: String,
    /// `-f`, defaulting to the SDK's own target framework.
    pub framework: String,
    /// `-r`, or `--os`/`--arch`.
    pub runtime: Option<String>,
    /// `-o`, made absolute.
    pub output: Option<PathBuf>,
    /// `-v q[uiet]`: no progress lines.
    pub quiet: bool,
    /// `--no-restore`.
    pub no_restore: bool,
}

impl Opts {
    /// Reads the options from `args`.
    pub fn parse(ctx: &Ctx, args: &[String], default_configuration: &str) -> Opts {
        let runtime = args::value(args, &["-r", "--runtime"]).or_else(|| {
            let os = args::value(args, &["--os"]);
            let arch = args::value(args, &["-a", "--arch"]);
            (os.is_some() || arch.is_some())
                .then(|| format!("{}-{}", os.as_deref().unwrap_or("linux"), arch.as_deref().unwrap_or("x64")))
        });
        let verbosity = args::value(args, &["-v", "--verbosity"]).unwrap_or_default();
        Opts {
            configuration: args::value(args, &["-c", "--configuration"])
                .unwrap_or_else(|| default_configuration.to_string()),
            framework: args::value(args, &["-f", "--framework"]).unwrap_or_else(|| ctx.tfm()),
            runtime,
            output: args::value(args, &["-o", "--output"]).map(|o| target::normalize(&ctx.cwd.join(o))),
            quiet: matches!(verbosity.as_str(), "q" | "quiet"),
            no_restore: args::flag(args, &["--no-restore"]),
        }
    }

    /// `bin/<configuration>/<framework>/[<rid>/]` of a project, with a trailing slash.
    pub fn bin_dir(&self, project: &Project) -> String {
        let mut dir = format!("{}/bin/{}/{}/", project.dir().display(), self.configuration, self.framework);
        if let Some(rid) = &self.runtime {
            dir.push_str(rid);
            dir.push('/');
        }
        dir
    }

    /// The fixture values of a project under these options.
    pub fn vars(&self, ctx: &Ctx, target: &Target, project: &Project) -> Vars {
        project
            .vars(ctx)
            .with("configuration", &self.configuration)
            .with("tfm", &self.framework)
            .with("bin_dir", &self.bin_dir(project))
            .with("restore_root", &target.path.display().to_string())
    }
}

/// The diagnostics a build printed, kept for the summary.
#[derive(Default)]
pub struct Diagnostics {
    /// Warning lines, in the order printed.
    pub warnings: Vec<String>,
    /// Error lines, in the order printed.
    pub errors: Vec<String>,
}

impl Diagnostics {
    /// Prints the lines of a rendered diagnostics fixture and remembers them.
    fn emit(&mut self, rendered: &str) {
        for l in rendered.lines().filter(|l| !l.is_empty()) {
            out::line(l);
            if l.contains(": error ") {
                self.errors.push(l.to_string());
            } else {
                self.warnings.push(l.to_string());
            }
        }
    }

    /// Whether any error was printed.
    pub fn failed(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The console logger's closing summary.
    pub fn summary(&self) {
        out::line("");
        out::line(if self.failed() { "Build FAILED." } else { "Build succeeded." });
        if !self.warnings.is_empty() || !self.errors.is_empty() {
            out::line("");
        }
        self.warnings.iter().chain(&self.errors).for_each(|l| out::line(l));
        out::line(&format!("    {} Warning(s)", self.warnings.len()));
        out::line(&format!("    {} Error(s)", self.errors.len()));
        out::line("");
        out::line("Time Elapsed 00:00:02.41");
    }
}

fn progress(opts: &Opts, text: &str) {
    if !opts.quiet {
        out::line(text);
    }
}

/// Resolves the target from the first positional argument (or `--project`).
pub fn resolve(ctx: &Ctx, args: &[String]) -> Result<Target, u8> {
    let explicit = args::value(args, &["--project"]).or_else(|| target::positional_target(args));
    target::resolve(ctx, explicit.as_deref()).map_err(|m| m.report_msbuild())
}

/// The restore step every build-like command starts with. `fresh` prints one `Restored` line
/// per project (as `dotnet restore` does) instead of "All projects are up-to-date".
/// Returns false when restore failed (`restore-fail`).
pub fn restore_step(ctx: &Ctx, target: &Target, opts: &Opts, diags: &mut Diagnostics, fresh: bool) -> bool {
    progress(opts, "  Determining projects to restore...");
    let first = &target.projects[0];
    let vars = opts.vars(ctx, target, first);
    if ctx.has(Scenario::RestoreFail) {
        diags.emit(&vars.render(RESTORE_ERRORS));
        progress(opts, &format!("  Failed to restore {} (in 1.21 sec).", first.path.display()));
        return false;
    }
    if ctx.has(Scenario::BuildFail) {
        diags.emit(&vars.render(RESTORE_WARNINGS));
    }
    if fresh {
        for (i, p) in target.projects.iter().enumerate() {
            progress(opts, &format!("  Restored {} (in {} ms).", p.path.display(), 180 + 37 * i));
        }
    } else {
        progress(opts, "  All projects are up-to-date for restore.");
    }
    true
}

/// The compile step: diagnostics and `Name -> path` lines per project. Returns the projects
/// that built.
pub fn compile_step(ctx: &Ctx, target: &Target, opts: &Opts, diags: &mut Diagnostics) -> Vec<Project> {
    let mut built = Vec::new();
    for (i, p) in target.projects.iter().enumerate() {
        let vars = opts.vars(ctx, target, p);
        if i == 0 {
            diags.emit(&vars.render(WARNINGS));
        }
        if ctx.has(Scenario::BuildFail) {
            match (target.is_solution, i) {
                (false, _) | (true, 1) => diags.emit(&vars.render(ERRORS)),
                (true, 0) => diags.emit(&vars.render(ERRORS_MSBUILD)),
                // Projects that depend on the failed ones are not built and print nothing.
                _ => {}
            }
            continue;
        }
        let dll = match &opts.output {
            Some(o) => format!("{}/{}.dll", o.display(), p.name),
            None => format!("{}{}.dll", opts.bin_dir(p), p.name),
        };
        progress(opts, &format!("  {} -> {dll}", p.name));
        built.push(p.clone());
    }
    built
}

/// Restore and compile, as `build`, `publish`, `pack`, `test` and `watch` do before their own
/// work; `phase` labels the long stretch between the two (see [`out::phase`]), if the command
/// has it here. Returns the projects that built (empty on failure) and the diagnostics.
pub fn restore_and_compile(
    ctx: &Ctx,
    target: &Target,
    opts: &Opts,
    phase: Option<&str>,
) -> (Vec<Project>, Diagnostics) {
    let mut diags = Diagnostics::default();
    if !opts.no_restore && !restore_step(ctx, target, opts, &mut diags, false) {
        return (Vec::new(), diags);
    }
    if let Some(label) = phase {
        out::phase(ctx, &format!("  {label}"), false);
    }
    let built = compile_step(ctx, target, opts, &mut diags);
    (built, diags)
}

/// `dotnet restore`.
pub fn restore(ctx: &Ctx, args: &[String]) -> u8 {
    let target = match resolve(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Debug");
    let mut diags = Diagnostics::default();
    let ok = restore_step(ctx, &target, &opts, &mut diags, true);
    out::phase(ctx, "  Restoring packages...", false);
    u8::from(!ok)
}

/// `dotnet build` (and `dotnet msbuild` without evaluation switches).
pub fn build(ctx: &Ctx, args: &[String]) -> u8 {
    let target = match resolve(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Debug");
    let (_, diags) = restore_and_compile(ctx, &target, &opts, Some("Building..."));
    diags.summary();
    u8::from(diags.failed())
}

/// `dotnet publish`: no summary; one `Name -> publish dir/` line per publishable project.
pub fn publish(ctx: &Ctx, args: &[String]) -> u8 {
    let target = match resolve(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Release");
    let (built, diags) = restore_and_compile(ctx, &target, &opts, Some("Publishing..."));
    for p in built.iter().filter(|p| !p.is_test()) {
        let dir = match &opts.output {
            Some(o) => format!("{}/", o.display()),
            None => format!("{}publish/", opts.bin_dir(p)),
        };
        progress(&opts, &format!("  {} -> {dir}", p.name));
    }
    u8::from(diags.failed())
}

/// `dotnet pack`: no summary; one "Successfully created package" line per packable project.
pub fn pack(ctx: &Ctx, args: &[String]) -> u8 {
    let target = match resolve(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Release");
    let version = args::msbuild_properties(args)
        .into_iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("PackageVersion") || k.eq_ignore_ascii_case("Version"))
        .map(|(_, v)| v)
        .unwrap_or_else(|| "1.0.0".into());
    let symbols = args::flag(args, &["--include-symbols"]);
    let (built, diags) = restore_and_compile(ctx, &target, &opts, Some("Packing..."));
    for p in built.iter().filter(|p| !p.is_test()) {
        let dir = match &opts.output {
            Some(o) => o.display().to_string(),
            None => format!("{}/bin/{}", p.dir().display(), opts.configuration),
        };
        out::line(&format!("  Successfully created package '{dir}/{}.{version}.nupkg'.", p.name));
        if symbols {
            out::line(&format!("  Successfully created package '{dir}/{}.{version}.symbols.nupkg'.", p.name));
        }
    }
    u8::from(diags.failed())
}

/// `dotnet clean`: normal verbosity by default, so per-project target lines and a summary.
pub fn clean(ctx: &Ctx, args: &[String]) -> u8 {
    let target = match resolve(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Debug");
    out::phase(ctx, "  Cleaning...", false);
    for p in &target.projects {
        out::text(&opts.vars(ctx, &target, p).render(CLEAN));
    }
    Diagnostics::default().summary();
    0
}

/// The project `dotnet run` and `dotnet watch` start: `--project`, a positional project or the
/// working directory; for a solution, its first non-test project.
fn run_target(ctx: &Ctx, args: &[String]) -> Result<(Target, Project), u8> {
    let explicit = args::value(args, &["--project"]).or_else(|| target::positional_target(args));
    let target = match target::resolve(ctx, explicit.as_deref()) {
        Ok(t) => t,
        Err(target::Missing::None(dir)) => {
            out::err(&format!(
                "Couldn't find a project to run. Ensure a project exists in {}, or pass the path to the project using --project.",
                dir.display()
            ));
            return Err(1);
        }
        Err(target::Missing::Several(dir)) => {
            out::err(&format!(
                "Specify which project file to use because this '{}' contains more than one project file.",
                dir.display()
            ));
            return Err(1);
        }
    };
    let project = target.projects.iter().find(|p| !p.is_test()).unwrap_or(&target.projects[0]).clone();
    let single = Target { path: project.path.clone(), is_solution: false, projects: vec![project.clone()] };
    Ok((single, project))
}

/// Builds quietly, as `dotnet run` does; on failure prints the diagnostics and run's message.
fn quiet_build(ctx: &Ctx, target: &Target, opts: &Opts) -> bool {
    let quiet = Opts { quiet: true, ..opts.clone() };
    let mut diags = Diagnostics::default();
    let restored = opts.no_restore || restore_step(ctx, target, &quiet, &mut diags, false);
    if restored {
        compile_step(ctx, target, &quiet, &mut diags);
    }
    if diags.failed() {
        out::text(RUN_BUILD_FAILED);
        return false;
    }
    true
}

/// `dotnet run`: builds, then prints the app's output (`fixtures/run/app.txt`).
pub fn run(ctx: &Ctx, args: &[String]) -> u8 {
    let (target, project) = match run_target(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Debug");
    if !args::flag(args, &["--no-build"]) && !quiet_build(ctx, &target, &opts) {
        return 1;
    }
    if ctx.has(Scenario::AppCrash) {
        let dir = project.path.parent().map(|dir| dir.display().to_string()).unwrap_or_default();
        out::text(&Vars::default().with("project_dir", &dir).render(APP_CRASH));
        return 134;
    }
    out::text(APP);
    out::phase(ctx, &format!("info: {}.Worker[0] Worker running", project.name), false);
    0
}

/// `dotnet watch [run|test|build]`: builds, runs, then waits for file changes for
/// `DOTNET_DOUBLE_SLOW_SECS` seconds (streaming lines under `slow`) and exits 0.
pub fn watch(ctx: &Ctx, args: &[String]) -> u8 {
    let sub = args::positionals(args)
        .into_iter()
        .find(|a| matches!(a.as_str(), "run" | "test" | "build"))
        .unwrap_or_else(|| "run".into());
    let (target, project) = match run_target(ctx, args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let opts = Opts::parse(ctx, args, "Debug");
    if sub == "run" && !args::flag(args, &["--no-hot-reload"]) {
        out::text(WATCH_BANNER);
    }
    out::line("dotnet watch 🔧 Building...");
    let (built, diags) = restore_and_compile(ctx, &target, &opts, None);
    if diags.failed() {
        out::line("dotnet watch ❌ Build failed. Waiting for a file to change before restarting dotnet...");
    } else {
        match sub.as_str() {
            "run" => {
                out::line("dotnet watch 🚀 Started");
                out::text(APP);
            }
            "test" => {
                test::Run::from_args(ctx, args).report(ctx, &built, &opts);
            }
            _ => diags.summary(),
        }
        out::line("dotnet watch ⌚ Exited");
        out::line("dotnet watch ⏳ Waiting for a file to change before restarting dotnet...");
    }
    out::phase(ctx, &format!("info: {}.Worker[0] Worker running", project.name), false);
    if !ctx.has(Scenario::Slow) {
        std::thread::sleep(ctx.slow);
    }
    0
}

/// `dotnet format`: silent on success, like the real command.
pub fn format(ctx: &Ctx, args: &[String]) -> u8 {
    if let Err(code) = resolve(ctx, args) {
        return code;
    }
    out::phase(ctx, "  Formatting...", false);
    0
}
