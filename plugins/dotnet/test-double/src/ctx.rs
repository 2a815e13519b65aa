//! The invocation context: arguments, working directory, scenarios and the versions the
//! double pretends to have, all read once from the environment.

use std::path::PathBuf;
use std::time::Duration;

use crate::fixture::Vars;

/// A failure mode or behaviour switched on through `DOTNET_DOUBLE_SCENARIO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Only a .NET runtime is installed: every SDK command fails in the host.
    RuntimeOnly,
    /// Builds fail with compiler (and, in solutions, MSBuild) errors.
    BuildFail,
    /// Some tests fail.
    TestFail,
    /// Long commands stream a line every 200 ms for `DOTNET_DOUBLE_SLOW_SECS` seconds; with
    /// `runtime-only`, the host's "no SDK" answer comes after that long.
    Slow,
    /// The process starts a sleeping child of itself and reports its PID on stderr.
    SpawnChild,
    /// A build leaves a compiler server running, as the real SDK does with shared compilation on.
    BuildServer,
    /// Outputs carry secrets of every common shape.
    Secrets,
    /// The dotnet-ef tool is not installed.
    NoEf,
    /// NuGet restore fails (NU1101), so restore, build, test, run, publish and pack fail.
    RestoreFail,
    /// The working directory holds no project or solution file (MSB1003 and friends).
    NoProject,
    /// `run` builds, then the application throws: an unhandled exception, exit code 134.
    AppCrash,
    /// `add package` of a version below the latest writes the reference, then its restore fails
    /// (NU1605, a downgrade), and it exits 0.
    PackageDowngrade,
}

impl Scenario {
    /// Every scenario with the name it is selected by.
    pub const ALL: [(&'static str, Scenario); 12] = [
        ("runtime-only", Scenario::RuntimeOnly),
        ("build-fail", Scenario::BuildFail),
        ("test-fail", Scenario::TestFail),
        ("slow", Scenario::Slow),
        ("spawn-child", Scenario::SpawnChild),
        ("build-server", Scenario::BuildServer),
        ("secrets", Scenario::Secrets),
        ("no-ef", Scenario::NoEf),
        ("restore-fail", Scenario::RestoreFail),
        ("no-project", Scenario::NoProject),
        ("app-crash", Scenario::AppCrash),
        ("package-downgrade", Scenario::PackageDowngrade),
    ];

    fn parse(name: &str) -> Option<Scenario> {
        Self::ALL.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, s)| *s)
    }
}

/// Which generation of the .NET host wrote the "no SDK" message (`DOTNET_DOUBLE_HOST_STYLE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostStyle {
    /// .NET Core 2.1 to 3.1 hosts: "It was not possible to find any installed .NET Core SDKs".
    NetCore3,
    /// .NET 5 hosts: the message starts with "It was not possible to find any installed .NET SDKs".
    Net5,
    /// .NET 6 and 7 hosts: "Could not execute because the application was not found ...".
    Net6,
    /// .NET 8 and later hosts: "The command could not be loaded, possibly because: ...".
    Net8,
}

/// Which test runner `dotnet test` uses (`DOTNET_DOUBLE_TEST_RUNNER` or global.json).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestRunner {
    /// The classic VSTest runner.
    VsTest,
    /// Microsoft.Testing.Platform.
    Mtp,
}

/// Everything a command needs to know about this invocation.
pub struct Ctx {
    /// The arguments after the program name.
    pub args: Vec<String>,
    /// The working directory.
    pub cwd: PathBuf,
    scenarios: Vec<Scenario>,
    /// The SDK version (`DOTNET_DOUBLE_SDK_VERSION`, default 10.0.100).
    pub sdk_version: String,
    /// The runtime version (`DOTNET_DOUBLE_RUNTIME_VERSION`, default `<major>.<minor>.0` of the SDK).
    pub runtime_version: String,
    /// The dotnet root shown in listings (`DOTNET_ROOT`, default /usr/share/dotnet).
    pub root: String,
    /// The user's home directory (`HOME`).
    pub home: String,
    /// How long slow commands, `watch` and the spawned child last.
    pub slow: Duration,
    /// While this file exists, a long command waits at its phase point and a replayed `run`
    /// after its output (`DOTNET_DOUBLE_HOLD`, see `out::held`): a test keeps a process running
    /// for exactly as long as it needs, however loaded the machine.
    pub hold: Option<std::path::PathBuf>,
    /// The wording of the "no SDK" host message.
    pub host_style: HostStyle,
    /// A forced test runner, if any.
    pub test_runner: Option<TestRunner>,
}

impl Ctx {
    /// Reads the context from the process environment.
    pub fn from_env(args: Vec<String>) -> Result<Ctx, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let mut scenarios = Vec::new();
        if let Some(list) = var("DOTNET_DOUBLE_SCENARIO") {
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let known = Scenario::ALL.map(|(n, _)| n).join(", ");
                let s = Scenario::parse(name).ok_or_else(|| format!("unknown scenario '{name}' (known: {known})"))?;
                scenarios.push(s);
            }
        }
        let sdk_version = var("DOTNET_DOUBLE_SDK_VERSION").unwrap_or_else(|| "10.0.100".into());
        let runtime_version = var("DOTNET_DOUBLE_RUNTIME_VERSION").unwrap_or_else(|| {
            let mut parts = sdk_version.split('.');
            let major = parts.next().unwrap_or("10");
            let minor = parts.next().unwrap_or("0");
            format!("{major}.{minor}.0")
        });
        let slow_secs = match var("DOTNET_DOUBLE_SLOW_SECS") {
            Some(v) => v
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("DOTNET_DOUBLE_SLOW_SECS is not a number of seconds: '{v}'"))?,
            None => 30.0,
        };
        let host_style = match var("DOTNET_DOUBLE_HOST_STYLE").as_deref() {
            Some("netcore3") => HostStyle::NetCore3,
            None | Some("net5") => HostStyle::Net5,
            Some("net6") => HostStyle::Net6,
            Some("net8") => HostStyle::Net8,
            Some(other) => {
                return Err(format!("DOTNET_DOUBLE_HOST_STYLE must be netcore3, net5, net6 or net8, not '{other}'"));
            }
        };
        let test_runner = match var("DOTNET_DOUBLE_TEST_RUNNER").as_deref() {
            None => None,
            Some(v) if v.eq_ignore_ascii_case("vstest") => Some(TestRunner::VsTest),
            Some(v) if v.eq_ignore_ascii_case("mtp") => Some(TestRunner::Mtp),
            Some(other) => {
                return Err(format!("DOTNET_DOUBLE_TEST_RUNNER must be vstest or mtp, not '{other}'"));
            }
        };
        let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
        Ok(Ctx {
            args,
            cwd,
            scenarios,
            sdk_version,
            runtime_version,
            root: var("DOTNET_ROOT")
                .map(|r| r.trim_end_matches('/').to_string())
                .unwrap_or_else(|| "/usr/share/dotnet".into()),
            home: var("HOME").unwrap_or_else(|| "/root".into()),
            slow: Duration::from_secs_f64(slow_secs),
            hold: var("DOTNET_DOUBLE_HOLD").map(Into::into),
            host_style,
            test_runner,
        })
    }

    /// The names of the scenarios switched on, in the order given.
    pub fn scenario_names(&self) -> Vec<&'static str> {
        self.scenarios
            .iter()
            .filter_map(|s| Scenario::ALL.iter().find(|(_, known)| known == s).map(|(name, _)| *name))
            .collect()
    }

    /// Whether a scenario is switched on.
    pub fn has(&self, scenario: Scenario) -> bool {
        self.scenarios.contains(&scenario)
    }

    /// The SDK's major version (10 for 10.0.100).
    pub fn sdk_major(&self) -> u32 {
        self.sdk_version.split('.').next().and_then(|m| m.parse().ok()).unwrap_or(10)
    }

    /// The target framework new projects get (`net10.0` for SDK 10).
    pub fn tfm(&self) -> String {
        format!("net{}.0", self.sdk_major())
    }

    /// The MSBuild version that ships with the SDK.
    pub fn msbuild_version(&self) -> &'static str {
        match self.sdk_major() {
            0..=8 => "17.11.9+a69bbaaf5",
            9 => "17.14.8+a7a4d5af0",
            _ => "18.0.2+b0f34d51f",
        }
    }

    /// The values every fixture may use.
    pub fn vars(&self) -> Vars {
        Vars::default()
            .with("sdk_version", &self.sdk_version)
            .with("runtime_version", &self.runtime_version)
            .with("sdk_major", &self.sdk_major().to_string())
            .with("tfm", &self.tfm())
            .with("msbuild_version", self.msbuild_version())
            .with("root", &self.root)
            .with("home", &self.home)
            .with("cwd", &self.cwd.display().to_string())
            .with("rid", "linux-x64")
    }
}
