//! The visible tests of lesson 06: what "done" looks like.
//!
//! Run them with `cargo test -p transformer`. The checker's graded tests check much more
//! (the whole model against PyTorch, every gradient, the cache, the data);
//! `cargo run -p checker -- grade 06-full-model` runs them. Don't edit this file to make
//! it pass: grading never reads it.

use course_common::ndarray::array;
use course_harness::assert_mask_eq;
use transformer::{
    Adam, BOS, Batch, Config, EOS, PAD, Transformer, Vocabulary, cross_entropy_loss,
    greedy_decode, greedy_decode_cached, noam_rate, target_mask,
};

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

#[test]
fn label_smoothing_gives_pytorch_s_example() {
    // F.cross_entropy([[2, 1, 0]], [0], label_smoothing=0.1) = 0.5076, with the columns
    // rotated so that the gold class (logit 2) is not PAD.
    let loss =
        cross_entropy_loss(&course_common::ndarray::array![[0.0, 2.0, 1.0]], &[1], 0.1);
    approx::assert_abs_diff_eq!(loss.value, 0.5076059644443804, epsilon = 1e-12);
}

#[test]
fn the_schedule_warms_up_then_decays() {
    // The paper's numbers: d_model 512, 4000 warm-up steps.
    approx::assert_relative_eq!(
        noam_rate(1, 512, 4000, 1.0),
        1.746928107421711e-7,
        max_relative = 1e-9
    );
    approx::assert_relative_eq!(
        noam_rate(4000, 512, 4000, 1.0),
        6.987712429686843e-4,
        max_relative = 1e-9
    );
    approx::assert_relative_eq!(
        noam_rate(20000, 512, 4000, 1.0),
        3.125e-4,
        max_relative = 1e-9
    );
}

#[test]
fn adam_s_first_step_moves_each_parameter_by_the_learning_rate() {
    let mut params = [1.0, 1.0];
    let mut adam = Adam::new(&[&params[..]]);
    adam.update(&mut [&mut params[..]], &[&[0.5, -20.0][..]], 0.1);
    approx::assert_abs_diff_eq!(params[0], 0.9, epsilon = 1e-8);
    approx::assert_abs_diff_eq!(params[1], 1.1, epsilon = 1e-8);
}

#[test]
fn decoding_with_the_cache_gives_the_same_tokens() {
    let vocab = Vocabulary::dates();
    let model = Transformer::new(Config::dates(), 0);
    let src = vocab.encode("jun 24, 2046");
    // Untrained, the model writes nonsense, but the same nonsense both ways.
    assert_eq!(
        greedy_decode(&model, &src, 10),
        greedy_decode_cached(&model, &src, 10)
    );
}
