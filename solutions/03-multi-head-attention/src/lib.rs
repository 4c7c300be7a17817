// BEGIN STUB
// //! Lesson 03: multi-head attention.
// END STUB
// BEGIN SOLUTION
//! Lesson 03: multi-head attention, solved.
// END SOLUTION
//!
//! ```text
//! MultiHead(X_q, X_kv) = Concat(head_0, ..., head_{h-1}) W_oᵀ + b_o
//!     head_i = Attention(Q_i, K_i, V_i)
//!     Q = X_q W_qᵀ + b_q,   K = X_kv W_kᵀ + b_k,   V = X_kv W_vᵀ + b_v
//!     Q_i, K_i, V_i = columns i·d_k .. (i+1)·d_k of Q, K, V
//! ```
//!
//! | name              | shape            | meaning                                  |
//! |-------------------|------------------|------------------------------------------|
//! | `query_input`     | `(n_q, d_model)` | the sequence that asks, one row a token  |
//! | `key_value_input` | `(n_k, d_model)` | the sequence that is looked at           |
//! | `Q`               | `(n_q, d_model)` | every head's queries, side by side       |
//! | `Q_i`             | `(n_q, d_k)`     | head `i`'s queries; `d_k = d_model / h`  |
//! | `weights[i]`      | `(n_q, n_k)`     | head `i`'s attention weights             |
//! | `concat`          | `(n_q, d_model)` | the heads' outputs, side by side         |
//! | `output`          | `(n_q, d_model)` | `concat` through the output projection   |
//!
//! Self-attention passes the same matrix as both inputs; cross-attention (a decoder
//! looking at an encoder) passes two different ones, and `n_q` may differ from `n_k`.
//!
//! Per-head matrices are a `Vec<Matrix>`, one `(n, d_k)` matrix per head, in order:
//! head `i` owns columns `i·d_k .. (i+1)·d_k` of the full-width matrix, as in the
//! paper and in PyTorch. Everything here works on one sequence (one example); a batch
//! is a loop over its examples, which lesson 06 writes.
//! The book explains every step in chapter 03, "Multi-head attention".
// BEGIN STUB
// //!
// //! # How to work on this lesson
// //!
// //! Every `todo!()` below is yours to replace; the `///` comment above it is the
// //! contract (shapes, formula, where the book explains it). Work top to bottom: each
// //! function uses the ones before it, and lesson 02's attention (your own: this crate
// //! depends on `lessons/02-attention`). Check yourself with
// //!
// //! ```text
// //! cargo test -p multi-head-attention   # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch        # the graded tests, re-run on every save
// //! ```
// //!
// //! Don't change the signatures or the tests: grading uses only this `src/` folder,
// //! with the course's own copy of everything else, lesson 02's solution included.
// END STUB

pub use attention::{Linear, LinearGrads, Mask};

use attention::{scaled_dot_product_attention, scaled_dot_product_attention_backward};
use course_common::Matrix;
use course_common::ndarray::{Axis, concatenate, s};

// ANCHOR: split_heads
/// Splits a full-width matrix into one matrix per head.
///
/// `x` is `(n, d_model)`; the result is `n_heads` matrices of `(n, d_k)`, where
/// `d_k = d_model / n_heads` and head `i` is columns `i·d_k .. (i+1)·d_k` of `x`:
/// a contiguous block of features, as in the paper and in PyTorch. The rows (the
/// tokens) are not touched.
///
/// A pure reshape: no number changes, none is lost. Panics if `n_heads` is 0 or
/// does not divide `d_model`. Book: chapter 03, "Split and merge".
pub fn split_heads(x: &Matrix, n_heads: usize) -> Vec<Matrix> {
    // TODO: head i is the column block `x.slice(s![.., i * d_k..(i + 1) * d_k])`
    //       as an owned matrix; collect one per head, head 0 first.
    // BEGIN SOLUTION: todo!("split_heads")
    assert!(
        n_heads > 0 && x.ncols().is_multiple_of(n_heads),
        "n_heads ({n_heads}) must be positive and divide d_model ({})",
        x.ncols()
    );
    let d_k = x.ncols() / n_heads;
    (0..n_heads)
        .map(|head| x.slice(s![.., head * d_k..(head + 1) * d_k]).to_owned()) // (n, d_k)
        .collect()
    // END SOLUTION
}
// ANCHOR_END: split_heads

// ANCHOR: merge_heads
/// Puts the heads' matrices back side by side: the inverse of [`split_heads`], and
/// the paper's `Concat(head_1, ..., head_h)`.
///
/// `heads` is `n_heads` matrices of `(n, d_k)`; the result is `(n, n_heads·d_k)`,
/// with head `i` in columns `i·d_k .. (i+1)·d_k`.
///
/// Panics if there are no heads or if their shapes differ. Book: chapter 03, "Split
/// and merge".
pub fn merge_heads(heads: &[Matrix]) -> Matrix {
    // TODO: join the heads along the columns, head 0 first:
    //       `concatenate(Axis(1), &views)` with one `.view()` per head.
    // BEGIN SOLUTION: todo!("merge_heads")
    let shape = heads.first().map(Matrix::dim);
    assert!(
        shape.is_some() && heads.iter().all(|head| Some(head.dim()) == shape),
        "merge_heads needs at least one head, and every head must have the same shape"
    );
    let views: Vec<_> = heads.iter().map(|head| head.view()).collect();
    concatenate(Axis(1), &views).expect("the shapes were checked") // (n, n_heads · d_k)
    // END SOLUTION
}
// ANCHOR_END: merge_heads

// ANCHOR: multi_head_attention
/// Multi-head attention: `n_heads` scaled dot-product attentions side by side, each
/// on its own `d_k = d_model / n_heads` features, mixed by an output projection.
///
/// The four projections are `d_model → d_model` [`Linear`] layers (weight
/// `(d_model, d_model)`, bias `(d_model,)`), as in the paper and in PyTorch's
/// `nn.MultiheadAttention`. Head `i`'s own query projection is rows
/// `i·d_k .. (i+1)·d_k` of `w_q`, and likewise for `w_k` and `w_v`.
/// Book: chapter 03, "Multi-head attention".
#[derive(Debug, Clone, PartialEq)]
pub struct MultiHeadAttention {
    /// The number of heads `h`; it divides `d_model`.
    pub n_heads: usize,
    /// The query projection `W_q`, `(d_model, d_model)`: every head's at once.
    pub w_q: Linear,
    /// The key projection `W_k`, `(d_model, d_model)`.
    pub w_k: Linear,
    /// The value projection `W_v`, `(d_model, d_model)`.
    pub w_v: Linear,
    /// The output projection `W_o`, `(d_model, d_model)`: mixes the heads.
    pub w_o: Linear,
}
// ANCHOR_END: multi_head_attention

// ANCHOR: multi_head_forward
/// The forward pass of [`MultiHeadAttention`]: its output, each head's weights, and
/// what the backward pass needs.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiHeadForward {
    /// The result, `(n_q, d_model)`.
    pub output: Matrix,
    /// Each head's attention weights, `n_heads` matrices of `(n_q, n_k)`; each row
    /// sums to 1 (or is all 0 if the mask left that query nothing to attend to).
    pub weights: Vec<Matrix>,
    /// Each head's queries, `n_heads` matrices of `(n_q, d_k)`.
    pub q: Vec<Matrix>,
    /// Each head's keys, `n_heads` matrices of `(n_k, d_k)`.
    pub k: Vec<Matrix>,
    /// Each head's values, `n_heads` matrices of `(n_k, d_k)`.
    pub v: Vec<Matrix>,
    /// The heads' outputs side by side, the input of `w_o`: `(n_q, d_model)`.
    pub concat: Matrix,
}
// ANCHOR_END: multi_head_forward

// ANCHOR: multi_head_grads
/// Gradients of a loss through [`MultiHeadAttention`].
#[derive(Debug, Clone, PartialEq)]
pub struct MultiHeadGrads {
    /// `∂L/∂query_input`, `(n_q, d_model)`: what flows back through `w_q`.
    pub d_query_input: Matrix,
    /// `∂L/∂key_value_input`, `(n_k, d_model)`: the sum of what flows back through
    /// `w_k` and `w_v`, since that input feeds both.
    ///
    /// In self-attention both inputs are the same `x`, so `∂L/∂x` is
    /// `d_query_input + d_key_value_input`.
    pub d_key_value_input: Matrix,
    /// Gradients of the query projection.
    pub w_q: LinearGrads,
    /// Gradients of the key projection.
    pub w_k: LinearGrads,
    /// Gradients of the value projection.
    pub w_v: LinearGrads,
    /// Gradients of the output projection.
    pub w_o: LinearGrads,
}
// ANCHOR_END: multi_head_grads

impl MultiHeadAttention {
    /// Multi-head attention from its number of heads and four `(d_model, d_model)`
    /// projections.
    ///
    /// Panics if a projection is not square, if they differ in size, or if
    /// `n_heads` is 0 or does not divide `d_model`.
    pub fn new(
        n_heads: usize,
        w_q: Linear,
        w_k: Linear,
        w_v: Linear,
        w_o: Linear,
    ) -> Self {
        let d_model = w_q.weight.ncols();
        for (name, layer) in [("w_q", &w_q), ("w_k", &w_k), ("w_v", &w_v), ("w_o", &w_o)]
        {
            assert_eq!(
                layer.weight.dim(),
                (d_model, d_model),
                "{name} must be (d_model, d_model) = ({d_model}, {d_model})"
            );
        }
        assert!(
            n_heads > 0 && d_model.is_multiple_of(n_heads),
            "n_heads ({n_heads}) must be positive and divide d_model ({d_model})"
        );
        Self {
            n_heads,
            w_q,
            w_k,
            w_v,
            w_o,
        }
    }

    /// The model width `d_model`: the features of the inputs and of the output.
    pub fn d_model(&self) -> usize {
        self.w_q.weight.ncols()
    }

    /// The width of one head, `d_k = d_model / n_heads` (the paper's `d_k = d_v`).
    pub fn d_k(&self) -> usize {
        self.d_model() / self.n_heads
    }

    // ANCHOR: mha_forward
    /// Multi-head attention of `query_input` `(n_q, d_model)` over
    /// `key_value_input` `(n_k, d_model)`; `mask`, if given, is `(n_q, n_k)` and
    /// applies to every head.
    ///
    /// 1. project `Q = query_input W_qᵀ + b_q`, `K` and `V` from `key_value_input`;
    /// 2. split each into `n_heads` matrices of width `d_k` ([`split_heads`]);
    /// 3. attend, head by head, with lesson 02's `scaled_dot_product_attention`;
    /// 4. merge the heads' outputs ([`merge_heads`]) and project them with `w_o`.
    ///
    /// Self-attention is `forward(&x, &x, mask)`. Book: chapter 03, "The forward
    /// pass".
    pub fn forward(
        &self,
        query_input: &Matrix,
        key_value_input: &Matrix,
        mask: Option<&Mask>,
    ) -> MultiHeadForward {
        // TODO: project (w_q on query_input; w_k, w_v on key_value_input),
        //       split each into heads, run lesson 02's attention head by head
        //       with the same mask, merge the heads' outputs and apply w_o.
        //       Keep what the backward pass needs in the MultiHeadForward.
        // BEGIN SOLUTION: todo!("MultiHeadAttention::forward")
        let q = self.w_q.forward(query_input); // (n_q, d_model)
        let k = self.w_k.forward(key_value_input); // (n_k, d_model)
        let v = self.w_v.forward(key_value_input); // (n_k, d_model)
        let q = split_heads(&q, self.n_heads); // n_heads × (n_q, d_k)
        let k = split_heads(&k, self.n_heads); // n_heads × (n_k, d_k)
        let v = split_heads(&v, self.n_heads); // n_heads × (n_k, d_k)
        let mut outputs = Vec::with_capacity(self.n_heads);
        let mut weights = Vec::with_capacity(self.n_heads);
        for head in 0..self.n_heads {
            let attention =
                scaled_dot_product_attention(&q[head], &k[head], &v[head], mask);
            outputs.push(attention.output); // (n_q, d_k)
            weights.push(attention.weights); // (n_q, n_k)
        }
        let concat = merge_heads(&outputs); // (n_q, d_model)
        let output = self.w_o.forward(&concat); // (n_q, d_model)
        MultiHeadForward {
            output,
            weights,
            q,
            k,
            v,
            concat,
        }
        // END SOLUTION
    }
    // ANCHOR_END: mha_forward

    // ANCHOR: parameter_count
    /// The number of learned numbers: every weight and every bias of the four
    /// projections. That is `4·d_model² + 4·d_model`, whatever `n_heads` is.
    /// Book: chapter 03, "What it costs".
    pub fn parameter_count(&self) -> usize {
        // TODO: add up `weight.len() + bias.len()` over the four projections.
        // BEGIN SOLUTION: todo!("MultiHeadAttention::parameter_count")
        [&self.w_q, &self.w_k, &self.w_v, &self.w_o]
            .iter()
            .map(|layer| layer.weight.len() + layer.bias.len())
            .sum()
        // END SOLUTION
    }
    // ANCHOR_END: parameter_count

    // ANCHOR: mha_backward
    /// The backward pass, from the forward's two inputs, its saved `forward`, and
    /// the upstream gradient `d_output` `(n_q, d_model)`:
    ///
    /// ```text
    /// w_o's backward (input: concat)   → dW_o, db_o, dConcat (n_q, d_model)
    /// split dConcat into the heads     → dO_i (n_q, d_k)
    /// lesson 02's attention backward   → dQ_i, dK_i, dV_i, head by head
    /// merge each of them               → dQ (n_q, d_model), dK, dV (n_k, d_model)
    /// w_q, w_k, w_v backward           → their dW and db, and
    ///     d_query_input = dQ W_q,  d_key_value_input = dK W_k + dV W_v
    /// ```
    ///
    /// Book: chapter 03, "The backward pass".
    pub fn backward(
        &self,
        query_input: &Matrix,
        key_value_input: &Matrix,
        forward: &MultiHeadForward,
        d_output: &Matrix,
    ) -> MultiHeadGrads {
        // TODO: follow the table above, from w_o back to the input projections;
        //       key_value_input feeds w_k and w_v: its gradient sums both paths.
        // BEGIN SOLUTION: todo!("MultiHeadAttention::backward")
        let w_o = self.w_o.backward(&forward.concat, d_output);
        let d_heads = split_heads(&w_o.d_x, self.n_heads); // n_heads × (n_q, d_k)
        let mut d_q = Vec::with_capacity(self.n_heads);
        let mut d_k = Vec::with_capacity(self.n_heads);
        let mut d_v = Vec::with_capacity(self.n_heads);
        for (head, d_head) in d_heads.iter().enumerate() {
            let grads = scaled_dot_product_attention_backward(
                &forward.q[head],
                &forward.k[head],
                &forward.v[head],
                &forward.weights[head],
                d_head,
            );
            d_q.push(grads.d_q); // (n_q, d_k)
            d_k.push(grads.d_k); // (n_k, d_k)
            d_v.push(grads.d_v); // (n_k, d_k)
        }
        let w_q = self.w_q.backward(query_input, &merge_heads(&d_q));
        let w_k = self.w_k.backward(key_value_input, &merge_heads(&d_k));
        let w_v = self.w_v.backward(key_value_input, &merge_heads(&d_v));
        let d_query_input = w_q.d_x.clone(); // (n_q, d_model)
        let d_key_value_input = &w_k.d_x + &w_v.d_x; // (n_k, d_model)
        MultiHeadGrads {
            d_query_input,
            d_key_value_input,
            w_q,
            w_k,
            w_v,
            w_o,
        }
        // END SOLUTION
    }
    // ANCHOR_END: mha_backward
}
