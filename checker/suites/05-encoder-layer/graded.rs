//! Graded tests of lesson 05, the encoder layer and the decoder layer.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API
//! (which re-exports lesson 02's and lesson 03's types; grading supplies their reference
//! solutions), so any correct implementation passes. Every fixture is hand-computed, an
//! exact property (LayerNorm's row statistics, the zero gradient of a sum of LayerNorm
//! outputs, positions that cannot influence each other, central differences), a value
//! published with another library (burn, candle), or a value from PyTorch in float64:
//! nn.LayerNorm, nn.TransformerEncoderLayer and nn.TransformerDecoderLayer
//! (tools/reference/lesson05_layers.py, torch 2.15.0). The wrong answers used to name
//! mistakes come from the same script, which writes each layer out by hand with switches
//! for the mistakes, or from `course_harness::mistakes::encoder_layer`, which writes the
//! layers out with a switch per mistake too (the lesson's visible tests use it as well).
//!
//! Every call into the lesson goes through `observe` (its result structs taken apart into
//! matrices by `observe_parts`), so the checker's judge can replay it (see harness::tape).

use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::mistakes::encoder_layer::{
    self as mistakes, CROSS_OVER_SELF, Decoder, Encoder, Ffn, NO_CAUSAL_MASK,
    NO_MEMORY_MASK, NO_RELU, NO_RESIDUAL, Norm, POST_NOT_PRE, PRE_NOT_POST, Position,
    RESIDUAL_FROM_NORM, encoder_d_x_mistakes, ffn_backward_mistakes, ffn_mistakes,
    layer_norm_backward_mistakes, layer_norm_mistakes, nearest_first, normalise,
};
use course_harness::mistakes::multi_head_attention::{Layer, LinearWeights};
use course_harness::{
    Misconception, Taped, Tol, assert_all_finite, assert_gradient_close,
    assert_matrix_close, assert_same_shape, graded, linspace, linspace_matrix,
    numerical_gradient, observe, relative_error,
};
use encoder_layer::{
    DecoderLayer, DecoderLayerForward, DecoderLayerGrads, EncoderLayer,
    EncoderLayerForward, EncoderLayerGrads, FeedForward, FeedForwardForward,
    FeedForwardGrads, LAYER_NORM_EPS, LayerNorm, LayerNormGrads, Linear, LinearGrads,
    Mask, MultiHeadAttention, MultiHeadForward, MultiHeadGrads, NormPosition, Normalised,
    causal_mask, normalise_rows, padding_mask,
};

/// Exactly equal: for properties that hold bit for bit (rows that cannot see each other).
const EXACT: Tol = Tol { abs: 0.0, rel: 0.0 };

/// Appended to every gradient hint: a gradient check compares the backward pass with
/// central differences of the learner's own forward pass.
fn gradient_hint(hint: &str) -> String {
    format!(
        "{hint}. (If a forward-pass test fails too, fix the forward pass first: the \
         numerical gradient is computed from your forward pass.)"
    )
}

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

/// A deterministic fill with no linear structure (unlike a linspace fill, whose rows
/// LayerNorm maps all to the same vector): entry k = i·cols + j + seed is
/// ((k² · 7 + k · 13 + 3) mod 97) / 48 − 1, times scale. The reference script computes
/// the same numbers.
fn scrambled(rows: usize, cols: usize, seed: usize, scale: Float) -> Matrix {
    Matrix::from_shape_fn((rows, cols), |(i, j)| {
        let k = (i * cols + j + seed) as u64;
        (((k * k * 7 + k * 13 + 3) % 97) as Float / 48.0 - 1.0) * scale
    })
}

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

/// A result struct of the lesson (or of lessons 02 and 03, inside it) as the tape carries
/// it: its matrices, taken apart inside `observe` and put back together outside, so that
/// the judge, which replays the tape, gets the struct the learner's code returned.
trait Parts: Sized {
    /// The struct's fields as course types.
    type Tape: Taped;
    fn into_tape(self) -> Self::Tape;
    fn from_tape(tape: Self::Tape) -> Self;
}

/// Calls `call`, a call into the lesson that returns one of its result structs, through
/// `observe`.
fn observe_parts<T: Parts>(label: &str, call: impl FnOnce() -> T) -> T {
    T::from_tape(observe(label, || call().into_tape()))
}

/// The fields that are course types already go on the tape as they are.
macro_rules! course_values {
    ($($value:ty),+) => {$(
        impl Parts for $value {
            type Tape = Self;
            fn into_tape(self) -> Self {
                self
            }
            fn from_tape(tape: Self) -> Self {
                tape
            }
        }
    )+};
}

course_values!(Matrix, Vector, Vec<Matrix>);

/// A struct goes on the tape as the tuple of its fields, each taken apart in turn.
macro_rules! parts {
    ($($name:ident { $($field:ident: $part:ty),+ $(,)? })+) => {$(
        impl Parts for $name {
            type Tape = ($(<$part as Parts>::Tape,)+);
            fn into_tape(self) -> Self::Tape {
                ($(self.$field.into_tape(),)+)
            }
            fn from_tape(tape: Self::Tape) -> Self {
                let ($($field,)+) = tape;
                Self { $($field: Parts::from_tape($field),)+ }
            }
        }
    )+};
}

parts! {
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
    observe("DecoderLayer::forward", || {
        layer.forward(x, memory, self_mask, memory_mask).output
    })
}

/// `ffn.forward(x).output`, observed.
fn ffn_output(ffn: &FeedForward, x: &Matrix) -> Matrix {
    observe("FeedForward::forward", || ffn.forward(x).output)
}

// ---------------------------------------------------------------------------------------
// The layers' parts as the builders of wrong answers take them
// (`course_harness::mistakes::encoder_layer`, which computes every layer itself)
// ---------------------------------------------------------------------------------------

fn linear_parts(layer: &Linear) -> LinearWeights<'_> {
    LinearWeights {
        weight: &layer.weight,
        bias: &layer.bias,
    }
}

fn attention_parts(attention: &MultiHeadAttention) -> Layer<'_> {
    Layer {
        n_heads: attention.n_heads,
        w_q: linear_parts(&attention.w_q),
        w_k: linear_parts(&attention.w_k),
        w_v: linear_parts(&attention.w_v),
        w_o: linear_parts(&attention.w_o),
    }
}

fn norm_parts(norm: &LayerNorm) -> Norm<'_> {
    Norm {
        gamma: &norm.gamma,
        beta: &norm.beta,
        eps: norm.eps,
    }
}

fn ffn_parts(ffn: &FeedForward) -> Ffn<'_> {
    Ffn {
        w_1: linear_parts(&ffn.w_1),
        w_2: linear_parts(&ffn.w_2),
    }
}

fn position_of(position: NormPosition) -> Position {
    match position {
        NormPosition::Post => Position::Post,
        NormPosition::Pre => Position::Pre,
    }
}

fn encoder_parts(layer: &EncoderLayer) -> Encoder<'_> {
    Encoder {
        self_attention: attention_parts(&layer.self_attention),
        ffn: ffn_parts(&layer.ffn),
        norm_1: norm_parts(&layer.norm_1),
        norm_2: norm_parts(&layer.norm_2),
        position: position_of(layer.norm_position),
    }
}

fn decoder_parts(layer: &DecoderLayer) -> Decoder<'_> {
    Decoder {
        self_attention: attention_parts(&layer.self_attention),
        cross_attention: attention_parts(&layer.cross_attention),
        ffn: ffn_parts(&layer.ffn),
        norm_1: norm_parts(&layer.norm_1),
        norm_2: norm_parts(&layer.norm_2),
        norm_3: norm_parts(&layer.norm_3),
        position: position_of(layer.norm_position),
    }
}

// ---------------------------------------------------------------------------------------
// LayerNorm
// ---------------------------------------------------------------------------------------

/// normalise_rows([1, 0, 0, 0]): μ = 1/4, σ² = 3/16 (biased), so x̂ = (x − μ)/√(3/16 + ε)
/// and inv_std = 1/√(3/16 + ε), by hand.
#[test]
fn normalise_rows_standardises_with_the_biased_variance() {
    graded(|| {
        let x = array![[1.0, 0.0, 0.0, 0.0]];
        let got = observe_parts("normalise_rows", || normalise_rows(&x, LAYER_NORM_EPS));
        let inv_std = 1.0 / (3.0 / 16.0 + LAYER_NORM_EPS).sqrt();
        let expected = array![[0.75, -0.25, -0.25, -0.25]] * inv_std;
        assert_matrix_close(
            "normalise_rows([[1, 0, 0, 0]]).x_hat",
            &got.x_hat,
            &expected,
            Tol::TIGHT,
            &nearest_first(
                &got.x_hat,
                layer_norm_mistakes(
                    &x,
                    &Norm {
                        gamma: &Vector::ones(4),
                        beta: &Vector::zeros(4),
                        eps: LAYER_NORM_EPS,
                    },
                ),
            ),
        );
        assert!(
            got.inv_std.len() == 1 && Tol::TIGHT.accepts(got.inv_std[0], inv_std),
            "normalise_rows([[1, 0, 0, 0]]).inv_std should be [1/√(3/16 + 1e-5)] = \
             [{inv_std}], got {}. Likely cause: inv_std holds one number per row, \
             1/√(σ² + ε), with σ² the biased variance of that row.",
            got.inv_std
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
            "LayerNorm::new(4).forward([[1, 0, 0, 0]]) (PyTorch's nn.LayerNorm(4))",
            &got,
            &pytorch_layer_norm_1_0_0_0(),
            Tol::TIGHT,
            &nearest_first(&got, layer_norm_mistakes(&x, &norm_parts(&ln))),
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
        let mistakes = layer_norm_mistakes(&x, &norm_parts(&ln));
        assert_matrix_close(
            "LayerNorm of burn's fixture (burn's published values)",
            &got,
            &published,
            four_decimals,
            &mistakes,
        );
        assert_matrix_close(
            "LayerNorm of burn's fixture (PyTorch)",
            &got,
            &pytorch_burn_fixture(),
            Tol::TIGHT,
            &mistakes,
        );
        let wide = LayerNorm { eps: 0.1, ..ln };
        let mut mistakes = layer_norm_mistakes(&x, &norm_parts(&wide));
        mistakes.insert(
            0,
            Misconception {
                cause: "ε was fixed at 1e-5 (LAYER_NORM_EPS) instead of taken from the layer's \
                        own `eps` field",
                result: pytorch_burn_fixture(),
            },
        );
        assert_matrix_close(
            "LayerNorm with eps = 0.1 of burn's fixture (PyTorch; burn publishes −0.4863, \
             −1.9180, 1.5766, ...)",
            &observe("LayerNorm::forward", || wide.forward(&x)),
            &pytorch_burn_fixture_eps_0_1(),
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
            "LayerNorm of candle's rows [1, 2, 3], [4, 5, 6], [9, 8, 7]",
            &observe("LayerNorm::forward", || ln.forward(&x)),
            &expected,
            Tol::TIGHT,
            &layer_norm_mistakes(&x, &norm_parts(&ln)),
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
        let mistakes = layer_norm_mistakes(&x, &norm_parts(&ln));
        assert_matrix_close(
            "LayerNorm with γ = linspace(0.5, 1.5, 5), β = linspace(−0.3, 0.3, 5) (PyTorch)",
            &observe("LayerNorm::forward", || ln.forward(&x)),
            &pytorch_layer_norm_gamma_beta(),
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
        assert_same_shape("LayerNorm of a (4, 5) input", &got, (4, 5));
        let moments = |m: &Matrix, i: usize| {
            let r = m.row(i);
            let mean = r.sum() / 5.0;
            let var = r.mapv(|v| (v - mean) * (v - mean)).sum() / 5.0;
            (mean, var)
        };
        for i in 0..4 {
            let (_, var_in) = moments(&x, i);
            let (mean_out, var_out) = moments(&got, i);
            let expected = (var_in / (var_in + LAYER_NORM_EPS)).sqrt();
            let std_out = var_out.sqrt();
            assert!(
                mean_out.abs() <= 1e-12,
                "LayerNorm (γ = 1, β = 0): row {i} of the output has mean {mean_out:e}, \
                 expected 0. Likely cause: the row's mean μ must be subtracted from each of \
                 its entries (a mean per row, over the features)."
            );
            let cause = if (std_out - 1.0).abs() < 1e-9 {
                "ε was left out: with it inside the square root the output's std is \
                 √(σ²/(σ² + ε)), visibly below 1 when σ² is as small as ε"
            } else if (std_out - (var_in.sqrt() / (var_in.sqrt() + LAYER_NORM_EPS))).abs()
                < 1e-9
            {
                "ε was added to the standard deviation instead of the variance"
            } else {
                "divide by √(σ² + ε), where σ² is the biased variance of the row (÷ d_model)"
            };
            assert!(
                (std_out - expected).abs() <= 1e-9 * expected,
                "LayerNorm (γ = 1, β = 0): row {i} has input variance {var_in:e}, so its \
                 output's standard deviation should be √(σ²/(σ² + ε)) = {expected:.9}, got \
                 {std_out:.9}. Likely cause: {cause}."
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
            "LayerNorm of a constant row",
            &got,
            "a constant row has variance 0, and (x − μ)/√σ² is 0/0 = NaN: ε inside the \
             square root, (x − μ)/√(σ² + ε), is what keeps it finite",
        );
        let expected = Matrix::from_shape_fn((2, 5), |(_, j)| beta[j]);
        assert_matrix_close(
            "LayerNorm of a constant row (x̂ = 0, so the output is β)",
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
        assert_same_shape("LayerNorm of a (7, 5) input", &all, (7, 5));
        let one_by_one = Matrix::from_shape_fn((7, 5), |(i, j)| {
            let one = x.slice(s![i..i + 1, ..]).to_owned();
            observe("LayerNorm::forward", || ln.forward(&one))[[0, j]]
        });
        assert_matrix_close(
            "LayerNorm of 7 rows at once, against each row on its own",
            &all,
            &one_by_one,
            Tol::TIGHT,
            &layer_norm_mistakes(&x, &norm_parts(&ln)),
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
        let hint = "the mean and the variance depend on every entry of the row, which adds \
                    two terms to dx: dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂)) with g = dY ⊙ γ. \
                    Treating μ and σ² as constants (dx = g·r) is the usual mistake";
        let x = array![[9.0, 10.0], [54.0, 61.0]];
        let ln = LayerNorm::new(2);
        let grads = observe_parts("LayerNorm::backward", || {
            ln.backward(&x, &Matrix::ones((2, 2)))
        });
        let wrong =
            layer_norm_backward_mistakes(&x, &norm_parts(&ln), &Matrix::ones((2, 2)));
        let largest = grads.d_x.iter().fold(0.0 as Float, |m, v| m.max(v.abs()));
        assert!(
            largest <= 1e-12,
            "d sum(LayerNorm(x)) / dx for burn's x = [[9, 10], [54, 61]] should be exactly 0 \
             (each row of LayerNorm's output sums to Σβ whatever x is), got {:?}. Likely \
             cause: {hint}.",
            grads.d_x
        );
        let published = Tol {
            abs: 1e-4,
            rel: 0.0,
        };
        assert_matrix_close(
            "dγ of sum(LayerNorm(x)) (burn: [−2, 2])",
            &row(&grads.d_gamma),
            &array![[-2.0, 2.0]],
            published,
            &wrong.d_gamma,
        );
        assert_matrix_close(
            "dγ of sum(LayerNorm(x)) (PyTorch)",
            &row(&grads.d_gamma),
            &array![[-1.9999795924369648, 1.9999795924369645]],
            Tol::TIGHT,
            &wrong.d_gamma,
        );
        assert_matrix_close(
            "dβ of sum(LayerNorm(x)) (burn: [2, 2])",
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
            "d sum(LayerNorm(x)) / dx with γ = 1.7 everywhere should be 0 (up to 1e-12): \
             Σ_j (1.7·x̂_j + β_j) = Σβ whatever x is; got a largest entry of {largest:e}. \
             Likely cause: {hint}."
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
        let wrong = layer_norm_backward_mistakes(&x, &norm_parts(&ln), &upstream).d_x;
        let hint = wrong
            .iter()
            .find(|m| relative_error(&grads.d_x, &m.result) <= 1e-6)
            .map(|m| m.cause.to_string())
            .unwrap_or_else(|| {
                "with g = dY ⊙ γ and r = 1/√(σ² + ε) per row, dx = r·(g − mean(g) − x̂ ⊙ \
                 mean(g ⊙ x̂)), the means taken over each row's features"
                    .to_owned()
            });
        assert_gradient_close("LayerNorm d_x", &grads.d_x, &d_x, &gradient_hint(&hint));
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
            &gradient_hint(
                "dγ = Σ_rows dY ⊙ x̂: the normalised input, not x nor the output",
            ),
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
            &gradient_hint("β is added to every row, so dβ = Σ_rows dY"),
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
            "FeedForward with w_1 (10, 6) should report d_model 6 and d_ff 10, got {} and {}",
            ffn.d_model(),
            ffn.d_ff()
        );
        let x = scrambled(3, 6, 11, 1.0);
        let forward = observe_parts("FeedForward::forward", || ffn.forward(&x));
        let hidden = ffn.w_1.forward(&x).mapv(|v| v.max(0.0));
        // The ReLU left out or replaced by GELU, in the hidden layer and the output.
        let mistakes = ffn_mistakes(&ffn_parts(&ffn), &x);
        assert_matrix_close(
            "FeedForward: hidden (max(0, x W_1ᵀ + b_1))",
            &forward.hidden,
            &hidden,
            Tol::TIGHT,
            &mistakes.hidden,
        );
        let expected = pytorch_ffn();
        assert_matrix_close(
            "FeedForward output (PyTorch: linear2(relu(linear1(x))))",
            &forward.output,
            &expected,
            Tol::TIGHT,
            &mistakes.output,
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
        assert_same_shape("FeedForward of a (5, 6) input", &before, (5, 6));
        let mut changed = x.clone();
        changed
            .row_mut(2)
            .assign(&array![3.0, -2.0, 1.0, 0.5, -1.0, 2.0]);
        let after = ffn_output(&ffn, &changed);
        for i in [0, 1, 3, 4] {
            assert_matrix_close(
                &format!("FeedForward output row {i} after changing input row 2 only"),
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
            "FeedForward of 5 rows at once, against each row on its own",
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
        let wrong = ffn_backward_mistakes(&ffn_parts(&ffn), &x, &upstream);
        let hint = if let Some(m) = wrong
            .iter()
            .find(|m| relative_error(&grads.d_x, &m.result) <= 1e-6)
        {
            m.cause
        } else {
            "back through w_2 (its input is hidden), then the ReLU (× 1 where hidden > 0, \
             × 0 elsewhere), then w_1 (its input is x)"
        };
        assert_gradient_close("FeedForward d_x", &grads.d_x, &d_x, &gradient_hint(hint));
        type Pick = fn(&mut FeedForward) -> &mut Linear;
        let layers: [(&str, Pick, &LinearGrads, &str); 2] = [
            (
                "w_1",
                |f| &mut f.w_1,
                &grads.w_1,
                "w_1's input is x and its upstream gradient is the one that came back \
                 through w_2 and the ReLU",
            ),
            (
                "w_2",
                |f| &mut f.w_2,
                &grads.w_2,
                "w_2's input is hidden (after the ReLU) and its upstream gradient is d_output",
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
                &gradient_hint(hint),
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
                &gradient_hint(hint),
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
                cause: &POST_NOT_PRE,
                result: pytorch_encoder_pre(),
            },
            Misconception {
                cause: &NO_RESIDUAL,
                result: mistake_encoder_post_no_residual(),
            },
            Misconception {
                cause: &NO_RELU,
                result: mistake_encoder_post_no_relu(),
            },
        ];
        // A residual missing or taken from the normalised input, and the rest computed.
        misconceptions.extend(mistakes::encoder_mistakes(
            &encoder_parts(&layer),
            &x,
            None,
        ));
        assert_matrix_close(
            "encoder layer, post-LN (PyTorch's nn.TransformerEncoderLayer, norm_first=False)",
            &output,
            &pytorch_encoder_post(),
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
                cause: &PRE_NOT_POST,
                result: pytorch_encoder_post(),
            },
            Misconception {
                cause: &RESIDUAL_FROM_NORM,
                result: mistake_encoder_pre_residual_from_norm(),
            },
            Misconception {
                cause: &NO_RESIDUAL,
                result: mistake_encoder_pre_no_residual(),
            },
            Misconception {
                cause: &NO_RELU,
                result: mistake_encoder_pre_no_relu(),
            },
        ];
        misconceptions.extend(mistakes::encoder_mistakes(
            &encoder_parts(&layer),
            &x,
            None,
        ));
        assert_matrix_close(
            "encoder layer, pre-LN (PyTorch's nn.TransformerEncoderLayer, norm_first=True)",
            &output,
            &pytorch_encoder_pre(),
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
            "encoder layer, post-LN, with the last two tokens padded (PyTorch)",
            &encoder_output(&layer, &x, Some(&mask)),
            &pytorch_encoder_padded(),
            Tol::TIGHT,
            &[Misconception {
                cause: "the mask did not reach the self-attention: pass it to \
                        self_attention.forward",
                result: mistake_encoder_padded_no_mask(),
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
                &format!(
                    "encoder layer ({position:?}): the real tokens' outputs after changing \
                     the padded tokens (should not move at all)"
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
        let normalised_twice = normalise(&normalise(&x, LAYER_NORM_EPS), LAYER_NORM_EPS);
        let pre = layer(NormPosition::Pre);
        let forward = observe_parts("EncoderLayer::forward", || pre.forward(&x, None));
        assert_matrix_close(
            "pre-LN encoder layer whose sublayers output 0 (should be the identity: \
             x + 0 + 0)",
            &forward.output,
            &x,
            Tol::TIGHT,
            &[Misconception {
                cause: "the output is LayerNorm(LayerNorm(x)): either the layer computed \
                        post-LN, or its residual connections added the normalised input; \
                        pre-LN's residual path carries the raw input, h = x + SA(norm_1(x)), \
                        out = h + FFN(norm_2(h))",
                result: normalised_twice.clone(),
            }],
        );
        let upstream = linspace_matrix(4, 6, 0.5, -0.7);
        let d_x = observe("EncoderLayer::backward", || {
            pre.backward(&x, &forward, &upstream).d_x
        });
        assert_matrix_close(
            "pre-LN encoder layer whose sublayers output 0: d_x (should be d_output: the \
             residual path is the identity, a straight highway for the gradient)",
            &d_x,
            &upstream,
            Tol::TIGHT,
            &[Misconception {
                cause: "the gradient that skips each sublayer was dropped: at every residual \
                        connection y = x + F(..), dx = dy + (what comes back through F)",
                result: Matrix::zeros((4, 6)),
            }],
        );
        let post = layer(NormPosition::Post);
        assert_matrix_close(
            "post-LN encoder layer whose sublayers output 0 (should be \
             LayerNorm(LayerNorm(x)): post-LN normalises after every residual addition)",
            &encoder_output(&post, &x, None),
            &normalised_twice,
            Tol::TIGHT,
            &[Misconception {
                cause: &POST_NOT_PRE,
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
            "EncoderLayer::d_model() of the base model should be 512, got {}",
            base.d_model()
        );
        let got = observe("EncoderLayer::parameter_count", || base.parameter_count());
        assert!(
            got == 3_152_384,
            "the base model's encoder layer should have 3,152,384 parameters: 1,050,624 in \
             the attention (4·512² + 4·512), 2,099,712 in the FFN (2·512·2048 + 2048 + 512) \
             and 2,048 in the two LayerNorms (γ and β, 512 each); got {got}. Likely cause: \
             a part is missing or counted twice; add up the parts' parameter_count()."
        );
        let fixture = fixture_encoder(NormPosition::Pre);
        let got = observe("EncoderLayer::parameter_count", || {
            fixture.parameter_count()
        });
        assert!(
            got == 328,
            "the fixture's encoder layer (d_model = 6, d_ff = 10) should have 168 + 136 + \
             24 = 328 parameters, got {got}"
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
                pytorch_encoder_post_d_x(),
                pytorch_encoder_post_d_gamma_1(),
                pytorch_encoder_post_d_b_1(),
            ),
            (
                NormPosition::Pre,
                pytorch_encoder_pre_d_x(),
                pytorch_encoder_pre_d_gamma_1(),
                pytorch_encoder_pre_d_b_1(),
            ),
        ];
        for (position, d_x, d_gamma_1, d_b_1) in cases {
            let layer = fixture_encoder(position);
            let forward =
                observe_parts("EncoderLayer::forward", || layer.forward(&x, None));
            let grads = observe_parts("EncoderLayer::backward", || {
                layer.backward(&x, &forward, &upstream)
            });
            let what = format!(
                "encoder layer ({position:?}) backward, against PyTorch's autograd"
            );
            let hint = "(the gradient checks below say which part is wrong)";
            let no_key_value =
                encoder_d_x_mistakes(&encoder_parts(&layer), &x, None, &upstream);
            for (name, got, want, misconceptions) in [
                ("d_x", grads.d_x.clone(), d_x, &no_key_value[..]),
                ("norm_1 d_gamma", row(&grads.norm_1.d_gamma), d_gamma_1, &[]),
                ("ffn.w_1 d_bias", row(&grads.ffn.w_1.d_bias), d_b_1, &[]),
            ] {
                assert_matrix_close(
                    &format!("{what}: {name} {hint}"),
                    &got,
                    &want,
                    Tol::TIGHT,
                    misconceptions,
                );
            }
        }
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
    hint: &'static str,
}

impl<L> Param<L> {
    fn matrix(
        name: &'static str,
        access: fn(&mut L) -> &mut Matrix,
        analytic: &Matrix,
        hint: &'static str,
    ) -> Self {
        Self {
            name,
            access: Access::Matrix(access),
            analytic: analytic.clone(),
            hint,
        }
    }

    fn vector(
        name: &'static str,
        access: fn(&mut L) -> &mut Vector,
        analytic: &Vector,
        hint: &'static str,
    ) -> Self {
        Self {
            name,
            access: Access::Vector(access),
            analytic: row(analytic),
            hint,
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
            &format!("{what}: d {}", param.name),
            &param.analytic,
            &numerical,
            &gradient_hint(param.hint),
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
            "post-LN: the self-attention's upstream gradient is norm_1's d_x (norm_1 \
             normalised x + SA(x)), and its input x fed queries, keys and values",
            "post-LN: the FFN's input is h = norm_1(..) and its upstream gradient is \
             norm_2's d_x",
            "post-LN: norm_1's input is x + SA(x) and its upstream gradient d_h is norm_2's \
             d_x plus what comes back through the FFN",
            "post-LN: norm_2's input is h + FFN(h) and its upstream gradient is d_output",
        ),
        NormPosition::Pre => (
            "pre-LN: the self-attention's input is norm_1(x) and its upstream gradient is \
             d_h = d_output + norm_2's d_x",
            "pre-LN: the FFN's input is norm_2(h) and its upstream gradient is d_output",
            "pre-LN: norm_1's input is x and its upstream gradient is what comes back \
             through the self-attention (d_query_input + d_key_value_input)",
            "pre-LN: norm_2's input is h and its upstream gradient is the FFN's d_x",
        ),
    };
    let mut params = attention_params!(
        EncoderLayer,
        self_attention,
        grads.self_attention,
        attention
    );
    params.extend(ffn_params!(EncoderLayer, grads.ffn, ffn));
    params.extend(norm_params!(EncoderLayer, norm_1, grads.norm_1, norm_1));
    params.extend(norm_params!(EncoderLayer, norm_2, grads.norm_2, norm_2));
    params
}

const ENCODER_D_X: &str = "walk the blocks backwards; at each residual connection \
    y = x + F(..) the gradient of x is the gradient of y plus what comes back through F; in \
    self-attention the one input feeds queries, keys and values, so its gradient is \
    d_query_input + d_key_value_input";

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
    let what = format!("encoder layer ({position:?})");
    let d_x = numerical_gradient(|x| loss(&layer, x), &x, STEP);
    assert_gradient_close(
        &format!("{what}: d_x"),
        &grads.d_x,
        &d_x,
        &gradient_hint(ENCODER_D_X),
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
                cause: &POST_NOT_PRE,
                result: pytorch_decoder_pre(),
            },
            Misconception {
                cause: &NO_CAUSAL_MASK,
                result: mistake_decoder_post_no_causal_mask(),
            },
            Misconception {
                cause: &NO_MEMORY_MASK,
                result: mistake_decoder_post_no_memory_mask(),
            },
            Misconception {
                cause: &CROSS_OVER_SELF,
                result: mistake_decoder_post_cross_over_self(),
            },
            Misconception {
                cause: &NO_RESIDUAL,
                result: mistake_decoder_post_no_residual(),
            },
        ];
        // The cross-attention's queries from x, a residual missing or taken from the
        // normalised input, and the rest computed.
        misconceptions.extend(mistakes::decoder_mistakes(
            &decoder_parts(&layer),
            &x,
            &memory,
            Some(&self_mask),
            Some(&memory_mask),
        ));
        assert_matrix_close(
            "decoder layer, post-LN (PyTorch's nn.TransformerDecoderLayer, norm_first=False)",
            &output,
            &pytorch_decoder_post(),
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
                cause: &PRE_NOT_POST,
                result: pytorch_decoder_post(),
            },
            Misconception {
                cause: &NO_CAUSAL_MASK,
                result: mistake_decoder_pre_no_causal_mask(),
            },
            Misconception {
                cause: &NO_MEMORY_MASK,
                result: mistake_decoder_pre_no_memory_mask(),
            },
            Misconception {
                cause: &CROSS_OVER_SELF,
                result: mistake_decoder_pre_cross_over_self(),
            },
            Misconception {
                cause: &RESIDUAL_FROM_NORM,
                result: mistake_decoder_pre_residual_from_norm(),
            },
            Misconception {
                cause: &NO_RESIDUAL,
                result: mistake_decoder_pre_no_residual(),
            },
        ];
        // The cross-attention's queries from x, a residual missing or taken from the
        // normalised input, and the rest computed.
        misconceptions.extend(mistakes::decoder_mistakes(
            &decoder_parts(&layer),
            &x,
            &memory,
            Some(&self_mask),
            Some(&memory_mask),
        ));
        assert_matrix_close(
            "decoder layer, pre-LN (PyTorch's nn.TransformerDecoderLayer, norm_first=True)",
            &output,
            &pytorch_decoder_pre(),
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
                        "decoder layer ({position:?}): output row {i} changed when only target \
                         rows {first_changed}..4 changed, so position {i} saw the future.\n\
                         before: {}\nafter:  {}\nLikely cause: the self-attention must get \
                         self_mask (the causal mask), the cross-attention memory_mask; and \
                         every LayerNorm must normalise each row (position) over its features \
                         (a LayerNorm over the rows mixes positions).",
                        before.row(i),
                        after.row(i)
                    );
                }
                assert!(
                    after.row(3) != before.row(3),
                    "decoder layer ({position:?}): output row 3 did not change when target \
                     row 3 changed; the layer must use its input"
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
                &format!(
                    "decoder layer ({position:?}) output after changing the padded memory row \
                     (should not move at all; the cross-attention must get memory_mask)"
                ),
                &after.output,
                &forward.output,
                EXACT,
                &[],
            );
            let d_memory = observe("DecoderLayer::backward", || {
                layer.backward(&x, &memory, &forward, &upstream).d_memory
            });
            assert_same_shape(
                "d_memory: one row per source position (5), d_model (6) columns",
                &d_memory,
                (5, 6),
            );
            assert!(
                d_memory.row(4).iter().all(|&g| g == 0.0),
                "decoder layer ({position:?}): the padded memory row's gradient should be \
                 exactly 0 (it gets no attention), got {}. Likely cause: d_memory is the \
                 cross-attention's d_key_value_input.",
                d_memory.row(4)
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
            "decoder output: one row per target token",
            &forward.output,
            (3, 6),
        );
        for weights in &forward.cross_attention.weights {
            assert_same_shape(
                "cross-attention weights: one row per target token, one column per source \
                 token (queries from the decoder, keys from the memory)",
                weights,
                (3, 7),
            );
        }
        for weights in &forward.self_attention.weights {
            assert_same_shape("self-attention weights", weights, (3, 3));
        }
        let grads = observe_parts("DecoderLayer::backward", || {
            layer.backward(&x, &memory, &forward, &Matrix::ones((3, 6)))
        });
        assert_same_shape("decoder d_x", &grads.d_x, (3, 6));
        assert_same_shape("decoder d_memory", &grads.d_memory, (7, 6));
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
            "DecoderLayer::d_model() of the base model should be 512, got {}",
            base.d_model()
        );
        let got = observe("DecoderLayer::parameter_count", || base.parameter_count());
        assert!(
            got == 4_204_032,
            "the base model's decoder layer should have 4,204,032 parameters: 2 × 1,050,624 \
             in the two attentions, 2,099,712 in the FFN and 3,072 in the three LayerNorms; \
             got {got}. Likely cause: the cross-attention or the third LayerNorm is missing, \
             or a part is counted twice."
        );
        let fixture = fixture_decoder(NormPosition::Pre);
        let got = observe("DecoderLayer::parameter_count", || {
            fixture.parameter_count()
        });
        assert!(
            got == 508,
            "the fixture's decoder layer (d_model = 6, d_ff = 10) should have 2·168 + 136 + \
             36 = 508 parameters, got {got}"
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
                pytorch_decoder_post_d_x(),
                pytorch_decoder_post_d_memory(),
                pytorch_decoder_post_d_gamma_3(),
                pytorch_decoder_post_d_b_o_cross(),
            ),
            (
                NormPosition::Pre,
                pytorch_decoder_pre_d_x(),
                pytorch_decoder_pre_d_memory(),
                pytorch_decoder_pre_d_gamma_3(),
                pytorch_decoder_pre_d_b_o_cross(),
            ),
        ];
        for (position, d_x, d_memory, d_gamma_3, d_b_o) in cases {
            let layer = fixture_decoder(position);
            let forward = observe_parts("DecoderLayer::forward", || {
                layer.forward(&x, &memory, Some(&self_mask), Some(&memory_mask))
            });
            let grads = observe_parts("DecoderLayer::backward", || {
                layer.backward(&x, &memory, &forward, &upstream)
            });
            let what = format!(
                "decoder layer ({position:?}) backward, against PyTorch's autograd"
            );
            let hint = "(the gradient checks below say which part is wrong)";
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
                assert_matrix_close(
                    &format!("{what}: {name} {hint}"),
                    &got,
                    &want,
                    Tol::TIGHT,
                    &[],
                );
            }
        }
    });
}

fn decoder_params(
    grads: &DecoderLayerGrads,
    position: NormPosition,
) -> Vec<Param<DecoderLayer>> {
    let (self_attention, cross_attention, ffn, norms) = match position {
        NormPosition::Post => (
            "post-LN: the self-attention's upstream gradient is norm_1's d_x, and its input x \
             fed queries, keys and values",
            "post-LN: the cross-attention's query input is h_1 = norm_1(..), its key/value \
             input the memory, and its upstream gradient norm_2's d_x",
            "post-LN: the FFN's input is h_2 = norm_2(..) and its upstream gradient norm_3's \
             d_x",
            "post-LN: norm_k's input is (its block's input) + (its sublayer's output), and its \
             upstream gradient is what reaches its output: d_output for norm_3, then the sum \
             of the skip path and the sublayer path for norm_2 and norm_1",
        ),
        NormPosition::Pre => (
            "pre-LN: the self-attention's input is norm_1(x) and its upstream gradient d_h_1",
            "pre-LN: the cross-attention's query input is norm_2(h_1), its key/value input the \
             memory, and its upstream gradient d_h_2 = d_output + norm_3's d_x",
            "pre-LN: the FFN's input is norm_3(h_2) and its upstream gradient d_output",
            "pre-LN: norm_k's input is its block's input (x, h_1, h_2), and its upstream \
             gradient is what comes back through its sublayer's query path",
        ),
    };
    let mut params = attention_params!(
        DecoderLayer,
        self_attention,
        grads.self_attention,
        self_attention
    );
    params.extend(attention_params!(
        DecoderLayer,
        cross_attention,
        grads.cross_attention,
        cross_attention
    ));
    params.extend(ffn_params!(DecoderLayer, grads.ffn, ffn));
    params.extend(norm_params!(DecoderLayer, norm_1, grads.norm_1, norms));
    params.extend(norm_params!(DecoderLayer, norm_2, grads.norm_2, norms));
    params.extend(norm_params!(DecoderLayer, norm_3, grads.norm_3, norms));
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
    let what = format!("decoder layer ({position:?})");
    let d_x = numerical_gradient(|x| loss(&layer, x, &memory), &x, STEP);
    assert_gradient_close(
        &format!("{what}: d_x"),
        &grads.d_x,
        &d_x,
        &gradient_hint(
            "walk the three blocks backwards, adding the skip path's gradient at each \
             residual connection; only the cross-attention's query path (d_query_input) \
             goes back into the decoder's stream, and the self-attention's input gets \
             d_query_input + d_key_value_input",
        ),
    );
    let d_memory = numerical_gradient(|m| loss(&layer, &x, m), &memory, STEP);
    assert_gradient_close(
        &format!("{what}: d_memory"),
        &grads.d_memory,
        &d_memory,
        &gradient_hint(
            "the memory is the cross-attention's key/value input, so d_memory is the \
             cross-attention's d_key_value_input (it feeds both W_k and W_v)",
        ),
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

// ---------------------------------------------------------------------------------------
// Reference values: tools/reference/lesson05_layers.py (torch 2.15.0, float64)
// ---------------------------------------------------------------------------------------

/// LayerNorm([1, 0, 0, 0]), nn.LayerNorm(4).
#[rustfmt::skip]
fn pytorch_layer_norm_1_0_0_0() -> Matrix {
    array![
        [1.7320046213947808, -0.5773348737982603, -0.5773348737982603, -0.5773348737982603]
    ]
}

/// burn's fixture, eps 1e-5 (published to 4 decimals: -0.4990, -1.9680, 1.6178, ...).
#[rustfmt::skip]
fn pytorch_burn_fixture() -> Matrix {
    array![
        [-0.4989710642784831, -1.9679996820349388, 1.617741505390983, -0.74852201903913, -0.6469715722577074, 0.8576033364623245, 0.0460720638296819, 1.1110796485072925, -0.261486948577046, 0.4914547319970234]
    ]
}

/// burn's fixture, eps 0.1 (published: -0.4863, -1.9180, 1.5766, ...).
#[rustfmt::skip]
fn pytorch_burn_fixture_eps_0_1() -> Matrix {
    array![
        [-0.4862896885199016, -1.9179828669381718, 1.5766265202168799, -0.7294982926819047, -0.6305287558294963, 0.8358073027038978, 0.04490113991199464, 1.0828415009890433, -0.25484124406978087, 0.4789643842174398]
    ]
}

/// LayerNorm with gamma = linspace(0.5, 1.5, 5), beta = linspace(-0.3, 0.3, 5).
#[rustfmt::skip]
fn pytorch_layer_norm_gamma_beta() -> Matrix {
    array![
        [-0.7055399355320736, 0.3657410049701374, -1.4722862876925285, 1.7258752929643082, 0.8025168766375695],
        [-0.3769296776815617, -0.012969011629718176, 1.192410004064207, -2.0857687576203885, 1.151034559352277],
        [-0.41148595703442525, -0.7691990316371461, 1.9163532074025542, -0.8066700367143256, 0.1463301673309273]
    ]
}

/// FFN(x).
#[rustfmt::skip]
fn pytorch_ffn() -> Matrix {
    array![
        [0.02489872685185189, -0.4269694733796297, -0.05353023726851849, 0.1105918692129629, 0.285372974537037, -0.38032262731481475],
        [0.12934389467592594, -0.8441316550925927, -0.2833117766203702, 0.5214172453703704, -0.8588038194444445, 0.5617997685185185],
        [0.3760886863425927, -0.4945584490740742, 0.11650737847222234, -0.13677502893518534, -0.25240914351851845, 0.2913028067129629]
    ]
}

/// encoder layer, post-LN (norm_first=False): output.
#[rustfmt::skip]
fn pytorch_encoder_post() -> Matrix {
    array![
        [-1.187732762459478, -0.65737834860374, 0.40726849400080145, 0.45546784450605493, -0.6568559913868872, 1.2176673998660383],
        [0.3534786313489614, -1.539558359616412, 1.0028037436428876, -0.9059453664491008, 1.050862485464046, 0.027763299739768852],
        [-0.3268766047962881, -0.8493652394433509, -0.18078446788388558, 0.6966341069721586, -0.8527519332474629, 1.233147046636114],
        [0.7599992971131905, 0.08747221174549043, -0.214756734025065, 0.8204751977934656, -1.6161268688457104, 0.5983796232661329]
    ]
}

/// encoder layer, post-LN: d_x for the upstream gradient lin(4, 6, 0.5, -0.7).
#[rustfmt::skip]
fn pytorch_encoder_post_d_x() -> Matrix {
    array![
        [0.03503159362750213, 0.06516475662247476, -0.02466665818673547, 0.0928221385589188, -0.2681031942632915, 0.04943132408494704],
        [0.213314975691126, 0.00825543051961599, 0.03443428798347876, -0.12172521924961555, 0.03853848035354884, -0.20678078640552316],
        [0.05383346461891645, 0.0036107979170313595, -0.007135328212843767, 0.011452735512029404, -0.12440968427285409, 0.031154078998909235],
        [-0.01849442750596363, -0.04029118042896774, 0.01175999007868328, -0.02497928716956905, -0.017631000470708837, 0.07933921605850672]
    ]
}

/// encoder layer, post-LN: d_gamma of norm_1.
#[rustfmt::skip]
fn pytorch_encoder_post_d_gamma_1() -> Matrix {
    array![
        [-0.22872678892256812, 0.04417886890593628, -0.026406223782274276, 0.0750446170209226, 0.06446471228270113, 0.06752148101601803]
    ]
}

/// encoder layer, post-LN: d_bias of linear1 (ffn.w_1).
#[rustfmt::skip]
fn pytorch_encoder_post_d_b_1() -> Matrix {
    array![
        [0.10934315021746532, 0.032049987190662335, 0.03841294409453705, 0.01919593989200273, -0.006546910960855506, -0.033607527631174215, -0.06156969819322791, 0.07122147002140768, 0.15708747926527283, 0.0081470519058743]
    ]
}

/// What a mistake gives: encoder layer, post-LN, no residual.
#[rustfmt::skip]
fn mistake_encoder_post_no_residual() -> Matrix {
    array![
        [0.0756839916337329, -1.3771572520453361, -0.022418362068409345, 1.25246291847989, -0.8093929877163203, 0.7530810271850866],
        [0.3777675469721977, -1.5193991968118898, 0.09590066450095844, 0.9798625587028998, -0.8438514906997084, 0.8267335946800727],
        [-0.0871652686683036, -1.5426295908517385, -0.043154538928411285, 1.3352929524183939, -0.5626086544408778, 0.687532680724421],
        [0.43897435503436266, -1.8507696575720969, 0.051445547110927844, 1.0589416379311554, -0.5053422976249198, 0.6753188224250511]
    ]
}

/// What a mistake gives: encoder layer, post-LN, no relu.
#[rustfmt::skip]
fn mistake_encoder_post_no_relu() -> Matrix {
    array![
        [-2.181231903400029, 0.41103568711512734, 0.406591387566576, 0.3061970612952215, -0.27332097476163586, 0.8982890575124198],
        [-0.4213983660153593, -1.4422517729683397, 1.1007101791972804, -0.534513575425079, 1.2096975815072797, -0.07855409873046622],
        [-1.0895329688741782, -0.19530749599998593, -0.1553750150277763, 0.5920857718765866, -0.7768187202546828, 1.258898555045177],
        [-0.0620764380900084, 0.7722251998457826, -0.20908765393771866, 0.5419741512528811, -1.5544910038406026, 0.8008840877628075]
    ]
}

/// encoder layer, pre-LN (norm_first=True): output.
#[rustfmt::skip]
fn pytorch_encoder_pre() -> Matrix {
    array![
        [-1.5563205912328364, -0.5318849847058267, 1.2855494263114031, 0.7514313225805946, -0.6595518767437754, 2.289406391007559],
        [-0.4271219355150704, -1.8998974430224855, 1.306698411274058, -0.5474329979844992, 0.6931906386650595, 1.0819266910316006],
        [-1.3544928224481334, -0.6750736020419028, 0.6401310278096172, 0.6515432406895569, -1.0806263678858405, 2.3654465678550585],
        [-0.37069876336954805, -0.15743887313933647, 0.36627494760666374, 0.752164632194789, -1.0943157986861596, 1.6501467384792443]
    ]
}

/// encoder layer, pre-LN: d_x for the upstream gradient lin(4, 6, 0.5, -0.7).
#[rustfmt::skip]
fn pytorch_encoder_pre_d_x() -> Matrix {
    array![
        [0.5355697089792344, 0.02584324123842363, 1.1923822446645762, -0.2671968801576562, 0.22243129671911843, 0.5083616929041296],
        [0.44548236333002217, 0.08442702704021317, 0.1667254575297508, -0.2705265158881294, 0.01657338769219186, -0.10355128492143971],
        [0.4102834413577103, -0.7184532344726121, -0.3118125270586892, 0.6826298530578214, -1.7866705058908692, 0.18489253822403096],
        [-0.2920933199089041, -1.0096033649683187, -0.5608089228330242, 0.900666554454299, -2.7854338816664077, 0.32988163057452935]
    ]
}

/// encoder layer, pre-LN: d_gamma of norm_1.
#[rustfmt::skip]
fn pytorch_encoder_pre_d_gamma_1() -> Matrix {
    array![
        [-1.0660529112271513, -0.418362648995272, -0.7405784164374688, 1.6802293502191128, 0.14919281371754514, -0.14294098048186138]
    ]
}

/// encoder layer, pre-LN: d_bias of linear1 (ffn.w_1).
#[rustfmt::skip]
fn pytorch_encoder_pre_d_b_1() -> Matrix {
    array![
        [-0.15942028985507237, 0.0, 0.36911231884057977, 0.0, -0.09012681159420294, 0.0, -0.0009057971014491129, 0.051086956521739085, 0.0020380434782607815, 0.0]
    ]
}

/// What a mistake gives: encoder layer, pre-LN, no residual.
#[rustfmt::skip]
fn mistake_encoder_pre_no_residual() -> Matrix {
    array![
        [-0.2835072201091295, -0.6333592713330286, -0.21105973409775253, 0.5947617031966025, -0.49632070881821627, 0.3249613423102665],
        [0.08808201425228411, -0.9630260554770887, -0.005851163431787815, 0.3964483148846571, -0.6763921166096087, 0.5755606826549656],
        [-0.36378192158146805, -0.5550155595994074, -0.23937070890882153, 0.5831526304902895, -0.42874141781764313, 0.23689096079073396],
        [-0.30747847307789034, -0.6356451276324946, -0.22540754119903947, 0.6035951370858148, -0.4493698431697553, 0.26991165956921565]
    ]
}

/// What a mistake gives: encoder layer, pre-LN, no relu.
#[rustfmt::skip]
fn mistake_encoder_pre_no_relu() -> Matrix {
    array![
        [-3.0302657778129234, 0.5994626767107941, 1.6360641539203296, 0.4664450009985466, -0.2433536386037018, 1.9296861721531813],
        [-1.5965069292920067, -1.4762421269057793, 1.5955369008334739, -0.08982289906085618, 1.094481438899022, 0.733015408911508],
        [-2.4536728416397295, 0.36629590031167614, 0.9209366741898708, 0.17228856695104322, -0.7220576012278244, 2.157495239047226],
        [-1.0563720326478356, 0.8788736971102681, 0.6221906368063251, 0.4005004068423784, -1.2718972385457372, 2.1693381520327266]
    ]
}

/// What a mistake gives: encoder layer, pre-LN, residual from the normalised input.
#[rustfmt::skip]
fn mistake_encoder_pre_residual_from_norm() -> Matrix {
    array![
        [-1.8846294936593648, -0.8613313712799849, 0.6454088314430088, 0.3508481335518119, -1.1515072492082392, 1.802636809890581],
        [-0.5149082440835495, -1.9253010898607041, 1.1620709339827424, -1.1543377118459985, 0.9909654423817613, 0.3107185493510269],
        [-1.1849133677242962, -1.1919938126458727, -0.11202133851906446, 0.77001395750152, -1.6358187295233642, 2.2882478827974255],
        [0.35010944804091326, 0.21578683958209943, -0.3940591491720158, 0.8892927734423028, -2.7441255619040676, 1.4491230470248024]
    ]
}

/// encoder layer, post-LN, src_key_padding_mask = [F, F, F, T, T]: output.
#[rustfmt::skip]
fn pytorch_encoder_padded() -> Matrix {
    array![
        [2.0206636851001942, -0.28145718561798105, 0.043628622679839954, -1.0354173275083214, -0.8153157082289588, 0.6596577653652321],
        [0.18026578201778265, 1.0628500370073606, 0.6704194700060021, -0.022480165029550584, -1.6944610663151722, 0.4204135561860665],
        [1.9168971532981185, -0.633722201404166, 0.943084609563076, -1.0812987557410592, 0.3799869121440102, -0.6954665396933171],
        [1.7981039219681358, 0.6416206721674895, -0.07169932632953789, -1.6210684870321355, -0.3571315273224106, 0.337395975052561],
        [1.6691174398718358, -0.5919838959335433, -1.0469050358565535, -0.6675078995476789, -0.15989896783137475, 0.966066450804424]
    ]
}

/// What a mistake gives: padded encoder, mask not applied.
#[rustfmt::skip]
fn mistake_encoder_padded_no_mask() -> Matrix {
    array![
        [1.9039052827156029, -0.5617511138182436, 0.15108344443314858, -0.9701679569971329, -0.7836218002161943, 0.7524356416870015],
        [-0.016974194478143273, 0.7701280983366433, 0.7598734153067304, 0.13492166327818197, -1.693779309100119, 0.5361098629649056],
        [1.6313824647688988, -0.6097883596790232, 1.1278832886511538, -1.080922347497577, 0.4793509291534968, -0.7607422834824104],
        [1.6353984643620287, 0.4826944302637717, 0.13447395187671932, -1.6970455596095424, -0.3471045849883816, 0.43944078258557484],
        [1.526655816773356, -0.9692144416774705, -0.9382469534427756, -0.5189771411276956, -0.06874883239829865, 1.017883916706453]
    ]
}

/// decoder layer, post-LN (norm_first=False), causal tgt_mask, memory_key_padding_mask = [F, F, F, F, T]: output.
#[rustfmt::skip]
fn pytorch_decoder_post() -> Matrix {
    array![
        [0.703446096724751, 0.9425179250148842, 0.01434369203074053, 0.011792797621865811, -2.0016046357737745, 0.3705809166258546],
        [0.5553217011486112, -1.507473082743181, 1.2025177677361196, 0.16013978560160377, 0.8085276037173322, -0.9911891919114315],
        [0.1755751465422121, -1.0841759442717431, -0.056124211284598546, 0.1522476293982004, -0.9899489357332631, 2.2652139032535086],
        [1.2362020669024398, 0.2510210138778595, -0.44860394526923, 0.09235835727702926, -1.7699798496735344, 0.7210185758322316]
    ]
}

/// decoder layer, post-LN: d_x for the upstream gradient lin(4, 6, -0.6, 0.8).
#[rustfmt::skip]
fn pytorch_decoder_post_d_x() -> Matrix {
    array![
        [-0.3968263546912061, 0.38201049027126804, -0.34850053470443254, 0.022876695598646458, 0.302758361158315, 0.0793694117208877],
        [-0.5782656282697427, 0.0012303453644069706, -0.24899819327855, 0.06311055039150285, 0.5411886815788335, 0.19885237852038354],
        [-0.4969323407078049, -0.2490433974416189, 0.13559026334460117, -0.13459725353159283, 0.4317291332212202, 0.1758992427862197],
        [-0.5565598243392011, 0.09153779325810918, -0.453626592946134, 0.20302552605307103, 0.12905757126233935, 0.5294438082528996]
    ]
}

/// decoder layer, post-LN: d_memory.
#[rustfmt::skip]
fn pytorch_decoder_post_d_memory() -> Matrix {
    array![
        [0.013335570852963871, 0.1446349708169894, -0.06527385742828781, 0.0013066448490129494, 0.09035641144536777, -0.06879680570537333],
        [0.009935243113529937, 0.037747217099177374, -0.03385224538912763, -0.024936121766126598, 0.06312286694960463, -0.03963681877695914],
        [0.08204362701273796, 0.03049256501561669, -0.11956710751817562, 0.0011851109632557127, 0.08344596633788164, -0.09533512061682141],
        [0.006709316335873553, 0.051438505055792665, -0.03512939012157426, -0.04171292856700265, 0.04454134285201999, -0.056155341487459126],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    ]
}

/// decoder layer, post-LN: d_gamma of norm_3.
#[rustfmt::skip]
fn pytorch_decoder_post_d_gamma_3() -> Matrix {
    array![
        [0.0692336077927721, -0.3322217907664619, -0.44844823676689405, 0.05420267286005382, -1.0046084806262399, 1.0740327228353381]
    ]
}

/// decoder layer, post-LN: d_bias of multihead_attn.out_proj (cross_attention.w_o).
#[rustfmt::skip]
fn pytorch_decoder_post_d_b_o_cross() -> Matrix {
    array![
        [-0.6036671112581112, -0.2614589265904463, 0.05025278782294912, 0.19089534872821695, 0.22197829417309686, 0.4019996071242947]
    ]
}

/// What a mistake gives: decoder layer, post-LN, no causal mask.
#[rustfmt::skip]
fn mistake_decoder_post_no_causal_mask() -> Matrix {
    array![
        [1.0355664493887133, -0.1527692419340132, -0.48359530518429594, 0.8977581089889293, -1.794453672621706, 0.6348654182257367],
        [-0.23410252438619802, -1.543890040860374, 1.7789882733884796, -0.1531769478617475, 0.5044770408461322, 0.022634261678315393],
        [-0.40979200495438206, -0.9036086303298901, 0.09136199333451987, 0.40753906749248014, -0.9984785305886527, 2.337351898578903],
        [1.2362020669024396, 0.2510210138778597, -0.4486039452692302, 0.09235835727702893, -1.7699798496735344, 0.7210185758322316]
    ]
}

/// What a mistake gives: decoder layer, post-LN, no memory mask.
#[rustfmt::skip]
fn mistake_decoder_post_no_memory_mask() -> Matrix {
    array![
        [0.6693892313976322, 0.9285825730914652, 0.09254272841624853, 0.06173276986255057, -2.0298777910423804, 0.31622210635039927],
        [0.4532739540351257, -1.462971321633964, 1.18400901335494, 0.19951342707141234, 0.9370487452437509, -1.0735983302867202],
        [0.1319197711978271, -1.2655929883299255, 0.15354296764395745, 0.048487782616007134, -0.81702781359106, 2.2279777294704983],
        [1.2894558051429013, 0.15687464807027002, -0.34281761376920716, 0.07794102940337297, -1.7727787597163802, 0.6658148208049324]
    ]
}

/// What a mistake gives: decoder layer, post-LN, cross-attention over the decoder's own input.
#[rustfmt::skip]
fn mistake_decoder_post_cross_over_self() -> Matrix {
    array![
        [0.3049616027174439, 0.8231587701128432, -0.18107258077873026, 0.5985716735038914, -2.0985321180681713, 0.6844222978589254],
        [0.41818116797731264, -1.20011022374661, 1.3159247150952111, -0.20352280346158622, 1.0584371062034466, -1.1777013431044652],
        [0.5454748173675203, -0.6263030805386962, -0.4159200023372544, 0.25018812998175427, -1.413545939067955, 2.015117741221617],
        [1.0383765764513162, 0.07388085283389774, -0.4955869828462881, 0.3011109937429616, -1.8292794333584197, 1.0592449383442557]
    ]
}

/// What a mistake gives: decoder layer, post-LN, no residual.
#[rustfmt::skip]
fn mistake_decoder_post_no_residual() -> Matrix {
    array![
        [0.4654416169915011, -1.7791776767797192, 1.2311312094599034, -0.5955228339312575, 0.42951888165298624, 0.6127405142840758],
        [0.905569481948807, -1.4585006726488279, -0.12026514928410495, 0.4682999890847228, -0.9142115866928308, 1.4635969683253915],
        [0.7283468514634086, -1.7071433687180029, 0.14340434756516918, 0.4629210827672121, -0.6757667072990486, 1.433569686951488],
        [0.9962365209293403, -1.5491841379941729, 0.13307110963467683, 0.19453629548496904, -0.8083827033906523, 1.359956551726251]
    ]
}

/// decoder layer, pre-LN (norm_first=True), causal tgt_mask, memory_key_padding_mask = [F, F, F, F, T]: output.
#[rustfmt::skip]
fn pytorch_decoder_pre() -> Matrix {
    array![
        [0.554768101809892, -0.21214755295617493, -1.330230788268465, -2.2783087380963347, -2.291247669473605, -0.9664344578970905],
        [1.228725315346885, -2.491952120452191, -0.33828724284584616, -1.043839330507367, 0.10246295096294818, -1.8792220628623184],
        [0.7833948254603358, -1.0445403631836783, 0.2951850140260255, -0.8443459758752145, -0.9511213241099385, 0.9141213838447919],
        [2.8932678526919298, -2.173433383480995, -0.6425344006797347, -0.8640405791300199, -1.6940222594036087, 0.9900990869146957]
    ]
}

/// decoder layer, pre-LN: d_x for the upstream gradient lin(4, 6, -0.6, 0.8).
#[rustfmt::skip]
fn pytorch_decoder_pre_d_x() -> Matrix {
    array![
        [-1.1689819133031554, 0.07504355328527113, -1.0998801177523756, 0.632059449674025, -0.46587266702912744, -0.6593248266137689],
        [-0.20634758739315268, 0.043120886800591146, -0.022653666760791114, -0.5343037511444665, 0.5520753213955161, -0.3275433768107408],
        [0.18625152267683007, 0.6927828931844133, 0.07007039262163856, -0.9044354295793287, 2.1085536537936425, -0.4575708587841515],
        [0.6966174310271477, 0.6812460319574015, 0.9995016731019177, -0.7838701158662259, 1.905099186889226, 0.38836231462966364]
    ]
}

/// decoder layer, pre-LN: d_memory.
#[rustfmt::skip]
fn pytorch_decoder_pre_d_memory() -> Matrix {
    array![
        [-0.1401376246014865, 0.2028547861126338, 0.045149209206426864, -0.04261312898808146, 0.3746624311033499, 0.07731316033564001],
        [0.0272889573900156, 0.13528301233335494, -0.08153921209120527, 0.01730854993907442, 0.17150719023873828, -0.03935321211651543],
        [0.020078501093186756, 0.20389046236586447, -0.1105540822342633, -0.055085986967440895, 0.07618842622704669, -0.0796197827549961],
        [-0.028931916009834906, 0.1676646220022322, -0.060094310780898316, -0.03150677105962235, 0.16733500709126775, -0.058568078288608175],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    ]
}

/// decoder layer, pre-LN: d_gamma of norm_3.
#[rustfmt::skip]
fn pytorch_decoder_pre_d_gamma_3() -> Matrix {
    array![
        [-0.3743056060156754, 0.998868182734329, -0.4008756455631117, -0.23987006077628323, 0.25308017240933034, -0.17617535314503613]
    ]
}

/// decoder layer, pre-LN: d_bias of multihead_attn.out_proj (cross_attention.w_o).
#[rustfmt::skip]
fn pytorch_decoder_pre_d_b_o_cross() -> Matrix {
    array![
        [-0.30092051699037203, 0.09139101528650595, 0.6332172243185227, 0.6401455703198077, 0.25690357272040626, 1.0792631343451289]
    ]
}

/// What a mistake gives: decoder layer, pre-LN, no causal mask.
#[rustfmt::skip]
fn mistake_decoder_pre_no_causal_mask() -> Matrix {
    array![
        [1.8209226025617626, -0.6153459786734035, -1.7819243875361268, -1.030210357955856, -2.236712396725814, -0.09015559108434057],
        [-0.1348767767894939, -1.563893273387509, 0.34088605763585184, -0.6249495419537978, 0.25812331789397336, -1.4024237016091772],
        [-0.1566404173672178, -0.6023230733757965, 0.24952389559521848, -0.06958339562818554, -1.2375344075916312, 1.3521419446003924],
        [2.8932678526919307, -2.1734333834809956, -0.6425344006797341, -0.8640405791300201, -1.6940222594036087, 0.990099086914696]
    ]
}

/// What a mistake gives: decoder layer, pre-LN, no memory mask.
#[rustfmt::skip]
fn mistake_decoder_pre_no_memory_mask() -> Matrix {
    array![
        [0.6493451295022583, -0.36764893630874645, -1.0263786603323295, -2.3879613412823346, -2.071590391658735, -1.0268639031973992],
        [1.1592478615914779, -2.5162509052209514, -0.14880863810739964, -1.1436099912071676, 0.3973270180410267, -2.140182338116434],
        [0.7768006199374629, -1.0755530930543207, 0.502429178726451, -1.0566213709252472, -0.6035805965474514, 0.6209806446670596],
        [2.7636193623895515, -2.3226400598532786, -0.31450753361761863, -0.9980540086504209, -1.30913429740423, 0.7528968618062635]
    ]
}

/// What a mistake gives: decoder layer, pre-LN, cross-attention over the decoder's own input.
#[rustfmt::skip]
fn mistake_decoder_pre_cross_over_self() -> Matrix {
    array![
        [-0.46060150038530706, 0.5195691442678317, -1.4705537272743565, -2.5625646758192517, -2.673932333168818, 0.1805948829252414],
        [0.6386218049744743, -3.3406530066772384, -0.14375174000306035, -0.9004693904994607, -0.5833586808259463, -0.135584380901409],
        [-0.3881386506982365, 0.3223362326171202, -0.5548185631673355, -0.20200659847528624, -1.5850945935895235, 1.9177183500652064],
        [1.3817801317934695, -0.837467087426328, -1.5170180602674082, -0.1584989593086275, -2.305996071184613, 2.2092566983878035]
    ]
}

/// What a mistake gives: decoder layer, pre-LN, no residual.
#[rustfmt::skip]
fn mistake_decoder_pre_no_residual() -> Matrix {
    array![
        [0.5746166622518658, -1.2997741823458635, 0.6967307407799107, -0.9092211425473096, -0.030612824390558166, -0.068168849732499],
        [0.9679832238409207, -1.52972483835794, 0.5943095965622718, -0.7962060709054365, -0.4284265631910146, 0.3698171931529715],
        [0.5138842617730971, -1.2638554611879966, 0.635227545387568, -0.8292085647727605, -0.22393613648691152, 0.1149233748351452],
        [1.2563675658781415, -1.763338216454171, 0.7630741497421956, -0.9776918455972925, -0.43411207942936947, 0.4064321855879138]
    ]
}

/// What a mistake gives: decoder layer, pre-LN, residual from the normalised input.
#[rustfmt::skip]
fn mistake_decoder_pre_residual_from_norm() -> Matrix {
    array![
        [1.3221789810697593, 1.1476180476332416, -0.5414148998793713, -0.3011900243730653, -2.4317036990443586, 0.26692035346460974],
        [1.4315807285661488, -2.290944018697431, 0.8555506993195965, -0.3803202163808017, 1.8149613346097047, -1.730516207652614],
        [-0.25990079437415603, -0.5133176097096319, 0.190261553462982, -0.21662641241716307, -0.7797719784427877, 1.84871372964438],
        [1.990158266467234, 0.12501966874607495, -0.5791764347290522, -0.2924940148238917, -1.6638609503888713, 1.057514592807219]
    ]
}
