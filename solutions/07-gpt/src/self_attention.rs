//! Causal self-attention with rotary position embeddings: lesson 03's multi-head
//! attention, without biases, with the queries and keys of every head turned by RoPE
//! before their scores are taken, and lesson 02's causal mask. And its backward pass.
//! Book: chapter 07, "Attention with RoPE".

use attention::{
    causal_mask, scaled_dot_product_attention, scaled_dot_product_attention_backward,
};
use course_common::Matrix;
use multi_head_attention::{merge_heads, split_heads};

use crate::rope::{apply_rope, rope_backward};

// ANCHOR: causal_self_attention
/// Multi-head causal self-attention whose queries and keys carry their positions by
/// rotation. The four weights are `(d_model, d_model)`, stored `(out, in)` as PyTorch's
/// `nn.Linear(d_model, d_model, bias=False)` and applied as `x Wᵀ`.
#[derive(Debug, Clone, PartialEq)]
pub struct CausalSelfAttention {
    /// The number of heads `h`; `d_head = d_model / h`, which must be even (RoPE turns
    /// pairs).
    pub n_heads: usize,
    /// `W_q`, `(d_model, d_model)`.
    pub w_q: Matrix,
    /// `W_k`, `(d_model, d_model)`.
    pub w_k: Matrix,
    /// `W_v`, `(d_model, d_model)`.
    pub w_v: Matrix,
    /// `W_o`, `(d_model, d_model)`.
    pub w_o: Matrix,
}
// ANCHOR_END: causal_self_attention

/// What [`CausalSelfAttention::forward`] computes on the way, kept for the backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct CausalSelfAttentionForward {
    /// Each head's queries, turned by RoPE: `h` matrices `(n, d_head)`.
    pub q_heads: Vec<Matrix>,
    /// Each head's keys, turned by RoPE: `h` matrices `(n, d_head)`.
    pub k_heads: Vec<Matrix>,
    /// Each head's values (not turned): `h` matrices `(n, d_head)`.
    pub v_heads: Vec<Matrix>,
    /// Each head's attention weights, causal: `h` matrices `(n, n)`.
    pub weights: Vec<Matrix>,
    /// The heads' outputs side by side, `(n, d_model)`.
    pub merged: Matrix,
    /// `merged W_oᵀ`, `(n, d_model)`.
    pub output: Matrix,
}

/// Gradients of a loss through a [`CausalSelfAttention`].
#[derive(Debug, Clone, PartialEq)]
pub struct CausalSelfAttentionGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂W_q`, `(d_model, d_model)`.
    pub d_w_q: Matrix,
    /// `∂L/∂W_k`, `(d_model, d_model)`.
    pub d_w_k: Matrix,
    /// `∂L/∂W_v`, `(d_model, d_model)`.
    pub d_w_v: Matrix,
    /// `∂L/∂W_o`, `(d_model, d_model)`.
    pub d_w_o: Matrix,
}

impl CausalSelfAttention {
    /// The attention with these weights. Panics unless the four are square and of one
    /// size `d_model`, and `n_heads` divides `d_model` into heads of even width.
    pub fn new(
        n_heads: usize,
        w_q: Matrix,
        w_k: Matrix,
        w_v: Matrix,
        w_o: Matrix,
    ) -> Self {
        let d_model = w_q.nrows();
        assert!(
            [&w_q, &w_k, &w_v, &w_o]
                .iter()
                .all(|w| w.dim() == (d_model, d_model)),
            "W_q, W_k, W_v and W_o must all be (d_model, d_model)"
        );
        assert!(
            n_heads > 0
                && d_model.is_multiple_of(n_heads)
                && (d_model / n_heads).is_multiple_of(2),
            "n_heads ({n_heads}) must divide d_model ({d_model}) into heads of even width"
        );
        Self {
            n_heads,
            w_q,
            w_k,
            w_v,
            w_o,
        }
    }

    // ANCHOR: attention_forward
    /// The forward pass over a whole sequence `x`, `(n, d_model)`, positions 0 to n − 1:
    ///
    /// ```text
    /// Q = x W_qᵀ, K = x W_kᵀ, V = x W_vᵀ                 (n, d_model) each
    /// per head i: Q_i = apply_rope(split(Q)_i, 0), K_i = apply_rope(split(K)_i, 0),
    ///             V_i = split(V)_i;
    ///             (O_i, A_i) = attention(Q_i, K_i, V_i, causal mask)     (lesson 02)
    /// merged = merge(O_1, …, O_h), output = merged W_oᵀ
    /// ```
    ///
    /// RoPE turns the queries and keys of each head (after the projections, within the
    /// head), never the values: only scores depend on position.
    pub fn forward(&self, x: &Matrix) -> CausalSelfAttentionForward {
        // TODO: the three projections; split_heads (lesson 03); apply_rope to each head's
        //       queries and keys; lesson 02's scaled_dot_product_attention with
        //       causal_mask(n); merge_heads; the output projection.
        // BEGIN SOLUTION: todo!("CausalSelfAttention::forward")
        let n = x.nrows();
        let rotated = |w: &Matrix| -> Vec<Matrix> {
            split_heads(&x.dot(&w.t()), self.n_heads) // h × (n, d_head)
                .iter()
                .map(|head| apply_rope(head, 0))
                .collect()
        };
        let q_heads = rotated(&self.w_q);
        let k_heads = rotated(&self.w_k);
        let v_heads = split_heads(&x.dot(&self.w_v.t()), self.n_heads); // h × (n, d_head)
        let mask = causal_mask(n);
        let (outputs, weights): (Vec<Matrix>, Vec<Matrix>) = q_heads
            .iter()
            .zip(&k_heads)
            .zip(&v_heads)
            .map(|((q, k), v)| {
                let a = scaled_dot_product_attention(q, k, v, Some(&mask));
                (a.output, a.weights) // (n, d_head), (n, n)
            })
            .unzip();
        let merged = merge_heads(&outputs); // (n, d_model)
        let output = merged.dot(&self.w_o.t()); // (n, d_model)
        CausalSelfAttentionForward {
            q_heads,
            k_heads,
            v_heads,
            weights,
            merged,
            output,
        }
        // END SOLUTION
    }
    // ANCHOR_END: attention_forward

    // ANCHOR: attention_backward
    /// The backward pass, from the forward's input `x` and the upstream gradient `d_y`,
    /// both `(n, d_model)`:
    ///
    /// ```text
    /// dW_o = dYᵀ merged       d_merged = dY W_o       dO_i = split(d_merged)_i
    /// per head: (dQ_i, dK_i, dV_i) = attention_backward(Q_i, K_i, V_i, A_i, dO_i)
    ///           (lesson 02), then dQ_i and dK_i turned back by rope_backward(·, 0)
    /// dQ = merge(dQ_i), dK = merge(dK_i), dV = merge(dV_i)
    /// dW_q = dQᵀ x, dW_k = dKᵀ x, dW_v = dVᵀ x,  dx = dQ W_q + dK W_k + dV W_v
    /// ```
    pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> CausalSelfAttentionGrads {
        // TODO: run forward; the output projection's gradients; split d_merged into heads;
        //       lesson 02's attention backward per head; rope_backward on the queries' and
        //       keys' gradients; merge; the three projections' gradients and d_x.
        // BEGIN SOLUTION: todo!("CausalSelfAttention::backward")
        let f = self.forward(x);
        let d_w_o = d_y.t().dot(&f.merged); // (d_model, d_model)
        let d_out = split_heads(&d_y.dot(&self.w_o), self.n_heads); // h × (n, d_head)
        let mut d_q = Vec::with_capacity(self.n_heads);
        let mut d_k = Vec::with_capacity(self.n_heads);
        let mut d_v = Vec::with_capacity(self.n_heads);
        for (i, d_out_i) in d_out.iter().enumerate() {
            let g = scaled_dot_product_attention_backward(
                &f.q_heads[i],
                &f.k_heads[i],
                &f.v_heads[i],
                &f.weights[i],
                d_out_i,
            );
            d_q.push(rope_backward(&g.d_q, 0)); // (n, d_head)
            d_k.push(rope_backward(&g.d_k, 0)); // (n, d_head)
            d_v.push(g.d_v); // (n, d_head)
        }
        let (d_q, d_k, d_v) = (merge_heads(&d_q), merge_heads(&d_k), merge_heads(&d_v)); // (n, d_model) each
        let d_x = d_q.dot(&self.w_q) + d_k.dot(&self.w_k) + d_v.dot(&self.w_v); // (n, d_model)
        CausalSelfAttentionGrads {
            d_x,
            d_w_q: d_q.t().dot(x),
            d_w_k: d_k.t().dot(x),
            d_w_v: d_v.t().dot(x),
            d_w_o,
        }
        // END SOLUTION
    }
    // ANCHOR_END: attention_backward
}
