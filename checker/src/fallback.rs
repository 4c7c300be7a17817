//! What stands in for the sandbox where bubblewrap cannot run: `--unsandboxed --run-as
//! USER`, the checker running as root (Gradescope's containers, Docker without user
//! namespaces).
//!
//! The learner's tests then run as an unprivileged account, and this module makes that a
//! second line of defence of its own rather than the sandbox's shadow:
//!
//! - **Nothing the account can read holds an answer.** Grading refuses to start while the
//!   account can read a file of the reference solutions or of the suites (they must be
//!   made unreadable to it, as the Gradescope bundle's setup does), and the checker's
//!   build folder (the judge, every submission's build) is made its owner's alone. A test
//!   executable runs from a copy in a private folder outside the course, which the account
//!   may execute but not read: it cannot read its own file, and the kernel marks a process
//!   started from a file it cannot read as not dumpable, so no other process of the account
//!   can open its files or memory through `/proc` (a leftover process writing into a
//!   classmate's result channel finds it closed).
//! - **Every process the account starts ends with its test.** A process group is not
//!   enough (a process can leave it): after each of the account's runs, every process of
//!   the account is killed (`kill(-1)` sent by a process of that account, which reaches
//!   every process of the same user). So the account's runs go one at a time, each starting
//!   with the account emptied: no two students' code ever runs beside each other under it.
//!   A checker that is killed cannot empty the account itself: a warden it starts (the
//!   checker's own program, in [`warden`]) waits for the checker's end, whatever it is,
//!   and empties the account then.
//!
//! What this cannot do that the sandbox does: hide the rest of the machine's readable
//! files and the network, or limit memory per process tree rather than per process. The
//! book's chapter for instructors lists it.

use crate::course::Course;
use crate::messages::INSTRUCTOR;
use crate::process::Account;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The fallback's state for one grading: its private folder, the test executables copied
/// there, and the lock that runs the account's processes one at a time.
#[derive(Debug)]
pub struct Fallback {
    account: Account,
    /// A folder of root's, outside the course: the account may pass through it, not list it.
    stage: PathBuf,
    /// Each test executable's copy in `stage`, by the original's path.
    copies: Mutex<HashMap<PathBuf, PathBuf>>,
    /// The file whose lock is the account's turn, in the checker's private build folder:
    /// held while a process of the account runs and while the account is emptied, by every
    /// grading of this course (a `class` grades several submissions at once; two checkers
    /// may grade at once), so that no two runs of the account overlap.
    turn: PathBuf,
    /// The warden that empties the account when this checker ends, however it ends: it
    /// reads its standard input, the other end of which only this process holds, to the
    /// end (see [`warden`]).
    warden: Option<std::process::Child>,
}

/// The environment variable that makes the checker's program a warden: `uid:gid:turn`.
pub const WARDEN: &str = "CHECKER_RUN_AS_WARDEN";

/// The warden's second instruction: the private folder it removes once the account is
/// empty (a killed checker cannot remove it; left there, every killed grading would leave
/// a copy of each test executable behind).
pub const WARDEN_STAGE: &str = "CHECKER_RUN_AS_WARDEN_STAGE";

/// How the private folder's name starts: the warden removes nothing else.
const STAGE_PREFIX: &str = "course-run-";

/// The warden's whole life (`main` runs it when [`WARDEN`] is set): waits until its
/// standard input ends, which happens when the checker that started it ends, whatever
/// ends it (a kill signal too: the kernel closes the checker's end of the pipe); then,
/// in the account's turn, ends every process of the account, which a killed checker
/// leaves behind, and removes the checker's private folder ([`WARDEN_STAGE`]). It is in a
/// process group of its own, so that a signal to the checker's
/// group (Ctrl-C in a terminal) does not end it first.
#[cfg(unix)]
pub fn warden(spec: &std::ffi::OsStr) -> std::process::ExitCode {
    use std::io::Read;
    let spec = spec.to_string_lossy();
    let mut parts = spec.splitn(3, ':');
    let (Some(uid), Some(gid), Some(turn)) = (parts.next(), parts.next(), parts.next())
    else {
        return std::process::ExitCode::from(2);
    };
    let (Ok(uid), Ok(gid)) = (uid.parse(), gid.parse()) else {
        return std::process::ExitCode::from(2);
    };
    let mut sink = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut sink);
    let _turn = lock_turn(Path::new(turn));
    crate::process::end_every_process_of(Account { uid, gid });
    if let Some(stage) = std::env::var_os(WARDEN_STAGE).map(PathBuf::from) {
        let named_as_a_stage = stage
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with(STAGE_PREFIX));
        if named_as_a_stage {
            let _ = std::fs::remove_dir_all(&stage);
        }
    }
    std::process::ExitCode::SUCCESS
}

#[cfg(not(unix))]
pub fn warden(_spec: &std::ffi::OsStr) -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}

/// Waits for the account's turn, whose lock is the file `turn`; it lasts as long as what
/// this returns lives. Each call locks its own opening of the file, so threads of one
/// checker wait for each other too. A lock that cannot be taken (the file cannot be
/// opened) is not waited for.
#[cfg(unix)]
fn lock_turn(turn: &Path) -> Option<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(turn)
        .ok()?;
    file.lock().ok()?;
    Some(file)
}

#[cfg(not(unix))]
fn lock_turn(_turn: &Path) -> Option<std::fs::File> {
    None
}

/// Starts the warden of `account` (see [`warden`]): the checker's own program, with its
/// standard input a pipe this process alone holds the other end of.
#[cfg(unix)]
fn start_warden(
    account: Account,
    turn: &Path,
    stage: &Path,
) -> Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let program = std::env::current_exe()?;
    std::process::Command::new(program)
        .env(
            WARDEN,
            format!("{}:{}:{}", account.uid, account.gid, turn.display()),
        )
        .env(WARDEN_STAGE, stage)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .with_context(|| tr!(INSTRUCTOR, "process-could-not-start", program = "warden"))
}

impl Fallback {
    /// Prepares grading `course` as `account` without a sandbox: refuses an account that is
    /// root or that can read an answer, and makes the checker's build folder private.
    #[cfg(unix)]
    pub fn prepare(course: &Course, account: Account) -> Result<Self> {
        use std::os::unix::fs::PermissionsExt;
        if account.uid == 0 {
            bail!(tr!(INSTRUCTOR, "fallback-account-is-root"));
        }
        if account.uid == NOBODY {
            bail!(tr!(INSTRUCTOR, "fallback-account-is-shared"));
        }
        let secret = answers(course);
        let history = [course.root.join(".git"), course.target_dir()];
        let entered = accessible_by(account, &history, nix::unistd::AccessFlags::X_OK)?;
        let read = match entered {
            Some(folder) => Some(folder),
            None => accessible_by(account, &secret, nix::unistd::AccessFlags::R_OK)?,
        };
        if let Some(readable) = read {
            let path = readable.display().to_string();
            let course = course.root.display().to_string();
            bail!(tr!(
                INSTRUCTOR,
                "fallback-answers-readable",
                path = path,
                course = course
            ));
        }
        let scratch = course.scratch_dir();
        std::fs::create_dir_all(&scratch)?;
        std::fs::set_permissions(&scratch, std::fs::Permissions::from_mode(0o700))
            .with_context(|| {
                let path = scratch.display().to_string();
                tr!(INSTRUCTOR, "file-could-not-create", path = path)
            })?;
        let stage = std::env::temp_dir().join(format!(
            "{STAGE_PREFIX}{:032x}",
            rand::RngExt::random::<u128>(&mut rand::rng())
        ));
        std::fs::create_dir(&stage).with_context(|| {
            let path = stage.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-create", path = path)
        })?;
        std::fs::set_permissions(&stage, std::fs::Permissions::from_mode(0o711))?;
        let cwd = stage.join("cwd");
        std::fs::create_dir(&cwd)?;
        std::fs::set_permissions(&cwd, std::fs::Permissions::from_mode(0o700))?;
        account.own(&cwd)?;
        let turn = scratch.join(format!("run-as-{}.lock", account.uid));
        let warden = start_warden(account, &turn, &stage)?;
        Ok(Self {
            account,
            stage,
            copies: Mutex::new(HashMap::new()),
            turn,
            warden: Some(warden),
        })
    }

    /// Accounts exist only on Unix.
    #[cfg(not(unix))]
    pub fn prepare(_course: &Course, _account: Account) -> Result<Self> {
        bail!(tr!(INSTRUCTOR, "process-run-as-needs-unix", user = "?"))
    }

    /// The copy of the test executable `binary` the account runs: root's, executable by
    /// all and readable by none but root.
    #[cfg(unix)]
    pub fn executable(&self, binary: &Path) -> Result<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        let mut copies = self.copies.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(copy) = copies.get(binary) {
            return Ok(copy.clone());
        }
        let copy = self.stage.join(format!("test-{}", copies.len()));
        std::fs::copy(binary, &copy).with_context(|| {
            let path = copy.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-create", path = path)
        })?;
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o111))?;
        copies.insert(binary.to_path_buf(), copy.clone());
        Ok(copy)
    }

    /// Waits for the account's turn (see [`lock_turn`]).
    fn take_turn(&self) -> Option<std::fs::File> {
        lock_turn(&self.turn)
    }

    /// Accounts exist only on Unix.
    #[cfg(not(unix))]
    pub fn executable(&self, binary: &Path) -> Result<PathBuf> {
        Ok(binary.to_path_buf())
    }

    /// The folder the account's tests run in: its own, inside the private folder.
    pub fn cwd(&self) -> PathBuf {
        self.stage.join("cwd")
    }

    /// Runs `run` (which starts a process of the account and waits for it) when no other
    /// process of the account runs, the account emptied first (of what a checker that was
    /// killed may have left). The run itself ends every process of the account as its
    /// process ends (`Limits::end_account`).
    pub fn in_turn<T>(&self, run: impl FnOnce() -> T) -> T {
        let _turn = self.take_turn();
        crate::process::end_every_process_of(self.account);
        run()
    }
}

impl Drop for Fallback {
    fn drop(&mut self) {
        // The warden's input ends: it empties the account in its turn and exits.
        if let Some(mut warden) = self.warden.take() {
            drop(warden.stdin.take());
            let _ = warden.wait();
        }
        // The warden removed it; this covers a warden that could not.
        let _ = std::fs::remove_dir_all(&self.stage);
    }
}

/// With a sandbox, the `--run-as` account starts bubblewrap itself, which opens the test
/// executable it shows the test: the checker's build folder must let the account pass
/// through (not list it), as it does unless a grading without a sandbox made it root's
/// alone. What the sandbox shows the test is still its executable only.
///
/// The course's build folder above it must let the account pass too: an instructor who
/// closed it to the account for grading without a sandbox (`chmod o-rwx target`, as the
/// Gradescope bundle's setup does) gets it back passable, not listable.
#[cfg(unix)]
pub fn let_the_sandbox_pass(course: &Course) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let scratch = course.scratch_dir();
    std::fs::create_dir_all(&scratch)?;
    std::fs::set_permissions(&scratch, std::fs::Permissions::from_mode(0o711))?;
    let mut folder = scratch.parent();
    let target = course.target_dir();
    while let Some(dir) = folder.filter(|dir| dir.starts_with(&target)) {
        let mode = std::fs::metadata(dir)?.permissions().mode();
        if mode & 0o011 != 0o011 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode | 0o011))?;
        }
        folder = dir.parent();
    }
    Ok(())
}

/// Accounts exist only on Unix.
#[cfg(not(unix))]
pub fn let_the_sandbox_pass(_course: &Course) -> Result<()> {
    Ok(())
}

/// The user id of `nobody`, which system services share: every process of the `--run-as`
/// account is killed after each run, theirs too.
const NOBODY: u32 = 65534;

/// Every file of `course` whose contents answer a lesson: the reference solutions and the
/// suites (with their reference values and the held-out tier). The course's `.git` (every
/// version of them) and its build folder (suites and solutions compiled) hold them too:
/// the account may not even enter those.
fn answers(course: &Course) -> Vec<PathBuf> {
    [
        course.root.join("solutions"),
        course.root.join(course_manifest::EXPORTED_SUITES),
    ]
    .iter()
    .filter(|dir| dir.is_dir())
    .flat_map(|dir| walkdir::WalkDir::new(dir).into_iter().flatten())
    .filter(|entry| entry.file_type().is_file())
    .map(|entry| entry.into_path())
    .collect()
}

/// The first of `paths` that `account` can access `how` (read, or enter a folder), if any,
/// asked of the kernel by a process of that account (the permissions of every folder on
/// the way count, as they do for it).
#[cfg(unix)]
fn accessible_by(
    account: Account,
    paths: &[PathBuf],
    how: nix::unistd::AccessFlags,
) -> Result<Option<PathBuf>> {
    use std::os::unix::ffi::OsStrExt;
    // Exit statuses 1 to 250 name a readable path of the chunk; 0 says none is.
    for chunk in paths.chunks(250) {
        let names: Vec<std::ffi::CString> = chunk
            .iter()
            .filter_map(|path| std::ffi::CString::new(path.as_os_str().as_bytes()).ok())
            .collect();
        if let Some(index) = crate::process::first_accessible_to(account, &names, how)? {
            return Ok(chunk.get(index).cloned());
        }
    }
    Ok(None)
}
