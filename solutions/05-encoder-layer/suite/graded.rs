//! Graded tests of lesson 05, the encoder layer and the decoder layer.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API
//! (which re-exports lesson 02's and lesson 03's types; grading supplies their reference
//! solutions), so any correct implementation passes. Every fixture is hand-computed, an
//! exact property (LayerNorm's row statistics, the zero gradient of a sum of LayerNorm
//! outputs, positions that cannot influence each other, central differences), a value
//! published with another library (burn, candle), or a value from PyTorch in float64:
//! nn.LayerNorm, nn.TransformerEncoderLayer and nn.TransformerDecoderLayer (torch 2.15.0),
//! which solutions/05-encoder-layer/reference.py writes into `graded.json` beside this file.
//! The wrong answers used to name mistakes come from the same script, which writes each
//! layer out by hand with switches for the mistakes (the values named `mistake_*`), or
//! from `course_mistakes::encoder_layer`, which writes the layers out with a
//! switch per mistake too (the lesson's visible tests use it as well).
//!
//! Every call into the lesson goes through `observe` (its result structs taken apart into
//! matrices by `observe_parts`), so the checker's judge can replay it (see harness::tape).

use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::encoder_layer::{
    CROSS_OVER_SELF, NO_CAUSAL_MASK, NO_MEMORY_MASK, NO_RELU, NO_RESIDUAL, POST_NOT_PRE,
    PRE_NOT_POST, RESIDUAL_FROM_NORM,
};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Catalog, Cause, Checks, Groups, Misconception, Named, Reference, Tol,
    assert_all_finite, assert_gradient_close, assert_matrix_close, assert_same_shape,
    graded, linspace, linspace_matrix, named, numerical_gradient, observe,
    relative_error, scrambled, tr,
};
#[cfg(feature = "builders")]
use course_mistakes::encoder_layer::{
    self as mistakes, Norm, encoder_d_x_mistakes, ffn_backward_mistakes, ffn_hidden,
    ffn_mistakes, layer_norm_backward_mistakes, layer_norm_mistakes, normalise,
};
use encoder_layer::{
    DecoderLayer, DecoderLayerForward, DecoderLayerGrads, EncoderLayer,
    EncoderLayerForward, EncoderLayerGrads, FeedForward, FeedForwardForward,
    FeedForwardGrads, LAYER_NORM_EPS, LayerNorm, LayerNormGrads, Linear, LinearGrads,
    Mask, MultiHeadAttention, MultiHeadForward, MultiHeadGrads, NormPosition, Normalised,
    causal_mask, normalise_rows, padding_mask,
};
use std::sync::LazyLock;

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named =
    Named::new(file!(), &[&MESSAGES], include_str!("graded.named.json"));

/// The values PyTorch computed for these tests (see the module docs), by name: PyTorch's
/// results, and the wrong answers of the script's layers written out with a mistake
/// (`mistake_*`).
static PYTORCH: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse("05-encoder-layer/graded.json", include_str!("graded.json"))
});

/// What a failed test says, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "05-encoder-layer",
    include_str!("locales/en/suite.ftl"),
    include_str!("locales/zh-CN/suite.ftl"),
);

/// Exactly equal: for properties that hold bit for bit (rows that cannot see each other).
const EXACT: Tol = Tol { abs: 0.0, rel: 0.0 };

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

fn vector(start: Float, end: Float, n: usize) -> Vector {
    Vector::from(linspace(start, end, n))
}

fn row(v: &Vector) -> Matrix {
    v.clone().insert_axis(Axis(0))
}

/// nn.MultiheadAttention(6, 2) from its packed in_proj_weight (18, 6) = [W_q; W_k; W_v],
/// in_proj_bias (18,) and out_proj.
fn packed_attention(
    in_weight: Matrix,
    in_bias: Vector,
    out_weight: Matrix,
    out_bias: Vector,
) -> MultiHeadAttention {
    let part = |i: usize| {
        Linear::new(
            in_weight.slice(s![6 * i..6 * (i + 1), ..]).to_owned(),
            in_bias.slice(s![6 * i..6 * (i + 1)]).to_owned(),
        )
    };
    MultiHeadAttention::new(
        2,
        part(0),
        part(1),
        part(2),
        Linear::new(out_weight, out_bias),
    )
}

/// The reference script's self_attn: scrambled(18, 6, 10, 0.6), linspace(0.1, −0.2, 18),
/// scrambled(6, 6, 20, 0.6), linspace(−0.05, 0.05, 6).
fn fixture_self_attention() -> MultiHeadAttention {
    packed_attention(
        scrambled(18, 6, 10, 0.6),
        vector(0.1, -0.2, 18),
        scrambled(6, 6, 20, 0.6),
        vector(-0.05, 0.05, 6),
    )
}

/// The reference script's multihead_attn (the decoder's cross-attention).
fn fixture_cross_attention() -> MultiHeadAttention {
    packed_attention(
        scrambled(18, 6, 30, 0.6),
        vector(-0.15, 0.1, 18),
        scrambled(6, 6, 40, 0.6),
        vector(0.03, -0.04, 6),
    )
}

/// The reference script's linear1 (10, 6) and linear2 (6, 10).
fn fixture_ffn() -> FeedForward {
    FeedForward::new(
        Linear::new(scrambled(10, 6, 50, 0.8), vector(0.1, -0.1, 10)),
        Linear::new(scrambled(6, 10, 60, 0.5), vector(-0.05, 0.08, 6)),
    )
}

/// The reference script's norm1, norm2, norm3.
fn fixture_norm(i: usize) -> LayerNorm {
    match i {
        1 => LayerNorm::from_parameters(vector(0.8, 1.3, 6), vector(-0.2, 0.1, 6)),
        2 => LayerNorm::from_parameters(vector(1.2, 0.7, 6), vector(0.15, -0.05, 6)),
        _ => LayerNorm::from_parameters(vector(0.9, 1.1, 6), vector(-0.1, 0.2, 6)),
    }
}

fn fixture_encoder(norm_position: NormPosition) -> EncoderLayer {
    EncoderLayer::new(
        fixture_self_attention(),
        fixture_ffn(),
        fixture_norm(1),
        fixture_norm(2),
        norm_position,
    )
}

fn fixture_decoder(norm_position: NormPosition) -> DecoderLayer {
    DecoderLayer::new(
        fixture_self_attention(),
        fixture_cross_attention(),
        fixture_ffn(),
        fixture_norm(1),
        fixture_norm(2),
        fixture_norm(3),
        norm_position,
    )
}

/// The encoder's input in the PyTorch comparisons.
fn encoder_x() -> Matrix {
    scrambled(4, 6, 3, 1.0)
}

/// The decoder's target input and memory in the PyTorch comparisons: 4 target tokens, 5
/// source tokens of which the last is padding.
fn decoder_inputs() -> (Matrix, Matrix, Mask, Mask) {
    (
        scrambled(4, 6, 5, 1.0),
        scrambled(5, 6, 7, 1.0),
        causal_mask(4),
        padding_mask(4, &[true, true, true, true, false]),
    )
}

// ---------------------------------------------------------------------------------------
// Calls into the lesson, through the tape
// ---------------------------------------------------------------------------------------

// The lesson's result structs (and those of lessons 02 and 03, inside them) go on the
// tape through `observe_parts`, with the course's one way to take them apart.
course_harness::tape_structs! {
    LinearGrads { d_x: Matrix, d_weight: Matrix, d_bias: Vector }
    MultiHeadForward {
        output: Matrix,
        weights: Vec<Matrix>,
        q: Vec<Matrix>,
        k: Vec<Matrix>,
        v: Vec<Matrix>,
        concat: Matrix,
    }
    MultiHeadGrads {
        d_query_input: Matrix,
        d_key_value_input: Matrix,
        w_q: LinearGrads,
        w_k: LinearGrads,
        w_v: LinearGrads,
        w_o: LinearGrads,
    }
    Normalised { x_hat: Matrix, inv_std: Vector }
    LayerNormGrads { d_x: Matrix, d_gamma: Vector, d_beta: Vector }
    FeedForwardForward { hidden: Matrix, output: Matrix }
    FeedForwardGrads { d_x: Matrix, w_1: LinearGrads, w_2: LinearGrads }
    EncoderLayerForward {
        output: Matrix,
        self_attention_input: Matrix,
        self_attention: MultiHeadForward,
        norm_1_input: Matrix,
        ffn_input: Matrix,
        ffn: FeedForwardForward,
        norm_2_input: Matrix,
    }
    EncoderLayerGrads {
        d_x: Matrix,
        self_attention: MultiHeadGrads,
        ffn: FeedForwardGrads,
        norm_1: LayerNormGrads,
        norm_2: LayerNormGrads,
    }
    DecoderLayerGrads {
        d_x: Matrix,
        d_memory: Matrix,
        self_attention: MultiHeadGrads,
        cross_attention: MultiHeadGrads,
        ffn: FeedForwardGrads,
        norm_1: LayerNormGrads,
        norm_2: LayerNormGrads,
        norm_3: LayerNormGrads,
    }
}

/// The decoder's forward pass has ten fields, more than a tuple on the tape holds: its
/// three blocks go as three triples.
impl Parts for DecoderLayerForward {
    type Tape = (
        Matrix,
        (Matrix, <MultiHeadForward as Parts>::Tape, Matrix),
        (Matrix, <MultiHeadForward as Parts>::Tape, Matrix),
        (Matrix, <FeedForwardForward as Parts>::Tape, Matrix),
    );
    fn into_tape(self) -> Self::Tape {
        (
            self.output,
            (
                self.self_attention_input,
                self.self_attention.into_tape(),
                self.norm_1_input,
            ),
            (
                self.cross_attention_input,
                self.cross_attention.into_tape(),
                self.norm_2_input,
            ),
            (self.ffn_input, self.ffn.into_tape(), self.norm_3_input),
        )
    }
    fn from_tape(tape: Self::Tape) -> Self {
        let (output, self_block, cross_block, ffn_block) = tape;
        Self {
            output,
            self_attention_input: self_block.0,
            self_attention: Parts::from_tape(self_block.1),
            norm_1_input: self_block.2,
            cross_attention_input: cross_block.0,
            cross_attention: Parts::from_tape(cross_block.1),
            norm_2_input: cross_block.2,
            ffn_input: ffn_block.0,
            ffn: Parts::from_tape(ffn_block.1),
            norm_3_input: ffn_block.2,
        }
    }
}

/// `layer.forward(x, mask).output`, observed.
fn encoder_output(layer: &EncoderLayer, x: &Matrix, mask: Option<&Mask>) -> Matrix {
    let _args = course_harness::call_args!(x, mask);
    observe("EncoderLayer::forward", || layer.forward(x, mask).output)
}

/// `layer.forward(x, memory, self_mask, memory_mask).output`, observed.
fn decoder_output(
    layer: &DecoderLayer,
    x: &Matrix,
    memory: &Matrix,
    self_mask: Option<&Mask>,
    memory_mask: Option<&Mask>,
) -> Matrix {
    let _args = course_harness::call_args!(x, memory, self_mask, memory_mask);
    observe("DecoderLayer::forward", || {
        layer.forward(x, memory, self_mask, memory_mask).output
    })
}

/// `ffn.forward(x).output`, observed.
fn ffn_output(ffn: &FeedForward, x: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(x);
    observe("FeedForward::forward", || ffn.forward(x).output)
}

// The layers' parts as the builders of wrong answers take them, shared with the visible
// tests (maintainers' builds only).
#[cfg(feature = "builders")]
#[path = "parts.rs"]
mod parts;
#[cfg(feature = "builders")]
use parts::*;

// ---------------------------------------------------------------------------------------
// LayerNorm
// ---------------------------------------------------------------------------------------

/// normalise_rows([2, −1, 0.5, 4]): μ = 1.375, x − μ = [0.625, −2.375, −0.875, 2.625],
/// σ² = 13.6875 / 4 = 3.421875 (biased), so x̂ = (x − μ)/√(σ² + ε) and
/// inv_std = 1/√(σ² + ε), by hand. Not [1, 0, 0, 0]: there the unbiased variance (0.75/3)
/// equals the mean of x² (1/4), and σ + ε equals √(σ² + ε) to ε², so three different
/// mistakes would give one result.
#[test]
fn normalise_rows_standardises_with_the_biased_variance() {
    graded(|| {
        let x = array![[2.0, -1.0, 0.5, 4.0]];
        let got = observe_parts("normalise_rows", || normalise_rows(&x, LAYER_NORM_EPS));
        let inv_std = 1.0 / (3.421875 + LAYER_NORM_EPS).sqrt();
        let expected = array![[0.625, -2.375, -0.875, 2.625]] * inv_std;
        assert_matrix_close(
            "normalise_rows([[2, -1, 0.5, 4]]).x_hat",
            &got.x_hat,
            &expected,
            Tol::TIGHT,
            &named!(
                NAMED,
                layer_norm_mistakes(
                    &x,
                    &Norm {
                        gamma: &Vector::ones(4),
                        beta: &Vector::zeros(4),
                        eps: LAYER_NORM_EPS,
                    },
                )
            ),
        );
        assert!(
            got.inv_std.len() == 1 && Tol::TIGHT.accepts(got.inv_std[0], inv_std),
            "{}",
            tr!(
                MESSAGES,
                "inv-std-mismatch",
                expected = inv_std.to_string(),
                got = got.inv_std.to_string(),
            )
        );
    });
}

/// nn.LayerNorm(4) on [1, 0, 0, 0] gives [1.7320, −0.5773, −0.5773, −0.5773]; the
/// Annotated Transformer's LayerNorm gives [1.5, −0.5, −0.5, −0.5] (codertimo/BERT-pytorch
/// issue #30). Values from PyTorch.
#[test]
fn layer_norm_of_1_0_0_0_matches_pytorch_not_the_annotated_transformer() {
    graded(|| {
        let x = array![[1.0, 0.0, 0.0, 0.0]];
        let ln = LayerNorm::new(4);
        let got = observe("LayerNorm::forward", || ln.forward(&x));
        assert_matrix_close(
            &tr!(MESSAGES, "layer-norm-4-pytorch"),
            &got,
            &PYTORCH.matrix("layer_norm_1_0_0_0"),
            Tol::TIGHT,
            &named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&ln))),
        );
    });
}

/// burn's published LayerNorm fixture (10 features): PyTorch's values with ε = 1e-5, which
/// agree with burn's 4 printed decimals (−0.4990, −1.9680, 1.6178, ...), and with ε = 0.1
/// (−0.4863, −1.9180, 1.5766, ...): the layer must use its own `eps`.
#[test]
fn layer_norm_matches_burns_fixture_and_uses_its_own_eps() {
    graded(|| {
        let x = array![[
            -0.6897, -2.7106, 2.2222, -1.0330, -0.8933, 1.1765, 0.0601, 1.5252, -0.3630,
            0.6728
        ]];
        let ln = LayerNorm::new(10);
        let got = observe("LayerNorm::forward", || ln.forward(&x));
        let published = array![[
            -0.4990, -1.9680, 1.6178, -0.7486, -0.6470, 0.8576, 0.0461, 1.1111, -0.2614,
            0.4915
        ]];
        // burn prints 4 decimals and computes in f32: its last digit is off by up to 1e-4.
        let four_decimals = Tol {
            abs: 1e-4,
            rel: 0.0,
        };
        let mistakes = named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&ln)));
        assert_matrix_close(
            &tr!(MESSAGES, "burn-published"),
            &got,
            &published,
            four_decimals,
            &mistakes,
        );
        assert_matrix_close(
            &tr!(MESSAGES, "burn-pytorch"),
            &got,
            &PYTORCH.matrix("burn_fixture"),
            Tol::TIGHT,
            &mistakes,
        );
        let wide = LayerNorm { eps: 0.1, ..ln };
        let mut mistakes = named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&wide)));
        mistakes.insert(
            0,
            Misconception {
                cause: Cause::new(&MESSAGES, "eps-fixed"),
                result: PYTORCH.matrix("burn_fixture"),
            },
        );
        assert_matrix_close(
            &tr!(MESSAGES, "burn-eps"),
            &observe("LayerNorm::forward", || wide.forward(&x)),
            &PYTORCH.matrix("burn_fixture_eps_0_1"),
            Tol::TIGHT,
            &mistakes,
        );
    });
}

/// candle's doc-test: rows [1, 2, 3], [4, 5, 6], [9, 8, 7] all have variance 2/3, so they
/// become ±1/√(2/3 + ε) = ±1.2247 and 0, each row on its own.
#[test]
fn layer_norm_normalises_each_row_over_its_features() {
    graded(|| {
        let x = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [9.0, 8.0, 7.0]];
        let ln = LayerNorm::new(3);
        let a = 1.0 / (2.0 / 3.0 + LAYER_NORM_EPS).sqrt();
        let expected = array![[-a, 0.0, a], [-a, 0.0, a], [a, 0.0, -a]];
        assert_matrix_close(
            &tr!(MESSAGES, "candle-rows"),
            &observe("LayerNorm::forward", || ln.forward(&x)),
            &expected,
            Tol::TIGHT,
            &named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&ln))),
        );
    });
}

/// γ scales and β shifts each feature after normalising: y = γ ⊙ x̂ + β, matched against
/// nn.LayerNorm(5) with weight = linspace(0.5, 1.5, 5) and bias = linspace(−0.3, 0.3, 5).
#[test]
fn layer_norm_applies_gamma_and_beta_per_feature() {
    graded(|| {
        let x = scrambled(3, 5, 1, 2.0);
        let (gamma, beta) = (vector(0.5, 1.5, 5), vector(-0.3, 0.3, 5));
        let ln = LayerNorm::from_parameters(gamma, beta);
        // γ and β left out, swapped or applied first are among the mistakes.
        let mistakes = named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&ln)));
        assert_matrix_close(
            &tr!(MESSAGES, "gamma-beta-pytorch"),
            &observe("LayerNorm::forward", || ln.forward(&x)),
            &PYTORCH.matrix("layer_norm_gamma_beta"),
            Tol::TIGHT,
            &mistakes,
        );
    });
}

/// With γ = 1 and β = 0 every output row has mean 0 and (biased) standard deviation exactly
/// √(σ²/(σ² + ε)) < 1, where σ² is the input row's variance (CS231n's observation): 0.7071
/// for σ² = ε, 0.99504 for σ² = 1e-3, 0.999995 for σ² = 1.
#[test]
fn layer_norm_output_std_is_sqrt_of_var_over_var_plus_eps() {
    graded(|| {
        // Row i is c + a·[1, −1, 2, −2, 0], whose mean is c and whose variance is 2a².
        let pattern = [1.0, -1.0, 2.0, -2.0, 0.0];
        let rows: [(Float, Float); 4] =
            [(0.0, 0.5e-5), (3.0, 0.5e-3), (-2.0, 0.5), (10.0, 50.0)];
        let x = Matrix::from_shape_fn((4, 5), |(i, j)| {
            let (c, half_variance) = rows[i];
            c + half_variance.sqrt() * pattern[j]
        });
        let got = observe("LayerNorm::forward", || LayerNorm::new(5).forward(&x));
        assert_same_shape(
            &tr!(MESSAGES, "layer-norm-of-input", shape = "(4, 5)"),
            &got,
            (4, 5),
        );
        for (i, &(_, half_variance)) in rows.iter().enumerate() {
            // The input row's variance by construction, and the output row's mean and,
            // since that mean is 0, its variance: the mean of its squares.
            let var_in = 2.0 * half_variance;
            let mean_out = got.row(i).sum() / 5.0;
            let var_out = got.row(i).mapv(|v| v * v).sum() / 5.0;
            let expected = (var_in / (var_in + LAYER_NORM_EPS)).sqrt();
            let std_out = var_out.sqrt();
            assert!(
                mean_out.abs() <= 1e-12,
                "{}",
                tr!(
                    MESSAGES,
                    "mean-not-zero",
                    row = i,
                    mean = format!("{mean_out:e}"),
                )
            );
            let cause = if (std_out - 1.0).abs() < 1e-9 {
                tr!(MESSAGES, "eps-left-out")
            } else if (std_out - (var_in.sqrt() / (var_in.sqrt() + LAYER_NORM_EPS))).abs()
                < 1e-9
            {
                tr!(MESSAGES, "eps-on-std")
            } else {
                tr!(MESSAGES, "divide-by-std")
            };
            let (shown_expected, shown_got) =
                course_harness::check::shown_apart_as(expected, std_out, |x, extra| {
                    format!("{x:.*}", 9 + extra)
                });
            assert!(
                (std_out - expected).abs() <= 1e-9 * expected,
                "{}",
                tr!(
                    MESSAGES,
                    "std-mismatch",
                    row = i,
                    variance = format!("{var_in:e}"),
                    expected = shown_expected,
                    got = shown_got,
                    cause = cause,
                )
            );
        }
    });
}

/// A constant row has variance 0: x̂ = 0/√ε = 0, so the output is β exactly, never NaN.
#[test]
fn layer_norm_of_a_constant_row_is_beta_not_nan() {
    graded(|| {
        let x = array![[2.0, 2.0, 2.0, 2.0, 2.0], [-1.5, -1.5, -1.5, -1.5, -1.5]];
        let beta = vector(-0.3, 0.3, 5);
        let ln = LayerNorm::from_parameters(vector(0.5, 1.5, 5), beta.clone());
        let got = observe("LayerNorm::forward", || ln.forward(&x));
        assert_all_finite(
            &tr!(MESSAGES, "constant-row"),
            &got,
            &tr!(MESSAGES, "constant-row-hint"),
        );
        let expected = Matrix::from_shape_fn((2, 5), |(_, j)| beta[j]);
        assert_matrix_close(
            &tr!(MESSAGES, "constant-row-is-beta"),
            &got,
            &expected,
            Tol::TIGHT,
            &[],
        );
    });
}

/// LayerNorm treats every row on its own and takes any number of rows: a (7, 5) input
/// gives, row by row, what each row gives alone (lesson 06 stacks a whole batch of
/// sequences into one matrix).
#[test]
fn layer_norm_treats_every_row_on_its_own_for_any_number_of_rows() {
    graded(|| {
        let x = scrambled(7, 5, 23, 1.5);
        let ln = LayerNorm::from_parameters(vector(0.5, 1.5, 5), vector(-0.3, 0.3, 5));
        let all = observe("LayerNorm::forward", || ln.forward(&x));
        assert_same_shape(
            &tr!(MESSAGES, "layer-norm-of-input", shape = "(7, 5)"),
            &all,
            (7, 5),
        );
        let one_by_one = Matrix::from_shape_fn((7, 5), |(i, j)| {
            let one = x.slice(s![i..i + 1, ..]).to_owned();
            observe("LayerNorm::forward", || ln.forward(&one))[[0, j]]
        });
        assert_matrix_close(
            &tr!(MESSAGES, "layer-norm-rows-at-once"),
            &all,
            &one_by_one,
            Tol::TIGHT,
            &named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&ln))),
        );
    });
}

/// With a uniform γ, Σ_features LayerNorm(x) = Σ β whatever x is, so the gradient of
/// sum(LayerNorm(x)) with respect to x is exactly 0 (up to rounding, 1e-12). burn's test:
/// x = [[0, 1], [3, 4]]·[[6, 7], [9, 10]] = [[9, 10], [54, 61]] gives dx = 0,
/// dγ = [−2, 2] (−1.99998 with ε = 1e-5, PyTorch) and dβ = [2, 2].
#[test]
fn the_gradient_of_a_sum_of_layer_norm_outputs_is_zero() {
    graded(|| {
        let hint = tr!(MESSAGES, "sum-gradient-hint");
        let x = array![[9.0, 10.0], [54.0, 61.0]];
        let ln = LayerNorm::new(2);
        let grads = observe_parts("LayerNorm::backward", || {
            ln.backward(&x, &Matrix::ones((2, 2)))
        });
        let wrong = named!(NAMED, Groups::from(layer_norm_backward_mistakes(&x, &norm_parts(&ln), &Matrix::ones((2, 2)))) => Groups);
        let largest = grads.d_x.iter().fold(0.0 as Float, |m, v| m.max(v.abs()));
        assert!(
            largest <= 1e-12,
            "{}",
            tr!(
                MESSAGES,
                "sum-gradient-burn",
                got = format!("{:?}", grads.d_x),
                hint = &hint,
            )
        );
        let published = Tol {
            abs: 1e-4,
            rel: 0.0,
        };
        assert_matrix_close(
            &tr!(MESSAGES, "d-gamma-burn"),
            &row(&grads.d_gamma),
            &array![[-2.0, 2.0]],
            published,
            &wrong["d_gamma"],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "d-gamma-pytorch"),
            &row(&grads.d_gamma),
            &row(&PYTORCH.vector("burn_backward_d_gamma")),
            Tol::TIGHT,
            &wrong["d_gamma"],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "d-beta-burn"),
            &row(&grads.d_beta),
            &array![[2.0, 2.0]],
            Tol::TIGHT,
            &[],
        );
        // The same on a (3, 5) input, γ = 1.7 everywhere and β not zero.
        let x = scrambled(3, 5, 31, 2.0);
        let ln =
            LayerNorm::from_parameters(Vector::from_elem(5, 1.7), vector(-0.3, 0.3, 5));
        let d_x = observe("LayerNorm::backward", || {
            ln.backward(&x, &Matrix::ones((3, 5))).d_x
        });
        let largest = d_x.iter().fold(0.0 as Float, |m, v| m.max(v.abs()));
        assert!(
            largest <= 1e-12,
            "{}",
            tr!(
                MESSAGES,
                "sum-gradient-uniform-gamma",
                largest = format!("{largest:e}"),
                hint = &hint,
            )
        );
    });
}

/// LayerNorm's backward pass agrees with central differences for x, γ and β.
#[test]
fn layer_norm_backward_matches_numerical_gradients() {
    graded(|| {
        let x = scrambled(3, 5, 41, 1.5) + &array![[0.5], [-2.0], [3.0]];
        let ln = LayerNorm::from_parameters(vector(0.5, 1.5, 5), vector(-0.3, 0.3, 5));
        let upstream = linspace_matrix(3, 5, 0.9, -0.6);
        let grads = observe_parts("LayerNorm::backward", || ln.backward(&x, &upstream));
        let loss = |ln: &LayerNorm, x: &Matrix| {
            weighted_sum(&observe("LayerNorm::forward", || ln.forward(x)), &upstream)
        };
        let d_x = numerical_gradient(|x| loss(&ln, x), &x, STEP);
        // Name the mistake when d_x matches a known wrong formula.
        let wrong = named!(NAMED, Groups::from(layer_norm_backward_mistakes(&x, &norm_parts(&ln), &upstream)) => Groups)["d_x"].to_vec();
        let hint = wrong
            .iter()
            .find(|m| relative_error(&grads.d_x, &m.result) <= 1e-6)
            .map(|m| m.cause.named().to_string())
            .unwrap_or_else(|| tr!(MESSAGES, "layer-norm-d-x-hint"));
        assert_gradient_close("LayerNorm d_x", &grads.d_x, &d_x, &hint);
        let d_gamma = numerical_gradient(
            |g| {
                let probe =
                    LayerNorm::from_parameters(g.row(0).to_owned(), ln.beta.clone());
                loss(&probe, &x)
            },
            &row(&ln.gamma),
            STEP,
        );
        assert_gradient_close(
            "LayerNorm d_gamma",
            &row(&grads.d_gamma),
            &d_gamma,
            &tr!(MESSAGES, "layer-norm-d-gamma-hint"),
        );
        let d_beta = numerical_gradient(
            |b| {
                let probe =
                    LayerNorm::from_parameters(ln.gamma.clone(), b.row(0).to_owned());
                loss(&probe, &x)
            },
            &row(&ln.beta),
            STEP,
        );
        assert_gradient_close(
            "LayerNorm d_beta",
            &row(&grads.d_beta),
            &d_beta,
            &tr!(MESSAGES, "layer-norm-d-beta-hint"),
        );
    });
}

// ---------------------------------------------------------------------------------------
// The position-wise feed-forward network
// ---------------------------------------------------------------------------------------

/// FFN(x) = linear2(relu(linear1(x))) matches PyTorch with the reference script's linear1
/// (10, 6) and linear2 (6, 10); the hidden layer is relu(x W_1ᵀ + b_1).
#[test]
fn feed_forward_matches_pytorch() {
    graded(|| {
        let ffn = fixture_ffn();
        assert!(
            (ffn.d_model(), ffn.d_ff()) == (6, 10),
            "{}",
            tr!(
                MESSAGES,
                "ffn-sizes",
                d_model = ffn.d_model().to_string(),
                d_ff = ffn.d_ff().to_string(),
            )
        );
        let x = scrambled(3, 6, 11, 1.0);
        let forward = observe_parts("FeedForward::forward", || ffn.forward(&x));
        let hidden = named!(NAMED, ffn_hidden(&ffn_parts(&ffn), &x) => Matrix);
        // The ReLU left out or replaced by GELU, in the hidden layer and the output.
        let mistakes =
            named!(NAMED, Groups::from(ffn_mistakes(&ffn_parts(&ffn), &x)) => Groups);
        assert_matrix_close(
            "FeedForward: hidden (max(0, x W_1ᵀ + b_1))",
            &forward.hidden,
            &hidden,
            Tol::TIGHT,
            &mistakes["hidden"],
        );
        let expected = PYTORCH.matrix("ffn");
        assert_matrix_close(
            &tr!(MESSAGES, "ffn-output-pytorch"),
            &forward.output,
            &expected,
            Tol::TIGHT,
            &mistakes["output"],
        );
    });
}

/// The FFN acts on each position on its own: changing row 2 of the input leaves every other
/// output row exactly as it was, and each row alone gives its row of the whole.
#[test]
fn feed_forward_acts_on_each_position_independently() {
    graded(|| {
        let ffn = fixture_ffn();
        let x = scrambled(5, 6, 17, 1.0);
        let before = ffn_output(&ffn, &x);
        assert_same_shape(&tr!(MESSAGES, "ffn-of-input"), &before, (5, 6));
        let mut changed = x.clone();
        changed
            .row_mut(2)
            .assign(&array![3.0, -2.0, 1.0, 0.5, -1.0, 2.0]);
        let after = ffn_output(&ffn, &changed);
        for i in [0, 1, 3, 4] {
            assert_matrix_close(
                &tr!(MESSAGES, "ffn-row-unchanged", row = i),
                &after.slice(s![i..i + 1, ..]).to_owned(),
                &before.slice(s![i..i + 1, ..]).to_owned(),
                EXACT,
                &[],
            );
        }
        let one_by_one = Matrix::from_shape_fn((5, 6), |(i, j)| {
            ffn_output(&ffn, &x.slice(s![i..i + 1, ..]).to_owned())[[0, j]]
        });
        assert_matrix_close(
            &tr!(MESSAGES, "ffn-rows-at-once"),
            &before,
            &one_by_one,
            Tol::TIGHT,
            &[],
        );
    });
}

/// The FFN's backward pass agrees with central differences for x and both layers' weights
/// and biases (no hidden unit sits within 0.009 of the ReLU's kink, so the differences are
/// accurate).
#[test]
fn feed_forward_backward_matches_numerical_gradients() {
    graded(|| {
        let ffn = fixture_ffn();
        let x = scrambled(3, 6, 11, 1.0);
        let upstream = linspace_matrix(3, 6, 0.8, -0.9);
        let forward = observe_parts("FeedForward::forward", || ffn.forward(&x));
        let grads = observe_parts("FeedForward::backward", || {
            ffn.backward(&x, &forward, &upstream)
        });
        let loss =
            |ffn: &FeedForward, x: &Matrix| weighted_sum(&ffn_output(ffn, x), &upstream);
        let d_x = numerical_gradient(|x| loss(&ffn, x), &x, STEP);
        let wrong = named!(
            NAMED,
            ffn_backward_mistakes(&ffn_parts(&ffn), &x, &upstream)
        );
        let hint = if let Some(m) = wrong
            .iter()
            .find(|m| relative_error(&grads.d_x, &m.result) <= 1e-6)
        {
            m.cause.named().to_string()
        } else {
            tr!(MESSAGES, "ffn-d-x-hint")
        };
        assert_gradient_close("FeedForward d_x", &grads.d_x, &d_x, &hint);
        type Pick = fn(&mut FeedForward) -> &mut Linear;
        let layers: [(&str, Pick, &LinearGrads, String); 2] = [
            (
                "w_1",
                |f| &mut f.w_1,
                &grads.w_1,
                tr!(MESSAGES, "ffn-w-1-hint"),
            ),
            (
                "w_2",
                |f| &mut f.w_2,
                &grads.w_2,
                tr!(MESSAGES, "ffn-w-2-hint"),
            ),
        ];
        for (name, pick, analytic, hint) in layers {
            let mut probe = ffn.clone();
            let start = pick(&mut probe).weight.clone();
            let d_w = numerical_gradient(
                |w| {
                    pick(&mut probe).weight = w.clone();
                    loss(&probe, &x)
                },
                &start,
                STEP,
            );
            assert_gradient_close(
                &format!("FeedForward d_{name}.weight"),
                &analytic.d_weight,
                &d_w,
                &hint,
            );
            let mut probe = ffn.clone();
            let start = row(&pick(&mut probe).bias);
            let d_b = numerical_gradient(
                |b| {
                    pick(&mut probe).bias = b.row(0).to_owned();
                    loss(&probe, &x)
                },
                &start,
                STEP,
            );
            assert_gradient_close(
                &format!("FeedForward d_{name}.bias"),
                &row(&analytic.d_bias),
                &d_b,
                &hint,
            );
        }
    });
}

// ---------------------------------------------------------------------------------------
// The encoder layer
// ---------------------------------------------------------------------------------------

/// Post-LN (the course's default) matches PyTorch's nn.TransformerEncoderLayer(6, 2, 10,
/// dropout=0.0, batch_first=True, norm_first=False) in float64.
#[test]
fn encoder_layer_post_ln_matches_pytorch() {
    graded(|| {
        let layer = fixture_encoder(NormPosition::Post);
        let x = encoder_x();
        let output = encoder_output(&layer, &x, None);
        let mut misconceptions = vec![
            Misconception {
                cause: POST_NOT_PRE,
                result: PYTORCH.matrix("encoder_pre"),
            },
            Misconception {
                cause: NO_RESIDUAL,
                result: PYTORCH.matrix("mistake_encoder_post_no_residual"),
            },
            Misconception {
                cause: NO_RELU,
                result: PYTORCH.matrix("mistake_encoder_post_no_relu"),
            },
        ];
        // A residual missing or taken from the normalised input, and the rest computed.
        misconceptions.extend(named!(
            NAMED,
            mistakes::encoder_mistakes(&encoder_parts(&layer), &x, None,)
        ));
        assert_matrix_close(
            &tr!(MESSAGES, "encoder-post-pytorch"),
            &output,
            &PYTORCH.matrix("encoder_post"),
            Tol::TIGHT,
            &misconceptions,
        );
    });
}

/// Pre-LN matches PyTorch's nn.TransformerEncoderLayer(..., norm_first=True).
#[test]
fn encoder_layer_pre_ln_matches_pytorch() {
    graded(|| {
        let layer = fixture_encoder(NormPosition::Pre);
        let x = encoder_x();
        let output = encoder_output(&layer, &x, None);
        let mut misconceptions = vec![
            Misconception {
                cause: PRE_NOT_POST,
                result: PYTORCH.matrix("encoder_post"),
            },
            Misconception {
                cause: RESIDUAL_FROM_NORM,
                result: PYTORCH.matrix("mistake_encoder_pre_residual_from_norm"),
            },
            Misconception {
                cause: NO_RESIDUAL,
                result: PYTORCH.matrix("mistake_encoder_pre_no_residual"),
            },
            Misconception {
                cause: NO_RELU,
                result: PYTORCH.matrix("mistake_encoder_pre_no_relu"),
            },
        ];
        misconceptions.extend(named!(
            NAMED,
            mistakes::encoder_mistakes(&encoder_parts(&layer), &x, None,)
        ));
        assert_matrix_close(
            &tr!(MESSAGES, "encoder-pre-pytorch"),
            &output,
            &PYTORCH.matrix("encoder_pre"),
            Tol::TIGHT,
            &misconceptions,
        );
    });
}

/// A padded sequence (the last two of 5 tokens) matches PyTorch with
/// src_key_padding_mask = [F, F, F, T, T]; the course's mask is
/// padding_mask(5, [true, true, true, false, false]).
#[test]
fn encoder_layer_with_a_padding_mask_matches_pytorch() {
    graded(|| {
        let layer = fixture_encoder(NormPosition::Post);
        let x = scrambled(5, 6, 13, 1.0);
        let mask = padding_mask(5, &[true, true, true, false, false]);
        assert_matrix_close(
            &tr!(MESSAGES, "encoder-padded-pytorch"),
            &encoder_output(&layer, &x, Some(&mask)),
            &PYTORCH.matrix("encoder_padded"),
            Tol::TIGHT,
            &[Misconception {
                cause: Cause::new(&MESSAGES, "mask-not-passed"),
                result: PYTORCH.matrix("mistake_encoder_padded_no_mask"),
            }],
        );
    });
}

/// The real tokens' outputs do not depend on the padding: changing the padded tokens (any
/// values) leaves rows 0..3 exactly as they were, post-LN and pre-LN.
#[test]
fn padded_tokens_do_not_change_the_real_tokens_outputs() {
    graded(|| {
        let x = scrambled(5, 6, 13, 1.0);
        let mask = padding_mask(5, &[true, true, true, false, false]);
        let mut changed = x.clone();
        changed.row_mut(3).fill(7.0);
        changed
            .row_mut(4)
            .assign(&array![-5.0, 3.0, 0.5, 9.0, -2.0, 1.0]);
        for position in [NormPosition::Post, NormPosition::Pre] {
            let layer = fixture_encoder(position);
            let before = encoder_output(&layer, &x, Some(&mask));
            let after = encoder_output(&layer, &changed, Some(&mask));
            assert_matrix_close(
                &tr!(
                    MESSAGES,
                    "padding-moved-real-tokens",
                    position = format!("{position:?}")
                ),
                &after.slice(s![0..3, ..]).to_owned(),
                &before.slice(s![0..3, ..]).to_owned(),
                EXACT,
                &[],
            );
        }
    });
}

/// Post-LN and pre-LN are different layers: with every weight and bias of the attention
/// and the FFN at zero (each sublayer outputs 0) and γ = 1, β = 0, the pre-LN layer is the
/// identity (x + 0 + 0) and passes the gradient straight through (d_x = d_output), while the
/// post-LN layer normalises: its output is LayerNorm(LayerNorm(x)).
#[test]
fn post_ln_and_pre_ln_differ_and_only_pre_ln_keeps_the_identity_path() {
    graded(|| {
        let zero = || Linear::new(Matrix::zeros((6, 6)), Vector::zeros(6));
        let silent_attention = MultiHeadAttention::new(2, zero(), zero(), zero(), zero());
        let silent_ffn = FeedForward::new(
            Linear::new(Matrix::zeros((10, 6)), Vector::zeros(10)),
            Linear::new(Matrix::zeros((6, 10)), Vector::zeros(6)),
        );
        let layer = |position| {
            EncoderLayer::new(
                silent_attention.clone(),
                silent_ffn.clone(),
                LayerNorm::new(6),
                LayerNorm::new(6),
                position,
            )
        };
        let x = encoder_x();
        let normalised_twice = named!(NAMED, normalise(&normalise(&x, LAYER_NORM_EPS), LAYER_NORM_EPS) => Matrix);
        let pre = layer(NormPosition::Pre);
        let forward = observe_parts("EncoderLayer::forward", || pre.forward(&x, None));
        assert_matrix_close(
            &tr!(MESSAGES, "pre-ln-identity"),
            &forward.output,
            &x,
            Tol::TIGHT,
            &[Misconception {
                cause: Cause::new(&MESSAGES, "pre-ln-normalised-twice"),
                result: normalised_twice.clone(),
            }],
        );
        let upstream = linspace_matrix(4, 6, 0.5, -0.7);
        let d_x = observe("EncoderLayer::backward", || {
            pre.backward(&x, &forward, &upstream).d_x
        });
        assert_matrix_close(
            &tr!(MESSAGES, "pre-ln-identity-d-x"),
            &d_x,
            &upstream,
            Tol::TIGHT,
            &[Misconception {
                cause: Cause::new(&MESSAGES, "skip-gradient-dropped"),
                result: Matrix::zeros((4, 6)),
            }],
        );
        let post = layer(NormPosition::Post);
        assert_matrix_close(
            &tr!(MESSAGES, "post-ln-normalises"),
            &encoder_output(&post, &x, None),
            &normalised_twice,
            Tol::TIGHT,
            &[Misconception {
                cause: POST_NOT_PRE,
                result: x.clone(),
            }],
        );
    });
}

/// The parameters of the paper's base encoder layer (d_model = 512, 8 heads, d_ff = 2048):
/// 1,050,624 (attention) + 2,099,712 (FFN) + 2 × 1,024 (two LayerNorms) = 3,152,384; and
/// 168 + 136 + 24 = 328 for the fixture (d_model = 6, d_ff = 10).
#[test]
fn encoder_layer_parameter_count_matches_the_paper_base_model() {
    graded(|| {
        let zero =
            |rows, cols| Linear::new(Matrix::zeros((rows, cols)), Vector::zeros(rows));
        let base = EncoderLayer::new(
            MultiHeadAttention::new(
                8,
                zero(512, 512),
                zero(512, 512),
                zero(512, 512),
                zero(512, 512),
            ),
            FeedForward::new(zero(2048, 512), zero(512, 2048)),
            LayerNorm::new(512),
            LayerNorm::new(512),
            NormPosition::Post,
        );
        assert!(
            base.d_model() == 512,
            "{}",
            tr!(
                MESSAGES,
                "encoder-d-model",
                got = base.d_model().to_string()
            )
        );
        let got = observe("EncoderLayer::parameter_count", || base.parameter_count());
        assert!(
            got == 3_152_384,
            "{}",
            tr!(MESSAGES, "encoder-base-count", got = got.to_string())
        );
        let fixture = fixture_encoder(NormPosition::Pre);
        let got = observe("EncoderLayer::parameter_count", || {
            fixture.parameter_count()
        });
        assert!(
            got == 328,
            "{}",
            tr!(MESSAGES, "encoder-fixture-count", got = got.to_string())
        );
    });
}

/// The encoder layer's gradients match PyTorch's autograd for the loss sum(output ⊙ G),
/// G = lin(4, 6, 0.5, −0.7): d_x, norm_1's dγ and the first FFN layer's bias gradient,
/// post-LN and pre-LN.
#[test]
fn encoder_layer_backward_matches_pytorch_autograd() {
    graded(|| {
        let x = encoder_x();
        let upstream = linspace_matrix(4, 6, 0.5, -0.7);
        let cases = [
            (
                NormPosition::Post,
                PYTORCH.matrix("encoder_post_d_x"),
                row(&PYTORCH.vector("encoder_post_d_gamma_1")),
                row(&PYTORCH.vector("encoder_post_d_b_1")),
            ),
            (
                NormPosition::Pre,
                PYTORCH.matrix("encoder_pre_d_x"),
                row(&PYTORCH.vector("encoder_pre_d_gamma_1")),
                row(&PYTORCH.vector("encoder_pre_d_b_1")),
            ),
        ];
        // Every part checked, and every wrong one listed: which gradients are right says
        // where the mistake is.
        let mut checks = Checks::new();
        for (position, d_x, d_gamma_1, d_b_1) in cases {
            let layer = fixture_encoder(position);
            let forward =
                observe_parts("EncoderLayer::forward", || layer.forward(&x, None));
            let grads = observe_parts("EncoderLayer::backward", || {
                layer.backward(&x, &forward, &upstream)
            });
            let no_key_value = named!(
                NAMED,
                encoder_d_x_mistakes(&encoder_parts(&layer), &x, None, &upstream)
            );
            for (name, got, want, misconceptions) in [
                ("d_x", grads.d_x.clone(), d_x, &no_key_value[..]),
                ("norm_1 d_gamma", row(&grads.norm_1.d_gamma), d_gamma_1, &[]),
                ("ffn.w_1 d_bias", row(&grads.ffn.w_1.d_bias), d_b_1, &[]),
            ] {
                checks.check_as(&format!("{position:?} {name}"), || {
                    assert_matrix_close(
                        &tr!(
                            MESSAGES,
                            "encoder-against-autograd",
                            position = format!("{position:?}"),
                            name = name,
                        ),
                        &got,
                        &want,
                        Tol::TIGHT,
                        misconceptions,
                    )
                });
            }
        }
        checks.finish();
    });
}

// ---------------------------------------------------------------------------------------
// Gradient checks of whole layers, every parameter
// ---------------------------------------------------------------------------------------

/// Where a parameter lives in a layer of type `L`.
enum Access<L> {
    Matrix(fn(&mut L) -> &mut Matrix),
    Vector(fn(&mut L) -> &mut Vector),
}

/// One parameter of a layer: its name, where it lives, its analytic gradient (a row for a
/// vector) and what to say if that gradient is wrong.
struct Param<L> {
    name: &'static str,
    access: Access<L>,
    analytic: Matrix,
    hint: String,
}

impl<L> Param<L> {
    fn matrix(
        name: &'static str,
        access: fn(&mut L) -> &mut Matrix,
        analytic: &Matrix,
        hint: &str,
    ) -> Self {
        Self {
            name,
            access: Access::Matrix(access),
            analytic: analytic.clone(),
            hint: hint.to_owned(),
        }
    }

    fn vector(
        name: &'static str,
        access: fn(&mut L) -> &mut Vector,
        analytic: &Vector,
        hint: &str,
    ) -> Self {
        Self {
            name,
            access: Access::Vector(access),
            analytic: row(analytic),
            hint: hint.to_owned(),
        }
    }
}

/// Checks each parameter's analytic gradient against central differences of `loss`.
fn check_parameters<L: Clone>(
    what: &str,
    layer: &L,
    loss: impl Fn(&L) -> Float,
    params: Vec<Param<L>>,
) {
    for param in params {
        let mut probe = layer.clone();
        let numerical = match param.access {
            Access::Matrix(get) => {
                let start = get(&mut probe).clone();
                numerical_gradient(
                    |w| {
                        *get(&mut probe) = w.clone();
                        loss(&probe)
                    },
                    &start,
                    STEP,
                )
            }
            Access::Vector(get) => {
                let start = row(get(&mut probe));
                numerical_gradient(
                    |b| {
                        *get(&mut probe) = b.row(0).to_owned();
                        loss(&probe)
                    },
                    &start,
                    STEP,
                )
            }
        };
        assert_gradient_close(
            &tr!(
                MESSAGES,
                "gradient-of",
                what = what,
                gradient = format!("d {}", param.name),
            ),
            &param.analytic,
            &numerical,
            &param.hint,
        );
    }
}

/// The projections of a multi-head attention field `$field` of a layer `$layer`, with
/// their gradients `$grads` (a MultiHeadGrads). The key bias is left out: its gradient is
/// exactly 0 whatever the upstream gradient (lesson 03), so central differences of it are
/// pure rounding noise.
macro_rules! attention_params {
    ($layer:ty, $field:ident, $grads:expr, $hint:expr) => {
        vec![
            Param::<$layer>::matrix(
                concat!(stringify!($field), ".w_q.weight"),
                |l| &mut l.$field.w_q.weight,
                &$grads.w_q.d_weight,
                $hint,
            ),
            Param::<$layer>::vector(
                concat!(stringify!($field), ".w_q.bias"),
                |l| &mut l.$field.w_q.bias,
                &$grads.w_q.d_bias,
                $hint,
            ),
            Param::<$layer>::matrix(
                concat!(stringify!($field), ".w_k.weight"),
                |l| &mut l.$field.w_k.weight,
                &$grads.w_k.d_weight,
                $hint,
            ),
            Param::<$layer>::matrix(
                concat!(stringify!($field), ".w_v.weight"),
                |l| &mut l.$field.w_v.weight,
                &$grads.w_v.d_weight,
                $hint,
            ),
            Param::<$layer>::vector(
                concat!(stringify!($field), ".w_v.bias"),
                |l| &mut l.$field.w_v.bias,
                &$grads.w_v.d_bias,
                $hint,
            ),
            Param::<$layer>::matrix(
                concat!(stringify!($field), ".w_o.weight"),
                |l| &mut l.$field.w_o.weight,
                &$grads.w_o.d_weight,
                $hint,
            ),
            Param::<$layer>::vector(
                concat!(stringify!($field), ".w_o.bias"),
                |l| &mut l.$field.w_o.bias,
                &$grads.w_o.d_bias,
                $hint,
            ),
        ]
    };
}

/// The FFN's and a LayerNorm's parameters, likewise.
macro_rules! ffn_params {
    ($layer:ty, $grads:expr, $hint:expr) => {
        vec![
            Param::<$layer>::matrix(
                "ffn.w_1.weight",
                |l| &mut l.ffn.w_1.weight,
                &$grads.w_1.d_weight,
                $hint,
            ),
            Param::<$layer>::vector(
                "ffn.w_1.bias",
                |l| &mut l.ffn.w_1.bias,
                &$grads.w_1.d_bias,
                $hint,
            ),
            Param::<$layer>::matrix(
                "ffn.w_2.weight",
                |l| &mut l.ffn.w_2.weight,
                &$grads.w_2.d_weight,
                $hint,
            ),
            Param::<$layer>::vector(
                "ffn.w_2.bias",
                |l| &mut l.ffn.w_2.bias,
                &$grads.w_2.d_bias,
                $hint,
            ),
        ]
    };
}

macro_rules! norm_params {
    ($layer:ty, $field:ident, $grads:expr, $hint:expr) => {
        vec![
            Param::<$layer>::vector(
                concat!(stringify!($field), ".gamma"),
                |l| &mut l.$field.gamma,
                &$grads.d_gamma,
                $hint,
            ),
            Param::<$layer>::vector(
                concat!(stringify!($field), ".beta"),
                |l| &mut l.$field.beta,
                &$grads.d_beta,
                $hint,
            ),
        ]
    };
}

fn encoder_params(
    grads: &EncoderLayerGrads,
    position: NormPosition,
) -> Vec<Param<EncoderLayer>> {
    let (attention, ffn, norm_1, norm_2) = match position {
        NormPosition::Post => (
            tr!(MESSAGES, "encoder-post-attention-hint"),
            tr!(MESSAGES, "encoder-post-ffn-hint"),
            tr!(MESSAGES, "encoder-post-norm-1-hint"),
            tr!(MESSAGES, "encoder-post-norm-2-hint"),
        ),
        NormPosition::Pre => (
            tr!(MESSAGES, "encoder-pre-attention-hint"),
            tr!(MESSAGES, "encoder-pre-ffn-hint"),
            tr!(MESSAGES, "encoder-pre-norm-1-hint"),
            tr!(MESSAGES, "encoder-pre-norm-2-hint"),
        ),
    };
    let mut params = attention_params!(
        EncoderLayer,
        self_attention,
        grads.self_attention,
        &attention
    );
    params.extend(ffn_params!(EncoderLayer, grads.ffn, &ffn));
    params.extend(norm_params!(EncoderLayer, norm_1, grads.norm_1, &norm_1));
    params.extend(norm_params!(EncoderLayer, norm_2, grads.norm_2, &norm_2));
    params
}

fn check_encoder_gradients(position: NormPosition) {
    let layer = fixture_encoder(position);
    let x = encoder_x();
    let mask = padding_mask(4, &[true, true, true, false]);
    let upstream = linspace_matrix(4, 6, 0.5, -0.7);
    let forward =
        observe_parts("EncoderLayer::forward", || layer.forward(&x, Some(&mask)));
    let grads = observe_parts("EncoderLayer::backward", || {
        layer.backward(&x, &forward, &upstream)
    });
    let loss = |layer: &EncoderLayer, x: &Matrix| {
        weighted_sum(&encoder_output(layer, x, Some(&mask)), &upstream)
    };
    let what = tr!(
        MESSAGES,
        "encoder-layer",
        position = format!("{position:?}")
    );
    let d_x = numerical_gradient(|x| loss(&layer, x), &x, STEP);
    assert_gradient_close(
        &tr!(MESSAGES, "gradient-of", what = &what, gradient = "d_x"),
        &grads.d_x,
        &d_x,
        &tr!(MESSAGES, "encoder-d-x-hint"),
    );
    check_parameters(
        &what,
        &layer,
        |l| loss(l, &x),
        encoder_params(&grads, position),
    );
}

/// The post-LN encoder layer's backward pass agrees with central differences for x and
/// for every weight, bias, γ and β (the key bias, whose gradient is always 0, aside), with
/// a padding mask in place.
#[test]
fn encoder_layer_post_ln_backward_matches_numerical_gradients() {
    graded(|| check_encoder_gradients(NormPosition::Post));
}

/// The pre-LN encoder layer's backward pass agrees with central differences, likewise.
#[test]
fn encoder_layer_pre_ln_backward_matches_numerical_gradients() {
    graded(|| check_encoder_gradients(NormPosition::Pre));
}

// ---------------------------------------------------------------------------------------
// The decoder layer
// ---------------------------------------------------------------------------------------

/// Post-LN matches PyTorch's nn.TransformerDecoderLayer(6, 2, 10, dropout=0.0,
/// batch_first=True, norm_first=False) with a causal tgt_mask and the last of 5 source
/// tokens padded (memory_key_padding_mask = [F, F, F, F, T]).
#[test]
fn decoder_layer_post_ln_matches_pytorch() {
    graded(|| {
        let layer = fixture_decoder(NormPosition::Post);
        let (x, memory, self_mask, memory_mask) = decoder_inputs();
        let output =
            decoder_output(&layer, &x, &memory, Some(&self_mask), Some(&memory_mask));
        let mut misconceptions = vec![
            Misconception {
                cause: POST_NOT_PRE,
                result: PYTORCH.matrix("decoder_pre"),
            },
            Misconception {
                cause: NO_CAUSAL_MASK,
                result: PYTORCH.matrix("mistake_decoder_post_no_causal_mask"),
            },
            Misconception {
                cause: NO_MEMORY_MASK,
                result: PYTORCH.matrix("mistake_decoder_post_no_memory_mask"),
            },
            Misconception {
                cause: CROSS_OVER_SELF,
                result: PYTORCH.matrix("mistake_decoder_post_cross_over_self"),
            },
            Misconception {
                cause: NO_RESIDUAL,
                result: PYTORCH.matrix("mistake_decoder_post_no_residual"),
            },
        ];
        // The cross-attention's queries from x, a residual missing or taken from the
        // normalised input, and the rest computed.
        misconceptions.extend(named!(
            NAMED,
            mistakes::decoder_mistakes(
                &decoder_parts(&layer),
                &x,
                &memory,
                Some(&self_mask),
                Some(&memory_mask),
            )
        ));
        assert_matrix_close(
            &tr!(MESSAGES, "decoder-post-pytorch"),
            &output,
            &PYTORCH.matrix("decoder_post"),
            Tol::TIGHT,
            &misconceptions,
        );
    });
}

/// Pre-LN matches PyTorch's nn.TransformerDecoderLayer(..., norm_first=True).
#[test]
fn decoder_layer_pre_ln_matches_pytorch() {
    graded(|| {
        let layer = fixture_decoder(NormPosition::Pre);
        let (x, memory, self_mask, memory_mask) = decoder_inputs();
        let output =
            decoder_output(&layer, &x, &memory, Some(&self_mask), Some(&memory_mask));
        let mut misconceptions = vec![
            Misconception {
                cause: PRE_NOT_POST,
                result: PYTORCH.matrix("decoder_post"),
            },
            Misconception {
                cause: NO_CAUSAL_MASK,
                result: PYTORCH.matrix("mistake_decoder_pre_no_causal_mask"),
            },
            Misconception {
                cause: NO_MEMORY_MASK,
                result: PYTORCH.matrix("mistake_decoder_pre_no_memory_mask"),
            },
            Misconception {
                cause: CROSS_OVER_SELF,
                result: PYTORCH.matrix("mistake_decoder_pre_cross_over_self"),
            },
            Misconception {
                cause: RESIDUAL_FROM_NORM,
                result: PYTORCH.matrix("mistake_decoder_pre_residual_from_norm"),
            },
            Misconception {
                cause: NO_RESIDUAL,
                result: PYTORCH.matrix("mistake_decoder_pre_no_residual"),
            },
        ];
        // The cross-attention's queries from x, a residual missing or taken from the
        // normalised input, and the rest computed.
        misconceptions.extend(named!(
            NAMED,
            mistakes::decoder_mistakes(
                &decoder_parts(&layer),
                &x,
                &memory,
                Some(&self_mask),
                Some(&memory_mask),
            )
        ));
        assert_matrix_close(
            &tr!(MESSAGES, "decoder-pre-pytorch"),
            &output,
            &PYTORCH.matrix("decoder_pre"),
            Tol::TIGHT,
            &misconceptions,
        );
    });
}

/// The decoder cannot see the future: with a causal self_mask, changing target token 3
/// leaves outputs 0..3 exactly as they were, and changing tokens 2 and 3 leaves outputs 0
/// and 1; post-LN and pre-LN.
#[test]
fn the_decoder_cannot_see_the_future() {
    graded(|| {
        let (x, memory, self_mask, memory_mask) = decoder_inputs();
        for position in [NormPosition::Post, NormPosition::Pre] {
            let layer = fixture_decoder(position);
            let run = |x: &Matrix| {
                decoder_output(&layer, x, &memory, Some(&self_mask), Some(&memory_mask))
            };
            let before = run(&x);
            for first_changed in [3, 2] {
                let mut changed = x.clone();
                for i in first_changed..4 {
                    changed
                        .row_mut(i)
                        .assign(&array![5.0, -3.0, 2.0, 0.5, -1.0, 4.0]);
                }
                let after = run(&changed);
                for i in 0..first_changed {
                    let same = after.row(i) == before.row(i);
                    assert!(
                        same,
                        "{}",
                        tr!(
                            MESSAGES,
                            "saw-the-future",
                            position = format!("{position:?}"),
                            row = i,
                            first = first_changed,
                            before = before.row(i).to_string(),
                            after = after.row(i).to_string(),
                        )
                    );
                }
                assert!(
                    after.row(3) != before.row(3),
                    "{}",
                    tr!(
                        MESSAGES,
                        "input-ignored",
                        position = format!("{position:?}")
                    )
                );
            }
        }
    });
}

/// Padded source positions do not change the decoder: with memory_mask blocking source
/// position 4, any values there leave the output exactly as it was, and no gradient flows
/// back to that memory row (its d_memory row is exactly 0); post-LN and pre-LN.
#[test]
fn padded_source_positions_do_not_change_the_decoder() {
    graded(|| {
        let (x, memory, self_mask, memory_mask) = decoder_inputs();
        let mut changed = memory.clone();
        changed.row_mut(4).fill(100.0);
        let upstream = linspace_matrix(4, 6, -0.6, 0.8);
        for position in [NormPosition::Post, NormPosition::Pre] {
            let layer = fixture_decoder(position);
            let forward = observe_parts("DecoderLayer::forward", || {
                layer.forward(&x, &memory, Some(&self_mask), Some(&memory_mask))
            });
            let after = observe_parts("DecoderLayer::forward", || {
                layer.forward(&x, &changed, Some(&self_mask), Some(&memory_mask))
            });
            assert_matrix_close(
                &tr!(
                    MESSAGES,
                    "padded-memory-moved-output",
                    position = format!("{position:?}")
                ),
                &after.output,
                &forward.output,
                EXACT,
                &[],
            );
            let d_memory = observe("DecoderLayer::backward", || {
                layer.backward(&x, &memory, &forward, &upstream).d_memory
            });
            assert_same_shape(&tr!(MESSAGES, "d-memory-shape"), &d_memory, (5, 6));
            assert!(
                d_memory.row(4).iter().all(|&g| g == 0.0),
                "{}",
                tr!(
                    MESSAGES,
                    "padded-memory-gradient",
                    position = format!("{position:?}"),
                    got = d_memory.row(4).to_string(),
                )
            );
        }
    });
}

/// 3 target tokens over 7 source tokens: the output and d_x are (3, 6), d_memory is
/// (7, 6), the cross-attention's weights are (3, 7) in each head and the self-attention's
/// (3, 3).
#[test]
fn decoder_shapes_follow_the_target_and_the_source() {
    graded(|| {
        let layer = fixture_decoder(NormPosition::Post);
        let x = scrambled(3, 6, 19, 1.0);
        let memory = scrambled(7, 6, 29, 1.0);
        let forward = observe_parts("DecoderLayer::forward", || {
            layer.forward(&x, &memory, Some(&causal_mask(3)), None)
        });
        assert_same_shape(
            &tr!(MESSAGES, "decoder-output-shape"),
            &forward.output,
            (3, 6),
        );
        for weights in &forward.cross_attention.weights {
            assert_same_shape(
                &tr!(MESSAGES, "cross-attention-weights-shape"),
                weights,
                (3, 7),
            );
        }
        for weights in &forward.self_attention.weights {
            assert_same_shape(
                &tr!(MESSAGES, "self-attention-weights-shape"),
                weights,
                (3, 3),
            );
        }
        let grads = observe_parts("DecoderLayer::backward", || {
            layer.backward(&x, &memory, &forward, &Matrix::ones((3, 6)))
        });
        assert_same_shape(&tr!(MESSAGES, "decoder-d-x"), &grads.d_x, (3, 6));
        assert_same_shape(&tr!(MESSAGES, "decoder-d-memory"), &grads.d_memory, (7, 6));
    });
}

/// The parameters of the paper's base decoder layer: 2 × 1,050,624 (two attentions) +
/// 2,099,712 (FFN) + 3 × 1,024 (three LayerNorms) = 4,204,032; and 2·168 + 136 + 36 = 508
/// for the fixture.
#[test]
fn decoder_layer_parameter_count_matches_the_paper_base_model() {
    graded(|| {
        let zero =
            |rows, cols| Linear::new(Matrix::zeros((rows, cols)), Vector::zeros(rows));
        let attention = || {
            MultiHeadAttention::new(
                8,
                zero(512, 512),
                zero(512, 512),
                zero(512, 512),
                zero(512, 512),
            )
        };
        let base = DecoderLayer::new(
            attention(),
            attention(),
            FeedForward::new(zero(2048, 512), zero(512, 2048)),
            LayerNorm::new(512),
            LayerNorm::new(512),
            LayerNorm::new(512),
            NormPosition::Post,
        );
        assert!(
            base.d_model() == 512,
            "{}",
            tr!(
                MESSAGES,
                "decoder-d-model",
                got = base.d_model().to_string()
            )
        );
        let got = observe("DecoderLayer::parameter_count", || base.parameter_count());
        assert!(
            got == 4_204_032,
            "{}",
            tr!(MESSAGES, "decoder-base-count", got = got.to_string())
        );
        let fixture = fixture_decoder(NormPosition::Pre);
        let got = observe("DecoderLayer::parameter_count", || {
            fixture.parameter_count()
        });
        assert!(
            got == 508,
            "{}",
            tr!(MESSAGES, "decoder-fixture-count", got = got.to_string())
        );
    });
}

/// The decoder layer's gradients match PyTorch's autograd for the loss sum(output ⊙ G),
/// G = lin(4, 6, −0.6, 0.8): d_x, d_memory, norm_3's dγ and the cross-attention's output
/// bias gradient, post-LN and pre-LN.
#[test]
fn decoder_layer_backward_matches_pytorch_autograd() {
    graded(|| {
        let (x, memory, self_mask, memory_mask) = decoder_inputs();
        let upstream = linspace_matrix(4, 6, -0.6, 0.8);
        let cases = [
            (
                NormPosition::Post,
                PYTORCH.matrix("decoder_post_d_x"),
                PYTORCH.matrix("decoder_post_d_memory"),
                row(&PYTORCH.vector("decoder_post_d_gamma_3")),
                row(&PYTORCH.vector("decoder_post_d_b_o_cross")),
            ),
            (
                NormPosition::Pre,
                PYTORCH.matrix("decoder_pre_d_x"),
                PYTORCH.matrix("decoder_pre_d_memory"),
                row(&PYTORCH.vector("decoder_pre_d_gamma_3")),
                row(&PYTORCH.vector("decoder_pre_d_b_o_cross")),
            ),
        ];
        // Every part checked, and every wrong one listed (see the encoder's test).
        let mut checks = Checks::new();
        for (position, d_x, d_memory, d_gamma_3, d_b_o) in cases {
            let layer = fixture_decoder(position);
            let forward = observe_parts("DecoderLayer::forward", || {
                layer.forward(&x, &memory, Some(&self_mask), Some(&memory_mask))
            });
            let grads = observe_parts("DecoderLayer::backward", || {
                layer.backward(&x, &memory, &forward, &upstream)
            });
            for (name, got, want) in [
                ("d_x", grads.d_x.clone(), d_x),
                ("d_memory", grads.d_memory.clone(), d_memory),
                ("norm_3 d_gamma", row(&grads.norm_3.d_gamma), d_gamma_3),
                (
                    "cross_attention.w_o d_bias",
                    row(&grads.cross_attention.w_o.d_bias),
                    d_b_o,
                ),
            ] {
                checks.check_as(&format!("{position:?} {name}"), || {
                    assert_matrix_close(
                        &tr!(
                            MESSAGES,
                            "decoder-against-autograd",
                            position = format!("{position:?}"),
                            name = name,
                        ),
                        &got,
                        &want,
                        Tol::TIGHT,
                        &[],
                    )
                });
            }
        }
        checks.finish();
    });
}

fn decoder_params(
    grads: &DecoderLayerGrads,
    position: NormPosition,
) -> Vec<Param<DecoderLayer>> {
    let (self_attention, cross_attention, ffn, norms) = match position {
        NormPosition::Post => (
            tr!(MESSAGES, "decoder-post-self-attention-hint"),
            tr!(MESSAGES, "decoder-post-cross-attention-hint"),
            tr!(MESSAGES, "decoder-post-ffn-hint"),
            tr!(MESSAGES, "decoder-post-norms-hint"),
        ),
        NormPosition::Pre => (
            tr!(MESSAGES, "decoder-pre-self-attention-hint"),
            tr!(MESSAGES, "decoder-pre-cross-attention-hint"),
            tr!(MESSAGES, "decoder-pre-ffn-hint"),
            tr!(MESSAGES, "decoder-pre-norms-hint"),
        ),
    };
    let mut params = attention_params!(
        DecoderLayer,
        self_attention,
        grads.self_attention,
        &self_attention
    );
    params.extend(attention_params!(
        DecoderLayer,
        cross_attention,
        grads.cross_attention,
        &cross_attention
    ));
    params.extend(ffn_params!(DecoderLayer, grads.ffn, &ffn));
    params.extend(norm_params!(DecoderLayer, norm_1, grads.norm_1, &norms));
    params.extend(norm_params!(DecoderLayer, norm_2, grads.norm_2, &norms));
    params.extend(norm_params!(DecoderLayer, norm_3, grads.norm_3, &norms));
    params
}

fn check_decoder_gradients(position: NormPosition) {
    let layer = fixture_decoder(position);
    let (x, memory, self_mask, memory_mask) = decoder_inputs();
    let upstream = linspace_matrix(4, 6, -0.6, 0.8);
    let forward = observe_parts("DecoderLayer::forward", || {
        layer.forward(&x, &memory, Some(&self_mask), Some(&memory_mask))
    });
    let grads = observe_parts("DecoderLayer::backward", || {
        layer.backward(&x, &memory, &forward, &upstream)
    });
    let loss = |layer: &DecoderLayer, x: &Matrix, memory: &Matrix| {
        weighted_sum(
            &decoder_output(layer, x, memory, Some(&self_mask), Some(&memory_mask)),
            &upstream,
        )
    };
    let what = tr!(
        MESSAGES,
        "decoder-layer",
        position = format!("{position:?}")
    );
    let d_x = numerical_gradient(|x| loss(&layer, x, &memory), &x, STEP);
    assert_gradient_close(
        &tr!(MESSAGES, "gradient-of", what = &what, gradient = "d_x"),
        &grads.d_x,
        &d_x,
        &tr!(MESSAGES, "decoder-d-x-hint"),
    );
    let d_memory = numerical_gradient(|m| loss(&layer, &x, m), &memory, STEP);
    assert_gradient_close(
        &tr!(MESSAGES, "gradient-of", what = &what, gradient = "d_memory"),
        &grads.d_memory,
        &d_memory,
        &tr!(MESSAGES, "decoder-d-memory-hint"),
    );
    check_parameters(
        &what,
        &layer,
        |l| loss(l, &x, &memory),
        decoder_params(&grads, position),
    );
}

/// The post-LN decoder layer's backward pass agrees with central differences for x, the
/// memory and every weight, bias, γ and β of its three blocks (the key biases aside).
#[test]
fn decoder_layer_post_ln_backward_matches_numerical_gradients() {
    graded(|| check_decoder_gradients(NormPosition::Post));
}

/// The pre-LN decoder layer's backward pass agrees with central differences, likewise.
#[test]
fn decoder_layer_pre_ln_backward_matches_numerical_gradients() {
    graded(|| check_decoder_gradients(NormPosition::Pre));
}
