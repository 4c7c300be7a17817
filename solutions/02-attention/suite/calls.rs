//! The calls into lesson 02, each observed: one wrapper per function and method the
//! learner writes, shared by the graded and the held-out suite (both include this file).
//!
//! Layers and heads are built with `Linear::new` and struct literals, which the lesson gives
//! complete; every function and method below is the learner's, so every call goes through
//! `observe` (see `course_harness::tape`) and returns course types only. Results come back
//! as matrices and are put back in the lesson's plain structs (`Attention`, the gradients)
//! here, with the course's one way to take them apart (`course_harness::tape_structs`).

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
    let _args = course_harness::call_args!(scores);
    observe("softmax_rows", || softmax_rows(scores))
}

/// `softmax_rows_backward(weights, d_weights)`.
pub fn softmax_backward(weights: &Matrix, d_weights: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(weights, d_weights);
    observe("softmax_rows_backward", || {
        softmax_rows_backward(weights, d_weights)
    })
}

/// `causal_mask(len)`.
pub fn causal(len: usize) -> Mask {
    let _args = course_harness::call_args!(len);
    observe("causal_mask", || causal_mask(len))
}

/// `padding_mask(n_queries, key_is_token)`.
pub fn padding(n_queries: usize, key_is_token: &[bool]) -> Mask {
    let _args = course_harness::call_args!(n_queries, key_is_token);
    observe("padding_mask", || padding_mask(n_queries, key_is_token))
}

/// `apply_mask(scores, mask)`.
pub fn masked(scores: &Matrix, mask: &Mask) -> Matrix {
    let _args = course_harness::call_args!(scores, mask);
    observe("apply_mask", || apply_mask(scores, mask))
}

// The lesson's result structs go on the tape through `observe_parts`, with the course's
// one way to take them apart.
course_harness::tape_structs! {
    Attention { output: Matrix, weights: Matrix }
    AttentionGrads { d_q: Matrix, d_k: Matrix, d_v: Matrix }
    LinearGrads { d_x: Matrix, d_weight: Matrix, d_bias: Vector }
    HeadForward { q: Matrix, k: Matrix, v: Matrix, attention: Attention }
    HeadGrads { d_x: Matrix, w_q: LinearGrads, w_k: LinearGrads, w_v: LinearGrads }
}

/// `scaled_dot_product_attention(q, k, v, mask)`.
pub fn attend(q: &Matrix, k: &Matrix, v: &Matrix, mask: Option<&Mask>) -> Attention {
    let _args = course_harness::call_args!(q, k, v, mask);
    observe_parts("scaled_dot_product_attention", || {
        scaled_dot_product_attention(q, k, v, mask)
    })
}

/// `scaled_dot_product_attention_backward(q, k, v, weights, d_output)`.
pub fn attend_backward(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    weights: &Matrix,
    d_output: &Matrix,
) -> AttentionGrads {
    let _args = course_harness::call_args!(q, k, v, weights, d_output);
    observe_parts("scaled_dot_product_attention_backward", || {
        scaled_dot_product_attention_backward(q, k, v, weights, d_output)
    })
}

/// `layer.forward(x)`.
pub fn linear_forward(layer: &Linear, x: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(x);
    observe("Linear::forward", || layer.forward(x))
}

/// `layer.backward(x, d_y)`.
pub fn linear_backward(layer: &Linear, x: &Matrix, d_y: &Matrix) -> LinearGrads {
    let _args = course_harness::call_args!(x, d_y);
    observe_parts("Linear::backward", || layer.backward(x, d_y))
}

/// `head.forward(x, mask)`.
pub fn head_forward(
    head: &SelfAttentionHead,
    x: &Matrix,
    mask: Option<&Mask>,
) -> HeadForward {
    let _args = course_harness::call_args!(x, mask);
    observe_parts("SelfAttentionHead::forward", || head.forward(x, mask))
}

/// `head.backward(x, forward, d_output)`, with `forward` as `head_forward` returned it.
pub fn head_backward(
    head: &SelfAttentionHead,
    x: &Matrix,
    forward: &HeadForward,
    d_output: &Matrix,
) -> HeadGrads {
    let _args = course_harness::call_args!(x, d_output);
    observe_parts("SelfAttentionHead::backward", || {
        head.backward(x, forward, d_output)
    })
}
