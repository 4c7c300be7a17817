//! The experiment that joins chapter 01 to chapter 06: an RNN encoder-decoder without
//! attention against the Transformer, on the same copy task, as the source grows.
//!
//! ```text
//! cargo run --release -p measurements --example length_sweep
//! ```
//!
//! The task is to **copy** a random string of digits: source `3 1 4 1 5`, target
//! `3 1 4 1 5`, over 13 tokens (`PAD`, `BOS`, `EOS` and the ten digits), at source
//! lengths 5, 10, 20 and 30. Copy rather than reverse because copy is the harder of the
//! two for a model that only has a context vector: every digit has to survive exactly
//! `L` steps of recurrence between being read and being written, while in reversing the
//! last digit read is the first written (the reason Sutskever et al. fed their RNN its
//! sources backwards). For attention the two tasks cost the same. Copy is also the task
//! of the reference numbers chapter 01 quotes (a GRU, in PyTorch).
//!
//! The two models, trained on the same batches:
//!
//! - **RNN, no attention**: lesson 01's Elman cell (`rnn::Rnn`, tanh) twice. The encoder
//!   (hidden 64) reads the source's embeddings (32 wide); its last state, the context
//!   vector, is the decoder's first state; the decoder (hidden 64) reads the previous
//!   target token (teacher forcing, `BOS y_1 … y_L`) and lesson 02's `Linear` maps each
//!   of its states to the logits of `y_1 … y_L EOS`. Cross-entropy, then
//!   backpropagation through time through the decoder, into the context vector and on
//!   through the encoder, with lesson 01's `step_backward` on 64 rows at a time (the
//!   program first checks that this equals lesson 01's `backward` chained sequence by
//!   sequence, and central differences). Initialisation: embeddings `N(0, 1/32)` (the
//!   scale of lesson 06's `embedding_init`), `W_xh` and the output layer Xavier-uniform,
//!   `W_hh` lesson 01's `orthogonal(64, 1.0)`, the σ = 1 of chapter 01's measurements.
//!   That is the strongest of the initialisations tried: with `N(0, 1)` embeddings
//!   (PyTorch's default) the same RNN learns length 10 in only some seeds, and with a
//!   Xavier `W_hh` it fails at length 20 (`--rnn-embedding-std 1`, `--rnn-recurrent
//!   xavier` rerun those).
//! - **Transformer**: lesson 06's model, `d_model` 32, 2 heads, `d_ff` 64, one encoder
//!   and one decoder layer, post-LN.
//!
//! Both use lesson 06's Adam(0.9, 0.98, 1e-9), its warm-up schedule (peak learning rate
//! 3e-3 at step 100, then `∝ 1/√step`) and clipping of the global gradient norm at 1, for
//! the same number of steps (1500) of 64 strings at each length. Each model is trained
//! from 3 seeds (the seed sets the initialisation and the stream of training batches;
//! the two models of a seed see the same batches), because the RNN's training can fail
//! on one seed and succeed on another. Both decode greedily; the scores are the
//! exact-match and per-digit accuracy on the same 1000 held-out strings per length
//! (drawn with a fixed seed and never in a training batch).
//!
//! It prints the table and the per-position accuracy, and writes
//! `book/src/figures/06-full-model-length-sweep.svg` (accuracy against length; scores
//! only, no timings, so it depends only on the seeds) and
//! `target/experiments/length_sweep.json` (with the training times). Training runs on one
//! thread; the times are this machine's.
//!
//! Variants (they print their results and write
//! `target/experiments/length_sweep-<variant>.json`, and no figure):
//!
//! ```text
//! --steps N                  N training steps per model, seed and length (default 1500)
//! --lengths 5,10             other source lengths (each below 64)
//! --seeds N                  seeds 1 to N (default 3)
//! --rnn-embedding-std S      the RNN's embeddings from N(0, S²) (default 1/√32)
//! --rnn-recurrent xavier     the RNN's W_hh Xavier-uniform instead of orthogonal
//! --rnn-only                 train only the RNN
//! ```

// The table printer of chapter 01's measurements, so that the tables look alike.
#[path = "../../lessons/01-rnn-bottleneck/examples/common/mod.rs"]
mod common;

use common::print_table;
use course_common::ndarray::{Axis, concatenate, s};
use course_common::{Float, Matrix, Vector};
use course_figures::chart::{self, ChartStyle, Corner, Panel, Series, line_chart};
use course_figures::colour::{BLUE, GREY, VERMILLION};
use course_figures::{Lang, LangArgs, lang::languages};
use rand::RngExt;
use rnn::{Rnn, orthogonal};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Instant;
use transformer::{
    Adam, BOS, Batch, ChaCha8Rng, Config, EOS, Linear, NormPosition, TrainConfig,
    Transformer, clip_global_norm, cross_entropy_loss, greedy_decode_cached, next_token,
    seeded_rng, standard_normal, train_step, xavier_uniform,
};

/// The source lengths of the sweep.
const LENGTHS: [usize; 4] = [5, 10, 20, 30];
/// Training steps per model, seed and length.
const STEPS: usize = 1500;
/// The number of seeds (1 to `SEEDS`) each model is trained from at each length.
const SEEDS: u64 = 3;
/// Strings per training batch.
const BATCH: usize = 64;
/// Held-out strings per length.
const EVAL_SIZE: usize = 1000;
/// The number of symbols (digits); tokens are `PAD`, `BOS`, `EOS`, then the digits.
const SYMBOLS: usize = 10;
/// The vocabulary size.
const VOCAB: usize = SYMBOLS + 3;
/// The width of the RNN's token embeddings.
const RNN_EMBEDDING: usize = 32;
/// The width of the RNN's hidden state (encoder and decoder).
const RNN_HIDDEN: usize = 64;
/// The training batches of seed `s` at length `L` come from `DATA_SEED + 100 s + L`.
const DATA_SEED: u64 = 11_000;
/// The held-out set of length `L` comes from `EVAL_SEED + L`.
const EVAL_SEED: u64 = 2025;
/// The longest source a variant may ask for is `MAX_LEN - 1` (the Transformer's
/// positional table has room for the target and its `EOS`).
const MAX_LEN: usize = 64;

/// A (source, target) pair of token sequences, without special tokens.
type Pair = (Vec<usize>, Vec<usize>);

/// How the RNN's recurrent matrix `W_hh` starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Recurrent {
    /// Lesson 01's `orthogonal(64, 1.0)`: every singular value 1.
    Orthogonal,
    /// Xavier-uniform, as every other matrix.
    Xavier,
}

/// How the RNN starts.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RnnInit {
    /// The standard deviation of the embeddings' entries.
    embedding_std: Float,
    recurrent: Recurrent,
}

impl Default for RnnInit {
    fn default() -> Self {
        Self {
            embedding_std: 1.0 / (RNN_EMBEDDING as Float).sqrt(),
            recurrent: Recurrent::Orthogonal,
        }
    }
}

/// Trains lesson 01's RNN as an encoder–decoder without attention, and lesson 06's Transformer,
/// to copy digit strings of growing length, and measures exact-match accuracy by length.
/// With no option it draws the chapter's figure; any option makes a variant that only
/// prints and writes its own summary.
#[derive(clap::Parser)]
struct Args {
    /// Training steps of each model.
    #[arg(long, value_name = "N", default_value_t = STEPS)]
    steps: usize,
    /// The source lengths, comma-separated (each from 1 to 63).
    #[arg(long, value_name = "L,L,...", value_delimiter = ',', default_values_t = LENGTHS)]
    lengths: Vec<usize>,
    /// How many seeds to train at each length.
    #[arg(long, value_name = "N", default_value_t = SEEDS)]
    seeds: u64,
    /// The standard deviation of the RNN's embeddings (default 1/√32).
    #[arg(long, value_name = "S")]
    rnn_embedding_std: Option<Float>,
    /// How the RNN's recurrent matrix starts.
    #[arg(long, value_enum, default_value = "orthogonal")]
    rnn_recurrent: Recurrent,
    /// Train the RNN only.
    #[arg(long)]
    rnn_only: bool,
    #[command(flatten)]
    lang: LangArgs,
}

struct Options {
    steps: usize,
    lengths: Vec<usize>,
    seeds: u64,
    rnn_init: RnnInit,
    rnn_only: bool,
    langs: Vec<Lang>,
}

impl Options {
    /// The command line's options, or an error message and exit status 2.
    fn parse() -> Self {
        use clap::{CommandFactory, Parser, error::ErrorKind};
        let args = Args::parse();
        let invalid = |message: String| -> ! {
            Args::command()
                .error(ErrorKind::ValueValidation, message)
                .exit()
        };
        if args.steps == 0 || args.seeds == 0 {
            invalid("--steps and --seeds must be at least 1".to_owned());
        }
        if args.lengths.iter().any(|&l| !(1..MAX_LEN).contains(&l)) {
            invalid(format!(
                "every length must be between 1 and {}",
                MAX_LEN - 1
            ));
        }
        Options {
            steps: args.steps,
            lengths: args.lengths,
            seeds: args.seeds,
            rnn_init: RnnInit {
                embedding_std: args
                    .rnn_embedding_std
                    .unwrap_or(RnnInit::default().embedding_std),
                recurrent: args.rnn_recurrent,
            },
            rnn_only: args.rnn_only,
            langs: args.lang.langs,
        }
    }

    /// The default run writes the figure; a variant gets its own name.
    fn variant(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.steps != STEPS {
            parts.push(format!("steps{}", self.steps));
        }
        if self.lengths != LENGTHS {
            let lengths: Vec<String> =
                self.lengths.iter().map(|l| l.to_string()).collect();
            parts.push(format!("lengths{}", lengths.join("_")));
        }
        if self.seeds != SEEDS {
            parts.push(format!("seeds{}", self.seeds));
        }
        if self.rnn_init.embedding_std != RnnInit::default().embedding_std {
            parts.push(format!("embstd{}", self.rnn_init.embedding_std));
        }
        if self.rnn_init.recurrent == Recurrent::Xavier {
            parts.push("xavier".to_owned());
        }
        if self.rnn_only {
            parts.push("rnnonly".to_owned());
        }
        (!parts.is_empty()).then(|| parts.join("-"))
    }
}

// ---------------------------------------------------------------------------------------
// The task
// ---------------------------------------------------------------------------------------

/// A copy pair: a random string of `len` digits (tokens 3 to 12), and the same string.
fn copy_pair(rng: &mut ChaCha8Rng, len: usize) -> Pair {
    let digits: Vec<usize> = (0..len).map(|_| 3 + rng.random_range(0..SYMBOLS)).collect();
    (digits.clone(), digits)
}

/// The held-out set of a length: `EVAL_SIZE` different strings, from a fixed seed.
fn evaluation_set(len: usize) -> Vec<Pair> {
    let mut rng = seeded_rng(EVAL_SEED + len as u64);
    let mut seen = HashSet::new();
    let mut pairs = Vec::with_capacity(EVAL_SIZE);
    while pairs.len() < EVAL_SIZE {
        let pair = copy_pair(&mut rng, len);
        if seen.insert(pair.0.clone()) {
            pairs.push(pair);
        }
    }
    pairs
}

/// The training batches of one seed and length, the same stream for both models:
/// strings from a seeded generator, each held-out string drawn again (at length 5 there
/// are only 100,000 strings, and 1500 batches draw about as many).
struct Batches {
    rng: ChaCha8Rng,
    len: usize,
    heldout: HashSet<Vec<usize>>,
}

impl Batches {
    fn new(len: usize, seed: u64, heldout: &[Pair]) -> Self {
        Self {
            rng: seeded_rng(DATA_SEED + 100 * seed + len as u64),
            len,
            heldout: heldout.iter().map(|(src, _)| src.clone()).collect(),
        }
    }

    fn next_batch(&mut self) -> Batch {
        let pairs: Vec<Pair> = (0..BATCH)
            .map(|_| {
                loop {
                    let pair = copy_pair(&mut self.rng, self.len);
                    if !self.heldout.contains(&pair.0) {
                        break pair;
                    }
                }
            })
            .collect();
        Batch::new(&pairs)
    }
}

/// Lesson 06's optimiser settings, the same for both models.
fn train_config(steps: usize) -> TrainConfig {
    let mut settings = TrainConfig::dates();
    settings.steps = steps;
    settings.batch_size = BATCH;
    settings.peak_lr = 3e-3;
    settings.warmup = 100;
    settings.clip_norm = 1.0;
    settings.label_smoothing = 0.0;
    settings.beta1 = 0.9;
    settings.beta2 = 0.98;
    settings.adam_eps = 1e-9;
    settings
}

// ---------------------------------------------------------------------------------------
// The RNN encoder-decoder without attention
// ---------------------------------------------------------------------------------------

/// Sequence to sequence with two Elman RNNs and nothing between them but the context
/// vector. The gradient of a loss has the same shape, so it is one of these too.
#[derive(Debug, Clone, PartialEq)]
struct RnnSeq2Seq {
    /// The source tokens' embeddings, `(vocab, d_emb)`.
    src_embedding: Matrix,
    /// The target tokens' embeddings, `(vocab, d_emb)`.
    tgt_embedding: Matrix,
    /// Reads the source: `W_xh` `(d_hidden, d_emb)`.
    encoder: Rnn,
    /// Writes the target, starting from the encoder's last state.
    decoder: Rnn,
    /// The decoder's state to the logits, `(vocab, d_hidden)`.
    output: Linear,
}

/// The forward pass over a batch, kept for the backward pass. Every sequence of a batch
/// has the same length (the task has no padding).
struct RnnForward {
    /// The embedded source tokens of each step, `S × (B, d_emb)`.
    src_inputs: Vec<Matrix>,
    /// The encoder's states, `S + 1 × (B, d_hidden)`; `[0]` is the zero start, `[S]`
    /// the context vectors.
    encoder_states: Vec<Matrix>,
    /// The embedded decoder inputs (`BOS y_1 … y_L`), `T × (B, d_emb)`.
    tgt_inputs: Vec<Matrix>,
    /// The decoder's states, `T + 1 × (B, d_hidden)`; `[0]` is the context.
    decoder_states: Vec<Matrix>,
    /// `decoder_states[1..]` stacked time-major, `(T·B, d_hidden)`: row `t·B + b` is
    /// step `t` of sequence `b`.
    stacked: Matrix,
    /// The logits of every row of `stacked`, `(T·B, vocab)`.
    logits: Matrix,
}

/// Token `t` of every row of `rows`.
fn column(rows: &[Vec<usize>], t: usize) -> Vec<usize> {
    rows.iter().map(|r| r[t]).collect()
}

/// The rows of `table` for `tokens`, `(tokens.len(), d)`.
fn lookup(table: &Matrix, tokens: &[usize]) -> Matrix {
    Matrix::from_shape_fn((tokens.len(), table.ncols()), |(i, j)| {
        table[[tokens[i], j]]
    })
}

/// The backward pass of [`lookup`]: adds row `i` of `d_rows` into row `tokens[i]`.
fn scatter_add(d_table: &mut Matrix, tokens: &[usize], d_rows: &Matrix) {
    for (i, &token) in tokens.iter().enumerate() {
        let mut row = d_table.row_mut(token);
        row += &d_rows.row(i);
    }
}

/// The targets of a batch in the time-major order of [`RnnForward::stacked`].
fn time_major_targets(batch: &Batch) -> Vec<usize> {
    (0..batch.target_len())
        .flat_map(|t| column(&batch.tgt_out, t))
        .collect()
}

impl RnnSeq2Seq {
    /// A freshly initialised model: embeddings `N(0, init.embedding_std²)`, `W_xh` and
    /// the output projection Xavier-uniform, `W_hh` as `init.recurrent` says, biases
    /// 0. The draws come from `seeded_rng(seed)`.
    fn new(seed: u64, init: RnnInit) -> Self {
        let mut rng = seeded_rng(seed);
        let embedding = |rng: &mut ChaCha8Rng| {
            Matrix::from_shape_fn((VOCAB, RNN_EMBEDDING), |_| {
                init.embedding_std * standard_normal(rng)
            })
        };
        let src_embedding = embedding(&mut rng);
        let tgt_embedding = embedding(&mut rng);
        let cell = |rng: &mut ChaCha8Rng| {
            let w_xh = xavier_uniform(RNN_HIDDEN, RNN_EMBEDDING, rng);
            let w_hh = match init.recurrent {
                Recurrent::Orthogonal => orthogonal(RNN_HIDDEN, 1.0),
                Recurrent::Xavier => xavier_uniform(RNN_HIDDEN, RNN_HIDDEN, rng),
            };
            Rnn::new(w_xh, w_hh, Vector::zeros(RNN_HIDDEN))
        };
        let encoder = cell(&mut rng);
        let decoder = cell(&mut rng);
        let output = Linear::new(
            xavier_uniform(VOCAB, RNN_HIDDEN, &mut rng),
            Vector::zeros(VOCAB),
        );
        Self {
            src_embedding,
            tgt_embedding,
            encoder,
            decoder,
            output,
        }
    }

    /// The same shape, every parameter 0: where a gradient is summed.
    fn zeros_like(&self) -> Self {
        let mut zeros = self.clone();
        for tensor in zeros.parameters_mut() {
            tensor.fill(0.0);
        }
        zeros
    }

    /// Every learned tensor, flattened, in a fixed order.
    fn parameters(&self) -> Vec<&[Float]> {
        let matrices = [
            &self.src_embedding,
            &self.tgt_embedding,
            &self.encoder.w_xh,
            &self.encoder.w_hh,
            &self.decoder.w_xh,
            &self.decoder.w_hh,
            &self.output.weight,
        ];
        let vectors = [&self.encoder.b, &self.decoder.b, &self.output.bias];
        matrices
            .into_iter()
            .map(|m| m.as_slice().expect("parameters are row-major"))
            .chain(
                vectors
                    .into_iter()
                    .map(|v| v.as_slice().expect("parameters are contiguous")),
            )
            .collect()
    }

    /// The tensors of [`RnnSeq2Seq::parameters`], in the same order, to change them.
    fn parameters_mut(&mut self) -> Vec<&mut [Float]> {
        let matrices = [
            &mut self.src_embedding,
            &mut self.tgt_embedding,
            &mut self.encoder.w_xh,
            &mut self.encoder.w_hh,
            &mut self.decoder.w_xh,
            &mut self.decoder.w_hh,
            &mut self.output.weight,
        ];
        let vectors = [
            &mut self.encoder.b,
            &mut self.decoder.b,
            &mut self.output.bias,
        ];
        let mut list: Vec<&mut [Float]> = matrices
            .into_iter()
            .map(|m| m.as_slice_mut().expect("parameters are row-major"))
            .collect();
        list.extend(
            vectors
                .into_iter()
                .map(|v| v.as_slice_mut().expect("parameters are contiguous")),
        );
        list
    }

    fn parameter_count(&self) -> usize {
        self.parameters().iter().map(|p| p.len()).sum()
    }

    /// The encoder over the sources (rows of equal length): the embedded inputs of each
    /// step and the states, from the zero state to the context vectors.
    fn encode(&self, src: &[Vec<usize>]) -> (Vec<Matrix>, Vec<Matrix>) {
        let len = src.first().map_or(0, Vec::len);
        let mut inputs = Vec::with_capacity(len);
        let mut states = vec![Matrix::zeros((src.len(), RNN_HIDDEN))]; // (B, d_hidden)
        for t in 0..len {
            let x = lookup(&self.src_embedding, &column(src, t)); // (B, d_emb)
            let h = self.encoder.step(&x, &states[t]); // (B, d_hidden)
            inputs.push(x);
            states.push(h);
        }
        (inputs, states)
    }

    /// The forward pass over a batch, teacher-forced.
    fn forward(&self, batch: &Batch) -> RnnForward {
        assert!(
            batch.src.iter().all(|s| s.len() == batch.src[0].len()),
            "the RNN's batches hold sequences of one length"
        );
        let (src_inputs, encoder_states) = self.encode(&batch.src);
        let context = encoder_states.last().expect("the zero state").clone();
        let mut tgt_inputs = Vec::with_capacity(batch.target_len());
        let mut decoder_states = vec![context]; // (B, d_hidden)
        for t in 0..batch.target_len() {
            let x = lookup(&self.tgt_embedding, &column(&batch.tgt_in, t)); // (B, d_emb)
            let h = self.decoder.step(&x, &decoder_states[t]); // (B, d_hidden)
            tgt_inputs.push(x);
            decoder_states.push(h);
        }
        let views: Vec<_> = decoder_states[1..].iter().map(|h| h.view()).collect();
        let stacked = concatenate(Axis(0), &views).expect("every state is (B, d_hidden)"); // (T·B, d_hidden)
        let logits = self.output.forward(&stacked); // (T·B, vocab)
        RnnForward {
            src_inputs,
            encoder_states,
            tgt_inputs,
            decoder_states,
            stacked,
            logits,
        }
    }

    /// Backpropagation through time, through the decoder, the context vector and the
    /// encoder: the gradient of every parameter, given `d_logits` `(T·B, vocab)`.
    fn backward(&self, batch: &Batch, forward: &RnnForward, d_logits: &Matrix) -> Self {
        let mut grads = self.zeros_like();
        let n = batch.len();
        let output = self.output.backward(&forward.stacked, d_logits);
        grads.output.weight += &output.d_weight;
        grads.output.bias += &output.d_bias;
        // The decoder, from its last step to its first; the gradient of each state is
        // its own (from the output layer) plus what flows back from the next step.
        let mut d_h = Matrix::zeros((n, RNN_HIDDEN)); // (B, d_hidden)
        for t in (0..batch.target_len()).rev() {
            d_h += &output.d_x.slice(s![t * n..(t + 1) * n, ..]);
            let step = self.decoder.step_backward(
                &forward.tgt_inputs[t],
                &forward.decoder_states[t],
                &forward.decoder_states[t + 1],
                &d_h,
            );
            add_step(&mut grads.decoder, &step);
            scatter_add(
                &mut grads.tgt_embedding,
                &column(&batch.tgt_in, t),
                &step.d_x,
            );
            d_h = step.d_h;
        }
        // d_h is now ∂L/∂context: everything the loss can say about the source flows
        // through it into the encoder's last state.
        for t in (0..forward.src_inputs.len()).rev() {
            let step = self.encoder.step_backward(
                &forward.src_inputs[t],
                &forward.encoder_states[t],
                &forward.encoder_states[t + 1],
                &d_h,
            );
            add_step(&mut grads.encoder, &step);
            scatter_add(&mut grads.src_embedding, &column(&batch.src, t), &step.d_x);
            d_h = step.d_h;
        }
        grads
    }

    /// Greedy decoding of every source at once: from `BOS` and the context vector, feed
    /// back the most likely token ([`next_token`]: never `PAD` or `BOS`) until `EOS` or
    /// `max_len` tokens, as lesson 06's `greedy_decode_cached` does. Returns the tokens
    /// without `EOS`.
    fn greedy_decode(&self, src: &[Vec<usize>], max_len: usize) -> Vec<Vec<usize>> {
        let (_, states) = self.encode(src);
        let mut h = states.last().expect("the zero state").clone(); // (n, d_hidden)
        let mut tokens = vec![BOS; src.len()];
        let mut outputs = vec![Vec::new(); src.len()];
        let mut done = vec![false; src.len()];
        for _ in 0..max_len {
            h = self.decoder.step(&lookup(&self.tgt_embedding, &tokens), &h);
            let logits = self.output.forward(&h); // (n, vocab)
            for (i, row) in logits.rows().into_iter().enumerate() {
                tokens[i] = next_token(row);
                if tokens[i] == EOS {
                    done[i] = true;
                }
                if !done[i] {
                    outputs[i].push(tokens[i]);
                }
            }
        }
        outputs
    }
}

/// Adds one step's weight gradients into a gradient cell.
fn add_step(target: &mut Rnn, step: &rnn::StepGrads) {
    target.w_xh += &step.d_w_xh;
    target.w_hh += &step.d_w_hh;
    target.b += &step.d_b;
}

/// One training step of the RNN, as lesson 06's `train_step` makes one for the
/// Transformer: forward, loss, backward, clipping of the global norm, Adam. Returns the
/// loss before the update.
fn rnn_train_step(
    model: &mut RnnSeq2Seq,
    adam: &mut Adam,
    batch: &Batch,
    lr: Float,
    settings: &TrainConfig,
) -> Float {
    let forward = model.forward(batch);
    let targets = time_major_targets(batch);
    let loss = cross_entropy_loss(&forward.logits, &targets, settings.label_smoothing);
    let mut grads = model.backward(batch, &forward, &loss.d_logits);
    clip_global_norm(&mut grads.parameters_mut(), settings.clip_norm);
    adam.update(&mut model.parameters_mut(), &grads.parameters(), lr);
    loss.value
}

/// Checks the batched backpropagation through time before trusting it, on a small
/// model: against lesson 01's `Rnn::backward` run sequence by sequence (the decoder's
/// `d_h0` chained into the encoder's last state), and against central differences.
fn check_rnn_gradients() {
    let model = RnnSeq2Seq::new(99, RnnInit::default());
    let mut rng = seeded_rng(5);
    let pairs: Vec<Pair> = (0..3).map(|_| copy_pair(&mut rng, 4)).collect();
    let batch = Batch::new(&pairs);
    let targets = time_major_targets(&batch);
    let loss_of =
        |m: &RnnSeq2Seq| cross_entropy_loss(&m.forward(&batch).logits, &targets, 0.0);
    let forward = model.forward(&batch);
    let loss = loss_of(&model);
    let batched = model.backward(&batch, &forward, &loss.d_logits);

    // Sequence by sequence, with lesson 01's forward and backward.
    let mut chained = model.zeros_like();
    let n = batch.len();
    let h0 = Vector::zeros(RNN_HIDDEN);
    for b in 0..n {
        let xs_src = lookup(&model.src_embedding, &batch.src[b]); // (S, d_emb)
        let enc = model.encoder.forward(&xs_src, &h0); // (S, d_hidden)
        let context = model.encoder.encode(&xs_src, &h0); // (d_hidden,)
        let xs_tgt = lookup(&model.tgt_embedding, &batch.tgt_in[b]); // (T, d_emb)
        let dec = model.decoder.forward(&xs_tgt, &context); // (T, d_hidden)
        let rows: Vec<usize> = (0..batch.target_len()).map(|t| t * n + b).collect();
        let d_logits = loss.d_logits.select(Axis(0), &rows); // (T, vocab)
        let out = model.output.backward(&dec, &d_logits);
        chained.output.weight += &out.d_weight;
        chained.output.bias += &out.d_bias;
        let dec_grads = model.decoder.backward(&xs_tgt, &context, &dec, &out.d_x);
        let mut d_enc = Matrix::zeros(enc.dim()); // (S, d_hidden)
        d_enc.row_mut(enc.nrows() - 1).assign(&dec_grads.d_h0);
        let enc_grads = model.encoder.backward(&xs_src, &h0, &enc, &d_enc);
        for (cell, g) in [
            (&mut chained.decoder, &dec_grads),
            (&mut chained.encoder, &enc_grads),
        ] {
            cell.w_xh += &g.d_w_xh;
            cell.w_hh += &g.d_w_hh;
            cell.b += &g.d_b;
        }
        scatter_add(
            &mut chained.tgt_embedding,
            &batch.tgt_in[b],
            &dec_grads.d_xs,
        );
        scatter_add(&mut chained.src_embedding, &batch.src[b], &enc_grads.d_xs);
    }
    let mut worst_chained: Float = 0.0;
    for (a, c) in batched.parameters().iter().zip(chained.parameters()) {
        for (x, y) in a.iter().zip(c) {
            worst_chained = worst_chained.max((x - y).abs());
        }
    }
    assert!(
        worst_chained < 1e-12,
        "batched BPTT differs from lesson 01's backward by {worst_chained:e}"
    );

    // Central differences on every seventh entry of every tensor. The differences are
    // measured against the largest gradient entry: central differences in f64 with
    // h = 1e-5 carry an absolute error near 1e-10, which is large next to tiny entries.
    let h = 1e-5;
    let (mut worst, mut largest): (Float, Float) = (0.0, 0.0);
    let analytic: Vec<Vec<Float>> =
        batched.parameters().iter().map(|p| p.to_vec()).collect();
    for (k, tensor) in analytic.iter().enumerate() {
        for (i, &g) in tensor.iter().enumerate().step_by(7) {
            let shifted = |delta: Float| {
                let mut m = model.clone();
                m.parameters_mut()[k][i] += delta;
                loss_of(&m).value
            };
            let numeric = (shifted(h) - shifted(-h)) / (2.0 * h);
            worst = worst.max((numeric - g).abs());
            largest = largest.max(g.abs());
        }
    }
    let relative = worst / largest;
    assert!(
        relative < 1e-6,
        "BPTT disagrees with central differences: {worst:e} against gradients up to \
         {largest:e}"
    );
    println!(
        "gradient check of the RNN's BPTT: batched = lesson 01's backward chained per \
         sequence (largest difference {worst_chained:.1e}); central differences agree to \
         {worst:.1e} (gradients up to {largest:.1e})\n"
    );
}

// ---------------------------------------------------------------------------------------
// Training and scoring
// ---------------------------------------------------------------------------------------

/// How well a model copies the held-out strings.
struct Scores {
    /// The fraction of strings decoded exactly (the right digits, then `EOS`).
    exact: Float,
    /// The fraction of target digits right at their position (a missing digit is wrong).
    token: Float,
    /// The same, per output position.
    per_position: Vec<Float>,
}

fn score(predictions: &[Vec<usize>], pairs: &[Pair]) -> Scores {
    let len = pairs[0].1.len();
    let mut correct = vec![0usize; len];
    let mut exact = 0;
    for (prediction, (_, target)) in predictions.iter().zip(pairs) {
        exact += usize::from(prediction == target);
        for (i, &token) in target.iter().enumerate() {
            correct[i] += usize::from(prediction.get(i) == Some(&token));
        }
    }
    let n = pairs.len() as Float;
    Scores {
        exact: exact as Float / n,
        token: correct.iter().sum::<usize>() as Float / (n * len as Float),
        per_position: correct.iter().map(|&c| c as Float / n).collect(),
    }
}

/// One model, trained from one seed at one length.
struct Run {
    seed: u64,
    scores: Scores,
    train_seconds: Float,
    /// The mean training loss of the last 50 steps.
    final_loss: Float,
}

/// Every seed of one model at one length.
struct Cell {
    length: usize,
    runs: Vec<Run>,
}

impl Cell {
    fn mean(&self, pick: impl Fn(&Run) -> Float) -> Float {
        self.runs.iter().map(pick).sum::<Float>() / self.runs.len() as Float
    }

    fn exact(&self) -> Float {
        self.mean(|r| r.scores.exact)
    }

    fn token(&self) -> Float {
        self.mean(|r| r.scores.token)
    }

    fn train_seconds(&self) -> Float {
        self.mean(|r| r.train_seconds)
    }
}

fn mean_tail(values: &[Float], n: usize) -> Float {
    let tail = &values[values.len().saturating_sub(n)..];
    tail.iter().sum::<Float>() / tail.len() as Float
}

/// Trains the RNN from `seed` at `length` and scores it on `heldout`.
fn run_rnn(length: usize, seed: u64, options: &Options, heldout: &[Pair]) -> Run {
    let settings = train_config(options.steps);
    let mut model = RnnSeq2Seq::new(seed, options.rnn_init);
    let mut adam = Adam::with_betas(
        &model.parameters(),
        settings.beta1,
        settings.beta2,
        settings.adam_eps,
    );
    let mut batches = Batches::new(length, seed, heldout);
    let mut losses = Vec::with_capacity(options.steps);
    let d_model = transformer_config().d_model; // the Transformer's schedule, exactly
    let start = Instant::now();
    for step in 1..=options.steps {
        let batch = batches.next_batch();
        let lr = settings.learning_rate(step, d_model);
        losses.push(rnn_train_step(&mut model, &mut adam, &batch, lr, &settings));
    }
    let train_seconds = start.elapsed().as_secs_f64();
    let sources: Vec<Vec<usize>> = heldout.iter().map(|(src, _)| src.clone()).collect();
    let predictions = model.greedy_decode(&sources, length + 1);
    Run {
        seed,
        scores: score(&predictions, heldout),
        train_seconds,
        final_loss: mean_tail(&losses, 50),
    }
}

/// The Transformer of the sweep: the date model's shape over the 13 tokens.
fn transformer_config() -> Config {
    Config {
        vocab_size: VOCAB,
        d_model: 32,
        n_heads: 2,
        d_ff: 64,
        n_layers: 1,
        max_len: MAX_LEN,
        norm_position: NormPosition::Post,
    }
}

/// Trains the Transformer from `seed` at `length` and scores it on `heldout`.
fn run_transformer(length: usize, seed: u64, steps: usize, heldout: &[Pair]) -> Run {
    let settings = train_config(steps);
    let config = transformer_config();
    let mut model = Transformer::new(config, seed);
    let mut adam = Adam::with_betas(
        &model.parameters(),
        settings.beta1,
        settings.beta2,
        settings.adam_eps,
    );
    let mut batches = Batches::new(length, seed, heldout);
    let mut losses = Vec::with_capacity(steps);
    let start = Instant::now();
    for step in 1..=steps {
        let batch = batches.next_batch();
        let lr = settings.learning_rate(step, config.d_model);
        let report = train_step(
            &mut model,
            &mut adam,
            &batch,
            lr,
            settings.clip_norm,
            settings.label_smoothing,
        );
        losses.push(report.loss);
    }
    let train_seconds = start.elapsed().as_secs_f64();
    let predictions: Vec<Vec<usize>> = heldout
        .iter()
        .map(|(src, _)| greedy_decode_cached(&model, src, length + 1))
        .collect();
    Run {
        seed,
        scores: score(&predictions, heldout),
        train_seconds,
        final_loss: mean_tail(&losses, 50),
    }
}

fn report_run(length: usize, name: &str, run: &Run) {
    println!(
        "L = {length:>2}  seed {}  {name:<11}  exact {:5.1} %  per digit {:5.1} %  \
         final loss {:.4}  {:5.1} s",
        run.seed,
        100.0 * run.scores.exact,
        100.0 * run.scores.token,
        run.final_loss,
        run.train_seconds
    );
}

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

fn main() {
    let options = Options::parse();
    check_rnn_gradients();

    let rnn_params = RnnSeq2Seq::new(1, options.rnn_init).parameter_count();
    let transformer_params = Transformer::new(transformer_config(), 1).parameter_count();
    let init = options.rnn_init;
    println!(
        "task: copy a random string of digits ({SYMBOLS} symbols + PAD/BOS/EOS), source \
         lengths {:?}; {EVAL_SIZE} held-out strings per length, greedy decoding",
        options.lengths
    );
    println!(
        "RNN without attention: Elman encoder and decoder (tanh), hidden {RNN_HIDDEN}, \
         embeddings {RNN_EMBEDDING} from N(0, {:.4}²), W_hh {:?}; {rnn_params} parameters",
        init.embedding_std, init.recurrent
    );
    println!(
        "Transformer: d_model 32, 2 heads, d_ff 64, 1 + 1 layers, post-LN; \
         {transformer_params} parameters"
    );
    println!(
        "both: {} steps of {BATCH} strings, seeds 1 to {} (a seed's batches are the same \
         for both), Adam(0.9, 0.98, 1e-9), peak lr 3e-3 after 100 warm-up steps then \
         ∝ 1/√step, clipping at 1\n",
        options.steps, options.seeds
    );

    let started = Instant::now();
    let mut rnn_cells = Vec::new();
    let mut transformer_cells = Vec::new();
    for &length in &options.lengths {
        let heldout = evaluation_set(length);
        let mut rnn = Cell {
            length,
            runs: Vec::new(),
        };
        let mut transformer = Cell {
            length,
            runs: Vec::new(),
        };
        for seed in 1..=options.seeds {
            let run = run_rnn(length, seed, &options, &heldout);
            report_run(length, "RNN", &run);
            rnn.runs.push(run);
            if !options.rnn_only {
                let run = run_transformer(length, seed, options.steps, &heldout);
                report_run(length, "Transformer", &run);
                transformer.runs.push(run);
            }
        }
        rnn_cells.push(rnn);
        if !options.rnn_only {
            transformer_cells.push(transformer);
        }
    }

    println!(
        "\nmean over {} seeds ({EVAL_SIZE} held-out strings each); train s is per run:\n",
        options.seeds
    );
    let mut rows = Vec::new();
    for (index, rnn) in rnn_cells.iter().enumerate() {
        let models = [
            ("RNN, no attention", Some(rnn)),
            ("Transformer", transformer_cells.get(index)),
        ];
        for (name, cell) in models {
            let Some(cell) = cell else { continue };
            let per_seed: Vec<String> = cell
                .runs
                .iter()
                .map(|r| format!("{:.1}", 100.0 * r.scores.exact))
                .collect();
            rows.push(vec![
                cell.length.to_string(),
                name.to_owned(),
                format!("{:.1}", 100.0 * cell.exact()),
                per_seed.join(" / "),
                format!("{:.1}", 100.0 * cell.token()),
                format!("{:.1}", cell.train_seconds()),
            ]);
        }
    }
    print_table(
        &[
            "length",
            "model",
            "exact match %",
            "exact, per seed",
            "per digit %",
            "train s",
        ],
        &rows,
    );

    println!("\naccuracy per output position, %, mean over the seeds:");
    let cells = rnn_cells
        .iter()
        .map(|c| ("RNN", c))
        .chain(transformer_cells.iter().map(|c| ("Transformer", c)));
    for (name, cell) in cells {
        if cell.length < 10 {
            continue;
        }
        let line: Vec<String> = (0..cell.length)
            .map(|i| format!("{:.0}", 100.0 * cell.mean(|r| r.scores.per_position[i])))
            .collect();
        println!("  {name}, L = {}: {}", cell.length, line.join(" "));
    }
    let total: Float = rnn_cells
        .iter()
        .chain(&transformer_cells)
        .flat_map(|c| &c.runs)
        .map(|r| r.train_seconds)
        .sum();
    println!(
        "\ntraining time, every model, seed and length: {total:.1} s of {:.1} s in all \
         (one thread)",
        started.elapsed().as_secs_f64()
    );

    let json = summary_json(
        &options,
        rnn_params,
        transformer_params,
        &rnn_cells,
        &transformer_cells,
    );
    let experiments = course_common::output::experiments_dir();
    let name = match options.variant() {
        None => "length_sweep.json".to_owned(),
        Some(variant) => format!("length_sweep-{variant}.json"),
    };
    std::fs::write(experiments.join(&name), json).expect("write the JSON summary");
    println!("wrote {}", experiments.join(&name).display());
    if options.variant().is_none() {
        for lang in languages(&options.langs) {
            let figure = figure(&options, &rnn_cells, &transformer_cells, lang);
            let path =
                course_figures::write_in(lang, "06-full-model-length-sweep.svg", &figure);
            println!("wrote {}", path.display());
        }
    }
}

// ---------------------------------------------------------------------------------------
// What is written
// ---------------------------------------------------------------------------------------

/// `value` with `decimals` decimals, the number `format!("{value:.decimals$}")` writes:
/// the precision the summary keeps.
fn rounded(value: Float, decimals: usize) -> Float {
    format!("{value:.decimals$}")
        .parse()
        .expect("a formatted number parses back")
}

/// The summary of a sweep: the settings, then every model's scores.
#[derive(serde::Serialize)]
struct Summary<'a> {
    task: &'static str,
    lengths: &'a [usize],
    steps: usize,
    seeds: u64,
    batch_size: usize,
    eval_size: usize,
    vocab_size: usize,
    optimiser: OptimiserSummary,
    rnn: RnnSummary,
    transformer: TransformerSummary,
    notes: &'static str,
    models: Models,
    machine: &'static str,
}

#[derive(serde::Serialize)]
struct OptimiserSummary {
    adam: [Float; 3],
    peak_lr: Float,
    warmup: usize,
    decay: &'static str,
    clip_norm: u32,
}

#[derive(serde::Serialize)]
struct RnnSummary {
    cell: &'static str,
    hidden: usize,
    embedding: usize,
    embedding_std: Float,
    w_hh: &'static str,
    parameters: usize,
}

#[derive(serde::Serialize)]
struct TransformerSummary {
    d_model: usize,
    heads: usize,
    d_ff: usize,
    layers: usize,
    norm: &'static str,
    parameters: usize,
}

#[derive(serde::Serialize)]
struct Models {
    rnn: Vec<CellSummary>,
    transformer: Vec<CellSummary>,
}

/// One model at one length: the means over the seeds, then each seed's run.
#[derive(serde::Serialize)]
struct CellSummary {
    length: usize,
    exact_match: Float,
    token_accuracy: Float,
    train_seconds: Float,
    runs: Vec<RunSummary>,
}

#[derive(serde::Serialize)]
struct RunSummary {
    seed: u64,
    exact_match: Float,
    token_accuracy: Float,
    train_seconds: Float,
    final_loss: Float,
    per_position: Vec<Float>,
}

fn cell_summaries(cells: &[Cell]) -> Vec<CellSummary> {
    cells
        .iter()
        .map(|cell| CellSummary {
            length: cell.length,
            exact_match: rounded(cell.exact(), 4),
            token_accuracy: rounded(cell.token(), 4),
            train_seconds: rounded(cell.train_seconds(), 2),
            runs: cell
                .runs
                .iter()
                .map(|r| RunSummary {
                    seed: r.seed,
                    exact_match: rounded(r.scores.exact, 4),
                    token_accuracy: rounded(r.scores.token, 4),
                    train_seconds: rounded(r.train_seconds, 2),
                    final_loss: rounded(r.final_loss, 5),
                    per_position: r
                        .scores
                        .per_position
                        .iter()
                        .map(|&a| rounded(a, 3))
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

fn summary_json(
    options: &Options,
    rnn_params: usize,
    transformer_params: usize,
    rnn: &[Cell],
    transformer: &[Cell],
) -> String {
    let summary = Summary {
        task: "copy",
        lengths: &options.lengths,
        steps: options.steps,
        seeds: options.seeds,
        batch_size: BATCH,
        eval_size: EVAL_SIZE,
        vocab_size: VOCAB,
        optimiser: OptimiserSummary {
            adam: [0.9, 0.98, 1e-9],
            peak_lr: 0.003,
            warmup: 100,
            decay: "inverse_sqrt",
            clip_norm: 1,
        },
        rnn: RnnSummary {
            cell: "elman_tanh",
            hidden: RNN_HIDDEN,
            embedding: RNN_EMBEDDING,
            embedding_std: rounded(options.rnn_init.embedding_std, 6),
            w_hh: match options.rnn_init.recurrent {
                Recurrent::Orthogonal => "orthogonal",
                Recurrent::Xavier => "xavier_uniform",
            },
            parameters: rnn_params,
        },
        transformer: TransformerSummary {
            d_model: 32,
            heads: 2,
            d_ff: 64,
            layers: 1,
            norm: "post",
            parameters: transformer_params,
        },
        notes: "exact_match, token_accuracy and train_seconds of a length are means over \
                the seeds' runs; train_seconds is one run's training on one thread",
        models: Models {
            rnn: cell_summaries(rnn),
            transformer: cell_summaries(transformer),
        },
        machine: "AMD EPYC, 2 hardware threads (training uses one)",
    };
    serde_json::to_string_pretty(&summary).expect("a summary is JSON") + "\n"
}

/// Exact match and per-digit accuracy against length, one line per seed. Scores only,
/// no timings: the same seeds give the same figure.
fn figure(options: &Options, rnn: &[Cell], transformer: &[Cell], lang: Lang) -> String {
    let max_length = options.lengths.iter().copied().max().unwrap_or(1) as Float;
    let x_max = 5.0 * (max_length / 5.0).ceil() + 5.0;
    // One line per seed; only the first is named in the legend.
    let lines =
        |cells: &[Cell], name: &str, color: &'static str, pick: fn(&Scores) -> Float| {
            (0..options.seeds as usize)
                .map(|i| {
                    let label = if i == 0 { name } else { "" };
                    let points = cells
                        .iter()
                        .map(|c| (c.length as Float, 100.0 * pick(&c.runs[i].scores)))
                        .collect();
                    Series::line(label, color, points).with_markers()
                })
                .collect::<Vec<Series>>()
        };
    let both = |pick: fn(&Scores) -> Float| {
        // The Transformer last, so that its lines are drawn on top.
        let mut series = lines(
            rnn,
            lang.pick("RNN, no attention", "RNN，无注意力"),
            VERMILLION,
            pick,
        );
        series.extend(lines(transformer, "Transformer", BLUE, pick));
        series
    };
    let length_axis = || {
        chart::Axis::linear(
            lang.pick("source length L (digits)", "源序列长度 L（数字个数）"),
            0.0,
            x_max,
        )
    };
    // A little room above 100 %, so that the lines along the top stay visible.
    let percent_axis = |label: &str| chart::Axis::linear(label, 0.0, 104.0);
    let mut digits = both(|s| s.token);
    let chance = vec![(0.0, 10.0), (x_max, 10.0)];
    digits.push(
        Series::line(
            lang.pick("chance (1 in 10)", "随机猜测（十分之一）"),
            GREY,
            chance,
        )
        .dashed(),
    );
    let note = match lang {
        Lang::En => format!("one line per seed ({})", options.seeds),
        Lang::ZhCn => format!("每个种子一条线（共 {} 个）", options.seeds),
    };
    let panels = [
        Panel {
            title: lang.pick("Whole string copied", "整串复制正确").to_owned(),
            x: length_axis(),
            y: percent_axis(lang.pick("exact match (%)", "完全匹配率（%）")),
            series: both(|s| s.exact),
            legend: Corner::BottomLeft,
            note: Some(note.clone()),
        },
        Panel {
            title: lang.pick("Digits copied", "逐位复制正确").to_owned(),
            x: length_axis(),
            y: percent_axis(lang.pick("per-digit accuracy (%)", "逐位准确率（%）")),
            series: digits,
            legend: Corner::BottomLeft,
            note: Some(note),
        },
    ];
    let mut description = match lang {
        Lang::En => format!(
            "Copying random strings of digits after {} training steps of {BATCH} strings, \
             {EVAL_SIZE} held-out strings per length, mean of {} seeds. Exact match, RNN \
             without attention against Transformer:",
            options.steps, options.seeds
        ),
        Lang::ZhCn => format!(
            "复制随机数字串，训练 {} 步、每步 {BATCH} 个串，每个长度 {EVAL_SIZE} 个留出串，\
             {} 个种子的平均。完全匹配率，无注意力的 RNN 对比 Transformer：",
            options.steps, options.seeds
        ),
    };
    for (r, t) in rnn.iter().zip(transformer) {
        let _ = match lang {
            Lang::En => write!(
                description,
                " L = {}: {:.1} % against {:.1} %;",
                r.length,
                100.0 * r.exact(),
                100.0 * t.exact()
            ),
            Lang::ZhCn => write!(
                description,
                "L = {}：{:.1}% 对 {:.1}%；",
                r.length,
                100.0 * r.exact(),
                100.0 * t.exact()
            ),
        };
    }
    description.pop();
    description.push(match lang {
        Lang::En => '.',
        Lang::ZhCn => '。',
    });
    line_chart(
        lang.pick(
            "An RNN without attention against the Transformer, copying longer and longer strings",
            "无注意力的 RNN 与 Transformer 复制越来越长的串",
        ),
        &description,
        &panels,
        &ChartStyle::default(),
    )
}
