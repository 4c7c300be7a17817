//! The sandbox learner code is built and run in: bubblewrap (`bwrap`), an existing,
//! maintained tool (Flatpak's), not a home-made one.
//!
//! Each build and each test runs in its own bubblewrap with:
//!
//! - new user, PID, network, IPC, UTS and cgroup namespaces (`--unshare-all`): no network,
//!   and when the sandbox's first process ends, the kernel ends every process in it, so
//!   nothing a test starts (in any process group or session) outlives it;
//! - `--die-with-parent`: killing the checker, or its worker thread's child, ends it all;
//! - an empty file system with only what is named bound in, read-only unless stated: the
//!   system's `/usr`, the toolchain, the dependency sources, and for a build the lesson's
//!   own scratch crate; for a test, its executable alone; a fresh `/tmp`;
//! - an unprivileged user inside (`nobody`), no capabilities, a cleared environment, a new
//!   terminal session (so it cannot type into the checker's terminal).
//!
//! Where bubblewrap is missing or cannot start (macOS, Windows, a container that forbids
//! user namespaces), [`Sandbox::detect`] says why, and grading runs the code directly.
//! Verdicts still come from the judge (see [`crate::judge`]), so nothing a test's process
//! prints, records or exits with can turn a wrong value into a pass; but the code is not
//! contained, and runs with the permissions of its user (`--run-as` gives it one that
//! cannot write the grader's files). The instructor's commands refuse to run unsandboxed
//! unless told to (`--unsandboxed`).

use crate::messages::INSTRUCTOR;
use anyhow::{Result, bail};
use course_i18n::tr;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether learner code runs in bubblewrap, and if not, why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sandbox {
    /// bubblewrap works here.
    Bubblewrap(PathBuf),
    /// No sandbox: the reason, for messages.
    None(String),
}

/// One path made visible inside the sandbox, at the same place.
#[derive(Debug, Clone)]
pub enum Bind {
    /// Readable, not writable.
    ReadOnly(PathBuf),
    /// Readable and writable.
    ReadWrite(PathBuf),
    /// An empty, writable folder that vanishes with the sandbox.
    Tmpfs(PathBuf),
}

impl Sandbox {
    /// Finds bubblewrap and checks that it can start a sandbox here.
    pub fn detect() -> Self {
        let Some(bwrap) = find_in_path("bwrap") else {
            return Self::None(tr!(INSTRUCTOR, "sandbox-not-installed"));
        };
        let sandbox = Self::Bubblewrap(bwrap);
        let mut probe = Command::new("true");
        probe
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        let probe = sandbox.wrap(probe, &[], false);
        match probe.and_then(|mut command| Ok(command.output()?)) {
            Ok(output) if output.status.success() => sandbox,
            Ok(output) => Self::None(tr!(
                INSTRUCTOR,
                "sandbox-cannot-start",
                error = String::from_utf8_lossy(&output.stderr).trim()
            )),
            Err(error) => Self::None(tr!(
                INSTRUCTOR,
                "sandbox-did-not-start",
                error = format!("{error:#}")
            )),
        }
    }

    /// Whether code is contained.
    pub fn is_active(&self) -> bool {
        matches!(self, Self::Bubblewrap(_))
    }

    /// A one-line description for reports: how the learner's code ran.
    pub fn describe(&self) -> String {
        match self {
            Self::Bubblewrap(_) => tr!(INSTRUCTOR, "sandbox-active"),
            Self::None(why) => tr!(INSTRUCTOR, "sandbox-inactive", why = why),
        }
    }

    /// `command` wrapped to run inside the sandbox with `binds` visible (plus the
    /// system's `/usr`, `/proc`, `/dev` and an empty `/tmp`), and with `command`'s
    /// environment and working folder carried in, and no network. `keep_uid` keeps the
    /// caller's user id inside (cargo needs to own the files it writes in a read-write
    /// bind); otherwise the code runs as `nobody`.
    pub fn wrap(
        &self,
        command: Command,
        binds: &[Bind],
        keep_uid: bool,
    ) -> Result<Command> {
        let Self::Bubblewrap(bwrap) = self else {
            return Ok(command);
        };
        let mut wrapped = Command::new(bwrap);
        let mut args: Vec<OsString> = [
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--clearenv",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--tmpfs",
            "/tmp",
        ]
        .into_iter()
        .map(OsString::from)
        .collect();
        if !keep_uid {
            args.extend(["--uid", "65534", "--gid", "65534"].map(OsString::from));
        }
        args.extend(["--ro-bind".into(), "/usr".into(), "/usr".into()]);
        for top in ["bin", "lib", "lib32", "lib64", "sbin"] {
            let host = Path::new("/").join(top);
            match std::fs::read_link(&host) {
                Ok(target) => {
                    args.extend(["--symlink".into(), target.into(), host.into()]);
                }
                Err(_) if host.is_dir() => {
                    args.extend(["--ro-bind".into(), host.clone().into(), host.into()]);
                }
                Err(_) => {}
            }
        }
        // What programs need from /etc to start: the dynamic loader's cache, the
        // user database for `nobody`, the links that name the system's C linker.
        // Nothing else of the host's configuration.
        for file in [
            "/etc/ld.so.cache",
            "/etc/passwd",
            "/etc/group",
            "/etc/alternatives",
        ] {
            if Path::new(file).exists() {
                args.extend(["--ro-bind".into(), file.into(), file.into()]);
            }
        }
        for bind in binds {
            let (flag, path) = match bind {
                Bind::ReadOnly(path) => ("--ro-bind", path),
                Bind::ReadWrite(path) => ("--bind", path),
                Bind::Tmpfs(path) => {
                    args.extend(["--tmpfs".into(), path.clone().into()]);
                    continue;
                }
            };
            if !path.exists() {
                bail!(tr!(
                    INSTRUCTOR,
                    "sandbox-missing-bind",
                    path = path.display().to_string()
                ));
            }
            args.extend([flag.into(), path.clone().into(), path.clone().into()]);
        }
        for (key, value) in command.get_envs() {
            if let Some(value) = value {
                args.extend(["--setenv".into(), key.to_owned(), value.to_owned()]);
            }
        }
        if let Some(dir) = command.get_current_dir() {
            args.extend(["--chdir".into(), dir.into()]);
        } else {
            args.extend(["--chdir".into(), "/tmp".into()]);
        }
        args.push("--".into());
        args.push(command.get_program().to_owned());
        args.extend(command.get_args().map(ToOwned::to_owned));
        wrapped.args(args.iter());
        wrapped.env_clear();
        Ok(wrapped)
    }
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandboxed_process_sees_only_what_is_bound_and_no_network() {
        let sandbox = Sandbox::detect();
        if !sandbox.is_active() {
            eprintln!("skipped: {}", sandbox.describe());
            return;
        }
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "test ! -e /root && test ! -e /home && test ! -e /etc/hostname && \
             test \"$(id -u)\" = 65534 && test \"$KEPT\" = 1 && \
             ! cat /sys/class/net/*/address 2>/dev/null | grep -v 00:00:00:00:00:00 && \
             echo contained",
        ]);
        command.env("KEPT", "1");
        let output = sandbox.wrap(command, &[], false).unwrap().output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            "contained",
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
