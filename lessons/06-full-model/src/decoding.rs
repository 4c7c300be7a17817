//! Generating: greedy decoding and the key/value cache.
//!
//! Generation: greedy decoding, one token at a time, first by re-running the decoder over
//! the whole prefix at every step, then with a key/value cache that keeps what earlier
//! steps computed.
//!
//! ```text
//! tokens = [BOS]
//! repeat: logits = model(src, tokens)[last row];  next = argmax(logits)
//! stop at EOS, else tokens.push(next)
//! ```
//!
//! Row `t` of the decoder depends only on tokens `0..=t` (the causal mask), so the rows
//! of earlier steps never change: their keys and values can be kept, and each step
//! needs only the new token's row. Book: chapter 06, "Generating: greedy decoding and the
//! key/value cache".

use crate::data::{BOS, EOS, PAD};
use crate::model::{Transformer, key_padding_mask};
use crate::{Mask, MultiHeadAttention, NormPosition};
use attention::scaled_dot_product_attention;
use course_common::ndarray::{ArrayView1, s};
use course_common::{Float, Matrix, Vector};
use multi_head_attention::{merge_heads, split_heads};
use positional_encoding::add_positional_encoding;

/// The token greedy decoding picks from `logits` `(vocab,)`: the argmax over every
/// token except [`PAD`] and [`BOS`].
///
/// Neither is ever a target (the loss ignores padding, and `BOS` is only an input),
/// so a trained model gives them low scores, but an untrained one may not; and a
/// generated `PAD` would be masked out of the decoder's self-attention when the
/// prefix is re-decoded, but not by a key/value cache.
pub fn next_token(logits: ArrayView1<Float>) -> usize {
    let mut best = EOS;
    for (token, &score) in logits.iter().enumerate() {
        if token != PAD && token != BOS && score > logits[best] {
            best = token;
        }
    }
    best
}

// ANCHOR: cached_attention
/// Multi-head attention of `query_input` `(n_q, d_model)` over keys and values that
/// are **already projected**: `keys = x W_kᵀ + b_k` and `values = x W_vᵀ + b_v`,
/// both `(n_k, d_model)`, as a cache stores them.
///
/// Project the queries with `mha.w_q`, split queries, keys and values into heads
/// (lesson 03's `split_heads`), attend head by head with lesson 02's
/// `scaled_dot_product_attention` (with `mask`, `(n_q, n_k)`, if given), merge the
/// heads and apply `mha.w_o`. With `keys = mha.w_k.forward(x)` and
/// `values = mha.w_v.forward(x)` it equals
/// `mha.forward(query_input, x, mask).output`. Shape `(n_q, d_model)`. Book:
/// chapter 06, "The key/value cache".
pub fn cached_attention(
    mha: &MultiHeadAttention,
    query_input: &Matrix,
    keys: &Matrix,
    values: &Matrix,
    mask: Option<&Mask>,
) -> Matrix {
    // TODO: project the queries with w_q; split queries, keys and values into
    //       heads; attend head by head (lesson 02); merge the heads; apply w_o.
    todo!("cached_attention")
}
// ANCHOR_END: cached_attention

/// What one decoder layer keeps between generation steps.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerCache {
    /// The self-attention's keys of every position so far, `(t, d_model)`: row `j`
    /// is `a_j W_kᵀ + b_k` for the self-attention's input `a_j` at position `j`.
    pub keys: Matrix,
    /// The self-attention's values of every position so far, `(t, d_model)`.
    pub values: Matrix,
    /// The cross-attention's keys, `memory W_kᵀ + b_k`, `(S, d_model)`: computed
    /// once.
    pub memory_keys: Matrix,
    /// The cross-attention's values, `memory W_vᵀ + b_v`, `(S, d_model)`.
    pub memory_values: Matrix,
}

/// The state of an incremental decoding: one [`LayerCache`] per decoder layer, the
/// mask of the source's padding, and the position of the next token.
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderCache {
    /// One cache per decoder layer.
    pub layers: Vec<LayerCache>,
    /// Which source positions the cross-attention may read, `(1, S)`:
    /// `key_padding_mask(1, src)`.
    pub memory_mask: Mask,
    /// The position of the next token to decode (how many are in the caches).
    pub position: usize,
}

impl Transformer {
    // ANCHOR: start_decoding
    /// Encodes `src` and prepares the decoding of its target: for each decoder
    /// layer, the cross-attention's keys and values of the memory (`w_k` and `w_v`
    /// of `layer.cross_attention` applied to the encoder's output), and empty
    /// `(0, d_model)` self-attention caches; `position` 0. Book: chapter 06, "The
    /// key/value cache".
    pub fn start_decoding(&self, src: &[usize]) -> DecoderCache {
        // TODO: encode the source; for every decoder layer, the cross-attention's
        //       w_k and w_v of the memory and empty (0, d_model) self-attention
        //       caches; the mask.
        todo!("Transformer::start_decoding")
    }
    // ANCHOR_END: start_decoding

    // ANCHOR: decode_step
    /// One step of incremental decoding: `token` enters at position
    /// `cache.position`; returns the logits `(vocab,)` of the token that follows
    /// it.
    ///
    /// The new row is `√d_model · E_tgt[token] + PE(position)` (lesson 04's
    /// `add_positional_encoding` with `start = position`). Through each layer, as
    /// in lesson 05's `DecoderLayer::forward` but for this one row: the
    /// self-attention's input `a` (the row itself in post-LN, `norm_1` of it in
    /// pre-LN) gives a key and a value (`w_k`, `w_v`) that are appended to the
    /// layer's cache (`push_row`), then [`cached_attention`] over the whole cache,
    /// with no mask (the cache holds only the past and the present); the
    /// cross-attention is [`cached_attention`] over the memory's keys and values
    /// with `cache.memory_mask`; the FFN and the norms act on the row. The last
    /// layer's row goes through `self.output`. Increments `cache.position`. Book:
    /// chapter 06, "The key/value cache".
    pub fn decode_step(&self, cache: &mut DecoderCache, token: usize) -> Vector {
        // TODO: embed the token at cache.position; through each layer, append this
        //       row's key and value to the cache and attend over it
        //       (cached_attention), then the cross-attention, the FFN and the
        //       norms, as lesson 05's layer does; then the output projection.
        todo!("Transformer::decode_step")
    }
    // ANCHOR_END: decode_step
}

// ANCHOR: greedy_decode
/// Greedy decoding the slow way: encode `src` once, then at every step run the
/// decoder over the **whole** prefix `[BOS, y_1, …, y_t]` and pick `y_{t+1}` from
/// the last row's logits with [`next_token`].
///
/// Starts from [`BOS`] (never [`PAD`]); stops before [`EOS`] or after
/// `max_len` generated tokens. Returns the generated tokens, without `BOS` and
/// `EOS`. Step `t` re-computes `t + 1` rows, so `n` steps cost `O(n²)` rows. Book:
/// chapter 06, "Generating: greedy decoding and the key/value cache".
pub fn greedy_decode(model: &Transformer, src: &[usize], max_len: usize) -> Vec<usize> {
    // TODO: encode once; from [BOS], decode the whole prefix at every step, pick
    //       next_token of the last row; stop at EOS or after max_len tokens.
    todo!("greedy_decode")
}
// ANCHOR_END: greedy_decode

// ANCHOR: greedy_decode_cached
/// Greedy decoding with the key/value cache: [`Transformer::start_decoding`], then
/// one [`Transformer::decode_step`] per token, starting with [`BOS`], each step
/// feeding [`next_token`] of the previous step's logits. Same stopping rule and
/// result as [`greedy_decode`], at `O(n)` rows for `n` tokens. Book: chapter 06,
/// "The key/value cache".
pub fn greedy_decode_cached(
    model: &Transformer,
    src: &[usize],
    max_len: usize,
) -> Vec<usize> {
    // TODO: start_decoding, then decode_step from BOS, feeding it each next_token;
    //       the same stopping rule as greedy_decode.
    todo!("greedy_decode_cached")
}
// ANCHOR_END: greedy_decode_cached

/// The fraction of `pairs` (source, target) whose greedy decoding, with the cache,
/// is exactly the target.
pub fn exact_match(model: &Transformer, pairs: &[(Vec<usize>, Vec<usize>)]) -> Float {
    if pairs.is_empty() {
        return 0.0;
    }
    let correct = pairs
        .iter()
        .filter(|(src, tgt)| greedy_decode_cached(model, src, tgt.len() + 1) == *tgt)
        .count();
    correct as Float / pairs.len() as Float
}
