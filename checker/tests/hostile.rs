//! Submissions named by outcome. Most hostile ones put their trick at the start of
//! `padding_mask`, which exactly four tests call: those must fail with the
//! right explanation and every other test must still pass on its merits.

use crate::util::{Graded, Submission};
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
    let submission = Submission::solved();
    submission.inject("pub fn padding_mask(", &crate::util::fixture(name));
    submission.grade()
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
fn a_long_sleep_times_out() {
    let graded = padding_trick("long_sleep");
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

#[test]
fn processes_spawned_by_a_test_do_not_outlive_it() {
    // The spawned sleep holds the test's output pipes open; only killing the test's
    // process group lets grading finish well before it would end.
    let graded = padding_trick("spawned_process");
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
    let submission = Submission::stub();
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
    let submission = Submission::stub();
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
    let (solved, stub) = (Submission::solved(), Submission::stub());
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
