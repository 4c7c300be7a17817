//! Lesson 07: the BPE tokenizer (counting, merging, training, encoding, the end-of-text
//! token), RMSNorm and its backward pass, RoPE and its backward pass, SwiGLU and its
//! backward pass.

use crate::{differing, told_apart};
use course_common::ndarray::Axis;
use course_common::{Float, Matrix};
use course_harness::causes::gpt::*;
use course_harness::{Groups, Misconception, ids_row};
use std::collections::BTreeMap;

/// The end-of-text token's text.
const EOT: &str = "<|endoftext|>";

fn mistake(cause: course_harness::Cause, result: Matrix) -> Misconception {
    Misconception { cause, result }
}

// ---------------------------------------------------------------------------------------
// BPE

/// The mistakes whose result no other listed mistake of a different cause gives on this
/// input: where two coincide (the leftmost learned pair is also the last learned one),
/// neither is named, rather than one of them by a guess.
fn apart(mistakes: Vec<Misconception>) -> Vec<Misconception> {
    mistakes
        .iter()
        .filter(|m| {
            mistakes.iter().all(|other| {
                other.cause.key() == m.cause.key()
                    || course_harness::distinguishable(&other.result, &m.result)
            })
        })
        .cloned()
        .collect()
}

/// How a mistaken BPE counts, merges and breaks ties.
#[derive(Clone, Copy, Default)]
struct Bpe {
    non_overlapping: bool,
    step_one: bool,
    tie: Tie,
}

#[derive(Clone, Copy, Default, PartialEq)]
enum Tie {
    #[default]
    Smallest,
    Largest,
    FirstSeen,
}

impl Bpe {
    fn count(&self, ids: &[usize], counts: &mut BTreeMap<(usize, usize), usize>) {
        let mut i = 0;
        while i + 1 < ids.len() {
            *counts.entry((ids[i], ids[i + 1])).or_insert(0) += 1;
            i += if self.non_overlapping && ids[i] == ids[i + 1] { 2 } else { 1 };
        }
    }

    fn merge(&self, ids: &[usize], pair: (usize, usize), new_id: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < ids.len() {
            if i + 1 < ids.len() && (ids[i], ids[i + 1]) == pair {
                out.push(new_id);
                i += if self.step_one { 1 } else { 2 };
            } else {
                out.push(ids[i]);
                i += 1;
            }
        }
        out
    }

    fn train(&self, text: &str, n_merges: usize) -> Vec<(usize, usize)> {
        let mut documents: Vec<Vec<usize>> = text
            .split(EOT)
            .map(|d| d.bytes().map(usize::from).collect())
            .collect();
        let mut merges = Vec::new();
        for round in 0..n_merges {
            let mut counts = BTreeMap::new();
            for document in &documents {
                self.count(document, &mut counts);
            }
            let Some(&top) = counts.values().max() else {
                break;
            };
            let pair = match self.tie {
                Tie::Smallest => *counts.iter().find(|(_, c)| **c == top).unwrap().0,
                Tie::Largest => *counts.iter().rev().find(|(_, c)| **c == top).unwrap().0,
                Tie::FirstSeen => documents
                    .iter()
                    .flat_map(|d| d.windows(2).map(|w| (w[0], w[1])))
                    .find(|p| counts[p] == top)
                    .unwrap(),
            };
            for document in &mut documents {
                *document = self.merge(document, pair, 256 + round);
            }
            merges.push(pair);
        }
        merges
    }
}

/// Merges as a row of ids: first, second, first, second, ...
fn merges_row(merges: &[(usize, usize)]) -> Matrix {
    ids_row(&merges.iter().flat_map(|&(a, b)| [a, b]).collect::<Vec<_>>())
}

/// Counts as a row of ids: first, second, count, ... in the order of the pairs.
fn counts_row(counts: &BTreeMap<(usize, usize), usize>) -> Matrix {
    ids_row(
        &counts
            .iter()
            .flat_map(|(&(a, b), &c)| [a, b, c])
            .collect::<Vec<_>>(),
    )
}

/// The flat row of `count_pairs(ids)` (first, second, count for each pair, smallest pair
/// first) counted without overlaps.
pub fn count_pairs_mistakes(ids: &[usize]) -> Vec<Misconception> {
    let count = |bpe: Bpe| {
        let mut counts = BTreeMap::new();
        bpe.count(ids, &mut counts);
        counts_row(&counts)
    };
    differing(
        &count(Bpe::default()),
        vec![mistake(
            COUNT_NON_OVERLAPPING,
            count(Bpe {
                non_overlapping: true,
                ..Bpe::default()
            }),
        )],
    )
}

/// `merge_pair(ids, pair, new_id)` that goes on at the pair's second id.
pub fn merge_pair_mistakes(ids: &[usize], pair: (usize, usize), new_id: usize) -> Vec<Misconception> {
    let right = ids_row(&Bpe::default().merge(ids, pair, new_id));
    let step_one = Bpe {
        step_one: true,
        ..Bpe::default()
    };
    differing(
        &right,
        vec![mistake(MERGE_STEP_ONE, ids_row(&step_one.merge(ids, pair, new_id)))],
    )
}

/// The merges (a flat row: first, second, first, ...) that `train_bpe(text, n_merges)` learns
/// with the largest or the first-seen pair on ties, counting without overlaps, or merging
/// with a step of one.
pub fn train_bpe_mistakes(text: &str, n_merges: usize) -> Vec<Misconception> {
    let train = |bpe: Bpe| merges_row(&bpe.train(text, n_merges));
    let right = train(Bpe::default());
    told_apart(differing(
        &right,
        vec![
            mistake(
                TIE_LARGEST,
                train(Bpe {
                    tie: Tie::Largest,
                    ..Bpe::default()
                }),
            ),
            mistake(
                TIE_FIRST_SEEN,
                train(Bpe {
                    tie: Tie::FirstSeen,
                    ..Bpe::default()
                }),
            ),
            mistake(
                COUNT_NON_OVERLAPPING,
                train(Bpe {
                    non_overlapping: true,
                    ..Bpe::default()
                }),
            ),
            mistake(
                MERGE_STEP_ONE,
                train(Bpe {
                    step_one: true,
                    ..Bpe::default()
                }),
            ),
        ],
    ))
}

/// How a mistaken encoder picks the next merge.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    LowestRank,
    LeftFirst,
    HighestRank,
    OneMerge,
    /// The learned pair that occurs most often in the text being encoded (counted at
    /// every position), ties broken as the rule says.
    MostFrequent(FrequentTie),
}

/// How an encoder that merges the most frequent pair breaks a tie.
#[derive(Clone, Copy, PartialEq)]
enum FrequentTie {
    SmallestPair,
    LargestPair,
    FirstSeen,
    LowestRank,
}

/// Every tie rule of [`Order::MostFrequent`]: an input names that mistake only where they
/// all agree, so that the name does not depend on a rule the learner may not have chosen.
const FREQUENT_TIES: [FrequentTie; 4] = [
    FrequentTie::SmallestPair,
    FrequentTie::LargestPair,
    FrequentTie::FirstSeen,
    FrequentTie::LowestRank,
];

/// The learned pair of `ids` that occurs most often, its ties broken by `tie`.
fn most_frequent(
    ids: &[usize],
    rank: impl Fn((usize, usize)) -> Option<usize>,
    tie: FrequentTie,
) -> Option<(usize, usize)> {
    let mut counts: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for w in ids.windows(2) {
        if rank((w[0], w[1])).is_some() {
            *counts.entry((w[0], w[1])).or_insert(0) += 1;
        }
    }
    let top = *counts.values().max()?;
    let mut tied = counts.iter().filter(|(_, c)| **c == top).map(|(p, _)| *p);
    match tie {
        FrequentTie::SmallestPair => tied.next(),
        FrequentTie::LargestPair => tied.next_back(),
        FrequentTie::LowestRank => tied.min_by_key(|&p| rank(p)),
        FrequentTie::FirstSeen => {
            let tied: Vec<(usize, usize)> = tied.collect();
            ids.windows(2)
                .map(|w| (w[0], w[1]))
                .find(|p| tied.contains(p))
        }
    }
}

fn encode_piece(merges: &[(usize, usize)], text: &str, order: Order) -> Vec<usize> {
    let rank = |p: (usize, usize)| merges.iter().position(|&m| m == p);
    let mut ids: Vec<usize> = text.bytes().map(usize::from).collect();
    loop {
        let ranks: Vec<usize> = ids.windows(2).filter_map(|w| rank((w[0], w[1]))).collect();
        let chosen = match order {
            Order::LowestRank | Order::OneMerge => ranks.iter().min().copied(),
            Order::HighestRank => ranks.iter().max().copied(),
            Order::LeftFirst => ranks.first().copied(),
            Order::MostFrequent(tie) => most_frequent(&ids, rank, tie).and_then(rank),
        };
        let Some(r) = chosen else {
            return ids;
        };
        ids = Bpe::default().merge(&ids, merges[r], 256 + r);
        if order == Order::OneMerge {
            return ids;
        }
    }
}

/// How a mistaken encoder treats the end-of-text token.
#[derive(Clone, Copy, PartialEq)]
enum Eot {
    Right,
    AsBytes,
    Id256,
    Dropped,
}

fn encode(merges: &[(usize, usize)], text: &str, order: Order, eot: Eot) -> Vec<usize> {
    if eot == Eot::AsBytes {
        return encode_piece(merges, text, order);
    }
    let mut ids = Vec::new();
    for (i, piece) in text.split(EOT).enumerate() {
        if i > 0 {
            match eot {
                Eot::Right => ids.push(256 + merges.len()),
                Eot::Id256 => ids.push(256),
                Eot::Dropped | Eot::AsBytes => {}
            }
        }
        ids.extend(encode_piece(merges, piece, order));
    }
    ids
}

/// What `Bpe::from_merges(merges).encode(text)` returns (a row of ids) when the merges
/// are applied leftmost first, highest rank first, most frequent in the text first (where
/// no tie decides which) or only once, or the end-of-text token is encoded as its bytes,
/// given the id 256, or dropped.
pub fn encode_mistakes(merges: &[(usize, usize)], text: &str) -> Vec<Misconception> {
    let right = ids_row(&encode(merges, text, Order::LowestRank, Eot::Right));
    let with = |order, eot| ids_row(&encode(merges, text, order, eot));
    let mut mistakes = vec![
        mistake(ENCODE_LEFT_FIRST, with(Order::LeftFirst, Eot::Right)),
        mistake(ENCODE_HIGHEST_RANK, with(Order::HighestRank, Eot::Right)),
        mistake(ENCODE_ONE_PASS, with(Order::OneMerge, Eot::Right)),
        mistake(EOT_AS_BYTES, with(Order::LowestRank, Eot::AsBytes)),
        mistake(EOT_ID, with(Order::LowestRank, Eot::Id256)),
        mistake(EOT_DROPPED, with(Order::LowestRank, Eot::Dropped)),
    ];
    let frequent: Vec<Matrix> = FREQUENT_TIES
        .iter()
        .map(|&tie| with(Order::MostFrequent(tie), Eot::Right))
        .collect();
    if frequent
        .iter()
        .all(|f| !course_harness::distinguishable(f, &frequent[0]))
    {
        mistakes.push(mistake(ENCODE_MOST_FREQUENT, frequent[0].clone()));
    }
    apart(differing(&right, mistakes))
}

// ---------------------------------------------------------------------------------------
// RMSNorm

fn row_mean(m: &Matrix) -> Matrix {
    m.sum_axis(Axis(1)).insert_axis(Axis(1)) / m.ncols() as Float
}

fn rms_norm_with(x: &Matrix, gain: &Matrix, eps: Float, scale: impl Fn(Float) -> Float) -> Matrix {
    let ms = row_mean(&x.mapv(|v| v * v));
    x * &ms.mapv(|m| scale(m + eps)) * gain
}

/// What `RmsNorm::forward(x)` returns, with gain `gain` (a `(1, d_model)` row) and `eps`,
/// with the mean subtracted, ε outside the root, no root, or the mean over d_model − 1.
pub fn rms_norm_mistakes(x: &Matrix, gain: &Matrix, eps: Float) -> Vec<Misconception> {
    let d = x.ncols() as Float;
    let right = rms_norm_with(x, gain, eps, |v| 1.0 / v.sqrt());
    let centred = x - &row_mean(x);
    let ms = row_mean(&x.mapv(|v| v * v));
    told_apart(differing(
        &right,
        vec![
            mistake(RMS_MEAN_SUBTRACTED, rms_norm_with(&centred, gain, eps, |v| 1.0 / v.sqrt())),
            mistake(
                RMS_EPS_OUTSIDE,
                x * &ms.mapv(|m| 1.0 / (m.sqrt() + eps)) * gain,
            ),
            mistake(RMS_NO_SQRT, x * &ms.mapv(|m| 1.0 / (m + eps)) * gain),
            mistake(
                RMS_UNBIASED,
                x * &ms.mapv(|m| 1.0 / (m * d / (d - 1.0) + eps).sqrt()) * gain,
            ),
        ],
    ))
}

/// What `RmsNorm::backward(x, d_y).d_x` returns with 1/rms treated as a constant, or with
/// LayerNorm's mean term.
pub fn rms_norm_backward_mistakes(
    x: &Matrix,
    gain: &Matrix,
    eps: Float,
    d_y: &Matrix,
) -> Vec<Misconception> {
    let r = row_mean(&x.mapv(|v| v * v)).mapv(|m| 1.0 / (m + eps).sqrt());
    let x_hat = x * &r;
    let h = d_y * gain;
    let right = (&h - &(&x_hat * &row_mean(&(&h * &x_hat)))) * &r;
    told_apart(differing(
        &right,
        vec![
            mistake(RMS_BACKWARD_CONSTANT_R, &h * &r),
            mistake(
                RMS_BACKWARD_MEAN_TERM,
                (&h - &row_mean(&h) - &(&x_hat * &row_mean(&(&h * &x_hat)))) * &r,
            ),
        ],
    ))
}

/// What `RmsNorm::backward(x, d_y).d_gain` returns (as a `(1, d_model)` row) with the raw
/// input in place of x̂, or with no input at all (a bias's gradient).
pub fn rms_norm_gain_backward_mistakes(x: &Matrix, eps: Float, d_y: &Matrix) -> Vec<Misconception> {
    let r = row_mean(&x.mapv(|v| v * v)).mapv(|m| 1.0 / (m + eps).sqrt());
    let column_sums = |m: &Matrix| m.sum_axis(Axis(0)).insert_axis(Axis(0));
    told_apart(differing(
        &column_sums(&(d_y * &(x * &r))),
        vec![
            mistake(RMS_D_GAIN_RAW_X, column_sums(&(d_y * x))),
            mistake(RMS_D_GAIN_NO_X, column_sums(d_y)),
        ],
    ))
}

// ---------------------------------------------------------------------------------------
// RoPE

fn omega(i: usize, d: usize) -> Float {
    (10_000.0 as Float).powf(-((2 * i) as Float) / d as Float)
}

/// Rotates the pairs `pairs` of each row `t` by `sign · (start + t) · ω(k)`, with `k`
/// the frequency index `frequency(pair, column)`.
fn rotate(
    x: &Matrix,
    start: usize,
    sign: Float,
    pairs: impl Fn(usize) -> (usize, usize),
    frequency: impl Fn(usize, usize) -> Float,
) -> Matrix {
    let d = x.ncols();
    let mut y = x.clone();
    for t in 0..x.nrows() {
        let p = (start + t) as Float;
        for i in 0..d / 2 {
            let (a, b) = pairs(i);
            let (sa, ca) = (sign * p * frequency(i, a)).sin_cos();
            let (sb, cb) = (sign * p * frequency(i, b)).sin_cos();
            y[[t, a]] = x[[t, a]] * ca - x[[t, b]] * sa;
            y[[t, b]] = x[[t, a]] * sb + x[[t, b]] * cb;
        }
    }
    y
}

fn adjacent(i: usize) -> (usize, usize) {
    (2 * i, 2 * i + 1)
}

/// What `apply_rope(x, start)` returns turned the other way, with the halves paired,
/// with positions from 0, or a frequency per column.
pub fn rope_mistakes(x: &Matrix, start: usize) -> Vec<Misconception> {
    let d = x.ncols();
    let per_pair = |i: usize, _| omega(i, d);
    let right = rotate(x, start, 1.0, adjacent, per_pair);
    told_apart(differing(
        &right,
        vec![
            mistake(ROPE_CLOCKWISE, rotate(x, start, -1.0, adjacent, per_pair)),
            mistake(
                ROPE_HALF_SPLIT,
                rotate(x, start, 1.0, |i| (i, i + d / 2), per_pair),
            ),
            mistake(ROPE_IGNORES_START, rotate(x, 0, 1.0, adjacent, per_pair)),
            mistake(
                ROPE_FREQUENCY_PER_COLUMN,
                rotate(x, start, 1.0, adjacent, |_, col| {
                    (10_000.0 as Float).powf(-(col as Float) / d as Float)
                }),
            ),
        ],
    ))
}

/// What `rope_backward(d_y, start)` returns turned forward again, or from position 0.
pub fn rope_backward_mistakes(d_y: &Matrix, start: usize) -> Vec<Misconception> {
    let d = d_y.ncols();
    let per_pair = |i: usize, _| omega(i, d);
    let right = rotate(d_y, start, -1.0, adjacent, per_pair);
    told_apart(differing(
        &right,
        vec![
            mistake(ROPE_BACKWARD_FORWARD, rotate(d_y, start, 1.0, adjacent, per_pair)),
            mistake(ROPE_IGNORES_START, rotate(d_y, 0, -1.0, adjacent, per_pair)),
        ],
    ))
}

// ---------------------------------------------------------------------------------------
// SwiGLU

/// A SwiGLU's weights, `(out, in)` as `nn.Linear` stores them.
pub struct SwiGluParts<'a> {
    /// `W_gate`, `(d_ff, d_model)`.
    pub w_gate: &'a Matrix,
    /// `W_up`, `(d_ff, d_model)`.
    pub w_up: &'a Matrix,
    /// `W_down`, `(d_model, d_ff)`.
    pub w_down: &'a Matrix,
}

fn sigmoid(a: Float) -> Float {
    1.0 / (1.0 + (-a).exp())
}

fn silu(a: Float) -> Float {
    a * sigmoid(a)
}

/// What `SwiGlu::forward(x).output` returns with SiLU on W_up's output, or the sigmoid as
/// the gate.
pub fn swiglu_mistakes(x: &Matrix, w: &SwiGluParts) -> Vec<Misconception> {
    let a = x.dot(&w.w_gate.t());
    let b = x.dot(&w.w_up.t());
    let out = |h: Matrix| h.dot(&w.w_down.t());
    let right = out(a.mapv(silu) * &b);
    told_apart(differing(
        &right,
        vec![
            mistake(SILU_ON_UP, out(&a * &b.mapv(silu))),
            mistake(SIGMOID_GATE, out(a.mapv(sigmoid) * &b)),
        ],
    ))
}

/// What `SwiGlu::backward(x, d_y)` returns (`d_x`, `d_w_gate`) with σ as SiLU's slope, or
/// `d_x` along one path only.
pub fn swiglu_backward_mistakes(x: &Matrix, w: &SwiGluParts, d_y: &Matrix) -> Groups {
    let a = x.dot(&w.w_gate.t());
    let b = x.dot(&w.w_up.t());
    let d_h = d_y.dot(w.w_down);
    let d_b = &d_h * &a.mapv(silu);
    let slope = a.mapv(|v| sigmoid(v) * (1.0 + v * (1.0 - sigmoid(v))));
    let d_a = &d_h * &b * &slope;
    let d_a_sigma = &d_h * &b * &a.mapv(sigmoid);
    let d_x = d_a.dot(w.w_gate) + d_b.dot(w.w_up);
    let d_w_gate = d_a.t().dot(x);
    Groups::new([
        (
            "d_x",
            told_apart(differing(
                &d_x,
                vec![
                    mistake(SILU_SLOPE_SIGMOID, d_a_sigma.dot(w.w_gate) + d_b.dot(w.w_up)),
                    mistake(SWIGLU_DX_ONE_PATH, d_a.dot(w.w_gate)),
                    mistake(SWIGLU_DX_ONE_PATH, d_b.dot(w.w_up)),
                ],
            )),
        ),
        (
            "d_w_gate",
            differing(&d_w_gate, vec![mistake(SILU_SLOPE_SIGMOID, d_a_sigma.t().dot(x))]),
        ),
    ])
}

// ---------------------------------------------------------------------------------------
// The learning-rate schedule and AdamW

/// The rates at `steps` (a row) of a warm-up and cosine schedule written with the warm-up
/// from 0, the progress over all steps, no (1 + cos)/2, or a floor of 0.
pub fn cosine_rate_mistakes(
    steps: &[usize],
    warmup: usize,
    total: usize,
    max_lr: Float,
    min_lr: Float,
) -> Vec<Misconception> {
    let pi = std::f64::consts::PI;
    let (w, n) = (warmup as Float, total as Float);
    let rates = |warm: &dyn Fn(Float) -> Float, after: &dyn Fn(Float) -> Float| {
        Matrix::from_shape_fn((1, steps.len()), |(_, i)| {
            let s = steps[i] as Float;
            if steps[i] < warmup {
                warm(s)
            } else if steps[i] > total {
                after(n)
            } else {
                after(s)
            }
        })
    };
    let warm = |s: Float| max_lr * (s + 1.0) / w;
    let cosine = |floor: Float, progress: Float, half: bool| {
        let c = (pi * progress).cos();
        floor + (max_lr - floor) * if half { 0.5 * (1.0 + c) } else { c }
    };
    let right = rates(&warm, &|s| cosine(min_lr, (s - w) / (n - w), true));
    told_apart(differing(
        &right,
        vec![
            mistake(
                WARMUP_FROM_ZERO,
                rates(&|s| max_lr * s / w, &|s| cosine(min_lr, (s - w) / (n - w), true)),
            ),
            mistake(
                COSINE_PROGRESS_TOTAL,
                rates(&warm, &|s| cosine(min_lr, s / n, true)),
            ),
            mistake(
                COSINE_NO_HALF,
                rates(&warm, &|s| cosine(min_lr, (s - w) / (n - w), false)),
            ),
            // A floor of 0 in the cosine, with min_lr after the last step or not.
            mistake(
                COSINE_TO_ZERO,
                rates(&warm, &|s| cosine(0.0, (s - w) / (n - w), true)),
            ),
            mistake(
                COSINE_TO_ZERO,
                Matrix::from_shape_fn((1, steps.len()), |(_, i)| {
                    let s = steps[i] as Float;
                    if steps[i] < warmup {
                        warm(s)
                    } else if steps[i] > total {
                        min_lr
                    } else {
                        cosine(0.0, (s - w) / (n - w), true)
                    }
                }),
            ),
        ],
    ))
}

/// How a mistaken AdamW decays.
#[derive(Clone, Copy, PartialEq)]
enum Decay {
    Decoupled,
    L2,
    After,
    All,
    NoLr,
}

/// The parameters, flat (tensor after tensor, as a row), after AdamW's updates with the
/// gradients `grads[step][tensor]` and rates `lrs[step]` (β₁ 0.9, β₂ 0.95, ε 1e-8, λ 0.1),
/// with the decay fed into the gradient (Adam with L2), applied after the step, applied
/// to every tensor, or without the learning rate.
pub fn adamw_mistakes(
    params: &[Vec<Float>],
    decays: &[bool],
    grads: &[Vec<Vec<Float>>],
    lrs: &[Float],
) -> Vec<Misconception> {
    let run = |how: Decay| {
        let (b1, b2, eps, wd) = (0.9 as Float, 0.95 as Float, 1e-8, 0.1);
        let mut p: Vec<Vec<Float>> = params.to_vec();
        let mut m: Vec<Vec<Float>> = params.iter().map(|t| vec![0.0; t.len()]).collect();
        let mut v = m.clone();
        for (step, (g_step, &lr)) in grads.iter().zip(lrs).enumerate() {
            let t = (step + 1) as i32;
            for k in 0..p.len() {
                let decays_here = decays[k] || how == Decay::All;
                let rate = match how {
                    Decay::NoLr => wd,
                    _ => lr * wd,
                };
                for i in 0..p[k].len() {
                    let mut g = g_step[k][i];
                    if decays_here && how == Decay::L2 {
                        g += wd * p[k][i];
                    }
                    if decays_here && how != Decay::L2 && how != Decay::After {
                        p[k][i] -= rate * p[k][i];
                    }
                    m[k][i] = b1 * m[k][i] + (1.0 - b1) * g;
                    v[k][i] = b2 * v[k][i] + (1.0 - b2) * g * g;
                    let m_hat = m[k][i] / (1.0 - b1.powi(t));
                    let v_hat = v[k][i] / (1.0 - b2.powi(t));
                    p[k][i] -= lr * m_hat / (v_hat.sqrt() + eps);
                    if decays_here && how == Decay::After {
                        p[k][i] -= rate * p[k][i];
                    }
                }
            }
        }
        let flat: Vec<Float> = p.into_iter().flatten().collect();
        Matrix::from_shape_vec((1, flat.len()), flat).expect("a row")
    };
    told_apart(differing(
        &run(Decay::Decoupled),
        vec![
            mistake(ADAMW_L2, run(Decay::L2)),
            mistake(ADAMW_DECAY_AFTER, run(Decay::After)),
            mistake(ADAMW_DECAY_ALL, run(Decay::All)),
            mistake(ADAMW_DECAY_NO_LR, run(Decay::NoLr)),
        ],
    ))
}

// ---------------------------------------------------------------------------------------
// Sampling

fn as_row(values: &[Float]) -> Matrix {
    Matrix::from_shape_fn((1, values.len()), |(_, i)| values[i])
}

fn softmax(z: &[Float]) -> Vec<Float> {
    let max = z.iter().copied().fold(Float::NEG_INFINITY, Float::max);
    let e: Vec<Float> = z.iter().map(|v| (v - max).exp()).collect();
    let sum: Float = e.iter().sum();
    e.iter().map(|v| v / sum).collect()
}

/// `softmax_with_temperature(logits, t)` (a row) with the logits multiplied by `t`, or with
/// the temperature lost (the softmax of the logits themselves).
pub fn temperature_mistakes(logits: &[Float], t: Float) -> Vec<Misconception> {
    let scaled = |f: &dyn Fn(Float) -> Float| softmax(&logits.iter().map(|&l| f(l)).collect::<Vec<_>>());
    told_apart(differing(
        &as_row(&scaled(&|l| l / t)),
        vec![
            mistake(TEMPERATURE_MULTIPLIED, as_row(&scaled(&|l| l * t))),
            mistake(TEMPERATURE_IGNORED, as_row(&scaled(&|l| l))),
        ],
    ))
}

/// The ids by probability, the lower (or, `high_first`, the higher) id first on ties.
fn ranked(probs: &[Float], high_first: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| {
        let ties = if high_first { b.cmp(&a) } else { a.cmp(&b) };
        probs[b].total_cmp(&probs[a]).then(ties)
    });
    order
}

fn keep(probs: &[Float], ids: &[usize], renormalise: bool) -> Matrix {
    let mut kept = vec![0.0; probs.len()];
    for &id in ids {
        kept[id] = probs[id];
    }
    let sum: Float = if renormalise { kept.iter().sum() } else { 1.0 };
    as_row(&kept.iter().map(|q| q / sum).collect::<Vec<_>>())
}

/// `top_k_filter(probs, k)` (a row) not renormalised, or with ties to the higher id.
pub fn top_k_mistakes(probs: &[Float], k: usize) -> Vec<Misconception> {
    let k = if k == 0 { probs.len() } else { k.min(probs.len()) };
    let right = keep(probs, &ranked(probs, false)[..k], true);
    told_apart(differing(
        &right,
        vec![
            mistake(TOP_K_NOT_RENORMALISED, keep(probs, &ranked(probs, false)[..k], false)),
            mistake(TOP_K_TIES_HIGH, keep(probs, &ranked(probs, true)[..k], true)),
        ],
    ))
}

/// `top_p_filter(probs, p)` (a row) without the token that reaches `p` (where the most
/// probable token alone reaches it, nothing is kept, and renormalising the zeros gives
/// NaN in every entry, 0/0), or not renormalised.
pub fn top_p_mistakes(probs: &[Float], p: Float) -> Vec<Misconception> {
    let order = ranked(probs, false);
    let mut cumulative = 0.0;
    let mut n = 0;
    for &id in &order {
        n += 1;
        cumulative += probs[id];
        if cumulative >= p {
            break;
        }
    }
    let right = keep(probs, &order[..n], true);
    told_apart(differing(
        &right,
        vec![
            mistake(TOP_P_NOT_RENORMALISED, keep(probs, &order[..n], false)),
            mistake(TOP_P_EXCLUDES_CROSSING, keep(probs, &order[..n - 1], true)),
        ],
    ))
}

// ---------------------------------------------------------------------------------------
// Bits per byte and the byte baselines

fn unigram_bits(train: &[u8], test: &[u8], smooth: Float, log: fn(Float) -> Float) -> Float {
    let mut counts = [0.0 as Float; 256];
    for &b in train {
        counts[usize::from(b)] += 1.0;
    }
    let total = train.len() as Float + 256.0 * smooth;
    test.iter()
        .map(|&b| -log((counts[usize::from(b)] + smooth) / total))
        .sum()
}

fn bigram_bits(
    train: &[u8],
    test: &[u8],
    smooth: Float,
    log: fn(Float) -> Float,
    skip_first: bool,
) -> Float {
    let mut pairs = vec![[0.0 as Float; 256]; 256];
    let mut starts = [0.0 as Float; 256];
    for w in train.windows(2) {
        pairs[usize::from(w[0])][usize::from(w[1])] += 1.0;
        starts[usize::from(w[0])] += 1.0;
    }
    let first = if skip_first {
        0.0
    } else {
        unigram_bits(train, &test[..1], smooth, log)
    };
    let rest: Float = test
        .windows(2)
        .map(|w| {
            let (a, b) = (usize::from(w[0]), usize::from(w[1]));
            -log((pairs[a][b] + smooth) / (starts[a] + 256.0 * smooth))
        })
        .sum();
    (first + rest) / test.len() as Float
}

/// `unigram_bits_per_byte(train, test)` (1 × 1) in nats, or without smoothing.
pub fn unigram_mistakes(train: &[u8], test: &[u8]) -> Vec<Misconception> {
    let n = test.len() as Float;
    let one = |v: Float| Matrix::from_elem((1, 1), v);
    told_apart(differing(
        &one(unigram_bits(train, test, 1.0, Float::log2) / n),
        vec![
            mistake(BITS_IN_NATS, one(unigram_bits(train, test, 1.0, Float::ln) / n)),
            mistake(
                BASELINE_NO_SMOOTHING,
                one(unigram_bits(train, test, 0.0, Float::log2) / n),
            ),
        ],
    ))
}

/// `bigram_bits_per_byte(train, test)` (1 × 1) in nats, without smoothing, or without
/// the first byte.
pub fn bigram_mistakes(train: &[u8], test: &[u8]) -> Vec<Misconception> {
    let one = |v: Float| Matrix::from_elem((1, 1), v);
    told_apart(differing(
        &one(bigram_bits(train, test, 1.0, Float::log2, false)),
        vec![
            mistake(BITS_IN_NATS, one(bigram_bits(train, test, 1.0, Float::ln, false))),
            mistake(
                BASELINE_NO_SMOOTHING,
                one(bigram_bits(train, test, 0.0, Float::log2, false)),
            ),
            // The first byte left out, the mean over every byte or over the pairs only.
            mistake(
                BIGRAM_SKIPS_FIRST,
                one(bigram_bits(train, test, 1.0, Float::log2, true)),
            ),
            mistake(
                BIGRAM_SKIPS_FIRST,
                one(
                    bigram_bits(train, test, 1.0, Float::log2, true) * test.len() as Float
                        / (test.len() - 1) as Float,
                ),
            ),
        ],
    ))
}

// ---------------------------------------------------------------------------------------
// Causal self-attention with RoPE

/// The four weights of a causal self-attention, `(out, in)`.
pub struct AttentionParts<'a> {
    /// The number of heads.
    pub n_heads: usize,
    /// `W_q`.
    pub w_q: &'a Matrix,
    /// `W_k`.
    pub w_k: &'a Matrix,
    /// `W_v`.
    pub w_v: &'a Matrix,
    /// `W_o`.
    pub w_o: &'a Matrix,
}

/// How a mistaken attention places RoPE and the mask.
#[derive(Clone, Copy, Default)]
struct Variant {
    rope_values: bool,
    rope_input: bool,
    rope_whole: bool,
    no_mask: bool,
}

fn heads(m: &Matrix, h: usize) -> Vec<Matrix> {
    let d = m.ncols() / h;
    (0..h)
        .map(|i| m.slice(course_common::ndarray::s![.., i * d..(i + 1) * d]).to_owned())
        .collect()
}

fn merge(parts: &[Matrix]) -> Matrix {
    let views: Vec<_> = parts.iter().map(|p| p.view()).collect();
    course_common::ndarray::concatenate(Axis(1), &views).expect("heads of one height")
}

fn turn(x: &Matrix, sign: Float) -> Matrix {
    let d = x.ncols();
    rotate(x, 0, sign, adjacent, |i, _| omega(i, d))
}

fn softmax_rows(s: &Matrix) -> Matrix {
    let mut out = s.clone();
    for mut row in out.rows_mut() {
        let max = row.fold(Float::NEG_INFINITY, |m, &v| m.max(v));
        row.mapv_inplace(|v| (v - max).exp());
        let sum = row.sum();
        row.mapv_inplace(|v| v / sum);
    }
    out
}

/// Per head: (Q_i, K_i, V_i, A_i), and the merged output and the output.
type Pass = (Vec<[Matrix; 4]>, Matrix, Matrix);

fn attention_pass(x: &Matrix, w: &AttentionParts, v: Variant) -> Pass {
    let n = x.nrows();
    let input = if v.rope_input { turn(x, 1.0) } else { x.clone() };
    let project = |m: &Matrix, rope: bool| -> Vec<Matrix> {
        let p = input.dot(&m.t());
        if rope && v.rope_whole {
            heads(&turn(&p, 1.0), w.n_heads)
        } else if rope && !v.rope_input {
            heads(&p, w.n_heads).iter().map(|h| turn(h, 1.0)).collect()
        } else {
            heads(&p, w.n_heads)
        }
    };
    let (q, k) = (project(w.w_q, true), project(w.w_k, true));
    let vals = project(w.w_v, v.rope_values);
    let mut per_head = Vec::new();
    let mut outs = Vec::new();
    for i in 0..w.n_heads {
        let d = q[i].ncols() as Float;
        let mut s = q[i].dot(&k[i].t()) / d.sqrt();
        if !v.no_mask {
            for r in 0..n {
                for c in r + 1..n {
                    s[[r, c]] = Float::NEG_INFINITY;
                }
            }
        }
        let a = softmax_rows(&s);
        outs.push(a.dot(&vals[i]));
        per_head.push([q[i].clone(), k[i].clone(), vals[i].clone(), a]);
    }
    let merged = merge(&outs);
    let output = merged.dot(&w.w_o.t());
    (per_head, merged, output)
}

/// What `CausalSelfAttention::forward(x).output` returns with RoPE on the values, on the
/// input, or on the whole width, or without the causal mask.
pub fn self_attention_mistakes(x: &Matrix, w: &AttentionParts) -> Vec<Misconception> {
    let out = |v: Variant| attention_pass(x, w, v).2;
    told_apart(differing(
        &out(Variant::default()),
        vec![
            mistake(
                ROPE_ON_VALUES,
                out(Variant {
                    rope_values: true,
                    ..Variant::default()
                }),
            ),
            mistake(
                ROPE_BEFORE_PROJECTION,
                out(Variant {
                    rope_input: true,
                    ..Variant::default()
                }),
            ),
            mistake(
                ROPE_WHOLE_WIDTH,
                out(Variant {
                    rope_whole: true,
                    ..Variant::default()
                }),
            ),
            mistake(
                SELF_ATTENTION_NOT_CAUSAL,
                out(Variant {
                    no_mask: true,
                    ..Variant::default()
                }),
            ),
        ],
    ))
}

/// The gradients of the queries, keys and values of every head, merged: turned back by
/// RoPE and (`_raw`) not; and the merged output, for `dW_o`.
struct AttentionGradients {
    dq: Matrix,
    dk: Matrix,
    dv: Matrix,
    dq_raw: Matrix,
    dk_raw: Matrix,
    merged: Matrix,
}

fn attention_gradients(x: &Matrix, w: &AttentionParts, d_y: &Matrix) -> AttentionGradients {
    let (per_head, merged, _) = attention_pass(x, w, Variant::default());
    let d_out = heads(&d_y.dot(w.w_o), w.n_heads);
    let (mut dq, mut dk, mut dq_raw, mut dk_raw, mut dv) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, [q, k, v, a]) in per_head.iter().enumerate() {
        let d = q.ncols() as Float;
        dv.push(a.t().dot(&d_out[i]));
        let da = d_out[i].dot(&v.t());
        let rows = (&da * a).sum_axis(Axis(1)).insert_axis(Axis(1));
        let ds = (a * &(da - &rows)) / d.sqrt();
        let (gq, gk) = (ds.dot(k), ds.t().dot(q));
        dq.push(turn(&gq, -1.0));
        dk.push(turn(&gk, -1.0));
        dq_raw.push(gq);
        dk_raw.push(gk);
    }
    AttentionGradients {
        dq: merge(&dq),
        dk: merge(&dk),
        dv: merge(&dv),
        dq_raw: merge(&dq_raw),
        dk_raw: merge(&dk_raw),
        merged,
    }
}

/// What `CausalSelfAttention::backward(x, d_y)` returns (`d_x`, `d_w_q`, `d_w_k`) with the
/// queries' and keys' gradients not turned back, or `d_x` without the values' path.
pub fn self_attention_backward_mistakes(
    x: &Matrix,
    w: &AttentionParts,
    d_y: &Matrix,
) -> Groups {
    let AttentionGradients {
        dq,
        dk,
        dv,
        dq_raw,
        dk_raw,
        ..
    } = attention_gradients(x, w, d_y);
    let d_x = dq.dot(w.w_q) + dk.dot(w.w_k) + dv.dot(w.w_v);
    Groups::new([
        (
            "d_x",
            told_apart(differing(
                &d_x,
                vec![
                    mistake(
                        ROPE_NOT_TURNED_BACK,
                        dq_raw.dot(w.w_q) + dk_raw.dot(w.w_k) + dv.dot(w.w_v),
                    ),
                    mistake(ATTENTION_DX_PATH, dq.dot(w.w_q) + dk.dot(w.w_k)),
                    mistake(ATTENTION_DX_PATH, dq.dot(w.w_q) + dv.dot(w.w_v)),
                    mistake(ATTENTION_DX_PATH, dk.dot(w.w_k) + dv.dot(w.w_v)),
                ],
            )),
        ),
        (
            "d_w_q",
            differing(&dq.t().dot(x), vec![mistake(ROPE_NOT_TURNED_BACK, dq_raw.t().dot(x))]),
        ),
        (
            "d_w_k",
            differing(&dk.t().dot(x), vec![mistake(ROPE_NOT_TURNED_BACK, dk_raw.t().dot(x))]),
        ),
    ])
}

/// `CausalSelfAttention::forward(x).output` computed here, for the visible tests' record:
/// the graded suite checks it against NumPy's.
pub fn self_attention_reference(x: &Matrix, w: &AttentionParts) -> Matrix {
    attention_pass(x, w, Variant::default()).2
}

// ---------------------------------------------------------------------------------------
// The model: blocks, the tied head, the loss, the backward pass, the cached step

/// `ε` of every RMSNorm of the model.
const EPS: Float = 1e-5;

/// A block's weights: the gains as `(1, d_model)` rows, the matrices `(out, in)`.
pub struct BlockParts {
    /// The number of heads.
    pub n_heads: usize,
    /// The gain of the RMSNorm before the attention.
    pub norm_1: Matrix,
    /// `W_q`.
    pub w_q: Matrix,
    /// `W_k`.
    pub w_k: Matrix,
    /// `W_v`.
    pub w_v: Matrix,
    /// `W_o`.
    pub w_o: Matrix,
    /// The gain of the RMSNorm before the feed-forward.
    pub norm_2: Matrix,
    /// `W_gate`.
    pub w_gate: Matrix,
    /// `W_up`.
    pub w_up: Matrix,
    /// `W_down`.
    pub w_down: Matrix,
}

impl BlockParts {
    fn attention(&self) -> AttentionParts<'_> {
        AttentionParts {
            n_heads: self.n_heads,
            w_q: &self.w_q,
            w_k: &self.w_k,
            w_v: &self.w_v,
            w_o: &self.w_o,
        }
    }
}

/// A model's weights: the embedding `(vocab, d_model)`, the blocks, the last gain.
pub struct ModelParts {
    /// The embedding `E`, also the head.
    pub embedding: Matrix,
    /// The blocks, first to last.
    pub blocks: Vec<BlockParts>,
    /// The gain of the last RMSNorm, `(1, d_model)`.
    pub norm_final: Matrix,
}

/// The names of a block's tensors in `named_parameters` order.
const BLOCK_TENSORS: [&str; 9] = [
    "norm_1",
    "attention.w_q",
    "attention.w_k",
    "attention.w_v",
    "attention.w_o",
    "norm_2",
    "feed_forward.w_gate",
    "feed_forward.w_up",
    "feed_forward.w_down",
];

fn rms(x: &Matrix, gain: &Matrix) -> Matrix {
    rms_norm_with(x, gain, EPS, |v| 1.0 / v.sqrt())
}

/// RMSNorm's backward: `d_x` and the gain's gradient as a row.
fn rms_back(x: &Matrix, gain: &Matrix, d_y: &Matrix) -> (Matrix, Matrix) {
    let r = row_mean(&x.mapv(|v| v * v)).mapv(|m| 1.0 / (m + EPS).sqrt());
    let x_hat = x * &r;
    let h = d_y * gain;
    let d_x = (&h - &(&x_hat * &row_mean(&(&h * &x_hat)))) * &r;
    (d_x, (d_y * &x_hat).sum_axis(Axis(0)).insert_axis(Axis(0)))
}

fn ffn(x: &Matrix, b: &BlockParts) -> Matrix {
    (x.dot(&b.w_gate.t()).mapv(silu) * &x.dot(&b.w_up.t())).dot(&b.w_down.t())
}

/// SwiGLU's backward: `d_x`, then the gradients of `W_gate`, `W_up`, `W_down`.
fn ffn_back(x: &Matrix, b: &BlockParts, d_y: &Matrix) -> (Matrix, [Matrix; 3]) {
    let a = x.dot(&b.w_gate.t());
    let up = x.dot(&b.w_up.t());
    let hidden = a.mapv(silu) * &up;
    let d_h = d_y.dot(&b.w_down);
    let d_up = &d_h * &a.mapv(silu);
    let d_a = &d_h * &up * &a.mapv(|v| sigmoid(v) * (1.0 + v * (1.0 - sigmoid(v))));
    let d_x = d_a.dot(&b.w_gate) + d_up.dot(&b.w_up);
    (d_x, [d_a.t().dot(x), d_up.t().dot(x), d_y.t().dot(&hidden)])
}

/// The attention's backward: `d_x`, then the gradients of `W_q`, `W_k`, `W_v`, `W_o`.
fn attention_back(x: &Matrix, b: &BlockParts, d_y: &Matrix) -> (Matrix, [Matrix; 4]) {
    let w = b.attention();
    let g = attention_gradients(x, &w, d_y);
    let d_x = g.dq.dot(w.w_q) + g.dk.dot(w.w_k) + g.dv.dot(w.w_v);
    (
        d_x,
        [g.dq.t().dot(x), g.dk.t().dot(x), g.dv.t().dot(x), d_y.t().dot(&g.merged)],
    )
}

fn attend(x: &Matrix, b: &BlockParts) -> Matrix {
    attention_pass(x, &b.attention(), Variant::default()).2
}

/// Where a mistaken block puts its normalisations and residuals.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    PreNorm,
    /// Both residuals added to the normalised inputs.
    ResidualOnNormed,
    /// The first residual only: h = a + Attention(a).
    FirstResidualOnNormed,
    /// The second residual only: y = b + SwiGLU(b).
    SecondResidualOnNormed,
    Parallel,
    PostNorm,
}

fn block_forward(x: &Matrix, b: &BlockParts, form: Form) -> Matrix {
    match form {
        Form::PreNorm => {
            let h = x + &attend(&rms(x, &b.norm_1), b);
            &h + &ffn(&rms(&h, &b.norm_2), b)
        }
        Form::ResidualOnNormed
        | Form::FirstResidualOnNormed
        | Form::SecondResidualOnNormed => {
            let first = form != Form::SecondResidualOnNormed;
            let second = form != Form::FirstResidualOnNormed;
            let a = rms(x, &b.norm_1);
            let h = (if first { &a } else { x }) + &attend(&a, b);
            let n = rms(&h, &b.norm_2);
            (if second { &n } else { &h }) + &ffn(&n, b)
        }
        Form::Parallel => x + &attend(&rms(x, &b.norm_1), b) + ffn(&rms(x, &b.norm_2), b),
        Form::PostNorm => {
            let h = rms(&(x + &attend(x, b)), &b.norm_1);
            rms(&(&h + &ffn(&h, b)), &b.norm_2)
        }
    }
}

/// What `Block::forward(x).output` returns with either residual or both on the normalised
/// input, the two sublayers side by side, or post-norm.
pub fn block_mistakes(x: &Matrix, b: &BlockParts) -> Vec<Misconception> {
    told_apart(differing(
        &block_forward(x, b, Form::PreNorm),
        vec![
            mistake(BLOCK_RESIDUAL_ON_NORMED, block_forward(x, b, Form::ResidualOnNormed)),
            mistake(
                BLOCK_RESIDUAL_1_ON_NORMED,
                block_forward(x, b, Form::FirstResidualOnNormed),
            ),
            mistake(
                BLOCK_RESIDUAL_2_ON_NORMED,
                block_forward(x, b, Form::SecondResidualOnNormed),
            ),
            mistake(BLOCK_PARALLEL, block_forward(x, b, Form::Parallel)),
            mistake(BLOCK_POST_NORM, block_forward(x, b, Form::PostNorm)),
        ],
    ))
}

/// How a mistaken block's backward pass routes its gradients.
#[derive(Clone, Copy, PartialEq)]
enum Back {
    Right,
    AttentionGetsDy,
    SkipCarriesDy,
    NormAtOutput,
    NoSkip,
}

/// The backward pass of a pre-norm block, as `Back` says: `d_x`, then the nine tensors'
/// gradients in `named_parameters` order (gains as rows).
fn block_backward(x: &Matrix, b: &BlockParts, d_y: &Matrix, back: Back) -> (Matrix, Vec<Matrix>) {
    let a = rms(x, &b.norm_1);
    let h = x + &attend(&a, b);
    let n = rms(&h, &b.norm_2);
    let (d_ffn, [d_gate, d_up, d_down]) = ffn_back(&n, b, d_y);
    let at_2 = if back == Back::NormAtOutput { &n } else { &h };
    let (d_n2, g_2) = rms_back(at_2, &b.norm_2, &d_ffn);
    let d_h = if back == Back::NoSkip { d_n2 } else { d_y + &d_n2 };
    let upstream = if back == Back::AttentionGetsDy { d_y } else { &d_h };
    let (d_att, [d_q, d_k, d_v, d_o]) = attention_back(&a, b, upstream);
    let at_1 = if back == Back::NormAtOutput { &a } else { x };
    let (d_n1, g_1) = rms_back(at_1, &b.norm_1, &d_att);
    let d_x = match back {
        Back::SkipCarriesDy => d_y + &d_n1,
        Back::NoSkip => d_n1,
        _ => &d_h + &d_n1,
    };
    (d_x, vec![g_1, d_q, d_k, d_v, d_o, g_2, d_gate, d_up, d_down])
}

const WRONG_ROUTES: [(course_harness::Cause, Back); 4] = [
    (BLOCK_ATTENTION_GETS_DY, Back::AttentionGetsDy),
    (BLOCK_SKIP_CARRIES_DY, Back::SkipCarriesDy),
    (BLOCK_NORM_BACKWARD_AT_OUTPUT, Back::NormAtOutput),
    (BLOCK_NO_SKIP_GRADIENT, Back::NoSkip),
];

/// What `Block::backward(x, forward(x), d_y)` returns (`d_x` and each tensor, named as in
/// `BLOCK_TENSORS`) with its gradients routed wrongly.
pub fn block_backward_mistakes(x: &Matrix, b: &BlockParts, d_y: &Matrix) -> Groups {
    let (d_x, right) = block_backward(x, b, d_y, Back::Right);
    let wrong: Vec<_> = WRONG_ROUTES
        .iter()
        .map(|&(cause, back)| (cause, block_backward(x, b, d_y, back)))
        .collect();
    let mut groups = vec![(
        "d_x".to_string(),
        told_apart(differing(
            &d_x,
            wrong.iter().map(|(c, (w, _))| mistake(*c, w.clone())).collect(),
        )),
    )];
    for (i, name) in BLOCK_TENSORS.iter().enumerate() {
        groups.push((
            name.to_string(),
            told_apart(differing(
                &right[i],
                wrong.iter().map(|(c, (_, g))| mistake(*c, g[i].clone())).collect(),
            )),
        ));
    }
    Groups::new(groups.iter().map(|(n, l)| (n.as_str(), l.clone())))
}

/// The stream before each block and after the last.
fn streams(m: &ModelParts, tokens: &[usize], form: Form) -> Vec<Matrix> {
    let mut out = vec![m.embedding.select(Axis(0), tokens)];
    for b in &m.blocks {
        let next = block_forward(&out[out.len() - 1], b, form);
        out.push(next);
    }
    out
}

fn logits(m: &ModelParts, tokens: &[usize], form: Form, normed_head: bool) -> Matrix {
    let x_l = streams(m, tokens, form).pop().expect("at least the embedding");
    let head_input = if normed_head { rms(&x_l, &m.norm_final) } else { x_l };
    head_input.dot(&m.embedding.t())
}

/// What `Gpt::forward(tokens).logits` returns with the blocks' mistakes, or the head on
/// the last stream without the last RMSNorm.
pub fn gpt_forward_mistakes(m: &ModelParts, tokens: &[usize]) -> Vec<Misconception> {
    told_apart(differing(
        &logits(m, tokens, Form::PreNorm, true),
        vec![
            mistake(GPT_HEAD_UNNORMED, logits(m, tokens, Form::PreNorm, false)),
            mistake(BLOCK_RESIDUAL_ON_NORMED, logits(m, tokens, Form::ResidualOnNormed, true)),
            mistake(
                BLOCK_RESIDUAL_1_ON_NORMED,
                logits(m, tokens, Form::FirstResidualOnNormed, true),
            ),
            mistake(
                BLOCK_RESIDUAL_2_ON_NORMED,
                logits(m, tokens, Form::SecondResidualOnNormed, true),
            ),
            mistake(BLOCK_PARALLEL, logits(m, tokens, Form::Parallel, true)),
            mistake(BLOCK_POST_NORM, logits(m, tokens, Form::PostNorm, true)),
        ],
    ))
}

/// The gradients of the model from `d_logits`, with the blocks' backward as `back`: the
/// embedding's head share (and the same taken at `x_L`), its lookup's rows, and the
/// blocks' tensors, first block first.
struct ModelGradients {
    head_share: Matrix,
    head_share_unnormed: Matrix,
    lookup: Matrix,
    blocks: Vec<Vec<Matrix>>,
}

fn model_gradients(m: &ModelParts, tokens: &[usize], d_logits: &Matrix, back: Back) -> ModelGradients {
    let s = streams(m, tokens, Form::PreNorm);
    let x_l = &s[s.len() - 1];
    let normed = rms(x_l, &m.norm_final);
    let (mut d_x, _) = rms_back(x_l, &m.norm_final, &d_logits.dot(&m.embedding));
    let mut blocks = Vec::new();
    for l in (0..m.blocks.len()).rev() {
        let (d, g) = block_backward(&s[l], &m.blocks[l], &d_x, back);
        d_x = d;
        blocks.push(g);
    }
    blocks.reverse();
    ModelGradients {
        head_share: d_logits.t().dot(&normed),
        head_share_unnormed: d_logits.t().dot(x_l),
        lookup: d_x,
        blocks,
    }
}

/// `dE` from the head's share and the lookup's rows, added or (`assign`) written over.
fn embedding_gradient(head: &Matrix, lookup: &Matrix, tokens: &[usize], assign: bool) -> Matrix {
    let mut d_e = head.clone();
    for (t, &token) in tokens.iter().enumerate() {
        let mut row = d_e.row_mut(token);
        if assign {
            row.assign(&lookup.row(t));
        } else {
            row += &lookup.row(t);
        }
    }
    d_e
}

/// What `Gpt::backward` returns for each tensor (named as `named_parameters` names them)
/// with the embedding's gradient missing a share, written over or taken at `x_L`, the
/// blocks' gradients in reverse order, or the blocks' backward routed wrongly.
pub fn gpt_backward_mistakes(m: &ModelParts, tokens: &[usize], d_logits: &Matrix) -> Groups {
    let right = model_gradients(m, tokens, d_logits, Back::Right);
    let routes: Vec<_> = WRONG_ROUTES
        .iter()
        .map(|&(cause, back)| (cause, model_gradients(m, tokens, d_logits, back)))
        .collect();
    let d_e = |g: &ModelGradients| embedding_gradient(&g.head_share, &g.lookup, tokens, false);
    let mut embedding = vec![
        mistake(GPT_EMBEDDING_NO_HEAD_SHARE, embedding_gradient(&(&right.head_share * 0.0), &right.lookup, tokens, false)),
        mistake(GPT_EMBEDDING_NO_LOOKUP_SHARE, right.head_share.clone()),
        mistake(GPT_EMBEDDING_LOOKUP_ASSIGNED, embedding_gradient(&right.head_share, &right.lookup, tokens, true)),
        mistake(
            GPT_EMBEDDING_HEAD_UNNORMED,
            embedding_gradient(&right.head_share_unnormed, &right.lookup, tokens, false),
        ),
    ];
    embedding.extend(routes.iter().map(|(c, g)| mistake(*c, d_e(g))));
    let mut groups = vec![(
        "embedding.weight".to_string(),
        told_apart(differing(&d_e(&right), embedding)),
    )];
    let n = m.blocks.len();
    for l in 0..n {
        for (i, part) in BLOCK_TENSORS.iter().enumerate() {
            let mut wrong: Vec<Misconception> =
                routes.iter().map(|(c, g)| mistake(*c, g.blocks[l][i].clone())).collect();
            let mirror = &right.blocks[n - 1 - l][i];
            if mirror.dim() == right.blocks[l][i].dim() {
                wrong.push(mistake(GPT_BLOCK_GRADS_REVERSED, mirror.clone()));
            }
            groups.push((
                format!("blocks.{l}.{part}.weight"),
                told_apart(differing(&right.blocks[l][i], wrong)),
            ));
        }
    }
    groups.push(("norm_final.weight".to_string(), Vec::new()));
    Groups::new(groups.iter().map(|(n, l)| (n.as_str(), l.clone())))
}

/// What `next_token_loss(logits, targets)` returns (`value` as a 1 × 1 matrix,
/// `d_logits`) summed instead of averaged, in bits, or with the gradient of the target's
/// entry alone.
pub fn next_token_loss_mistakes(logits: &Matrix, targets: &[usize]) -> Groups {
    let n = targets.len() as Float;
    let p = softmax_rows(logits);
    let nats: Float = targets
        .iter()
        .enumerate()
        .map(|(t, &y)| -p[[t, y]].ln())
        .sum();
    let mut onehot = Matrix::zeros(logits.dim());
    for (t, &y) in targets.iter().enumerate() {
        onehot[[t, y]] = 1.0;
    }
    let one = |v: Float| Matrix::from_elem((1, 1), v);
    let d = (&p - &onehot) / n;
    let target_only = (&(&p - 1.0) * &onehot) / n;
    Groups::new([
        (
            "value",
            told_apart(differing(
                &one(nats / n),
                vec![
                    mistake(LOSS_VALUE_SUM, one(nats)),
                    mistake(LOSS_IN_BITS, one(nats / n / std::f64::consts::LN_2)),
                ],
            )),
        ),
        (
            "d_logits",
            told_apart(differing(
                &d,
                vec![
                    mistake(LOSS_GRADIENT_NOT_MEAN, &d * n),
                    mistake(LOSS_GRADIENT_TARGET_ONLY, target_only),
                ],
            )),
        ),
    ])
}

/// The outputs of a cached attention fed the rows of `x` one at a time, with the new
/// query turned at `query_at(p)`, each key at `key_at(p)`, and (`self_too`) the new key
/// pushed before attending.
fn cached_steps(
    x: &Matrix,
    w: &AttentionParts,
    query_at: fn(usize) -> usize,
    key_at: fn(usize) -> usize,
    self_too: bool,
) -> Matrix {
    let n = x.nrows();
    let at = |m: &Matrix, p: usize| {
        let d = m.ncols();
        rotate(m, p, 1.0, adjacent, |i, _| omega(i, d))
    };
    let q = heads(&x.dot(&w.w_q.t()), w.n_heads);
    let k = heads(&x.dot(&w.w_k.t()), w.n_heads);
    let v = heads(&x.dot(&w.w_v.t()), w.n_heads);
    let mut out = Matrix::zeros((n, x.ncols()));
    for p in 0..n {
        let row = |m: &Matrix, t: usize| m.slice(course_common::ndarray::s![t..t + 1, ..]).to_owned();
        let mut outs = Vec::new();
        for i in 0..w.n_heads {
            let d = q[i].ncols();
            let seen = if self_too { p + 1 } else { p };
            let qp = at(&row(&q[i], p), query_at(p));
            let mut o = Matrix::zeros((1, d));
            if seen > 0 {
                let keys: Vec<Matrix> = (0..seen).map(|s| at(&row(&k[i], s), key_at(s))).collect();
                let keys = merge_rows(&keys);
                let vals = v[i].slice(course_common::ndarray::s![0..seen, ..]).to_owned();
                let a = softmax_rows(&(qp.dot(&keys.t()) / (d as Float).sqrt()));
                o = a.dot(&vals);
            }
            outs.push(o);
        }
        out.row_mut(p).assign(&merge(&outs).dot(&w.w_o.t()).row(0));
    }
    out
}

fn merge_rows(parts: &[Matrix]) -> Matrix {
    let views: Vec<_> = parts.iter().map(|p| p.view()).collect();
    course_common::ndarray::concatenate(Axis(0), &views).expect("rows of one width")
}

/// What `CausalSelfAttention::step`, row after row from an empty cache, returns with the
/// new key or query turned at position 0 or at p + 1 (the position read after the push),
/// or with attention before the push.
pub fn attention_step_mistakes(x: &Matrix, w: &AttentionParts) -> Vec<Misconception> {
    let here: fn(usize) -> usize = |p| p;
    let zero: fn(usize) -> usize = |_| 0;
    let next: fn(usize) -> usize = |p| p + 1;
    told_apart(differing(
        &cached_steps(x, w, here, here, true),
        vec![
            mistake(STEP_KEY_AT_ZERO, cached_steps(x, w, here, zero, true)),
            mistake(STEP_QUERY_AT_ZERO, cached_steps(x, w, zero, here, true)),
            mistake(STEP_QUERY_AFTER_PUSH, cached_steps(x, w, next, here, true)),
            mistake(STEP_KEY_AFTER_PUSH, cached_steps(x, w, here, next, true)),
            mistake(STEP_ATTEND_BEFORE_PUSH, cached_steps(x, w, here, here, false)),
        ],
    ))
}
