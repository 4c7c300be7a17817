//! The visible tests of lesson 05: what "done" looks like.
//!
//! Run them with `cargo test -p encoder-layer`. The checker's graded tests check much
//! more (PyTorch's values for every layer, post-LN and pre-LN, masks, every gradient);
//! `cargo run -p checker -- grade 05-encoder-layer` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use course_common::ndarray::{Axis, array};
use course_common::{Float, Matrix, Vector};
use course_harness::{
    Misconception, Tol, assert_matrix_close, linspace, linspace_matrix,
};
use encoder_layer::{
    DecoderLayer, EncoderLayer, FeedForward, LayerNorm, Linear, MultiHeadAttention,
    NormPosition, causal_mask, padding_mask,
};

/// A (rows, cols) linear layer with evenly spaced weights and biases.
fn linear(rows: usize, cols: usize, start: f64, end: f64) -> Linear {
    Linear::new(
        linspace_matrix(rows, cols, start, end),
        Vector::from(linspace(end / 10.0, start / 10.0, rows)),
    )
}

fn attention(shift: f64) -> MultiHeadAttention {
    MultiHeadAttention::new(
        2,
        linear(6, 6, -0.5 + shift, 0.6),
        linear(6, 6, 0.4, -0.7 + shift),
        linear(6, 6, -0.3, 0.5 - shift),
        linear(6, 6, 0.6 - shift, -0.2),
    )
}

fn encoder(norm_position: NormPosition) -> EncoderLayer {
    EncoderLayer::new(
        attention(0.0),
        FeedForward::new(linear(10, 6, -0.5, 0.6), linear(6, 10, 0.45, -0.55)),
        LayerNorm::new(6),
        LayerNorm::new(6),
        norm_position,
    )
}

/// Three tokens of width 6 (not evenly spaced: LayerNorm would make such rows equal).
fn tokens() -> Matrix {
    array![
        [0.9, -0.4, 0.1, 0.7, -1.2, 0.3],
        [-0.5, 0.8, 1.1, -0.9, 0.2, 0.0],
        [0.3, 0.3, -0.8, 0.5, 0.9, -1.0]
    ]
}

/// The mean and the (biased) variance of each row.
fn row_moments(m: &Matrix) -> (Vector, Vector) {
    let mean = m.mean_axis(Axis(1)).expect("rows have features");
    let centred = m - &mean.view().insert_axis(Axis(1));
    let variance = centred.mapv(|v| v * v).mean_axis(Axis(1)).expect("rows");
    (mean, variance)
}

#[test]
fn layer_norm_of_1_0_0_0_is_what_pytorch_gives() {
    // μ = 1/4 and σ² = 3/16 (divided by 4, not 3), so x̂ = (x − 1/4) / √(3/16 + 1e-5):
    // 0.75 / 0.43302 = 1.7320 and −0.25 / 0.43302 = −0.5773. PyTorch's nn.LayerNorm(4)
    // gives the same; the Annotated Transformer's LayerNorm gives [1.5, −0.5, ...].
    let x = array![[1.0, 0.0, 0.0, 0.0]];
    let y = LayerNorm::new(4).forward(&x);
    let normalised = |spread: Float| x.mapv(|v| (v - 0.25) / spread);
    let eps: Float = 1e-5;
    assert_matrix_close(
        "LayerNorm([1, 0, 0, 0])",
        &y,
        &normalised((3.0 / 16.0 + eps).sqrt()),
        Tol::TIGHT,
        &[
            Misconception {
                cause: "the variance was divided by n − 1 (unbiased): LayerNorm divides by \
                        n, the number of features, as PyTorch's nn.LayerNorm does",
                result: normalised((0.25 + eps).sqrt()),
            },
            Misconception {
                cause: "the rows were divided by std + ε with the unbiased std, as the \
                        Annotated Transformer's LayerNorm does: the course (and PyTorch) \
                        divides by √(σ² + ε) with σ² the mean of the squared deviations",
                result: normalised(0.5 + eps),
            },
        ],
    );
}

#[test]
fn layer_norm_gives_each_row_mean_zero_and_variance_almost_one() {
    // Each row on its own, over its features. The variance is σ²/(σ² + ε), a hair
    // below 1 because ε sits inside the square root.
    let y = LayerNorm::new(6).forward(&tokens());
    let (mean, variance) = row_moments(&y);
    approx::assert_abs_diff_eq!(mean, Vector::zeros(3), epsilon = 1e-12);
    approx::assert_abs_diff_eq!(variance, Vector::ones(3), epsilon = 1e-4);
}

#[test]
fn the_ffn_is_a_two_layer_mlp_with_a_relu() {
    // d_model = 2, d_ff = 3. For x = [2, 1]: x W_1ᵀ + b_1 = [2, 1, 3] + [0, 0, −1]
    // = [2, 1, 2], all positive, and W_2 maps it to [2 + 1 + 2, 1 − 2] + [0.5, 0]. For
    // x = [1, −2]: [1, −2, −1] + b_1 = [1, −2, −2], the ReLU keeps [1, 0, 0], and the
    // output is [1 + 0.5, 0].
    let ffn = FeedForward::new(
        Linear::new(
            array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
            Vector::from(vec![0.0, 0.0, -1.0]),
        ),
        Linear::new(
            array![[1.0, 1.0, 1.0], [0.0, 1.0, -1.0]],
            Vector::from(vec![0.5, 0.0]),
        ),
    );
    let forward = ffn.forward(&array![[2.0, 1.0], [1.0, -2.0]]);
    assert_eq!(forward.hidden, array![[2.0, 1.0, 2.0], [1.0, 0.0, 0.0]]);
    assert_matrix_close(
        "FeedForward output",
        &forward.output,
        &array![[5.5, -1.0], [1.5, 0.0]],
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn post_ln_is_the_default_and_normalises_the_output() {
    assert_eq!(NormPosition::default(), NormPosition::Post);
    // Post-LN ends with a LayerNorm (γ = 1, β = 0 here): every output row has mean 0
    // and variance almost 1. Pre-LN ends with a residual addition: its rows don't.
    let post = encoder(NormPosition::Post).forward(&tokens(), None).output;
    let (mean, variance) = row_moments(&post);
    approx::assert_abs_diff_eq!(mean, Vector::zeros(3), epsilon = 1e-12);
    approx::assert_abs_diff_eq!(variance, Vector::ones(3), epsilon = 1e-4);
    let pre = encoder(NormPosition::Pre).forward(&tokens(), None).output;
    let (_, variance) = row_moments(&pre);
    assert!(
        variance.iter().all(|v| (v - 1.0).abs() > 0.05),
        "pre-LN's output is x + (sublayers' outputs), not normalised: {variance}"
    );
}

#[test]
fn the_base_models_layers_have_3_and_4_million_parameters() {
    // d_model = 512, 8 heads, d_ff = 2048: attention 4·512² + 4·512 = 1,050,624,
    // FFN 2·512·2048 + 2048 + 512 = 2,099,712, LayerNorm 2·512 = 1,024.
    let zero = |rows, cols| Linear::new(Matrix::zeros((rows, cols)), Vector::zeros(rows));
    let attention = || {
        MultiHeadAttention::new(
            8,
            zero(512, 512),
            zero(512, 512),
            zero(512, 512),
            zero(512, 512),
        )
    };
    let ffn = || FeedForward::new(zero(2048, 512), zero(512, 2048));
    let encoder = EncoderLayer::new(
        attention(),
        ffn(),
        LayerNorm::new(512),
        LayerNorm::new(512),
        NormPosition::Post,
    );
    assert_eq!(encoder.parameter_count(), 1_050_624 + 2_099_712 + 2 * 1_024);
    let decoder = DecoderLayer::new(
        attention(),
        attention(),
        ffn(),
        LayerNorm::new(512),
        LayerNorm::new(512),
        LayerNorm::new(512),
        NormPosition::Post,
    );
    assert_eq!(
        decoder.parameter_count(),
        2 * 1_050_624 + 2_099_712 + 3 * 1_024
    );
}

#[test]
fn the_decoder_reads_the_memory_and_never_the_future() {
    // 3 target tokens attend over 5 source tokens (the last one padding).
    let decoder = DecoderLayer::new(
        attention(0.0),
        attention(0.1),
        FeedForward::new(linear(10, 6, -0.5, 0.6), linear(6, 10, 0.45, -0.55)),
        LayerNorm::new(6),
        LayerNorm::new(6),
        LayerNorm::new(6),
        NormPosition::Post,
    );
    let memory = linspace_matrix(5, 6, -1.0, 1.0).mapv(f64::sin);
    let self_mask = causal_mask(3);
    let memory_mask = padding_mask(3, &[true, true, true, true, false]);
    let run =
        |x: &Matrix| decoder.forward(x, &memory, Some(&self_mask), Some(&memory_mask));
    let forward = run(&tokens());
    assert_eq!(forward.output.dim(), (3, 6));
    assert_eq!(forward.cross_attention.weights[0].dim(), (3, 5));
    // Changing the last target token leaves the first two outputs exactly as they were.
    let mut changed = tokens();
    changed.row_mut(2).fill(4.0);
    let after = run(&changed).output;
    assert_eq!(after.row(0), forward.output.row(0));
    assert_eq!(after.row(1), forward.output.row(1));
    // The encoder is trained through the decoder: the memory gets a gradient too.
    let grads = decoder.backward(&tokens(), &memory, &forward, &Matrix::ones((3, 6)));
    assert_eq!(grads.d_memory.dim(), (5, 6));
}
