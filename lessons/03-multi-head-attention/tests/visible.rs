//! The visible tests of lesson 03: what "done" looks like.
//!
//! Run them with `cargo test -p multi-head-attention`. The checker's graded tests check
//! much more (PyTorch's values, masks in every head, every gradient);
//! `cargo run -p checker -- grade 03-multi-head-attention` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use attention::scaled_dot_product_attention;
use course_common::ndarray::array;
use course_common::{Float, Matrix, Vector};
use course_harness::{Tol, assert_matrix_close, linspace_matrix};
use multi_head_attention::{Linear, MultiHeadAttention, merge_heads, split_heads};

/// A `d × d` identity projection with a zero bias: it hands its input on unchanged.
fn identity(d: usize) -> Linear {
    Linear::new(Matrix::eye(d), Vector::zeros(d))
}

#[test]
fn split_heads_cuts_the_features_into_blocks_of_d_k_columns() {
    // Two tokens, d_model = 4, two heads: head 0 gets features 0 and 1, head 1 gets
    // features 2 and 3. The rows (the tokens) stay as they are.
    let x = array![[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
    let heads = split_heads(&x, 2);
    assert_eq!(
        heads,
        vec![
            array![[1.0, 2.0], [5.0, 6.0]],
            array![[3.0, 4.0], [7.0, 8.0]]
        ]
    );
}

#[test]
fn merge_heads_undoes_split_heads() {
    let x = linspace_matrix(3, 6, -1.0, 1.0);
    for n_heads in [1, 2, 3, 6] {
        assert_eq!(merge_heads(&split_heads(&x, n_heads)), x);
    }
}

#[test]
fn two_heads_look_at_different_features() {
    // Identity projections, d_model = 4, two heads of d_k = 2. Head 0 sees features 0
    // and 1: chapter 02's three-word example. Head 1 sees features 2 and 3, where only
    // word 2 has anything ([2, 0]): words 1 and 3 score 0 against every key there, so
    // they spread their weight evenly, and word 2 scores 2·2/√2 = 2√2 against itself,
    // so it takes e^(2√2) / (e^(2√2) + 2) = 0.8943 of its own value.
    let x = array![
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 2.0, 0.0],
        [1.0, 1.0, 0.0, 0.0]
    ];
    let mha =
        MultiHeadAttention::new(2, identity(4), identity(4), identity(4), identity(4));
    let forward = mha.forward(&x, &x, None);
    // Head 0, as chapter 02 works it: a = e^(1/√2), b = e^(2/√2).
    let a = (1.0 / Float::sqrt(2.0)).exp();
    let b = (2.0 / Float::sqrt(2.0)).exp();
    let head_0 = array![
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
    let c = (2.0 * Float::sqrt(2.0)).exp();
    let third = 1.0 / 3.0;
    let head_1 = array![
        [third, third, third],
        [1.0 / (c + 2.0), c / (c + 2.0), 1.0 / (c + 2.0)],
        [third, third, third]
    ];
    assert_eq!(forward.weights.len(), 2, "one weight matrix per head");
    // Head h sees columns h·d_k .. (h+1)·d_k of the projected queries and keys.
    assert_matrix_close(
        "head 0's weights",
        &forward.weights[0],
        &head_0,
        Tol::TIGHT,
        &[],
    );
    assert_matrix_close(
        "head 1's weights",
        &forward.weights[1],
        &head_1,
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn one_head_with_identity_projections_is_lesson_02_attention() {
    // Cross-attention: 2 queries over 3 keys. With one head and projections that change
    // nothing, multi-head attention is exactly the attention you wrote in lesson 02.
    let x_q = array![[1.0, 0.0, 0.5], [0.0, 1.0, -0.5]];
    let x_kv = array![[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [-1.0, 0.0, 1.0]];
    let mha =
        MultiHeadAttention::new(1, identity(3), identity(3), identity(3), identity(3));
    let forward = mha.forward(&x_q, &x_kv, None);
    let lesson02 = scaled_dot_product_attention(&x_q, &x_kv, &x_kv, None);
    assert_eq!(forward.output.dim(), (2, 3));
    approx::assert_abs_diff_eq!(forward.output, lesson02.output, epsilon = 1e-12);
    approx::assert_abs_diff_eq!(forward.weights[0], lesson02.weights, epsilon = 1e-12);
}

#[test]
fn the_base_models_attention_has_about_a_million_parameters() {
    // The paper's base model: d_model = 512, 8 heads. Four 512 × 512 weights and four
    // biases of 512: 4 · 512² + 4 · 512 = 1,050,624, whatever the number of heads.
    let zero = || Linear::new(Matrix::zeros((512, 512)), Vector::zeros(512));
    let mha = MultiHeadAttention::new(8, zero(), zero(), zero(), zero());
    assert_eq!(mha.parameter_count(), 1_050_624);
}

#[test]
fn cross_attention_gives_one_output_row_per_query() {
    // 2 decoder positions attend over 5 encoder positions, d_model = 6, 3 heads.
    let mha =
        MultiHeadAttention::new(3, identity(6), identity(6), identity(6), identity(6));
    let x_q = linspace_matrix(2, 6, -1.0, 1.0);
    let x_kv = linspace_matrix(5, 6, 1.0, -1.0);
    let forward = mha.forward(&x_q, &x_kv, None);
    assert_eq!(forward.output.dim(), (2, 6));
    assert_eq!(forward.weights.len(), 3);
    for weights in &forward.weights {
        assert_eq!(weights.dim(), (2, 5));
    }
}
