//! Bits per byte, the measure of a language model that does not depend on its tokenizer,
//! and two baselines any model must beat: a byte unigram and a byte bigram model with
//! add-one smoothing. Book: chapter 07, "Bits per byte".

use course_common::Float;

// ANCHOR: bits_per_byte
/// Bits per byte: a model's total cross-entropy on a text, `total_nats` (the sum of
/// `−ln p` over its tokens, in nats), spread over the text's `n_bytes` UTF-8 bytes and
/// turned into bits: `total_nats / (n_bytes · ln 2)`.
///
/// Per byte, not per token: a tokenizer with longer tokens has fewer, harder tokens, and
/// per-token losses of two tokenizers cannot be compared; the bytes of a text are the same
/// whoever tokenizes it.
pub fn bits_per_byte(total_nats: Float, n_bytes: usize) -> Float {
    // TODO: divide by the number of bytes and by ln 2.
    // BEGIN SOLUTION: todo!("bits_per_byte")
    assert!(n_bytes > 0, "an empty text has no bits per byte");
    total_nats / (n_bytes as Float * std::f64::consts::LN_2)
    // END SOLUTION
}
// ANCHOR_END: bits_per_byte

// ANCHOR: unigram_bits_per_byte
/// The bits per byte of `test` under a byte unigram model counted on `train` with add-one
/// (Laplace) smoothing: `P(b) = (count(b) + 1) / (len(train) + 256)`, so that a byte never
/// seen in training still has a probability. The result is the mean of `−log₂ P(b)` over
/// the bytes of `test`.
pub fn unigram_bits_per_byte(train: &[u8], test: &[u8]) -> Float {
    // TODO: count the 256 bytes of train; sum −log2 of the smoothed probability of each
    //       byte of test; divide by test.len().
    // BEGIN SOLUTION: todo!("unigram_bits_per_byte")
    assert!(!test.is_empty(), "an empty text has no bits per byte");
    let mut counts = [0usize; 256];
    for &b in train {
        counts[usize::from(b)] += 1;
    }
    let total = (train.len() + 256) as Float;
    let bits: Float = test
        .iter()
        .map(|&b| -((counts[usize::from(b)] + 1) as Float / total).log2())
        .sum();
    bits / test.len() as Float
    // END SOLUTION
}
// ANCHOR_END: unigram_bits_per_byte

// ANCHOR: bigram_bits_per_byte
/// The bits per byte of `test` under a byte bigram model counted on `train` with add-one
/// smoothing: `P(b | a) = (count(a, b) + 1) / (count(a, ·) + 256)`, with `count(a, ·)`
/// the number of pairs of `train` whose first byte is `a`. The first byte of `test`, which
/// has no byte before it, is scored by the unigram model of [`unigram_bits_per_byte`].
/// The result is the mean over the bytes of `test`.
pub fn bigram_bits_per_byte(train: &[u8], test: &[u8]) -> Float {
    // TODO: count the pairs of train (and how many pairs start with each byte); the first
    //       byte of test by the unigram model (its bits are unigram_bits_per_byte(train,
    //       &test[..1])); each later byte by P(b | the byte before); the mean.
    // BEGIN SOLUTION: todo!("bigram_bits_per_byte")
    assert!(!test.is_empty(), "an empty text has no bits per byte");
    let mut pairs = vec![[0usize; 256]; 256];
    let mut starts = [0usize; 256];
    for w in train.windows(2) {
        pairs[usize::from(w[0])][usize::from(w[1])] += 1;
        starts[usize::from(w[0])] += 1;
    }
    let mut bits = unigram_bits_per_byte(train, &test[..1]);
    for w in test.windows(2) {
        let (a, b) = (usize::from(w[0]), usize::from(w[1]));
        bits -= ((pairs[a][b] + 1) as Float / (starts[a] + 256) as Float).log2();
    }
    bits / test.len() as Float
    // END SOLUTION
}
// ANCHOR_END: bigram_bits_per_byte
