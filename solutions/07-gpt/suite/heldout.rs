//! Held-out tests of lesson 07, A GPT of your own: in the instructor's edition only.
//!
//! They check the graded suite's properties again on other inputs, so that a submission
//! tuned to the graded fixtures gains nothing: every expected value is worked by hand or
//! an exact property (a rotation's relative-position property, a round trip, gradients
//! against central differences of the learner's own forward pass, probabilities that add
//! up to 1).
//!
//! What a test compares with, and the comparisons, are compiled only with the `judge`
//! feature (`#[cfg(feature = "judge")]`): the executable that runs the learner's code holds
//! the inputs and the calls, and no held-out answer.

// Without the judge's checks, what they would have used is unused.
#![cfg_attr(not(feature = "judge"), allow(unused))]

use course_common::ndarray::{Axis, array};
use course_common::{Float, Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Catalog, graded, linspace, linspace_matrix, numerical_gradient, tr,
};
#[cfg(feature = "judge")]
use course_harness::{Tol, assert_gradient_close, assert_ids_eq, assert_matrix_close};
use gpt::Sampling;

/// What the failing held-out tests say, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "07-gpt heldout",
    include_str!("locales/en/heldout.ftl"),
    include_str!("locales/zh-CN/heldout.ftl"),
);

// The calls into the lesson, each observed (the graded suite's).
#[path = "calls.rs"]
mod calls;
use calls::*;

/// A run of eight equal bytes, worked by hand: (a, a) occurs 7 times → 256, leaving four
/// 256s; (256, 256) 3 times → 257, leaving two; (257, 257) → 258.
#[test]
fn heldout_train_bpe_on_a_run() {
    graded(|| {
        let got = train_bpe("aaaaaaaa", 5);
        #[cfg(feature = "judge")]
        assert_ids_eq(
            &tr!(MESSAGES, "train-run"),
            &got,
            &[97, 97, 256, 256, 257, 257],
            &[],
        );
    });
}

/// Text unseen in training (Chinese, emoji, the end-of-text token) comes back exactly.
#[test]
fn heldout_round_trip_of_unseen_text() {
    graded(|| {
        let merges: Vec<(usize, usize)> =
            train_bpe("序列到序列模型，编码器和解码器。🙂🙂", 25)
                .chunks(2)
                .map(|p| (p[0], p[1]))
                .collect();
        for text in [
            "解码器读到 <|endoftext|> 就停 🙃",
            "",
            "<|endoftext|>",
            "plain ascii",
        ] {
            let ids = encode(&merges, text);
            let back: Vec<usize> = decode_bytes(&merges, &ids)
                .iter()
                .map(|&b| usize::from(b))
                .collect();
            #[cfg(feature = "judge")]
            assert_ids_eq(
                &tr!(MESSAGES, "round-trip", text = text),
                &back,
                &text.bytes().map(usize::from).collect::<Vec<_>>(),
                &[],
            );
        }
    });
}

/// RMSNorm's gradients against central differences of the learner's own forward pass,
/// on rows of width 7 with one row far from zero.
#[test]
fn heldout_rms_norm_backward_matches_numerical_gradients() {
    graded(|| {
        let gain = Vector::from(linspace(1.3, -0.4, 7));
        let mut x = linspace_matrix(3, 7, -1.1, 0.9);
        x.row_mut(2).mapv_inplace(|v| 40.0 * v + 3.0);
        let up = linspace_matrix(3, 7, 0.4, -1.0);
        let (d_x, d_gain) = rms_backward(&gain, &x, &up);
        let numerical =
            numerical_gradient(|x| weighted_sum(&rms_forward(&gain, x), &up), &x, STEP);
        let numerical_gain = numerical_gradient(
            |g| weighted_sum(&rms_forward(&g.row(0).to_owned(), &x), &up),
            &gain.clone().insert_axis(Axis(0)),
            STEP,
        );
        #[cfg(feature = "judge")]
        {
            assert_gradient_close(
                "RmsNorm d_x",
                &d_x,
                &numerical,
                &tr!(MESSAGES, "rms-hint"),
            );
            assert_gradient_close(
                "RmsNorm d_gain",
                &d_gain.insert_axis(Axis(0)),
                &numerical_gain,
                &tr!(MESSAGES, "rms-hint"),
            );
        }
    });
}

/// RoPE at width 16: scores depend on the distance only, up to positions in the
/// thousands; and its backward against central differences.
#[test]
fn heldout_rope_at_width_16() {
    graded(|| {
        let q = linspace_matrix(1, 16, -0.9, 1.2);
        let k = linspace_matrix(1, 16, 0.7, -0.5);
        let score = |m: usize, n: usize| -> Float {
            (&apply_rope(&q, m) * &apply_rope(&k, n)).sum()
        };
        let pairs = [
            (score(3, 0), score(4003, 4000)),
            (score(0, 11), score(2500, 2511)),
        ];
        let x = linspace_matrix(2, 16, 0.3, -1.4);
        let up = linspace_matrix(2, 16, -0.6, 0.8);
        let d_x = rope_backward(&up, 13);
        let numerical =
            numerical_gradient(|x| weighted_sum(&apply_rope(x, 13), &up), &x, STEP);
        #[cfg(feature = "judge")]
        {
            for (a, b) in pairs {
                let (shown_a, shown_b) =
                    course_harness::check::shown_apart_as(a, b, |x, extra| {
                        format!("{x:.*}", 9 + extra)
                    });
                assert!(
                    (a - b).abs() < 1e-9,
                    "{}",
                    tr!(MESSAGES, "rope-relative", a = shown_a, b = shown_b)
                );
            }
            assert_gradient_close(
                "rope_backward",
                &d_x,
                &numerical,
                &tr!(MESSAGES, "rope-hint"),
            );
        }
    });
}

/// SwiGLU's gradients against central differences, with a hidden width larger than the
/// model's and one row of large values (SiLU's slope far from 1/2).
#[test]
fn heldout_swiglu_backward_matches_numerical_gradients() {
    graded(|| {
        let w = [
            linspace_matrix(5, 2, -0.8, 0.9),
            linspace_matrix(5, 2, 0.6, -0.7),
            linspace_matrix(2, 5, -0.5, 0.4),
        ];
        let x = array![[0.4, -1.2], [3.5, 2.0]];
        let up = array![[0.3, -0.8], [1.1, 0.2]];
        let [d_x, d_w_gate, d_w_up, d_w_down] =
            swiglu_backward([&w[0], &w[1], &w[2]], &x, &up);
        let loss = |w: [&Matrix; 3], x: &Matrix| weighted_sum(&swiglu_output(w, x), &up);
        let numerical = [
            numerical_gradient(|x| loss([&w[0], &w[1], &w[2]], x), &x, STEP),
            numerical_gradient(|g| loss([g, &w[1], &w[2]], &x), &w[0], STEP),
            numerical_gradient(|u| loss([&w[0], u, &w[2]], &x), &w[1], STEP),
            numerical_gradient(|d| loss([&w[0], &w[1], d], &x), &w[2], STEP),
        ];
        #[cfg(feature = "judge")]
        for (name, got, numerical) in [
            ("SwiGlu d_x", &d_x, &numerical[0]),
            ("SwiGlu d_w_gate", &d_w_gate, &numerical[1]),
            ("SwiGlu d_w_up", &d_w_up, &numerical[2]),
            ("SwiGlu d_w_down", &d_w_down, &numerical[3]),
        ] {
            assert_gradient_close(name, got, numerical, &tr!(MESSAGES, "swiglu-hint"));
        }
    });
}

/// A schedule of other lengths: the warm-up's last step at the peak, no rise after it,
/// the floor from the last step on.
#[test]
fn heldout_cosine_rate_shape() {
    graded(|| {
        let steps: Vec<usize> = (0..60).collect();
        let rates = cosine_rates(&steps, 7, 45, 5e-4, 5e-5);
        #[cfg(feature = "judge")]
        {
            assert!(
                (rates[6] - 5e-4).abs() < 1e-15,
                "{}",
                tr!(MESSAGES, "cosine-peak", got = rates[6].to_string())
            );
            for s in 7..59 {
                assert!(
                    rates[s + 1] <= rates[s] + 1e-18,
                    "{}",
                    tr!(MESSAGES, "cosine-rises", step = s + 1)
                );
            }
            for s in 45..60 {
                assert!(
                    (rates[s] - 5e-5).abs() < 1e-15,
                    "{}",
                    tr!(
                        MESSAGES,
                        "cosine-floor",
                        step = s,
                        got = rates[s].to_string()
                    )
                );
            }
        }
    });
}

/// With zero gradients, three AdamW steps shrink a decaying tensor by exactly
/// (1 − lr·λ) per step and leave the other alone.
#[test]
fn heldout_adamw_decay_alone() {
    graded(|| {
        let params = vec![vec![2.0, -4.0], vec![3.0]];
        let grads = vec![vec![vec![0.0, 0.0], vec![0.0]]; 3];
        let lrs = [0.05, 0.1, 0.2];
        let got = adamw_run(&params, &[true, false], &grads, &lrs);
        #[cfg(feature = "judge")]
        {
            let shrink: Float = lrs.iter().map(|lr| 1.0 - lr * 0.1).product();
            assert_matrix_close(
                &tr!(MESSAGES, "adamw-decay"),
                &got.insert_axis(Axis(0)),
                &array![[2.0 * shrink, -4.0 * shrink, 3.0]],
                Tol::TIGHT,
                &[],
            );
        }
    });
}

/// The byte models on texts worked by hand: train on every byte once and score every byte
/// once, and each has probability 2/512 = 1/256: exactly 8 bits per byte for both.
#[test]
fn heldout_baselines_of_a_uniform_text() {
    graded(|| {
        let all: Vec<u8> = (0..=255).collect();
        let unigram = baseline("unigram", &all, &all);
        #[cfg(feature = "judge")]
        assert!(
            (unigram - 8.0).abs() < 1e-12,
            "{}",
            tr!(
                MESSAGES,
                "uniform-8-bits",
                which = "unigram",
                got = unigram.to_string()
            )
        );
    });
}

/// Sampling on other logits: probabilities that add up to 1 at a low temperature, greedy
/// on a tie at the end, top-k with k at the vocabulary size keeping everything.
#[test]
fn heldout_sampling_edges() {
    graded(|| {
        let logits = [0.3, -2.0, 5.0, 5.0];
        let cold = softmax_t(&logits, 0.05);
        let greedy = samples(&logits, Sampling::GREEDY, &[0.5]);
        let all = top_k(&[0.1, 0.2, 0.7], 3);
        #[cfg(feature = "judge")]
        {
            assert!(
                (cold.sum() - 1.0).abs() < 1e-12,
                "{}",
                tr!(MESSAGES, "cold-sum", sum = cold.sum().to_string())
            );
            assert_ids_eq(&tr!(MESSAGES, "greedy-tie"), &greedy, &[2], &[]);
            assert_matrix_close(
                "top_k_filter([0.1, 0.2, 0.7], 3)",
                &all.insert_axis(Axis(0)),
                &array![[0.1, 0.2, 0.7]],
                Tol::TIGHT,
                &[],
            );
        }
    });
}

/// A model of another shape (three heads of width 4, one block, d_ff 10, nine ids), its
/// weights from a formula: the loss of its logits for a window with a repeated token,
/// and the gradient of the embedding and of W_v against central differences of the
/// learner's own forward pass and loss.
fn heldout_weights() -> Weights {
    let config = gpt::Config {
        vocab_size: 9,
        d_model: 12,
        n_heads: 3,
        n_layers: 1,
        d_ff: 10,
        context: 6,
    };
    let mut weights = Weights {
        config,
        matrices: Default::default(),
        gains: Default::default(),
    };
    let mut k = 0;
    let mut matrix = |name: &str, rows: usize, cols: usize| {
        k += 1;
        let m = Matrix::from_shape_fn((rows, cols), |(i, j)| {
            0.5 * ((3 * k + 5 * i + 7 * j) as Float * 0.37).sin()
        });
        weights.matrices.insert(name.to_string(), m);
    };
    matrix("embedding.weight", 9, 12);
    for part in ["w_q", "w_k", "w_v", "w_o"] {
        matrix(&format!("blocks.0.attention.{part}.weight"), 12, 12);
    }
    matrix("blocks.0.feed_forward.w_gate.weight", 10, 12);
    matrix("blocks.0.feed_forward.w_up.weight", 10, 12);
    matrix("blocks.0.feed_forward.w_down.weight", 12, 10);
    for (i, name) in [
        "blocks.0.norm_1.weight",
        "blocks.0.norm_2.weight",
        "norm_final.weight",
    ]
    .iter()
    .enumerate()
    {
        let gain = Vector::from_shape_fn(12, |j| 1.0 + 0.1 * ((i + j) as Float).cos());
        weights.gains.insert(name.to_string(), gain);
    }
    weights
}

#[test]
fn heldout_gpt_gradients_of_another_shape() {
    graded(|| {
        let weights = heldout_weights();
        let (inputs, targets) = ([4, 0, 8, 4, 2], [0, 8, 4, 2, 7]);
        let (logits, _) = gpt_forward(&weights, &inputs);
        let (_, d_logits) = next_token_loss(&logits, &targets);
        let got = gpt_backward(&weights, &inputs, &d_logits);
        // The loss as a function of one tensor, through the learner's forward and loss.
        let loss_with = |name: &str, value: &Matrix| {
            let mut w = Weights {
                config: weights.config,
                matrices: weights.matrices.clone(),
                gains: weights.gains.clone(),
            };
            w.matrices.insert(name.to_string(), value.clone());
            next_token_loss(&gpt_forward(&w, &inputs).0, &targets).0
        };
        let numeric = |name: &str| {
            numerical_gradient(|m| loss_with(name, m), &weights.matrices[name], STEP)
        };
        let embedding = numeric("embedding.weight");
        let w_v = numeric("blocks.0.attention.w_v.weight");
        #[cfg(feature = "judge")]
        {
            assert_gradient_close(
                &tr!(MESSAGES, "gpt-embedding-gradient"),
                &got[0],
                &embedding,
                "dE is the head's share plus the lookup's rows, added",
            );
            assert_gradient_close(
                &tr!(MESSAGES, "gpt-w-v-gradient"),
                &got[4],
                &w_v,
                "the block's backward, with d_h passed to the attention",
            );
        }
    });
}

/// Large logits (near 1000): the loss must stay finite, ln 2 for two equal largest
/// logits and a target among them.
#[test]
fn heldout_loss_of_large_logits() {
    graded(|| {
        let (value, d_logits) = next_token_loss(&array![[1000.0, 1000.0, -5.0]], &[1]);
        #[cfg(feature = "judge")]
        {
            let one = |v: Float| Matrix::from_elem((1, 1), v);
            assert_matrix_close(
                &tr!(MESSAGES, "loss-large"),
                &one(value),
                &one(std::f64::consts::LN_2),
                Tol::TIGHT,
                &[],
            );
            assert!(
                (d_logits.sum()).abs() < 1e-12,
                "{}",
                tr!(
                    MESSAGES,
                    "loss-gradient-sum",
                    sum = d_logits.sum().to_string()
                )
            );
        }
    });
}
