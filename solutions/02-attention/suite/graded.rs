//! Graded tests of lesson 02, attention.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API,
//! so any correct implementation passes. Each test names the property it checks; every
//! fixture is a hand-computed value, a value from NumPy (float64, which
//! solutions/02-attention/reference.py writes into `graded.json` beside this file), or an
//! exact mathematical property.
//!
//! Every call into the lesson goes through `observe` (in the helpers `softmax`, `attend`,
//! `linear_forward`, `head_forward` and the others of `calls.rs`, which the held-out suite
//! shares), so that the checker's judge can replay the values it returned (see
//! `course_harness::tape`).

use attention::{Attention, Linear, Mask, SelfAttentionHead};
use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::attention::{MASK_AFTER_SOFTMAX, WRONG_AXIS};
use course_harness::gradient::{MAX_RELATIVE_ERROR, STEP, weighted_sum};
use course_harness::{
    Catalog, Cause, Misconception, Named, Reference, Tol, assert_all_finite,
    assert_gradient_close, assert_gradient_close_named, assert_mask_eq,
    assert_matrix_close, assert_rows_sum_to_one, assert_same_shape, graded, linspace,
    linspace_matrix, named, numerical_gradient, relative_error, tr,
};
#[cfg(feature = "builders")]
use course_mistakes::attention::{
    attention_mistakes, linear_mistakes, softmax_backward_mistakes, softmax_mistakes,
};
use std::sync::LazyLock;

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named =
    Named::new(file!(), &[&MESSAGES], include_str!("graded.named.json"));

/// The values NumPy computed for these tests (see the module docs), by name.
static NUMPY: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse("02-attention/graded.json", include_str!("graded.json"))
});

/// What the failing tests say, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "02-attention",
    include_str!("locales/en/suite.ftl"),
    include_str!("locales/zh-CN/suite.ftl"),
);

// The calls into the lesson, each observed (shared with the held-out suite).
#[path = "calls.rs"]
mod calls;
use calls::*;

// ---------------------------------------------------------------------------------------
// Softmax
// ---------------------------------------------------------------------------------------

/// softmax([1, 2, 3]) = [e¹, e², e³] / (e¹ + e² + e³), and equal scores give equal weights
/// (NumPy's values).
#[test]
fn softmax_matches_hand_computed_values() {
    graded(|| {
        let scores = array![[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]];
        let expected = NUMPY.matrix("softmax");
        assert_matrix_close(
            "softmax_rows([[1, 2, 3], [1, 1, 1]])",
            &softmax(&scores),
            &expected,
            Tol {
                abs: 1e-10,
                rel: 0.0,
            },
            &named!(NAMED, softmax_mistakes(&scores)),
        );
    });
}

/// Every row of a softmax is a probability distribution: it sums to 1.
#[test]
fn softmax_rows_sum_to_one() {
    graded(|| {
        let scores = linspace_matrix(4, 5, -3.0, 2.5);
        let weights = softmax(&scores);
        assert_same_shape(&tr!(MESSAGES, "softmax-label-shape"), &weights, (4, 5));
        assert_rows_sum_to_one("softmax_rows", &weights, &WRONG_AXIS);
    });
}

/// Scores of 10⁴ overflow a naive exp; subtracting the row maximum first keeps every
/// weight finite and the answer unchanged.
#[test]
fn softmax_is_stable_for_huge_scores() {
    graded(|| {
        let scores = array![[1e4, 1e4 - 1.0, 0.0], [-1e4, -1e4, -1e4 + 2.0]];
        let weights = softmax(&scores);
        assert_all_finite(
            &tr!(MESSAGES, "softmax-label-huge-scores"),
            &weights,
            &tr!(MESSAGES, "softmax-huge-scores-hint"),
        );
        let e = (-1.0 as Float).exp();
        let e2 = (-2.0 as Float).exp();
        let expected = array![
            [1.0 / (1.0 + e), e / (1.0 + e), 0.0],
            [
                e2 / (1.0 + 2.0 * e2),
                e2 / (1.0 + 2.0 * e2),
                1.0 / (1.0 + 2.0 * e2)
            ]
        ];
        assert_matrix_close(
            &tr!(MESSAGES, "softmax-label-huge-scores"),
            &weights,
            &expected,
            Tol::TIGHT,
            &[],
        );
    });
}

/// A score of −∞ (a masked position) gets a weight of exactly 0; a row that is all −∞
/// gets all-zero weights, never NaN.
#[test]
fn softmax_gives_zero_weight_to_minus_infinity_and_never_nan() {
    graded(|| {
        let inf = Float::INFINITY;
        let scores = array![[0.5, -inf, 0.5], [-inf, -inf, -inf]];
        let weights = softmax(&scores);
        assert_all_finite(
            &tr!(MESSAGES, "softmax-label-fully-masked-row"),
            &weights,
            &tr!(MESSAGES, "softmax-fully-masked-row-hint"),
        );
        let expected = array![[0.5, 0.0, 0.5], [0.0, 0.0, 0.0]];
        assert_matrix_close(
            &tr!(MESSAGES, "softmax-label-minus-infinity"),
            &weights,
            &expected,
            Tol::TIGHT,
            &[],
        );
    });
}

/// The backward pass of softmax agrees with central differences.
#[test]
fn softmax_backward_matches_numerical_gradient() {
    graded(|| {
        let scores = linspace_matrix(3, 4, -1.5, 2.0);
        let upstream = linspace_matrix(3, 4, 0.7, -0.9);
        let weights = softmax(&scores);
        let analytic = softmax_backward(&weights, &upstream);
        let numerical =
            numerical_gradient(|s| weighted_sum(&softmax(s), &upstream), &scores, STEP);
        assert_gradient_close_named(
            "softmax_rows_backward",
            &analytic,
            &numerical,
            &tr!(MESSAGES, "softmax-backward-hint"),
            &named!(
                NAMED,
                softmax_backward_mistakes(
                    &course_mistakes::attention::softmax_along(&scores, 1),
                    &upstream
                )
            ),
        );
    });
}

/// The seed's "The cat sat on the mat" weights for "sat" are a softmax of their own
/// logarithms, shifted by any constant: softmax only sees differences of scores.
#[test]
fn softmax_recovers_the_cat_sat_on_the_mat_weights_from_their_logarithms() {
    graded(|| {
        // The, cat, sat, on, the, mat: the seed's illustrative weights for the query "sat".
        let weights = array![[0.05, 0.6, 0.02, 0.02, 0.01, 0.3]];
        let scores = weights.mapv(|w: Float| w.ln() + 7.0);
        assert_matrix_close(
            "softmax_rows(ln w + 7)",
            &softmax(&scores),
            &weights,
            Tol::TIGHT,
            &[],
        );
    });
}

// ---------------------------------------------------------------------------------------
// Masks
// ---------------------------------------------------------------------------------------

/// Position i may look at positions 0..=i: lower-triangular, diagonal included.
#[test]
fn causal_mask_is_lower_triangular_with_the_diagonal() {
    graded(|| {
        let expected: Mask = array![
            [true, false, false, false],
            [true, true, false, false],
            [true, true, true, false],
            [true, true, true, true]
        ];
        assert_mask_eq(
            "causal_mask(4)",
            &causal(4),
            &expected,
            &tr!(MESSAGES, "causal-mask-hint"),
        );
        assert!(
            causal(0).is_empty(),
            "{}",
            tr!(MESSAGES, "causal-mask-empty")
        );
    });
}

/// Every query may attend to real tokens and to no padding: columns follow key_is_token.
#[test]
fn padding_mask_blocks_the_padded_keys_for_every_query() {
    graded(|| {
        let expected: Mask = array![[true, true, false], [true, true, false]];
        assert_mask_eq(
            "padding_mask(2, [true, true, false])",
            &padding(2, &[true, true, false]),
            &expected,
            &tr!(MESSAGES, "padding-mask-hint"),
        );
    });
}

/// Masked scores become −∞ and allowed scores stay exactly as they were.
#[test]
fn apply_mask_puts_minus_infinity_where_attending_is_forbidden() {
    graded(|| {
        let scores = array![[1.5, -2.0], [0.25, 3.0]];
        let mask: Mask = array![[true, false], [false, true]];
        let got = masked(&scores, &mask);
        let expected = array![[1.5, Float::NEG_INFINITY], [Float::NEG_INFINITY, 3.0]];
        assert!(
            got == expected,
            "{}",
            tr!(
                MESSAGES,
                "apply-mask-mismatch",
                expected = format!("{expected:?}"),
                got = format!("{got:?}"),
            )
        );
    });
}

// ---------------------------------------------------------------------------------------
// Scaled dot-product attention
// ---------------------------------------------------------------------------------------

/// The three-word walk-through of chapter 02: queries and keys [1, 0], [0, 1], [1, 1];
/// values [1, 2], [3, 4], [5, 6]; d_k = 2 (NumPy's values).
#[test]
fn attention_matches_the_three_word_walkthrough() {
    graded(|| {
        let q = array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let k = q.clone();
        let v = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
        let Attention { output, weights } = attend(&q, &k, &v, None);
        let expected_weights = NUMPY.matrix("three_words_weights");
        let expected_output = NUMPY.matrix("three_words_output");
        let tol = Tol {
            abs: 1e-9,
            rel: 0.0,
        };
        let mistakes = named!(NAMED, attention_mistakes(&q, &k, &v));
        assert_matrix_close(
            &tr!(MESSAGES, "attention-label-output-three-words"),
            &output,
            &expected_output,
            tol,
            &mistakes,
        );
        assert_matrix_close(
            &tr!(MESSAGES, "attention-label-weights-three-words"),
            &weights,
            &expected_weights,
            tol,
            &[],
        );
    });
}

/// Raschka's "Your journey starts with one step" fixture: the context vector of x² with
/// unscaled dot-product scores is [0.4419, 0.6515, 0.5683] (printed to 4 decimals).
/// Scaling the queries by √d_k cancels attention's 1/√d_k, giving the unscaled scores.
#[test]
fn attention_reproduces_the_published_journey_fixture() {
    graded(|| {
        let x = array![
            [0.43, 0.15, 0.89],
            [0.55, 0.87, 0.66],
            [0.57, 0.85, 0.64],
            [0.22, 0.58, 0.33],
            [0.77, 0.25, 0.10],
            [0.05, 0.80, 0.55]
        ];
        let q = x.slice(s![1..2, ..]).to_owned() * (3.0 as Float).sqrt();
        let Attention { output, weights } = attend(&q, &x, &x, None);
        let expected_weights = array![[0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]];
        let expected_output = array![[0.4419, 0.6515, 0.5683]];
        assert_matrix_close(
            &tr!(MESSAGES, "attention-label-journey-weights"),
            &weights,
            &expected_weights,
            Tol::FOUR_DECIMALS,
            &[],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "attention-label-journey-context"),
            &output,
            &expected_output,
            Tol::FOUR_DECIMALS,
            &named!(NAMED, attention_mistakes(&q, &x, &x)),
        );
    });
}

/// With d_k = 16 the scores' scale decides the answer: dividing by √d_k, by d_k, or not at
/// all give outputs that differ by more than 0.1. Only √d_k passes.
#[test]
fn attention_divides_the_scores_by_the_square_root_of_d_k() {
    graded(|| {
        let q = linspace_matrix(3, 16, -1.0, 1.2);
        let k = linspace_matrix(4, 16, 0.9, -1.1);
        let v = linspace_matrix(4, 3, -0.5, 0.7);
        let expected = NUMPY.matrix("d_k_16_output");
        let got = attend(&q, &k, &v, None).output;
        assert_matrix_close(
            &tr!(MESSAGES, "attention-label-output-d-k-16"),
            &got,
            &expected,
            Tol {
                abs: 1e-9,
                rel: 0.0,
            },
            &named!(NAMED, attention_mistakes(&q, &k, &v)),
        );
    });
}

/// Each query's weights over the keys form a probability distribution.
#[test]
fn attention_weights_rows_sum_to_one() {
    graded(|| {
        let q = linspace_matrix(3, 4, -1.0, 1.0);
        let k = linspace_matrix(5, 4, 0.8, -0.6);
        let v = linspace_matrix(5, 2, 0.0, 1.0);
        let weights = attend(&q, &k, &v, None).weights;
        assert_same_shape(
            &tr!(MESSAGES, "attention-label-weights-shape"),
            &weights,
            (3, 5),
        );
        assert_rows_sum_to_one(
            &tr!(MESSAGES, "attention-label-weights"),
            &weights,
            &WRONG_AXIS,
        );
    });
}

/// Queries and keys may come from different sequences (cross-attention): 2 queries over 5
/// keys with 3-wide values give a (2, 3) output and (2, 5) weights.
#[test]
fn cross_attention_shapes_follow_queries_and_values() {
    graded(|| {
        let q = linspace_matrix(2, 4, -1.0, 1.0);
        let k = linspace_matrix(5, 4, 0.5, -0.5);
        let v = linspace_matrix(5, 3, -1.0, 2.0);
        let Attention { output, weights } = attend(&q, &k, &v, None);
        assert_same_shape(
            &tr!(MESSAGES, "cross-attention-label-output"),
            &output,
            (2, 3),
        );
        assert_same_shape(
            &tr!(MESSAGES, "cross-attention-label-weights"),
            &weights,
            (2, 5),
        );
    });
}

/// Under a causal mask the weights above the diagonal are exactly 0, so the first
/// position's output is exactly its own value.
#[test]
fn causal_attention_gives_exactly_zero_weight_to_the_future() {
    graded(|| {
        let x = linspace_matrix(4, 3, -1.0, 1.0);
        let v = linspace_matrix(4, 2, 2.0, -2.0);
        let Attention { output, weights } = attend(&x, &x, &v, Some(&causal(4)));
        for i in 0..4 {
            for j in (i + 1)..4 {
                assert!(
                    weights[[i, j]] == 0.0,
                    "{}",
                    tr!(
                        MESSAGES,
                        "causal-future-weight",
                        i = i,
                        j = j,
                        weight = weights[[i, j]].to_string(),
                    )
                );
            }
        }
        assert_rows_sum_to_one(
            &tr!(MESSAGES, "causal-label-weights"),
            &weights,
            &tr!(MESSAGES, "causal-weights-hint"),
        );
        assert_matrix_close(
            &tr!(MESSAGES, "causal-label-first-output"),
            &output.slice(s![0..1, ..]).to_owned(),
            &v.slice(s![0..1, ..]).to_owned(),
            Tol::TIGHT,
            &[],
        );
    });
}

/// Masking the scores before the softmax is the same as zeroing the masked weights after
/// it and renormalising each row.
#[test]
fn masking_before_softmax_equals_masking_after_and_renormalising() {
    graded(|| {
        let q = linspace_matrix(3, 4, -0.9, 1.3);
        let k = linspace_matrix(4, 4, 1.1, -0.7);
        let v = linspace_matrix(4, 2, -0.5, 0.5);
        let mask: Mask = array![
            [true, false, true, true],
            [false, true, true, false],
            [true, true, false, true]
        ];
        let masked = attend(&q, &k, &v, Some(&mask)).weights;
        let mut zeroed = attend(&q, &k, &v, None).weights;
        for ((i, j), w) in zeroed.indexed_iter_mut() {
            if !mask[[i, j]] {
                *w = 0.0;
            }
        }
        let mut renormalised = zeroed.clone();
        for mut row in renormalised.rows_mut() {
            let sum = row.sum();
            row /= sum;
        }
        let masked_after = Misconception {
            cause: MASK_AFTER_SOFTMAX,
            result: zeroed,
        };
        assert_matrix_close(
            &tr!(MESSAGES, "masking-label-weights"),
            &masked,
            &renormalised,
            Tol::TIGHT,
            &[masked_after],
        );
    });
}

/// Padded keys get no weight: whatever their values hold, the output does not change.
#[test]
fn padded_keys_do_not_change_the_output() {
    graded(|| {
        let q = linspace_matrix(2, 3, -1.0, 1.0);
        let k = linspace_matrix(4, 3, 0.6, -0.4);
        let mut v = linspace_matrix(4, 2, 0.0, 1.5);
        let mask = padding(2, &[true, true, true, false]);
        let before = attend(&q, &k, &v, Some(&mask)).output;
        v.row_mut(3).fill(1e6);
        let after = attend(&q, &k, &v, Some(&mask)).output;
        assert_matrix_close(
            &tr!(MESSAGES, "padding-label-output"),
            &after,
            &before,
            Tol::TIGHT,
            &[],
        );
    });
}

/// A query allowed to attend to nothing gets zero weights and a zero output, never NaN.
#[test]
fn a_fully_masked_query_gives_a_zero_output_not_nan() {
    graded(|| {
        let q = linspace_matrix(2, 2, -1.0, 1.0);
        let k = linspace_matrix(3, 2, 0.5, -0.5);
        let v = linspace_matrix(3, 2, 1.0, 2.0);
        let mask: Mask = array![[true, true, false], [false, false, false]];
        let Attention { output, weights } = attend(&q, &k, &v, Some(&mask));
        let hint = tr!(MESSAGES, "fully-masked-hint");
        assert_all_finite(
            &tr!(MESSAGES, "fully-masked-label-weights"),
            &weights,
            &hint,
        );
        assert_all_finite(&tr!(MESSAGES, "fully-masked-label-output"), &output, &hint);
        let finite_mask = Misconception {
            cause: Cause::new(&MESSAGES, "fully-masked-finite-cause"),
            result: v
                .mean_axis(Axis(0))
                .expect("v has rows")
                .insert_axis(Axis(0)),
        };
        assert_matrix_close(
            &tr!(MESSAGES, "fully-masked-label-query-output"),
            &output.slice(s![1..2, ..]).to_owned(),
            &array![[0.0, 0.0]],
            Tol::TIGHT,
            &[finite_mask],
        );
    });
}

/// Scores near 10⁴ must not overflow: weights and output stay finite.
#[test]
fn attention_stays_finite_with_huge_scores() {
    graded(|| {
        let q = array![[100.0, 0.0], [0.0, 100.0]];
        let k = array![[100.0, 0.0], [0.0, 100.0], [-100.0, 0.0]];
        let v = array![[1.0, 0.0], [0.0, 1.0], [5.0, 5.0]];
        let Attention { output, weights } = attend(&q, &k, &v, None);
        let hint = tr!(MESSAGES, "huge-scores-hint");
        assert_all_finite(&tr!(MESSAGES, "huge-scores-label-weights"), &weights, &hint);
        assert_all_finite(&tr!(MESSAGES, "huge-scores-label-output"), &output, &hint);
        assert_matrix_close(
            &tr!(MESSAGES, "huge-scores-label-output"),
            &output,
            &array![[1.0, 0.0], [0.0, 1.0]],
            Tol::TIGHT,
            &[],
        );
    });
}

/// A query that matches one key far better than the others copies that key's value
/// (CS224n's "copying" question).
#[test]
fn a_sharply_peaked_query_copies_one_value() {
    graded(|| {
        let keys = Matrix::eye(4); // orthonormal keys
        let values = linspace_matrix(4, 3, -2.0, 3.0);
        let beta = 50.0;
        let q = keys.slice(s![2..3, ..]).to_owned() * beta;
        let out = attend(&q, &keys, &values, None).output;
        assert_matrix_close(
            &tr!(MESSAGES, "peaked-query-label"),
            &out,
            &values.slice(s![2..3, ..]).to_owned(),
            Tol {
                abs: 1e-9,
                rel: 0.0,
            },
            &[],
        );
    });
}

/// A query pointing between two orthogonal keys averages their two values
/// (CS224n's "average of two" question).
#[test]
fn a_query_between_two_orthogonal_keys_averages_their_values() {
    graded(|| {
        let keys = Matrix::eye(4);
        let values = linspace_matrix(4, 3, -2.0, 3.0);
        let beta = 50.0;
        let q = (&keys.slice(s![0..1, ..]) + &keys.slice(s![3..4, ..])) * beta;
        let out = attend(&q, &keys, &values, None).output;
        let average = (&values.slice(s![0..1, ..]) + &values.slice(s![3..4, ..])) / 2.0;
        assert_matrix_close(
            &tr!(MESSAGES, "query-between-keys-label"),
            &out,
            &average,
            Tol {
                abs: 1e-9,
                rel: 0.0,
            },
            &[],
        );
    });
}

/// The library analogy: a query for "machine learning" weighs the book labelled "deep
/// learning" most, and what comes back is mostly that book's content.
#[test]
fn the_library_query_finds_the_deep_learning_book() {
    graded(|| {
        // Features: [machine learning, cooking, gardening].
        let labels = array![[0.9, 0.0, 0.1], [0.0, 1.0, 0.2], [0.1, 0.1, 1.0]];
        let contents = array![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let query = array![[4.0, 0.0, 0.0]];
        let Attention { output, weights } = attend(&query, &labels, &contents, None);
        let best = (0..3).max_by(|&a, &b| weights[[0, a]].total_cmp(&weights[[0, b]]));
        assert!(
            best == Some(0),
            "{}",
            tr!(
                MESSAGES,
                "library-best-book",
                weights = format!("{weights:?}")
            )
        );
        assert!(
            output[[0, 0]] > 0.5,
            "{}",
            tr!(
                MESSAGES,
                "library-mostly-content",
                output = format!("{output:?}")
            )
        );
    });
}

/// The backward pass of attention agrees with central differences for Q, K and V, with a
/// causal mask in place.
#[test]
fn attention_backward_matches_numerical_gradients() {
    graded(|| {
        let q = linspace_matrix(4, 3, -0.8, 1.1);
        let k = linspace_matrix(4, 3, 0.9, -0.7);
        let v = linspace_matrix(4, 2, -1.2, 0.6);
        let mask = causal(4);
        let upstream = linspace_matrix(4, 2, 0.5, -1.0);
        let forward = attend(&q, &k, &v, Some(&mask));
        let grads = attend_backward(&q, &k, &v, &forward.weights, &upstream);
        let loss = |q: &Matrix, k: &Matrix, v: &Matrix| {
            weighted_sum(&attend(q, k, v, Some(&mask)).output, &upstream)
        };
        let d_q = numerical_gradient(|q| loss(q, &k, &v), &q, STEP);
        let d_k = numerical_gradient(|k| loss(&q, k, &v), &k, STEP);
        let d_v = numerical_gradient(|v| loss(&q, &k, v), &v, STEP);
        assert_gradient_close(
            "d_v",
            &grads.d_v,
            &d_v,
            &tr!(MESSAGES, "attention-backward-d-v-hint"),
        );
        assert_gradient_close(
            "d_q",
            &grads.d_q,
            &d_q,
            &tr!(MESSAGES, "attention-backward-d-q-hint"),
        );
        assert_gradient_close(
            "d_k",
            &grads.d_k,
            &d_k,
            &tr!(MESSAGES, "attention-backward-d-k-hint"),
        );
    });
}

// ---------------------------------------------------------------------------------------
// The Linear layer and one self-attention head
// ---------------------------------------------------------------------------------------

fn fixture_linear() -> Linear {
    Linear::new(
        linspace_matrix(4, 3, 0.3, -0.8),
        Vector::from(linspace(-0.1, 0.2, 4)),
    )
}

/// y = x Wᵀ + b with W of shape (d_out, d_in), as in PyTorch's nn.Linear (NumPy's values).
#[test]
fn linear_forward_computes_x_w_transposed_plus_b() {
    graded(|| {
        let layer = fixture_linear();
        let x = linspace_matrix(2, 3, -1.0, 1.5);
        let expected = NUMPY.matrix("linear_y");
        assert_matrix_close(
            "Linear::forward",
            &linear_forward(&layer, &x),
            &expected,
            Tol::TIGHT,
            &named!(NAMED, linear_mistakes(&x, &layer.weight, &layer.bias)),
        );
    });
}

/// y = x Wᵀ + b also when W is square, where x W + b runs without a shape error:
/// W = [[1, 0, 2], [0, 1, −1], [2, 1, 0]], b = [0.5, −1, 0], computed by hand.
#[test]
fn linear_forward_transposes_a_square_weight_too() {
    graded(|| {
        let weight = array![[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0]];
        let layer = Linear::new(weight, Vector::from(vec![0.5, -1.0, 0.0]));
        let x = array![[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]];
        // y[i, o] = x_i · (row o of W) + b_o; e.g. y[0, 1] = 0 + 2 − 3 − 1 = −2.
        let expected = array![[7.5, -2.0, 4.0], [2.5, -3.0, -1.0]];
        assert_matrix_close(
            &tr!(MESSAGES, "linear-label-square-weight"),
            &linear_forward(&layer, &x),
            &expected,
            Tol::TIGHT,
            &named!(NAMED, linear_mistakes(&x, &layer.weight, &layer.bias)),
        );
    });
}

/// The backward pass of Linear agrees with central differences for x, W and b.
#[test]
fn linear_backward_matches_numerical_gradients() {
    graded(|| {
        let layer = fixture_linear();
        let x = linspace_matrix(3, 3, -1.0, 1.0);
        let upstream = linspace_matrix(3, 4, 0.9, -0.4);
        let grads = linear_backward(&layer, &x, &upstream);
        let d_x = numerical_gradient(
            |x| weighted_sum(&linear_forward(&layer, x), &upstream),
            &x,
            STEP,
        );
        let d_w = numerical_gradient(
            |w| {
                let probe = Linear::new(w.clone(), layer.bias.clone());
                weighted_sum(&linear_forward(&probe, &x), &upstream)
            },
            &layer.weight,
            STEP,
        );
        let bias_row = layer.bias.clone().insert_axis(Axis(0));
        let d_b = numerical_gradient(
            |b| {
                let probe = Linear::new(layer.weight.clone(), b.row(0).to_owned());
                weighted_sum(&linear_forward(&probe, &x), &upstream)
            },
            &bias_row,
            STEP,
        );
        assert_gradient_close(
            &tr!(MESSAGES, "linear-label-d-x"),
            &grads.d_x,
            &d_x,
            &tr!(MESSAGES, "linear-d-x-hint"),
        );
        assert_gradient_close(
            &tr!(MESSAGES, "linear-label-d-weight"),
            &grads.d_weight,
            &d_w,
            "dW = dYᵀ x",
        );
        assert_gradient_close(
            &tr!(MESSAGES, "linear-label-d-bias"),
            &grads.d_bias.insert_axis(Axis(0)),
            &d_b,
            &tr!(MESSAGES, "linear-d-bias-hint"),
        );
    });
}

fn fixture_head() -> SelfAttentionHead {
    SelfAttentionHead {
        w_q: Linear::new(
            linspace_matrix(3, 5, 0.4, -0.6),
            Vector::from(linspace(0.1, -0.1, 3)),
        ),
        w_k: Linear::new(
            linspace_matrix(3, 5, -0.7, 0.5),
            Vector::from(linspace(-0.2, 0.3, 3)),
        ),
        w_v: Linear::new(
            linspace_matrix(2, 5, 0.2, 0.9),
            Vector::from(linspace(0.05, -0.05, 2)),
        ),
    }
}

/// One causal self-attention head on a (4, 5) input matches NumPy.
#[test]
fn self_attention_head_matches_the_reference_values() {
    graded(|| {
        let x = linspace_matrix(4, 5, -0.8, 0.9);
        let forward = head_forward(&fixture_head(), &x, Some(&causal(4)));
        let expected_weights = NUMPY.matrix("head_causal_weights");
        let expected_output = NUMPY.matrix("head_causal_output");
        let tol = Tol {
            abs: 1e-9,
            rel: 0.0,
        };
        let swapped = Misconception {
            cause: Cause::new(&MESSAGES, "head-swapped-cause"),
            result: attend(&forward.k, &forward.q, &forward.v, Some(&causal(4))).weights,
        };
        assert_matrix_close(
            &tr!(MESSAGES, "head-label-weights"),
            &forward.attention.weights,
            &expected_weights,
            tol,
            &[swapped],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "head-label-output"),
            &forward.attention.output,
            &expected_output,
            tol,
            &[],
        );
    });
}

/// Picks one projection of a head, to probe its parameters.
type Projection = fn(&mut SelfAttentionHead) -> &mut Linear;

/// The backward pass of a head agrees with central differences for x, for each
/// projection's share of x's gradient, and for every weight and bias; the key bias's
/// gradient is exactly 0.
#[test]
fn self_attention_head_backward_matches_numerical_gradients() {
    graded(|| {
        let head = fixture_head();
        let x = linspace_matrix(4, 5, -0.8, 0.9);
        let mask = causal(4);
        let upstream = linspace_matrix(4, 2, 1.0, -0.5);
        let forward = head_forward(&head, &x, Some(&mask));
        let grads = head_backward(&head, &x, &forward, &upstream);
        let loss = |head: &SelfAttentionHead, x: &Matrix| {
            weighted_sum(
                &head_forward(head, x, Some(&mask)).attention.output,
                &upstream,
            )
        };
        // The loss with a separate input for each projection: each path's share of ∂L/∂x.
        let loss_by_path = |x_q: &Matrix, x_k: &Matrix, x_v: &Matrix| {
            let (q, k, v) = (
                linear_forward(&head.w_q, x_q),
                linear_forward(&head.w_k, x_k),
                linear_forward(&head.w_v, x_v),
            );
            weighted_sum(&attend(&q, &k, &v, Some(&mask)).output, &upstream)
        };
        let shares = [
            numerical_gradient(|x_q| loss_by_path(x_q, &x, &x), &x, STEP),
            numerical_gradient(|x_k| loss_by_path(&x, x_k, &x), &x, STEP),
            numerical_gradient(|x_v| loss_by_path(&x, &x, x_v), &x, STEP),
        ];
        let paths = [
            (tr!(MESSAGES, "head-path-query"), "W_q", &grads.w_q.d_x),
            (tr!(MESSAGES, "head-path-key"), "W_k", &grads.w_k.d_x),
            (tr!(MESSAGES, "head-path-value"), "W_v", &grads.w_v.d_x),
        ];
        let d_x = numerical_gradient(|x| loss(&head, x), &x, STEP);
        let missing = paths.iter().zip(&shares).find(|(_, share)| {
            relative_error(&grads.d_x, &(&d_x - *share)) <= MAX_RELATIVE_ERROR
        });
        let hint = match missing {
            Some(((path, name, _), _)) => tr!(
                MESSAGES,
                "head-d-x-path-missing-hint",
                path = path,
                name = *name
            ),
            None => tr!(MESSAGES, "head-d-x-hint"),
        };
        assert_gradient_close(&tr!(MESSAGES, "head-label-d-x"), &grads.d_x, &d_x, &hint);
        for ((path, name, analytic), numerical) in paths.iter().zip(&shares) {
            assert_gradient_close(
                &tr!(MESSAGES, "head-label-path-d-x", name = *name, path = path),
                analytic,
                numerical,
                &tr!(MESSAGES, "head-path-d-x-hint"),
            );
        }
        let projections: [(&str, Projection, &Matrix); 3] = [
            ("W_q", |h| &mut h.w_q, &grads.w_q.d_weight),
            ("W_k", |h| &mut h.w_k, &grads.w_k.d_weight),
            ("W_v", |h| &mut h.w_v, &grads.w_v.d_weight),
        ];
        for (name, select, analytic) in projections {
            let mut probe = head.clone();
            let start = select(&mut probe).weight.clone();
            let numerical = numerical_gradient(
                |w| {
                    select(&mut probe).weight = w.clone();
                    loss(&probe, &x)
                },
                &start,
                STEP,
            );
            assert_gradient_close(
                &tr!(MESSAGES, "head-label-d-parameter", name = name),
                analytic,
                &numerical,
                &tr!(MESSAGES, "head-d-weight-hint"),
            );
        }
        let biases: [(&str, Projection, &Vector); 2] = [
            ("b_q", |h| &mut h.w_q, &grads.w_q.d_bias),
            ("b_v", |h| &mut h.w_v, &grads.w_v.d_bias),
        ];
        for (name, select, analytic) in biases {
            let mut probe = head.clone();
            let start = select(&mut probe).bias.clone().insert_axis(Axis(0));
            let numerical = numerical_gradient(
                |b| {
                    select(&mut probe).bias = b.row(0).to_owned();
                    loss(&probe, &x)
                },
                &start,
                STEP,
            );
            assert_gradient_close(
                &tr!(MESSAGES, "head-label-d-parameter", name = name),
                &analytic.clone().insert_axis(Axis(0)),
                &numerical,
                &tr!(MESSAGES, "head-d-bias-hint"),
            );
        }
        let d_bk = &grads.w_k.d_bias;
        assert!(
            d_bk.len() == 3 && d_bk.iter().all(|g| g.abs() <= 1e-10),
            "{}",
            tr!(MESSAGES, "head-d-b-k-not-zero", got = format!("{d_bk}"))
        );
    });
}
