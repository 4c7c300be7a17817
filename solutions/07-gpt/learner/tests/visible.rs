//! The visible tests of lesson 07: what "done" looks like.
//!
//! Run them with `cargo test -p gpt`. A failure says what was expected, what came back
//! and, when your result is what a common mistake gives, which mistake. The checker's
//! graded tests check more (values computed independently by the lesson's script, more
//! texts, shapes and positions); `cargo run -p checker -- grade 07-gpt` runs them. Don't
//! edit this file to make it pass: grading never reads it.

use course_common::ndarray::{Axis, array};
use course_common::{Float, Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::panics::expected_panic;
use course_harness::{
    Named, Tol, assert_gradient_close_named, assert_ids_eq, assert_matrix_close,
    assert_pair_counts_eq, linspace, linspace_matrix, named, numerical_gradient,
};
#[cfg(feature = "builders")]
use course_mistakes::gpt::{
    AttentionParts, SwiGluParts, adamw_mistakes, bigram_mistakes, cosine_rate_mistakes,
    count_pairs_mistakes, encode_mistakes, merge_pair_mistakes,
    rms_norm_backward_mistakes, rms_norm_gain_backward_mistakes, rms_norm_mistakes,
    rope_backward_mistakes, rope_mistakes, self_attention_backward_mistakes,
    self_attention_mistakes, self_attention_reference, swiglu_backward_mistakes,
    swiglu_mistakes, temperature_mistakes, top_k_mistakes, top_p_mistakes,
    train_bpe_mistakes, unigram_mistakes,
};
use gpt::{
    AdamW, Bpe, CausalSelfAttention, Config, END_OF_TEXT, Gpt, KvCache, RmsNorm,
    Sampling, SwiGlu, apply_rope, bigram_bits_per_byte, bits_per_byte, cosine_rate,
    count_pairs, merge_pair, next_token_loss, rope_backward, sample_next, silu,
    softmax_with_temperature, top_k_filter, top_p_filter, train_bpe,
    unigram_bits_per_byte,
};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

/// The bytes of "a", "b", "c", "d": ids 97 to 100.
const A: usize = 97;
const B: usize = 98;
const C: usize = 99;
const D: usize = 100;

/// Merges as a flat list: first, second, first, second, ...
fn flat(merges: &[(usize, usize)]) -> Vec<usize> {
    merges.iter().flat_map(|&(a, b)| [a, b]).collect()
}

#[test]
fn count_pairs_counts_every_position() {
    // [a, a, a, b]: (a, a) at positions 0 and 1 (they overlap, both count), (a, b) once.
    let ids = [A, A, A, B];
    assert_pair_counts_eq(
        "count_pairs([a, a, a, b])",
        &count_pairs(&ids).into_iter().collect::<Vec<_>>(),
        &[((A, A), 2), ((A, B), 1)],
        &named!(NAMED, count_pairs_mistakes(&[A, A, A, B])),
    );
}

#[test]
fn merge_pair_merges_left_first_and_skips_the_merged_pair() {
    // [a, a, a, b] with (a, a) → 256: the left (a, a) is merged, the scan goes on after
    // it, at the third a, which pairs with b, not a.
    assert_ids_eq(
        "merge_pair([a, a, a, b], (a, a), 256)",
        &merge_pair(&[A, A, A, B], (A, A), 256),
        &[256, A, B],
        &named!(NAMED, merge_pair_mistakes(&[A, A, A, B], (A, A), 256)),
    );
    // Every occurrence, not only the first.
    assert_ids_eq(
        "merge_pair([1, 2, 1, 2, 3], (1, 2), 9)",
        &merge_pair(&[1, 2, 1, 2, 3], (1, 2), 9),
        &[9, 9, 3],
        &[],
    );
}

#[test]
fn train_bpe_learns_aaabdaaabac_with_the_smallest_pair_on_ties() {
    // Worked by hand (the book's example). Round 1: (a, a) occurs 4 times → 256;
    // the text is then [256, a, b, d, 256, a, b, a, c]. Round 2: (256, a) and (a, b)
    // both occur twice: the smallest pair, (97, 98) = (a, b), wins → 257; the text is
    // [256, 257, d, 256, 257, a, c]. Round 3: (256, 257) twice → 258.
    let text = "aaabdaaabac";
    let bpe = train_bpe(text, 3);
    assert_ids_eq(
        "train_bpe(\"aaabdaaabac\", 3).merges(), flat",
        &flat(bpe.merges()),
        &[A, A, A, B, 256, 257],
        &named!(NAMED, train_bpe_mistakes("aaabdaaabac", 3)),
    );
    assert_eq!(
        bpe.vocab_size(),
        256 + 3 + 1,
        "256 bytes, 3 merges, end-of-text"
    );
}

#[test]
fn training_stops_when_no_pair_is_left() {
    // "ab" has one pair: after merging it the text is one token and nothing is left.
    assert_eq!(train_bpe("ab", 5).merges(), &[(A, B)]);
    assert_eq!(train_bpe("", 5).merges(), &[] as &[(usize, usize)]);
    // Documents are trained apart: "ab" twice, with the end-of-text token between, has the
    // one pair (a, b) and nothing across the boundary or inside the token's text.
    assert_ids_eq(
        "train_bpe(\"ab<|endoftext|>ab\", 5).merges(), flat",
        &flat(train_bpe("ab<|endoftext|>ab", 5).merges()),
        &[A, B],
        &[],
    );
}

#[test]
fn encode_applies_the_merges_in_the_order_they_were_learned() {
    // With (a, a), (a, b), (c, a) learned in that order, "aabcab" → [256, b, c, a, b] →
    // [256, b, c, 257]. Merging the leftmost learned pair first would give
    // [256, b, 258, b]; the last learned first, [a, 257, 258, b]; the pair that occurs
    // most often in this text first ((a, b), twice), [a, 257, c, 257]: each order its own
    // answer, so this text comes first.
    assert_ids_eq(
        "encode(\"aabcab\") with merges (a,a), (a,b), (c,a)",
        &Bpe::from_merges(vec![(A, A), (A, B), (C, A)]).encode("aabcab"),
        &[256, B, C, 257],
        &named!(NAMED, encode_mistakes(&[(A, A), (A, B), (C, A)], "aabcab")),
    );
    let merges = vec![(A, A), (A, B), (256, 257)];
    let bpe = Bpe::from_merges(merges.clone());
    // "aab": (a, a) was learned first, so it is merged first, even though (a, b) comes
    // later in the text's order too: [256, b], and no learned pair is left.
    assert_ids_eq(
        "encode(\"aab\") with merges (a,a), (a,b), (256,257)",
        &bpe.encode("aab"),
        &[256, B],
        &named!(NAMED, encode_mistakes(&[(A, A), (A, B), (256, 257)], "aab")),
    );
    // Neither the leftmost learned pair nor the last learned one: with (b, c), (a, b),
    // (c, a) learned in that order, "abcab" → [a, 256, a, b] → [a, 256, 257].
    assert_ids_eq(
        "encode(\"abcab\") with merges (b,c), (a,b), (c,a)",
        &Bpe::from_merges(vec![(B, C), (A, B), (C, A)]).encode("abcab"),
        &[A, 256, 257],
        &named!(NAMED, encode_mistakes(&[(B, C), (A, B), (C, A)], "abcab")),
    );
    // The chapter's example, with the merges learned from "aaabdaaabac": in "aabab",
    // (a, b) occurs twice and (a, a) once, but (a, a) was learned first: [256, b, a, b]
    // → [256, b, 257]. Merging the text's most frequent pair first gives [a, 257, 257].
    assert_ids_eq(
        "encode(\"aabab\") with the merges learned from \"aaabdaaabac\"",
        &bpe.encode("aabab"),
        &[256, B, 257],
        &named!(
            NAMED,
            encode_mistakes(&[(A, A), (A, B), (256, 257)], "aabab")
        ),
    );
    // The training text comes out as training left it, and a merge can make a pair a
    // later merge joins: "aaab" → [256, a, b] → [256, 257] → [258].
    assert_ids_eq(
        "encode(\"aaabdaaabac\")",
        &bpe.encode("aaabdaaabac"),
        &[258, D, 258, A, C],
        &named!(
            NAMED,
            encode_mistakes(&[(A, A), (A, B), (256, 257)], "aaabdaaabac")
        ),
    );
}

#[test]
fn the_end_of_text_token_is_one_id_after_the_merges() {
    let bpe = Bpe::from_merges(vec![(A, A), (A, B), (256, 257)]);
    assert_eq!(bpe.end_of_text(), 259, "256 + the number of merges");
    let text = format!("ab{END_OF_TEXT}ab");
    assert_ids_eq(
        "encode(\"ab<|endoftext|>ab\")",
        &bpe.encode(&text),
        &[257, 259, 257],
        &named!(
            NAMED,
            encode_mistakes(&[(A, A), (A, B), (256, 257)], "ab<|endoftext|>ab")
        ),
    );
    assert_eq!(bpe.decode(&[257, 259, 257]), text);
}

#[test]
fn decoding_an_encoding_gives_back_any_text_exactly() {
    // Trained on English and Chinese; tried on texts it never saw, emoji included: every
    // byte is a token, so nothing is out of vocabulary.
    let corpus =
        "attention is all you need; attention attends. 注意力就是你所需要的。注意力。";
    let bpe = train_bpe(corpus, 40);
    for text in [
        corpus,
        "unseen words, Ünïcödé",
        "位置编码 🧠🤖 and emoji 👍🏽",
        "",
        "a<|endoftext|>b<|endoftext|>",
    ] {
        let ids = bpe.encode(text);
        assert!(
            ids.iter().all(|&id| id < bpe.vocab_size()),
            "every id of {text:?} must be below vocab_size() = {}: {ids:?}",
            bpe.vocab_size()
        );
        let bytes = |b: &[u8]| b.iter().map(|&b| usize::from(b)).collect::<Vec<_>>();
        assert_ids_eq(
            &format!(
                "decode_bytes(encode({text:?})) as bytes, which must be {text:?}'s exactly"
            ),
            &bytes(&bpe.decode_bytes(&ids)),
            &bytes(text.as_bytes()),
            &[],
        );
    }
    // The corpus it was trained on is shorter in tokens than in bytes.
    assert!(bpe.encode(corpus).len() < corpus.len());
}

/// Rows of width 4, not centred (RMSNorm does not centre).
fn rows() -> Matrix {
    array![[3.0, 4.0, -1.0, 0.5], [0.2, -0.7, 1.3, 0.9]]
}

#[test]
fn rms_norm_of_3_4_is_worked_by_hand() {
    // mean(x²) = (9 + 16)/2 = 12.5; √(12.5 + 1e-5) = 3.5355353...; y = x / that.
    let norm = RmsNorm::new(2);
    let x = array![[3.0, 4.0]];
    assert_matrix_close(
        "RmsNorm::forward([[3, 4]])",
        &norm.forward(&x),
        &array![[0.8485277980128058, 1.1313703973504077]],
        Tol::TIGHT,
        &named!(
            NAMED,
            rms_norm_mistakes(&array![[3.0, 4.0]], &array![[1.0, 1.0]], 1e-5)
        ),
    );
    // A constant row stays (almost) itself: nothing is subtracted, unlike LayerNorm,
    // which would give zeros.
    assert_matrix_close(
        "RmsNorm::forward([[1, 1, 1, 1]])",
        &RmsNorm::new(4).forward(&array![[1.0, 1.0, 1.0, 1.0]]),
        &Matrix::from_elem((1, 4), 0.9999950000374997),
        Tol::TIGHT,
        &named!(
            NAMED,
            rms_norm_mistakes(
                &array![[1.0, 1.0, 1.0, 1.0]],
                &array![[1.0, 1.0, 1.0, 1.0]],
                1e-5
            )
        ),
    );
}

#[test]
fn rms_norm_rows_have_mean_square_almost_one_and_the_gain_scales_them() {
    let x = rows();
    let y = RmsNorm::new(4).forward(&x);
    for (t, row) in y.rows().into_iter().enumerate() {
        let ms = row.mapv(|v| v * v).mean().expect("a row has features");
        let raw = x.row(t).mapv(|v| v * v).mean().expect("a row has features");
        let expected = raw / (raw + 1e-5);
        assert!(
            (ms - expected).abs() < 1e-12,
            "row {t}: the mean of the squares of the output should be mean(x²)/(mean(x²) + ε) \
             = {expected:.12}, a hair below 1; got {ms:.12}"
        );
    }
    let gain = Vector::from(vec![2.0, -1.0, 0.5, 3.0]);
    let scaled = RmsNorm::from_gain(gain.clone()).forward(&x);
    assert_matrix_close(
        "RmsNorm with a gain",
        &scaled,
        &(&y * &gain),
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn rms_norm_backward_matches_numerical_gradients() {
    let norm = RmsNorm::from_gain(Vector::from(linspace(0.5, 1.5, 4)));
    let x = rows();
    let upstream = linspace_matrix(2, 4, 0.9, -0.6);
    let grads = norm.backward(&x, &upstream);
    let loss = |norm: &RmsNorm, x: &Matrix| weighted_sum(&norm.forward(x), &upstream);
    assert_gradient_close_named(
        "RmsNorm d_x",
        &grads.d_x,
        &numerical_gradient(|x| loss(&norm, x), &x, STEP),
        "with h = dY ⊙ g and r = 1/√(mean(x²) + ε) per row, dx = r·(h − x̂ ⊙ mean(h ⊙ x̂)). \
         (If a forward test fails too, fix forward first: the numerical gradient uses it.)",
        &named!(
            NAMED,
            rms_norm_backward_mistakes(
                &x,
                &norm.gain.clone().insert_axis(Axis(0)),
                1e-5,
                &upstream
            )
        ),
    );
    let d_gain = numerical_gradient(
        |g| loss(&RmsNorm::from_gain(g.row(0).to_owned()), &x),
        &norm.gain.clone().insert_axis(Axis(0)),
        STEP,
    );
    assert_gradient_close_named(
        "RmsNorm d_gain",
        &grads.d_gain.insert_axis(Axis(0)),
        &d_gain,
        "dg = Σ_rows dY ⊙ x̂, the normalised input",
        &named!(NAMED, rms_norm_gain_backward_mistakes(&x, 1e-5, &upstream)),
    );
}

#[test]
fn rope_turns_position_p_by_p_radians_on_the_first_pair() {
    // d_head = 2: one pair, ω_0 = 1. The row [1, 0] at positions 0, 1, 2 becomes
    // [cos p, sin p]: position 0 is untouched.
    let x = array![[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]];
    let expected = Matrix::from_shape_fn((3, 2), |(p, j)| {
        let angle = p as Float;
        if j == 0 { angle.cos() } else { angle.sin() }
    });
    assert_matrix_close(
        "apply_rope([[1, 0]; 3], 0)",
        &apply_rope(&x, 0),
        &expected,
        Tol::TIGHT,
        &named!(
            NAMED,
            rope_mistakes(&array![[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]], 0)
        ),
    );
}

#[test]
fn rope_starts_at_start_and_keeps_lengths() {
    // Row t is at position start + t: the last row of a 5-row call is the one row of a
    // call with start = 4 (how generation with a cache calls it).
    let x = linspace_matrix(5, 6, -1.0, 1.3);
    let whole = apply_rope(&x, 0);
    let last = x.slice(course_common::ndarray::s![4..5, ..]).to_owned();
    assert_matrix_close(
        "apply_rope(last row, 4)",
        &apply_rope(&last, 4),
        &whole.slice(course_common::ndarray::s![4..5, ..]).to_owned(),
        Tol::TIGHT,
        &named!(
            NAMED,
            rope_mistakes(
                &linspace_matrix(5, 6, -1.0, 1.3)
                    .slice(course_common::ndarray::s![4..5, ..])
                    .to_owned(),
                4
            )
        ),
    );
    // A rotation keeps each pair's length.
    for t in 0..5 {
        for i in 0..3 {
            let before = x[[t, 2 * i]].hypot(x[[t, 2 * i + 1]]);
            let after = whole[[t, 2 * i]].hypot(whole[[t, 2 * i + 1]]);
            assert!(
                (before - after).abs() < 1e-12,
                "row {t}, pair {i}: a rotation keeps the pair's length {before}, got {after}"
            );
        }
    }
}

#[test]
fn rope_scores_depend_only_on_the_distance() {
    // q at position m and k at position n: q·k after RoPE depends on m − n only.
    let q = array![[0.3, -1.2, 0.8, 0.5]];
    let k = array![[1.1, 0.4, -0.6, 0.9]];
    let score = |m: usize, n: usize| {
        let (rq, rk) = (apply_rope(&q, m), apply_rope(&k, n));
        (&rq * &rk).sum()
    };
    for (m, n, shift) in [(3, 1, 10), (5, 5, 7), (2, 6, 20)] {
        let (a, b) = (score(m, n), score(m + shift, n + shift));
        assert!(
            (a - b).abs() < 1e-12,
            "q at {m}, k at {n}: score {a:.12}; both moved by {shift}: {b:.12}; they must \
             be equal (RoPE makes the score depend on m − n only)"
        );
    }
}

#[test]
fn rope_backward_matches_numerical_gradients() {
    let x = linspace_matrix(3, 4, -0.8, 1.1);
    let upstream = linspace_matrix(3, 4, 0.5, -0.9);
    let got = rope_backward(&upstream, 2);
    assert_gradient_close_named(
        "rope_backward d_x",
        &got,
        &numerical_gradient(|x| weighted_sum(&apply_rope(x, 2), &upstream), &x, STEP),
        "turn each pair of dY back by −(start + t)·ω_i: the inverse of a rotation",
        &named!(
            NAMED,
            rope_backward_mistakes(&linspace_matrix(3, 4, 0.5, -0.9), 2)
        ),
    );
}

#[test]
fn rope_rejects_an_odd_width() {
    // An even width is turned (a row of zeros stays zeros); an odd one leaves a feature
    // without a partner, and must panic, saying so. A `todo!()` is not such a panic.
    assert_eq!(
        apply_rope(&Matrix::zeros((1, 4)), 0),
        Matrix::zeros((1, 4)),
        "apply_rope of a (1, 4) row of zeros"
    );
    let message = expected_panic(|| {
        apply_rope(&Matrix::zeros((1, 3)), 0);
    });
    let Some(message) = message else {
        panic!("apply_rope of a (1, 3) row returned; it must panic: d_head must be even");
    };
    assert!(
        message.to_lowercase().contains("even"),
        "apply_rope of a (1, 3) row panicked with {message:?}, which does not say what \
         is wrong: assert! that d_head is even, with a message that says so"
    );
}

#[test]
fn silu_at_three_points() {
    // silu(a) = a·σ(a): silu(0) = 0, silu(1) = σ(1) = 0.7310585786300049,
    // silu(−1) = −σ(−1) = −0.2689414213699951.
    for (a, expected) in [
        (0.0, 0.0),
        (1.0, 0.7310585786300049),
        (-1.0, -0.2689414213699951),
    ] {
        let got = silu(a);
        assert!(
            (got - expected).abs() < 1e-14,
            "silu({a}) should be {expected}, got {got}"
        );
    }
}

fn swiglu() -> SwiGlu {
    SwiGlu::new(
        linspace_matrix(5, 3, -0.6, 0.7),
        linspace_matrix(5, 3, 0.5, -0.4),
        linspace_matrix(3, 5, -0.3, 0.8),
    )
}

#[test]
fn swiglu_gates_with_silu_of_w_gate() {
    // One feature through one hidden unit: a = 1 (W_gate picks x_0), b = 3 (W_up picks
    // x_1); h = silu(1)·3 = 2.193175735890015; y = h·[1, 2].
    let ffn = SwiGlu::new(array![[1.0, 0.0]], array![[0.0, 1.0]], array![[1.0], [2.0]]);
    let x = array![[1.0, 3.0]];
    let h = 2.193175735890015;
    assert_matrix_close(
        "SwiGlu::forward([[1, 3]]).output",
        &ffn.forward(&x).output,
        &array![[h, 2.0 * h]],
        Tol::TIGHT,
        &named!(
            NAMED,
            swiglu_mistakes(
                &array![[1.0, 3.0]],
                &SwiGluParts {
                    w_gate: &array![[1.0, 0.0]],
                    w_up: &array![[0.0, 1.0]],
                    w_down: &array![[1.0], [2.0]]
                }
            )
        ),
    );
    assert_eq!(ffn.forward(&x).hidden.dim(), (1, 1), "h is (n, d_ff)");
}

#[test]
fn swiglu_backward_matches_numerical_gradients() {
    let ffn = swiglu();
    let x = linspace_matrix(2, 3, -1.0, 1.2);
    let upstream = linspace_matrix(2, 3, 0.7, -0.5);
    let grads = ffn.backward(&x, &upstream);
    let mistakes = named!(NAMED, swiglu_backward_mistakes(&linspace_matrix(2, 3, -1.0, 1.2), &SwiGluParts { w_gate: &linspace_matrix(5, 3, -0.6, 0.7), w_up: &linspace_matrix(5, 3, 0.5, -0.4), w_down: &linspace_matrix(3, 5, -0.3, 0.8) }, &linspace_matrix(2, 3, 0.7, -0.5)) => course_harness::Groups);
    let loss = |ffn: &SwiGlu, x: &Matrix| weighted_sum(&ffn.forward(x).output, &upstream);
    assert_gradient_close_named(
        "SwiGlu d_x",
        &grads.d_x,
        &numerical_gradient(|x| loss(&ffn, x), &x, STEP),
        "dx = da W_gate + db W_up: x feeds both projections",
        &mistakes["d_x"],
    );
    // The loss with one weight matrix replaced by `w`.
    let with = |part: usize, w: &Matrix| {
        let mut changed = swiglu();
        *[&mut changed.w_gate, &mut changed.w_up, &mut changed.w_down][part] = w.clone();
        loss(&changed, &x)
    };
    assert_gradient_close_named(
        "SwiGlu d_w_gate",
        &grads.d_w_gate,
        &numerical_gradient(|w| with(0, w), &ffn.w_gate, STEP),
        "dW_gate = daᵀ x with da = dh ⊙ b ⊙ SiLU'(a)",
        &mistakes["d_w_gate"],
    );
    assert_gradient_close_named(
        "SwiGlu d_w_up",
        &grads.d_w_up,
        &numerical_gradient(|w| with(1, w), &ffn.w_up, STEP),
        "dW_up = dbᵀ x with db = dh ⊙ SiLU(a)",
        &[],
    );
    assert_gradient_close_named(
        "SwiGlu d_w_down",
        &grads.d_w_down,
        &numerical_gradient(|w| with(2, w), &ffn.w_down, STEP),
        "dW_down = dYᵀ h",
        &[],
    );
}

// ---------------------------------------------------------------------------------------
// Causal self-attention with RoPE
// ---------------------------------------------------------------------------------------

/// Two heads of width 2 over d_model = 4, with evenly spaced weights.
fn rope_attention() -> CausalSelfAttention {
    CausalSelfAttention::new(
        2,
        linspace_matrix(4, 4, -0.7, 0.8),
        linspace_matrix(4, 4, 0.6, -0.5),
        linspace_matrix(4, 4, -0.4, 0.9),
        linspace_matrix(4, 4, 0.5, -0.6),
    )
}

#[test]
fn self_attention_sees_only_the_past() {
    // The first token attends to itself alone (weight 1 in every head), and the outputs
    // of the first two tokens do not change when a third is added.
    let attention = rope_attention();
    let x = linspace_matrix(3, 4, -1.0, 1.2);
    let f = attention.forward(&x);
    assert_eq!(f.weights.len(), 2, "one weight matrix per head");
    for (head, w) in f.weights.iter().enumerate() {
        assert!(
            (w[[0, 0]] - 1.0).abs() < 1e-12 && w[[0, 1]] == 0.0 && w[[1, 2]] == 0.0,
            "head {head}: the weights must be causal (row 0 is [1, 0, 0]), got {w:?}"
        );
    }
    let two =
        attention.forward(&x.slice(course_common::ndarray::s![0..2, ..]).to_owned());
    assert_matrix_close(
        "the first two outputs, with and without a third token",
        &f.output
            .slice(course_common::ndarray::s![0..2, ..])
            .to_owned(),
        &two.output,
        Tol::TIGHT,
        &[],
    );
    // Without RoPE, attention is blind to order: swapping the first two tokens would
    // leave the third token's output unchanged. With RoPE it changes.
    let mut swapped = x.clone();
    swapped.row_mut(0).assign(&x.row(1));
    swapped.row_mut(1).assign(&x.row(0));
    let third = |m: &Matrix| attention.forward(m).output.row(2).to_owned();
    let moved = (&third(&x) - &third(&swapped)).mapv(f64::abs).sum();
    assert!(
        moved > 1e-6,
        "with RoPE, the last token must see the order of the ones before it"
    );
}

#[test]
fn self_attention_backward_matches_numerical_gradients() {
    let attention = rope_attention();
    let x = linspace_matrix(3, 4, -1.0, 1.2);
    let parts = [
        attention.w_q.clone(),
        attention.w_k.clone(),
        attention.w_v.clone(),
        attention.w_o.clone(),
    ];
    let upstream = linspace_matrix(3, 4, 0.8, -0.7);
    let grads = attention.backward(&x, &upstream);
    let mistakes = named!(NAMED, self_attention_backward_mistakes(&x, &AttentionParts { n_heads: 2, w_q: &parts[0], w_k: &parts[1], w_v: &parts[2], w_o: &parts[3] }, &upstream) => course_harness::Groups);
    let loss = |a: &CausalSelfAttention, x: &Matrix| {
        weighted_sum(&a.forward(x).output, &upstream)
    };
    assert_gradient_close_named(
        "CausalSelfAttention d_x",
        &grads.d_x,
        &numerical_gradient(|x| loss(&attention, x), &x, STEP),
        "dx = dQ W_q + dK W_k + dV W_v, with dQ and dK turned back by rope_backward",
        &mistakes["d_x"],
    );
    let with_w_q = |w: &Matrix| {
        let mut a = rope_attention();
        a.w_q = w.clone();
        loss(&a, &x)
    };
    assert_gradient_close_named(
        "CausalSelfAttention d_w_q",
        &grads.d_w_q,
        &numerical_gradient(with_w_q, &attention.w_q, STEP),
        "dW_q = dQᵀ x, with dQ turned back by rope_backward",
        &mistakes["d_w_q"],
    );
    let with_w_o = |w: &Matrix| {
        let mut a = rope_attention();
        a.w_o = w.clone();
        loss(&a, &x)
    };
    assert_gradient_close_named(
        "CausalSelfAttention d_w_o",
        &grads.d_w_o,
        &numerical_gradient(with_w_o, &attention.w_o, STEP),
        "dW_o = dYᵀ merged",
        &[],
    );
}

#[test]
fn self_attention_output_matches_the_course_s() {
    // The course's own attention, computed apart from the solution and recorded beside
    // this file (the graded tests check it against NumPy): a misplaced rotation or a
    // missing mask is named.
    let attention = rope_attention();
    let x = linspace_matrix(3, 4, -1.0, 1.2);
    let parts = [
        attention.w_q.clone(),
        attention.w_k.clone(),
        attention.w_v.clone(),
        attention.w_o.clone(),
    ];
    assert_matrix_close(
        "CausalSelfAttention::forward(x).output, three tokens, two heads of width 2",
        &attention.forward(&x).output,
        &named!(NAMED, self_attention_reference(&x, &AttentionParts { n_heads: 2, w_q: &parts[0], w_k: &parts[1], w_v: &parts[2], w_o: &parts[3] }) => Matrix),
        Tol::TIGHT,
        &named!(
            NAMED,
            self_attention_mistakes(
                &x,
                &AttentionParts {
                    n_heads: 2,
                    w_q: &parts[0],
                    w_k: &parts[1],
                    w_v: &parts[2],
                    w_o: &parts[3]
                }
            )
        ),
    );
    // The first token attends to itself alone, at position 0, where RoPE turns nothing:
    // its output is its own value, projected by W_o.
    let own = x.row(0).dot(&attention.w_v.t()).dot(&attention.w_o.t());
    assert_matrix_close(
        "the first token's output: its value, projected by W_o",
        &attention
            .forward(&x)
            .output
            .slice(course_common::ndarray::s![0..1, ..])
            .to_owned(),
        &own.insert_axis(Axis(0)),
        Tol::TIGHT,
        &[],
    );
}

// ---------------------------------------------------------------------------------------
// Training and sampling, around the model
// ---------------------------------------------------------------------------------------

/// `got` within 1e-12 of `expected`, with the call in the message.
fn assert_number(what: &str, got: Float, expected: Float) {
    assert!(
        (got - expected).abs() <= 1e-12 * expected.abs().max(1.0),
        "{what} should be {expected}, got {got}"
    );
}

#[test]
fn cosine_rate_warms_up_then_decays_to_its_floor() {
    // warm-up 10 steps, last step 110, from 1e-3 down to 1e-4, at steps 0, 9, 10, 60,
    // 110 and 500. Step 0 already moves: (0 + 1)/10 of the peak; the warm-up's last step
    // is the peak; the cosine starts there, is halfway at step 60 (cos(π/2) = 0), and ends
    // at the floor, where it stays.
    let steps = [0, 9, 10, 60, 110, 500];
    let got = Matrix::from_shape_fn((1, 6), |(_, i)| {
        cosine_rate(steps[i], 10, 110, 1e-3, 1e-4)
    });
    assert_matrix_close(
        "cosine_rate(step, 10, 110, 1e-3, 1e-4) at steps 0, 9, 10, 60, 110, 500",
        &got,
        &array![[1e-4, 1e-3, 1e-3, 1e-4 + (1e-3 - 1e-4) * 0.5, 1e-4, 1e-4]],
        Tol::TIGHT,
        &named!(
            NAMED,
            cosine_rate_mistakes(&[0, 9, 10, 60, 110, 500], 10, 110, 1e-3, 1e-4)
        ),
    );
}

#[test]
fn adamw_decays_the_weights_apart_from_the_gradient() {
    // One tensor that decays, one (a gain) that does not; lr = 0.1, λ = 0.1.
    let mut weight = vec![1.0, -2.0];
    let mut gain = vec![1.0];
    let mut opt = AdamW::new(&[&weight, &gain], &[true, false]);
    let grads: [&[Float]; 2] = [&[0.5, 0.0], &[0.5]];
    opt.update(&mut [&mut weight, &mut gain], &grads, 0.1);
    assert_eq!(opt.step, 1);
    // Worked by hand, step 1 (m̂ = g, v̂ = g²): 1 → 1·(1 − 0.1·0.1) − 0.1·0.5/(0.5 + 1e-8).
    // A zero gradient: only the decay moves it, by exactly lr·λ·θ = 0.02 (Adam with an L2
    // term would feed λθ = −0.2 into m and v and move it by about lr = 0.1). The gain does
    // not decay: Adam's step alone.
    let step = 0.1 * 0.5 / (0.5 + 1e-8);
    assert_matrix_close(
        "[weight[0], weight[1], gain] after one AdamW step",
        &array![[weight[0], weight[1], gain[0]]],
        &array![[0.99 - step, -2.0 * 0.99, 1.0 - step]],
        Tol::TIGHT,
        &named!(
            NAMED,
            adamw_mistakes(
                &[vec![1.0, -2.0], vec![1.0]],
                &[true, false],
                &[vec![vec![0.5, 0.0], vec![0.5]]],
                &[0.1]
            )
        ),
    );
}

#[test]
fn temperature_sharpens_and_flattens() {
    let logits = [1.0, 2.0, 3.0];
    let at = |t| softmax_with_temperature(&logits, t);
    let e = |x: Float| x.exp();
    let z = e(1.0) + e(2.0) + e(3.0);
    for (got, want) in at(1.0).iter().zip([e(1.0) / z, e(2.0) / z, e(3.0) / z]) {
        assert_number("softmax_with_temperature([1, 2, 3], 1)", *got, want);
    }
    // T = 0.5 is the softmax of the logits doubled; T = 1000 is almost uniform.
    let z2 = e(2.0) + e(4.0) + e(6.0);
    assert_matrix_close(
        "softmax_with_temperature([1, 2, 3], 0.5)",
        &Matrix::from_shape_vec((1, 3), at(0.5)).expect("three probabilities"),
        &array![[e(2.0) / z2, e(4.0) / z2, e(6.0) / z2]],
        Tol::TIGHT,
        &named!(NAMED, temperature_mistakes(&[1.0, 2.0, 3.0], 0.5)),
    );
    assert!(at(1000.0).iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-3));
    // Large logits must not overflow.
    let big = softmax_with_temperature(&[1000.0, 1001.0], 1.0);
    assert!(
        big.iter().all(|p| p.is_finite()),
        "softmax of [1000, 1001]: {big:?}"
    );
}

#[test]
fn top_k_and_top_p_keep_the_most_probable_and_renormalise() {
    let probs = [0.1, 0.4, 0.2, 0.3];
    let row = |v: Vec<Float>| Matrix::from_shape_vec((1, v.len()), v).expect("a row");
    let check = |what: &str,
                 got: Vec<Float>,
                 want: [Float; 4],
                 mistakes: &[course_harness::Misconception]| {
        assert_matrix_close(what, &row(got), &row(want.to_vec()), Tol::TIGHT, mistakes);
    };
    check(
        "top_k_filter(p, 2)",
        top_k_filter(&probs, 2),
        [0.0, 4.0 / 7.0, 0.0, 3.0 / 7.0],
        &named!(NAMED, top_k_mistakes(&[0.1, 0.4, 0.2, 0.3], 2)),
    );
    check("top_k_filter(p, 0)", top_k_filter(&probs, 0), probs, &[]);
    // Equal probabilities: the lower ids first.
    check(
        "top_k_filter(uniform, 2)",
        top_k_filter(&[0.25; 4], 2),
        [0.5, 0.5, 0.0, 0.0],
        &named!(NAMED, top_k_mistakes(&[0.25; 4], 2)),
    );
    // 0.4 alone is below 0.6; with 0.3 it reaches 0.7: those two are the nucleus.
    check(
        "top_p_filter(p, 0.6)",
        top_p_filter(&probs, 0.6),
        [0.0, 4.0 / 7.0, 0.0, 3.0 / 7.0],
        &named!(NAMED, top_p_mistakes(&[0.1, 0.4, 0.2, 0.3], 0.6)),
    );
    // The most probable token is always kept.
    check(
        "top_p_filter(p, 0.1)",
        top_p_filter(&probs, 0.1),
        [0.0, 1.0, 0.0, 0.0],
        &named!(NAMED, top_p_mistakes(&[0.1, 0.4, 0.2, 0.3], 0.1)),
    );
    check("top_p_filter(p, 1)", top_p_filter(&probs, 1.0), probs, &[]);
    // Reaching p exactly counts: 0.5 alone reaches p = 0.5 (numbers exact in binary).
    assert_matrix_close(
        "top_p_filter([0.5, 0.25, 0.25], 0.5)",
        &row(top_p_filter(&[0.5, 0.25, 0.25], 0.5)),
        &array![[1.0, 0.0, 0.0]],
        Tol::TIGHT,
        &named!(NAMED, top_p_mistakes(&[0.5, 0.25, 0.25], 0.5)),
    );
}

#[test]
fn sample_next_inverts_the_cumulative_distribution() {
    // Logits whose softmax is [0.1, 0.4, 0.2, 0.3]: cumulative 0.1, 0.5, 0.7, 1.0.
    let logits: Vec<Float> = [0.1, 0.4, 0.2, 0.3]
        .iter()
        .map(|p: &Float| p.ln())
        .collect();
    let plain = Sampling {
        temperature: 1.0,
        top_k: 0,
        top_p: 1.0,
    };
    for (u, id) in [(0.05, 0), (0.45, 1), (0.65, 2), (0.95, 3)] {
        assert_eq!(
            sample_next(&logits, &plain, u),
            id,
            "u = {u}: cumulative 0.1, 0.5, 0.7, 1"
        );
    }
    // With top-k = 2: [0, 4/7, 0, 3/7], cumulative 4/7 ≈ 0.571 then 1.
    let top2 = Sampling { top_k: 2, ..plain };
    assert_eq!(sample_next(&logits, &top2, 0.5), 1);
    assert_eq!(sample_next(&logits, &top2, 0.6), 3);
    // Top-k first, then top-p on what is left, renormalised: k = 2 leaves
    // [0, 4/7, 0, 3/7], and 4/7 ≈ 0.571 alone reaches p = 0.55, so id 1 alone remains,
    // whatever u. (Top-p first would keep ids 1 and 3, and u = 0.9 would give 3.)
    let both = Sampling {
        top_k: 2,
        top_p: 0.55,
        ..plain
    };
    assert_eq!(
        sample_next(&logits, &both, 0.9),
        1,
        "top-k 2 then top-p 0.55 keeps id 1 alone"
    );
    // Temperature 0 is greedy: the argmax, the lower id on ties, whatever u.
    assert_eq!(
        sample_next(&[1.0, 3.0, 3.0, 2.0], &Sampling::GREEDY, 0.99),
        1
    );
}

#[test]
fn bits_per_byte_and_the_byte_baselines_by_hand() {
    // 8 bytes and 8·ln 2 nats: one bit per byte.
    assert_number(
        "bits_per_byte(8 ln 2, 8)",
        bits_per_byte(8.0 * std::f64::consts::LN_2, 8),
        1.0,
    );
    // Unigram on "ab": P(a) = (1 + 1)/(2 + 256) = 1/129, so −log2 = log2 129.
    let one = |v: Float| Matrix::from_elem((1, 1), v);
    assert_matrix_close(
        "unigram_bits_per_byte(\"ab\", \"a\")",
        &one(unigram_bits_per_byte(b"ab", b"a")),
        &one(129f64.log2()),
        Tol::TIGHT,
        &named!(NAMED, unigram_mistakes(b"ab", b"a")),
    );
    // Bigram on "abab": the first byte of "ab" by the unigram model, P(a) = 3/260; then
    // P(b | a) = (2 + 1)/(2 + 256). The mean of the two.
    let expected = (-(3.0f64 / 260.0).log2() - (3.0f64 / 258.0).log2()) / 2.0;
    assert_matrix_close(
        "bigram_bits_per_byte(\"abab\", \"ab\")",
        &one(bigram_bits_per_byte(b"abab", b"ab")),
        &one(expected),
        Tol::TIGHT,
        &named!(NAMED, bigram_mistakes(b"abab", b"ab")),
    );
    // On text with structure, the bigram model beats the unigram model.
    let train = "the cat sat on the mat; the rat sat on the hat. ".repeat(20);
    let test = b"the cat sat on the hat.";
    assert!(
        bigram_bits_per_byte(train.as_bytes(), test)
            < unigram_bits_per_byte(train.as_bytes(), test)
    );
}

// ---------------------------------------------------------------------------------------
// The model: blocks, the tied head, the loss, the backward pass, generation
// ---------------------------------------------------------------------------------------

/// Seven ids, width 4, two heads of width 2, two blocks, d_ff 6.
const TINY: Config = Config {
    vocab_size: 7,
    d_model: 4,
    n_heads: 2,
    n_layers: 2,
    d_ff: 6,
    context: 8,
};

/// A tiny model whose every number is set by a formula (large enough that every part
/// matters): gains near 1, weights between −0.6 and 0.6.
fn tiny_gpt() -> Gpt {
    let mut model = Gpt::new(TINY, 0);
    for (k, (name, tensor)) in model.named_parameters_mut().into_iter().enumerate() {
        for (i, value) in tensor.iter_mut().enumerate() {
            let angle = (1 + 3 * k + 7 * i) as Float;
            *value = if name.contains("norm") {
                1.0 + 0.2 * angle.sin()
            } else {
                0.6 * angle.sin()
            };
        }
    }
    model
}

/// The central-difference gradient of `loss` with respect to the parameter `name` of
/// `model`, as a row.
fn numerical_parameter_gradient(
    model: &Gpt,
    name: &str,
    loss: impl Fn(&Gpt) -> Float,
) -> Matrix {
    let index = model
        .named_parameters()
        .iter()
        .position(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no parameter named {name}"));
    let len = model.parameters()[index].len();
    let mut probe = model.clone();
    let mut grad = Vec::with_capacity(len);
    for i in 0..len {
        let original = probe.parameters()[index][i];
        probe.parameters_mut()[index][i] = original + STEP;
        let plus = loss(&probe);
        probe.parameters_mut()[index][i] = original - STEP;
        let minus = loss(&probe);
        probe.parameters_mut()[index][i] = original;
        grad.push((plus - minus) / (2.0 * STEP));
    }
    Matrix::from_shape_vec((1, len), grad).expect("one row")
}

/// The parameter `name` of `grads` (a model-shaped gradient), as a row.
fn parameter_row(grads: &Gpt, name: &str) -> Matrix {
    let (_, tensor) = grads
        .named_parameters()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no parameter named {name}"));
    Matrix::from_shape_vec((1, tensor.len()), tensor.to_vec()).expect("one row")
}

#[test]
fn a_block_adds_each_sublayer_to_the_stream_itself() {
    // Pre-norm: each sublayer reads a normalised copy and adds to the unnormalised stream.
    let model = tiny_gpt();
    let block = &model.blocks[0];
    let x = linspace_matrix(3, 4, -1.0, 1.2);
    let f = block.forward(&x);
    let h = &x + &block.attention.forward(&block.norm_1.forward(&x)).output;
    let y = &h + &block.feed_forward.forward(&block.norm_2.forward(&h)).output;
    assert_matrix_close(
        "Block::forward(x).residual: h = x + Attention(RMSNorm_1(x))",
        &f.residual,
        &h,
        Tol::TIGHT,
        &[],
    );
    assert_matrix_close(
        "Block::forward(x).output: y = h + SwiGLU(RMSNorm_2(h))",
        &f.output,
        &y,
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn block_backward_matches_numerical_gradients() {
    let model = tiny_gpt();
    let block = &model.blocks[0];
    let x = linspace_matrix(3, 4, -1.0, 1.2);
    let upstream = linspace_matrix(3, 4, 0.8, -0.7);
    let grads = block.backward(&x, &block.forward(&x), &upstream);
    let loss = |b: &gpt::Block, x: &Matrix| weighted_sum(&b.forward(x).output, &upstream);
    assert_gradient_close_named(
        "Block d_x",
        &grads.d_x,
        &numerical_gradient(|x| loss(block, x), &x, STEP),
        "d_x = d_h + RMSNorm_1's backward of the attention's d_x; d_h = d_y + RMSNorm_2's \
         backward of the feed-forward's d_x. Each residual passes its gradient on whole.",
        &[],
    );
    let with_w_gate = |w: &Matrix| {
        let mut b = block.clone();
        b.feed_forward.w_gate = w.clone();
        loss(&b, &x)
    };
    assert_gradient_close_named(
        "Block d_w_gate (params.feed_forward.w_gate)",
        &grads.params.feed_forward.w_gate,
        &numerical_gradient(with_w_gate, &block.feed_forward.w_gate, STEP),
        "the feed-forward's backward at b = RMSNorm_2(h), with the upstream d_y",
        &[],
    );
    let with_w_q = |w: &Matrix| {
        let mut b = block.clone();
        b.attention.w_q = w.clone();
        loss(&b, &x)
    };
    assert_gradient_close_named(
        "Block d_w_q (params.attention.w_q)",
        &grads.params.attention.w_q,
        &numerical_gradient(with_w_q, &block.attention.w_q, STEP),
        "the attention's backward at a = RMSNorm_1(x), with d_h (not d_y)",
        &[],
    );
    let with_gain = |g: &Matrix| {
        let mut b = block.clone();
        b.norm_1.gain = g.row(0).to_owned();
        loss(&b, &x)
    };
    assert_gradient_close_named(
        "Block d_gain of norm_1 (params.norm_1.gain)",
        &grads.params.norm_1.gain.clone().insert_axis(Axis(0)),
        &numerical_gradient(
            with_gain,
            &block.norm_1.gain.clone().insert_axis(Axis(0)),
            STEP,
        ),
        "norm_1's backward at x, with the attention's d_x as its upstream",
        &[],
    );
}

#[test]
fn next_token_loss_by_hand() {
    // Equal logits over 4 ids: p = 1/4 everywhere, so the loss is ln 4 whatever the
    // targets, and the gradient is (1/4 − onehot)/n with n = 2 rows.
    let loss = next_token_loss(&Matrix::zeros((2, 4)), &[1, 3]);
    assert_number(
        "next_token_loss(zeros (2, 4), [1, 3]).value",
        loss.value,
        4f64.ln(),
    );
    assert_matrix_close(
        "next_token_loss(zeros (2, 4), [1, 3]).d_logits",
        &loss.d_logits,
        &array![[0.125, -0.375, 0.125, 0.125], [0.125, 0.125, 0.125, -0.375]],
        Tol::TIGHT,
        &[],
    );
    // Logits (0, ln 3): p = (1/4, 3/4). Target 1: −ln(3/4) nats; target 0: ln 4.
    let logits = array![[0.0, 3f64.ln()], [0.0, 3f64.ln()]];
    let loss = next_token_loss(&logits, &[1, 0]);
    assert_number(
        "next_token_loss([[0, ln 3], [0, ln 3]], [1, 0]).value",
        loss.value,
        ((4.0f64 / 3.0).ln() + 4f64.ln()) / 2.0,
    );
}

#[test]
fn the_head_is_the_embedding_and_the_model_is_causal() {
    let model = tiny_gpt();
    let tokens = [3, 1, 4, 1, 5];
    let f = model.forward(&tokens);
    assert_eq!(
        f.stream.len(),
        3,
        "the stream before each of 2 blocks and after the last"
    );
    assert_matrix_close(
        "forward(tokens).stream[0]: the embedding's rows 3, 1, 4, 1, 5",
        &f.stream[0],
        &model.embedding.select(Axis(0), &tokens),
        Tol::TIGHT,
        &[],
    );
    assert_matrix_close(
        "forward(tokens).logits: normed Eᵀ (the head is the embedding, tied)",
        &f.logits,
        &f.normed.dot(&model.embedding.t()),
        Tol::TIGHT,
        &[],
    );
    assert_matrix_close(
        "forward(tokens).normed: RMSNorm_f of the last stream",
        &f.normed,
        &model.norm_final.forward(&f.stream[2]),
        Tol::TIGHT,
        &[],
    );
    // Position t sees tokens 0..=t only: the first three rows do not change when the
    // last two tokens are dropped.
    assert_matrix_close(
        "the logits of the first three tokens, with and without the last two",
        &f.logits
            .slice(course_common::ndarray::s![0..3, ..])
            .to_owned(),
        &model.forward(&tokens[..3]).logits,
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn gpt_backward_matches_numerical_gradients() {
    // Token 1 occurs twice: its embedding row is used at two positions and by the head.
    let model = tiny_gpt();
    let window = [3, 1, 4, 1, 5, 2];
    let (inputs, targets) = (&window[..5], &window[1..]);
    let f = model.forward(inputs);
    let loss = next_token_loss(&f.logits, targets);
    let mut grads = model.backward(inputs, &f, &loss.d_logits);
    grads.standardise(); // a product with a transpose may come out column by column
    let value = |m: &Gpt| next_token_loss(&m.forward(inputs).logits, targets).value;
    for (name, hint) in [
        (
            "embedding.weight",
            "E is used twice: dE = d_logitsᵀ normed (the head) plus, for every position t, \
             row t of d_x_0 added into row tokens[t] (the lookup; a repeated token adds both)",
        ),
        (
            "norm_final.weight",
            "the final RMSNorm's d_gain, at x_L, with d_normed = d_logits E",
        ),
        (
            "blocks.1.feed_forward.w_down.weight",
            "the last block's backward gets d_x_L from the final norm",
        ),
        (
            "blocks.0.attention.w_v.weight",
            "the first block's backward gets d_x_1 from the second block's d_x",
        ),
    ] {
        assert_gradient_close_named(
            &format!("Gpt::backward: the gradient of {name}"),
            &parameter_row(&grads, name),
            &numerical_parameter_gradient(&model, name, value),
            hint,
            &[],
        );
    }
}

#[test]
fn cached_generation_gives_the_uncached_tokens() {
    let model = tiny_gpt();
    // One token at a time through the cache gives the rows of the whole-sequence pass.
    let attention = &model.blocks[0].attention;
    let x = linspace_matrix(4, 4, -1.0, 1.2);
    let mut cache = KvCache::new(2, 2);
    for t in 0..4 {
        let row = x.slice(course_common::ndarray::s![t..t + 1, ..]).to_owned();
        assert_matrix_close(
            &format!("CausalSelfAttention::step for the token at position {t}"),
            &attention.step(&row, &mut cache),
            &attention
                .forward(&x)
                .output
                .slice(course_common::ndarray::s![t..t + 1, ..])
                .to_owned(),
            Tol::TIGHT,
            &[],
        );
        assert_eq!(
            cache.len(),
            t + 1,
            "step pushes one key and one value per head"
        );
    }
    for (sampling, what) in [
        (Sampling::GREEDY, "greedy"),
        (
            Sampling {
                temperature: 1.0,
                top_k: 0,
                top_p: 1.0,
            },
            "sampled at T = 1",
        ),
    ] {
        assert_ids_eq(
            &format!("generate([2, 6], 6 new tokens, {what}) with the cache and without"),
            &model.generate(&[2, 6], 6, &sampling, 7),
            &model.generate_uncached(&[2, 6], 6, &sampling, 7),
            &[],
        );
    }
}

#[test]
fn a_checkpoint_loads_back_to_the_same_model() {
    // The model as named tensors, saved as safetensors, read back: the same model.
    use course_checkpoint::{Checkpoint, Tensor};
    let model = tiny_gpt();
    let checkpoint = Checkpoint {
        tensors: model
            .shaped_parameters()
            .into_iter()
            .map(|(name, shape, values)| (name, Tensor { shape, values }))
            .collect(),
        metadata: model.config.to_metadata().into_iter().collect(),
        probe: None,
    };
    let path =
        std::env::temp_dir().join(format!("gpt-{}.safetensors", std::process::id()));
    course_checkpoint::save(&checkpoint, &path).expect("the checkpoint is written");
    let read = course_checkpoint::load(&path).expect("the checkpoint loads");
    std::fs::remove_file(&path).ok();
    let config = Config::from_metadata(|key| read.metadata.get(key).cloned())
        .expect("the sizes are in the metadata");
    let loaded = Gpt::from_parameters(config, |name| {
        read.tensors
            .get(name)
            .map(|t| (t.shape.clone(), t.values.clone()))
    })
    .expect("every tensor is in the checkpoint");
    assert_eq!(
        loaded, model,
        "every parameter and size comes back as saved"
    );
    // A tensor of the wrong shape is refused with a message, not a panic.
    let error = Gpt::from_parameters(config, |name| {
        let t = &read.tensors[name];
        Some((t.shape.iter().rev().copied().collect(), t.values.clone()))
    })
    .expect_err("a transposed tensor is refused");
    assert!(
        error.contains("shape"),
        "the message names the shape: {error}"
    );
}
