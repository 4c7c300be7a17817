//! Graded tests of lesson 03, multi-head attention.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API
//! (and lesson 02's reference attention, which grading supplies), so any correct
//! implementation passes. Every fixture is hand-computed, an exact property (the
//! definition written out head by head with lesson 02's attention, the identities of
//! split and merge, central differences), or a value from PyTorch's
//! nn.MultiheadAttention in float64 (torch 2.15.0), which solutions/03-multi-head-attention/reference.py
//! writes into `graded.json` beside this file.
//! Every call into the lesson goes through `observe` (or `object`, for the forward pass a
//! backward pass is given), so that the checker's judge can replay it (see harness::tape).

use attention::{causal_mask, padding_mask, scaled_dot_product_attention};
use course_common::ndarray::{Array2, Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::multi_head_attention::parameter_count_cause;
use course_harness::causes::multi_head_attention::{KV_FROM_QUERY, ONE_PER_HEAD};
use course_harness::gradient::{MAX_RELATIVE_ERROR, STEP, weighted_sum};
use course_harness::tape::{TAPE_ENDED, TAPE_MISMATCH, panic_message};
use course_harness::{
    Catalog, Cause, Groups, Held, Misconception, Named, Reference, Tol,
    assert_gradient_close, assert_gradient_close_named, assert_matrix_close,
    assert_rows_sum_to_one, assert_same_shape, graded, linspace, linspace_matrix, named,
    numerical_gradient, object, observe, relative_error, scrambled, tr,
};
#[cfg(feature = "builders")]
use course_mistakes::multi_head_attention::{
    input_gradient_mistakes, merge_mistakes, output_mistakes, parameter_count_mistakes,
    split_mistakes, weights_mistakes,
};
use multi_head_attention::{
    Linear, LinearGrads, Mask, MultiHeadAttention, MultiHeadForward, MultiHeadGrads,
    merge_heads, split_heads,
};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::LazyLock;

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named =
    Named::new(file!(), &[&MESSAGES], include_str!("graded.named.json"));

/// The values PyTorch computed for these tests (see the module docs), by name.
static PYTORCH: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse(
        "03-multi-head-attention/graded.json",
        include_str!("graded.json"),
    )
});

/// What the failing tests say, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "03-multi-head-attention",
    include_str!("locales/en/suite.ftl"),
    include_str!("locales/zh-CN/suite.ftl"),
);

fn scrambled_linear(d_model: usize, seed: usize) -> Linear {
    Linear::new(
        scrambled(d_model, d_model, seed, 0.6),
        scrambled(1, d_model, seed + 50, 0.3).row(0).to_owned(),
    )
}

/// Multi-head attention with scrambled weights and biases.
fn fixture_mha(d_model: usize, n_heads: usize) -> MultiHeadAttention {
    MultiHeadAttention::new(
        n_heads,
        scrambled_linear(d_model, 10),
        scrambled_linear(d_model, 20),
        scrambled_linear(d_model, 30),
        scrambled_linear(d_model, 40),
    )
}

/// The layer's weights as the builders of wrong answers take them: one adapter, shared
/// by the graded suite and the visible tests (maintainers' builds only).
#[cfg(feature = "builders")]
#[path = "parts.rs"]
mod parts;
#[cfg(feature = "builders")]
use parts::params;

fn tight() -> Tol {
    Tol::TIGHT
}

// ---------------------------------------------------------------------------------------
// The calls into the lesson, each through `observe` (see harness::tape)
// ---------------------------------------------------------------------------------------

fn split(x: &Matrix, n_heads: usize) -> Vec<Matrix> {
    let _args = course_harness::call_args!(x, n_heads);
    observe("split_heads", || split_heads(x, n_heads))
}

fn merge(heads: &[Matrix]) -> Matrix {
    let _args = course_harness::call_args!(heads);
    observe("merge_heads", || merge_heads(heads))
}

/// What the tests check of a forward pass: the output and each head's weights.
struct Forward {
    output: Matrix,
    weights: Vec<Matrix>,
}

/// `mha.forward(query_input, key_value_input, mask)`: its output and weights.
fn forward_pass(
    mha: &MultiHeadAttention,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Mask>,
) -> Forward {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        observe("MultiHeadAttention::forward", || {
            let forward = mha.forward(query_input, key_value_input, mask);
            (forward.output, forward.weights)
        })
    }));
    match outcome {
        Ok((output, weights)) => Forward { output, weights },
        Err(payload) => {
            explain_cross_attention_panic(payload, query_input, key_value_input)
        }
    }
}

/// Passes on a panic of the forward pass; when the queries and the keys differ in number
/// (cross-attention), a shape mismatch there most often means the keys or the values were
/// computed from the query input, so the message says so. A `todo!()` and the tape's own
/// panics are passed on as they are.
fn explain_cross_attention_panic(
    payload: Box<dyn std::any::Any + Send>,
    query_input: &Matrix,
    key_value_input: &Matrix,
) -> ! {
    let text = panic_message(payload.as_ref());
    if query_input.nrows() == key_value_input.nrows()
        || text.starts_with("not yet implemented")
        || text.starts_with(TAPE_ENDED)
        || text.starts_with(TAPE_MISMATCH)
    {
        resume_unwind(payload);
    }
    panic!(
        "{}",
        tr!(
            MESSAGES,
            "cross-attention-panic",
            queries = query_input.nrows(),
            keys = key_value_input.nrows(),
            text = text,
            cause = KV_FROM_QUERY,
        )
    );
}

/// `mha.forward(query_input, key_value_input, mask)` kept whole, to give to the backward
/// pass; read it with [`outputs_of`] or [`backward_pass`].
fn forward_object(
    mha: &MultiHeadAttention,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Mask>,
) -> Held<MultiHeadForward> {
    object("MultiHeadAttention::forward", || {
        mha.forward(query_input, key_value_input, mask)
    })
}

/// The output and weights of a forward pass kept with [`forward_object`].
fn outputs_of(forward: &Held<MultiHeadForward>) -> Forward {
    let (output, weights) = observe("MultiHeadAttention::forward (outputs)", || {
        (forward.output.clone(), forward.weights.clone())
    });
    Forward { output, weights }
}

// The lesson's gradient structs go on the tape through `observe_parts`, with the course's
// one way to take them apart.
course_harness::tape_structs! {
    LinearGrads { d_x: Matrix, d_weight: Matrix, d_bias: Vector }
    MultiHeadGrads {
        d_query_input: Matrix,
        d_key_value_input: Matrix,
        w_q: LinearGrads,
        w_k: LinearGrads,
        w_v: LinearGrads,
        w_o: LinearGrads,
    }
}

/// `mha.backward(query_input, key_value_input, forward, d_output)`.
fn backward_pass(
    mha: &MultiHeadAttention,
    query_input: &Matrix,
    key_value_input: &Matrix,
    forward: &Held<MultiHeadForward>,
    d_output: &Matrix,
) -> MultiHeadGrads {
    let _args = course_harness::call_args!(query_input, key_value_input, d_output);
    observe_parts("MultiHeadAttention::backward", || {
        mha.backward(query_input, key_value_input, forward, d_output)
    })
}

// ---------------------------------------------------------------------------------------
// Split and merge
// ---------------------------------------------------------------------------------------

/// split_heads gives head i the contiguous columns i·d_k .. (i+1)·d_k, checked by hand on
/// a (3, 6) matrix whose entry (r, c) is 10r + c.
#[test]
fn split_heads_gives_each_head_a_contiguous_block_of_columns() {
    graded(|| {
        let x = Matrix::from_shape_fn((3, 6), |(r, c)| (10 * r + c) as Float);
        let heads = split(&x, 3);
        assert!(
            heads.len() == 3,
            "{}",
            tr!(MESSAGES, "split-count", got = heads.len())
        );
        let expected = [
            array![[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]],
            array![[2.0, 3.0], [12.0, 13.0], [22.0, 23.0]],
            array![[4.0, 5.0], [14.0, 15.0], [24.0, 25.0]],
        ];
        let wrong = named!(NAMED, split_mistakes(&x, 3) => Vec<Vec<Misconception>>);
        for (head, (got, expected)) in heads.iter().zip(&expected).enumerate() {
            assert_matrix_close(
                &tr!(MESSAGES, "split-label-head", head = head),
                got,
                expected,
                tight(),
                &wrong[head],
            );
        }
        // The sequence length never changes, even when it differs from d_model.
        let tall = linspace_matrix(5, 4, -1.0, 1.0);
        for head in split(&tall, 2) {
            assert_same_shape(&tr!(MESSAGES, "split-label-tall-head"), &head, (5, 2));
        }
    });
}

/// merge_heads puts the heads side by side, head i in columns i·d_k .. (i+1)·d_k: the
/// paper's Concat(head_1, ..., head_h).
#[test]
fn merge_heads_puts_the_heads_side_by_side() {
    graded(|| {
        let heads = [
            array![[1.0, 2.0], [3.0, 4.0]],
            array![[5.0, 6.0], [7.0, 8.0]],
            array![[9.0, 10.0], [11.0, 12.0]],
        ];
        let expected = array![
            [1.0, 2.0, 5.0, 6.0, 9.0, 10.0],
            [3.0, 4.0, 7.0, 8.0, 11.0, 12.0]
        ];
        assert_matrix_close(
            &tr!(MESSAGES, "merge-label"),
            &merge(&heads),
            &expected,
            tight(),
            &named!(NAMED, merge_mistakes(&heads)),
        );
    });
}

/// Splitting then merging gives back the matrix exactly, for every number of heads that
/// divides d_model; merging then splitting gives back the heads.
#[test]
fn split_then_merge_is_the_identity_and_merge_then_split_too() {
    graded(|| {
        let x = scrambled(5, 12, 3, 1.0);
        for n_heads in [1, 2, 3, 4, 6, 12] {
            let back = merge(&split(&x, n_heads));
            assert!(
                back == x,
                "{}",
                tr!(
                    MESSAGES,
                    "split-then-merge",
                    heads = n_heads,
                    got = format!("{back:?}"),
                    x = format!("{x:?}"),
                )
            );
        }
        let heads: Vec<Matrix> = (0..4).map(|i| scrambled(5, 3, 7 * i, 1.0)).collect();
        let again = split(&merge(&heads), 4);
        assert!(
            again == heads,
            "{}",
            tr!(MESSAGES, "merge-then-split", got = format!("{again:?}"))
        );
    });
}

// ---------------------------------------------------------------------------------------
// The forward pass
// ---------------------------------------------------------------------------------------

/// With one head, identity projections and zero biases, multi-head attention is lesson
/// 02's attention with Q = query input and K = V = key/value input.
#[test]
fn one_head_with_identity_projections_is_lesson_02_attention() {
    graded(|| {
        let identity = || Linear::new(Matrix::eye(4), Vector::zeros(4));
        let mha =
            MultiHeadAttention::new(1, identity(), identity(), identity(), identity());
        let x_q = linspace_matrix(3, 4, -1.0, 1.3);
        let x_kv = scrambled(5, 4, 11, 1.2);
        let mask: Mask = array![
            [true, true, false, true, true],
            [false, true, true, true, false],
            [true, false, true, false, true]
        ];
        let forward = forward_pass(&mha, &x_q, &x_kv, Some(&mask));
        let lesson02 = scaled_dot_product_attention(&x_q, &x_kv, &x_kv, Some(&mask));
        assert!(
            forward.weights.len() == 1,
            "{}",
            tr!(
                MESSAGES,
                "one-head-weight-count",
                got = forward.weights.len(),
                cause = ONE_PER_HEAD,
            )
        );
        assert_matrix_close(
            &tr!(MESSAGES, "one-head-label-weights"),
            &forward.weights[0],
            &lesson02.weights,
            tight(),
            &named!(NAMED, weights_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask)) => Vec<Vec<Misconception>>)
                [0],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "one-head-label-output"),
            &forward.output,
            &lesson02.output,
            tight(),
            &named!(
                NAMED,
                output_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask))
            ),
        );
    });
}

/// Multi-head attention equals its definition written out head by head: each head's own
/// rows of W_q, W_k, W_v, lesson 02's attention, the outputs side by side, then W_o;
/// cross-attention with a mask, for 1, 2, 3 and 6 heads on d_model = 6.
#[test]
fn multi_head_attention_is_a_loop_of_lesson_02_heads_then_w_o() {
    graded(|| {
        let x_q = scrambled(4, 6, 5, 1.0);
        let x_kv = scrambled(5, 6, 9, 1.0);
        let mask: Mask = array![
            [true, true, false, true, true],
            [false, true, true, true, false],
            [true, false, true, false, true],
            [true, true, true, true, true]
        ];
        for n_heads in [1, 2, 3, 6] {
            let mha = fixture_mha(6, n_heads);
            let forward = forward_pass(&mha, &x_q, &x_kv, Some(&mask));
            // The definition written out head by head, recorded beside this file (see
            // `course_harness::named`): no code of this file computes the layer.
            let expected_output = named!(
                NAMED,
                course_mistakes::multi_head_attention::forward(&params(&mha), &x_q, &x_kv, Some(&mask)) => Matrix
            );
            let expected_weights = named!(
                NAMED,
                course_mistakes::multi_head_attention::head_weights(&params(&mha), &x_q, &x_kv, Some(&mask)) => Vec<Matrix>
            );
            assert_matrix_close(
                &tr!(MESSAGES, "heads-label-output", heads = n_heads),
                &forward.output,
                &expected_output,
                tight(),
                &named!(
                    NAMED,
                    output_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask))
                ),
            );
            assert!(
                forward.weights.len() == n_heads,
                "{}",
                tr!(
                    MESSAGES,
                    "heads-weight-count",
                    heads = n_heads,
                    got = forward.weights.len(),
                    cause = ONE_PER_HEAD,
                )
            );
            let wrong = named!(NAMED, weights_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask)) => Vec<Vec<Misconception>>);
            for (head, (got, want)) in
                forward.weights.iter().zip(&expected_weights).enumerate()
            {
                assert_matrix_close(
                    &tr!(
                        MESSAGES,
                        "heads-label-weights",
                        head = head,
                        heads = n_heads
                    ),
                    got,
                    want,
                    tight(),
                    &wrong[head],
                );
            }
        }
    });
}

/// The weights and biases of the PyTorch fixture: nn.MultiheadAttention(6, 2) with
/// in_proj_weight = lin(18, 6, −0.6, 0.7) packed [W_q; W_k; W_v], in_proj_bias =
/// linspace(0.1, −0.2, 18), out_proj = lin(6, 6, 0.5, −0.4) and linspace(−0.05, 0.05, 6).
fn pytorch_fixture() -> MultiHeadAttention {
    let in_proj_weight = linspace_matrix(18, 6, -0.6, 0.7);
    let in_proj_bias = Vector::from(linspace(0.1, -0.2, 18));
    let part = |i: usize| {
        Linear::new(
            in_proj_weight.slice(s![6 * i..6 * (i + 1), ..]).to_owned(),
            in_proj_bias.slice(s![6 * i..6 * (i + 1)]).to_owned(),
        )
    };
    MultiHeadAttention::new(
        2,
        part(0),
        part(1),
        part(2),
        Linear::new(
            linspace_matrix(6, 6, 0.5, -0.4),
            Vector::from(linspace(-0.05, 0.05, 6)),
        ),
    )
}

fn assert_matches_pytorch(
    what: &str,
    forward: &Forward,
    expected_output: &Matrix,
    expected_weights: &[Matrix],
    mistakes: Vec<Misconception>,
    weight_mistakes: &[Vec<Misconception>],
) {
    assert_matrix_close(
        &tr!(MESSAGES, "pytorch-label-output", what = what),
        &forward.output,
        expected_output,
        tight(),
        &mistakes,
    );
    assert!(
        forward.weights.len() == expected_weights.len(),
        "{}",
        tr!(
            MESSAGES,
            "pytorch-weight-count",
            what = what,
            expected = expected_weights.len(),
            got = forward.weights.len(),
            cause = ONE_PER_HEAD,
        )
    );
    for (head, (got, want)) in forward.weights.iter().zip(expected_weights).enumerate() {
        assert_matrix_close(
            &tr!(MESSAGES, "pytorch-label-weights", what = what, head = head),
            got,
            want,
            tight(),
            &weight_mistakes[head],
        );
    }
}

/// Self-attention matches PyTorch's nn.MultiheadAttention(6, 2) (float64) on x = lin(4, 6,
/// −1.5, 1.2), output and per-head weights.
#[test]
fn self_attention_matches_pytorch() {
    graded(|| {
        let mha = pytorch_fixture();
        let x = linspace_matrix(4, 6, -1.5, 1.2);
        let (output, weights) = pytorch("self_attention");
        let mut mistakes = named!(NAMED, output_mistakes(&params(&mha), &x, &x, None));
        mistakes.push(Misconception {
            cause: Cause::new(&MESSAGES, "seed-code-cause"),
            result: PYTORCH.matrix("seed_code_self_attention"),
        });
        let weight_mistakes = named!(NAMED, weights_mistakes(&params(&mha), &x, &x, None) => Vec<Vec<Misconception>>);
        assert_matches_pytorch(
            &tr!(MESSAGES, "pytorch-case-self-attention"),
            &forward_pass(&mha, &x, &x, None),
            &output,
            &weights,
            mistakes,
            &weight_mistakes,
        );
    });
}

/// Cross-attention (2 queries over 5 keys) matches PyTorch's nn.MultiheadAttention(6, 2).
#[test]
fn cross_attention_matches_pytorch() {
    graded(|| {
        let mha = pytorch_fixture();
        let x_q = linspace_matrix(2, 6, 0.9, -1.3);
        let x_kv = linspace_matrix(5, 6, -1.1, 1.4);
        let (output, weights) = pytorch("cross_attention");
        let forward = forward_pass(&mha, &x_q, &x_kv, None);
        assert_same_shape(
            &tr!(MESSAGES, "cross-attention-label-output-shape"),
            &forward.output,
            (2, 6),
        );
        let weight_mistakes = named!(NAMED, weights_mistakes(&params(&mha), &x_q, &x_kv, None) => Vec<Vec<Misconception>>);
        assert_matches_pytorch(
            &tr!(MESSAGES, "pytorch-case-cross-attention"),
            &forward,
            &output,
            &weights,
            named!(NAMED, output_mistakes(&params(&mha), &x_q, &x_kv, None)),
            &weight_mistakes,
        );
    });
}

/// Self-attention with the last two keys padded matches PyTorch with key_padding_mask =
/// [False, False, False, True, True] (PyTorch: True = ignore; the course: true = may
/// attend, so the course's mask is padding_mask(5, [true, true, true, false, false])).
#[test]
fn padded_self_attention_matches_pytorch_key_padding_mask() {
    graded(|| {
        let mha = pytorch_fixture();
        let x = linspace_matrix(5, 6, 1.0, -0.8);
        let mask = padding_mask(5, &[true, true, true, false, false]);
        let (output, weights) = pytorch("padded_self_attention");
        // The mask left out or inverted is among the output's mistakes.
        let mistakes = named!(NAMED, output_mistakes(&params(&mha), &x, &x, Some(&mask)));
        let weight_mistakes = named!(NAMED, weights_mistakes(&params(&mha), &x, &x, Some(&mask)) => Vec<Vec<Misconception>>);
        assert_matches_pytorch(
            &tr!(MESSAGES, "pytorch-case-padded-self-attention"),
            &forward_pass(&mha, &x, &x, Some(&mask)),
            &output,
            &weights,
            mistakes,
            &weight_mistakes,
        );
    });
}

/// Padded keys get no weight in any head: changing the padded tokens arbitrarily leaves
/// every real token's output unchanged (self-attention), and every output unchanged when
/// only the keys and values are padded (cross-attention).
#[test]
fn padded_keys_do_not_change_the_real_tokens_outputs() {
    graded(|| {
        let mha = fixture_mha(6, 3);
        let is_token = [true, true, true, false, false];
        let mask = padding_mask(5, &is_token);
        let x = scrambled(5, 6, 2, 1.0);
        let mut changed = x.clone();
        changed
            .slice_mut(s![3.., ..])
            .assign(&scrambled(2, 6, 60, 40.0));
        let before = forward_pass(&mha, &x, &x, Some(&mask));
        let after = forward_pass(&mha, &changed, &changed, Some(&mask));
        for (head, weights) in after.weights.iter().enumerate() {
            for ((row, col), &w) in weights.indexed_iter() {
                assert!(
                    is_token[col] || w == 0.0,
                    "{}",
                    tr!(
                        MESSAGES,
                        "padded-key-weight",
                        head = head,
                        row = row,
                        weight = w.to_string(),
                        col = col,
                    )
                );
            }
        }
        assert_matrix_close(
            &tr!(MESSAGES, "padded-label-self-attention"),
            &after.output.slice(s![..3, ..]).to_owned(),
            &before.output.slice(s![..3, ..]).to_owned(),
            tight(),
            &[],
        );
        let x_q = scrambled(2, 6, 8, 1.0);
        let cross_mask = padding_mask(2, &is_token);
        let before = forward_pass(&mha, &x_q, &x, Some(&cross_mask));
        let after = forward_pass(&mha, &x_q, &changed, Some(&cross_mask));
        assert_matrix_close(
            &tr!(MESSAGES, "padded-label-cross-attention"),
            &after.output,
            &before.output,
            tight(),
            &[],
        );
    });
}

/// Under a causal mask every head gives exactly zero weight to the future, and every
/// head's rows sum to 1.
#[test]
fn the_causal_mask_holds_in_every_head() {
    graded(|| {
        let mha = fixture_mha(6, 3);
        let x = scrambled(4, 6, 4, 1.0);
        let forward = forward_pass(&mha, &x, &x, Some(&causal_mask(4)));
        assert!(
            forward.weights.len() == 3,
            "{}",
            tr!(
                MESSAGES,
                "one-weight-matrix-per-head",
                heads = 3,
                got = forward.weights.len(),
                cause = ONE_PER_HEAD,
            )
        );
        for (head, weights) in forward.weights.iter().enumerate() {
            assert_same_shape(
                &tr!(MESSAGES, "weights-of-head", head = head),
                weights,
                (4, 4),
            );
            for ((row, col), &w) in weights.indexed_iter() {
                assert!(
                    col <= row || w == 0.0,
                    "{}",
                    tr!(
                        MESSAGES,
                        "causal-future-weight",
                        head = head,
                        row = row,
                        weight = w.to_string(),
                        col = col,
                    )
                );
            }
            assert_rows_sum_to_one(
                &tr!(MESSAGES, "causal-label-weights", head = head),
                weights,
                &tr!(MESSAGES, "causal-rows-hint"),
            );
        }
    });
}

/// Cross-attention of 2 queries over 5 keys with d_model = 6 and 3 heads: the output is
/// (2, 6), each of the 3 heads' weights (2, 5) with rows summing to 1, and the gradients
/// have the shapes of what they are gradients of.
#[test]
fn cross_attention_shapes_follow_the_queries_and_the_keys() {
    graded(|| {
        let mha = fixture_mha(6, 3);
        let (d_model, d_k) = observe("MultiHeadAttention::d_model, d_k", || {
            (mha.d_model(), mha.d_k())
        });
        assert!(
            d_model == 6 && d_k == 2,
            "{}",
            tr!(MESSAGES, "sizes", d_model = d_model, d_k = d_k)
        );
        let x_q = scrambled(2, 6, 1, 1.0);
        let x_kv = scrambled(5, 6, 33, 1.0);
        let held = forward_object(&mha, &x_q, &x_kv, None);
        let forward = outputs_of(&held);
        assert_same_shape(
            &tr!(MESSAGES, "shapes-label-output"),
            &forward.output,
            (2, 6),
        );
        assert!(
            forward.weights.len() == 3,
            "{}",
            tr!(
                MESSAGES,
                "one-weight-matrix-per-head",
                heads = 3,
                got = forward.weights.len(),
                cause = ONE_PER_HEAD,
            )
        );
        for (head, weights) in forward.weights.iter().enumerate() {
            assert_same_shape(
                &tr!(MESSAGES, "shapes-label-head-weights", head = head),
                weights,
                (2, 5),
            );
            assert_rows_sum_to_one(
                &tr!(MESSAGES, "weights-of-head", head = head),
                weights,
                &tr!(MESSAGES, "shapes-rows-hint"),
            );
        }
        let grads = backward_pass(&mha, &x_q, &x_kv, &held, &Matrix::ones((2, 6)));
        assert_same_shape(
            &tr!(MESSAGES, "shapes-label-d-query-input"),
            &grads.d_query_input,
            (2, 6),
        );
        assert_same_shape(
            &tr!(MESSAGES, "shapes-label-d-key-value-input"),
            &grads.d_key_value_input,
            (5, 6),
        );
        for (name, layer) in [
            ("W_q", &grads.w_q),
            ("W_k", &grads.w_k),
            ("W_v", &grads.w_v),
            ("W_o", &grads.w_o),
        ] {
            assert_same_shape(&format!("d_{name}"), &layer.d_weight, (6, 6));
            assert!(
                layer.d_bias.len() == 6,
                "{}",
                tr!(
                    MESSAGES,
                    "shapes-bias-gradient",
                    name = name,
                    got = layer.d_bias.len()
                )
            );
        }
    });
}

/// The parameters are the four d_model × d_model weights and four d_model biases:
/// 4·d_model² + 4·d_model, whatever the number of heads (1,050,624 for the paper's
/// d_model = 512).
#[test]
fn parameter_count_is_four_d_model_squared_plus_four_d_model() {
    graded(|| {
        // The counts are worked out by hand: 4·36 + 4·6 = 168, 4·64 + 4·8 = 288,
        // 4·262,144 + 4·512 = 1,050,624.
        let cases = [
            (6, 1, 168),
            (6, 2, 168),
            (6, 3, 168),
            (6, 6, 168),
            (8, 4, 288),
            (512, 8, 1_050_624),
        ];
        for (d_model, n_heads, expected) in cases {
            let zero =
                || Linear::new(Matrix::zeros((d_model, d_model)), Vector::zeros(d_model));
            let mha = MultiHeadAttention::new(n_heads, zero(), zero(), zero(), zero());
            let got = observe("MultiHeadAttention::parameter_count", || {
                mha.parameter_count()
            });
            let candidates = named!(NAMED, parameter_count_mistakes(d_model, n_heads));
            let cause = parameter_count_cause(got, expected, &candidates);
            assert!(
                got == expected,
                "{}",
                tr!(
                    MESSAGES,
                    "parameter-count",
                    d_model = d_model,
                    heads = n_heads,
                    d = d_model,
                    expected = expected,
                    got = got,
                    cause = cause,
                )
            );
        }
    });
}

/// PyTorch's output and the weights of heads 0 and 1 (need_weights=True,
/// average_attn_weights=False) of nn.MultiheadAttention(6, 2, batch_first=True) with the
/// weights of `pytorch_fixture`, for one of the inputs above: `self_attention`,
/// `cross_attention` or `padded_self_attention`.
fn pytorch(input: &str) -> (Matrix, [Matrix; 2]) {
    (
        PYTORCH.matrix(&format!("{input}_output")),
        [0, 1].map(|head| PYTORCH.matrix(&format!("{input}_weights_of_head_{head}"))),
    )
}

// ---------------------------------------------------------------------------------------
// The backward pass
// ---------------------------------------------------------------------------------------

fn loss(
    mha: &MultiHeadAttention,
    x_q: &Matrix,
    x_kv: &Matrix,
    mask: &Mask,
    upstream: &Matrix,
) -> Float {
    let output = observe("MultiHeadAttention::forward", || {
        mha.forward(x_q, x_kv, Some(mask)).output
    });
    weighted_sum(&output, upstream)
}

fn cross_fixture() -> (MultiHeadAttention, Matrix, Matrix, Mask, Matrix) {
    let mha = fixture_mha(6, 3);
    let x_q = scrambled(3, 6, 12, 1.0);
    let x_kv = scrambled(4, 6, 21, 1.0);
    let mask: Mask = array![
        [true, false, true, true],
        [true, true, true, false],
        [false, true, true, true]
    ];
    let upstream = scrambled(3, 6, 44, 1.0);
    (mha, x_q, x_kv, mask, upstream)
}

/// The backward pass agrees with central differences for the query input and the
/// key/value input of cross-attention (3 heads, a mask).
#[test]
fn backward_matches_numerical_gradients_of_both_inputs() {
    graded(|| {
        let (mha, x_q, x_kv, mask, upstream) = cross_fixture();
        let forward = forward_object(&mha, &x_q, &x_kv, Some(&mask));
        let grads = backward_pass(&mha, &x_q, &x_kv, &forward, &upstream);
        let d_x_q =
            numerical_gradient(|x| loss(&mha, x, &x_kv, &mask, &upstream), &x_q, STEP);
        let d_x_kv =
            numerical_gradient(|x| loss(&mha, &x_q, x, &mask, &upstream), &x_kv, STEP);
        let mistakes = named!(NAMED, Groups::from(input_gradient_mistakes(&params(&mha), &x_q, &x_kv, Some(&mask), &upstream)) => Groups);
        assert_gradient_close_named(
            "d_query_input",
            &grads.d_query_input,
            &d_x_q,
            &tr!(MESSAGES, "d-query-input-hint"),
            &mistakes["d_query_input"],
        );
        let value_only = &grads.w_v.d_x;
        let hint = if relative_error(value_only, &d_x_kv) < 1e-3 {
            tr!(MESSAGES, "d-key-value-input-value-path-hint")
        } else if relative_error(&grads.w_k.d_x, &d_x_kv) < 1e-3 {
            tr!(MESSAGES, "d-key-value-input-key-path-hint")
        } else {
            tr!(MESSAGES, "d-key-value-input-hint")
        };
        assert_gradient_close_named(
            "d_key_value_input",
            &grads.d_key_value_input,
            &d_x_kv,
            &hint,
            &mistakes["d_key_value_input"],
        );
    });
}

/// Picks one projection of the layer, to probe its parameters.
type Projection = fn(&mut MultiHeadAttention) -> &mut Linear;

/// The backward pass agrees with central differences for every weight and bias of the
/// four projections; the key bias's gradient is exactly 0 (the softmax ignores what b_k
/// adds to each row of scores).
#[test]
fn backward_matches_numerical_gradients_of_every_weight_and_bias() {
    graded(|| {
        let (mha, x_q, x_kv, mask, upstream) = cross_fixture();
        let forward = forward_object(&mha, &x_q, &x_kv, Some(&mask));
        let grads = backward_pass(&mha, &x_q, &x_kv, &forward, &upstream);
        let projections: [(&str, Projection, &Matrix, &Vector, String); 4] = [
            (
                "W_q",
                |m| &mut m.w_q,
                &grads.w_q.d_weight,
                &grads.w_q.d_bias,
                tr!(MESSAGES, "d-w-q-hint"),
            ),
            (
                "W_k",
                |m| &mut m.w_k,
                &grads.w_k.d_weight,
                &grads.w_k.d_bias,
                tr!(MESSAGES, "d-w-k-hint"),
            ),
            (
                "W_v",
                |m| &mut m.w_v,
                &grads.w_v.d_weight,
                &grads.w_v.d_bias,
                tr!(MESSAGES, "d-w-v-hint"),
            ),
            (
                "W_o",
                |m| &mut m.w_o,
                &grads.w_o.d_weight,
                &grads.w_o.d_bias,
                tr!(MESSAGES, "d-w-o-hint"),
            ),
        ];
        for (name, select, d_weight, d_bias, hint) in projections {
            let mut probe = mha.clone();
            let start = select(&mut probe).weight.clone();
            let numerical = numerical_gradient(
                |w| {
                    select(&mut probe).weight = w.clone();
                    loss(&probe, &x_q, &x_kv, &mask, &upstream)
                },
                &start,
                STEP,
            );
            assert_gradient_close(
                &tr!(MESSAGES, "label-d-weight", name = name),
                d_weight,
                &numerical,
                &hint,
            );
            if name == "W_k" {
                assert!(
                    d_bias.len() == 6 && d_bias.iter().all(|g| g.abs() <= 1e-10),
                    "{}",
                    tr!(MESSAGES, "key-bias-not-zero", got = format!("{d_bias}"))
                );
                continue;
            }
            let mut probe = mha.clone();
            let start = select(&mut probe).bias.clone().insert_axis(Axis(0));
            let numerical = numerical_gradient(
                |b| {
                    select(&mut probe).bias = b.row(0).to_owned();
                    loss(&probe, &x_q, &x_kv, &mask, &upstream)
                },
                &start,
                STEP,
            );
            assert_gradient_close(
                &tr!(MESSAGES, "label-d-bias", name = name),
                &d_bias.clone().insert_axis(Axis(0)),
                &numerical,
                &tr!(MESSAGES, "d-bias-hint"),
            );
        }
    });
}

/// In self-attention the one input x feeds W_q, W_k and W_v, so its gradient is
/// d_query_input + d_key_value_input; checked against central differences with a causal
/// mask and 2 heads.
#[test]
fn self_attention_input_gradient_is_the_sum_of_both_inputs_gradients() {
    graded(|| {
        let mha = fixture_mha(6, 2);
        let x = scrambled(4, 6, 17, 1.0);
        let mask = causal_mask(4);
        let upstream = scrambled(4, 6, 71, 1.0);
        let forward = forward_object(&mha, &x, &x, Some(&mask));
        let grads = backward_pass(&mha, &x, &x, &forward, &upstream);
        let numerical =
            numerical_gradient(|x| loss(&mha, x, x, &mask, &upstream), &x, STEP);
        let total = &grads.d_query_input + &grads.d_key_value_input;
        let hint = if relative_error(&grads.d_key_value_input, &numerical)
            <= MAX_RELATIVE_ERROR
        {
            tr!(MESSAGES, "self-attention-counted-twice-hint")
        } else {
            tr!(MESSAGES, "self-attention-input-hint")
        };
        assert_gradient_close(
            &tr!(MESSAGES, "self-attention-label-input-gradient"),
            &total,
            &numerical,
            &hint,
        );
    });
}

/// Heads are independent: the weights of head i depend only on head i's rows of W_q and
/// W_k (rows i·d_k .. (i+1)·d_k), so changing head 1's rows leaves heads 0 and 2 as they
/// were and changes head 1.
#[test]
fn each_head_depends_only_on_its_own_rows_of_the_projections() {
    graded(|| {
        let mha = fixture_mha(6, 3);
        let x = scrambled(4, 6, 6, 1.0);
        let before = forward_pass(&mha, &x, &x, None);
        // Change head 1's rows (columns 2..4 of Q and K) only.
        let mut changed = mha.clone();
        changed
            .w_q
            .weight
            .slice_mut(s![2..4, ..])
            .assign(&scrambled(2, 6, 90, 2.0));
        changed
            .w_k
            .weight
            .slice_mut(s![2..4, ..])
            .assign(&scrambled(2, 6, 95, 2.0));
        let after = forward_pass(&changed, &x, &x, None);
        for head in [0, 2] {
            assert_matrix_close(
                &tr!(MESSAGES, "independent-heads-label", head = head),
                &after.weights[head],
                &before.weights[head],
                tight(),
                &[],
            );
        }
        let unchanged: Array2<bool> = Array2::from_shape_fn((4, 4), |(i, j)| {
            after.weights[1][[i, j]] == before.weights[1][[i, j]]
        });
        assert!(
            !unchanged.iter().all(|&same| same),
            "{}",
            tr!(MESSAGES, "independent-heads-unchanged")
        );
    });
}
