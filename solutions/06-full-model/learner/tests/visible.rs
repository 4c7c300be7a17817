//! The visible tests of lesson 06: what "done" looks like.
//!
//! Run them with `cargo test -p transformer`. A failure says what was expected, what came
//! back and, when your result is what a common mistake gives, which mistake: the same
//! checks and causes the graded tests use. The checker's graded tests check much more
//! (the whole model against PyTorch, every gradient, the cache, the data);
//! `cargo run -p checker -- grade 06-full-model` runs them. Don't edit this file to make
//! it pass: grading never reads it.

use course_common::ndarray::{array, s};
use course_common::{Float, Matrix};
use course_harness::causes::full_model::noam_cause;
use course_harness::causes::full_model::{
    CACHE_APPEND, LOG_SOFTMAX_OVERFLOW, NO_CAUSAL_MASK, NO_CROSS_MASK, NO_ENCODER_MASK,
    START_FROM_BOS,
};
use course_harness::{
    Misconception, Named, Tol, assert_mask_eq, assert_matrix_close, named, scalar_cause,
};
#[cfg(feature = "builders")]
use course_mistakes::transformer::{
    adam_mistakes, loss_gradient_mistakes, loss_value_mistakes, noam_mistakes,
    smoothing_mistakes,
};
use transformer::{
    Adam, BOS, Batch, Config, EOS, PAD, Transformer, Vocabulary, cross_entropy_loss,
    days_in_month, greedy_decode, greedy_decode_cached, noam_rate, smoothed_targets,
    target_mask,
};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

/// Tokens as text: `^` for BOS, `$` for EOS, `·` for padding.
fn show(vocab: &Vocabulary, tokens: &[usize]) -> String {
    tokens
        .iter()
        .map(|&t| match t {
            PAD => "·".to_owned(),
            BOS => "^".to_owned(),
            EOS => "$".to_owned(),
            t => vocab.decode(&[t]),
        })
        .collect()
}

#[test]
fn a_batch_is_padded_and_its_target_shifted_for_teacher_forcing() {
    let vocab = Vocabulary::dates();
    let pairs = [("6/24/2046", "2046-06-24"), ("24 june 2046", "2046-06-24")];
    let pairs: Vec<_> = pairs
        .iter()
        .map(|(s, t)| (vocab.encode(s), vocab.encode(t)))
        .collect();
    let batch = Batch::new(&pairs);
    let text: Vec<String> = (0..batch.len())
        .map(|b| {
            format!(
                "{} | {} | {}",
                show(&vocab, &batch.src[b]),
                show(&vocab, &batch.tgt_in[b]),
                show(&vocab, &batch.tgt_out[b])
            )
        })
        .collect();
    // The decoder reads ^2046-06-24 and must predict 2046-06-24$: at every position, the
    // next character. Sources are padded at the end to the longest source.
    let expected = [
        "6/24/2046··· | ^2046-06-24 | 2046-06-24$",
        "24 june 2046 | ^2046-06-24 | 2046-06-24$",
    ];
    assert_eq!(
        text, expected,
        "each row: source | decoder input | decoder target (^ BOS, $ EOS, · padding). The \
         input starts with BOS and drops the last token; the target is the input shifted \
         left by one and ends with EOS"
    );
}

#[test]
fn the_decoder_sees_the_past_and_no_padding() {
    let expected = array![
        [true, false, false, false],
        [true, true, false, false],
        [true, true, true, false],
        [true, true, true, false]
    ];
    assert_mask_eq(
        "target_mask([BOS, 7, 8, PAD])",
        &target_mask(&[BOS, 7, 8, PAD]),
        &expected,
        "the decoder's mask is causal (key j ≤ query i) and also hides padded keys: both \
         conditions at once",
    );
}

/// One row of numbers as a matrix, for the matrix checks.
fn row(values: &[Float]) -> Matrix {
    Matrix::from_shape_vec((1, values.len()), values.to_vec()).expect("a row")
}

#[test]
fn label_smoothing_gives_pytorch_s_example() {
    // PyTorch's smoothing: ε/V on every class, 1 − ε more on the gold one; a row whose
    // target is PAD is not a prediction, and stays 0.
    let eps: Float = 0.1;
    assert_matrix_close(
        "smoothed_targets([1, PAD], V = 3, ε = 0.1)",
        &smoothed_targets(&[1, PAD], 3, eps),
        &array![
            [eps / 3.0, 1.0 - eps + eps / 3.0, eps / 3.0],
            [0.0, 0.0, 0.0]
        ],
        Tol::TIGHT,
        &named!(NAMED, smoothing_mistakes(&[1, PAD], 3, eps)),
    );
    // F.cross_entropy([[2, 1, 0]], [0], label_smoothing=0.1) = 0.5076, with the columns
    // rotated so that the gold class (logit 2) is not PAD.
    let loss =
        cross_entropy_loss(&course_common::ndarray::array![[0.0, 2.0, 1.0]], &[1], 0.1);
    approx::assert_abs_diff_eq!(loss.value, 0.5076059644443804, epsilon = 1e-12);
}

#[test]
fn the_loss_ignores_padding_and_never_overflows() {
    // The example above with a second row whose target is PAD: the loss is the mean over
    // the rows that are not padding (one here), and the PAD row gets no gradient.
    let logits = array![[0.0, 2.0, 1.0], [1.0, 0.0, 3.0]];
    let targets = [1, PAD];
    let loss = cross_entropy_loss(&logits, &targets, 0.1);
    let wrong_losses = named!(NAMED, loss_value_mistakes(&logits, &targets, 0.1));
    assert!(
        (loss.value - 0.5076059644443804).abs() <= 1e-12,
        "cross_entropy_loss with a PAD row: expected 0.5076059644443804, got {}. Likely \
         cause: {}.",
        loss.value,
        scalar_cause(loss.value, 0.5076059644443804, &wrong_losses)
            .map(|cause| cause.text())
            .unwrap_or("the mean is over the rows whose target is not PAD")
    );
    // d_logits = p − q on the real row (N = 1), 0 on the PAD row.
    let e = (1.0 as Float).exp();
    let z = 1.0 + e + e * e;
    let expected = array![
        [
            1.0 / z - 0.1 / 3.0,
            e * e / z - 0.9 - 0.1 / 3.0,
            e / z - 0.1 / 3.0
        ],
        [0.0, 0.0, 0.0]
    ];
    assert_matrix_close(
        "d_logits with a PAD row",
        &loss.d_logits,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, loss_gradient_mistakes(&logits, &targets, 0.1)),
    );
    // Logits near 1000: only their differences matter, ln(1 + e + e²) − 1 here.
    let huge = cross_entropy_loss(&array![[1000.0, 999.0, 998.0]], &[1], 0.0);
    assert!(
        huge.value.is_finite(),
        "the loss of logits [1000, 999, 998] is {}. Likely cause: {LOG_SOFTMAX_OVERFLOW}",
        huge.value
    );
    approx::assert_abs_diff_eq!(huge.value, z.ln() - 1.0, epsilon = 1e-12);
}

#[test]
fn the_model_sees_neither_the_future_nor_the_padding() {
    let model = Transformer::new(Config::dates(), 0);
    let pair = |src: &[usize], tgt_in: &[usize]| Batch {
        src: vec![src.to_vec()],
        tgt_in: vec![tgt_in.to_vec()],
        tgt_out: vec![vec![EOS; tgt_in.len()]],
    };
    let logits =
        |src: &[usize], tgt_in: &[usize]| model.forward(&pair(src, tgt_in)).logits;
    let (src, tgt_in) = ([5, 9, 12], [BOS, 7, 8, 9]);
    let base = logits(&src, &tgt_in);
    let close = |a: &Matrix, b: &Matrix| (a - b).iter().all(|d| d.abs() <= 1e-12);
    // Changing the decoder's input at positions 2 and 3 changes no logit of 0 and 1.
    let changed = logits(&src, &[BOS, 7, 20, 21]);
    assert!(
        close(
            &changed.slice(s![..2, ..]).to_owned(),
            &base.slice(s![..2, ..]).to_owned()
        ),
        "the logits of positions 0 and 1 changed when only the decoder's inputs at \
         positions 2 and 3 did: they saw the future. Likely cause: {NO_CAUSAL_MASK}"
    );
    // Padding the source changes neither the encoder's output at the real tokens nor
    // any logit.
    let padded = [5, 9, 12, PAD, PAD];
    let memory = model.encode(&padded).output;
    assert!(
        close(
            &memory.slice(s![..3, ..]).to_owned(),
            &model.encode(&src).output
        ),
        "the encoder's output at the 3 real tokens changed when 2 PAD tokens were added \
         to the source. Likely cause: {NO_ENCODER_MASK}"
    );
    assert!(
        close(&logits(&padded, &tgt_in), &base),
        "the logits changed when 2 PAD tokens were added to the source (the encoder's \
         output at the real tokens did not). Likely cause: {NO_CROSS_MASK}"
    );
}

#[test]
fn the_schedule_warms_up_then_decays() {
    // The paper's numbers: d_model 512, 4000 warm-up steps.
    for (step, expected) in [
        (1, 1.746928107421711e-7),
        (4000, 6.987712429686843e-4),
        (20000, 3.125e-4),
    ] {
        let got = noam_rate(step, 512, 4000, 1.0);
        let wrong_rates = named!(NAMED, noam_mistakes(step, 512, 4000, 1.0));
        assert!(
            ((got - expected) / expected).abs() <= 1e-9,
            "noam_rate({step}, 512, 4000, 1): expected {expected:e}, got {got:e}. Likely \
             cause: {}",
            noam_cause(got, step, 4000, &wrong_rates)
        );
    }
}

#[test]
fn adam_s_first_step_moves_each_parameter_by_the_learning_rate() {
    // With bias correction, m̂ = g and v̂ = g² at the first step: each parameter moves
    // by lr · g / (|g| + ε), lr against the sign of g, whatever the size of g (but a
    // hair less for a tiny g, as ε = 1e-9 shows).
    let grads = [0.5, -20.0, 1e-3];
    let mut params = [1.0, 1.0, 1.0];
    let mut adam = Adam::new(&[&params[..]]);
    adam.update(&mut [&mut params[..]], &[&grads[..]], 0.1);
    let expected = grads.map(|g: Float| 1.0 - 0.1 * g / (g.abs() + 1e-9));
    assert_matrix_close(
        "the parameters after Adam's first step (lr 0.1, gradients [0.5, −20, 0.001])",
        &row(&params),
        &row(&expected),
        Tol {
            abs: 1e-12,
            rel: 0.0,
        },
        &named!(NAMED, adam_mistakes(&[1.0; 3], &[&grads[..]], 0.1) => Vec<Vec<Misconception>>)
            [0],
    );
}

#[test]
fn decoding_with_the_cache_gives_the_same_tokens() {
    let vocab = Vocabulary::dates();
    let model = Transformer::new(Config::dates(), 0);
    let src = vocab.encode("jun 24, 2046");
    // Untrained, the model writes nonsense, but the same nonsense both ways.
    let (full, cached) = (
        greedy_decode(&model, &src, 10),
        greedy_decode_cached(&model, &src, 10),
    );
    // The first token tells a wrong start from a wrong cache.
    let hint = if full.first() != cached.first() {
        START_FROM_BOS
    } else {
        CACHE_APPEND
    };
    assert!(
        full == cached,
        "greedy decoding gave {full:?} re-running the decoder and {cached:?} with the \
         cache; they must be the same. Likely cause: {hint}"
    );
}

#[test]
fn greedy_decoding_stops_before_eos_and_after_max_len_tokens() {
    // An output layer that ignores the decoder: weights 0, and a bias that makes one token
    // the highest score at every step, so the result is known by hand.
    let always = |token: usize| {
        let mut model = Transformer::new(Config::dates(), 0);
        model.output.weight.fill(0.0);
        model.output.bias.fill(0.0);
        model.output.bias[token] = 1.0;
        model
    };
    let src = Vocabulary::dates().encode("jun 24, 2046");
    // EOS first: decoding stops at once, and EOS is not part of the result.
    let eos = always(EOS);
    for (name, tokens) in [
        ("greedy_decode", greedy_decode(&eos, &src, 10)),
        ("greedy_decode_cached", greedy_decode_cached(&eos, &src, 10)),
    ] {
        assert!(
            tokens.is_empty(),
            "{name}: when the first token picked is EOS the result is empty (no BOS, no \
             EOS), got {tokens:?}. Likely cause: EOS was pushed before the loop stopped; \
             check for EOS first, and stop without keeping it."
        );
    }
    // Never EOS: decoding stops after max_len tokens.
    let seven = always(7);
    for (name, tokens) in [
        ("greedy_decode", greedy_decode(&seven, &src, 10)),
        (
            "greedy_decode_cached",
            greedy_decode_cached(&seven, &src, 10),
        ),
    ] {
        assert!(
            tokens == vec![7; 10],
            "{name}: a model that always picks token 7 gives ten 7s for max_len = 10 \
             (BOS is not counted or returned), got {tokens:?}. Likely cause: the loop \
             bound counts BOS, or the result keeps it."
        );
    }
}

#[test]
fn leap_years_follow_the_gregorian_rule() {
    // Divisible by 4, except the centuries, except those divisible by 400.
    for (year, days) in [(2024, 29), (2023, 28), (2000, 29), (1900, 28), (2100, 28)] {
        let got = days_in_month(year, 2);
        assert!(
            got == days,
            "days_in_month({year}, 2): expected {days}, got {got}. A year divisible by 4 is \
             a leap year, except a year divisible by 100, which is one only when divisible \
             by 400 (2000 was, 1900 was not)."
        );
    }
}
