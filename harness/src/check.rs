//! Assertions on floats and matrices whose failures teach.
//!
//! Every failure message has the same parts, so a learner learns to read them once:
//!
//! ```text
//! attention weights: row 2 sums to 1.37, but every row of a softmax sums to 1.
//! Likely cause: the softmax normalised over the wrong axis (columns instead of rows).
//! ```
//!
//! and, for a matrix that differs from the expected one, the first entry that differs,
//! both matrices, and, when the wrong answer matches a known [`Misconception`], its name.
//!
//! Tolerances are stated per check as a [`Tol`]: `|got - expected| <= abs + rel * |expected|`.
//! NaN is never close to anything, so a NaN always fails.

use crate::causes::Hint;
use crate::{Cause, MESSAGES, tr};
use course_common::ndarray::Array2;
use course_common::{Float, Matrix};
use std::fmt::Write as _;

/// A tolerance for comparing floats: `|got - expected| <= abs + rel * |expected|`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tol {
    /// The absolute part.
    pub abs: Float,
    /// The part relative to the expected value's magnitude.
    pub rel: Float,
}

impl Tol {
    /// Agreement to about ten significant digits: holds for any correct order of summation
    /// of the course's small fixtures in `f64`, and fails any wrong formula.
    pub const TIGHT: Tol = Tol {
        abs: 1e-10,
        rel: 1e-9,
    };
    /// Agreement to the four decimals that hand-computed and printed fixtures carry.
    pub const FOUR_DECIMALS: Tol = Tol {
        abs: 6e-5,
        rel: 0.0,
    };

    /// Whether `got` is within this tolerance of `expected`. NaN is never close.
    pub fn accepts(&self, got: Float, expected: Float) -> bool {
        (got - expected).abs() <= self.abs + self.rel * expected.abs()
    }
}

/// A wrong answer that a common mistake produces, used to name the mistake when a
/// learner's result matches it.
#[derive(Clone, Debug)]
pub struct Misconception {
    /// What the mistake is, phrased as the likely cause: "softmax over the wrong axis".
    pub cause: Cause,
    /// What the code returns when it makes that mistake.
    pub result: Matrix,
}

/// Panics unless `got` is within `tol` of `expected`.
#[track_caller]
pub fn assert_close(what: &str, got: Float, expected: Float, tol: Tol) {
    if !tol.accepts(got, expected) {
        let relation = crate::relations::describe_number(got, expected)
            .map(|line| format!("\n{line}"))
            .unwrap_or_default();
        panic!(
            "{}{relation}",
            tr!(
                MESSAGES,
                "close-mismatch",
                what = what,
                expected = expected.to_string(),
                got = got.to_string(),
                abs = tol.abs.to_string(),
                rel = tol.rel.to_string(),
            )
        );
    }
}

/// Panics unless `got` has the shape `expected`, naming both and the dimension that
/// differs.
#[track_caller]
pub fn assert_same_shape(what: &str, got: &Matrix, expected: (usize, usize)) {
    // The hint is formatted only for a failure: every matrix check passes through here.
    if got.dim() != expected {
        assert_same_shape_because(
            what,
            got,
            expected,
            &tr!(MESSAGES, "shape-likely-cause"),
        );
    }
}

/// As [`assert_same_shape`], with the likely cause the caller knows.
#[track_caller]
pub fn assert_same_shape_because(
    what: &str,
    got: &Matrix,
    expected: (usize, usize),
    hint: &(impl Hint + ?Sized),
) {
    let (rows, cols) = got.dim();
    if (rows, cols) == expected {
        return;
    }
    let row_text = tr!(MESSAGES, "shape-rows", got = rows, expected = expected.0);
    let col_text = tr!(MESSAGES, "shape-cols", got = cols, expected = expected.1);
    let differs = match (rows != expected.0, cols != expected.1) {
        (true, true) => tr!(
            MESSAGES,
            "shape-rows-and-cols",
            rows = row_text,
            cols = col_text
        ),
        (true, false) => row_text,
        _ => col_text,
    };
    let transposed = if (cols, rows) == expected && rows != cols {
        tr!(MESSAGES, "shape-transposed")
    } else {
        String::new()
    };
    hint.failed();
    panic!(
        "{}",
        tr!(
            MESSAGES,
            "shape-mismatch",
            what = what,
            expected = format!("{expected:?}"),
            got = format!("{:?}", got.dim()),
            differs = differs,
            transposed = transposed,
            hint = hint.text(),
        )
    );
}

/// Several checks of one result, each run to its end: a test that checks several parts
/// (a layer's `d_x` and its parameters' gradients) fails with the first failing check's
/// whole message, followed by the first line of every other failing check, so that the
/// learner sees which parts are wrong and which are right, not only the first.
///
/// ```ignore
/// let mut checks = Checks::new();
/// checks.check(|| assert_matrix_close("d_x", &grads.d_x, &want, Tol::TIGHT, &[]));
/// checks.check(|| assert_matrix_close("d_gamma", &d_gamma, &want_gamma, Tol::TIGHT, &[]));
/// checks.finish();
/// ```
///
/// A `todo!()` and the tape's own panics are passed on at once, as they are.
#[derive(Debug, Default)]
pub struct Checks {
    failures: Vec<String>,
    /// The names of the named checks that passed ([`Checks::check_as`]).
    passed: Vec<String>,
}

impl Checks {
    /// No check run yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `check`, noting its failure (a panic) and going on.
    pub fn check(&mut self, check: impl FnOnce()) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
        if let Err(payload) = outcome {
            let message = crate::tape::panic_message(payload.as_ref());
            let passed_on = message.starts_with(crate::panics::NOT_STARTED)
                || message.starts_with(crate::tape::TAPE_ENDED)
                || message.starts_with(crate::tape::TAPE_MISMATCH);
            if passed_on {
                std::panic::resume_unwind(payload);
            }
            self.failures.push(message);
        }
    }

    /// Runs `check` as [`Checks::check`] does; if it passes, a failure of the test lists
    /// `name` among the parts that are right ("Right in this test: d_memory, norm_3
    /// d_gamma"), which says as much as the parts that are wrong.
    pub fn check_as(&mut self, name: &str, check: impl FnOnce()) {
        let failures = self.failures.len();
        self.check(check);
        if self.failures.len() == failures {
            self.passed.push(name.to_owned());
        }
    }

    /// Whether a check has failed so far.
    pub fn failed(&self) -> bool {
        !self.failures.is_empty()
    }

    /// If a check has failed, puts `message` first: what the failures have in common
    /// (an input the test depends on is wrong), to read before them. Nothing if all
    /// passed, so that a right result never fails for the note.
    pub fn lead_with(&mut self, message: impl FnOnce() -> String) {
        if self.failed() {
            self.failures.insert(0, message());
        }
    }

    /// Fails with the first failure's message, a line for each other one, and the names
    /// of the named checks that passed, if any check failed.
    #[track_caller]
    pub fn finish(self) {
        let mut failures = self.failures.into_iter();
        let Some(first) = failures.next() else {
            return;
        };
        let others: Vec<String> = failures
            .map(|message| message.lines().next().unwrap_or_default().to_owned())
            .collect();
        let mut text = first;
        if !others.is_empty() {
            let _ = write!(text, "\n{}", tr!(MESSAGES, "checks-also-failing"));
            for line in others {
                let _ = write!(text, "\n  - {line}");
            }
        }
        if !self.passed.is_empty() {
            let _ = write!(
                text,
                "\n{}",
                tr!(MESSAGES, "checks-right", names = self.passed.join(", "))
            );
        }
        panic!("{text}");
    }
}

/// Panics unless every entry of `got` is finite, pointing at the first that is not.
#[track_caller]
pub fn assert_all_finite(what: &str, got: &Matrix, hint: &(impl Hint + ?Sized)) {
    if let Some(((row, col), value)) = got.indexed_iter().find(|(_, v)| !v.is_finite()) {
        hint.failed();
        let message = tr!(
            MESSAGES,
            "not-finite",
            what = what,
            row = row,
            col = col,
            value = value.to_string(),
            hint = hint.text(),
        );
        panic!("{message}\n{}", show(&tr!(MESSAGES, "label-got"), got));
    }
}

/// Panics unless every row of `got` sums to 1 within `1e-9`.
#[track_caller]
pub fn assert_rows_sum_to_one(what: &str, got: &Matrix, hint: &(impl Hint + ?Sized)) {
    for (row, values) in got.rows().into_iter().enumerate() {
        let sum: Float = values.sum();
        if !Tol::TIGHT.accepts(sum, 1.0) {
            hint.failed();
            let message = tr!(
                MESSAGES,
                "rows-sum-to-one",
                what = what,
                row = row,
                sum = shown_apart(sum, 1.0).0,
                hint = hint.text(),
            );
            panic!("{message}\n{}", show(&tr!(MESSAGES, "label-got"), got));
        }
    }
}

/// Panics unless `got` equals `expected` entry by entry within `tol`.
///
/// On failure the message names the first entry that differs and prints both matrices;
/// if `got` matches one of the `misconceptions` instead, it names that mistake.
#[track_caller]
pub fn assert_matrix_close(
    what: &str,
    got: &Matrix,
    expected: &Matrix,
    tol: Tol,
    misconceptions: &[Misconception],
) {
    assert_same_shape(what, got, expected.dim());
    caught_here(what, expected, misconceptions);
    let Some(((row, col), diff)) = first_difference(got, expected, tol) else {
        return;
    };
    let (shown_expected, shown_got) = shown_apart(expected[[row, col]], got[[row, col]]);
    let mut message = tr!(
        MESSAGES,
        "matrix-entry",
        what = what,
        row = row,
        col = col,
        expected = shown_expected,
        got = shown_got,
        diff = format!("{diff:.3e}"),
        abs = format!("{:.0e}", tol.abs),
        rel = format!("{:.0e}", tol.rel),
    );
    message.push('\n');
    match recognition(got, misconceptions) {
        Some(recognised) => {
            let _ = writeln!(message, "{recognised}");
        }
        // Not a listed mistake: what the wrong result still has in common with the
        // right one, if anything.
        None => {
            for line in crate::relations::describe(got, expected, 1e-6) {
                let _ = writeln!(message, "{line}");
            }
        }
    }
    message.push_str(&show(&tr!(MESSAGES, "label-expected"), expected));
    message.push_str(&show(&tr!(MESSAGES, "label-got"), got));
    panic!("{message}");
}

/// Two numbers a message shows side by side (an expected value and the one that came
/// back, or a result and the value it should have): six decimals, or as many more as it
/// takes for numbers that differ to read differently (0.0029991 and 0.0029990 for
/// 0.00299912 and 0.00299904, not 0.002999 twice), up to twenty; past that, Rust's
/// shortest form of each, which tells any two different numbers apart.
pub fn shown_apart(a: Float, b: Float) -> (String, String) {
    shown_apart_as(a, b, |x, extra| format!("{x:.*}", 6 + extra))
}

/// [`shown_apart`] in another `style`: `style(x, extra)` shows `x` with `extra` digits
/// more than its usual form; `extra` grows from 0 until the two read differently.
pub fn shown_apart_as(
    a: Float,
    b: Float,
    style: impl Fn(Float, usize) -> String,
) -> (String, String) {
    let same = a == b || (a.is_nan() && b.is_nan());
    for extra in 0..=14 {
        let (x, y) = (style(a, extra), style(b, extra));
        if x != y || same {
            return (x, y);
        }
    }
    (format!("{a:e}"), format!("{b:e}"))
}

/// A sequence of ids (tokens, bytes) as a `(1, n)` row, so that a listed mistake's wrong
/// sequence is a [`Misconception`] like any other result (ids below 2^53 are exact).
pub fn ids_row(ids: &[usize]) -> Matrix {
    Matrix::from_shape_fn((1, ids.len()), |(_, i)| ids[i] as Float)
}

/// Panics unless the ids `got` equal `expected`, naming the first position where they
/// differ (or the lengths), showing both sequences, and naming the mistake whose
/// sequence `got` is, if it is one of `misconceptions` (results made with [`ids_row`]).
#[track_caller]
pub fn assert_ids_eq(
    what: &str,
    got: &[usize],
    expected: &[usize],
    misconceptions: &[Misconception],
) {
    caught_here(what, &ids_row(expected), misconceptions);
    if got == expected {
        return;
    }
    let mut message = match got.iter().zip(expected).position(|(g, e)| g != e) {
        Some(at) => tr!(
            MESSAGES,
            "ids-differ",
            what = what,
            at = at,
            expected = expected[at],
            got = got[at]
        ),
        None => tr!(
            MESSAGES,
            "ids-length",
            what = what,
            expected = expected.len(),
            got = got.len()
        ),
    };
    message.push('\n');
    match recognition(&ids_row(got), misconceptions) {
        Some(recognised) => {
            let _ = writeln!(message, "{recognised}");
        }
        None => {
            if let Some(relation) = ids_relation(got, expected) {
                let _ = writeln!(message, "{relation}");
            }
        }
    }
    let _ = writeln!(message, "{}: {expected:?}", tr!(MESSAGES, "label-expected"));
    let _ = writeln!(message, "{}: {got:?}", tr!(MESSAGES, "label-got"));
    panic!("{message}");
}

/// Panics unless the pair counts `got` (each pair with its count, as `count_pairs` gives
/// them) equal `expected`, naming the first pair, in the pairs' order, whose count differs
/// (or that only one side has), showing both as pair: count, and naming the mistake whose
/// counts `got` are, if it is one of `misconceptions` (results made with [`ids_row`] of
/// the flat list first, second, count, ... in the pairs' order).
#[track_caller]
pub fn assert_pair_counts_eq(
    what: &str,
    got: &[((usize, usize), usize)],
    expected: &[((usize, usize), usize)],
    misconceptions: &[Misconception],
) {
    let flat = |counts: &[((usize, usize), usize)]| -> Vec<usize> {
        counts.iter().flat_map(|&((a, b), n)| [a, b, n]).collect()
    };
    caught_here(what, &ids_row(&flat(expected)), misconceptions);
    let as_map = |counts: &[((usize, usize), usize)]| -> std::collections::BTreeMap<(usize, usize), usize> {
        counts.iter().copied().collect()
    };
    let (got_map, expected_map) = (as_map(got), as_map(expected));
    if got_map == expected_map && got.len() == expected.len() {
        return;
    }
    let first = got_map
        .keys()
        .chain(expected_map.keys())
        .filter(|pair| got_map.get(pair) != expected_map.get(pair))
        .min()
        .copied();
    let mut message = match first {
        Some((a, b)) => match (got_map.get(&(a, b)), expected_map.get(&(a, b))) {
            (Some(&got), Some(&expected)) => tr!(
                MESSAGES,
                "pair-count-differs",
                what = what,
                a = a,
                b = b,
                expected = expected,
                got = got
            ),
            (None, Some(&expected)) => tr!(
                MESSAGES,
                "pair-count-missing",
                what = what,
                a = a,
                b = b,
                expected = expected
            ),
            (got, _) => tr!(
                MESSAGES,
                "pair-count-extra",
                what = what,
                a = a,
                b = b,
                got = got.copied().unwrap_or_default()
            ),
        },
        // The same counts, a pair listed twice.
        None => tr!(
            MESSAGES,
            "pair-count-repeated",
            what = what,
            got = got.len(),
            expected = expected.len()
        ),
    };
    message.push('\n');
    if let Some(recognised) = recognition(&ids_row(&flat(got)), misconceptions) {
        let _ = writeln!(message, "{recognised}");
    }
    let shown = |counts: &[((usize, usize), usize)]| -> String {
        let pairs: Vec<String> = counts
            .iter()
            .map(|&((a, b), n)| format!("({a}, {b}): {n}"))
            .collect();
        format!("{{{}}}", pairs.join(", "))
    };
    let _ = writeln!(
        message,
        "{}: {}",
        tr!(MESSAGES, "label-expected"),
        shown(expected)
    );
    let _ = writeln!(message, "{}: {}", tr!(MESSAGES, "label-got"), shown(got));
    panic!("{message}");
}

/// What a wrong sequence of ids still has in common with the right one: the same ids in
/// another order, the one stretch where they differ (the rest equal), or where they part
/// for good (only the beginning equal), with the bytes of
/// each side as text when they are printable UTF-8 (a tokenizer's ids are often bytes).
pub fn ids_relation(got: &[usize], expected: &[usize]) -> Option<String> {
    let mut sorted_got = got.to_vec();
    let mut sorted_expected = expected.to_vec();
    sorted_got.sort_unstable();
    sorted_expected.sort_unstable();
    if sorted_got == sorted_expected {
        return Some(tr!(MESSAGES, "ids-reordered"));
    }
    let prefix = got.iter().zip(expected).take_while(|(g, e)| g == e).count();
    let suffix = got[prefix..]
        .iter()
        .rev()
        .zip(expected[prefix..].iter().rev())
        .take_while(|(g, e)| g == e)
        .count();
    let yours = &got[prefix..got.len() - suffix];
    let theirs = &expected[prefix..expected.len() - suffix];
    // Nothing in common at either end: the stretch would be both sequences whole.
    if prefix + suffix == 0 {
        return None;
    }
    let show = |ids: &[usize]| -> String {
        let text = ids
            .iter()
            .all(|&id| id < 256)
            .then(|| String::from_utf8(ids.iter().map(|&id| id as u8).collect()).ok())
            .flatten()
            .filter(|t| !t.is_empty() && t.chars().all(|c| !c.is_control()));
        match text {
            Some(text) => format!("{ids:?} (\"{text}\")"),
            None => format!("{ids:?}"),
        }
    };
    Some(match (yours.is_empty(), theirs.is_empty()) {
        (true, false) => {
            tr!(MESSAGES, "ids-missing", at = prefix, missing = show(theirs))
        }
        (false, true) => tr!(MESSAGES, "ids-extra", at = prefix, extra = show(yours)),
        // Different to the end: only the beginning is shared.
        _ if suffix == 0 => tr!(
            MESSAGES,
            "ids-diverge",
            at = prefix,
            yours = show(yours),
            expected = show(theirs)
        ),
        _ => tr!(
            MESSAGES,
            "ids-stretch",
            at = prefix,
            yours = show(yours),
            expected = show(theirs)
        ),
    })
}

/// In the maintainers' runs (see [`crate::named`](mod@crate::named)), panics if a
/// listed mistake gives the right answer on this check's input: the check could not
/// catch it, and a list is kept only of mistakes that each check's input tells apart.
#[track_caller]
fn caught_here(what: &str, expected: &Matrix, misconceptions: &[Misconception]) {
    if !crate::named::builders_ran() {
        return;
    }
    if let Some(m) = misconceptions
        .iter()
        .find(|m| !crate::named::distinguishable(&m.result, expected))
    {
        panic!(
            "{what}: the mistake `{}` gives the right answer on this input, so this \
             check cannot catch it: change the input, or list the mistake only where \
             an input tells it apart",
            m.cause.key()
        );
    }
}

/// How close a result must be to a listed mistake's to be recognised as that mistake,
/// whatever the tolerance of the check: the builders compute each wrong answer in `f64`
/// from the check's own inputs, as the learner's code does, so the same formula agrees to
/// about 1e-15 and a different one (ε inside or outside a square root) differs by far more.
pub const RECOGNISED: Tol = Tol {
    abs: 1e-9,
    rel: 1e-8,
};

/// The listed mistakes whose result `got` equals (within [`RECOGNISED`]), the nearest
/// first, each cause once. Each is noted as named ([`Cause::named`]): the check that
/// asks has failed.
pub fn recognised(got: &Matrix, misconceptions: &[Misconception]) -> Vec<Cause> {
    let mut found: Vec<(Float, Cause)> = misconceptions
        .iter()
        .filter(|m| {
            // Finite entries within the tolerance; an infinite one (which any tolerance
            // relative to it would accept anything near) only where the same infinity is,
            // and NaN where NaN is.
            m.result.dim() == got.dim()
                && m.result.iter().zip(got.iter()).all(|(&w, &g)| {
                    if w.is_finite() && g.is_finite() {
                        RECOGNISED.accepts(g, w)
                    } else {
                        w == g || (w.is_nan() && g.is_nan())
                    }
                })
        })
        .map(|m| {
            let distance = (&m.result - got)
                .iter()
                .fold(0.0 as Float, |worst, d| worst.max(d.abs()));
            (distance, m.cause)
        })
        .collect();
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut causes: Vec<Cause> = Vec::new();
    for (_, cause) in found {
        if !causes.iter().any(|c| c.key() == cause.key()) {
            causes.push(cause.named());
        }
    }
    causes
}

/// What a failing check says about the listed mistakes `got` equals: "Your result
/// matches a known mistake" and its cause; or, when the check's input cannot tell two of
/// them apart (the maintainers' runs prevent that where an input can), every one it is
/// consistent with, the nearest first; or nothing.
pub fn recognition(got: &Matrix, misconceptions: &[Misconception]) -> Option<String> {
    match recognised(got, misconceptions).as_slice() {
        [] => None,
        [cause] => Some(tr!(MESSAGES, "known-mistake", cause = *cause)),
        several => Some(tr!(
            MESSAGES,
            "known-mistakes",
            count = several.len(),
            causes = several
                .iter()
                .map(|cause| cause.text())
                .collect::<Vec<_>>()
                .join(&tr!(MESSAGES, "known-mistakes-or")),
        )),
    }
}

/// The first entry where `got` and `expected` differ beyond `tol`, with the difference.
fn first_difference(
    got: &Matrix,
    expected: &Matrix,
    tol: Tol,
) -> Option<((usize, usize), Float)> {
    got.indexed_iter()
        .zip(expected.iter())
        .find(|((_, g), e)| !tol.accepts(**g, **e))
        .map(|((index, g), e)| (index, (g - e).abs()))
}

/// Panics unless the mask `got` equals `expected`, printing both as grids of 1 (may
/// attend) and 0 (may not), one row per query.
#[track_caller]
pub fn assert_mask_eq(
    what: &str,
    got: &Array2<bool>,
    expected: &Array2<bool>,
    hint: &(impl Hint + ?Sized),
) {
    if got.dim() != expected.dim() {
        hint.failed();
        panic!(
            "{}",
            tr!(
                MESSAGES,
                "mask-shape",
                what = what,
                expected = format!("{:?}", expected.dim()),
                got = format!("{:?}", got.dim()),
                hint = hint.text(),
            )
        );
    }
    if got != expected {
        let ((row, col), _) = got
            .indexed_iter()
            .zip(expected.iter())
            .find(|((_, g), e)| g != e)
            .map(|((index, g), e)| (index, (*g, *e)))
            .expect("the masks differ somewhere");
        hint.failed();
        let message = tr!(
            MESSAGES,
            "mask-entry",
            what = what,
            row = row,
            col = col,
            expected = expected[[row, col]].to_string(),
            got = got[[row, col]].to_string(),
            hint = hint.text(),
        );
        panic!(
            "{message}\n{}{}",
            show_mask(&tr!(MESSAGES, "label-expected"), expected),
            show_mask(&tr!(MESSAGES, "label-got"), got)
        );
    }
}

/// A mask printed as rows of 1 (true) and 0 (false).
pub fn show_mask(label: &str, mask: &Array2<bool>) -> String {
    let mut text = format!("{label} ({} x {}):\n", mask.nrows(), mask.ncols());
    for row in mask.rows() {
        text.push_str("  ");
        for &allowed in row {
            text.push(if allowed { '1' } else { '0' });
        }
        text.push('\n');
    }
    text
}

/// A matrix printed compactly for a failure message: at most 8 rows and 8 columns.
pub fn show(label: &str, m: &Matrix) -> String {
    const MAX: usize = 8;
    let mut text = format!("{label} ({} x {}):\n", m.nrows(), m.ncols());
    for row in m.rows().into_iter().take(MAX) {
        text.push_str("  [");
        for (j, value) in row.iter().take(MAX).enumerate() {
            if j > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "{value:>9.4}");
        }
        if row.len() > MAX {
            text.push_str(", ...");
        }
        text.push_str("]\n");
    }
    if m.nrows() > MAX {
        text.push_str("  ...\n");
    }
    text
}

/// The cause of a wrong number `got`, where `expected` is right, among `candidates`
/// (wrong answers as 1 × 1 results): the nearest that `got` equals within
/// [`RECOGNISED`], or `None`. A
/// `got` within 1e-9 (relative) of `expected` is right and has no cause; a cause found
/// is noted as named ([`Cause::named`]), since the check it explains fails.
pub fn scalar_cause(
    got: Float,
    expected: Float,
    candidates: &[Misconception],
) -> Option<Cause> {
    let expected_matrix = Matrix::from_elem((1, 1), expected);
    caught_here("the number", &expected_matrix, candidates);
    if (got - expected).abs() <= 1e-9 * expected.abs().max(1.0) {
        return None;
    }
    recognised(&Matrix::from_elem((1, 1), got), candidates)
        .first()
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_common::ndarray::array;

    fn message_of(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload =
            std::panic::catch_unwind(f).expect_err("the check should have failed");
        payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn every_failing_check_is_listed_under_the_first() {
        course_i18n::set_current(course_i18n::Lang::En);
        let message = message_of(|| {
            let mut checks = Checks::new();
            checks.check(|| panic!("d_x is wrong\nnumbers"));
            checks.check(|| {});
            checks.check(|| panic!("d_gamma is wrong\nmore numbers"));
            checks.finish();
        });
        assert!(message.starts_with("d_x is wrong\nnumbers\n"), "{message}");
        assert!(message.contains("  - d_gamma is wrong"), "{message}");
        // Named checks that pass are listed as right.
        let message = message_of(|| {
            let mut checks = Checks::new();
            checks.check_as("d_x", || panic!("d_x is wrong"));
            checks.check_as("d_memory", || {});
            checks.check_as("norm_3 d_gamma", || {});
            checks.finish();
        });
        assert!(
            message.starts_with(
                "d_x is wrong\nRight in this test: d_memory, norm_3 d_gamma"
            ),
            "{message}"
        );
        assert!(!message.contains("more numbers"), "{message}");
        // All passing: nothing to say.
        let mut checks = Checks::new();
        checks.check(|| {});
        checks.finish();
    }

    #[test]
    fn an_infinite_wrong_answer_matches_only_itself() {
        let mistakes = [Misconception {
            cause: Cause::harness("baseline-no-smoothing"),
            result: array![[Float::INFINITY]],
        }];
        assert!(recognised(&array![[4.2]], &mistakes).is_empty());
        assert_eq!(recognised(&array![[Float::INFINITY]], &mistakes).len(), 1);
    }

    #[test]
    fn nan_where_the_mistake_has_nan_and_the_rest_equal_is_recognised() {
        // A filter that keeps nothing renormalises 0/0: NaN in every entry, as the
        // mistake's own answer is.
        let mistakes = [Misconception {
            cause: Cause::harness("top-p-excludes-crossing"),
            result: array![[Float::NAN, 0.25, Float::NAN]],
        }];
        assert_eq!(
            recognised(&array![[Float::NAN, 0.25, Float::NAN]], &mistakes).len(),
            1
        );
        // NaN elsewhere, or a number where the mistake has NaN, is another result.
        assert!(recognised(&array![[Float::NAN, Float::NAN, 0.5]], &mistakes).is_empty());
        assert!(recognised(&array![[0.5, 0.25, Float::NAN]], &mistakes).is_empty());
        assert!(recognised(&array![[Float::NAN, 0.5, Float::NAN]], &mistakes).is_empty());
    }

    #[test]
    fn numbers_that_differ_are_shown_with_the_digits_that_differ() {
        assert_eq!(
            shown_apart(1.0, 2.0),
            ("1.000000".to_owned(), "2.000000".to_owned())
        );
        assert_eq!(
            shown_apart(0.00299912, 0.00299904),
            ("0.0029991".to_owned(), "0.0029990".to_owned())
        );
        let (a, b) = shown_apart(1.0, 1.0 + 1e-12);
        assert_ne!(a, b);
        let (a, b) = shown_apart(3e-30, 4e-30);
        assert_ne!(a, b);
        // Equal numbers, and NaN beside NaN, read the same, in six decimals.
        assert_eq!(shown_apart(0.5, 0.5).0, "0.500000");
        assert_eq!(shown_apart(Float::NAN, Float::NAN).1, "NaN");
        // A sum a hair off 1 does not read as 1.
        assert_ne!(shown_apart(1.0 + 3e-11, 1.0).0, "1.000000");
    }

    #[test]
    fn pair_counts_are_shown_as_pairs_with_their_counts() {
        course_i18n::set_current(course_i18n::Lang::En);
        let expected = [((97, 97), 2), ((97, 98), 1)];
        assert_pair_counts_eq("counts", &expected, &expected, &[]);
        let wrong = [((97, 97), 1), ((97, 98), 1)];
        let mistakes = [Misconception {
            cause: Cause::harness("bpe-count-non-overlapping"),
            result: ids_row(&[97, 97, 1, 97, 98, 1]),
        }];
        let text =
            message_of(|| assert_pair_counts_eq("counts", &wrong, &expected, &mistakes));
        assert!(
            text.starts_with(
                "counts: the count of the pair (97, 97) should be 2, got 1."
            ),
            "{text}"
        );
        assert!(
            text.contains("Likely cause: pairs were counted without overlaps"),
            "{text}"
        );
        assert!(
            text.contains("expected: {(97, 97): 2, (97, 98): 1}"),
            "{text}"
        );
        assert!(text.contains("got: {(97, 97): 1, (97, 98): 1}"), "{text}");
        let text = message_of(|| {
            assert_pair_counts_eq("counts", &expected[1..], &expected, &[])
        });
        assert!(text.contains("the pair (97, 97) is missing"), "{text}");
        let extra = [((97, 97), 2), ((97, 98), 1), ((98, 97), 3)];
        let text = message_of(|| assert_pair_counts_eq("counts", &extra, &expected, &[]));
        assert!(
            text.contains("give the pair (98, 97) the count 3"),
            "{text}"
        );
    }

    #[test]
    fn a_wrong_sequence_of_ids_is_told_what_it_still_shares() {
        course_i18n::set_current(course_i18n::Lang::En);
        assert_eq!(
            ids_relation(&[1, 3, 2], &[1, 2, 3]).as_deref(),
            Some("Your ids are the expected ones, each as often, in another order.")
        );
        // Bytes that are text are shown as text too.
        assert_eq!(
            ids_relation(&[97, 98], &[97, 60, 124, 98]).as_deref(),
            Some(
                "The rest is equal, but from position 1 yours lacks [60, 124] (\"<|\")."
            )
        );
        assert_eq!(
            ids_relation(&[300, 7, 7, 7], &[300, 300, 7]).as_deref(),
            Some(
                "The rest is equal: from position 1, yours has [7, 7] where the expected \
                 has [300]."
            )
        );
        assert_eq!(ids_relation(&[5, 6], &[7, 8, 9]), None);
    }

    #[test]
    fn a_result_that_matches_two_mistakes_is_told_both() {
        course_i18n::set_current(course_i18n::Lang::En);
        let mistakes = [
            Misconception {
                cause: Cause::harness("eps-on-std"),
                result: array![[1.0, 2.0 + 1e-7]],
            },
            Misconception {
                cause: Cause::harness("unbiased-variance"),
                result: array![[1.0, 2.0]],
            },
            Misconception {
                cause: Cause::harness("eps-left-out"),
                result: array![[1.0, 2.0 + 1e-9]],
            },
        ];
        let got = array![[1.0, 2.0]];
        let message = recognition(&got, &mistakes).expect("two match");
        // Within 1e-8 of two of them, the nearest first; not the one 1e-7 away.
        assert!(message.contains("2 known mistakes"), "{message}");
        let first = message.find("unbiased one").expect("the nearest is named");
        let second = message.find("ε was left out").expect("so is the other");
        assert!(first < second, "{message}");
        assert!(
            !message.contains("added to the standard deviation"),
            "{message}"
        );
        // One match reads as before.
        let message = recognition(&array![[1.0, 2.0 + 1e-7]], &mistakes).expect("one");
        assert!(
            message.starts_with("Your result matches a known mistake"),
            "{message}"
        );
        assert!(recognition(&array![[1.0, 3.0]], &mistakes).is_none());
    }

    #[test]
    fn nan_is_never_close() {
        assert!(!Tol::TIGHT.accepts(Float::NAN, 0.0));
        assert!(
            !Tol {
                abs: Float::INFINITY,
                rel: 0.0
            }
            .accepts(Float::NAN, 1.0)
        );
    }

    #[test]
    fn a_row_that_does_not_sum_to_one_is_named_with_the_hint() {
        let m = array![[0.5, 0.5], [0.9, 0.47]];
        let text = message_of(|| assert_rows_sum_to_one("weights", &m, "wrong axis?"));
        assert!(text.contains("row 1 sums to 1.370000"), "{text}");
        assert!(text.contains("wrong axis?"), "{text}");
    }

    #[test]
    fn a_matching_misconception_is_named() {
        let expected = array![[1.0, 2.0]];
        let got = array![[2.0, 1.0]];
        let mistake = Misconception {
            cause: Cause::harness("wrong-axis"),
            result: got.clone(),
        };
        let text = message_of(|| {
            assert_matrix_close("out", &got, &expected, Tol::TIGHT, &[mistake]);
        });
        assert!(
            text.contains("entry [0, 0] should be 1.000000, got 2.000000"),
            "{text}"
        );
        assert!(
            text.contains(&format!("Likely cause: {}", Cause::harness("wrong-axis"))),
            "{text}"
        );
    }

    #[test]
    fn close_matrices_pass_and_shapes_are_checked() {
        let a = array![[1.0, 2.0]];
        assert_matrix_close("out", &(a.clone() + 1e-12), &a, Tol::TIGHT, &[]);
        let text = message_of(|| {
            assert_matrix_close("out", &a.t().to_owned(), &a, Tol::TIGHT, &[])
        });
        assert!(text.contains("expected shape (1, 2)"), "{text}");
        assert!(
            text.contains("2 rows instead of 1 and 1 columns instead of 2"),
            "{text}"
        );
        assert!(text.contains("exactly the transpose"), "{text}");
    }
}
