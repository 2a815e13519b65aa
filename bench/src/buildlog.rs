//! A generated `dotnet build` / `dotnet test` console log with diagnostics and secrets in it, the
//! input of the output-processing benchmark.
//!
//! The log is deterministic for a seed. Most lines are the ordinary chatter of a multi-project
//! build (restore, compile command lines, copies, test results, stack frames); about one line in
//! eight is a compiler, analyzer, NuGet or MSBuild diagnostic (with repeats, as MSBuild prints
//! them twice); about one in forty carries a secret in one of the forms the redactor knows
//! (connection strings, bearer tokens, URL credentials, API keys, cloud keys). It ends with
//! MSBuild's final counts.

use std::fmt::Write as _;

/// A generated log and what was planted in it.
#[derive(Debug, Clone)]
pub struct BuildLog {
    /// The log, lines separated by `\n`, ending with a newline.
    pub text: String,
    /// Lines in the log.
    pub lines: usize,
    /// Diagnostic lines planted (repeats included).
    pub diagnostic_lines: usize,
    /// Every secret value planted, so a test can check that none survives redaction.
    pub secrets: Vec<String>,
}

/// A small deterministic generator (xorshift64*), so the log needs no random-number crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }

    /// `length` characters from `alphabet`.
    fn token(&mut self, alphabet: &[u8], length: usize) -> String {
        (0..length).map(|_| alphabet[self.below(alphabet.len() as u64) as usize] as char).collect()
    }
}

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX: &[u8] = b"0123456789abcdef";
const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Generates a log of exactly `lines` lines (at least 3).
pub fn generate(lines: usize, seed: u64) -> BuildLog {
    let lines = lines.max(3);
    let mut rng = Rng(seed | 1);
    let mut log =
        BuildLog { text: String::with_capacity(lines * 110), lines, diagnostic_lines: 0, secrets: Vec::new() };
    let mut recent: Vec<String> = Vec::new();
    let (mut errors, mut warnings) = (0usize, 0usize);
    for _ in 0..lines - 3 {
        let project = rng.below(24);
        let roll = rng.below(1000);
        if roll < 25 {
            secret_line(&mut rng, project, &mut log);
        } else if roll < 140 {
            log.diagnostic_lines += 1;
            // MSBuild prints every diagnostic again in its summary: repeat a recent one at times.
            let line = if roll < 40 && !recent.is_empty() {
                recent[rng.below(recent.len() as u64) as usize].clone()
            } else {
                let line = diagnostic_line(&mut rng, project);
                if line.contains(": error ") {
                    errors += 1;
                } else {
                    warnings += 1;
                }
                if recent.len() == 64 {
                    recent.remove(0);
                }
                recent.push(line.clone());
                line
            };
            log.text.push_str(&line);
            log.text.push('\n');
        } else {
            plain_line(&mut rng, project, &mut log.text);
        }
    }
    let _ = writeln!(log.text, "    {warnings} Warning(s)");
    let _ = writeln!(log.text, "    {errors} Error(s)");
    let _ = writeln!(log.text, "Time Elapsed 00:01:{:02}.{:02}", rng.below(60), rng.below(100));
    log
}

fn plain_line(rng: &mut Rng, project: u64, out: &mut String) {
    let n = rng.below(400);
    let ms = rng.below(900) + 3;
    let _ = match rng.below(12) {
        0 => writeln!(out, "  Determining projects to restore..."),
        1 => writeln!(out, "  Restored /src/Svc{project}/Svc{project}.csproj (in {ms} ms)."),
        2 => writeln!(out, "  Svc{project} -> /src/Svc{project}/bin/Release/net10.0/Svc{project}.dll"),
        3 => writeln!(
            out,
            "     {}>Project \"/src/App.sln\" ({}) is building \"/src/Svc{project}/Svc{project}.csproj\" ({}) on node 1 (default targets).",
            rng.below(40) + 1,
            rng.below(9) + 1,
            rng.below(40) + 2
        ),
        4 => writeln!(
            out,
            "         /usr/share/dotnet/dotnet exec \"/usr/share/dotnet/sdk/10.0.100/Roslyn/bincore/csc.dll\" /noconfig \
             /unsafe- /checked- /nowarn:1701,1702,2008 /fullpaths /nostdlib+ /errorreport:prompt /warn:9 \
             /define:TRACE;RELEASE;NET;NET10_0 /reference:/usr/share/dotnet/packs/Microsoft.NETCore.App.Ref/10.0.0/ref/net10.0/System.Runtime.dll \
             /debug+ /optimize+ /out:obj/Release/net10.0/Svc{project}.dll Program.cs Services/OrderService{n}.cs"
        ),
        5 => writeln!(
            out,
            "         Copying file from \"/home/build/.nuget/packages/newtonsoft.json/13.0.3/lib/net6.0/Newtonsoft.Json.dll\" \
             to \"/src/Svc{project}/bin/Release/net10.0/Newtonsoft.Json.dll\"."
        ),
        6 => writeln!(out, "  Passed Svc{project}.Tests.OrderTests.Creates_order_{n} [{ms} ms]"),
        7 => writeln!(
            out,
            "   at Svc{project}.Services.OrderService.Validate(String token) in /src/Svc{project}/Services/OrderService.cs:line {n}"
        ),
        8 => writeln!(out, "      Now listening on: http://localhost:5{n:03}"),
        9 => writeln!(out, "       _CopyFilesMarkedCopyLocal:"),
        10 => writeln!(
            out,
            "warning: Svc{project}.Worker[0] queue depth {n} exceeded the soft limit, retrying in {ms} ms (attempt {})",
            rng.below(5) + 1
        ),
        _ => writeln!(out, "  Build started 11/22/2025 02:{:02}:{:02}.", rng.below(60), rng.below(60)),
    };
}

fn diagnostic_line(rng: &mut Rng, project: u64) -> String {
    let (line, column) = (rng.below(500) + 1, rng.below(80) + 1);
    let file = format!("/src/Svc{project}/Services/OrderService{}.cs", rng.below(30));
    let csproj = format!("/src/Svc{project}/Svc{project}.csproj");
    match rng.below(8) {
        0 => format!(
            "{file}({line},{column}): warning CS8618: Non-nullable property 'Name' must contain a non-null value when \
             exiting constructor. Consider declaring the property as nullable. [{csproj}]"
        ),
        1 => format!(
            "{file}({line},{column}): error CS0103: The name 'orderRepository' does not exist in the current context [{csproj}]"
        ),
        2 => format!(
            "{csproj} : warning NU1603: Svc{project} depends on Serilog (>= 4.0.0) but Serilog 4.0.0 was not found. \
             An approximate best match of Serilog 4.0.1 was resolved. [/src/App.sln]"
        ),
        3 => format!(
            "{file}({line},{column}): warning CA1822: Member 'Get' does not access instance data and can be marked as \
             static [{csproj}::TargetFramework=net10.0]"
        ),
        4 => format!(
            "  {}>{file}({line},{column},{line},{}): warning IDE0005: Using directive is unnecessary. [{csproj}]",
            rng.below(30) + 1,
            column + 12
        ),
        5 => format!(
            "{file}({line},{column}): error CS0246: The type or namespace name 'WeatherService' could not be found \
             (are you missing a using directive or an assembly reference?) [{csproj}]"
        ),
        6 => "MSBUILD : error MSB1009: Project file does not exist.".to_owned(),
        _ => format!(
            "/usr/share/dotnet/sdk/10.0.100/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.EolTargetFrameworks.targets(32,5): \
             warning NETSDK1138: The target framework 'net6.0' is out of support. [{csproj}]"
        ),
    }
}

fn secret_line(rng: &mut Rng, project: u64, log: &mut BuildLog) {
    let (line, secret) = match rng.below(7) {
        0 => {
            let secret = format!("S3cret-{}", rng.token(HEX, 12));
            (
                format!(
                    "      Using Server=db{project};Database=orders;User Id=sa;Password={secret};TrustServerCertificate=True"
                ),
                secret,
            )
        }
        1 => {
            let secret = format!("ya29.{}", rng.token(ALNUM, 40));
            (format!("      Authorization: Bearer {secret}"), secret)
        }
        2 => {
            let secret = format!("Pw{}", rng.token(ALNUM, 10));
            (format!("      GET https://deploy:{secret}@registry.example.com/v2/svc{project}/manifests/latest"), secret)
        }
        3 => {
            let secret = rng.token(ALNUM, 46).to_ascii_lowercase();
            (
                format!(
                    "  dotnet nuget push Svc{project}.1.0.{}.nupkg -k oy2{secret} -s https://api.nuget.org/v3/index.json",
                    rng.below(99)
                ),
                secret,
            )
        }
        4 => {
            let secret = format!("{}==", rng.token(BASE64, 86));
            (
                format!(
                    "      DefaultEndpointsProtocol=https;AccountName=store{project};AccountKey={secret};EndpointSuffix=core.windows.net"
                ),
                secret,
            )
        }
        5 => {
            let secret = rng.token(ALNUM, 36);
            (format!("  export GITHUB_TOKEN=ghp_{secret}"), secret)
        }
        _ => {
            let secret = format!("Cl~{}", rng.token(ALNUM, 24));
            (format!("      client_secret: {secret}"), secret)
        }
    };
    log.text.push_str(&line);
    log.text.push('\n');
    log.secrets.push(secret);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_count_and_deterministic() {
        let log = generate(5_000, 7);
        assert_eq!(log.text.lines().count(), 5_000);
        assert_eq!(log.lines, 5_000);
        assert!(log.text.ends_with('\n'));
        assert_eq!(generate(5_000, 7).text, log.text);
        assert_ne!(generate(5_000, 8).text, log.text);
    }

    #[test]
    fn has_diagnostics_secrets_and_counts() {
        let log = generate(20_000, 1);
        assert!(log.diagnostic_lines > 1_500, "{}", log.diagnostic_lines);
        assert!(log.secrets.len() > 300, "{}", log.secrets.len());
        for secret in &log.secrets {
            assert!(log.text.contains(secret.as_str()));
        }
        assert!(log.text.contains(" Warning(s)\n") && log.text.contains(" Error(s)\n"));
        let average = log.text.len() / log.lines;
        assert!((60..200).contains(&average), "average line length {average}");
    }
}
