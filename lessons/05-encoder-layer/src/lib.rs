//! Lesson 05: the encoder layer and the decoder layer.
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
//!
//! # How to work on this lesson
//!
//! Every `todo!()` below is yours to replace; the `///` comment above it is the
//! contract (shapes, formula, where the book explains it). Work top to bottom:
//! LayerNorm, the feed-forward network, the encoder layer, the decoder layer. The
//! crate uses your lessons 02 (`Linear`, the masks) and 03 (`MultiHeadAttention`).
//! Check yourself with
//!
//! ```text
//! cargo test -p encoder-layer        # the visible tests in tests/visible.rs
//! cargo run -p checker -- watch      # the graded tests, re-run on every save
//! ```
//!
//! Don't change the signatures or the tests: grading uses only this `src/` folder,
//! with the course's own copy of everything else (lessons 02 and 03 included).

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
    todo!("normalise_rows")
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
        todo!("LayerNorm::forward")
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
        todo!("LayerNorm::backward")
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
        todo!("FeedForward::forward")
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
        todo!("FeedForward::backward")
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
        todo!("EncoderLayer::parameter_count")
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
        todo!("EncoderLayer::forward")
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
        todo!("EncoderLayer::backward")
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
        todo!("DecoderLayer::parameter_count")
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
        todo!("DecoderLayer::forward")
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
        todo!("DecoderLayer::backward")
    }
    // ANCHOR_END: decoder_backward
}
