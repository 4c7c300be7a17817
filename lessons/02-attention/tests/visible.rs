//! The visible tests of lesson 02: what "done" looks like.
//!
//! Run them with `cargo test -p attention`. The checker's graded tests check much more
//! (stability, masks, gradients); `cargo run -p checker -- grade 02-attention` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use attention::{
    Attention, Linear, causal_mask, scaled_dot_product_attention, softmax_rows,
};
use course_common::Vector;
use course_common::ndarray::array;
use course_harness::check::show;
use course_harness::{Tol, assert_matrix_close, assert_rows_sum_to_one};

#[test]
fn softmax_turns_scores_into_weights_that_sum_to_one() {
    // softmax([1, 2, 3]) = [e¹, e², e³] / (e¹ + e² + e³).
    let weights = softmax_rows(&array![[1.0, 2.0, 3.0]]);
    let expected = array![[0.09003057317, 0.2447284711, 0.6652409558]];
    assert_matrix_close(
        "softmax_rows([[1, 2, 3]])",
        &weights,
        &expected,
        Tol::TIGHT,
        &[],
    );
    assert_rows_sum_to_one("softmax_rows", &weights, "divide by the row's sum");
}

#[test]
fn the_causal_mask_lets_each_position_see_itself_and_the_past() {
    assert_eq!(
        causal_mask(3),
        array![
            [true, false, false],
            [true, true, false],
            [true, true, true]
        ]
    );
}

#[test]
fn the_three_word_walkthrough() {
    // Chapter 02 works this example by hand: d_k = 2, so the scores are divided by √2.
    let q = array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let v = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let Attention { output, weights } = scaled_dot_product_attention(&q, &q, &v, None);
    insta::assert_snapshot!(show("weights", &weights), @r"
    weights (3 x 3):
      [   0.4011,    0.1978,    0.4011]
      [   0.1978,    0.4011,    0.4011]
      [   0.2483,    0.2483,    0.5035]
    ");
    // Each output row is a weighted average of the values. The first word weighs words 1
    // and 3 equally, and word 2's value [3, 4] is already their average: exactly [3, 4].
    let expected = array![
        [3.0, 4.0],
        [3.406672556, 4.406672556],
        [3.51046953, 4.51046953]
    ];
    approx::assert_abs_diff_eq!(output, expected, epsilon = 1e-9);
}

#[test]
fn masked_positions_get_exactly_zero_weight() {
    let x = array![[0.3, -0.2], [1.0, 0.5], [-0.7, 0.8]];
    let weights = scaled_dot_product_attention(&x, &x, &x, Some(&causal_mask(3))).weights;
    assert_eq!(weights[[0, 1]], 0.0);
    assert_eq!(weights[[0, 2]], 0.0);
    assert_eq!(weights[[1, 2]], 0.0);
    assert_rows_sum_to_one("causal weights", &weights, "renormalise after masking");
}

#[test]
fn linear_computes_x_w_transposed_plus_b() {
    // Weight (d_out, d_in) = (2, 3), as in PyTorch: one row per output feature.
    let layer = Linear::new(
        array![[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]],
        Vector::from(vec![0.1, -0.2]),
    );
    let x = array![[1.0, 2.0, 3.0]];
    let expected = array![[1.0 - 3.0 + 0.1, 3.0 - 0.2]];
    approx::assert_abs_diff_eq!(layer.forward(&x), expected, epsilon = 1e-12);
}
