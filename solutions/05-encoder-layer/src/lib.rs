// BEGIN STUB
// //! Lesson 05: the encoder layer and the decoder layer.
// END STUB
// BEGIN SOLUTION
//! Lesson 05: the encoder layer and the decoder layer, solved.
// END SOLUTION
//!
//! ```text
//! post-LN (the paper; the course's default):
//!     h = LayerNorm_1(x + SelfAttention(x)),   out = LayerNorm_2(h + FFN(h))
//! pre-LN (GPT-2 onward):
//!     h = x + SelfAttention(LayerNorm_1(x)),   out = h + FFN(LayerNorm_2(h))
//!
//! LayerNorm(x) = γ ⊙ (x − μ) / √(σ² + ε) + β     (μ, σ²: each row's own)
//! FFN(x)       = max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2  (the same MLP on every row)
//! ```
//!
//! | name      | shape              | meaning                                     |
//! |-----------|--------------------|---------------------------------------------|
//! | `x`       | `(n, d_model)`     | one sequence, one row per token             |
//! | `memory`  | `(n_src, d_model)` | the encoder's output, read by the decoder   |
//! | `gamma`   | `(d_model,)`       | LayerNorm's learned scale, `beta` its shift |
//! | `hidden`  | `(n, d_ff)`        | the FFN's inner layer, after the ReLU       |
//! | `output`  | `(n, d_model)`     | every layer keeps the shape of its input    |
//!
//! LayerNorm and the FFN act on each row on its own, so they take any number of
//! rows (a whole batch of sequences stacked into one matrix, in lesson 06). The
//! layers that attend take one sequence at a time, like lesson 03's attention.
//! The book explains every step in chapter 05, "The encoder layer".
// BEGIN STUB
// //!
// //! # How to work on this lesson
// //!
// //! Every `todo!()` below is yours to replace; the `///` comment above it is the
// //! contract (shapes, formula, where the book explains it). Work top to bottom:
// //! LayerNorm, the feed-forward network, the encoder layer, the decoder layer. The
// //! crate uses your lessons 02 (`Linear`, the masks) and 03 (`MultiHeadAttention`).
// //! Check yourself with
// //!
// //! ```text
// //! cargo test -p encoder-layer        # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch      # the graded tests, re-run on every save
// //! ```
// //!
// //! Don't change the signatures or the tests: grading uses only this `src/` folder,
// //! with the course's own copy of everything else (lessons 02 and 03 included).
// END STUB

pub use attention::{Linear, LinearGrads, Mask, causal_mask, padding_mask};
pub use multi_head_attention::{MultiHeadAttention, MultiHeadForward, MultiHeadGrads};

use course_common::ndarray::Axis;
use course_common::{Float, Matrix, Vector};

/// LayerNorm's ε, as in PyTorch's `nn.LayerNorm` (`eps=1e-5`): added to the
/// variance, inside the square root.
pub const LAYER_NORM_EPS: Float = 1e-5;

// ANCHOR: normalised
/// Each row of a matrix, standardised: what [`normalise_rows`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Normalised {
    /// `x̂ = (x − μ) / √(σ² + ε)`, row by row, `(n, d_model)`.
    pub x_hat: Matrix,
    /// `1 / √(σ² + ε)` of each row, `(n,)`: the backward pass needs it.
    pub inv_std: Vector,
}
// ANCHOR_END: normalised

// ANCHOR: normalise_rows
/// Standardises each row of `x` over its features: `x̂ = (x − μ) / √(σ² + ε)`.
///
/// `μ` is the row's mean and `σ²` its **biased** variance (divided by `d_model`,
/// not `d_model − 1`); `ε` goes inside the square root. That is PyTorch's
/// `nn.LayerNorm`. Each row is normalised on its own: rows never mix.
///
/// Shape: `(n, d_model)` in, `x_hat` `(n, d_model)` and `inv_std` `(n,)` out.
/// Panics if `x` has no columns. Book: chapter 05, "Layer normalisation".
pub fn normalise_rows(x: &Matrix, eps: Float) -> Normalised {
    // TODO: per row: the mean (`sum_axis(Axis(1))` / d_model), the centred rows,
    //       the biased variance (mean of the squares), inv_std = 1/√(var + eps),
    //       x_hat = centred × inv_std (`insert_axis(Axis(1))` broadcasts a column).
    // BEGIN SOLUTION: todo!("normalise_rows")
    assert!(
        x.ncols() > 0,
        "a row needs at least one feature to normalise"
    );
    let d_model = x.ncols() as Float;
    let mean = x.sum_axis(Axis(1)) / d_model; // (n,)
    let centred = x - &mean.insert_axis(Axis(1)); // (n, d_model)
    let variance = centred.mapv(|v| v * v).sum_axis(Axis(1)) / d_model; // (n,)
    let inv_std = variance.mapv(|v| 1.0 / (v + eps).sqrt()); // (n,)
    let x_hat = centred * inv_std.view().insert_axis(Axis(1)); // (n, d_model)
    Normalised { x_hat, inv_std }
    // END SOLUTION
}
// ANCHOR_END: normalise_rows

// ANCHOR: layer_norm
/// Layer normalisation over the features of each row: `γ ⊙ x̂ + β`.
///
/// As PyTorch's `nn.LayerNorm(d_model)`: `gamma` (its `weight`) starts at 1, `beta`
/// (its `bias`) at 0, and `eps` is 1e-5. Book: chapter 05, "Layer normalisation".
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNorm {
    /// The scale `γ`, `(d_model,)`.
    pub gamma: Vector,
    /// The shift `β`, `(d_model,)`.
    pub beta: Vector,
    /// `ε`, added to each row's variance before the square root.
    pub eps: Float,
}
// ANCHOR_END: layer_norm

// ANCHOR: layer_norm_grads
/// Gradients of a loss through a [`LayerNorm`].
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNormGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂γ`, `(d_model,)`.
    pub d_gamma: Vector,
    /// `∂L/∂β`, `(d_model,)`.
    pub d_beta: Vector,
}
// ANCHOR_END: layer_norm_grads

impl LayerNorm {
    /// A fresh LayerNorm, as `nn.LayerNorm(d_model)` starts: `γ = 1`, `β = 0`,
    /// `ε = 1e-5`.
    pub fn new(d_model: usize) -> Self {
        Self::from_parameters(Vector::ones(d_model), Vector::zeros(d_model))
    }

    /// A LayerNorm with the given `γ` and `β` and `ε = 1e-5`.
    ///
    /// Panics if they differ in length.
    pub fn from_parameters(gamma: Vector, beta: Vector) -> Self {
        assert_eq!(
            gamma.len(),
            beta.len(),
            "gamma and beta need one entry per feature each"
        );
        Self {
            gamma,
            beta,
            eps: LAYER_NORM_EPS,
        }
    }

    /// The number of features `d_model`.
    pub fn d_model(&self) -> usize {
        self.gamma.len()
    }

    /// The number of learned numbers: `γ` and `β`, `2·d_model`.
    pub fn parameter_count(&self) -> usize {
        self.gamma.len() + self.beta.len()
    }

    // ANCHOR: layer_norm_forward
    /// `y = γ ⊙ x̂ + β` with `x̂ = normalise_rows(x, ε).x_hat`: `(n, d_model)` in,
    /// `(n, d_model)` out, for any number of rows `n`.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        // TODO: normalise with `normalise_rows(x, self.eps)`, then scale by gamma
        //       and shift by beta (a Vector broadcasts over the rows).
        // BEGIN SOLUTION: todo!("LayerNorm::forward")
        normalise_rows(x, self.eps).x_hat * &self.gamma + &self.beta // (n, d_model)
        // END SOLUTION
    }
    // ANCHOR_END: layer_norm_forward

    // ANCHOR: layer_norm_backward
    /// The backward pass, from the forward's input `x` and the upstream gradient
    /// `d_y`, both `(n, d_model)`. With `g = d_y ⊙ γ` (the gradient of `x̂`) and
    /// `r = 1/√(σ² + ε)` of each row:
    ///
    /// ```text
    /// dβ = Σ_rows dY       dγ = Σ_rows dY ⊙ x̂
    /// dx = r · (g − mean_row(g) − x̂ ⊙ mean_row(g ⊙ x̂))
    /// ```
    pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> LayerNormGrads {
        // TODO: recompute x_hat and inv_std; d_beta and d_gamma are column sums;
        //       then g = d_y ⊙ gamma and the three-term formula above for d_x.
        // BEGIN SOLUTION: todo!("LayerNorm::backward")
        let Normalised { x_hat, inv_std } = normalise_rows(x, self.eps);
        let d_beta = d_y.sum_axis(Axis(0)); // (d_model,)
        let d_gamma = (d_y * &x_hat).sum_axis(Axis(0)); // (d_model,)
        let g = d_y * &self.gamma; // (n, d_model)
        let d_model = x.ncols() as Float;
        let mean_g = g.sum_axis(Axis(1)).insert_axis(Axis(1)) / d_model; // (n, 1)
        let mean_gx = (&g * &x_hat).sum_axis(Axis(1)).insert_axis(Axis(1)) / d_model; // (n, 1)
        let d_x = (g - &mean_g - &x_hat * &mean_gx) * &inv_std.insert_axis(Axis(1)); // (n, d_model)
        LayerNormGrads {
            d_x,
            d_gamma,
            d_beta,
        }
        // END SOLUTION
    }
    // ANCHOR_END: layer_norm_backward
}

// ANCHOR: feed_forward
/// The position-wise feed-forward network: `max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2`.
///
/// A two-layer MLP, `d_model → d_ff → d_model` with a ReLU between, applied to
/// every row (every position) on its own, with the same weights. The paper has
/// `d_ff = 4·d_model` (2048 for 512). Book: chapter 05, "The feed-forward
/// network".
#[derive(Debug, Clone, PartialEq)]
pub struct FeedForward {
    /// The first layer, `(d_ff, d_model)`: PyTorch's `linear1`.
    pub w_1: Linear,
    /// The second layer, `(d_model, d_ff)`: PyTorch's `linear2`.
    pub w_2: Linear,
}
// ANCHOR_END: feed_forward

// ANCHOR: feed_forward_forward_struct
/// The forward pass of a [`FeedForward`], kept for its backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedForwardForward {
    /// The inner layer after the ReLU, `max(0, x W_1ᵀ + b_1)`, `(n, d_ff)`.
    pub hidden: Matrix,
    /// The result, `hidden W_2ᵀ + b_2`, `(n, d_model)`.
    pub output: Matrix,
}
// ANCHOR_END: feed_forward_forward_struct

// ANCHOR: feed_forward_grads
/// Gradients of a loss through a [`FeedForward`].
#[derive(Debug, Clone, PartialEq)]
pub struct FeedForwardGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// Gradients of the first layer.
    pub w_1: LinearGrads,
    /// Gradients of the second layer.
    pub w_2: LinearGrads,
}
// ANCHOR_END: feed_forward_grads

impl FeedForward {
    /// The network from its two layers.
    ///
    /// Panics unless `w_1` is `(d_ff, d_model)` and `w_2` is `(d_model, d_ff)`.
    pub fn new(w_1: Linear, w_2: Linear) -> Self {
        let (d_ff, d_model) = w_1.weight.dim();
        assert_eq!(
            w_2.weight.dim(),
            (d_model, d_ff),
            "w_1 is (d_ff, d_model) = ({d_ff}, {d_model}), so w_2 must be (d_model, d_ff)"
        );
        Self { w_1, w_2 }
    }

    /// The model width `d_model`: the features of the input and of the output.
    pub fn d_model(&self) -> usize {
        self.w_1.weight.ncols()
    }

    /// The inner width `d_ff`.
    pub fn d_ff(&self) -> usize {
        self.w_1.weight.nrows()
    }

    /// The number of learned numbers: `2·d_model·d_ff + d_ff + d_model`.
    pub fn parameter_count(&self) -> usize {
        [&self.w_1, &self.w_2]
            .iter()
            .map(|layer| layer.weight.len() + layer.bias.len())
            .sum()
    }

    // ANCHOR: feed_forward_forward
    /// `hidden = max(0, x W_1ᵀ + b_1)`, `output = hidden W_2ᵀ + b_2`:
    /// `(n, d_model)` in, `(n, d_model)` out, for any number of rows `n`.
    pub fn forward(&self, x: &Matrix) -> FeedForwardForward {
        // TODO: hidden = ReLU of w_1's output (`mapv(|v| v.max(0.0))`), then w_2.
        // BEGIN SOLUTION: todo!("FeedForward::forward")
        let hidden = self.w_1.forward(x).mapv(|v| v.max(0.0)); // (n, d_ff)
        let output = self.w_2.forward(&hidden); // (n, d_model)
        FeedForwardForward { hidden, output }
        // END SOLUTION
    }
    // ANCHOR_END: feed_forward_forward

    // ANCHOR: feed_forward_backward
    /// The backward pass, from the forward's input `x`, its saved `forward` and
    /// the upstream gradient `d_output` `(n, d_model)`: back through `w_2` (its
    /// input is `hidden`), through the ReLU (the gradient passes where
    /// `hidden > 0` and is 0 elsewhere), then back through `w_1` (its input is
    /// `x`).
    pub fn backward(
        &self,
        x: &Matrix,
        forward: &FeedForwardForward,
        d_output: &Matrix,
    ) -> FeedForwardGrads {
        // TODO: w_2.backward(hidden, d_output); zero its d_x where hidden <= 0;
        //       w_1.backward(x, that).
        // BEGIN SOLUTION: todo!("FeedForward::backward")
        let w_2 = self.w_2.backward(&forward.hidden, d_output);
        let open = forward.hidden.mapv(|h| if h > 0.0 { 1.0 } else { 0.0 }); // (n, d_ff)
        let d_pre_activation = &w_2.d_x * &open; // (n, d_ff)
        let w_1 = self.w_1.backward(x, &d_pre_activation);
        FeedForwardGrads {
            d_x: w_1.d_x.clone(), // (n, d_model)
            w_1,
            w_2,
        }
        // END SOLUTION
    }
    // ANCHOR_END: feed_forward_backward
}

// ANCHOR: norm_position
/// Where a layer puts its LayerNorms around each sublayer `F` (attention or FFN).
///
/// The course's default is `Post`, the paper's and PyTorch's (`norm_first=False`).
/// Book: chapter 05, "Post-LN or pre-LN".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NormPosition {
    /// `LayerNorm(x + F(x))`: normalise after the residual addition. The paper,
    /// PyTorch's `norm_first=False`.
    #[default]
    Post,
    /// `x + F(LayerNorm(x))`: normalise the sublayer's input only, and leave the
    /// residual path untouched. GPT-2 onward, the Annotated Transformer's code,
    /// PyTorch's `norm_first=True`.
    Pre,
}
// ANCHOR_END: norm_position

// ANCHOR: encoder_layer
/// One encoder layer: multi-head self-attention, then the feed-forward network,
/// each wrapped in a residual connection and a LayerNorm placed as `norm_position`
/// says.
///
/// The field names follow PyTorch's `nn.TransformerEncoderLayer` (`self_attn`,
/// `linear1`/`linear2`, `norm1`, `norm2`). Book: chapter 05, "The encoder layer".
#[derive(Debug, Clone, PartialEq)]
pub struct EncoderLayer {
    /// The self-attention, `d_model` wide.
    pub self_attention: MultiHeadAttention,
    /// The position-wise feed-forward network.
    pub ffn: FeedForward,
    /// The LayerNorm of the attention block.
    pub norm_1: LayerNorm,
    /// The LayerNorm of the feed-forward block.
    pub norm_2: LayerNorm,
    /// Post-LN or pre-LN.
    pub norm_position: NormPosition,
}
// ANCHOR_END: encoder_layer

// ANCHOR: encoder_layer_forward
/// The forward pass of an [`EncoderLayer`]: its output and what the backward pass
/// needs. Which matrix each field holds depends on the norm position.
#[derive(Debug, Clone, PartialEq)]
pub struct EncoderLayerForward {
    /// The layer's output, `(n, d_model)`.
    pub output: Matrix,
    /// What the self-attention was given: `x` (post) or `norm_1(x)` (pre).
    pub self_attention_input: Matrix,
    /// The self-attention's forward pass (its weights, per head, included).
    pub self_attention: MultiHeadForward,
    /// What `norm_1` was given: `x + attention` (post) or `x` (pre).
    pub norm_1_input: Matrix,
    /// What the FFN was given: `h = norm_1(..)` (post) or `norm_2(h)` (pre), where
    /// `h` is the attention block's output.
    pub ffn_input: Matrix,
    /// The FFN's forward pass.
    pub ffn: FeedForwardForward,
    /// What `norm_2` was given: `h + ffn` (post) or `h` (pre).
    pub norm_2_input: Matrix,
}
// ANCHOR_END: encoder_layer_forward

// ANCHOR: encoder_layer_grads
/// Gradients of a loss through an [`EncoderLayer`].
#[derive(Debug, Clone, PartialEq)]
pub struct EncoderLayerGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// Gradients of the self-attention's projections.
    pub self_attention: MultiHeadGrads,
    /// Gradients of the feed-forward network.
    pub ffn: FeedForwardGrads,
    /// Gradients of `norm_1`.
    pub norm_1: LayerNormGrads,
    /// Gradients of `norm_2`.
    pub norm_2: LayerNormGrads,
}
// ANCHOR_END: encoder_layer_grads

impl EncoderLayer {
    /// An encoder layer from its parts.
    ///
    /// Panics if the parts disagree on `d_model`.
    pub fn new(
        self_attention: MultiHeadAttention,
        ffn: FeedForward,
        norm_1: LayerNorm,
        norm_2: LayerNorm,
        norm_position: NormPosition,
    ) -> Self {
        let d_model = self_attention.d_model();
        for (name, width) in [
            ("ffn", ffn.d_model()),
            ("norm_1", norm_1.d_model()),
            ("norm_2", norm_2.d_model()),
        ] {
            assert_eq!(
                width, d_model,
                "{name} is {width} wide but the self-attention is {d_model} wide"
            );
        }
        Self {
            self_attention,
            ffn,
            norm_1,
            norm_2,
            norm_position,
        }
    }

    /// The model width `d_model`.
    pub fn d_model(&self) -> usize {
        self.self_attention.d_model()
    }

    // ANCHOR: encoder_parameter_count
    /// Every learned number of the layer: the attention's four projections, the
    /// FFN's two layers and the two LayerNorms' `γ` and `β`.
    pub fn parameter_count(&self) -> usize {
        // TODO: add up the parts' `parameter_count()`.
        // BEGIN SOLUTION: todo!("EncoderLayer::parameter_count")
        self.self_attention.parameter_count()
            + self.ffn.parameter_count()
            + self.norm_1.parameter_count()
            + self.norm_2.parameter_count()
        // END SOLUTION
    }
    // ANCHOR_END: encoder_parameter_count

    // ANCHOR: encoder_forward
    /// The layer on one sequence `x` `(n, d_model)`; `mask`, if given, is `(n, n)`
    /// (`padding_mask(n, &is_token)` for a padded sequence).
    ///
    /// ```text
    /// Post:  h = norm_1(x + SA(x)),       output = norm_2(h + FFN(h))
    /// Pre:   h = x + SA(norm_1(x)),       output = h + FFN(norm_2(h))
    /// ```
    ///
    /// where `SA(a)` is `self_attention.forward(a, a, mask)`'s output.
    pub fn forward(&self, x: &Matrix, mask: Option<&Mask>) -> EncoderLayerForward {
        // TODO: `match self.norm_position` and write each formula above, keeping
        //       every intermediate the backward pass needs (EncoderLayerForward).
        // BEGIN SOLUTION: todo!("EncoderLayer::forward")
        match self.norm_position {
            NormPosition::Post => {
                let self_attention = self.self_attention.forward(x, x, mask);
                let norm_1_input = x + &self_attention.output; // (n, d_model)
                let h = self.norm_1.forward(&norm_1_input); // (n, d_model)
                let ffn = self.ffn.forward(&h);
                let norm_2_input = &h + &ffn.output; // (n, d_model)
                EncoderLayerForward {
                    output: self.norm_2.forward(&norm_2_input), // (n, d_model)
                    self_attention_input: x.clone(),
                    self_attention,
                    norm_1_input,
                    ffn_input: h,
                    ffn,
                    norm_2_input,
                }
            }
            NormPosition::Pre => {
                let a = self.norm_1.forward(x); // (n, d_model)
                let self_attention = self.self_attention.forward(&a, &a, mask);
                let h = x + &self_attention.output; // (n, d_model)
                let b = self.norm_2.forward(&h); // (n, d_model)
                let ffn = self.ffn.forward(&b);
                EncoderLayerForward {
                    output: &h + &ffn.output, // (n, d_model)
                    self_attention_input: a,
                    self_attention,
                    norm_1_input: x.clone(),
                    ffn_input: b,
                    ffn,
                    norm_2_input: h,
                }
            }
        }
        // END SOLUTION
    }
    // ANCHOR_END: encoder_forward

    // ANCHOR: encoder_backward
    /// The backward pass, from the forward's input `x`, its saved `forward` and
    /// the upstream gradient `d_output` `(n, d_model)`: the two blocks in reverse
    /// order. At each residual connection the gradient splits and adds back up:
    /// for `y = x + F(x)`, `dx = dy + (what flows back through F)`.
    pub fn backward(
        &self,
        x: &Matrix,
        forward: &EncoderLayerForward,
        d_output: &Matrix,
    ) -> EncoderLayerGrads {
        // TODO: undo the forward from the output back. Each LayerNorm's backward
        //       takes its saved input; self-attention's input gradient is
        //       d_query_input + d_key_value_input; at each residual connection,
        //       add the skip path's gradient.
        // BEGIN SOLUTION: todo!("EncoderLayer::backward")
        let attention_input = &forward.self_attention_input;
        match self.norm_position {
            NormPosition::Post => {
                let norm_2 = self.norm_2.backward(&forward.norm_2_input, d_output);
                let ffn =
                    self.ffn
                        .backward(&forward.ffn_input, &forward.ffn, &norm_2.d_x);
                let d_h = &norm_2.d_x + &ffn.d_x; // (n, d_model)
                let norm_1 = self.norm_1.backward(&forward.norm_1_input, &d_h);
                let self_attention = self.self_attention.backward(
                    attention_input,
                    attention_input,
                    &forward.self_attention,
                    &norm_1.d_x,
                );
                let d_x = &norm_1.d_x
                    + &self_attention.d_query_input
                    + &self_attention.d_key_value_input; // (n, d_model)
                EncoderLayerGrads {
                    d_x,
                    self_attention,
                    ffn,
                    norm_1,
                    norm_2,
                }
            }
            NormPosition::Pre => {
                let ffn = self
                    .ffn
                    .backward(&forward.ffn_input, &forward.ffn, d_output);
                let norm_2 = self.norm_2.backward(&forward.norm_2_input, &ffn.d_x);
                let d_h = d_output + &norm_2.d_x; // (n, d_model)
                let self_attention = self.self_attention.backward(
                    attention_input,
                    attention_input,
                    &forward.self_attention,
                    &d_h,
                );
                let d_a =
                    &self_attention.d_query_input + &self_attention.d_key_value_input; // (n, d_model)
                let norm_1 = self.norm_1.backward(x, &d_a);
                let d_x = &d_h + &norm_1.d_x; // (n, d_model)
                EncoderLayerGrads {
                    d_x,
                    self_attention,
                    ffn,
                    norm_1,
                    norm_2,
                }
            }
        }
        // END SOLUTION
    }
    // ANCHOR_END: encoder_backward
}

// ANCHOR: decoder_layer
/// One decoder layer: masked self-attention, cross-attention over the encoder's
/// output (`memory`), then the feed-forward network, each wrapped in a residual
/// connection and a LayerNorm placed as `norm_position` says.
///
/// The field names follow PyTorch's `nn.TransformerDecoderLayer` (`self_attn`,
/// `multihead_attn`, `linear1`/`linear2`, `norm1` to `norm3`). Book: chapter 05,
/// "The decoder layer".
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderLayer {
    /// The (masked) self-attention over the target sequence.
    pub self_attention: MultiHeadAttention,
    /// The cross-attention: queries from the decoder, keys and values from
    /// `memory`.
    pub cross_attention: MultiHeadAttention,
    /// The position-wise feed-forward network.
    pub ffn: FeedForward,
    /// The LayerNorm of the self-attention block.
    pub norm_1: LayerNorm,
    /// The LayerNorm of the cross-attention block.
    pub norm_2: LayerNorm,
    /// The LayerNorm of the feed-forward block.
    pub norm_3: LayerNorm,
    /// Post-LN or pre-LN.
    pub norm_position: NormPosition,
}
// ANCHOR_END: decoder_layer

// ANCHOR: decoder_layer_forward
/// The forward pass of a [`DecoderLayer`]: its output and what the backward pass
/// needs. Which matrix each field holds depends on the norm position.
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderLayerForward {
    /// The layer's output, `(n_tgt, d_model)`.
    pub output: Matrix,
    /// What the self-attention was given: `x` (post) or `norm_1(x)` (pre).
    pub self_attention_input: Matrix,
    /// The self-attention's forward pass.
    pub self_attention: MultiHeadForward,
    /// What `norm_1` was given: `x + self-attention` (post) or `x` (pre).
    pub norm_1_input: Matrix,
    /// The cross-attention's query input: `h_1 = norm_1(..)` (post) or
    /// `norm_2(h_1)` (pre), where `h_1` is the first block's output.
    pub cross_attention_input: Matrix,
    /// The cross-attention's forward pass (its weights are `(n_tgt, n_src)`).
    pub cross_attention: MultiHeadForward,
    /// What `norm_2` was given: `h_1 + cross-attention` (post) or `h_1` (pre).
    pub norm_2_input: Matrix,
    /// What the FFN was given: `h_2 = norm_2(..)` (post) or `norm_3(h_2)` (pre),
    /// where `h_2` is the second block's output.
    pub ffn_input: Matrix,
    /// The FFN's forward pass.
    pub ffn: FeedForwardForward,
    /// What `norm_3` was given: `h_2 + ffn` (post) or `h_2` (pre).
    pub norm_3_input: Matrix,
}
// ANCHOR_END: decoder_layer_forward

// ANCHOR: decoder_layer_grads
/// Gradients of a loss through a [`DecoderLayer`].
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderLayerGrads {
    /// `∂L/∂x`, `(n_tgt, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂memory`, `(n_src, d_model)`: what flows back to the encoder, through
    /// the cross-attention's keys and values.
    pub d_memory: Matrix,
    /// Gradients of the self-attention's projections.
    pub self_attention: MultiHeadGrads,
    /// Gradients of the cross-attention's projections.
    pub cross_attention: MultiHeadGrads,
    /// Gradients of the feed-forward network.
    pub ffn: FeedForwardGrads,
    /// Gradients of `norm_1`.
    pub norm_1: LayerNormGrads,
    /// Gradients of `norm_2`.
    pub norm_2: LayerNormGrads,
    /// Gradients of `norm_3`.
    pub norm_3: LayerNormGrads,
}
// ANCHOR_END: decoder_layer_grads

impl DecoderLayer {
    /// A decoder layer from its parts.
    ///
    /// Panics if the parts disagree on `d_model`.
    pub fn new(
        self_attention: MultiHeadAttention,
        cross_attention: MultiHeadAttention,
        ffn: FeedForward,
        norm_1: LayerNorm,
        norm_2: LayerNorm,
        norm_3: LayerNorm,
        norm_position: NormPosition,
    ) -> Self {
        let d_model = self_attention.d_model();
        for (name, width) in [
            ("cross_attention", cross_attention.d_model()),
            ("ffn", ffn.d_model()),
            ("norm_1", norm_1.d_model()),
            ("norm_2", norm_2.d_model()),
            ("norm_3", norm_3.d_model()),
        ] {
            assert_eq!(
                width, d_model,
                "{name} is {width} wide but the self-attention is {d_model} wide"
            );
        }
        Self {
            self_attention,
            cross_attention,
            ffn,
            norm_1,
            norm_2,
            norm_3,
            norm_position,
        }
    }

    /// The model width `d_model`.
    pub fn d_model(&self) -> usize {
        self.self_attention.d_model()
    }

    // ANCHOR: decoder_parameter_count
    /// Every learned number of the layer: two attentions, the FFN and three
    /// LayerNorms.
    pub fn parameter_count(&self) -> usize {
        // TODO: add up the parts' `parameter_count()`: two attentions this time.
        // BEGIN SOLUTION: todo!("DecoderLayer::parameter_count")
        self.self_attention.parameter_count()
            + self.cross_attention.parameter_count()
            + self.ffn.parameter_count()
            + self.norm_1.parameter_count()
            + self.norm_2.parameter_count()
            + self.norm_3.parameter_count()
        // END SOLUTION
    }
    // ANCHOR_END: decoder_parameter_count

    // ANCHOR: decoder_forward
    /// The layer on one target sequence `x` `(n_tgt, d_model)` and the encoder's
    /// output `memory` `(n_src, d_model)`.
    ///
    /// - `self_mask`, `(n_tgt, n_tgt)`: `causal_mask(n_tgt)`, combined with the
    ///   target's padding if any (`&causal_mask(n) & &padding_mask(n, &is_token)`);
    /// - `memory_mask`, `(n_tgt, n_src)`: `padding_mask(n_tgt, &source_is_token)`.
    ///
    /// ```text
    /// Post:  h_1 = norm_1(x + SA(x))       Pre:  h_1 = x + SA(norm_1(x))
    ///        h_2 = norm_2(h_1 + CA(h_1))         h_2 = h_1 + CA(norm_2(h_1))
    ///        out = norm_3(h_2 + FFN(h_2))        out = h_2 + FFN(norm_3(h_2))
    /// ```
    ///
    /// `SA(a)` is `self_attention.forward(a, a, self_mask)`; `CA(a)` is
    /// `cross_attention.forward(a, memory, memory_mask)`: queries from the decoder,
    /// keys and values from the memory (never normalised here).
    pub fn forward(
        &self,
        x: &Matrix,
        memory: &Matrix,
        self_mask: Option<&Mask>,
        memory_mask: Option<&Mask>,
    ) -> DecoderLayerForward {
        // TODO: as the encoder, with a third block in the middle: the
        //       cross-attention, queries from the decoder's stream, keys and values
        //       from `memory`.
        // BEGIN SOLUTION: todo!("DecoderLayer::forward")
        match self.norm_position {
            NormPosition::Post => {
                let self_attention = self.self_attention.forward(x, x, self_mask);
                let norm_1_input = x + &self_attention.output; // (n_tgt, d_model)
                let h_1 = self.norm_1.forward(&norm_1_input); // (n_tgt, d_model)
                let cross_attention =
                    self.cross_attention.forward(&h_1, memory, memory_mask);
                let norm_2_input = &h_1 + &cross_attention.output; // (n_tgt, d_model)
                let h_2 = self.norm_2.forward(&norm_2_input); // (n_tgt, d_model)
                let ffn = self.ffn.forward(&h_2);
                let norm_3_input = &h_2 + &ffn.output; // (n_tgt, d_model)
                DecoderLayerForward {
                    output: self.norm_3.forward(&norm_3_input), // (n_tgt, d_model)
                    self_attention_input: x.clone(),
                    self_attention,
                    norm_1_input,
                    cross_attention_input: h_1,
                    cross_attention,
                    norm_2_input,
                    ffn_input: h_2,
                    ffn,
                    norm_3_input,
                }
            }
            NormPosition::Pre => {
                let a_1 = self.norm_1.forward(x); // (n_tgt, d_model)
                let self_attention = self.self_attention.forward(&a_1, &a_1, self_mask);
                let h_1 = x + &self_attention.output; // (n_tgt, d_model)
                let a_2 = self.norm_2.forward(&h_1); // (n_tgt, d_model)
                let cross_attention =
                    self.cross_attention.forward(&a_2, memory, memory_mask);
                let h_2 = &h_1 + &cross_attention.output; // (n_tgt, d_model)
                let a_3 = self.norm_3.forward(&h_2); // (n_tgt, d_model)
                let ffn = self.ffn.forward(&a_3);
                DecoderLayerForward {
                    output: &h_2 + &ffn.output, // (n_tgt, d_model)
                    self_attention_input: a_1,
                    self_attention,
                    norm_1_input: x.clone(),
                    cross_attention_input: a_2,
                    cross_attention,
                    norm_2_input: h_1,
                    ffn_input: a_3,
                    ffn,
                    norm_3_input: h_2,
                }
            }
        }
        // END SOLUTION
    }
    // ANCHOR_END: decoder_forward

    // ANCHOR: decoder_backward
    /// The backward pass, from the forward's inputs `x` and `memory`, its saved
    /// `forward` and the upstream gradient `d_output` `(n_tgt, d_model)`: the three
    /// blocks in reverse order, as in the encoder. `d_memory` is the
    /// cross-attention's `d_key_value_input`.
    pub fn backward(
        &self,
        x: &Matrix,
        memory: &Matrix,
        forward: &DecoderLayerForward,
        d_output: &Matrix,
    ) -> DecoderLayerGrads {
        // TODO: as the encoder's backward, three blocks; the cross-attention's
        //       d_query_input goes back into the decoder, and its
        //       d_key_value_input is d_memory.
        // BEGIN SOLUTION: todo!("DecoderLayer::backward")
        let sa_input = &forward.self_attention_input;
        match self.norm_position {
            NormPosition::Post => {
                let norm_3 = self.norm_3.backward(&forward.norm_3_input, d_output);
                let ffn =
                    self.ffn
                        .backward(&forward.ffn_input, &forward.ffn, &norm_3.d_x);
                let d_h_2 = &norm_3.d_x + &ffn.d_x; // (n_tgt, d_model)
                let norm_2 = self.norm_2.backward(&forward.norm_2_input, &d_h_2);
                let cross_attention = self.cross_attention.backward(
                    &forward.cross_attention_input,
                    memory,
                    &forward.cross_attention,
                    &norm_2.d_x,
                );
                let d_h_1 = &norm_2.d_x + &cross_attention.d_query_input; // (n_tgt, d_model)
                let norm_1 = self.norm_1.backward(&forward.norm_1_input, &d_h_1);
                let self_attention = self.self_attention.backward(
                    sa_input,
                    sa_input,
                    &forward.self_attention,
                    &norm_1.d_x,
                );
                let d_x = &norm_1.d_x
                    + &self_attention.d_query_input
                    + &self_attention.d_key_value_input; // (n_tgt, d_model)
                DecoderLayerGrads {
                    d_x,
                    d_memory: cross_attention.d_key_value_input.clone(), // (n_src, d_model)
                    self_attention,
                    cross_attention,
                    ffn,
                    norm_1,
                    norm_2,
                    norm_3,
                }
            }
            NormPosition::Pre => {
                let ffn = self
                    .ffn
                    .backward(&forward.ffn_input, &forward.ffn, d_output);
                let norm_3 = self.norm_3.backward(&forward.norm_3_input, &ffn.d_x);
                let d_h_2 = d_output + &norm_3.d_x; // (n_tgt, d_model)
                let cross_attention = self.cross_attention.backward(
                    &forward.cross_attention_input,
                    memory,
                    &forward.cross_attention,
                    &d_h_2,
                );
                let norm_2 = self
                    .norm_2
                    .backward(&forward.norm_2_input, &cross_attention.d_query_input);
                let d_h_1 = &d_h_2 + &norm_2.d_x; // (n_tgt, d_model)
                let self_attention = self.self_attention.backward(
                    sa_input,
                    sa_input,
                    &forward.self_attention,
                    &d_h_1,
                );
                let d_a_1 =
                    &self_attention.d_query_input + &self_attention.d_key_value_input; // (n_tgt, d_model)
                let norm_1 = self.norm_1.backward(x, &d_a_1);
                let d_x = &d_h_1 + &norm_1.d_x; // (n_tgt, d_model)
                DecoderLayerGrads {
                    d_x,
                    d_memory: cross_attention.d_key_value_input.clone(), // (n_src, d_model)
                    self_attention,
                    cross_attention,
                    ffn,
                    norm_1,
                    norm_2,
                    norm_3,
                }
            }
        }
        // END SOLUTION
    }
    // ANCHOR_END: decoder_backward
}
