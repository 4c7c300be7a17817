//! The encoder layer: self-attention and the FFN, each wrapped in a residual connection
//! and a LayerNorm (after it, post-LN, or before it, pre-LN); and its backward pass.
//! Book: chapter 05, "The encoder layer".

use crate::{
    FeedForward, FeedForwardForward, FeedForwardGrads, LayerNorm, LayerNormGrads, Mask,
    MultiHeadAttention, MultiHeadForward, MultiHeadGrads,
};
use course_common::Matrix;

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
