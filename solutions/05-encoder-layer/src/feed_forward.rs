//! The position-wise feed-forward network, `FFN(x) = max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2`, and
//! its backward pass. Book: chapter 05, "The feed-forward network".

use crate::{Linear, LinearGrads};
use course_common::Matrix;

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
        // BEGIN SOLUTION: todo!("FeedForward::forward")
        let hidden = self.w_1.forward(x).mapv(|v| v.max(0.0)); // (n, d_ff)
        let output = self.w_2.forward(&hidden); // (n, d_model)
        FeedForwardForward { hidden, output }
        // END SOLUTION
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
        // BEGIN SOLUTION: todo!("FeedForward::backward")
        let w_2 = self.w_2.backward(&forward.hidden, d_output);
        let open = forward.hidden.mapv(|h| if h > 0.0 { 1.0 } else { 0.0 }); // (n, d_ff)
        let d_pre_activation = &w_2.d_x * &open; // (n, d_ff)
        let w_1 = self.w_1.backward(x, &d_pre_activation);
        FeedForwardGrads {
            d_x: w_1.d_x.clone(), // (n, d_model)
            w_1,
            w_2,
        }
        // END SOLUTION
    }
    // ANCHOR_END: feed_forward_backward
}
