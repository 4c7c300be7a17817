//! The visible tests of lesson 05: what "done" looks like.
//!
//! Run them with `cargo test -p encoder-layer`. A failure says what was expected, what
//! came back and, when your result is what a common mistake gives, which mistake: the same
//! checks the graded tests use. The layers are checked against the course's outputs for
//! the same weights and tokens (recorded beside this file): if a part (LayerNorm, the
//! FFN, attention) is wrong, its own test fails too, so fix the parts first. The
//! checker's graded tests check much more
//! (PyTorch's values for every layer, post-LN and pre-LN, masks, every gradient);
//! `cargo run -p checker -- grade 05-encoder-layer` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use course_common::ndarray::{Axis, array};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::encoder_layer::NO_CAUSAL_MASK;
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Groups, Named, Tol, assert_gradient_close_named, assert_matrix_close, linspace,
    linspace_matrix, named, numerical_gradient,
};
#[cfg(feature = "builders")]
use course_mistakes::encoder_layer::{
    decoder_forward, decoder_mistakes, encoder_d_x_mistakes, encoder_forward,
    encoder_mistakes, ffn_backward_mistakes, ffn_mistakes, layer_norm_backward_mistakes,
    layer_norm_mistakes,
};
use encoder_layer::{
    DecoderLayer, EncoderLayer, FeedForward, LayerNorm, Linear, MultiHeadAttention,
    NormPosition, causal_mask, padding_mask,
};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

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

/// The sum of each row and the mean of its squares. A row that LayerNorm normalised
/// (γ = 1, β = 0) sums to 0, and the mean of its squares is σ²/(σ² + ε), a hair below 1.
fn row_sums(m: &Matrix) -> (Vector, Vector) {
    let sums = m.sum_axis(Axis(1));
    let mean_squares = m
        .mapv(|v| v * v)
        .mean_axis(Axis(1))
        .expect("rows have features");
    (sums, mean_squares)
}

#[test]
fn layer_norm_of_1_0_0_0_is_what_pytorch_gives() {
    // μ = 1/4 and σ² = 3/16 (divided by 4, not 3), so x̂ = (x − 1/4) / √(3/16 + 1e-5):
    // 0.75 / 0.43302 = 1.7320 and −0.25 / 0.43302 = −0.5773. PyTorch's nn.LayerNorm(4)
    // gives the same; the Annotated Transformer's LayerNorm gives [1.5, −0.5, ...].
    let x = array![[1.0, 0.0, 0.0, 0.0]];
    let norm = LayerNorm::new(4);
    let y = norm.forward(&x);
    let eps: Float = 1e-5;
    let expected = x.mapv(|v| (v - 0.25) / (3.0 / 16.0 + eps).sqrt());
    // Some wrong formulas agree to 1e-9 on this row: the closest is the one named.
    assert_matrix_close(
        "LayerNorm([1, 0, 0, 0])",
        &y,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, layer_norm_mistakes(&x, &norm_parts(&norm))),
    );
}

#[test]
fn layer_norm_gives_each_row_mean_zero_and_variance_almost_one() {
    // Each row on its own, over its features: it sums to 0, so its mean is 0, and the
    // mean of its squares, its variance, is σ²/(σ² + ε), a hair below 1 because ε sits
    // inside the square root.
    let y = LayerNorm::new(6).forward(&tokens());
    let (sums, mean_squares) = row_sums(&y);
    approx::assert_abs_diff_eq!(sums, Vector::zeros(3), epsilon = 1e-12);
    approx::assert_abs_diff_eq!(mean_squares, Vector::ones(3), epsilon = 1e-4);
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
    let x = array![[2.0, 1.0], [1.0, -2.0]];
    let forward = ffn.forward(&x);
    let mistakes =
        named!(NAMED, Groups::from(ffn_mistakes(&ffn_parts(&ffn), &x)) => Groups);
    assert_matrix_close(
        "FeedForward hidden (after the ReLU)",
        &forward.hidden,
        &array![[2.0, 1.0, 2.0], [1.0, 0.0, 0.0]],
        Tol::TIGHT,
        &mistakes["hidden"],
    );
    assert_matrix_close(
        "FeedForward output",
        &forward.output,
        &array![[5.5, -1.0], [1.5, 0.0]],
        Tol::TIGHT,
        &mistakes["output"],
    );
    // Backwards, the ReLU passes the gradient where the unit was on (hidden > 0) only.
    let upstream = array![[1.0, -0.5], [0.25, 2.0]];
    let d_x = ffn.backward(&x, &forward, &upstream).d_x;
    assert_gradient_close_named(
        "FeedForward d_x",
        &d_x,
        &numerical_gradient(
            |x| weighted_sum(&ffn.forward(x).output, &upstream),
            &x,
            STEP,
        ),
        "back through w_2, the ReLU (× 1 where hidden > 0, × 0 elsewhere), then w_1. (If \
         the forward checks fail too, fix forward first: the numerical gradient uses it.)",
        &named!(
            NAMED,
            ffn_backward_mistakes(&ffn_parts(&ffn), &x, &upstream)
        ),
    );
}

#[test]
fn layer_norm_backward_matches_numerical_gradients() {
    let norm = LayerNorm::from_parameters(
        Vector::from(linspace(0.5, 1.5, 6)),
        Vector::from(linspace(-0.3, 0.3, 6)),
    );
    let x = tokens();
    let upstream = linspace_matrix(3, 6, 0.9, -0.6);
    let grads = norm.backward(&x, &upstream);
    let mistakes = named!(NAMED, Groups::from(layer_norm_backward_mistakes(&x, &norm_parts(&norm), &upstream)) => Groups);
    let loss = |norm: &LayerNorm, x: &Matrix| weighted_sum(&norm.forward(x), &upstream);
    assert_gradient_close_named(
        "LayerNorm d_x",
        &grads.d_x,
        &numerical_gradient(|x| loss(&norm, x), &x, STEP),
        "with g = dY ⊙ γ and r = 1/√(σ² + ε) per row, dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ \
         x̂)), the means over each row's features. (If a LayerNorm test fails too, fix \
         forward first: the numerical gradient uses it.)",
        &mistakes["d_x"],
    );
    let d_gamma = numerical_gradient(
        |g| {
            loss(
                &LayerNorm::from_parameters(g.row(0).to_owned(), norm.beta.clone()),
                &x,
            )
        },
        &norm.gamma.clone().insert_axis(Axis(0)),
        STEP,
    );
    assert_gradient_close_named(
        "LayerNorm d_gamma",
        &grads.d_gamma.insert_axis(Axis(0)),
        &d_gamma,
        "dγ = Σ_rows dY ⊙ x̂, the normalised input",
        &mistakes["d_gamma"],
    );
}

#[test]
fn post_ln_is_the_default_and_normalises_the_output() {
    assert_eq!(NormPosition::default(), NormPosition::Post);
    let x = tokens();
    // Post-LN: h = norm_1(x + SA(x)), out = norm_2(h + FFN(h)). The expected outputs
    // are the course's, recorded beside this file for these weights and tokens.
    let layer = encoder(NormPosition::Post);
    let post = layer.forward(&x, None).output;
    let expected =
        named!(NAMED, encoder_forward(&encoder_parts(&layer), &x, None) => Matrix);
    assert_matrix_close(
        "post-LN encoder layer: norm_2(h + FFN(h)) with h = norm_1(x + SA(x))",
        &post,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, encoder_mistakes(&encoder_parts(&layer), &x, None)),
    );
    // Pre-LN: h = x + SA(norm_1(x)), out = h + FFN(norm_2(h)).
    let pre_layer = encoder(NormPosition::Pre);
    let pre = pre_layer.forward(&x, None).output;
    let expected =
        named!(NAMED, encoder_forward(&encoder_parts(&pre_layer), &x, None) => Matrix);
    assert_matrix_close(
        "pre-LN encoder layer: h + FFN(norm_2(h)) with h = x + SA(norm_1(x))",
        &pre,
        &expected,
        Tol::TIGHT,
        &named!(
            NAMED,
            encoder_mistakes(&encoder_parts(&pre_layer), &x, None)
        ),
    );
    // Post-LN ends with a LayerNorm (γ = 1, β = 0 here): every output row has mean 0
    // and variance almost 1. Pre-LN ends with a residual addition: its rows don't.
    let (sums, mean_squares) = row_sums(&post);
    approx::assert_abs_diff_eq!(sums, Vector::zeros(3), epsilon = 1e-12);
    approx::assert_abs_diff_eq!(mean_squares, Vector::ones(3), epsilon = 1e-4);
    let (sums, mean_squares) = row_sums(&pre);
    assert!(
        sums.iter()
            .zip(&mean_squares)
            .all(|(s, q)| s.abs() > 0.05 || (q - 1.0).abs() > 0.05),
        "pre-LN's output is x + (sublayers' outputs), not normalised: row sums {sums}, \
         mean squares {mean_squares}"
    );
}

#[test]
fn the_encoder_layers_backward_matches_the_numerical_gradient() {
    let layer = encoder(NormPosition::Post);
    let x = tokens();
    let upstream = linspace_matrix(3, 6, 0.5, -0.7);
    let forward = layer.forward(&x, None);
    let d_x = layer.backward(&x, &forward, &upstream).d_x;
    assert_gradient_close_named(
        "EncoderLayer d_x",
        &d_x,
        &numerical_gradient(
            |x| weighted_sum(&layer.forward(x, None).output, &upstream),
            &x,
            STEP,
        ),
        "walk the blocks backwards; at each residual connection y = x + F(..) the \
         gradient of x is the gradient of y plus what comes back through F. (If a forward \
         test fails too, fix forward first: the numerical gradient uses it.)",
        &named!(
            NAMED,
            encoder_d_x_mistakes(&encoder_parts(&layer), &x, None, &upstream)
        ),
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
    let x = tokens();
    let forward = run(&x);
    assert_eq!(forward.output.dim(), (3, 6));
    assert_eq!(forward.cross_attention.weights[0].dim(), (3, 5));
    // Post-LN: masked self-attention, then cross-attention with queries from h_1 and
    // keys and values from the memory, then the FFN; the course's output, recorded.
    let expected = named!(
        NAMED,
        decoder_forward(&decoder_parts(&decoder), &x, &memory, Some(&self_mask), Some(&memory_mask)) => Matrix
    );
    assert_matrix_close(
        "decoder layer: norm_3(h_2 + FFN(h_2)), h_2 = norm_2(h_1 + CA(h_1, memory)), \
         h_1 = norm_1(x + SA(x))",
        &forward.output,
        &expected,
        Tol::TIGHT,
        &named!(
            NAMED,
            decoder_mistakes(
                &decoder_parts(&decoder),
                &x,
                &memory,
                Some(&self_mask),
                Some(&memory_mask),
            )
        ),
    );
    // Changing the last target token leaves the first two outputs exactly as they were.
    let mut changed = tokens();
    changed.row_mut(2).fill(4.0);
    let after = run(&changed).output;
    for i in 0..2 {
        assert!(
            after.row(i) == forward.output.row(i),
            "decoder output row {i} changed when only target row 2 did: position {i} saw \
             the future. Likely cause: {NO_CAUSAL_MASK}"
        );
    }
    // The encoder is trained through the decoder: the memory gets a gradient too.
    let grads = decoder.backward(&tokens(), &memory, &forward, &Matrix::ones((3, 6)));
    assert_eq!(grads.d_memory.dim(), (5, 6));
}

// The layers' parts, as the builders of common mistakes (`course_mistakes::encoder_layer`)
// take them: the graded suite's adapters, in the maintainers' builds only.
// Included as text rather than as a module file, so that the learner's copy of this file
// (where the suite is not) still formats: only the maintainers' builds compile it.
#[cfg(feature = "builders")]
mod parts {
    include!("../../suite/parts.rs");
}
#[cfg(feature = "builders")]
use parts::*;
