//! Submissions named by outcome. Most hostile ones put their trick at the start of
//! `padding_mask`, which exactly four tests call: those must fail with the
//! right explanation and every other test must still pass on its merits.

use crate::util::{Graded, LESSON, Submission};
use std::time::Duration;

/// The graded and held-out tests that call `padding_mask`.
const PADDING_TESTS: [&str; 4] = [
    "padding_mask_blocks_the_padded_keys_for_every_query",
    "padded_keys_do_not_change_the_output",
    "heldout_cross_attention_with_padding_matches_numpy",
    "heldout_cross_attention_backward_matches_numerical_gradients",
];

/// A time by which any fixture, build included, has long finished.
const GENEROUS: Duration = Duration::from_secs(240);

/// Grades the solution with the fixture `checker/tests/fixtures/padding_mask/<name>.rs` at
/// the start of `padding_mask`.
fn padding_trick(name: &str) -> Graded {
    padding_trick_with(name, &[])
}

/// [`padding_trick`] with more options for the checker.
fn padding_trick_with(name: &str, extra: &[&str]) -> Graded {
    let submission = Submission::solved();
    submission.inject("pub fn padding_mask(", &crate::util::fixture(name));
    submission.grade_with(extra)
}

#[track_caller]
fn assert_only_padding_tests_fail(graded: &Graded, status: &str, needle: &str) {
    let (passed, total) = graded.counts();
    for name in PADDING_TESTS {
        graded.assert_failed(name, status, needle);
    }
    let others = total - PADDING_TESTS.len() as u64;
    assert_eq!(
        passed,
        others,
        "every other test passes on its merits: {}",
        graded.lesson()
    );
    assert!(graded.elapsed < GENEROUS, "took {:?}", graded.elapsed);
}

#[test]
fn the_solution_scores_full_marks() {
    let graded = Submission::solved().grade();
    let (passed, total) = graded.counts();
    assert!(total >= 20, "the suite has its tests: {total}");
    assert_eq!(passed, total, "{}", graded.lesson());
    assert_eq!(graded.json["score"], 1.0);
}

#[test]
fn the_untouched_stub_scores_zero_and_says_not_started() {
    let graded = Submission::stub().grade();
    assert_eq!(graded.counts().0, 0, "{}", graded.lesson());
    graded.assert_failed(
        "softmax_rows_sum_to_one",
        "not_started",
        "`softmax_rows` is still a todo!()",
    );
}

#[test]
fn an_endless_loop_times_out() {
    assert_only_padding_tests_fail(
        &padding_trick("endless_loop"),
        "timeout",
        "did not finish within 3 s",
    );
}

#[test]
fn a_lesson_that_keeps_timing_out_stops_early() {
    // A budget of two timeouts (the default is five): then the lesson's remaining tests
    // are not run.
    let graded = padding_trick_with("endless_loop", &["--lesson-timeouts", "2"]);
    let tests = graded.lesson()["tests"].as_array().unwrap();
    let timed_out = |t: &&serde_json::Value| {
        t["message"]
            .as_str()
            .unwrap()
            .contains("did not finish within 3 s")
    };
    let not_run = |t: &&serde_json::Value| {
        t["message"]
            .as_str()
            .unwrap()
            .starts_with("Not run: earlier tests timed out")
    };
    // Two, or three when the graded and held-out tiers each had one running.
    let count = tests.iter().filter(timed_out).count();
    assert!((2..=3).contains(&count), "{count}: {}", graded.lesson());
    assert!(tests.iter().any(|t| not_run(&t)), "{}", graded.lesson());
    assert!(
        tests
            .iter()
            .all(|t| t["passed"] == true || timed_out(&t) || not_run(&t)),
        "every test passes, times out, or is not run: {}",
        graded.lesson()
    );
    assert!(graded.elapsed < GENEROUS, "took {:?}", graded.elapsed);
}

#[test]
fn a_long_sleep_times_out() {
    let graded = padding_trick("long_sleep");
    assert_only_padding_tests_fail(&graded, "timeout", "did not finish within 3 s");
}

#[test]
fn flooding_every_test_s_channel_keeps_the_checker_s_memory_bounded() {
    // Each test that calls softmax_rows writes 40 MiB of results; a lesson keeps at most
    // 64 MiB in all for the judge, so the checker holds one flood, not one per test.
    let submission = Submission::solved();
    submission.inject(
        "pub fn softmax_rows(",
        &crate::util::fixture("floods_every_test"),
    );
    let (json, peak_mib) = submission.grade_measuring_memory(&[]);
    let tests = json["lessons"][0]["tests"]
        .as_array()
        .expect("tests")
        .clone();
    let bounded: Vec<&serde_json::Value> = tests
        .iter()
        .filter(|t| {
            t["message"]
                .as_str()
                .is_some_and(|m| m.contains("64 MiB of results in all"))
        })
        .collect();
    assert!(bounded.len() >= 10, "{json}");
    assert!(
        peak_mib < 700,
        "the checker's memory peaked at {peak_mib} MiB grading {} flooding tests",
        tests.len()
    );
}

#[test]
fn the_note_on_earlier_lessons_reads_no_more_than_grading_accepts() {
    // With `--whole-stack`, every graded lesson's sources are fingerprinted for the note on
    // earlier lessons. A `src/` holding a sparse file of 1 GiB (grading refuses it as too
    // large), or linked to a folder that holds one (grading refuses the link), must not be
    // read whole: the checker's memory stays far below the file's size.
    const GIB: u64 = 1 << 30;
    let large = Submission::solved();
    let blob = large.path().join(LESSON).join("src/weights.bin");
    std::fs::File::create(&blob).unwrap().set_len(GIB).unwrap();
    let linked = Submission::solved();
    let elsewhere = tempfile::tempdir().unwrap();
    let src = linked.path().join(LESSON).join("src");
    std::fs::rename(&src, elsewhere.path().join("src")).unwrap();
    let target = elsewhere.path().join("src");
    std::fs::File::create(target.join("weights.bin"))
        .unwrap()
        .set_len(GIB)
        .unwrap();
    std::os::unix::fs::symlink(&target, &src).unwrap();
    for (what, submission) in [("a large src/", &large), ("a linked src/", &linked)] {
        let (json, peak_mib) = submission.grade_measuring_memory(&["--whole-stack"]);
        let lesson = &json["lessons"][0];
        assert_eq!(lesson["score"], 0.0, "{what} is refused: {lesson}");
        assert!(
            peak_mib < 256,
            "grading {what} with --whole-stack, the checker's memory peaked at {peak_mib} MiB"
        );
    }
}

#[test]
fn made_up_test_ends_buy_no_time() {
    // Lines that look like a test's end, but are not the end of the test expected next,
    // do not restart the clock: the test that writes them runs out of time where it is
    // (and counts as a timeout), instead of exiting before the run's budget and having
    // every later test run again, once per call.
    let graded = padding_trick("fakes_test_ends");
    assert_only_padding_tests_fail(&graded, "timeout", "did not finish within 3 s");
}

#[test]
fn held_out_inputs_are_not_shown_by_a_graded_test() {
    // Lesson 02's softmax_rows writes the name of every held-out test that calls it to a
    // file in /tmp; lesson 03's split_heads panics with that file's contents, in a graded
    // test, whose message students see before grades are published. In the sandbox each
    // test has a /tmp of its own; without it (`--run-as`) tests share the account's /tmp,
    // and every held-out test runs after every graded one.
    let stash = format!(
        "/tmp/course-held-out-stash-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let submission = Submission::solved();
    submission.inject(
        "pub fn softmax_rows(",
        &format!(
            "if let Some(name) = std::thread::current().name().filter(|n| n.starts_with(\"heldout_\")) {{ \
             use std::io::Write as _; \
             if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open({stash:?}) {{ \
             let _ = writeln!(file, \"{{name}}\"); }} }}"
        ),
    );
    let lesson_03 = "03-multi-head-attention";
    let solved_03 =
        crate::util::course_root().join(format!("solutions/{lesson_03}/src/lib.rs"));
    submission.write(
        &format!("{lesson_03}/src/lib.rs"),
        &std::fs::read_to_string(solved_03).unwrap(),
    );
    submission.inject_into(
        lesson_03,
        "pub fn split_heads(",
        &format!(
            "if let Ok(text) = std::fs::read_to_string({stash:?}) {{ if !text.is_empty() {{ panic!(\"stashed: {{text}}\"); }} }}"
        ),
    );
    let output = crate::util::checker()
        .args([
            "grade",
            LESSON,
            lesson_03,
            "--format",
            "json",
            "--test-timeout",
            "3",
        ])
        .arg("--lessons-dir")
        .arg(submission.path())
        .args(crate::util::without_sandbox())
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&stash);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let leaked: Vec<String> = json["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|lesson| lesson["tests"].as_array().unwrap().iter())
        .filter(|test| test["tier"] != "held_out")
        .filter_map(|test| test["message"].as_str())
        .filter(|message| message.contains("heldout_"))
        .map(str::to_owned)
        .collect();
    assert!(
        leaked.is_empty(),
        "a graded test shows held-out test names: {leaked:?}"
    );
}

#[test]
fn writing_on_the_channel_buys_no_time() {
    // A test that keeps its result channel busy for four times its limit, then returns
    // the right value, is out of time (the checker's clock decides, not the channel).
    let graded = padding_trick("keeps_the_channel_busy");
    assert_only_padding_tests_fail(&graded, "timeout", "did not finish within 3 s");
}

#[test]
fn an_output_flood_is_capped_and_times_out() {
    let graded = padding_trick("output_flood");
    assert_only_padding_tests_fail(&graded, "timeout", "did not finish");
}

#[test]
fn exiting_with_status_zero_is_not_a_pass() {
    assert_only_padding_tests_fail(
        &padding_trick("exit_zero"),
        "crash",
        "std::process::exit",
    );
}

#[test]
fn forged_test_output_and_a_forged_report_earn_nothing() {
    let graded = padding_trick("forged_output_and_report");
    assert_only_padding_tests_fail(&graded, "crash", "before its checks finished");
}

#[test]
fn an_abort_is_a_crash() {
    assert_only_padding_tests_fail(&padding_trick("abort"), "crash", "SIGABRT");
}

#[test]
fn a_stack_overflow_is_a_crash_with_its_cause() {
    let graded = padding_trick("stack_overflow");
    assert_only_padding_tests_fail(&graded, "crash", "stack overflow");
}

#[test]
fn a_huge_allocation_hits_the_memory_limit() {
    let graded = padding_trick("huge_allocation");
    assert_only_padding_tests_fail(&graded, "crash", "ran out of memory");
}

/// The trick changes no result, and grading does not wait for what it left running.
#[track_caller]
fn assert_harmless_and_quick(graded: &Graded) {
    let (passed, total) = graded.counts();
    assert_eq!(
        passed,
        total,
        "the trick changes no result: {}",
        graded.lesson()
    );
    assert!(
        graded.elapsed < Duration::from_secs(100),
        "took {:?}",
        graded.elapsed
    );
}

#[test]
fn processes_spawned_by_a_test_do_not_outlive_it() {
    // The spawned sleep holds the test's output pipes open; only killing the test's
    // process group lets grading finish well before it would end.
    assert_harmless_and_quick(&padding_trick("spawned_process"));
}

#[test]
fn a_compile_error_fails_the_lesson_and_shows_the_error() {
    let submission = Submission::solved();
    submission.inject(
        "pub fn padding_mask(",
        &crate::util::fixture("compile_error"),
    );
    let graded = submission.grade();
    assert_eq!(graded.counts().0, 0);
    assert_eq!(graded.lesson()["status"], "does_not_compile");
    let message = graded.lesson()["message"].as_str().unwrap();
    assert!(
        message.contains("error[E0308]") && message.contains("mismatched types"),
        "{message}"
    );
}

#[test]
fn edited_visible_tests_and_an_added_test_file_change_nothing() {
    let submission = Submission::started();
    let always_pass = "#[test]\nfn everything_is_fine() {}\n";
    submission.write("02-attention/tests/visible.rs", always_pass);
    submission.write("02-attention/tests/graded.rs", always_pass);
    submission.write(
        "02-attention/Cargo.toml",
        "[package]\nname = \"attention\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    );
    let graded = submission.grade();
    assert_eq!(graded.counts().0, 0, "{}", graded.lesson());
}

#[test]
fn a_build_script_never_runs() {
    let submission = Submission::solved();
    let marker = submission.path().join("BUILD_SCRIPT_RAN");
    let script = format!(
        "fn main() {{ std::fs::write({:?}, \"\").unwrap(); panic!(\"the build script ran\"); }}\n",
        marker
    );
    submission.write("02-attention/build.rs", &script);
    submission.write("02-attention/src/build.rs", &script);
    let graded = submission.grade();
    let (passed, total) = graded.counts();
    assert_eq!(passed, total, "{}", graded.lesson());
    assert!(!marker.exists(), "the submission's build script ran");
}

#[test]
fn a_cargo_config_with_a_runner_is_ignored() {
    let submission = Submission::started();
    let config = "[target.'cfg(all())']\nrunner = \"true\"\n[build]\nrustflags = [\"--cfg\", \"forged\"]\n";
    submission.write(".cargo/config.toml", config);
    submission.write("02-attention/.cargo/config.toml", config);
    submission.write("02-attention/src/.cargo/config.toml", config);
    let graded = submission.grade();
    assert_eq!(graded.counts().0, 0, "{}", graded.lesson());
}

#[test]
fn a_rust_toolchain_file_is_ignored() {
    let submission = Submission::solved();
    let toolchain = "[toolchain]\nchannel = \"nightly-2001-01-01\"\n";
    submission.write("rust-toolchain.toml", toolchain);
    submission.write("02-attention/rust-toolchain.toml", toolchain);
    submission.write("02-attention/rust-toolchain", "nightly-2001-01-01\n");
    let graded = submission.grade();
    let (passed, total) = graded.counts();
    assert_eq!(passed, total, "{}", graded.lesson());
}

#[test]
fn a_missing_lesson_folder_scores_zero_with_a_clear_message() {
    let graded = Submission::empty().grade();
    let (passed, total) = graded.counts();
    assert_eq!(
        (passed, graded.lesson()["status"].as_str()),
        (0, Some("missing"))
    );
    assert!(total > 0);
    let message = graded.lesson()["message"].as_str().unwrap();
    assert!(message.contains("no folder 02-attention/"), "{message}");
}

#[test]
fn two_submissions_graded_at_once_do_not_mix() {
    // Both share the checker's build cache; each must be graded on its own code.
    let (solved, stub) = (Submission::solved(), Submission::started());
    let (solved, stub) = std::thread::scope(|scope| {
        let solved = scope.spawn(|| solved.grade());
        let stub = scope.spawn(|| stub.grade());
        (solved.join().unwrap(), stub.join().unwrap())
    });
    let (passed, total) = solved.counts();
    assert_eq!(passed, total, "{}", solved.lesson());
    assert_eq!(stub.counts().0, 0, "{}", stub.lesson());
}

#[test]
fn rewriting_the_report_after_a_failure_earns_nothing() {
    let graded = padding_trick("report_rewritten_after_failure");
    // Whether the harness or the thread wins the race, no test whose checks the wrong
    // mask fails gets credit. (The held-out gradient check passes on its merits: it
    // compares the backward pass with the forward pass, whatever the mask.)
    for name in &PADDING_TESTS[..3] {
        assert_eq!(graded.test(name)["passed"], false, "{}", graded.test(name));
    }
}

/// Grades the solution with a fixture at the start of `padding_mask` whose lesson must not
/// build: returns the report, after checking no test passed and the lesson's message.
#[track_caller]
fn refused_at_build(name: &str, extra: &[&str], status: &str, needle: &str) -> Graded {
    let submission = Submission::solved();
    submission.inject("pub fn padding_mask(", &crate::util::fixture(name));
    let graded = submission.grade_with(extra);
    assert_eq!(graded.counts().0, 0, "{}", graded.lesson());
    if !status.is_empty() {
        assert_eq!(graded.lesson()["status"], status, "{}", graded.lesson());
    }
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(message.contains(needle), "{message}");
    assert!(graded.elapsed < GENEROUS, "took {:?}", graded.elapsed);
    graded
}

#[test]
fn a_forged_tape_earns_nothing() {
    // The made-up mask is judged like any value: a wrong one fails its check, with the
    // test's teaching message; where the tape then runs out, the early exit is explained.
    let graded = padding_trick("forged_tape");
    for name in PADDING_TESTS {
        let test = graded.test(name);
        assert_eq!(test["passed"], false, "{name}: {test}");
    }
    let blocked = graded.test("padding_mask_blocks_the_padded_keys_for_every_query");
    assert_eq!(blocked["status"], "fail", "{blocked}");
    assert!(
        blocked["message"]
            .as_str()
            .unwrap()
            .contains("column j is key_is_token[j]"),
        "{blocked}"
    );
    let (passed, total) = graded.counts();
    assert_eq!(
        passed,
        total - PADDING_TESTS.len() as u64,
        "{}",
        graded.lesson()
    );
}

#[test]
fn the_suites_and_solutions_are_out_of_reach_at_run_time() {
    // Nothing there to read: the padding tests pass on their merits.
    let graded = padding_trick("reads_the_suites_at_run_time");
    let (passed, total) = graded.counts();
    assert_eq!(passed, total, "{}", graded.lesson());
}

#[test]
fn the_solution_and_the_held_out_suite_are_out_of_reach_at_compile_time() {
    // The held-out suite's reference values are there to read, outside the sandbox.
    let values = "solutions/02-attention/suite/heldout.json";
    assert!(crate::util::course_root().join(values).is_file());
    if !crate::util::without_sandbox().is_empty() {
        // Without the sandbox the files are there to read: the compiler's record of what
        // it read refuses the library before anything of it runs.
        refused_at_build(
            "reads_the_solution_at_compile_time",
            &[],
            "build_failed",
            "grading uses only the files of your lesson's src/",
        );
        return;
    }
    let graded = refused_at_build(
        "reads_the_solution_at_compile_time",
        &[],
        "does_not_compile",
        "couldn't read",
    );
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(!message.contains("fn softmax_rows"), "{message}");
    assert!(
        message
            .lines()
            .any(|line| line.contains("couldn't read") && line.contains("heldout.json")),
        "{message}"
    );
}

#[test]
fn the_harness_is_out_of_the_library_s_reach() {
    let graded = refused_at_build(
        "calls_the_harness",
        &[],
        "does_not_compile",
        "course_harness",
    );
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("unresolved") || message.contains("unlinked"),
        "{message}"
    );
    assert!(message.contains("course_mistakes"), "{message}");
}

#[test]
fn unsafe_code_in_a_file_of_any_name_is_refused() {
    // `include!("payload.txt")` compiles a file whose name does not end in `.rs`.
    let submission = Submission::solved();
    submission.write(
        "02-attention/src/payload.txt",
        "{ #[allow(unsafe_code)] let _byte = unsafe { std::ptr::read_volatile(&0u8) }; }",
    );
    submission.inject(
        "pub fn padding_mask(",
        &crate::util::fixture("includes_unsafe_code_from_a_text_file"),
    );
    let graded = submission.grade();
    assert_eq!(graded.counts().0, 0, "{}", graded.lesson());
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("payload.txt uses `unsafe`"),
        "{}",
        graded.lesson()
    );
}

#[test]
fn a_library_that_reads_outside_its_src_is_refused() {
    refused_at_build(
        "includes_a_file_outside_src",
        &[],
        "build_failed",
        "grading uses only the files of your lesson's src/",
    );
}

#[test]
fn a_compiler_error_never_shows_a_file_outside_src() {
    let graded = refused_at_build(
        "leaks_a_file_through_a_compile_error",
        &[],
        "build_failed",
        "grading uses only the files of your lesson's src/",
    );
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(!message.contains("size of"), "{message}");
}

#[test]
fn unsafe_code_is_refused_even_where_it_is_allowed() {
    refused_at_build("allows_unsafe_code", &[], "missing", "uses `unsafe`");
}

#[test]
fn including_dev_zero_hits_the_build_memory_limit() {
    refused_at_build("includes_dev_zero", &["--build-memory", "1024"], "", "");
}

#[test]
fn an_endless_constant_hits_the_build_time_limit() {
    refused_at_build(
        "endless_const_evaluation",
        &["--build-timeout", "15"],
        "build_failed",
        "took longer than 15 s",
    );
}

#[test]
fn a_child_in_its_own_process_group_ends_with_its_test() {
    assert_harmless_and_quick(&padding_trick("escaping_child"));
    let left = std::process::Command::new("pgrep")
        .args(["-f", "sleep 123.456"])
        .output()
        .expect("pgrep runs");
    assert!(
        left.stdout.is_empty(),
        "a process the test started outlived it: {}",
        String::from_utf8_lossy(&left.stdout)
    );
}

#[test]
fn a_symlinked_lesson_source_is_refused() {
    let submission = Submission::empty();
    let lesson = submission.path().join(crate::util::LESSON);
    std::fs::create_dir_all(&lesson).unwrap();
    let solution = crate::util::course_root()
        .join("solutions")
        .join(crate::util::LESSON)
        .join("src");
    std::os::unix::fs::symlink(solution, lesson.join("src")).unwrap();
    let graded = submission.grade();
    assert_eq!(graded.counts().0, 0, "{}", graded.lesson());
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(message.contains("is a symbolic link"), "{message}");
}

#[test]
fn flooding_the_result_channel_is_capped() {
    assert_only_padding_tests_fail(
        &padding_trick("tape_flood"),
        "crash",
        "more than 64 MiB of results",
    );
}

#[test]
fn a_lying_mask_type_earns_nothing() {
    // `causal_mask` returns a type of the submission's own whose `==` always says yes and
    // which derefs to a mask: the suite takes only the course's types, so it cannot pass.
    let submission = Submission::solved();
    let lib = submission
        .path()
        .join(crate::util::LESSON)
        .join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    let lying = source.replace(
        "pub fn causal_mask(len: usize) -> Mask {",
        "#[derive(Debug, Clone)]\n\
         pub struct LyingMask(pub Mask);\n\
         impl PartialEq<Mask> for LyingMask { fn eq(&self, _: &Mask) -> bool { true } }\n\
         impl std::ops::Deref for LyingMask { type Target = Mask; fn deref(&self) -> &Mask { &self.0 } }\n\
         pub fn causal_mask(len: usize) -> LyingMask { LyingMask(Mask::from_elem((len, len), true)) }\n\
         pub fn causal_mask_unused(len: usize) -> Mask {",
    );
    assert_ne!(source, lying, "the fixture found causal_mask");
    std::fs::write(&lib, lying).unwrap();
    let graded = submission.grade();
    let name = "causal_mask_is_lower_triangular_with_the_diagonal";
    assert_eq!(graded.test(name)["passed"], false, "{}", graded.test(name));
    assert_eq!(
        graded.counts().0,
        0,
        "the suite does not build on it: {}",
        graded.lesson()
    );
}

#[test]
fn compiler_errors_never_quote_the_held_out_suite() {
    let submission = Submission::solved();
    let lib = submission
        .path()
        .join(crate::util::LESSON)
        .join("src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    let changed = source.replace(
        "pub fn padding_mask(n_queries: usize, key_is_token: &[bool]) -> Mask {",
        "pub fn padding_mask(n_queries: usize, key_is_token: &[bool], _extra: u8) -> Mask {",
    );
    assert_ne!(source, changed, "the fixture found padding_mask");
    std::fs::write(&lib, changed).unwrap();
    let graded = submission.grade();
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("held-out tests do not compile"),
        "{message}"
    );
    assert!(
        !message.contains("heldout.rs") && !message.contains("heldout_"),
        "{message}"
    );
}

#[test]
fn killing_the_checker_ends_every_process_it_started() {
    let submission = Submission::solved();
    submission.inject(
        "pub fn padding_mask(",
        &crate::util::fixture("loops_with_a_hidden_child"),
    );
    // The checker's temporary folder is this test's own, so that what a killed checker
    // leaves there can be seen; the account the tests run as passes through it.
    let temporary = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let pass_through = std::fs::Permissions::from_mode(0o711);
        std::fs::set_permissions(temporary.path(), pass_through).unwrap();
    }
    let mut checker = crate::util::checker()
        .args([
            "grade",
            crate::util::LESSON,
            "--format",
            "json",
            "--test-timeout",
            "60",
        ])
        .arg("--lessons-dir")
        .arg(submission.path())
        .args(crate::util::without_sandbox())
        .env("TMPDIR", temporary.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the looping test (and its hidden child) is running, then kill the checker
    // the way a closed terminal or a killed CI job would.
    let started = std::time::Instant::now();
    let running = || {
        std::process::Command::new("pgrep")
            .args(["-f", "sleep 123.789"])
            .output()
            .is_ok_and(|o| !o.stdout.is_empty())
    };
    while !running() {
        assert!(
            started.elapsed() < GENEROUS,
            "the looping test never started"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    checker.kill().unwrap();
    checker.wait().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while running() {
        assert!(
            std::time::Instant::now() < deadline,
            "a process the test started outlived the killed checker"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Nor does the folder the tests ran from (with a copy of each test executable).
    let left = || {
        std::fs::read_dir(temporary.path())
            .unwrap()
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("course-run-"))
            .collect::<Vec<_>>()
    };
    while !left().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the killed checker left {:?} behind",
            left()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// What a test says when its checks passed but a value differed from the reference's.
const DIFFERS_FROM_REFERENCE: &str = "runs every call on the reference solution";

#[test]
fn a_forward_pass_that_answers_the_gradient_probes_from_memory_earns_nothing() {
    // The numerical gradient of a forward pass that remembers its answers is zero, and so
    // is this backward pass: the gradient test's own check passes, and only the judge's
    // comparison of every value with the reference's fails it.
    let submission = Submission::solved();
    submission.inject(
        "pub fn softmax_rows(",
        &crate::util::fixture("reference/answers_the_gradient_probes_from_memory"),
    );
    submission.inject(
        "pub fn softmax_rows_backward(",
        &crate::util::fixture("reference/zero_backward"),
    );
    let graded = submission.grade();
    graded.assert_failed(
        "softmax_backward_matches_numerical_gradient",
        "fail",
        DIFFERS_FROM_REFERENCE,
    );
    // The forward tests, which never probe, still pass on their merits.
    for name in [
        "softmax_matches_hand_computed_values",
        "softmax_rows_sum_to_one",
        "causal_mask_is_lower_triangular_with_the_diagonal",
    ] {
        assert_eq!(
            graded.test(name)["passed"],
            true,
            "{name}: {}",
            graded.lesson()
        );
    }
}

#[test]
fn zeros_of_the_right_shape_forward_and_backward_earn_no_gradient_test() {
    // A layer whose forward and backward passes both return zeros: the numerical gradient
    // of the forward (zero) matches the backward (zero) exactly.
    let submission = Submission::solved();
    submission.inject(
        "pub fn forward(&self, x: &Matrix) -> Matrix {",
        &crate::util::fixture("reference/zero_forward"),
    );
    submission.inject(
        "pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> LinearGrads {",
        &crate::util::fixture("reference/zero_linear_backward"),
    );
    let graded = submission.grade();
    graded.assert_failed(
        "linear_backward_matches_numerical_gradients",
        "fail",
        DIFFERS_FROM_REFERENCE,
    );
    let passed: Vec<&str> = graded.lesson()["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| t["passed"] == true)
        .filter_map(|t| t["name"].as_str())
        .filter(|name| name.contains("linear") || name.contains("head"))
        .collect();
    assert!(passed.is_empty(), "no test of the layer passes: {passed:?}");
}

#[test]
fn the_held_out_answers_are_not_in_the_process_that_runs_the_learner_s_code() {
    // The snippet computes nothing: it answers the held-out cross-attention with the
    // expected values it finds in its own executable or memory, and zeros otherwise. The
    // learner's build of the held-out suite leaves those values out (they are the judge's).
    let submission = Submission::solved();
    submission.inject(
        "pub fn scaled_dot_product_attention(",
        &crate::util::fixture("held_out/reads_its_own_executable"),
    );
    let graded = submission.grade();
    graded.assert_failed(
        "heldout_cross_attention_with_padding_matches_numpy",
        "fail",
        "weights",
    );
}

#[test]
fn the_judge_and_the_build_folder_are_out_of_reach_at_run_time() {
    // Nothing there to reach (in the sandbox, nothing of the course is mounted; in the
    // --run-as fallback, the checker's build folder is its own): the padding tests pass on
    // their merits.
    let graded = padding_trick("reaches_the_judge_at_run_time");
    let (passed, total) = graded.counts();
    assert_eq!(passed, total, "{}", graded.lesson());
}

#[test]
fn a_lessons_folder_that_is_a_link_is_refused() {
    // `--lessons-dir` (the Gradescope script's `grade` uses it) pointing at a link to the
    // course's solutions would otherwise grade the solutions.
    let outer = tempfile::tempdir().unwrap();
    let link = outer.path().join("lessons");
    std::os::unix::fs::symlink(crate::util::course_root().join("solutions"), &link)
        .unwrap();
    let output = crate::util::checker()
        .args([
            "grade",
            crate::util::LESSON,
            "--format",
            "json",
            "--lessons-dir",
        ])
        .arg(&link)
        .args(crate::util::without_sandbox())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("is a symbolic link"), "{stderr}");
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("\"passed\""),
        "nothing was graded"
    );
}
