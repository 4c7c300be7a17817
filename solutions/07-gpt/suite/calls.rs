//! The calls into lesson 07, each observed: one wrapper per function and method the
//! learner writes, shared by the graded and the held-out suite (both include this file).
//!
//! Every call goes through `observe` (see `course_harness::tape`) and returns course types
//! only: a tokenizer is rebuilt from its merges inside each observed call
//! (`Bpe::from_merges` is the lesson's code too), results that are maps or structs come
//! back flat (ids, vectors, tuples of matrices).

// Each suite uses some of them.
#![allow(dead_code)]

use std::collections::BTreeMap;

use course_common::{Float, Matrix, Vector};
use course_harness::observe;
use gpt as lesson;
use lesson::{
    AdamW, Block, CausalSelfAttention, Config, Gpt, KvCache, RmsNorm, Sampling, SwiGlu,
};

pub fn count_pairs(ids: &[usize]) -> Vec<usize> {
    let _args = course_harness::call_args!(ids);
    observe("count_pairs", || {
        lesson::count_pairs(ids)
            .into_iter()
            .flat_map(|((a, b), n)| [a, b, n])
            .collect()
    })
}

pub fn merge_pair(ids: &[usize], pair: (usize, usize), new_id: usize) -> Vec<usize> {
    let _args = course_harness::call_args!(ids, new_id);
    observe("merge_pair", || lesson::merge_pair(ids, pair, new_id))
}

/// `train_bpe(text, n_merges).merges()`, flat: first, second, first, second, ...
pub fn train_bpe(text: &str, n_merges: usize) -> Vec<usize> {
    let _args = course_harness::call_args!(text, n_merges);
    observe("train_bpe", || {
        lesson::train_bpe(text, n_merges)
            .merges()
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .collect()
    })
}

pub fn encode(merges: &[(usize, usize)], text: &str) -> Vec<usize> {
    let _args = course_harness::call_args!(merges, text);
    observe("Bpe::encode", || {
        lesson::Bpe::from_merges(merges.to_vec()).encode(text)
    })
}

pub fn decode_bytes(merges: &[(usize, usize)], ids: &[usize]) -> Vec<u8> {
    let _args = course_harness::call_args!(merges, ids);
    observe("Bpe::decode_bytes", || {
        lesson::Bpe::from_merges(merges.to_vec()).decode_bytes(ids)
    })
}

pub fn rms_forward(gain: &Vector, x: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(gain, x);
    observe("RmsNorm::forward", || {
        RmsNorm::from_gain(gain.clone()).forward(x)
    })
}

pub fn rms_backward(gain: &Vector, x: &Matrix, d_y: &Matrix) -> (Matrix, Vector) {
    let _args = course_harness::call_args!(gain, x, d_y);
    observe("RmsNorm::backward", || {
        let grads = RmsNorm::from_gain(gain.clone()).backward(x, d_y);
        (grads.d_x, grads.d_gain)
    })
}

pub fn apply_rope(x: &Matrix, start: usize) -> Matrix {
    let _args = course_harness::call_args!(x, start);
    observe("apply_rope", || lesson::apply_rope(x, start))
}

pub fn rope_backward(d_y: &Matrix, start: usize) -> Matrix {
    let _args = course_harness::call_args!(d_y, start);
    observe("rope_backward", || lesson::rope_backward(d_y, start))
}

pub fn swiglu_output(w: [&Matrix; 3], x: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(x);
    observe("SwiGlu::forward", || {
        SwiGlu::new(w[0].clone(), w[1].clone(), w[2].clone())
            .forward(x)
            .output
    })
}

/// d_x, d_w_gate, d_w_up, d_w_down.
pub fn swiglu_backward(w: [&Matrix; 3], x: &Matrix, d_y: &Matrix) -> [Matrix; 4] {
    let _args = course_harness::call_args!(x, d_y);
    let (d_x, d_w_gate, d_w_up, d_w_down) = observe("SwiGlu::backward", || {
        let g = SwiGlu::new(w[0].clone(), w[1].clone(), w[2].clone()).backward(x, d_y);
        (g.d_x, g.d_w_gate, g.d_w_up, g.d_w_down)
    });
    [d_x, d_w_gate, d_w_up, d_w_down]
}

pub fn cosine_rates(
    steps: &[usize],
    warmup: usize,
    total: usize,
    max_lr: Float,
    min_lr: Float,
) -> Vector {
    let _args = course_harness::call_args!(steps, warmup, total, max_lr, min_lr);
    observe("cosine_rate", || {
        steps
            .iter()
            .map(|&step| lesson::cosine_rate(step, warmup, total, max_lr, min_lr))
            .collect::<Vector>()
    })
}

/// The parameters, flat, after AdamW's updates.
pub fn adamw_run(
    params: &[Vec<Float>],
    decays: &[bool],
    grads: &[Vec<Vec<Float>>],
    lrs: &[Float],
) -> Vector {
    let _args = course_harness::call_args!(decays, lrs);
    observe("AdamW::update", || {
        let mut p = params.to_vec();
        let views: Vec<&[Float]> = p.iter().map(Vec::as_slice).collect();
        let mut opt = AdamW::new(&views, decays);
        for (g, &lr) in grads.iter().zip(lrs) {
            let mut refs: Vec<&mut [Float]> =
                p.iter_mut().map(Vec::as_mut_slice).collect();
            let g: Vec<&[Float]> = g.iter().map(Vec::as_slice).collect();
            opt.update(&mut refs, &g, lr);
        }
        p.into_iter().flatten().collect::<Vector>()
    })
}

pub fn softmax_t(logits: &[Float], t: Float) -> Vector {
    let _args = course_harness::call_args!(logits, t);
    observe("softmax_with_temperature", || {
        Vector::from(lesson::softmax_with_temperature(logits, t))
    })
}

pub fn top_k(probs: &[Float], k: usize) -> Vector {
    let _args = course_harness::call_args!(probs, k);
    observe("top_k_filter", || {
        Vector::from(lesson::top_k_filter(probs, k))
    })
}

pub fn top_p(probs: &[Float], p: Float) -> Vector {
    let _args = course_harness::call_args!(probs, p);
    observe("top_p_filter", || {
        Vector::from(lesson::top_p_filter(probs, p))
    })
}

pub fn samples(logits: &[Float], sampling: Sampling, us: &[Float]) -> Vec<usize> {
    let _args = course_harness::call_args!(logits, us);
    observe("sample_next", || {
        us.iter()
            .map(|&u| lesson::sample_next(logits, &sampling, u))
            .collect()
    })
}

pub fn baseline(which: &str, train: &[u8], test: &[u8]) -> Float {
    let _args = course_harness::call_args!(train, test);
    if which == "unigram" {
        observe("unigram_bits_per_byte", || {
            lesson::unigram_bits_per_byte(train, test)
        })
    } else {
        observe("bigram_bits_per_byte", || {
            lesson::bigram_bits_per_byte(train, test)
        })
    }
}

/// The attention with these weights (`W_q`, `W_k`, `W_v`, `W_o`), built inside an observed
/// call: `CausalSelfAttention::new` is the lesson's code.
fn attention(n_heads: usize, w: [&Matrix; 4]) -> CausalSelfAttention {
    let [w_q, w_k, w_v, w_o] = w.map(Matrix::clone);
    CausalSelfAttention::new(n_heads, w_q, w_k, w_v, w_o)
}

/// `CausalSelfAttention::new(n_heads, w_q, w_k, w_v, w_o).forward(x).output`.
pub fn self_attention_output(n_heads: usize, w: [&Matrix; 4], x: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(n_heads, x);
    observe("CausalSelfAttention::forward", || {
        attention(n_heads, w).forward(x).output
    })
}

/// d_x, d_w_q, d_w_k, d_w_v, d_w_o of `CausalSelfAttention::backward(x, d_y)`.
pub fn self_attention_backward(
    n_heads: usize,
    w: [&Matrix; 4],
    x: &Matrix,
    d_y: &Matrix,
) -> [Matrix; 5] {
    let _args = course_harness::call_args!(n_heads, x, d_y);
    let (d_x, d_w_q, d_w_k, d_w_v, d_w_o) =
        observe("CausalSelfAttention::backward", || {
            let g = attention(n_heads, w).backward(x, d_y);
            (g.d_x, g.d_w_q, g.d_w_k, g.d_w_v, g.d_w_o)
        });
    [d_x, d_w_q, d_w_k, d_w_v, d_w_o]
}

/// The tensors of a model, by the names of `Gpt::named_parameters` (the PyTorch module's
/// `state_dict` names): what the suites pass instead of a `Gpt`, so that the model is
/// built inside each observed call.
pub struct Weights {
    /// The sizes.
    pub config: Config,
    /// Every matrix, by name.
    pub matrices: BTreeMap<String, Matrix>,
    /// Every gain, by name.
    pub gains: BTreeMap<String, Vector>,
}

impl Weights {
    fn matrix(&self, name: &str) -> Matrix {
        self.matrices[name].clone()
    }

    fn gain(&self, name: &str) -> RmsNorm {
        RmsNorm::from_gain(self.gains[name].clone())
    }

    /// Block `i` (the prefix `blocks.i.`).
    pub fn block(&self, i: usize) -> Block {
        let at = |part: &str| format!("blocks.{i}.{part}.weight");
        Block {
            norm_1: self.gain(&at("norm_1")),
            attention: CausalSelfAttention::new(
                self.config.n_heads,
                self.matrix(&at("attention.w_q")),
                self.matrix(&at("attention.w_k")),
                self.matrix(&at("attention.w_v")),
                self.matrix(&at("attention.w_o")),
            ),
            norm_2: self.gain(&at("norm_2")),
            feed_forward: SwiGlu::new(
                self.matrix(&at("feed_forward.w_gate")),
                self.matrix(&at("feed_forward.w_up")),
                self.matrix(&at("feed_forward.w_down")),
            ),
        }
    }

    /// The whole model.
    pub fn gpt(&self) -> Gpt {
        Gpt {
            config: self.config,
            embedding: self.matrix("embedding.weight"),
            blocks: (0..self.config.n_layers).map(|i| self.block(i)).collect(),
            norm_final: self.gain("norm_final.weight"),
        }
    }
}

fn standard(m: Matrix) -> Matrix {
    m.as_standard_layout().into_owned()
}

fn as_row(v: Vector) -> Matrix {
    v.insert_axis(course_common::ndarray::Axis(0))
}

/// A block-shaped gradient's nine tensors, in `named_parameters` order, each as a matrix
/// of its own shape (a gain as one row).
fn block_tensors(p: Block) -> [Matrix; 9] {
    [
        as_row(p.norm_1.gain),
        standard(p.attention.w_q),
        standard(p.attention.w_k),
        standard(p.attention.w_v),
        standard(p.attention.w_o),
        as_row(p.norm_2.gain),
        standard(p.feed_forward.w_gate),
        standard(p.feed_forward.w_up),
        standard(p.feed_forward.w_down),
    ]
}

/// Every tensor of a model-shaped gradient, in `named_parameters` order, each as a
/// matrix of its own shape (a gain as one row).
fn flat_gradient(grads: Gpt) -> Vec<Matrix> {
    let mut out = vec![standard(grads.embedding)];
    for p in grads.blocks {
        out.extend(block_tensors(p));
    }
    out.push(as_row(grads.norm_final.gain));
    out
}

/// `Block::forward(x)` of block `i` of `weights`: the residual `h` and the output.
pub fn block_output(weights: &Weights, i: usize, x: &Matrix) -> (Matrix, Matrix) {
    let _args = course_harness::call_args!(i, x);
    observe("Block::forward", || {
        let f = weights.block(i).forward(x);
        (f.residual, f.output)
    })
}

/// `Block::backward(x, forward(x), d_y)` of block `i`: `d_x`, then the gradients of
/// norm_1, w_q, w_k, w_v, w_o, norm_2, w_gate, w_up, w_down (gains as one row).
pub fn block_backward(
    weights: &Weights,
    i: usize,
    x: &Matrix,
    d_y: &Matrix,
) -> Vec<Matrix> {
    let _args = course_harness::call_args!(i, x, d_y);
    observe("Block::backward", || {
        let block = weights.block(i);
        let g = block.backward(x, &block.forward(x), d_y);
        let mut out = vec![standard(g.d_x)];
        out.extend(block_tensors(g.params));
        out
    })
}

/// `Gpt::forward(tokens)`: the logits and the stream after the first block.
pub fn gpt_forward(weights: &Weights, tokens: &[usize]) -> (Matrix, Matrix) {
    let _args = course_harness::call_args!(tokens);
    observe("Gpt::forward", || {
        let f = weights.gpt().forward(tokens);
        (f.logits, f.stream[1].clone())
    })
}

/// `next_token_loss(logits, targets)`: the value and `d_logits`.
pub fn next_token_loss(logits: &Matrix, targets: &[usize]) -> (Float, Matrix) {
    let _args = course_harness::call_args!(logits, targets);
    observe("next_token_loss", || {
        let loss = lesson::next_token_loss(logits, targets);
        (loss.value, loss.d_logits)
    })
}

/// `Gpt::backward(tokens, forward(tokens), d_logits)`, every tensor in
/// `named_parameters` order, each as a matrix (gains as one row).
pub fn gpt_backward(
    weights: &Weights,
    tokens: &[usize],
    d_logits: &Matrix,
) -> Vec<Matrix> {
    let _args = course_harness::call_args!(tokens, d_logits);
    observe("Gpt::backward", || {
        let model = weights.gpt();
        flat_gradient(model.backward(tokens, &model.forward(tokens), d_logits))
    })
}

/// `CausalSelfAttention::step` on each row of `x` in turn, from an empty cache: the
/// outputs stacked, `(n, d_model)`.
pub fn attention_steps(n_heads: usize, w: [&Matrix; 4], x: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(n_heads, x);
    observe("CausalSelfAttention::step", || {
        let attention = attention(n_heads, w);
        let mut cache = KvCache::new(n_heads, x.ncols() / n_heads);
        let mut out = Matrix::zeros(x.dim());
        for (t, row) in x.rows().into_iter().enumerate() {
            let y = attention.step(
                &row.to_owned().insert_axis(course_common::ndarray::Axis(0)),
                &mut cache,
            );
            out.row_mut(t).assign(&y.row(0));
        }
        out
    })
}

/// `Gpt::generate(prompt, n, sampling, seed)`.
pub fn generate(
    weights: &Weights,
    prompt: &[usize],
    n: usize,
    sampling: Sampling,
    seed: u64,
) -> Vec<usize> {
    let _args = course_harness::call_args!(prompt, n, seed);
    observe("Gpt::generate", || {
        weights.gpt().generate(prompt, n, &sampling, seed)
    })
}

/// `Gpt::generate_uncached(prompt, n, sampling, seed)`: the course's code, on the
/// learner's forward pass and sampling.
pub fn generate_uncached(
    weights: &Weights,
    prompt: &[usize],
    n: usize,
    sampling: Sampling,
    seed: u64,
) -> Vec<usize> {
    let _args = course_harness::call_args!(prompt, n, seed);
    observe("Gpt::forward", || {
        weights.gpt().generate_uncached(prompt, n, &sampling, seed)
    })
}
