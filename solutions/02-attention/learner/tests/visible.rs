//! The visible tests of lesson 02: what "done" looks like.
//!
//! Run them with `cargo test -p attention`. A failure says what was expected, what came
//! back and, when your result is what a common mistake gives, which mistake: the same
//! checks the graded tests use. The checker's graded tests check much more (stability,
//! masks, every gradient); `cargo run -p checker -- grade 02` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use attention::{
    Attention, Linear, causal_mask, scaled_dot_product_attention, softmax_rows,
    softmax_rows_backward,
};
use course_common::ndarray::array;
use course_common::{Float, Vector};
use course_harness::causes::attention::{
    MASK_AFTER_SOFTMAX, NO_MAX_SUBTRACTION, WRONG_AXIS,
};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Named, Tol, assert_all_finite, assert_gradient_close_named, assert_mask_eq,
    assert_matrix_close, assert_rows_sum_to_one, linspace_matrix, named,
    numerical_gradient,
};
#[cfg(feature = "builders")]
use course_mistakes::attention::{
    attention_mistakes, linear_mistakes, softmax_backward_mistakes, softmax_mistakes,
    weights_mistakes,
};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

#[test]
fn softmax_turns_each_row_of_scores_into_weights_that_sum_to_one() {
    // softmax([1, 2, 3]) = [e¹, e², e³] / (e¹ + e² + e³); equal scores, equal weights.
    let scores = array![[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]];
    let expected = array![
        [0.09003057317, 0.2447284711, 0.6652409558],
        [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]
    ];
    let weights = softmax_rows(&scores);
    assert_matrix_close(
        "softmax_rows([[1, 2, 3], [1, 1, 1]])",
        &weights,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, softmax_mistakes(&scores)),
    );
    assert_rows_sum_to_one("softmax_rows", &weights, &WRONG_AXIS);
}

#[test]
fn softmax_survives_scores_in_the_thousands() {
    // Only differences of scores matter: [1000, 999, 0] gives the weights of [1, 0, −999].
    let weights = softmax_rows(&array![[1000.0, 999.0, 0.0]]);
    assert_all_finite(
        "softmax_rows([[1000, 999, 0]])",
        &weights,
        &NO_MAX_SUBTRACTION,
    );
    let e = (-1.0 as Float).exp();
    let expected = array![[1.0 / (1.0 + e), e / (1.0 + e), 0.0]];
    assert_matrix_close(
        "softmax_rows([[1000, 999, 0]])",
        &weights,
        &expected,
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn the_softmax_backward_pass_matches_the_numerical_gradient() {
    let scores = linspace_matrix(3, 4, -1.5, 2.0);
    let upstream = linspace_matrix(3, 4, 0.7, -0.9);
    let weights = softmax_rows(&scores);
    let analytic = softmax_rows_backward(&weights, &upstream);
    let numerical =
        numerical_gradient(|s| weighted_sum(&softmax_rows(s), &upstream), &scores, STEP);
    assert_gradient_close_named(
        "softmax_rows_backward",
        &analytic,
        &numerical,
        "each row's Jacobian is diag(w) − w wᵀ, so dS = W ⊙ (dW − rowsum(W ⊙ dW)). (If the \
         softmax tests fail too, fix softmax_rows first: the numerical gradient uses it.)",
        &named!(
            NAMED,
            softmax_backward_mistakes(
                &course_mistakes::attention::softmax_along(&scores, 1),
                &upstream
            )
        ),
    );
}

#[test]
fn the_causal_mask_lets_each_position_see_itself_and_the_past() {
    let expected = array![
        [true, false, false],
        [true, true, false],
        [true, true, true]
    ];
    assert_mask_eq(
        "causal_mask(3)",
        &causal_mask(3),
        &expected,
        "row i is query i and column j key j; query i may attend to keys 0..=i (j ≤ i)",
    );
}

#[test]
fn the_three_word_walkthrough() {
    // Chapter 02 works this example by hand: d_k = 2, so the scores are divided by √2.
    let q = array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let v = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let Attention { output, weights } = scaled_dot_product_attention(&q, &q, &v, None);
    // Row 0: scores [1, 0, 1] / √2, so weights e^{1/√2} : 1 : e^{1/√2}.
    let a = (1.0 / Float::sqrt(2.0)).exp();
    let b = (2.0 / Float::sqrt(2.0)).exp();
    let expected_weights = array![
        [
            a / (2.0 * a + 1.0),
            1.0 / (2.0 * a + 1.0),
            a / (2.0 * a + 1.0)
        ],
        [
            1.0 / (2.0 * a + 1.0),
            a / (2.0 * a + 1.0),
            a / (2.0 * a + 1.0)
        ],
        [a / (2.0 * a + b), a / (2.0 * a + b), b / (2.0 * a + b)]
    ];
    assert_matrix_close(
        "attention weights (three words)",
        &weights,
        &expected_weights,
        Tol::TIGHT,
        &named!(NAMED, weights_mistakes(&q, &q)),
    );
    // Each output row is a weighted average of the values. The first word weighs words 1
    // and 3 equally, and word 2's value [3, 4] is already their average: exactly [3, 4].
    let expected = expected_weights.dot(&v);
    assert_matrix_close(
        "attention output (three words)",
        &output,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, attention_mistakes(&q, &q, &v)),
    );
}

#[test]
fn masked_positions_get_exactly_zero_weight_and_rows_still_sum_to_one() {
    let x = array![[0.3, -0.2], [1.0, 0.5], [-0.7, 0.8]];
    let weights = scaled_dot_product_attention(&x, &x, &x, Some(&causal_mask(3))).weights;
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        assert!(
            weights[[i, j]] == 0.0,
            "causal weights: query {i} must give key {j} (a later position) exactly 0, got \
             {:e}.\nLikely cause: mask the scores with −∞ (Float::NEG_INFINITY), not with a \
             large finite number, before the softmax",
            weights[[i, j]]
        );
    }
    assert_rows_sum_to_one("causal weights", &weights, &MASK_AFTER_SOFTMAX);
}

#[test]
fn linear_computes_x_w_transposed_plus_b() {
    // Weight (d_out, d_in) = (3, 3), one row per output feature as in PyTorch: square, so
    // that x W runs too, and gives something else. Computed by hand:
    // y[0, 1] = 1·0 + 2·1 + 3·(−1) + (−1) = −2.
    let weight = array![[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0]];
    let bias = Vector::from(vec![0.5, -1.0, 0.0]);
    let layer = Linear::new(weight.clone(), bias.clone());
    let x = array![[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]];
    let expected = array![[7.5, -2.0, 4.0], [2.5, -3.0, -1.0]];
    assert_matrix_close(
        "Linear::forward",
        &layer.forward(&x),
        &expected,
        Tol::TIGHT,
        &named!(NAMED, linear_mistakes(&x, &weight, &bias)),
    );
}

#[test]
fn a_row_with_nothing_to_attend_to_gets_zero_weights_not_nan() {
    // Row 1 is all −∞: a query every key is masked from (a padded query). Its maximum is
    // −∞ too, and −∞ − (−∞) is NaN: the contract gives such a row zero weights.
    let inf = Float::INFINITY;
    let scores = array![[0.5, -inf, 1.5], [-inf, -inf, -inf]];
    let weights = softmax_rows(&scores);
    assert_all_finite(
        "softmax_rows with a fully masked row",
        &weights,
        "a row that is all −∞ has maximum −∞, and −∞ − (−∞) is NaN: give such a row \
         all-zero weights instead",
    );
    let e = (1.0 as Float).exp();
    let expected = array![[1.0 / (1.0 + e), 0.0, e / (1.0 + e)], [0.0, 0.0, 0.0]];
    assert_matrix_close(
        "softmax_rows with a fully masked row",
        &weights,
        &expected,
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn linear_backward_of_a_layer_from_3_features_to_2() {
    // d_in = 3, d_out = 2, so a transpose too many or too few cannot go unnoticed. By hand:
    // dx = dY W (2 × 3), dW = dYᵀ x (2 × 3), db = dY summed over the rows (2).
    let layer = Linear::new(
        array![[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]],
        Vector::from(vec![0.5, -1.0]),
    );
    let x = array![[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]];
    let d_y = array![[1.0, -1.0], [2.0, 0.5]];
    let grads = layer.backward(&x, &d_y);
    let no_mistakes = [];
    assert_matrix_close(
        "Linear::backward d_x (dY W)",
        &grads.d_x,
        &array![[1.0, -1.0, 3.0], [2.0, 0.5, 3.5]],
        Tol::TIGHT,
        &no_mistakes,
    );
    assert_matrix_close(
        "Linear::backward d_weight (dYᵀ x)",
        &grads.d_weight,
        &array![[1.0, 0.0, 5.0], [-1.0, -2.5, -2.5]],
        Tol::TIGHT,
        &no_mistakes,
    );
    assert_matrix_close(
        "Linear::backward d_bias (dY summed over the rows)",
        &grads
            .d_bias
            .clone()
            .insert_axis(course_common::ndarray::Axis(0)),
        &array![[3.0, -0.5]],
        Tol::TIGHT,
        &no_mistakes,
    );
}
