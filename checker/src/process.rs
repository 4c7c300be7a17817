//! Running a child process under limits: a wall-clock timeout after which its whole
//! process group is killed, a cap on the address space, capped output, no input but
//! what the checker writes.
//!
//! Both the build of a submission and each graded test go through [`run`]. Killing the
//! process group, not just the child, matters: `cargo` and a test binary spawn children
//! that would otherwise outlive a timeout.

use crate::messages::INSTRUCTOR;
use anyhow::{Context, Result};
use course_i18n::tr;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The limits a child runs under.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock time before the process group is killed.
    pub timeout: Duration,
    /// Maximum address space in bytes (`RLIMIT_AS`), or `None` for no cap.
    pub memory_bytes: Option<u64>,
    /// How many bytes of standard output and of standard error to keep; the rest is
    /// read and dropped, so a child that floods its output cannot stall or exhaust us.
    pub output_bytes: usize,
    /// The account to run the child as (dropping root's groups), or `None` for ours.
    pub account: Option<Account>,
    /// Whether every process of `account` ends with the child, before its output is read
    /// to its end: the `--run-as` fallback, whose runs take turns (a process that left the
    /// child's group would otherwise hold its pipes open, and the checker with them).
    pub end_account: bool,
    /// The largest file the child may write, in bytes (`RLIMIT_FSIZE`), or `None`.
    pub file_bytes: Option<u64>,
    /// The CPU seconds the child may use (`RLIMIT_CPU`), or `None`: a backstop under the
    /// wall-clock timeout.
    pub cpu_seconds: Option<u64>,
}

/// An unprivileged account to run code under test as (`--run-as`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    /// Its user id.
    pub uid: u32,
    /// Its primary group id.
    pub gid: u32,
}

impl Account {
    /// The account named `name`, looked up in the system's user database.
    #[cfg(unix)]
    pub fn named(name: &str) -> Result<Self> {
        let user = nix::unistd::User::from_name(name)
            .with_context(|| {
                tr!(INSTRUCTOR, "process-could-not-look-up-user", user = name)
            })?
            .with_context(|| tr!(INSTRUCTOR, "process-no-such-user", user = name))?;
        Ok(Self {
            uid: user.uid.as_raw(),
            gid: user.gid.as_raw(),
        })
    }

    /// Accounts exist only on Unix.
    #[cfg(not(unix))]
    pub fn named(name: &str) -> Result<Self> {
        anyhow::bail!(tr!(INSTRUCTOR, "process-run-as-needs-unix", user = name))
    }

    /// Gives the account ownership of `dir`, so that its processes can write there.
    #[cfg(unix)]
    pub fn own(&self, dir: &std::path::Path) -> Result<()> {
        use nix::unistd::{Gid, Uid, chown};
        chown(
            dir,
            Some(Uid::from_raw(self.uid)),
            Some(Gid::from_raw(self.gid)),
        )
        .with_context(|| {
            let path = dir.display().to_string();
            tr!(INSTRUCTOR, "process-could-not-hand-folder", path = path)
        })
    }

    /// Accounts exist only on Unix.
    #[cfg(not(unix))]
    pub fn own(&self, _dir: &std::path::Path) -> Result<()> {
        Ok(())
    }
}

/// What a finished (or killed) child left behind.
#[derive(Debug)]
pub struct Finished {
    /// The exit status; `None` if the child was killed for exceeding its timeout.
    pub status: Option<ExitStatus>,
    /// The first `output_bytes` of standard output.
    pub stdout: Vec<u8>,
    /// The first `output_bytes` of standard error.
    pub stderr: Vec<u8>,
    /// What the child wrote to its tape descriptor (fd 3), if it was given one; `None`
    /// when it wrote more than allowed.
    pub tape: Option<Vec<u8>>,
    /// With a [`Watch`], each tape line it accepted as progress, and when the checker read
    /// it (from the child's start), in the order they came.
    pub marks: Vec<(Vec<u8>, Duration)>,
}

impl Finished {
    /// Whether the child ran out of time and was killed.
    pub fn timed_out(&self) -> bool {
        self.status.is_none()
    }

    /// Standard error as text, lossily.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// The file descriptor a child writes its tape to (see `course_harness::tape`).
pub const TAPE_FD: i32 = 3;

/// Runs `command` under `limits`, writing `input` to its standard input and closing it.
///
/// With `tape_bytes`, the child also gets a pipe as file descriptor [`TAPE_FD`], read to
/// its end (at most `tape_bytes`) into [`Finished::tape`]. A pipe, not a file: the child
/// cannot turn it into a FIFO, a folder or a sparse giant, and it needs no place on disk.
pub fn run(
    command: Command,
    input: &[u8],
    limits: Limits,
    tape_bytes: Option<usize>,
) -> Result<Finished> {
    run_watched(command, input, limits, tape_bytes.map(|cap| (cap, None)))
}

/// Whether a tape line that ends with a [`Watch`]'s marker is the progress expected next,
/// given how many lines were accepted as progress before it.
pub type Progress = std::sync::Arc<dyn Fn(&[u8], usize) -> bool + Send + Sync>;

/// How long a child that records several tests may run: `idle` without a new tape line
/// that ends with `marker` (a test's end) and that `progress` accepts, and `total` in all.
///
/// Only accepted lines count, and each is timed when the checker reads it: what else the
/// child writes on its tape, however much or often, neither keeps it alive nor changes a
/// time the checker measured. Code under test can write on its tape too, so a line that
/// merely looks like a test's end is not progress: `progress` accepts only the end of the
/// test expected next (else a process could keep itself alive with made-up ends).
#[derive(Clone)]
pub struct Watch {
    /// The longest wait for the next accepted line.
    pub idle: Duration,
    /// The longest run in all.
    pub total: Duration,
    /// How a line that may mark progress ends.
    pub marker: &'static [u8],
    /// Which of those lines are progress.
    pub progress: Progress,
}

/// [`run`], with a tape of at most `cap` bytes and, with a [`Watch`], a time limit that
/// restarts at each marked line of the tape instead of `limits.timeout`.
pub fn run_watched(
    mut command: Command,
    input: &[u8],
    limits: Limits,
    tape: Option<(usize, Option<Watch>)>,
) -> Result<Finished> {
    let (tape_bytes, watch) = match tape {
        Some((cap, watch)) => (Some(cap), watch),
        None => (None, None),
    };
    let marks = std::sync::Arc::new(Marks::default());
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let tape = match tape_bytes {
        Some(cap) => Some((tape_pipe(limits.account)?, cap)),
        None => None,
    };
    isolate(
        &mut command,
        limits,
        tape.as_ref().map(|((_, write), _)| write),
    );
    let spawned = command.spawn().with_context(|| {
        let program = format!("{:?}", command.get_program());
        tr!(INSTRUCTOR, "process-could-not-start", program = program)
    });
    // Our copy of the write end closes here, so the reader sees the end of the tape
    // when the child (and everything it started) is gone.
    let start = Instant::now();
    let marking = watch
        .as_ref()
        .map(|watch| (watch.marker, watch.progress.clone()));
    let tape_reader = tape.map(|((read, _write), cap)| {
        capture_tape(
            read,
            cap,
            marking.map(|(marker, progress)| (marker, progress, start, marks.clone())),
        )
    });
    let mut child = spawned?;

    let stdout = capture(child.stdout.take(), limits.output_bytes);
    let stderr = capture(child.stderr.take(), limits.output_bytes);
    if let Some(mut stdin) = child.stdin.take() {
        // A child that exits without reading its input closes the pipe: not an error here.
        let _ = stdin.write_all(input);
    }

    let status = match &watch {
        None => wait_with_timeout(&mut child, limits.timeout, None)?,
        Some(watch) => {
            wait_with_timeout(&mut child, watch.total, Some((watch.idle, &marks.count)))?
        }
    };
    // Whatever the child left running in its group (a spawned process, a grandchild
    // holding the output pipes open) goes now.
    kill_group(&child);
    if limits.end_account
        && let Some(account) = limits.account
    {
        end_every_process_of(account);
    }
    if status.is_none() {
        let _ = child.wait();
    }
    Ok(Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        tape: tape_reader.and_then(|reader| reader.join().ok().flatten()),
        marks: std::mem::take(&mut *marks.lines.lock().expect("no reader panics")),
    })
}

/// The marked lines of a tape as the reader finds them: how many, and each with the time
/// it was read.
#[derive(Default)]
struct Marks {
    count: std::sync::atomic::AtomicUsize,
    lines: std::sync::Mutex<Vec<(Vec<u8>, Duration)>>,
}

/// The longest line a mark can be: a test's name and the marker. Longer lines are values.
const MAX_MARK_BYTES: usize = 4096;

#[cfg(unix)]
type TapeEnds = (std::os::fd::OwnedFd, std::os::fd::OwnedFd);
#[cfg(not(unix))]
type TapeEnds = ((), ());

#[cfg(unix)]
fn tape_pipe(account: Option<Account>) -> Result<TapeEnds> {
    // Both ends close on exec; the child's copy is made by dup2 onto TAPE_FD, which
    // clears the flag for that one descriptor.
    let ends = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .with_context(|| tr!(INSTRUCTOR, "process-could-not-create-pipe"))?;
    if let Some(account) = account {
        // The harness reopens its descriptor through /proc, which checks the pipe's
        // owner: hand it to the account the test runs as.
        nix::unistd::fchown(
            &ends.1,
            Some(nix::unistd::Uid::from_raw(account.uid)),
            Some(nix::unistd::Gid::from_raw(account.gid)),
        )
        .with_context(|| tr!(INSTRUCTOR, "process-could-not-hand-pipe"))?;
    }
    Ok(ends)
}

#[cfg(not(unix))]
fn tape_pipe(_account: Option<Account>) -> Result<TapeEnds> {
    anyhow::bail!(tr!(INSTRUCTOR, "process-needs-unix"))
}

/// Reads the tape pipe to its end in a thread: its bytes, or `None` past `cap`. With a
/// marker, each line that ends with it is timed and counted in `marks` as it is read.
#[cfg(unix)]
fn capture_tape(
    read: std::os::fd::OwnedFd,
    cap: usize,
    marking: Option<(&'static [u8], Progress, Instant, std::sync::Arc<Marks>)>,
) -> thread::JoinHandle<Option<Vec<u8>>> {
    thread::spawn(move || {
        let mut pipe = std::fs::File::from(read);
        let mut kept = Vec::new();
        let mut buffer = [0u8; 65536];
        let mut overflowed = false;
        // The line being read, while it is short enough to be a mark.
        let mut line: Option<Vec<u8>> = Some(Vec::new());
        loop {
            let n = match pipe.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if kept.len() + n <= cap {
                kept.extend_from_slice(&buffer[..n]);
            } else {
                // Keep draining so the child never blocks on a full pipe.
                overflowed = true;
            }
            let Some((marker, progress, start, marks)) = &marking else {
                continue;
            };
            for &byte in &buffer[..n] {
                if byte != b'\n' {
                    if let Some(current) = &mut line {
                        current.push(byte);
                        if current.len() > MAX_MARK_BYTES {
                            line = None;
                        }
                    }
                    continue;
                }
                if let Some(current) = line.take()
                    && current.ends_with(marker)
                    && progress(
                        &current,
                        marks.count.load(std::sync::atomic::Ordering::SeqCst),
                    )
                {
                    marks
                        .lines
                        .lock()
                        .expect("no reader panics")
                        .push((current, start.elapsed()));
                    marks
                        .count
                        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                line = Some(Vec::new());
            }
        }
        (!overflowed).then_some(kept)
    })
}

#[cfg(not(unix))]
fn capture_tape(
    _read: (),
    _cap: usize,
    _marking: Option<(&'static [u8], Progress, Instant, std::sync::Arc<Marks>)>,
) -> thread::JoinHandle<Option<Vec<u8>>> {
    thread::spawn(|| None)
}

/// Reads a pipe to its end in a thread, keeping the first `cap` bytes.
fn capture(
    pipe: Option<impl Read + Send + 'static>,
    cap: usize,
) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut kept = Vec::new();
        let Some(mut pipe) = pipe else { return kept };
        let mut buffer = [0u8; 8192];
        loop {
            match pipe.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buffer[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// Waits for `child` at most `timeout`, and with `idle`, at most that long after the last
/// change of the counter of marked tape lines.
fn wait_with_timeout(
    child: &mut Child,
    timeout: Duration,
    idle: Option<(Duration, &std::sync::atomic::AtomicUsize)>,
) -> Result<Option<ExitStatus>> {
    let start = Instant::now();
    let deadline = start + timeout;
    let mut seen = (0, start);
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child
            .try_wait()
            .with_context(|| tr!(INSTRUCTOR, "process-could-not-wait"))?
        {
            return Ok(Some(status));
        }
        let now = Instant::now();
        let idle_out = idle.is_some_and(|(limit, lines)| {
            let count = lines.load(std::sync::atomic::Ordering::SeqCst);
            if count != seen.0 {
                seen = (count, now);
            }
            now >= seen.1 + limit
        });
        if now >= deadline || idle_out {
            kill_group(child);
            let _ = child.kill();
            return Ok(None);
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

#[cfg(unix)]
fn isolate(command: &mut Command, limits: Limits, tape: Option<&std::os::fd::OwnedFd>) {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    // Its own process group, so that a timeout kills everything it started (inside the
    // sandbox the PID namespace does this for good; without it, this is the backstop).
    command.process_group(0);
    if let Some(account) = limits.account {
        // The standard library also drops root's supplementary groups when it switches
        // the user, so the child keeps no privilege of ours.
        command.uid(account.uid).gid(account.gid);
    }
    let tape = tape.map(AsRawFd::as_raw_fd);
    // SAFETY: the closure runs in the forked child before exec and only makes system
    // calls that are async-signal-safe (setrlimit, prctl, dup2); it allocates nothing
    // and takes no locks.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(move || {
            use nix::sys::resource::{Resource, setrlimit};
            // If the checker dies, so does the child (and, in the sandbox, all of it).
            #[cfg(target_os = "linux")]
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
            setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
            if let Some(bytes) = limits.memory_bytes {
                setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
            }
            if let Some(bytes) = limits.file_bytes {
                setrlimit(Resource::RLIMIT_FSIZE, bytes, bytes)?;
            }
            if let Some(seconds) = limits.cpu_seconds {
                setrlimit(Resource::RLIMIT_CPU, seconds, seconds)?;
            }
            if let Some(fd) = tape
                && nix::libc::dup2(fd, TAPE_FD) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn isolate(_command: &mut Command, _limits: Limits, _tape: Option<&()>) {
    // Without process groups and rlimits only the child itself is killed on timeout,
    // and memory is not capped. The book's grading chapter says so.
}

#[cfg(unix)]
fn kill_group(child: &Child) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// Ends every process `account` runs: `kill(-1, SIGKILL)`, sent by a process of that
/// account, reaches every process of the same user but the sender (a process group or a
/// session would miss one that left it). Sent twice, for a process forked while the first
/// went out.
#[cfg(unix)]
pub fn end_every_process_of(account: Account) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    for _ in 0..2 {
        let _ = as_account(account, || {
            let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
            0
        });
    }
}

/// Accounts exist only on Unix.
#[cfg(not(unix))]
pub fn end_every_process_of(_account: Account) {}

/// The index of the first of `paths` that `account` may access `how` (read, or pass
/// through a folder), asked of the kernel by a process of that account.
#[cfg(unix)]
pub fn first_accessible_to(
    account: Account,
    paths: &[std::ffi::CString],
    how: nix::unistd::AccessFlags,
) -> Result<Option<usize>> {
    use nix::unistd::access;
    let paths = paths.to_vec();
    let code = as_account(account, move || {
        paths
            .iter()
            .position(|path| access(path.as_c_str(), how).is_ok())
            .map_or(0, |index| (index + 1).min(250) as i32)
    })?;
    Ok((1..=250).contains(&code).then(|| code as usize - 1))
}

/// Runs `probe` in a process forked as `account` (root's groups dropped, as for a test),
/// which exits with what it returns, and returns that status. Nothing is executed: the
/// child ends before its `exec`.
#[cfg(unix)]
fn as_account(
    account: Account,
    probe: impl Fn() -> i32 + Send + Sync + 'static,
) -> Result<i32> {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("/");
    command
        .uid(account.uid)
        .gid(account.gid)
        .env_clear()
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: the closure runs in the forked child and makes only async-signal-safe system
    // calls (access, kill, _exit); it allocates nothing (its paths were made before the
    // fork) and takes no locks.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(move || nix::libc::_exit(probe()));
    }
    let status = command.status().with_context(|| {
        tr!(
            INSTRUCTOR,
            "process-could-not-start",
            program = "kill/access"
        )
    })?;
    Ok(status.code().unwrap_or(-1))
}

#[cfg(not(unix))]
fn kill_group(child: &Child) {
    let _ = child.kill();
}

/// The status of the program a sandbox ran, from the sandbox's own: bubblewrap exits with
/// 128 + N when its program was killed by signal N.
#[cfg(unix)]
pub fn unwrap_sandbox_status(status: ExitStatus) -> ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    match status.code() {
        // A wait status whose low seven bits are the signal: "killed by signal N".
        Some(code) if (129..=128 + 64).contains(&code) => {
            ExitStatus::from_raw(code - 128)
        }
        _ => status,
    }
}

/// Sandboxes exist only on Unix: elsewhere the status is the program's own.
#[cfg(not(unix))]
pub fn unwrap_sandbox_status(status: ExitStatus) -> ExitStatus {
    status
}

/// A description of how a process ended, for messages, in the checker's language:
/// "exit code 3", "signal 6 (SIGABRT)".
pub fn describe_status(status: &ExitStatus) -> String {
    if let Some(code) = status.code() {
        return tr!(INSTRUCTOR, "process-exit-code", code = code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = nix::sys::signal::Signal::try_from(signal)
                .map(|s| s.as_str().to_owned())
                .unwrap_or_else(|_| tr!(INSTRUCTOR, "process-unknown-signal"));
            return tr!(INSTRUCTOR, "process-signal", signal = signal, name = name);
        }
    }
    tr!(INSTRUCTOR, "process-unknown-status")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn limits(timeout_ms: u64) -> Limits {
        Limits {
            timeout: Duration::from_millis(timeout_ms),
            memory_bytes: None,
            output_bytes: 16,
            account: None,
            end_account: false,
            file_bytes: None,
            cpu_seconds: None,
        }
    }

    #[test]
    fn output_is_captured_and_capped() {
        let mut command = Command::new("sh");
        command.args(["-c", "cat; echo 0123456789abcdefXYZ >&2"]);
        let done = run(command, b"hello", limits(5_000), None).unwrap();
        assert_eq!(done.stdout, b"hello");
        assert_eq!(done.stderr, b"0123456789abcdef");
        assert!(done.status.unwrap().success());
    }

    #[test]
    fn a_child_past_its_timeout_is_killed_with_its_whole_group() {
        let mut command = Command::new("sh");
        // The grandchild holds the output pipe open; only killing the group ends it.
        command.args(["-c", "sleep 30 & sleep 30"]);
        let start = Instant::now();
        let done = run(command, b"", limits(200), None).unwrap();
        assert!(done.timed_out());
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "took {:?}",
            start.elapsed()
        );
    }
}
