//! `cargo xtask newcomer`: the path a new learner walks, on a machine new to the course.
//!
//! Every other check runs where the course has been built before, so cargo's download
//! cache already holds every crate. A newcomer's machine holds none. This task points
//! `CARGO_HOME` at a new, empty folder (the toolchain itself stays where rustup keeps it)
//! and takes two copies of the course through a learner's first steps:
//!
//! - a fresh `git clone` of this repository (its committed `HEAD`), and
//! - the student edition (`checker export-student`), what a class receives.
//!
//! In each, as the README and the book tell a learner:
//!
//! 1. `cargo run -p checker`: the progress table, every lesson at 0%, pointing at lesson
//!    01's first function;
//! 2. the first function of lesson 01 written, from its solution (as a learner would);
//! 3. `cargo run -p checker -- grade 01`: it must grade, and the tests of that function
//!    pass (every other test is "not started", a later function's `todo!()`);
//! 4. `cargo run -p checker -- hint`: a hint for the next function;
//! 5. `cargo run -p checker -- watch` in a pseudo-terminal: its first screen shows the
//!    lesson and the keys, then `q` ends it;
//! 6. `cargo run -p checker -- --lang zh-CN`: the progress table in Chinese.
//!
//! It prints the time of each step (and writes them to `target/xtask/newcomer/times.json`).
//! With `--cargo-home DIR`, it uses that download cache instead of an empty one (kept
//! between runs): the second run of `--cargo-home` measures a newcomer whose cache holds
//! the crates already, which is what the "warm" figures of the README are.

use anyhow::{Context, Result, bail, ensure};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The checker's arguments after `cargo run -p checker --`, for each step.
const GRADE_FIRST: &[&str] = &["grade", "01"];

/// The lesson and the function a newcomer writes first.
const FIRST_LESSON: &str = "01-rnn-bottleneck";

/// How long watch mode may take to show its first screen (it grades the lesson first).
const WATCH_FIRST_SCREEN: Duration = Duration::from_secs(600);

/// One copy of the course walked, and the time of each of its steps.
struct Walked {
    copy: &'static str,
    steps: Vec<(&'static str, Duration)>,
}

pub fn run(root: &Path, cargo_home: Option<&Path>) -> Result<()> {
    let base = root.join("target").join("xtask").join("newcomer");
    if base.exists() {
        std::fs::remove_dir_all(&base)?;
    }
    std::fs::create_dir_all(&base)?;
    let home = match cargo_home {
        Some(home) => {
            std::fs::create_dir_all(home)?;
            home.canonicalize()?
        }
        None => {
            let home = base.join("cargo-home");
            std::fs::create_dir_all(&home)?;
            home
        }
    };
    let cold = !home.join("registry").exists();
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    let lesson = manifest
        .lessons
        .iter()
        .find(|lesson| lesson.id == FIRST_LESSON)
        .with_context(|| format!("course.toml has no lesson {FIRST_LESSON}"))?;
    let function = lesson.first_function().to_owned();

    let clone = base.join("clone");
    crate::run_command(
        Command::new("git")
            .args(["clone", "--quiet"])
            .arg(root)
            .arg(&clone),
    )?;
    let student = base.join("student");
    crate::course_copy::export_student(root, &student)?;

    println!(
        "A newcomer's first steps, with {} download cache ({})",
        if cold { "an empty" } else { "a warm" },
        home.display()
    );
    println!("on {}\n", machine());
    let mut walked = Vec::new();
    for (copy, dir) in [("clone", &clone), ("student edition", &student)] {
        println!("{copy}:");
        let steps = walk(root, dir, &home, &function)
            .with_context(|| format!("the newcomer walk failed in the {copy}"))?;
        walked.push(Walked { copy, steps });
    }
    let json = serde_json::json!({
        "machine": machine(),
        "download_cache": if cold { "empty" } else { "warm" },
        "copies": walked.iter().map(|w| serde_json::json!({
            "copy": w.copy,
            "steps": w.steps.iter().map(|(step, time)| serde_json::json!({
                "step": step, "seconds": (time.as_secs_f64() * 10.0).round() / 10.0,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    std::fs::write(
        base.join("times.json"),
        serde_json::to_string_pretty(&json)?,
    )?;
    println!("\nthe newcomer walk passed in the clone and in the student edition");
    Ok(())
}

/// Walks one copy of the course at `dir`; the time of each step.
fn walk(
    root: &Path,
    dir: &Path,
    home: &Path,
    function: &str,
) -> Result<Vec<(&'static str, Duration)>> {
    let mut steps = Vec::new();
    let mut step = |name: &'static str, time: Duration| {
        println!("  {name:<44} {:>7.1} s", time.as_secs_f64());
        steps.push((name, time));
    };

    // 1. The progress table.
    let (output, time) = checker(dir, home, &[])?;
    let table = stdout(&output);
    ensure!(
        table.contains("0%") && table.contains(function),
        "the first progress table should show every lesson at 0% and point at \
         `{function}`; it printed:\n{table}"
    );
    step("progress table (`cargo run -p checker`)", time);

    // 2. The first function, written as its solution writes it.
    write_first_function(root, dir, function)?;

    // 3. Its grade.
    let (output, time) = checker(dir, home, GRADE_FIRST)?;
    let report = stdout(&output);
    // A test line is `✓ name` (passed), `✗ name` (failed) or `· name (not started)`.
    let tests: Vec<&str> = report
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with(['✓', '✗', '·']))
        .collect();
    let passed = tests.iter().filter(|l| l.starts_with('✓')).count();
    let other = tests
        .iter()
        .filter(|l| !l.starts_with('✓') && !l.ends_with("(not started)"))
        .count();
    ensure!(
        passed >= 1 && other == 0,
        "`grade 01` after writing `{function}` should pass that function's tests and \
         fail none (the others are not started); it printed:\n{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    step("first grade (`grade 01` after the first edit)", time);

    // 4. A hint for the next function.
    let (output, time) = checker(dir, home, &["hint"])?;
    let hint = stdout(&output);
    ensure!(
        hint.contains("step_backward"),
        "`hint` should give a hint for the next function; it printed:\n{hint}"
    );
    step("hint", time);

    // 5. Watch mode, in a pseudo-terminal.
    let time = watch(dir, home)?;
    step("watch: first screen, then q", time);

    // 6. The Chinese edition of the checker.
    let (output, time) = checker(dir, home, &["--lang", "zh-CN"])?;
    let table = stdout(&output);
    ensure!(
        table.contains("你的进度") && table.contains("下一步"),
        "`--lang zh-CN` should print the progress table in Chinese; it printed:\n{table}"
    );
    step("progress table in Chinese (`--lang zh-CN`)", time);
    Ok(steps)
}

/// `cargo run -p checker -- <args>` in `dir`, as a learner types it, with cargo's download
/// cache in `home` and the copy's own build folder; fails unless it succeeds.
fn checker(dir: &Path, home: &Path, args: &[&str]) -> Result<(Output, Duration)> {
    let mut command = cargo(dir, home);
    command
        .args(["run", "--quiet", "-p", "checker", "--"])
        .args(args);
    let start = Instant::now();
    let output = command
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("could not start {command:?}"))?;
    let time = start.elapsed();
    if !output.status.success() {
        bail!(
            "`cargo run -p checker -- {}` failed with {}:\n{}{}",
            args.join(" "),
            output.status,
            stdout(&output),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok((output, time))
}

/// A cargo command as a newcomer's shell runs it: in `dir`, with `home` as cargo's home
/// and no build folder or cargo setting inherited from this workspace's build.
fn cargo(dir: &Path, home: &Path) -> Command {
    let mut command = Command::new("cargo");
    // In English (the Chinese step asks with --lang), whatever this machine's locale.
    command
        .current_dir(dir)
        .env("CARGO_HOME", home)
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if (name.starts_with("CARGO_") && name != "CARGO_HOME") || name == "RUSTFLAGS" {
            command.env_remove(name.as_ref());
        }
    }
    command
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Replaces `todo!("<function>")` in the copy's lesson 01 with the body its solution's
/// `// BEGIN SOLUTION: todo!("<function>")` region holds: the edit a learner makes.
fn write_first_function(root: &Path, dir: &Path, function: &str) -> Result<()> {
    let todo = format!("todo!(\"{function}\")");
    let begin = format!("// BEGIN SOLUTION: {todo}");
    let solutions = root.join("solutions").join(FIRST_LESSON).join("src");
    for entry in walkdir::WalkDir::new(&solutions) {
        let entry = entry?;
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let Some(body) = text
            .split_once(&begin)
            .and_then(|(_, rest)| rest.split_once("// END SOLUTION"))
            .map(|(body, _)| body)
        else {
            continue;
        };
        // The region's lines, without the marker's own line end and the END's indent.
        let body = body
            .strip_prefix('\n')
            .unwrap_or(body)
            .trim_end_matches(' ')
            .trim_end_matches('\n');
        let relative = entry.path().strip_prefix(&solutions)?;
        let stub_path = dir
            .join("lessons")
            .join(FIRST_LESSON)
            .join("src")
            .join(relative);
        let stub = std::fs::read_to_string(&stub_path)
            .with_context(|| format!("could not read {}", stub_path.display()))?;
        let lines: Vec<&str> = stub.lines().collect();
        let at = lines
            .iter()
            .position(|line| line.trim() == todo)
            .with_context(|| format!("{} has no `{todo}`", stub_path.display()))?;
        let mut edited: Vec<&str> = lines[..at].to_vec();
        edited.push(body);
        edited.extend(&lines[at + 1..]);
        std::fs::write(&stub_path, edited.join("\n") + "\n")?;
        return Ok(());
    }
    bail!(
        "no solution region for `{function}` under {}",
        solutions.display()
    )
}

/// Starts watch mode in a pseudo-terminal, waits for its first screen (the lesson graded,
/// the keys shown), checks it, presses `q` and waits for it to end; the time until the
/// first screen.
fn watch(dir: &Path, home: &Path) -> Result<Duration> {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    let (rows, cols) = (40, 120);
    let pty = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .context("could not open a pseudo-terminal")?;
    let template = cargo(dir, home);
    let mut command = CommandBuilder::new("cargo");
    command.cwd(dir);
    command.env_clear();
    for (name, value) in std::env::vars_os() {
        command.env(name, value);
    }
    for (name, value) in template.get_envs() {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        }
    }
    command.env("TERM", "xterm-256color");
    command.args(["run", "--quiet", "-p", "checker", "--", "watch"]);
    let start = Instant::now();
    let mut child = pty
        .slave
        .spawn_command(command)
        .context("could not start watch mode in a pseudo-terminal")?;
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader()?;
    let mut writer = pty.master.take_writer()?;
    // The terminal's screen, fed by a reader thread.
    let size =
        |n: u16| std::num::NonZero::new(n).expect("a terminal has rows and columns");
    let parser = vt100::Parser::new(size(rows), size(cols), 0);
    let screen = std::sync::Arc::new(std::sync::Mutex::new(parser));
    let feeding = screen.clone();
    let reader_thread = std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buffer) {
            if n == 0 {
                break;
            }
            feeding
                .lock()
                .expect("no reader panics")
                .process(&buffer[..n]);
        }
    });
    let contents = || screen.lock().expect("no reader panics").screen().contents();
    let first_screen = loop {
        let text = contents();
        if text.contains("Save the file to re-grade") {
            break Ok(start.elapsed());
        }
        if let Some(status) = child.try_wait()? {
            break Err(anyhow::anyhow!(
                "watch mode ended ({status:?}) before its first screen:\n{text}"
            ));
        }
        if start.elapsed() > WATCH_FIRST_SCREEN {
            break Err(anyhow::anyhow!(
                "watch mode showed no first screen within {} s:\n{text}",
                WATCH_FIRST_SCREEN.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let first_screen = match first_screen {
        Ok(time) => time,
        Err(error) => {
            child.kill().ok();
            return Err(error);
        }
    };
    let text = contents();
    let expected = ["01", "The RNN bottleneck", "step_backward", "h hint"];
    let missing: Vec<&&str> = expected.iter().filter(|e| !text.contains(**e)).collect();
    if !missing.is_empty() {
        child.kill().ok();
        bail!("watch mode's first screen lacks {missing:?}:\n{text}");
    }
    writer.write_all(b"q")?;
    writer.flush()?;
    let quit = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            ensure!(
                status.success(),
                "watch mode ended with {status:?} after q:\n{}",
                contents()
            );
            break;
        }
        if quit.elapsed() > Duration::from_secs(30) {
            child.kill().ok();
            bail!("watch mode did not end within 30 s of q:\n{}", contents());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(writer);
    drop(pty.master);
    reader_thread.join().ok();
    Ok(first_screen)
}

/// The CPU and the number of cores, as Linux reports them.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_owned())
        })
        .unwrap_or_else(|| "an unknown CPU".to_owned());
    format!("{cores} cores of {model}")
}
