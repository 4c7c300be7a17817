// BEGIN STUB
// //! Lesson 02: scaled dot-product attention.
// END STUB
// BEGIN SOLUTION
//! Lesson 02: scaled dot-product attention, solved.
// END SOLUTION
//!
//! ```text
//! Attention(Q, K, V) = softmax(Q Kᵀ / √d_k + M) V
//! ```
//!
//! | name      | shape        | meaning                                              |
//! |-----------|--------------|------------------------------------------------------|
//! | `q`       | `(n_q, d_k)` | one query per position that asks                     |
//! | `k`       | `(n_k, d_k)` | one key per position that can be looked at           |
//! | `v`       | `(n_k, d_v)` | one value per key: what that position hands over     |
//! | `weights` | `(n_q, n_k)` | row `i`: how much query `i` takes from each position |
//! | `output`  | `(n_q, d_v)` | row `i`: the weighted average of the values          |
//!
//! `M` is a mask: 0 where a query may attend to a key, −∞ where it may not.
//! The book explains every step in chapter 02, "Attention".
// BEGIN STUB
// //!
// //! # How to work on this lesson
// //!
// //! Every `todo!()` below is yours to replace; the `///` comment above it is the
// //! contract (shapes, formula, where the book explains it). Work top to bottom: each
// //! function uses the ones before it. Check yourself with
// //!
// //! ```text
// //! cargo test -p attention          # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch    # the graded tests, re-run on every save
// //! ```
// //!
// //! Don't change the signatures or the tests: grading uses only this `src/` folder,
// //! with the course's own copy of everything else.
// END STUB

use course_common::ndarray::{Array2, Axis, Zip};
use course_common::{Float, Matrix, Vector};

/// Which keys each query may attend to: `mask[[i, j]]` is `true` when query `i` may
/// look at key `j`. Shape `(n_q, n_k)`, like the attention weights it masks.
///
/// Masks combine with `&`: `&causal_mask(n) & &padding_mask(n, &is_token)`.
pub type Mask = Array2<bool>;

// ANCHOR: softmax_rows
/// Softmax of each row of `scores`, computed stably.
///
/// `weights[i, j] = exp(scores[i, j] - m_i) / Σ_j' exp(scores[i, j'] - m_i)`, where
/// `m_i` is the largest score of row `i`. Subtracting it changes nothing
/// mathematically and keeps `exp` from overflowing on large scores.
///
/// Scores of `-∞` (masked) get a weight of exactly 0. A row whose scores are all
/// `-∞` (a query that may attend to nothing) gets all-zero weights, never NaN.
///
/// Shape: `(n, m)` in, `(n, m)` out. Book: chapter 02, "Softmax, stably".
pub fn softmax_rows(scores: &Matrix) -> Matrix {
    // TODO: for each row, subtract its maximum, exponentiate, divide by the sum;
    //       a row whose maximum is -∞ has nothing to attend to: make it all zeros.
    // BEGIN SOLUTION: todo!("softmax_rows")
    let mut weights = scores.clone();
    for mut row in weights.rows_mut() {
        let max = row.fold(Float::NEG_INFINITY, |max, &score| max.max(score));
        if max == Float::NEG_INFINITY {
            // Nothing to attend to: no weight anywhere, rather than 0/0.
            row.fill(0.0);
            continue;
        }
        row.mapv_inplace(|score| (score - max).exp());
        let sum = row.sum();
        row /= sum;
    }
    weights
    // END SOLUTION
}
// ANCHOR_END: softmax_rows

// ANCHOR: softmax_rows_backward
/// The backward pass of [`softmax_rows`]: the gradient with respect to the scores.
///
/// With `W = softmax_rows(S)` and upstream gradient `dW`, each row's Jacobian is
/// `diag(w) - w wᵀ`, which gives
/// `dS[i, j] = W[i, j] · (dW[i, j] - Σ_j' W[i, j'] · dW[i, j'])`.
///
/// Shapes: `weights` and `d_weights` `(n, m)`, result `(n, m)`.
/// Book: chapter 02, "The backward pass".
pub fn softmax_rows_backward(weights: &Matrix, d_weights: &Matrix) -> Matrix {
    // TODO: dS = W ⊙ (dW - rowsum(W ⊙ dW)); `sum_axis` and `insert_axis` help.
    // BEGIN SOLUTION: todo!("softmax_rows_backward")
    let row_dots = (weights * d_weights).sum_axis(Axis(1)).insert_axis(Axis(1)); // (n, 1)
    weights * &(d_weights - &row_dots) // (n, m)
    // END SOLUTION
}
// ANCHOR_END: softmax_rows_backward

// ANCHOR: causal_mask
/// The causal (look-ahead) mask: position `i` may attend to positions `0..=i` only.
///
/// `mask[[i, j]] = j <= i`: lower-triangular, diagonal included. Shape
/// `(len, len)`. Book: chapter 02, "Masks".
pub fn causal_mask(len: usize) -> Mask {
    // TODO: true on and below the diagonal (`Mask::from_shape_fn`).
    // BEGIN SOLUTION: todo!("causal_mask")
    Mask::from_shape_fn((len, len), |(i, j)| j <= i)
    // END SOLUTION
}
// ANCHOR_END: causal_mask

// ANCHOR: padding_mask
/// The key-padding mask: every query may attend to the keys that are real tokens
/// and to none of the padding.
///
/// `mask[[i, j]] = key_is_token[j]` for every query `i`. Shape
/// `(n_queries, key_is_token.len())`. Book: chapter 02, "Masks".
pub fn padding_mask(n_queries: usize, key_is_token: &[bool]) -> Mask {
    // TODO: column j is `key_is_token[j]` in every row.
    // BEGIN SOLUTION: todo!("padding_mask")
    Mask::from_shape_fn((n_queries, key_is_token.len()), |(_, j)| key_is_token[j])
    // END SOLUTION
}
// ANCHOR_END: padding_mask

// ANCHOR: apply_mask
/// Scores with the masked-out entries replaced by `-∞`, the others unchanged.
///
/// Masking *before* the softmax is what makes masked weights exactly 0 while the
/// others still sum to 1. Panics if the shapes differ. Shape `(n_q, n_k)`. Book:
/// chapter 02, "Masks".
pub fn apply_mask(scores: &Matrix, mask: &Mask) -> Matrix {
    // TODO: keep the allowed scores; put -∞ (`Float::NEG_INFINITY`) where the mask
    //       is false.
    // BEGIN SOLUTION: todo!("apply_mask")
    assert_eq!(
        scores.dim(),
        mask.dim(),
        "the mask must have the scores' shape (n_q, n_k)"
    );
    Zip::from(scores)
        .and(mask)
        .map_collect(|&score, &allowed| if allowed { score } else { Float::NEG_INFINITY })
    // END SOLUTION
}
// ANCHOR_END: apply_mask

/// What attention returns: the output and the weights that produced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    /// `weights · V`, shape `(n_q, d_v)`.
    pub output: Matrix,
    /// `softmax(Q Kᵀ / √d_k + M)`, shape `(n_q, n_k)`; each row sums to 1 (or is
    /// all 0 if the mask left that query nothing to attend to).
    pub weights: Matrix,
}

// ANCHOR: scaled_dot_product_attention
/// Scaled dot-product attention: `softmax(Q Kᵀ / √d_k + M) V`.
///
/// - `q`: `(n_q, d_k)`, `k`: `(n_k, d_k)`, `v`: `(n_k, d_v)`;
/// - `mask`: `None`, or `(n_q, n_k)` with `true` where attending is allowed.
///
/// Dividing by `√d_k` keeps the scores' spread independent of `d_k`: for query and
/// key entries of unit variance, `q · k` has variance `d_k`, which would push the
/// softmax into saturation, where its gradients vanish.
///
/// Panics if the shapes do not fit. Book: chapter 02, "Scaled dot-product
/// attention".
pub fn scaled_dot_product_attention(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    mask: Option<&Mask>,
) -> Attention {
    // TODO: scores = Q Kᵀ / √d_k, mask them if a mask is given, softmax each row,
    //       then weight the values. Return both the output and the weights.
    // BEGIN SOLUTION: todo!("scaled_dot_product_attention")
    assert_eq!(
        q.ncols(),
        k.ncols(),
        "queries and keys must have the same width d_k"
    );
    assert_eq!(k.nrows(), v.nrows(), "there must be one value per key");
    let d_k = q.ncols() as Float;
    let scores = q.dot(&k.t()) / d_k.sqrt(); // (n_q, n_k)
    let scores = match mask {
        Some(mask) => apply_mask(&scores, mask),
        None => scores,
    };
    let weights = softmax_rows(&scores); // (n_q, n_k)
    let output = weights.dot(v); // (n_q, d_v)
    Attention { output, weights }
    // END SOLUTION
}
// ANCHOR_END: scaled_dot_product_attention

/// Gradients of a loss with respect to the inputs of attention.
#[derive(Debug, Clone, PartialEq)]
pub struct AttentionGrads {
    /// `∂L/∂Q`, shape `(n_q, d_k)`.
    pub d_q: Matrix,
    /// `∂L/∂K`, shape `(n_k, d_k)`.
    pub d_k: Matrix,
    /// `∂L/∂V`, shape `(n_k, d_v)`.
    pub d_v: Matrix,
}

// ANCHOR: scaled_dot_product_attention_backward
/// The backward pass of [`scaled_dot_product_attention`].
///
/// Given the forward's inputs, its `weights` and the upstream gradient `d_output`
/// `(n_q, d_v)`, with `s = 1/√d_k`:
///
/// ```text
/// dV = Wᵀ dO          dW = dO Vᵀ          dS = softmax_rows_backward(W, dW) · s
/// dQ = dS K           dK = dSᵀ Q
/// ```
///
/// The mask needs no special care: masked weights are 0, so their score gradients
/// are 0. Book: chapter 02, "The backward pass".
pub fn scaled_dot_product_attention_backward(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    weights: &Matrix,
    d_output: &Matrix,
) -> AttentionGrads {
    // TODO: follow the five lines of the formula above, from dV back to dQ and dK.
    // BEGIN SOLUTION: todo!("scaled_dot_product_attention_backward")
    let scale = 1.0 / (q.ncols() as Float).sqrt();
    let d_v = weights.t().dot(d_output); // (n_k, d_v)
    let d_weights = d_output.dot(&v.t()); // (n_q, n_k)
    let d_scores = softmax_rows_backward(weights, &d_weights) * scale; // (n_q, n_k)
    let d_q = d_scores.dot(k); // (n_q, d_k)
    let d_k = d_scores.t().dot(q); // (n_k, d_k)
    AttentionGrads { d_q, d_k, d_v }
    // END SOLUTION
}
// ANCHOR_END: scaled_dot_product_attention_backward

/// A fully connected layer, `y = x Wᵀ + b`.
///
/// The weight has shape `(d_out, d_in)`, one row per output feature, as in
/// PyTorch's `nn.Linear`: weights from PyTorch copy over unchanged, and the whole
/// course keeps this convention. Book: chapter 02, "Projections: the Linear layer".
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    /// `W`, shape `(d_out, d_in)`.
    pub weight: Matrix,
    /// `b`, shape `(d_out,)`.
    pub bias: Vector,
}

/// Gradients of a loss through a [`Linear`] layer.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearGrads {
    /// `∂L/∂x`, shape `(n, d_in)`.
    pub d_x: Matrix,
    /// `∂L/∂W`, shape `(d_out, d_in)`.
    pub d_weight: Matrix,
    /// `∂L/∂b`, shape `(d_out,)`.
    pub d_bias: Vector,
}

impl Linear {
    /// A layer from its weight `(d_out, d_in)` and bias `(d_out,)`.
    ///
    /// Panics if the bias does not have one entry per output feature.
    pub fn new(weight: Matrix, bias: Vector) -> Self {
        assert_eq!(
            bias.len(),
            weight.nrows(),
            "the bias needs one entry per output feature (per row of the weight)"
        );
        Self { weight, bias }
    }

    // ANCHOR: linear_forward
    /// `y = x Wᵀ + b`: `(n, d_in)` in, `(n, d_out)` out. The bias is added to every
    /// row.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        // TODO: x Wᵀ + b; adding a Vector to a Matrix broadcasts it over the rows.
        // BEGIN SOLUTION: todo!("Linear::forward")
        x.dot(&self.weight.t()) + &self.bias // (n, d_out)
        // END SOLUTION
    }
    // ANCHOR_END: linear_forward

    // ANCHOR: linear_backward
    /// The backward pass: given the input `x` `(n, d_in)` and the upstream gradient
    /// `d_y` `(n, d_out)`, returns `dx = dY W`, `dW = dYᵀ x` and `db = Σ_rows dY`.
    pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> LinearGrads {
        // TODO: dx = dY W, dW = dYᵀ x, db = the sum of dY's rows
        //       (`sum_axis(Axis(0))`).
        // BEGIN SOLUTION: todo!("Linear::backward")
        LinearGrads {
            d_x: d_y.dot(&self.weight),    // (n, d_in)
            d_weight: d_y.t().dot(x),      // (d_out, d_in)
            d_bias: d_y.sum_axis(Axis(0)), // (d_out,)
        }
        // END SOLUTION
    }
    // ANCHOR_END: linear_backward
}

/// One head of self-attention: queries, keys and values all projected from the same
/// `x`.
///
/// `Q = x W_qᵀ + b_q`, `K = x W_kᵀ + b_k`, `V = x W_vᵀ + b_v`, then
/// `scaled_dot_product_attention(Q, K, V, mask)`.
/// Book: chapter 02, "Where Q, K and V come from".
#[derive(Debug, Clone, PartialEq)]
pub struct SelfAttentionHead {
    /// The query projection, `(d_k, d_model)`.
    pub w_q: Linear,
    /// The key projection, `(d_k, d_model)`.
    pub w_k: Linear,
    /// The value projection, `(d_v, d_model)`.
    pub w_v: Linear,
}

/// The forward pass of a [`SelfAttentionHead`], kept for its backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadForward {
    /// The projected queries, `(n, d_k)`.
    pub q: Matrix,
    /// The projected keys, `(n, d_k)`.
    pub k: Matrix,
    /// The projected values, `(n, d_v)`.
    pub v: Matrix,
    /// The attention output `(n, d_v)` and weights `(n, n)`.
    pub attention: Attention,
}

/// Gradients of a loss through a [`SelfAttentionHead`].
#[derive(Debug, Clone, PartialEq)]
pub struct HeadGrads {
    /// `∂L/∂x`, shape `(n, d_model)`: the sum of what flows back through all three
    /// projections, since `x` feeds each of them.
    pub d_x: Matrix,
    /// Gradients of the query projection (its `d_x` is the query path's share of
    /// `d_x`).
    pub w_q: LinearGrads,
    /// Gradients of the key projection.
    pub w_k: LinearGrads,
    /// Gradients of the value projection.
    pub w_v: LinearGrads,
}

impl SelfAttentionHead {
    // ANCHOR: head_forward
    /// Self-attention of `x` `(n, d_model)` with itself; `mask` is `(n, n)` if
    /// given.
    pub fn forward(&self, x: &Matrix, mask: Option<&Mask>) -> HeadForward {
        // TODO: project x to Q, K and V with the three Linear layers, then attend.
        // BEGIN SOLUTION: todo!("SelfAttentionHead::forward")
        let q = self.w_q.forward(x); // (n, d_k)
        let k = self.w_k.forward(x); // (n, d_k)
        let v = self.w_v.forward(x); // (n, d_v)
        let attention = scaled_dot_product_attention(&q, &k, &v, mask);
        HeadForward { q, k, v, attention }
        // END SOLUTION
    }
    // ANCHOR_END: head_forward

    // ANCHOR: head_backward
    /// The backward pass, from the forward's input `x`, its saved `forward`, and
    /// the upstream gradient of the output `d_output` `(n, d_v)`.
    pub fn backward(
        &self,
        x: &Matrix,
        forward: &HeadForward,
        d_output: &Matrix,
    ) -> HeadGrads {
        // TODO: attention's backward gives dQ, dK, dV; send each back through its
        //       projection. x fed all three, so its gradient is the sum of the
        //       three d_x.
        // BEGIN SOLUTION: todo!("SelfAttentionHead::backward")
        let grads = scaled_dot_product_attention_backward(
            &forward.q,
            &forward.k,
            &forward.v,
            &forward.attention.weights,
            d_output,
        );
        let w_q = self.w_q.backward(x, &grads.d_q);
        let w_k = self.w_k.backward(x, &grads.d_k);
        let w_v = self.w_v.backward(x, &grads.d_v);
        let d_x = &w_q.d_x + &w_k.d_x + &w_v.d_x; // (n, d_model)
        HeadGrads { d_x, w_q, w_k, w_v }
        // END SOLUTION
    }
    // ANCHOR_END: head_backward
}
