//! Generation, one token at a time, with a key/value cache: each new token's queries,
//! keys and values are computed once; its keys are stored already turned by RoPE at
//! their own position, so the cache never needs to be turned again.
//!
//! ```text
//! position p = tokens already cached
//! q_i = RoPE(x W_qᵀ, p)_i   k_i = RoPE(x W_kᵀ, p)_i   v_i = (x W_vᵀ)_i      (1, d_head)
//! K_i ← [K_i; k_i]          V_i ← [V_i; v_i]                              (p + 1, d_head)
//! o_i = softmax(q_i K_iᵀ / √d_head) V_i       no mask: every cached token is ≤ p
//! ```
//!
//! Book: chapter 07, "Generation with a cache".

use course_common::ndarray::Axis;
use course_common::{Float, Matrix, Vector};
use rand::RngExt;
use transformer::seeded_rng;

use attention::scaled_dot_product_attention;
use multi_head_attention::{merge_heads, split_heads};

use crate::model::{Block, Gpt, last_row};
use crate::rope::apply_rope;
use crate::sampling::{Sampling, sample_next};
use crate::self_attention::CausalSelfAttention;

// ANCHOR: kv_cache
/// One attention's cache: for each head, the keys (turned by RoPE, each at its own
/// position) and the values of every token seen so far, `(t, d_head)` each.
#[derive(Debug, Clone, PartialEq)]
pub struct KvCache {
    /// Each head's keys, already turned: `h` matrices `(t, d_head)`.
    pub keys: Vec<Matrix>,
    /// Each head's values: `h` matrices `(t, d_head)`.
    pub values: Vec<Matrix>,
}
// ANCHOR_END: kv_cache

impl KvCache {
    /// An empty cache for `n_heads` heads of width `d_head`.
    pub fn new(n_heads: usize, d_head: usize) -> Self {
        let empty = || vec![Matrix::zeros((0, d_head)); n_heads];
        Self {
            keys: empty(),
            values: empty(),
        }
    }

    /// The number of tokens cached, `t`: the position of the next one.
    pub fn len(&self) -> usize {
        self.keys.first().map_or(0, |k| k.nrows())
    }

    /// Whether no token is cached yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl CausalSelfAttention {
    // ANCHOR: attention_step
    /// The attention's output for one new token `x`, `(1, d_model)`, at position
    /// `p = cache.len()`, with every earlier token's keys and values in `cache`:
    ///
    /// ```text
    /// per head i: q_i = apply_rope(split(x W_qᵀ)_i, p), k_i = apply_rope(split(x W_kᵀ)_i, p),
    ///             v_i = split(x W_vᵀ)_i; push k_i and v_i onto the cache's rows;
    ///             o_i = attention(q_i, K_i, V_i, no mask)               (lesson 02)
    /// output = merge(o_1, …, o_h) W_oᵀ                                  (1, d_model)
    /// ```
    ///
    /// The new token's key is pushed before attending: a token attends to itself. The
    /// result equals row `p` of [`CausalSelfAttention::forward`] on the whole sequence.
    pub fn step(&self, x: &Matrix, cache: &mut KvCache) -> Matrix {
        // TODO: p = cache.len(); the three projections of x, split into heads; turn each
        //       head's query and key by apply_rope(·, p); push the key and value rows
        //       (`push_row(row.view())`); attend with the whole cache; merge; W_o.
        todo!("CausalSelfAttention::step")
    }
    // ANCHOR_END: attention_step
}

impl Block {
    /// [`Block::forward`] for one new token `x`, `(1, d_model)`, its attention reading
    /// and extending `cache`.
    pub fn step(&self, x: &Matrix, cache: &mut KvCache) -> Matrix {
        let h = x + &self.attention.step(&self.norm_1.forward(x), cache); // (1, d_model)
        let y = self.feed_forward.forward(&self.norm_2.forward(&h)).output; // (1, d_model)
        h + y
    }
}

impl Gpt {
    /// An empty cache for each block.
    pub fn new_caches(&self) -> Vec<KvCache> {
        let d_head = self.config.d_model / self.config.n_heads;
        (0..self.blocks.len())
            .map(|_| KvCache::new(self.config.n_heads, d_head))
            .collect()
    }

    /// The logits `(vocab,)` of the token after `token`, which sits at position
    /// `caches[0].len()`; every block's cache grows by one row.
    pub fn step(&self, token: usize, caches: &mut [KvCache]) -> Vector {
        let mut x = self.embedding.select(Axis(0), &[token]); // (1, d_model)
        for (block, cache) in self.blocks.iter().zip(caches.iter_mut()) {
            x = block.step(&x, cache); // (1, d_model)
        }
        let normed = self.norm_final.forward(&x); // (1, d_model)
        last_row(&normed.dot(&self.embedding.t())) // (vocab,)
    }

    // ANCHOR: generate
    /// `prompt` (at least one id) followed by `max_new_tokens` generated ids, with a key/value
    /// cache: feed the prompt through [`Gpt::step`] one token at a time, then repeat
    /// `next = sample_next(logits, sampling, u)` with `u` the next draw
    /// `rng.random::<Float>()` of `seeded_rng(seed)`, and feed `next` back. One draw per
    /// generated token, even at temperature 0 (so that changing the temperature does not
    /// shift the draws of later tokens).
    pub fn generate(
        &self,
        prompt: &[usize],
        max_new_tokens: usize,
        sampling: &Sampling,
        seed: u64,
    ) -> Vec<usize> {
        // TODO: new_caches(); step through the prompt keeping the last logits; then
        //       max_new_tokens times: draw u, sample_next on the logits' slice, push the
        //       id, step it (no need to step the very last one).
        todo!("Gpt::generate")
    }
    // ANCHOR_END: generate

    /// [`Gpt::generate`] without a cache: the whole sequence through [`Gpt::forward`]
    /// for every new token, with the same draws. Slower by a factor that grows with the
    /// length; the same ids.
    pub fn generate_uncached(
        &self,
        prompt: &[usize],
        max_new_tokens: usize,
        sampling: &Sampling,
        seed: u64,
    ) -> Vec<usize> {
        assert!(
            !prompt.is_empty(),
            "generation needs a prompt of at least one token"
        );
        let mut rng = seeded_rng(seed);
        let mut tokens = prompt.to_vec();
        for _ in 0..max_new_tokens {
            let logits = last_row(&self.logits(&tokens)); // (vocab,)
            let u: Float = rng.random();
            let next =
                sample_next(logits.as_slice().expect("a contiguous row"), sampling, u);
            tokens.push(next);
        }
        tokens
    }
}
