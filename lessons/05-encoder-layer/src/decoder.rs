//! The decoder layer: masked self-attention, cross-attention over the encoder's memory
//! and the FFN, each with its residual connection and LayerNorm; and its backward pass.
//! Book: chapter 05, "The decoder layer".

use crate::{
    FeedForward, FeedForwardForward, FeedForwardGrads, LayerNorm, LayerNormGrads, Mask,
    MultiHeadAttention, MultiHeadForward, MultiHeadGrads, NormPosition,
};
use course_common::Matrix;

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
