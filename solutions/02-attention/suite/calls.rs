//! The calls into lesson 02, each observed: one wrapper per function and method the
//! learner writes, shared by the graded and the held-out suite (both include this file).
//!
//! Layers and heads are built with `Linear::new` and struct literals, which the lesson gives
//! complete; every function and method below is the learner's, so every call goes through
//! `observe` (see `course_harness::tape`) and returns course types only. Results come back
//! as matrices and are put back in the lesson's plain structs (`Attention`, the gradients)
//! here.

// Each suite uses some of them.
#![allow(dead_code)]

use attention::{
    Attention, AttentionGrads, HeadForward, HeadGrads, Linear, LinearGrads, Mask,
    SelfAttentionHead, apply_mask, causal_mask, padding_mask,
    scaled_dot_product_attention, scaled_dot_product_attention_backward, softmax_rows,
    softmax_rows_backward,
};
use course_common::{Matrix, Vector};
use course_harness::observe;

/// `softmax_rows(scores)`.
pub fn softmax(scores: &Matrix) -> Matrix {
    observe("softmax_rows", || softmax_rows(scores))
}

/// `softmax_rows_backward(weights, d_weights)`.
pub fn softmax_backward(weights: &Matrix, d_weights: &Matrix) -> Matrix {
    observe("softmax_rows_backward", || {
        softmax_rows_backward(weights, d_weights)
    })
}

/// `causal_mask(len)`.
pub fn causal(len: usize) -> Mask {
    observe("causal_mask", || causal_mask(len))
}

/// `padding_mask(n_queries, key_is_token)`.
pub fn padding(n_queries: usize, key_is_token: &[bool]) -> Mask {
    observe("padding_mask", || padding_mask(n_queries, key_is_token))
}

/// `apply_mask(scores, mask)`.
pub fn masked(scores: &Matrix, mask: &Mask) -> Matrix {
    observe("apply_mask", || apply_mask(scores, mask))
}

/// `scaled_dot_product_attention(q, k, v, mask)`.
pub fn attend(q: &Matrix, k: &Matrix, v: &Matrix, mask: Option<&Mask>) -> Attention {
    let (output, weights) = observe("scaled_dot_product_attention", || {
        let attention = scaled_dot_product_attention(q, k, v, mask);
        (attention.output, attention.weights)
    });
    Attention { output, weights }
}

/// `scaled_dot_product_attention_backward(q, k, v, weights, d_output)`.
pub fn attend_backward(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    weights: &Matrix,
    d_output: &Matrix,
) -> AttentionGrads {
    let (d_q, d_k, d_v) = observe("scaled_dot_product_attention_backward", || {
        let grads = scaled_dot_product_attention_backward(q, k, v, weights, d_output);
        (grads.d_q, grads.d_k, grads.d_v)
    });
    AttentionGrads { d_q, d_k, d_v }
}

/// `layer.forward(x)`.
pub fn linear_forward(layer: &Linear, x: &Matrix) -> Matrix {
    observe("Linear::forward", || layer.forward(x))
}

/// `layer.backward(x, d_y)`.
pub fn linear_backward(layer: &Linear, x: &Matrix, d_y: &Matrix) -> LinearGrads {
    let (d_x, d_weight, d_bias) = observe("Linear::backward", || {
        let grads = layer.backward(x, d_y);
        (grads.d_x, grads.d_weight, grads.d_bias)
    });
    LinearGrads {
        d_x,
        d_weight,
        d_bias,
    }
}

/// `head.forward(x, mask)`.
pub fn head_forward(
    head: &SelfAttentionHead,
    x: &Matrix,
    mask: Option<&Mask>,
) -> HeadForward {
    let (q, k, v, output, weights) = observe("SelfAttentionHead::forward", || {
        let forward = head.forward(x, mask);
        (
            forward.q,
            forward.k,
            forward.v,
            forward.attention.output,
            forward.attention.weights,
        )
    });
    HeadForward {
        q,
        k,
        v,
        attention: Attention { output, weights },
    }
}

/// `head.backward(x, forward, d_output)`, with `forward` as `head_forward` returned it.
pub fn head_backward(
    head: &SelfAttentionHead,
    x: &Matrix,
    forward: &HeadForward,
    d_output: &Matrix,
) -> HeadGrads {
    let (d_x, w_q, w_k, w_v) = observe("SelfAttentionHead::backward", || {
        let grads = head.backward(x, forward, d_output);
        let parts = |g: LinearGrads| (g.d_x, g.d_weight, g.d_bias);
        (
            grads.d_x,
            parts(grads.w_q),
            parts(grads.w_k),
            parts(grads.w_v),
        )
    });
    let linear = |(d_x, d_weight, d_bias): (Matrix, Matrix, Vector)| LinearGrads {
        d_x,
        d_weight,
        d_bias,
    };
    HeadGrads {
        d_x,
        w_q: linear(w_q),
        w_k: linear(w_k),
        w_v: linear(w_v),
    }
}
