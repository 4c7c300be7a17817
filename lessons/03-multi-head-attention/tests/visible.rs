//! The visible tests of lesson 03: what "done" looks like.
//!
//! Run them with `cargo test -p multi-head-attention`. A failure says what was expected,
//! what came back and, when your result is what a common mistake gives, which mistake: the
//! same checks the graded tests use. The checker's graded tests check much more (PyTorch's
//! values, masks in every head, every gradient);
//! `cargo run -p checker -- grade 03-multi-head-attention` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use attention::{padding_mask, scaled_dot_product_attention};
use course_common::ndarray::array;
use course_common::{Float, Matrix, Vector};
use course_harness::causes::multi_head_attention::parameter_count_cause;
use course_harness::causes::multi_head_attention::{KV_FROM_QUERY, ONE_PER_HEAD};
use course_harness::check::assert_same_shape_because;
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Groups, Misconception, Named, Tol, assert_gradient_close_named, assert_matrix_close,
    linspace, linspace_matrix, named, numerical_gradient,
};
#[cfg(feature = "builders")]
use course_mistakes::multi_head_attention::{
    forward as mha_forward, input_gradient_mistakes, merge_mistakes, output_mistakes,
    parameter_count_mistakes, split_mistakes, weights_mistakes,
};
use multi_head_attention::{Linear, MultiHeadAttention, merge_heads, split_heads};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

/// A `d × d` identity projection with a zero bias: it hands its input on unchanged.
fn identity(d: usize) -> Linear {
    Linear::new(Matrix::eye(d), Vector::zeros(d))
}

/// The layer's weights as the builders of wrong answers take them: one adapter, shared
/// by the graded suite and the visible tests (maintainers' builds only).
// Included as text rather than as a module file, so that the learner's copy of this file
// (where the suite is not) still formats: only the maintainers' builds compile it.
#[cfg(feature = "builders")]
mod parts {
    include!("../../suite/parts.rs");
}
#[cfg(feature = "builders")]
use parts::params;

#[test]
fn split_heads_cuts_the_features_into_blocks_of_d_k_columns() {
    // Two tokens, d_model = 4, two heads: head 0 gets features 0 and 1, head 1 gets
    // features 2 and 3. The rows (the tokens) stay as they are.
    let x = array![[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
    let heads = split_heads(&x, 2);
    assert_eq!(heads.len(), 2, "one matrix per head");
    let expected = [
        array![[1.0, 2.0], [5.0, 6.0]],
        array![[3.0, 4.0], [7.0, 8.0]],
    ];
    let mistakes = named!(NAMED, split_mistakes(&x, 2) => Vec<Vec<Misconception>>);
    for head in 0..2 {
        assert_matrix_close(
            &format!("split_heads(x, 2): head {head}"),
            &heads[head],
            &expected[head],
            Tol::TIGHT,
            &mistakes[head],
        );
    }
}

#[test]
fn merge_heads_undoes_split_heads() {
    let x = linspace_matrix(3, 6, -1.0, 1.0);
    for n_heads in [1, 2, 3, 6] {
        let heads = split_heads(&x, n_heads);
        assert_matrix_close(
            &format!(
                "merge_heads(split_heads(x, {n_heads})) (the heads sit side by side, not \
                 stacked: the tokens stay the rows)"
            ),
            &merge_heads(&heads),
            &x,
            Tol::TIGHT,
            &named!(
                NAMED,
                merge_mistakes(&course_mistakes::multi_head_attention::split(
                    &x, n_heads
                ))
            ),
        );
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
    // W_o is the identity too, but adds a bias.
    let w_o = Linear::new(Matrix::eye(4), Vector::from(vec![0.1, 0.2, 0.3, 0.4]));
    let mha = MultiHeadAttention::new(2, identity(4), identity(4), identity(4), w_o);
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
    assert_eq!(forward.weights.len(), 2, "{ONE_PER_HEAD}");
    // Head h sees columns h·d_k .. (h+1)·d_k of the projected queries and keys.
    let wrong = named!(NAMED, weights_mistakes(&params(&mha), &x, &x, None) => Vec<Vec<Misconception>>);
    assert_matrix_close(
        "head 0's weights",
        &forward.weights[0],
        &head_0,
        Tol::TIGHT,
        &wrong[0],
    );
    assert_matrix_close(
        "head 1's weights",
        &forward.weights[1],
        &head_1,
        Tol::TIGHT,
        &wrong[1],
    );
    // Each head averages its own columns of the values; the heads' outputs side by side,
    // then W_o (here: plus the bias), give the output (recorded beside this file).
    let expected = named!(NAMED, mha_forward(&params(&mha), &x, &x, None) => Matrix);
    assert_matrix_close(
        "the output (the heads side by side, then W_o)",
        &forward.output,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, output_mistakes(&params(&mha), &x, &x, None)),
    );
}

#[test]
fn queries_keys_and_values_each_have_their_own_projection() {
    // Self-attention of 3 tokens, d_model = 4, 2 heads, with four different projections.
    // The tests above use identity projections to be worked by hand, and with them
    // Q = K = V = x: a head that projected its values with W_k would pass them all.
    let layer = |seed: Float| {
        Linear::new(
            linspace_matrix(4, 4, -0.5 + seed, 0.6 - seed),
            Vector::from(linspace(0.1, -seed, 4)),
        )
    };
    let mha = MultiHeadAttention::new(2, layer(0.1), layer(0.2), layer(0.3), layer(0.4));
    let x = array![
        [1.0, -0.5, 0.25, 2.0],
        [0.0, 1.5, -1.0, 0.5],
        [-2.0, 0.75, 1.0, -0.25]
    ];
    let forward = mha.forward(&x, &x, None);
    // The output computed by the formula, recorded beside this file.
    let expected = named!(NAMED, mha_forward(&params(&mha), &x, &x, None) => Matrix);
    assert_matrix_close(
        "the output with W_q, W_k, W_v and W_o all different",
        &forward.output,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, output_mistakes(&params(&mha), &x, &x, None)),
    );
}

#[test]
fn one_head_with_identity_projections_is_lesson_02_attention() {
    // Cross-attention: 2 queries over 3 keys, the last key padded. With one head and
    // projections that change nothing, multi-head attention is exactly the attention you
    // wrote in lesson 02, mask included.
    let x_q = array![[1.0, 0.0, 0.5], [0.0, 1.0, -0.5]];
    let x_kv = array![[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [-1.0, 0.0, 1.0]];
    let mask = padding_mask(2, &[true, true, false]);
    let mha =
        MultiHeadAttention::new(1, identity(3), identity(3), identity(3), identity(3));
    let forward = mha.forward(&x_q, &x_kv, Some(&mask));
    let lesson02 = scaled_dot_product_attention(&x_q, &x_kv, &x_kv, Some(&mask));
    assert_eq!(forward.weights.len(), 1, "{ONE_PER_HEAD}");
    assert_matrix_close(
        "the weights of the only head",
        &forward.weights[0],
        &lesson02.weights,
        Tol::TIGHT,
        &named!(NAMED, weights_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask)) => Vec<Vec<Misconception>>)
            [0],
    );
    assert_matrix_close(
        "one-head attention with identity projections (lesson 02's attention)",
        &forward.output,
        &lesson02.output,
        Tol::TIGHT,
        &named!(
            NAMED,
            output_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask))
        ),
    );
}

#[test]
fn the_base_models_attention_has_about_a_million_parameters() {
    // The paper's base model: d_model = 512, 8 heads. Four 512 × 512 weights and four
    // biases of 512: 4 · 512² + 4 · 512 = 1,050,624, whatever the number of heads.
    let zero = || Linear::new(Matrix::zeros((512, 512)), Vector::zeros(512));
    let mha = MultiHeadAttention::new(8, zero(), zero(), zero(), zero());
    let got = mha.parameter_count();
    let wrong_counts = named!(NAMED, parameter_count_mistakes(512, 8));
    assert!(
        got == 1_050_624,
        "parameter_count: expected 1,050,624, got {got}. Likely cause: {}.",
        parameter_count_cause(got, 1_050_624, &wrong_counts)
    );
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
    assert_eq!(forward.weights.len(), 3, "{ONE_PER_HEAD}");
    for weights in &forward.weights {
        // One row per query, one column per key.
        assert_same_shape_because("a head's weights", weights, (2, 5), &KV_FROM_QUERY);
    }
}

#[test]
fn backward_matches_numerical_gradients_of_both_inputs() {
    // Cross-attention, 2 heads: 2 queries over 3 keys, d_model = 4.
    let layer = |seed: Float| {
        Linear::new(
            linspace_matrix(4, 4, -0.5 + seed, 0.6 - seed),
            Vector::from(linspace(0.1, -seed, 4)),
        )
    };
    let mha = MultiHeadAttention::new(2, layer(0.1), layer(0.2), layer(0.3), layer(0.4));
    let x_q = linspace_matrix(2, 4, -1.0, 0.8);
    let x_kv = linspace_matrix(3, 4, 0.9, -1.1);
    let upstream = linspace_matrix(2, 4, 0.6, -0.7);
    let forward = mha.forward(&x_q, &x_kv, None);
    let grads = mha.backward(&x_q, &x_kv, &forward, &upstream);
    let mistakes = named!(NAMED, Groups::from(input_gradient_mistakes(&params(&mha), &x_q, &x_kv, None, &upstream)) => Groups);
    let loss = |x_q: &Matrix, x_kv: &Matrix| {
        weighted_sum(&mha.forward(x_q, x_kv, None).output, &upstream)
    };
    assert_gradient_close_named(
        "d_query_input",
        &grads.d_query_input,
        &numerical_gradient(|x| loss(x, &x_kv), &x_q, STEP),
        "the query input feeds only W_q: d_query_input = dQ W_q, with dQ every head's d_q \
         side by side and each head's upstream gradient its slice of d_output W_o. (If a \
         forward test fails too, fix forward first: the numerical gradient uses it.)",
        &mistakes["d_query_input"],
    );
    assert_gradient_close_named(
        "d_key_value_input",
        &grads.d_key_value_input,
        &numerical_gradient(|x| loss(&x_q, x), &x_kv, STEP),
        "the key/value input feeds both W_k and W_v: d_key_value_input = dK W_k + dV W_v",
        &mistakes["d_key_value_input"],
    );
}
