//! Lesson 05: LayerNorm and its backward pass, the feed-forward network, the encoder and
//! decoder layers, post-LN and pre-LN.
//!
//! The builders take the layers as [`Norm`], [`Ffn`],
//! [`Encoder`] and [`Decoder`] of borrowed
//! weights, and compute LayerNorm, the FFN and multi-head attention themselves.

use crate::attention::linear;
use crate::{differing, told_apart};
use crate::multi_head_attention::{self, Layer, LinearWeights};
use course_common::ndarray::{Array2, Axis};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::encoder_layer::*;
use course_harness::{Cause, CauseArg};
use course_harness::{Groups, Misconception};

type Mask = Array2<bool>;

/// A LayerNorm's parameters.
#[derive(Clone, Copy)]
pub struct Norm<'a> {
    /// γ, `(d_model,)`.
    pub gamma: &'a Vector,
    /// β, `(d_model,)`.
    pub beta: &'a Vector,
    /// ε, inside the square root.
    pub eps: Float,
}

/// The feed-forward network's two layers.
#[derive(Clone, Copy)]
pub struct Ffn<'a> {
    /// The first layer, `(d_ff, d_model)`.
    pub w_1: LinearWeights<'a>,
    /// The second layer, `(d_model, d_ff)`.
    pub w_2: LinearWeights<'a>,
}

/// Where a layer's LayerNorms sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// After each residual addition: `norm(x + F(x))`.
    Post,
    /// Before each sublayer: `x + F(norm(x))`.
    Pre,
}

/// An encoder layer's parts.
#[derive(Clone, Copy)]
pub struct Encoder<'a> {
    /// The self-attention.
    pub self_attention: Layer<'a>,
    /// The feed-forward network.
    pub ffn: Ffn<'a>,
    /// The first LayerNorm.
    pub norm_1: Norm<'a>,
    /// The second LayerNorm.
    pub norm_2: Norm<'a>,
    /// Post-LN or pre-LN.
    pub position: Position,
}

/// A decoder layer's parts.
#[derive(Clone, Copy)]
pub struct Decoder<'a> {
    /// The masked self-attention.
    pub self_attention: Layer<'a>,
    /// The cross-attention over the memory.
    pub cross_attention: Layer<'a>,
    /// The feed-forward network.
    pub ffn: Ffn<'a>,
    /// The first LayerNorm.
    pub norm_1: Norm<'a>,
    /// The second LayerNorm.
    pub norm_2: Norm<'a>,
    /// The third LayerNorm.
    pub norm_3: Norm<'a>,
    /// Post-LN or pre-LN.
    pub position: Position,
}

/// The mean of each row, as a column.
fn row_mean(m: &Matrix) -> Matrix {
    (m.sum_axis(Axis(1)) / m.ncols() as Float).insert_axis(Axis(1))
}

/// Each row normalised over its features; `unbiased` divides the variance by d − 1,
/// `eps_on_std` adds ε to the standard deviation instead of the variance.
fn variant(x: &Matrix, unbiased: bool, eps_on_std: bool, eps: Float) -> Matrix {
    let d = x.ncols() as Float;
    let centred = x - &row_mean(x);
    let divisor = if unbiased { d - 1.0 } else { d };
    let variance =
        (centred.mapv(|v| v * v).sum_axis(Axis(1)) / divisor).insert_axis(Axis(1));
    let scale = if eps_on_std {
        variance.mapv(|v| 1.0 / (v.sqrt() + eps))
    } else {
        variance.mapv(|v| 1.0 / (v + eps).sqrt())
    };
    centred * &scale
}

/// x̂: each row minus its mean, over √(σ² + ε) with σ² the biased variance.
pub fn normalise(x: &Matrix, eps: Float) -> Matrix {
    variant(x, false, false, eps)
}

/// LayerNorm, `γ ⊙ x̂ + β`.
pub fn layer_norm(x: &Matrix, norm: &Norm) -> Matrix {
    normalise(x, norm.eps) * norm.gamma + norm.beta
}

/// What `LayerNorm::forward(x)` (or, with γ = 1 and β = 0, `normalise_rows`) returns
/// with the unbiased variance or std, ε on the std or left out, the columns
/// normalised, or γ and β left out, swapped or applied first.
pub fn layer_norm_mistakes(x: &Matrix, norm: &Norm) -> Vec<Misconception> {
    let (gamma, beta, eps) = (norm.gamma, norm.beta, norm.eps);
    let affine = |m: Matrix| m * gamma + beta;
    let x_hat = normalise(x, eps);
    let mut mistakes = vec![
        // The unbiased variance first: on a row whose std is 1/2, such as [1, 0, 0, 0],
        // √(σ² + ε) and σ + ε agree to ε², and the name given must then be the one that is
        // true of both (see `told_apart`).
        Misconception {
            cause: Cause::harness("unbiased-variance"),
            result: affine(variant(x, true, false, eps)),
        },
        Misconception {
            cause: Cause::harness("unbiased-std-plus-eps"),
            result: affine(variant(x, true, true, eps)),
        },
        Misconception {
            cause: Cause::harness("annotated-layer-norm"),
            result: affine(variant(x, true, true, 1e-6)),
        },
        Misconception {
            cause: Cause::harness("eps-on-std"),
            result: affine(variant(x, false, true, eps)),
        },
        Misconception {
            cause: Cause::harness("eps-left-out"),
            result: affine(variant(x, false, false, 0.0)),
        },
    ];
    if x.nrows() > 1 {
        mistakes.push(Misconception {
            cause: Cause::harness("columns-normalised"),
            result: affine(normalise(&x.t().to_owned(), eps).t().to_owned()),
        });
    }
    mistakes.extend([
        Misconception {
            cause: GAMMA_BETA_SWAPPED,
            result: &x_hat * beta + gamma,
        },
        Misconception {
            cause: Cause::harness("beta-not-added"),
            result: &x_hat * gamma,
        },
        Misconception {
            cause: Cause::harness("gamma-not-applied"),
            result: &x_hat + beta,
        },
        Misconception {
            cause: Cause::harness("affine-before-normalising"),
            result: normalise(&(x * gamma + beta), eps),
        },
    ]);
    told_apart(differing(&layer_norm(x, norm), mistakes))
}

/// LayerNorm's backward pass for x, by hand.
fn layer_norm_backward(x: &Matrix, norm: &Norm, d_y: &Matrix) -> Matrix {
    let centred = x - &row_mean(x);
    let r = row_mean(&centred.mapv(|v| v * v)).mapv(|v| 1.0 / (v + norm.eps).sqrt());
    let x_hat = &centred * &r;
    let g = d_y * norm.gamma;
    (&g - &row_mean(&g) - &x_hat * &row_mean(&(&g * &x_hat))) * &r
}

/// The wrong gradients of `LayerNorm::backward`.
pub struct LayerNormBackwardMistakes {
    /// For `d_x`: μ and σ² as constants, one of their terms missing, γ missing.
    pub d_x: Vec<Misconception>,
    /// For `d_gamma` (a `(1, d_model)` row): dY ⊙ x instead of dY ⊙ x̂.
    pub d_gamma: Vec<Misconception>,
}

impl From<LayerNormBackwardMistakes> for Groups {
    fn from(mistakes: LayerNormBackwardMistakes) -> Groups {
        Groups::new([("d_x", mistakes.d_x), ("d_gamma", mistakes.d_gamma)])
    }
}

/// What `LayerNorm::backward(x, d_y)` returns with μ and σ² treated as constants, the
/// variance's or the mean's term missing, γ missing, or dγ summed with x.
pub fn layer_norm_backward_mistakes(
    x: &Matrix,
    norm: &Norm,
    d_y: &Matrix,
) -> LayerNormBackwardMistakes {
    let centred = x - &row_mean(x);
    let r = row_mean(&centred.mapv(|v| v * v)).mapv(|v| 1.0 / (v + norm.eps).sqrt());
    let x_hat = &centred * &r;
    let g = d_y * norm.gamma;
    let d_x = vec![
        // One missing term before both: where an upstream gradient makes one term zero
        // (dY = 1 with γ = 1 zeroes the variance's), a result without both terms is a
        // result without the other one, and that is what the check can say.
        Misconception {
            cause: Cause::harness("mean-term-missing"),
            result: (&g - &(&x_hat * &row_mean(&(&g * &x_hat)))) * &r,
        },
        Misconception {
            cause: Cause::harness("variance-term-missing"),
            result: (&g - &row_mean(&g)) * &r,
        },
        Misconception {
            cause: Cause::harness("mean-variance-as-constants"),
            result: &g * &r,
        },
        Misconception {
            cause: Cause::harness("gamma-missing-in-backward"),
            result: (d_y - &row_mean(d_y) - &x_hat * &row_mean(&(d_y * &x_hat))) * &r,
        },
    ];
    let d_gamma = vec![Misconception {
        cause: Cause::harness("d-gamma-with-x"),
        result: (d_y * x).sum_axis(Axis(0)).insert_axis(Axis(0)),
    }];
    LayerNormBackwardMistakes {
        d_x: told_apart(differing(&layer_norm_backward(x, norm, d_y), d_x)),
        d_gamma: differing(
            &(d_y * &x_hat).sum_axis(Axis(0)).insert_axis(Axis(0)),
            d_gamma,
        ),
    }
}

/// GELU by its tanh approximation (BERT's, GPT-2's).
fn gelu_tanh(v: Float) -> Float {
    let c: Float = (2.0 / std::f64::consts::PI).sqrt();
    0.5 * v * (1.0 + (c * (v + 0.044715 * v * v * v)).tanh())
}

/// The exact GELU, x·Φ(x) = x·(1 + erf(x/√2))/2, with erf from Numerical Recipes'
/// erfc (fractional error below 1.2e-7, well inside the tolerance used to name a
/// mistake).
fn gelu_erf(v: Float) -> Float {
    let x = v / std::f64::consts::SQRT_2;
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.26551223
        + t * (1.00002368
            + t * (0.37409196
                + t * (0.09678418
                    + t * (-0.18628806
                        + t * (0.27886807
                            + t * (-1.13520398
                                + t * (1.48851587
                                    + t * (-0.82215223 + t * 0.17087277))))))));
    let erfc = t * poly.exp();
    let erf = if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 };
    0.5 * v * (1.0 + erf)
}

/// The FFN with `activation` in place of the ReLU: `(hidden, output)`.
fn ffn_with(ffn: &Ffn, x: &Matrix, activation: fn(Float) -> Float) -> (Matrix, Matrix) {
    let hidden = linear(x, ffn.w_1.weight, ffn.w_1.bias).mapv(activation);
    let output = linear(&hidden, ffn.w_2.weight, ffn.w_2.bias);
    (hidden, output)
}

fn relu(v: Float) -> Float {
    v.max(0.0)
}

/// The FFN, `max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2`.
pub fn feed_forward(ffn: &Ffn, x: &Matrix) -> Matrix {
    ffn_with(ffn, x, relu).1
}

/// The FFN's hidden layer, `max(0, x W_1ᵀ + b_1)`, recorded for the suite.
pub fn ffn_hidden(ffn: &Ffn, x: &Matrix) -> Matrix {
    ffn_with(ffn, x, relu).0
}

/// The wrong results of `FeedForward::forward`.
pub struct FfnMistakes {
    /// For `hidden`: the pre-activation, GELU.
    pub hidden: Vec<Misconception>,
    /// For `output`: no ReLU, a ReLU on the output too, GELU.
    pub output: Vec<Misconception>,
}

impl From<FfnMistakes> for Groups {
    fn from(mistakes: FfnMistakes) -> Groups {
        Groups::new([("hidden", mistakes.hidden), ("output", mistakes.output)])
    }
}

/// What `FeedForward::forward(x)` returns without the ReLU, with GELU in its place, or
/// with a ReLU on the output too.
pub fn ffn_mistakes(ffn: &Ffn, x: &Matrix) -> FfnMistakes {
    let (hidden, output) = ffn_with(ffn, x, relu);
    let (pre_activation, no_relu) = ffn_with(ffn, x, |v| v);
    let (tanh_hidden, tanh_output) = ffn_with(ffn, x, gelu_tanh);
    let (erf_hidden, erf_output) = ffn_with(ffn, x, gelu_erf);
    FfnMistakes {
        hidden: differing(
            &hidden,
            vec![
                Misconception {
                    cause: Cause::harness("hidden-pre-activation"),
                    result: pre_activation,
                },
                Misconception {
                    cause: GELU_TANH,
                    result: tanh_hidden,
                },
                Misconception {
                    cause: GELU_ERF,
                    result: erf_hidden,
                },
            ],
        ),
        output: differing(
            &output,
            vec![
                Misconception {
                    cause: Cause::harness("ffn-no-relu"),
                    result: no_relu,
                },
                Misconception {
                    cause: Cause::harness("relu-on-output"),
                    result: output.mapv(relu),
                },
                Misconception {
                    cause: GELU_TANH,
                    result: tanh_output,
                },
                Misconception {
                    cause: GELU_ERF,
                    result: erf_output,
                },
            ],
        ),
    }
}

/// The FFN's backward pass for x, by hand, with the ReLU's gradient or without it.
fn ffn_backward(ffn: &Ffn, x: &Matrix, d_output: &Matrix, relu_gradient: bool) -> Matrix {
    let hidden = linear(x, ffn.w_1.weight, ffn.w_1.bias).mapv(relu);
    let d_hidden = d_output.dot(ffn.w_2.weight);
    let d_pre = if relu_gradient {
        d_hidden * &hidden.mapv(|h| if h > 0.0 { 1.0 } else { 0.0 })
    } else {
        d_hidden
    };
    d_pre.dot(ffn.w_1.weight)
}

/// What `FeedForward::backward(x, forward, d_output).d_x` is without the ReLU's
/// gradient.
pub fn ffn_backward_mistakes(
    ffn: &Ffn,
    x: &Matrix,
    d_output: &Matrix,
) -> Vec<Misconception> {
    differing(
        &ffn_backward(ffn, x, d_output, true),
        vec![Misconception {
            cause: Cause::harness("relu-gradient-missing"),
            result: ffn_backward(ffn, x, d_output, false),
        }],
    )
}

/// What a block adds back around its sublayer: its input (right), the normalised
/// input (pre-LN only: a mistake) or nothing (a mistake).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Skip {
    Input,
    Normalised,
    Nothing,
}

/// One residual block: post-LN `norm(skip + F(input))`, pre-LN `skip + F(norm(input))`.
fn block(
    position: Position,
    input: &Matrix,
    norm: &Norm,
    skip: Skip,
    sublayer: impl Fn(&Matrix) -> Matrix,
) -> Matrix {
    let added = |normalised: &Matrix, f: Matrix| match skip {
        Skip::Input => input + &f,
        Skip::Normalised => normalised + &f,
        Skip::Nothing => f,
    };
    match position {
        Position::Post => layer_norm(&added(input, sublayer(input)), norm),
        Position::Pre => {
            let a = layer_norm(input, norm);
            let f = sublayer(&a);
            added(&a, f)
        }
    }
}

/// One residual block, as its residual mistakes name it: its sublayer's name, its
/// input's, its LayerNorm's and its sublayer's symbol.
struct Block {
    name: Cause,
    input: &'static str,
    norm: &'static str,
    f: &'static str,
}

impl Block {
    /// The arguments of the block's residual causes, kept for the process (a builder
    /// names a few blocks a few times).
    fn args(&self) -> &'static [(&'static str, CauseArg)] {
        Box::leak(Box::new([
            ("name", CauseArg::Message(self.name.id())),
            ("input", CauseArg::Text(self.input)),
            ("norm", CauseArg::Text(self.norm)),
            ("f", CauseArg::Text(self.f)),
        ]))
    }

    /// Post-LN without the residual: `norm(F(input))`.
    fn post_missing(&self) -> Cause {
        Cause::harness("residual-post-missing").with(self.args())
    }

    /// Pre-LN without the residual: `F(norm(input))`.
    fn pre_missing(&self) -> Cause {
        Cause::harness("residual-pre-missing").with(self.args())
    }

    /// Pre-LN with the normalised input on the residual path.
    fn pre_normalised(&self) -> Cause {
        Cause::harness("residual-pre-normalised").with(self.args())
    }
}

const SELF_ATTENTION: Cause = Cause::harness("block-self-attention");
const CROSS_ATTENTION: Cause = Cause::harness("block-cross-attention");
const FFN: Cause = Cause::harness("block-ffn");

const ENCODER_BLOCKS: [Block; 2] = [
    Block {
        name: SELF_ATTENTION,
        input: "x",
        norm: "norm_1",
        f: "SA",
    },
    Block {
        name: FFN,
        input: "h",
        norm: "norm_2",
        f: "FFN",
    },
];

const DECODER_BLOCKS: [Block; 3] = [
    Block {
        name: SELF_ATTENTION,
        input: "x",
        norm: "norm_1",
        f: "SA",
    },
    Block {
        name: CROSS_ATTENTION,
        input: "h_1",
        norm: "norm_2",
        f: "CA",
    },
    Block {
        name: FFN,
        input: "h_2",
        norm: "norm_3",
        f: "FFN",
    },
];

/// One residual dropped, or (pre-LN) taken from the normalised input, for each block
/// of a layer computed by `layer(skips)`.
fn residual_mistakes<const N: usize>(
    position: Position,
    blocks: &[Block; N],
    layer: impl Fn([Skip; N]) -> Matrix,
) -> Vec<Misconception> {
    let mut mistakes = Vec::new();
    for (i, causes) in blocks.iter().enumerate() {
        let mut skips = [Skip::Input; N];
        skips[i] = Skip::Nothing;
        let cause = match position {
            Position::Post => causes.post_missing(),
            Position::Pre => causes.pre_missing(),
        };
        mistakes.push(Misconception {
            cause,
            result: layer(skips),
        });
        if position == Position::Pre {
            skips[i] = Skip::Normalised;
            mistakes.push(Misconception {
                cause: causes.pre_normalised(),
                result: layer(skips),
            });
        }
    }
    mistakes
}

/// The other position.
fn other(position: Position) -> Position {
    match position {
        Position::Post => Position::Pre,
        Position::Pre => Position::Post,
    }
}

/// A slip in a whole layer.
#[derive(Clone, Copy)]
struct Slips<const N: usize> {
    position: Position,
    skips: [Skip; N],
    relu: bool,
    self_mask: bool,
    memory_mask: bool,
    queries_from_input: bool,
    cross_over_self: bool,
}

impl<const N: usize> Slips<N> {
    fn none(position: Position) -> Self {
        Self {
            position,
            skips: [Skip::Input; N],
            relu: true,
            self_mask: true,
            memory_mask: true,
            queries_from_input: false,
            cross_over_self: false,
        }
    }
}

fn encoder_with(
    layer: &Encoder,
    x: &Matrix,
    mask: Option<&Mask>,
    slips: Slips<2>,
) -> Matrix {
    let mask = mask.filter(|_| slips.self_mask);
    let activation: fn(Float) -> Float = if slips.relu { relu } else { |v| v };
    let h = block(slips.position, x, &layer.norm_1, slips.skips[0], |a| {
        multi_head_attention::forward(&layer.self_attention, a, a, mask)
    });
    block(slips.position, &h, &layer.norm_2, slips.skips[1], |a| {
        ffn_with(&layer.ffn, a, activation).1
    })
}

/// `EncoderLayer::forward(x, mask).output`, written out with this crate's LayerNorm,
/// attention and FFN: what the tests compare a layer with, recorded.
pub fn encoder_forward(layer: &Encoder, x: &Matrix, mask: Option<&Mask>) -> Matrix {
    encoder_with(layer, x, mask, Slips::none(layer.position))
}

/// What `EncoderLayer::forward(x, mask).output` is with the other LayerNorm position,
/// no residuals, no ReLU, a residual missing or (pre-LN) taken from the normalised
/// input, or the mask not passed.
pub fn encoder_mistakes(
    layer: &Encoder,
    x: &Matrix,
    mask: Option<&Mask>,
) -> Vec<Misconception> {
    let position = layer.position;
    let right = Slips::none(position);
    let with = |slips: Slips<2>| encoder_with(layer, x, mask, slips);
    let mut mistakes = vec![
        Misconception {
            cause: match position {
                Position::Post => POST_NOT_PRE,
                Position::Pre => PRE_NOT_POST,
            },
            result: with(Slips::none(other(position))),
        },
        Misconception {
            cause: NO_RESIDUAL,
            result: with(Slips {
                skips: [Skip::Nothing; 2],
                ..right
            }),
        },
        Misconception {
            cause: NO_RELU,
            result: with(Slips {
                relu: false,
                ..right
            }),
        },
    ];
    if position == Position::Pre {
        mistakes.push(Misconception {
            cause: RESIDUAL_FROM_NORM,
            result: with(Slips {
                skips: [Skip::Normalised; 2],
                ..right
            }),
        });
    }
    mistakes.extend(residual_mistakes(position, &ENCODER_BLOCKS, |skips| {
        with(Slips { skips, ..right })
    }));
    if mask.is_some() {
        mistakes.push(Misconception {
            cause: Cause::harness("mask-not-reaching-self-attention"),
            result: with(Slips {
                self_mask: false,
                ..right
            }),
        });
    }
    differing(&with(right), mistakes)
}

/// The encoder layer's gradient for x, by hand; `key_value_gradient: false` leaves the
/// self-attention's d_key_value_input out.
fn encoder_d_x(
    layer: &Encoder,
    x: &Matrix,
    mask: Option<&Mask>,
    d_output: &Matrix,
    key_value_gradient: bool,
) -> Matrix {
    let attention = &layer.self_attention;
    let through_attention = |a: &Matrix, d: &Matrix| {
        let (d_query, d_key_value) =
            multi_head_attention::input_gradients(attention, a, a, mask, d);
        if key_value_gradient {
            d_query + d_key_value
        } else {
            d_query
        }
    };
    let (norm_1, norm_2) = (&layer.norm_1, &layer.norm_2);
    match layer.position {
        Position::Post => {
            let norm_1_input = x + &multi_head_attention::forward(attention, x, x, mask);
            let h = layer_norm(&norm_1_input, norm_1);
            let norm_2_input = &h + &feed_forward(&layer.ffn, &h);
            let d_n2 = layer_norm_backward(&norm_2_input, norm_2, d_output);
            let d_h = &d_n2 + &ffn_backward(&layer.ffn, &h, &d_n2, true);
            let d_n1 = layer_norm_backward(&norm_1_input, norm_1, &d_h);
            &d_n1 + &through_attention(x, &d_n1)
        }
        Position::Pre => {
            let a = layer_norm(x, norm_1);
            let h = x + &multi_head_attention::forward(attention, &a, &a, mask);
            let b = layer_norm(&h, norm_2);
            let d_b = ffn_backward(&layer.ffn, &b, d_output, true);
            let d_h = d_output + &layer_norm_backward(&h, norm_2, &d_b);
            let d_a = through_attention(&a, &d_h);
            &d_h + &layer_norm_backward(x, norm_1, &d_a)
        }
    }
}

/// What `EncoderLayer::backward(x, forward, d_output).d_x` is without the
/// self-attention's d_key_value_input.
pub fn encoder_d_x_mistakes(
    layer: &Encoder,
    x: &Matrix,
    mask: Option<&Mask>,
    d_output: &Matrix,
) -> Vec<Misconception> {
    differing(
        &encoder_d_x(layer, x, mask, d_output, true),
        vec![Misconception {
            cause: Cause::harness("d-key-value-input-left-out"),
            result: encoder_d_x(layer, x, mask, d_output, false),
        }],
    )
}

fn decoder_with(
    layer: &Decoder,
    x: &Matrix,
    memory: &Matrix,
    self_mask: Option<&Mask>,
    memory_mask: Option<&Mask>,
    slips: Slips<3>,
) -> Matrix {
    let self_mask = self_mask.filter(|_| slips.self_mask);
    let memory_mask = memory_mask.filter(|_| slips.memory_mask && !slips.cross_over_self);
    let activation: fn(Float) -> Float = if slips.relu { relu } else { |v| v };
    let h_1 = block(slips.position, x, &layer.norm_1, slips.skips[0], |a| {
        multi_head_attention::forward(&layer.self_attention, a, a, self_mask)
    });
    let h_2 = block(slips.position, &h_1, &layer.norm_2, slips.skips[1], |a| {
        let queries = if slips.queries_from_input { x } else { a };
        let keys = if slips.cross_over_self {
            queries
        } else {
            memory
        };
        multi_head_attention::forward(&layer.cross_attention, queries, keys, memory_mask)
    });
    block(slips.position, &h_2, &layer.norm_3, slips.skips[2], |a| {
        ffn_with(&layer.ffn, a, activation).1
    })
}

/// `DecoderLayer::forward(x, memory, self_mask, memory_mask).output`, written out with
/// this crate's LayerNorm, attention and FFN: what the tests compare a layer with,
/// recorded.
pub fn decoder_forward(
    layer: &Decoder,
    x: &Matrix,
    memory: &Matrix,
    self_mask: Option<&Mask>,
    memory_mask: Option<&Mask>,
) -> Matrix {
    let right = Slips::none(layer.position);
    decoder_with(layer, x, memory, self_mask, memory_mask, right)
}

/// What `DecoderLayer::forward(x, memory, self_mask, memory_mask).output` is with the
/// other LayerNorm position, a mask ignored, the cross-attention over the decoder's
/// own stream or queried with x, no residuals, no ReLU, or a residual missing or
/// (pre-LN) taken from the normalised input.
pub fn decoder_mistakes(
    layer: &Decoder,
    x: &Matrix,
    memory: &Matrix,
    self_mask: Option<&Mask>,
    memory_mask: Option<&Mask>,
) -> Vec<Misconception> {
    let position = layer.position;
    let right = Slips::none(position);
    let with =
        |slips: Slips<3>| decoder_with(layer, x, memory, self_mask, memory_mask, slips);
    let mut mistakes = vec![Misconception {
        cause: match position {
            Position::Post => POST_NOT_PRE,
            Position::Pre => PRE_NOT_POST,
        },
        result: with(Slips::none(other(position))),
    }];
    if self_mask.is_some() {
        mistakes.push(Misconception {
            cause: NO_CAUSAL_MASK,
            result: with(Slips {
                self_mask: false,
                ..right
            }),
        });
    }
    if memory_mask.is_some() {
        mistakes.push(Misconception {
            cause: NO_MEMORY_MASK,
            result: with(Slips {
                memory_mask: false,
                ..right
            }),
        });
    }
    mistakes.push(Misconception {
        cause: CROSS_OVER_SELF,
        result: with(Slips {
            cross_over_self: true,
            ..right
        }),
    });
    if position == Position::Pre {
        mistakes.push(Misconception {
            cause: RESIDUAL_FROM_NORM,
            result: with(Slips {
                skips: [Skip::Normalised; 3],
                ..right
            }),
        });
    }
    mistakes.extend([
        Misconception {
            cause: NO_RESIDUAL,
            result: with(Slips {
                skips: [Skip::Nothing; 3],
                ..right
            }),
        },
        Misconception {
            cause: NO_RELU,
            result: with(Slips {
                relu: false,
                ..right
            }),
        },
        Misconception {
            cause: CROSS_QUERIES_FROM_INPUT,
            result: with(Slips {
                queries_from_input: true,
                ..right
            }),
        },
    ]);
    mistakes.extend(residual_mistakes(position, &DECODER_BLOCKS, |skips| {
        with(Slips { skips, ..right })
    }));
    differing(&with(right), mistakes)
}
