//! The build servers our own dotnet commands started: the C# compiler server (`VBCSCompiler`) and
//! reused MSBuild nodes (`MSBuild.dll /nodemode:…`), which the SDK keeps running after a build on
//! purpose so that the next build starts warm (the `BuildServers` setting, [`crate::settings`]).
//!
//! A run with [`crate::runner::Invocation::keep_build_servers`] heads a process group of its own,
//! which the servers it starts join. When its leader exits by itself, [`settle`] looks at what is
//! left in that group, while the leader is still unreaped (so the group id cannot name another
//! group): each process whose command line is a build server's is adopted, remembered by its
//! process id and its start time; anything else still there is killed, since nothing else may
//! outlive a command. A timeout, a cancellation or a dropped run kills the whole group as before,
//! servers included (so a killed build leaves neither an orphan nor a held file lock).
//! [`shut_down`] kills the adopted servers still alive; it runs when a tool of the plugin is
//! dropped and when the process exits (`atexit`: a host that returns from `main`, or a worker
//! process of `Plugins.Isolation: process` ending with `exit`). A server is killed only if the
//! process with its id still has its start time and a build server's command line, so a reused
//! process id is never signalled; and a server we did not start (the user's own, in another
//! process group) is never adopted, hence never touched. A process killed outright (the host
//! ending a worker of `Plugins.Isolation: process` with `SIGKILL`, a host that crashed) runs no
//! exit handler: for it a guard process (`sh`, started with the first adoption, in a group of its
//! own) is told every adopted server through a pipe, and when the pipe closes (whoever held it
//! ended, however) it kills those of them that still have their start time ([`GUARD_SCRIPT`]). `dotnet build-server shutdown` is never
//! run: it would stop the user's servers too.
//!
//! Platforms (one seam, [`settle`] and [`shut_down`]): Linux reads `/proc`. Other Unix systems
//! adopt nothing and kill nothing after a normal exit: the servers live on until their own idle
//! timeouts end them, as after a build in a terminal. On Windows a run's job object ends every
//! process of the command when the run ends, servers included, so nothing is left to adopt.

#[cfg(target_os = "linux")]
pub use linux::{adopted, is_build_server, settle, shut_down};

/// A process known by its id and its start time (clock ticks after boot, `/proc/PID/stat` field
/// 22): the pair names one process for good, where the id alone may be reused after it exits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The process id.
    pub pid: u32,
    /// When it started.
    pub start: u64,
}

#[cfg(target_os = "linux")]
mod linux {
    use std::sync::{Mutex, Once};

    use super::Known;

    /// The servers adopted so far and not yet shut down.
    static OWN: Mutex<Vec<Known>> = Mutex::new(Vec::new());

    /// The pipe to the guard process, once a server was adopted (`None` inside if it could not start).
    static GUARD: Mutex<Option<std::process::ChildStdin>> = Mutex::new(None);

    /// Whether a command line is a build server's: the compiler server (an apphost or a dll named
    /// `VBCSCompiler`) or an MSBuild node or server (`MSBuild.dll` with `/nodemode:N`), as SDK
    /// 10.0.401 starts them.
    pub fn is_build_server(args: &[String]) -> bool {
        let file_name = |arg: &String| arg.rsplit(['/', '\\']).next().unwrap_or(arg).to_ascii_lowercase();
        let names: Vec<String> = args.iter().map(file_name).collect();
        let Some(program) = names.first() else { return false };
        let by_dotnet = |dll: &str| program.starts_with("dotnet") && names[1..].iter().any(|name| name == dll);
        let compiler = matches!(program.as_str(), "vbcscompiler" | "vbcscompiler.exe") || by_dotnet("vbcscompiler.dll");
        let msbuild = by_dotnet("msbuild.dll")
            && args.iter().any(|arg| {
                let arg = arg.to_ascii_lowercase();
                ["/nodemode:", "-nodemode:", "--nodemode:"].iter().any(|switch| arg.starts_with(switch))
            });
        compiler || msbuild
    }

    /// A process's group id and start time, from `/proc/PID/stat`; `None` once it is gone.
    pub(super) fn stat(pid: u32) -> Option<(u32, u64)> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name (field 2) is in parentheses and may hold anything: count after its end.
        let fields: Vec<&str> = text[text.rfind(')')? + 1..].split_whitespace().collect();
        // Fields 3 (state), 5 (pgrp) and 22 (starttime), counted from 1.
        if fields.first() == Some(&"Z") {
            return None;
        }
        Some((fields.get(2)?.parse().ok()?, fields.get(19)?.parse().ok()?))
    }

    /// A process's arguments, from `/proc/PID/cmdline`.
    fn cmdline(pid: u32) -> Vec<String> {
        std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|bytes| {
                bytes
                    .split(|&b| b == 0)
                    .filter(|arg| !arg.is_empty())
                    .map(|arg| String::from_utf8_lossy(arg).into_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every live process of group `pgid` but its leader.
    fn members(pgid: u32) -> Vec<Known> {
        let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
        entries
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| pid != pgid)
            .filter_map(|pid| match stat(pid) {
                Some((group, start)) if group == pgid => Some(Known { pid, start }),
                _ => None,
            })
            .collect()
    }

    /// After the leader `pgid` of a command's group exited by itself, and before it is reaped:
    /// adopts the build servers left in the group and kills the rest.
    pub fn settle(pgid: u32) {
        for member in members(pgid) {
            if is_build_server(&cmdline(member.pid)) {
                adopt(member);
            } else {
                signal(member);
            }
        }
    }

    /// Remembers a server of ours, and makes sure the process's exit shuts it down.
    fn adopt(server: Known) {
        static AT_EXIT: Once = Once::new();
        AT_EXIT.call_once(|| {
            // SAFETY: registers a function with no arguments that only takes a lock without
            // waiting and sends signals; it stays valid for the life of this library (glibc runs
            // a library's handlers when it is unloaded).
            unsafe { libc::atexit(at_exit) };
        });
        tell_guard(server);
        let mut own = OWN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        own.retain(|known| stat(known.pid).is_some_and(|(_, start)| start == known.start));
        if !own.contains(&server) {
            own.push(server);
        }
    }

    /// Tells the guard process of a server, starting the guard first if needed.
    fn tell_guard(server: Known) {
        use std::io::Write;
        use std::os::unix::process::CommandExt;
        let mut guard = GUARD.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if guard.is_none() {
            *guard = std::process::Command::new("/bin/sh")
                .args(["-c", super::GUARD_SCRIPT])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .process_group(0)
                .spawn()
                .ok()
                .and_then(|mut child| child.stdin.take());
        }
        if let Some(pipe) = guard.as_mut() {
            let _ = writeln!(pipe, "{} {}", server.pid, server.start);
        }
    }

    /// The servers adopted and still alive.
    pub fn adopted() -> Vec<Known> {
        let own = OWN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        own.iter().copied().filter(|known| alive_as(*known, false)).collect()
    }

    /// Kills every adopted server that is still the process it was; returns how many were killed.
    pub fn shut_down() -> usize {
        let own = std::mem::take(&mut *OWN.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        stop(&own)
    }

    /// Kills those of `servers` that are still the build servers they were.
    pub(super) fn stop(servers: &[Known]) -> usize {
        servers.iter().filter(|&&server| alive_as(server, true) && signal(server)).count()
    }

    /// Whether `known` still runs with its start time (and, if `server`, a build server's command line).
    fn alive_as(known: Known, server: bool) -> bool {
        stat(known.pid).is_some_and(|(_, start)| start == known.start)
            && (!server || is_build_server(&cmdline(known.pid)))
    }

    /// `SIGKILL` to one process; whether it was sent.
    fn signal(known: Known) -> bool {
        let Ok(pid) = libc::pid_t::try_from(known.pid) else { return false };
        // SAFETY: kill has no memory effects; the id was checked to be the process meant just before.
        unsafe { libc::kill(pid, libc::SIGKILL) == 0 }
    }

    /// At process exit: the servers go with the process that started them. A lock held by a
    /// thread that the exit stopped is not waited for.
    extern "C" fn at_exit() {
        if let Ok(mut own) = OWN.try_lock() {
            let own = std::mem::take(&mut *own);
            stop(&own);
        }
    }
}

/// The guard process's program (`sh`): reads `PID START` lines until its input closes, then kills
/// each process that still has that id and start time (`/proc/PID/stat` field 22).
pub const GUARD_SCRIPT: &str = r#"list=''
while read -r pid start; do list="$list $pid:$start"; done
for entry in $list; do
  pid=${entry%%:*}; start=${entry#*:}
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
  set -- ${stat##*\)}
  [ "${20}" = "$start" ] && kill -9 "$pid"
done
exit 0"#;

/// Other platforms adopt nothing (see the module documentation).
#[cfg(not(target_os = "linux"))]
mod elsewhere {
    use super::Known;

    /// Nothing to do: no process is adopted here.
    pub fn settle(_pgid: u32) {}

    /// No process is adopted here.
    pub fn adopted() -> Vec<Known> {
        Vec::new()
    }

    /// Nothing was adopted, so nothing is killed.
    pub fn shut_down() -> usize {
        0
    }
}
#[cfg(not(target_os = "linux"))]
pub use elsewhere::{adopted, settle, shut_down};

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::linux::*;
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn compiler_servers_and_msbuild_nodes_are_build_servers_and_nothing_else_is() {
        for server in [
            "/usr/share/dotnet/sdk/10.0.401/Roslyn/bincore/VBCSCompiler -pipename:abc",
            "/usr/share/dotnet/dotnet exec /usr/share/dotnet/sdk/10.0.401/Roslyn/bincore/VBCSCompiler.dll -pipename:abc",
            "/usr/share/dotnet/dotnet /usr/share/dotnet/sdk/10.0.401/MSBuild.dll /nologo /nodemode:1 /nodeReuse:true /low:false",
            "/usr/share/dotnet/dotnet /usr/share/dotnet/sdk/10.0.401/MSBuild.dll -nodemode:8",
        ] {
            assert!(is_build_server(&args(server)), "{server}");
        }
        for other in [
            "/usr/share/dotnet/dotnet build -nologo",
            "/usr/share/dotnet/dotnet /usr/share/dotnet/sdk/10.0.401/MSBuild.dll -maxcpucount App.csproj",
            "/src/App/bin/Debug/net10.0/App --name VBCSCompiler",
            "/usr/bin/sleep 100 /nodemode:1",
            "",
        ] {
            assert!(!is_build_server(&args(other)), "{other}");
        }
    }

    #[test]
    fn the_guard_kills_what_it_was_told_of_when_its_pipe_closes_and_only_with_the_right_start_time() {
        use std::io::Write;
        let mut told = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let mut reused = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let (_, told_start) = stat(told.id()).unwrap();
        let (_, reused_start) = stat(reused.id()).unwrap();
        let mut guard = std::process::Command::new("/bin/sh")
            .args(["-c", GUARD_SCRIPT])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = guard.stdin.take().unwrap();
        writeln!(pipe, "{} {told_start}", told.id()).unwrap();
        writeln!(pipe, "{} {}", reused.id(), reused_start + 1).unwrap();
        assert!(told.try_wait().unwrap().is_none(), "nothing happens while the pipe is open");
        drop(pipe);
        assert!(guard.wait().unwrap().success());
        assert!(told.wait().unwrap().code().is_none(), "killed by a signal");
        assert!(reused.try_wait().unwrap().is_none(), "another start time: left alone");
        reused.kill().unwrap();
        reused.wait().unwrap();
    }

    #[test]
    fn a_process_whose_start_time_differs_is_not_killed() {
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let (_, start) = stat(child.id()).unwrap();
        // The same id with another start time is another process (a reused id): left alone.
        assert_eq!(stop(&[Known { pid: child.id(), start: start + 1 }]), 0);
        // The right start time, but not a build server's command line: left alone too.
        assert_eq!(stop(&[Known { pid: child.id(), start }]), 0);
        assert!(child.try_wait().unwrap().is_none(), "the process must still run");
        child.kill().unwrap();
        child.wait().unwrap();
        // Gone: nothing to kill.
        assert_eq!(stop(&[Known { pid: child.id(), start }]), 0);
    }
}
