//! What a wrong result still has in common with the right one.
//!
//! A listed mistake is named when the learner's result is its result ([`crate::named`](mod@crate::named)).
//! Most mistakes are not listed, and for them a check can still say more than "entry
//! [0, 0] differs": the wrong result is often the right one transformed in a way that
//! points at the line to read. This module looks for those transformations, from the
//! most telling to the least:
//!
//! - entries that are NaN or infinite where every expected one is finite;
//! - the transpose;
//! - every sign flipped, or every entry scaled by one factor (named when it is a small
//!   integer, a square root or their inverses: "about 1/√3");
//! - each row, or each column, scaled by a factor of its own;
//! - the rows or the columns in another order (reversed, shifted by one, permuted);
//! - the same offset added to every row, every column, or every entry;
//! - rows or columns left at zero;
//!
//! and, in any case, which rows (or columns) are right and which are wrong.
//!
//! Each finding is a fact about the two matrices, checked entry by entry; none is a
//! guess about the code. The messages say what the fact usually means.

use crate::{MESSAGES, tr};
use course_common::{Float, Matrix};

/// How near two entries must be to count as the same here: `rel` of the larger magnitude,
/// and at least `rel` of the expected matrix's largest entry (so that entries near zero
/// are compared at the matrix's scale).
#[derive(Clone, Copy)]
struct Near {
    abs: Float,
    rel: Float,
}

impl Near {
    fn for_matrix(expected: &Matrix, rel: Float) -> Near {
        let scale = expected
            .iter()
            .filter(|x| x.is_finite())
            .fold(0.0 as Float, |m, x| m.max(x.abs()));
        Near {
            abs: rel * scale.max(1e-300),
            rel,
        }
    }

    fn same(&self, a: Float, b: Float) -> bool {
        (a - b).abs() <= self.abs + self.rel * a.abs().max(b.abs())
    }

    fn zero(&self, a: Float) -> bool {
        a.abs() <= self.abs
    }

    fn same_rows(&self, a: &Matrix, i: usize, b: &Matrix, j: usize) -> bool {
        a.row(i)
            .iter()
            .zip(b.row(j).iter())
            .all(|(&x, &y)| self.same(x, y))
    }

    fn same_cols(&self, a: &Matrix, i: usize, b: &Matrix, j: usize) -> bool {
        a.column(i)
            .iter()
            .zip(b.column(j).iter())
            .all(|(&x, &y)| self.same(x, y))
    }
}

/// What `got` (wrong) has in common with `expected`, as at most two lines, the most
/// telling first; `rel` is how near entries must be to count as the same (1e-6 for exact
/// results, looser against a numerical gradient). Empty when nothing is found, when the
/// shapes differ or when the matrices are too small to say anything.
pub fn describe(got: &Matrix, expected: &Matrix, rel: Float) -> Vec<String> {
    if got.dim() != expected.dim()
        || got.is_empty()
        || expected.iter().any(|x| !x.is_finite())
    {
        return Vec::new();
    }
    if let Some(line) = not_finite(got) {
        return vec![line];
    }
    // One number: what a number can be to another (any two are "scaled").
    if got.len() == 1 {
        return describe_number(got[[0, 0]], expected[[0, 0]])
            .into_iter()
            .collect();
    }
    let near = Near::for_matrix(expected, rel);
    let relation = [
        transposed,
        scaled,
        rows_scaled,
        columns_scaled,
        rows_moved,
        columns_moved,
        offset,
        zero_rows,
    ]
    .iter()
    .find_map(|find| find(got, expected, near));
    let mut lines: Vec<String> = relation.into_iter().collect();
    if lines.len() < 2 {
        lines.extend(right_and_wrong(got, expected, near));
    }
    lines
}

/// What a wrong number `got` is to the right `expected`: a simple factor of it, its
/// square, its square root, its inverse; `None` if none of these.
pub fn describe_number(got: Float, expected: Float) -> Option<String> {
    if !got.is_finite() || !expected.is_finite() || expected == 0.0 || got == expected {
        return None;
    }
    let near = |a: Float, b: Float| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    if expected.abs() != 1.0 && near(got, expected * expected) {
        return Some(tr!(MESSAGES, "relation-number-squared"));
    }
    if expected > 0.0 && expected != 1.0 && near(got, expected.sqrt()) {
        return Some(tr!(MESSAGES, "relation-number-root"));
    }
    if expected.abs() != 1.0 && near(got, 1.0 / expected) {
        return Some(tr!(MESSAGES, "relation-number-inverse"));
    }
    let factor = got / expected;
    simple_name(factor).map(|name| {
        tr!(
            MESSAGES,
            "relation-number-scaled",
            factor = format_factor(factor),
            name = name
        )
    })
}

/// `hint`, after what a wrong number `got` is to the right `expected`
/// ([`describe_number`]) when that is something: the general rule comes second.
pub fn or_relation(got: Float, expected: Float, hint: &str) -> String {
    match describe_number(got, expected) {
        Some(relation) => format!("{relation} {hint}"),
        None => hint.to_owned(),
    }
}

/// Entries that are NaN or infinite (the expected ones all being finite).
fn not_finite(got: &Matrix) -> Option<String> {
    let mut bad = got
        .indexed_iter()
        .filter(|(_, x)| !x.is_finite())
        .map(|(index, _)| index);
    let (row, col) = bad.next()?;
    Some(tr!(
        MESSAGES,
        "relation-not-finite",
        count = 1 + bad.count(),
        row = row,
        col = col,
    ))
}

fn transposed(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    let n = expected.nrows();
    if n < 2 || expected.ncols() != n {
        return None;
    }
    let t = expected.t();
    let symmetric =
        (0..n).all(|i| (0..n).all(|j| near.same(expected[[i, j]], t[[i, j]])));
    let is_t = (0..n).all(|i| (0..n).all(|j| near.same(got[[i, j]], t[[i, j]])));
    (is_t && !symmetric).then(|| tr!(MESSAGES, "relation-transposed"))
}

/// The one factor `f` with `got = f · expected` over `entries` (pairs of got, expected),
/// if there is one and it is not 1.
fn common_factor(
    entries: impl Iterator<Item = (Float, Float)> + Clone,
    near: Near,
) -> Option<Float> {
    let (g0, e0) = entries.clone().find(|&(_, e)| e.abs() > 10.0 * near.abs)?;
    let factor = g0 / e0;
    let all = entries.clone().all(|(g, e)| near.same(g, factor * e));
    let informative = entries.filter(|&(_, e)| e.abs() > 10.0 * near.abs).count() >= 2;
    (all && informative && !near.same(factor, 1.0) && factor.is_finite())
        .then_some(factor)
}

fn scaled(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    let factor = common_factor(got.iter().copied().zip(expected.iter().copied()), near)?;
    if (factor + 1.0).abs() <= 1e-6 {
        return Some(tr!(MESSAGES, "relation-negated"));
    }
    if near.zero(factor) {
        return None;
    }
    Some(tr!(
        MESSAGES,
        "relation-scaled",
        factor = format_factor(factor),
        name = simple_name(factor).unwrap_or_default(),
    ))
}

/// Each row (or, `by_column`, each column) scaled by its own factor, not all the same.
fn lines_scaled(
    got: &Matrix,
    expected: &Matrix,
    near: Near,
    by_column: bool,
) -> Option<String> {
    let count = if by_column { got.ncols() } else { got.nrows() };
    if count < 2 {
        return None;
    }
    let mut factors = Vec::with_capacity(count);
    for k in 0..count {
        let (g, e) = if by_column {
            (got.column(k), expected.column(k))
        } else {
            (got.row(k), expected.row(k))
        };
        let pairs = g.iter().copied().zip(e.iter().copied());
        if pairs.clone().all(|(g, e)| near.same(g, e)) {
            factors.push(1.0);
            continue;
        }
        factors.push(common_factor(pairs, near)?);
    }
    let first = factors[0];
    // A zero factor is a line left at zero: `zero_rows` says that better.
    if factors.iter().any(|&f| f.abs() < 1e-12)
        || factors.iter().all(|&f| near.same(f, first))
    {
        return None;
    }
    let shown: Vec<String> = factors.iter().take(4).map(|&f| format_factor(f)).collect();
    let more = if factors.len() > 4 { ", …" } else { "" };
    let factors = format!("{}{more}", shown.join(", "));
    Some(if by_column {
        tr!(MESSAGES, "relation-columns-scaled", factors = factors)
    } else {
        tr!(MESSAGES, "relation-rows-scaled", factors = factors)
    })
}

fn rows_scaled(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    lines_scaled(got, expected, near, false)
}

fn columns_scaled(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    lines_scaled(got, expected, near, true)
}

/// How the rows (or columns) of a wrong result sit among the expected ones.
enum Moved {
    Reversed,
    /// Line i is expected line i + shift, for `count` of the `n` lines.
    Shifted {
        shift: &'static str,
        count: usize,
        n: usize,
    },
    /// Line i is expected line order[i].
    Reordered(String),
}

/// The rows (or columns) in another order: reversed, shifted by one, or permuted.
fn lines_moved(
    got: &Matrix,
    expected: &Matrix,
    near: Near,
    by_column: bool,
) -> Option<Moved> {
    let n = if by_column { got.ncols() } else { got.nrows() };
    if n < 2 {
        return None;
    }
    let same_in = |a: &Matrix, i: usize, b: &Matrix, j: usize| {
        if by_column {
            near.same_cols(a, i, b, j)
        } else {
            near.same_rows(a, i, b, j)
        }
    };
    let same = |i: usize, j: usize| same_in(got, i, expected, j);
    // Lines that are distinct in the expected matrix, or a reordering says nothing.
    if (0..n).any(|i| (0..i).any(|j| same_in(expected, i, expected, j))) {
        return None;
    }
    if (0..n).all(|i| same(i, n - 1 - i)) {
        return Some(Moved::Reversed);
    }
    for shift in [1_isize, -1] {
        let count = (0..n)
            .filter(|&i| {
                let j = i as isize + shift;
                j >= 0 && (j as usize) < n && same(i, j as usize)
            })
            .count();
        if count == n - 1 && n > 2 {
            let shift = if shift > 0 { "+ 1" } else { "− 1" };
            return Some(Moved::Shifted { shift, count, n });
        }
    }
    let map: Vec<usize> = (0..n)
        .map(|i| (0..n).find(|&j| same(i, j)))
        .collect::<Option<_>>()?;
    let mut seen = map.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() == n && map.iter().enumerate().any(|(i, &j)| i != j) {
        let shown: Vec<String> = map.iter().take(8).map(usize::to_string).collect();
        let more = if n > 8 { ", …" } else { "" };
        return Some(Moved::Reordered(format!("[{}{more}]", shown.join(", "))));
    }
    None
}

fn rows_moved(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    Some(match lines_moved(got, expected, near, false)? {
        Moved::Reversed => tr!(MESSAGES, "relation-rows-reversed"),
        Moved::Shifted { shift, count, n } => {
            tr!(
                MESSAGES,
                "relation-rows-shifted",
                shift = shift,
                count = count,
                n = n
            )
        }
        Moved::Reordered(order) => {
            tr!(MESSAGES, "relation-rows-reordered", order = order)
        }
    })
}

fn columns_moved(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    Some(match lines_moved(got, expected, near, true)? {
        Moved::Reversed => tr!(MESSAGES, "relation-columns-reversed"),
        Moved::Shifted { shift, count, n } => {
            tr!(
                MESSAGES,
                "relation-columns-shifted",
                shift = shift,
                count = count,
                n = n
            )
        }
        Moved::Reordered(order) => {
            tr!(MESSAGES, "relation-columns-reordered", order = order)
        }
    })
}

/// The same offset on every entry, every row (a per-column offset) or every column.
fn offset(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    let d = got - expected;
    let all_rows_same = (1..d.nrows()).all(|i| near.same_rows(&d, i, &d, 0));
    let all_cols_same = (1..d.ncols()).all(|j| near.same_cols(&d, j, &d, 0));
    let constant = all_rows_same && all_cols_same;
    // Where the expected matrix's own columns differ by constants (values whose columns
    // are shifts of one another, say), any rows that sum to 1 give the same columns: an
    // offset per row is then the fixture's, not a finding. The same for rows.
    let all_cols_same = all_cols_same && !shifted_lines(expected, true, near);
    let all_rows_same = all_rows_same && !shifted_lines(expected, false, near);
    let c = d[[0, 0]];
    if constant && d.len() >= 2 && !near.zero(c) {
        return Some(tr!(MESSAGES, "relation-offset", offset = format!("{c:.6}")));
    }
    if all_rows_same && d.nrows() >= 2 {
        let shown: Vec<String> =
            d.row(0).iter().take(6).map(|x| format!("{x:.4}")).collect();
        let more = if d.ncols() > 6 { ", …" } else { "" };
        return Some(tr!(
            MESSAGES,
            "relation-column-offset",
            offset = format!("[{}{more}]", shown.join(", "))
        ));
    }
    if all_cols_same && d.ncols() >= 2 {
        return Some(tr!(MESSAGES, "relation-row-offset"));
    }
    None
}

/// Whether every column (or, `by_column` false, every row) of `m` is the first plus a
/// constant.
fn shifted_lines(m: &Matrix, by_column: bool, near: Near) -> bool {
    let lines = if by_column { m.ncols() } else { m.nrows() };
    (1..lines).all(|k| {
        let gap: Vec<Float> = if by_column {
            (&m.column(k) - &m.column(0)).to_vec()
        } else {
            (&m.row(k) - &m.row(0)).to_vec()
        };
        gap.iter().all(|&x| near.same(x, gap[0]))
    })
}

/// Rows (or columns) of `got` that are exactly zero (left as `zeros` made them: a tiny
/// computed value is not) where the expected ones are not.
fn zero_rows(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    let rows: Vec<usize> = (0..got.nrows())
        .filter(|&i| {
            got.row(i).iter().all(|&x| x == 0.0)
                && expected.row(i).iter().any(|&x| !near.zero(x))
        })
        .collect();
    if !rows.is_empty() && got.nrows() > 1 {
        return Some(tr!(MESSAGES, "relation-zero-rows", rows = list(&rows)));
    }
    let cols: Vec<usize> = (0..got.ncols())
        .filter(|&j| {
            got.column(j).iter().all(|&x| x == 0.0)
                && expected.column(j).iter().any(|&x| !near.zero(x))
        })
        .collect();
    (!cols.is_empty() && got.ncols() > 1)
        .then(|| tr!(MESSAGES, "relation-zero-columns", cols = list(&cols)))
}

/// Which rows are right and which wrong, when some are right; else the same for columns.
fn right_and_wrong(got: &Matrix, expected: &Matrix, near: Near) -> Option<String> {
    // A line that is zero in the expected matrix (a padding row, a parameter without a
    // gradient) is right for almost any code: it is left out of both lists.
    let split =
        |n: usize, trivial: &dyn Fn(usize) -> bool, right: &dyn Fn(usize) -> bool| {
            let (ok, bad): (Vec<usize>, Vec<usize>) =
                (0..n).filter(|&k| !trivial(k)).partition(|&k| right(k));
            (!ok.is_empty() && !bad.is_empty()).then_some((ok, bad))
        };
    let zero_row = |i: usize| expected.row(i).iter().all(|&x| near.zero(x));
    let zero_col = |j: usize| expected.column(j).iter().all(|&x| near.zero(x));
    if let Some((ok, bad)) = split(got.nrows(), &zero_row, &|i| {
        near.same_rows(got, i, expected, i)
    }) {
        return Some(tr!(
            MESSAGES,
            "relation-rows-right",
            wrong = list(&bad),
            right = list(&ok)
        ));
    }
    split(got.ncols(), &zero_col, &|j| {
        near.same_cols(got, j, expected, j)
    })
    .map(|(ok, bad)| {
        tr!(
            MESSAGES,
            "relation-columns-right",
            wrong = list(&bad),
            right = list(&ok)
        )
    })
}

/// Indices as a short list, runs written as ranges: "0, 2–4, 7".
fn list(indices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < indices.len() {
        let start = indices[k];
        let mut end = start;
        while k + 1 < indices.len() && indices[k + 1] == end + 1 {
            k += 1;
            end = indices[k];
        }
        parts.push(if end > start {
            format!("{start}–{end}")
        } else {
            start.to_string()
        });
        k += 1;
    }
    if parts.len() > 8 {
        parts.truncate(8);
        parts.push("…".into());
    }
    parts.join(", ")
}

fn format_factor(f: Float) -> String {
    let text = format!("{f:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

/// A factor's name, when it is a small whole number k (2 to 64), √k, or their inverses,
/// signed: " (= 1/√3)". Empty text is never returned: `None` instead.
fn simple_name(f: Float) -> Option<String> {
    let near = |a: Float, b: Float| (a - b).abs() <= 1e-6 * b.abs();
    let sign = if f < 0.0 { "−" } else { "" };
    let a = f.abs();
    // ln 2: a result in nats where bits were asked for, or the other way round.
    let ln_2 = std::f64::consts::LN_2;
    let natural = if near(a, ln_2) {
        Some("ln 2")
    } else if near(a, 1.0 / ln_2) {
        Some("1/ln 2")
    } else {
        None
    };
    if let Some(name) = natural {
        return Some(tr!(
            MESSAGES,
            "relation-factor-name",
            name = format!("{sign}{name}")
        ));
    }
    for k in 2..=64_u32 {
        let kf = Float::from(k);
        let root = kf.sqrt();
        let is_square = root.fract() == 0.0;
        let name = if near(a, kf) {
            format!("{k}")
        } else if near(a, 1.0 / kf) {
            format!("1/{k}")
        } else if !is_square && near(a, root) {
            format!("√{k}")
        } else if !is_square && near(a, 1.0 / root) {
            format!("1/√{k}")
        } else {
            continue;
        };
        return Some(tr!(
            MESSAGES,
            "relation-factor-name",
            name = format!("{sign}{name}")
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_common::ndarray::array;

    fn en() {
        course_i18n::set_current(course_i18n::Lang::En);
    }

    fn expected() -> Matrix {
        array![[1.0, -2.0, 0.5], [0.25, 3.0, -1.5], [2.0, 0.75, -0.5]]
    }

    #[test]
    fn a_scaled_result_is_told_with_its_factor() {
        en();
        let e = expected();
        let lines = describe(&(&e / 3.0_f64.sqrt()), &e, 1e-6);
        assert!(
            lines[0].contains("0.57735") && lines[0].contains("1/√3"),
            "{lines:?}"
        );
        let lines = describe(&(&e * -1.0), &e, 1e-6);
        assert!(lines[0].contains("sign"), "{lines:?}");
    }

    #[test]
    fn rows_scaled_each_by_its_own_factor_are_told() {
        en();
        let e = expected();
        let mut got = e.clone();
        got.row_mut(0).mapv_inplace(|x| x * 2.0);
        got.row_mut(2).mapv_inplace(|x| x * 0.5);
        let lines = describe(&got, &e, 1e-6);
        assert!(lines[0].contains("Each row"), "{lines:?}");
    }

    #[test]
    fn a_transpose_reversed_or_shifted_rows_are_told() {
        en();
        let e = expected();
        assert!(describe(&e.t().to_owned(), &e, 1e-6)[0].contains("transpose"));
        let reversed = array![[2.0, 0.75, -0.5], [0.25, 3.0, -1.5], [1.0, -2.0, 0.5]];
        assert!(describe(&reversed, &e, 1e-6)[0].contains("reverse"));
        let shifted = array![[0.25, 3.0, -1.5], [2.0, 0.75, -0.5], [0.0, 0.0, 0.0]];
        let lines = describe(&shifted, &e, 1e-6);
        assert!(lines[0].contains("row i + 1"), "{lines:?}");
    }

    #[test]
    fn an_offset_a_zero_row_and_the_right_rows_are_told() {
        en();
        let e = expected();
        let bias = array![[0.1, -0.2, 0.3]];
        let lines = describe(&(&e + &bias), &e, 1e-6);
        assert!(lines[0].contains("same row"), "{lines:?}");
        let mut got = e.clone();
        got.row_mut(0).fill(0.0);
        let lines = describe(&got, &e, 1e-6);
        assert!(
            lines[0].contains("Row(s) 0 ") && lines[0].contains("zero"),
            "{lines:?}"
        );
        let mut got = e.clone();
        got[[1, 2]] = 7.0;
        let lines = describe(&got, &e, 1e-6);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("Wrong: row(s) 1."), "{lines:?}");
        assert!(lines[0].contains("0, 2"), "{lines:?}");
    }

    #[test]
    fn what_the_fixture_makes_true_for_any_code_is_not_told() {
        en();
        // Values whose columns are shifts of one another: any weights whose rows sum to
        // 1 give outputs whose columns are shifted alike, so "an offset per row" would be
        // the fixture's doing, not the code's.
        let v = array![[1.0, 2.0, 4.0], [0.0, 1.0, 3.0], [2.0, 3.0, 5.0]];
        let right = array![[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]].dot(&v);
        let wrong = array![[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]].dot(&v);
        let lines = describe(&wrong, &right, 1e-6);
        assert!(lines.iter().all(|l| !l.contains("offset")), "{lines:?}");
        // A row that is zero in the expected result (padding) is no evidence of rightness.
        let expected = array![[1.0, -2.0], [0.0, 0.0], [0.5, 3.0]];
        let got = array![[2.0, 1.0], [0.0, 0.0], [-1.0, 0.25]];
        let lines = describe(&got, &expected, 1e-6);
        assert!(lines.iter().all(|l| !l.contains("Right")), "{lines:?}");
        // Tiny computed values are not a row left at zero.
        let expected = array![[1.0, 0.5, 0.25], [1.0, 0.5, 0.25]];
        let got = array![[0.125, 1e-9, 1e-12], [0.125, 1e-9, 1e-12]];
        let lines = describe(&got, &expected, 1e-6);
        assert!(lines.iter().all(|l| !l.contains("zero")), "{lines:?}");
    }

    #[test]
    fn nan_is_told_before_anything_else() {
        en();
        let e = expected();
        let mut got = e.clone();
        got[[2, 1]] = Float::NAN;
        let lines = describe(&got, &e, 1e-6);
        assert!(
            lines[0].contains("NaN") && lines[0].contains("[2, 1]"),
            "{lines:?}"
        );
    }

    #[test]
    fn an_unrelated_result_gets_no_story() {
        en();
        let e = expected();
        let got = array![[0.3, 1.0, -7.0], [2.0, 0.0, 1.0], [5.0, 5.0, 5.0]];
        assert!(describe(&got, &e, 1e-6).is_empty());
    }

    #[test]
    fn numbers_squared_rooted_inverted_or_scaled_are_told() {
        en();
        assert!(
            describe_number(2.0, 2.0_f64.sqrt())
                .unwrap()
                .contains("square")
        );
        assert!(describe_number(336.0, 168.0).unwrap().contains("2"));
        assert!(describe_number(0.5, 2.0).unwrap().contains("inverse"));
        assert!(describe_number(3.7, 2.0).is_none());
    }
}
