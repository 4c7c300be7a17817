//! Helpers for the integration tests.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The lesson the fixtures are built from.
pub const LESSON: &str = "02-attention";

/// The course this checker belongs to.
pub fn course_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the course root exists")
}

/// A snippet of hostile code from `checker/tests/fixtures/`: `name` in `padding_mask/`, or
/// `folder/name`.
pub fn fixture(name: &str) -> String {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let folder = if name.contains('/') {
        fixtures
    } else {
        fixtures.join("padding_mask")
    };
    let path = folder.join(format!("{name}.rs"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fallback the hostile fixtures are graded in, where the environment asks for one:
/// - `CHECKER_FIXTURES_RUN_AS=USER` (the checker running as root, USER an account that owns
///   nothing and cannot read the solutions and suites): `--unsandboxed --run-as USER`, the
///   second line of defence, which must hold every fixture about credit and leaks;
/// - `CHECKER_FIXTURES_UNSANDBOXED` set: `--unsandboxed` alone, a maintainer's experiment
///   that shows which fixtures only the sandbox defeats (they then fail).
pub fn without_sandbox() -> Vec<String> {
    if let Some(user) = std::env::var_os("CHECKER_FIXTURES_RUN_AS") {
        let user = user.to_string_lossy().into_owned();
        vec!["--unsandboxed".into(), "--run-as".into(), user]
    } else if std::env::var_os("CHECKER_FIXTURES_UNSANDBOXED").is_some() {
        vec!["--unsandboxed".into()]
    } else {
        Vec::new()
    }
}

/// The checker binary, run from the course root, in English whatever the machine's locale
/// (the tests read its messages).
pub fn checker() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_checker"));
    command
        .current_dir(course_root())
        .env("NO_COLOR", "1")
        .env("COURSE_LANG", "en");
    command
}

/// A submission: a temporary folder laid out like `lessons/`.
pub struct Submission {
    dir: TempDir,
}

/// A graded submission: the checker's JSON, its exit status, and how long it took.
pub struct Graded {
    /// The parsed `--format json` report.
    pub json: Value,
    /// The checker's exit status and raw output.
    pub output: Output,
    /// How long grading took, build included.
    pub elapsed: Duration,
}

impl Submission {
    /// A submission with no lessons at all.
    pub fn empty() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    /// A submission whose lesson is the reference solution.
    pub fn solved() -> Self {
        Self::with_lib(
            &std::fs::read_to_string(
                course_root()
                    .join("solutions")
                    .join(LESSON)
                    .join("src/lib.rs"),
            )
            .unwrap(),
        )
    }

    /// A submission of every lesson's untouched stub.
    pub fn all_stubs() -> Self {
        let submission = Self::empty();
        let lessons = course_root().join("lessons");
        for entry in std::fs::read_dir(&lessons).unwrap().flatten() {
            let lib = entry.path().join("src/lib.rs");
            if let Ok(text) = std::fs::read_to_string(lib) {
                let id = entry.file_name().to_string_lossy().into_owned();
                submission.write(&format!("{id}/src/lib.rs"), &text);
            }
        }
        submission
    }

    /// A submission whose lesson is the untouched stub.
    pub fn stub() -> Self {
        Self::with_lib(
            &std::fs::read_to_string(
                course_root()
                    .join("lessons")
                    .join(LESSON)
                    .join("src/lib.rs"),
            )
            .unwrap(),
        )
    }

    /// The stub with one comment added: no longer the untouched stub (which the checker
    /// reports as not started without building it), so it is built and run, and every
    /// test reaches a todo!().
    pub fn started() -> Self {
        let submission = Self::stub();
        let lib = submission.path().join(LESSON).join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap();
        std::fs::write(&lib, format!("// Started.\n{text}")).unwrap();
        submission
    }

    fn with_lib(lib: &str) -> Self {
        let submission = Self::empty();
        submission.write(&format!("{LESSON}/src/lib.rs"), lib);
        submission
    }

    /// The submission's folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file of the submission (relative path).
    pub fn write(&self, relative: &str, text: &str) {
        let path = self.dir.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Puts `code` at the start of the body of the lesson function that begins with
    /// `signature` (e.g. `pub fn padding_mask(`).
    #[track_caller]
    pub fn inject(&self, signature: &str, code: &str) {
        self.inject_into(LESSON, signature, code);
    }

    /// [`Submission::inject`] into lesson `lesson`, whose `src/lib.rs` the submission holds.
    #[track_caller]
    pub fn inject_into(&self, lesson: &str, signature: &str, code: &str) {
        let path = self.dir.path().join(lesson).join("src/lib.rs");
        let text = std::fs::read_to_string(&path).unwrap();
        let start = text
            .find(signature)
            .unwrap_or_else(|| panic!("no `{signature}` in the lesson"));
        let brace = start + text[start..].find('{').unwrap() + 1;
        let patched = format!("{}\n{code}\n{}", &text[..brace], &text[brace..]);
        std::fs::write(path, patched).unwrap();
    }

    /// Every file of the submission with its bytes, to prove grading changed nothing.
    pub fn files(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        walkdir::WalkDir::new(self.dir.path())
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
            .map(|e| (e.path().to_path_buf(), std::fs::read(e.path()).unwrap()))
            .collect()
    }

    /// Grades the submission with `checker grade --format json` and a short test timeout.
    pub fn grade(&self) -> Graded {
        self.grade_with(&[])
    }

    /// Grades the submission as [`Submission::grade`] does, with `extra` options.
    pub fn grade_with(&self, extra: &[&str]) -> Graded {
        let before = self.files();
        let start = Instant::now();
        let output = checker()
            .args([
                "grade",
                LESSON,
                "--format",
                "json",
                "--test-timeout",
                "3",
                "--lessons-dir",
            ])
            .arg(self.dir.path())
            .args(extra)
            .args(without_sandbox())
            .output()
            .expect("the checker runs");
        let elapsed = start.elapsed();
        assert_eq!(
            output.status.code(),
            Some(0),
            "grading ran, so the exit status is 0; stderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            before == self.files(),
            "grading changed the submission's files"
        );
        let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "the checker printed invalid JSON ({e}):\n{}",
                String::from_utf8_lossy(&output.stdout)
            )
        });
        Graded {
            json,
            output,
            elapsed,
        }
    }
}

impl Submission {
    /// Grades the submission as [`Submission::grade`] does (with `extra` options), and
    /// measures the checker's peak memory (its resident set's high-water mark, `VmHWM`, read while it runs), in
    /// MiB.
    pub fn grade_measuring_memory(&self, extra: &[&str]) -> (Value, u64) {
        use std::io::Read as _;
        let mut child = checker()
            .args(["grade", LESSON, "--format", "json", "--test-timeout", "3"])
            .arg("--lessons-dir")
            .arg(self.dir.path())
            .args(extra)
            .args(without_sandbox())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the checker runs");
        let mut stdout = child.stdout.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut text = Vec::new();
            stdout.read_to_end(&mut text).map(|_| text)
        });
        let status = format!("/proc/{}/status", child.id());
        let mut peak_kib = 0;
        while child
            .try_wait()
            .expect("the checker can be waited for")
            .is_none()
        {
            if let Some(kib) = std::fs::read_to_string(&status).ok().and_then(|text| {
                text.lines()
                    .find_map(|line| line.strip_prefix("VmHWM:"))
                    .and_then(|rest| {
                        rest.trim().trim_end_matches("kB").trim().parse().ok()
                    })
            }) {
                peak_kib = kib;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let stdout = reader
            .join()
            .expect("no reader panics")
            .expect("stdout reads");
        let json = serde_json::from_slice(&stdout).expect("the checker prints JSON");
        (json, peak_kib >> 10)
    }
}

impl Graded {
    /// The lesson's report.
    pub fn lesson(&self) -> &Value {
        &self.json["lessons"][0]
    }

    /// The lesson's passed and total counts.
    pub fn counts(&self) -> (u64, u64) {
        let lesson = self.lesson();
        (
            lesson["passed"].as_u64().unwrap(),
            lesson["total"].as_u64().unwrap(),
        )
    }

    /// One test's report.
    #[track_caller]
    pub fn test(&self, name: &str) -> &Value {
        self.lesson()["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no test `{name}` in the report"))
    }

    /// Asserts the test `name` failed with `status` and a message containing `needle`.
    #[track_caller]
    pub fn assert_failed(&self, name: &str, status: &str, needle: &str) {
        let test = self.test(name);
        assert_eq!(test["passed"], false, "{name} must not pass: {test}");
        assert_eq!(test["status"], status, "{name}: {test}");
        let message = test["message"].as_str().unwrap();
        assert!(
            message.contains(needle),
            "{name}: expected `{needle}` in the message:\n{message}"
        );
    }
}
