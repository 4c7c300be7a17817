//! The decoder-only model: a token embedding, pre-norm blocks, a last RMSNorm and an
//! output head that is the embedding itself (tied); the next-token loss; the backward
//! pass of the whole model.
//!
//! ```text
//! x_0 = E[tokens]                                   (n, d_model), no position added
//! block l:  h = x + Attention(RMSNorm_1(x))         (n, d_model)
//!           x' = h + SwiGLU(RMSNorm_2(h))           (n, d_model)
//! logits = RMSNorm_f(x_L) Eᵀ                        (n, vocab)
//! L = −(1/n) Σ_t log softmax(logits_t)[target_t]    target_t = tokens[t + 1]
//! ```
//!
//! Positions enter only through RoPE, inside each attention. Book: chapter 07, "The
//! model".

use course_common::ndarray::{Array, Axis, Dimension};
use course_common::{Float, Matrix, Vector};
use transformer::{ChaCha8Rng, Loss, log_softmax_rows, seeded_rng, standard_normal};

use crate::rms_norm::RmsNorm;
use crate::self_attention::{CausalSelfAttention, CausalSelfAttentionForward};
use crate::swiglu::SwiGlu;

/// The sizes of a [`Gpt`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The number of token ids, `vocab` (the tokenizer's `vocab_size()`).
    pub vocab_size: usize,
    /// The width of every token's vector, `d_model`.
    pub d_model: usize,
    /// The number of attention heads `h`; `d_head = d_model / h`, even.
    pub n_heads: usize,
    /// The number of blocks `L`.
    pub n_layers: usize,
    /// The hidden width of each SwiGLU, `d_ff`.
    pub d_ff: usize,
    /// The longest sequence the model is trained on (RoPE needs no table: this is the
    /// length of the training windows, not a limit of the code).
    pub context: usize,
}

impl Config {
    /// The sizes as text, by name, for a checkpoint's metadata.
    pub fn to_metadata(&self) -> Vec<(String, String)> {
        self.sizes()
            .into_iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    /// The sizes read back from a checkpoint's metadata (`get(name)`), or what is missing
    /// or wrong.
    pub fn from_metadata(get: impl Fn(&str) -> Option<String>) -> Result<Config, String> {
        let size = |name: &str| {
            get(name)
                .and_then(|v| v.parse::<usize>().ok())
                .ok_or_else(|| format!("its metadata has no size `{name}`"))
        };
        let config = Config {
            vocab_size: size("vocab_size")?,
            d_model: size("d_model")?,
            n_heads: size("n_heads")?,
            n_layers: size("n_layers")?,
            d_ff: size("d_ff")?,
            context: size("context")?,
        };
        let (d, h) = (config.d_model, config.n_heads);
        if h == 0 || !d.is_multiple_of(h) || !(d / h).is_multiple_of(2) {
            return Err(format!(
                "n_heads = {h} does not divide d_model = {d} into heads of even width"
            ));
        }
        Ok(config)
    }

    fn sizes(&self) -> [(&'static str, usize); 6] {
        [
            ("vocab_size", self.vocab_size),
            ("d_model", self.d_model),
            ("n_heads", self.n_heads),
            ("n_layers", self.n_layers),
            ("d_ff", self.d_ff),
            ("context", self.context),
        ]
    }
}

/// `N(0, std²)` entries, `(rows, cols)`.
fn normal(rows: usize, cols: usize, std: Float, rng: &mut ChaCha8Rng) -> Matrix {
    Matrix::from_shape_fn((rows, cols), |_| std * standard_normal(rng)) // (rows, cols)
}

/// The standard deviation of every initial weight (GPT-2's).
const INIT_STD: Float = 0.02;

// ANCHOR: block
/// A pre-norm block: each sublayer reads a normalised copy of the stream and adds its
/// output back to the stream itself, so the stream from the embedding to the head is
/// never normalised in place (lesson 05's pre-LN, with RMSNorm).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The RMSNorm before the attention.
    pub norm_1: RmsNorm,
    /// Causal self-attention with RoPE.
    pub attention: CausalSelfAttention,
    /// The RMSNorm before the feed-forward.
    pub norm_2: RmsNorm,
    /// The SwiGLU feed-forward.
    pub feed_forward: SwiGlu,
}
// ANCHOR_END: block

/// What [`Block::forward`] computes on the way, kept for the backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockForward {
    /// `a = RMSNorm_1(x)`, `(n, d_model)`: the attention's input.
    pub normed_1: Matrix,
    /// The attention's forward pass on `a`.
    pub attention: CausalSelfAttentionForward,
    /// `h = x + Attention(a)`, `(n, d_model)`: the stream between the two sublayers.
    pub residual: Matrix,
    /// `b = RMSNorm_2(h)`, `(n, d_model)`: the feed-forward's input.
    pub normed_2: Matrix,
    /// `y = h + SwiGLU(b)`, `(n, d_model)`.
    pub output: Matrix,
}

/// Gradients of a loss through a [`Block`].
#[derive(Debug, Clone, PartialEq)]
pub struct BlockGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂` every parameter, as a block of the same shape (each field the gradient
    /// of the same field).
    pub params: Block,
}

impl Block {
    /// A block of `config`'s sizes: gains 1, weights `N(0, 0.02²)`, and the two
    /// projections that write into the stream (`W_o` and `W_down`) scaled down by
    /// `√(2·n_layers)`, so that the stream's size does not grow with depth (GPT-2).
    pub fn new(config: &Config, rng: &mut ChaCha8Rng) -> Self {
        let (d, d_ff) = (config.d_model, config.d_ff);
        let out_std = INIT_STD / (2.0 * config.n_layers as Float).sqrt();
        let w_q = normal(d, d, INIT_STD, rng);
        let w_k = normal(d, d, INIT_STD, rng);
        let w_v = normal(d, d, INIT_STD, rng);
        let w_o = normal(d, d, out_std, rng);
        let w_gate = normal(d_ff, d, INIT_STD, rng);
        let w_up = normal(d_ff, d, INIT_STD, rng);
        let w_down = normal(d, d_ff, out_std, rng);
        Self {
            norm_1: RmsNorm::new(d),
            attention: CausalSelfAttention::new(config.n_heads, w_q, w_k, w_v, w_o),
            norm_2: RmsNorm::new(d),
            feed_forward: SwiGlu::new(w_gate, w_up, w_down),
        }
    }

    // ANCHOR: block_forward
    /// The forward pass over a whole sequence `x`, `(n, d_model)`:
    ///
    /// ```text
    /// a = RMSNorm_1(x)      h = x + Attention(a)
    /// b = RMSNorm_2(h)      y = h + SwiGLU(b)
    /// ```
    ///
    /// Pre-norm: the residual adds to `x` and `h`, not to their normalised copies, and
    /// nothing normalises `y`.
    pub fn forward(&self, x: &Matrix) -> BlockForward {
        // TODO: norm_1, the attention's forward (its `.output`), the first residual; then
        //       norm_2, the feed-forward's forward (its `.output`), the second residual.
        todo!("Block::forward")
    }
    // ANCHOR_END: block_forward

    // ANCHOR: block_backward
    /// The backward pass, from the forward's input `x`, its record `f` and the upstream
    /// gradient `d_y`, `(n, d_model)`. A residual passes its gradient on unchanged and
    /// adds the sublayer's:
    ///
    /// ```text
    /// d_h = d_y + RMSNorm_2.backward(h, SwiGLU.backward(b, d_y).d_x).d_x
    /// d_x = d_h + RMSNorm_1.backward(x, Attention.backward(a, d_h).d_x).d_x
    /// ```
    ///
    /// and every parameter's gradient from the sublayer backward that owns it.
    pub fn backward(&self, x: &Matrix, f: &BlockForward, d_y: &Matrix) -> BlockGrads {
        // TODO: the feed-forward's backward at b (f.normed_2), then norm_2's at h
        //       (f.residual), d_h; the attention's backward at a (f.normed_1), then
        //       norm_1's at x, d_x. Gather the parameters' gradients into a Block.
        todo!("Block::backward")
    }
    // ANCHOR_END: block_backward
}

// ANCHOR: gpt
/// A decoder-only language model: the embedding, `L` pre-norm blocks, the last RMSNorm;
/// the output head is the embedding's transpose (tied weights, as GPT-2's).
#[derive(Debug, Clone, PartialEq)]
pub struct Gpt {
    /// The sizes.
    pub config: Config,
    /// The token embedding `E`, `(vocab, d_model)`: row `t` is token `t`'s vector, and
    /// the logits are `RMSNorm_f(x_L) Eᵀ`.
    pub embedding: Matrix,
    /// The blocks, first to last.
    pub blocks: Vec<Block>,
    /// The RMSNorm before the head.
    pub norm_final: RmsNorm,
}
// ANCHOR_END: gpt

/// What [`Gpt::forward`] computes on the way, kept for the backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct GptForward {
    /// The stream before each block and after the last: `x_0 = E[tokens]`, …, `x_L`,
    /// `L + 1` matrices `(n, d_model)`.
    pub stream: Vec<Matrix>,
    /// Each block's forward record.
    pub blocks: Vec<BlockForward>,
    /// `RMSNorm_f(x_L)`, `(n, d_model)`.
    pub normed: Matrix,
    /// `normed Eᵀ`, `(n, vocab)`: row `t` scores every token as the one after
    /// `tokens[t]`.
    pub logits: Matrix,
}

/// Generates the walk over every learned tensor in a fixed order (`$as_slice` is
/// `as_slice` or `as_slice_mut`); the names are the fields' paths, as a PyTorch
/// module's `state_dict` names its tensors.
macro_rules! parameter_walk {
    ($model:expr, $as_slice:ident $(, $mut:tt)?) => {{
        type List<'a> = Vec<(String, &'a $($mut)? [Float])>;
        fn tensor<'a, D: Dimension>(
            list: &mut List<'a>,
            name: String,
            tensor: &'a $($mut)? Array<Float, D>,
        ) {
            match tensor.$as_slice() {
                Some(flat) => list.push((name, flat)),
                None => panic!(
                    "parameter {name} is not stored row by row: call `standardise()` on the \
                     model (or gradient) first"
                ),
            }
        }
        let model = $model;
        let mut list = List::new();
        tensor(&mut list, "embedding.weight".into(), &$($mut)? model.embedding);
        for (i, block) in (&$($mut)? model.blocks).into_iter().enumerate() {
            let at = |field: &str| format!("blocks.{i}.{field}.weight");
            tensor(&mut list, at("norm_1"), &$($mut)? block.norm_1.gain);
            tensor(&mut list, at("attention.w_q"), &$($mut)? block.attention.w_q);
            tensor(&mut list, at("attention.w_k"), &$($mut)? block.attention.w_k);
            tensor(&mut list, at("attention.w_v"), &$($mut)? block.attention.w_v);
            tensor(&mut list, at("attention.w_o"), &$($mut)? block.attention.w_o);
            tensor(&mut list, at("norm_2"), &$($mut)? block.norm_2.gain);
            tensor(&mut list, at("feed_forward.w_gate"), &$($mut)? block.feed_forward.w_gate);
            tensor(&mut list, at("feed_forward.w_up"), &$($mut)? block.feed_forward.w_up);
            tensor(&mut list, at("feed_forward.w_down"), &$($mut)? block.feed_forward.w_down);
        }
        tensor(&mut list, "norm_final.weight".into(), &$($mut)? model.norm_final.gain);
        list
    }};
}

impl Gpt {
    /// A fresh model of `config`'s sizes from the seed `seed`: the embedding and every
    /// weight `N(0, 0.02²)` (the blocks' as [`Block::new`] says), every gain 1.
    pub fn new(config: Config, seed: u64) -> Self {
        let mut rng = seeded_rng(seed);
        let embedding = normal(config.vocab_size, config.d_model, INIT_STD, &mut rng);
        let blocks = (0..config.n_layers)
            .map(|_| Block::new(&config, &mut rng))
            .collect();
        Self {
            config,
            embedding,
            blocks,
            norm_final: RmsNorm::new(config.d_model),
        }
    }

    /// Every learned tensor with its name, in a fixed order: `embedding.weight`, then
    /// each block's `blocks.i.norm_1.weight`, `blocks.i.attention.w_q.weight` (and
    /// `w_k`, `w_v`, `w_o`), `blocks.i.norm_2.weight`,
    /// `blocks.i.feed_forward.w_gate.weight` (and `w_up`, `w_down`), then
    /// `norm_final.weight`: the names a PyTorch module of the same fields gives them.
    pub fn named_parameters(&self) -> Vec<(String, &[Float])> {
        parameter_walk!(self, as_slice)
    }

    /// The same named tensors, in the same order, to change them in place.
    pub fn named_parameters_mut(&mut self) -> Vec<(String, &mut [Float])> {
        parameter_walk!(self, as_slice_mut, mut)
    }

    /// Every learned tensor, flattened, in the order of [`Gpt::named_parameters`].
    pub fn parameters(&self) -> Vec<&[Float]> {
        self.named_parameters()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    }

    /// The same tensors, in the same order, to change them in place.
    pub fn parameters_mut(&mut self) -> Vec<&mut [Float]> {
        self.named_parameters_mut()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    }

    /// Which tensors AdamW decays, in the order of [`Gpt::parameters`]: the matrices
    /// (the embedding included), not the gains (decaying a gain pulls it to 0, not to
    /// "no change", which is 1).
    pub fn decays(&self) -> Vec<bool> {
        self.named_parameters()
            .iter()
            .map(|(name, _)| !name.contains("norm"))
            .collect()
    }

    /// Every learned tensor as (name, shape, numbers row by row), in the order of
    /// [`Gpt::named_parameters`]: what a checkpoint saves.
    pub fn shaped_parameters(&self) -> Vec<(String, Vec<usize>, Vec<Float>)> {
        let mut model = self.clone();
        model.standardise();
        let shapes = model.shapes();
        model
            .named_parameters()
            .into_iter()
            .zip(shapes)
            .map(|((name, values), shape)| (name, shape, values.to_vec()))
            .collect()
    }

    /// A model of `config`'s sizes whose every tensor is `tensor(name)` (its shape and
    /// numbers), or what is missing or of the wrong shape.
    pub fn from_parameters(
        config: Config,
        tensor: impl Fn(&str) -> Option<(Vec<usize>, Vec<Float>)>,
    ) -> Result<Gpt, String> {
        let mut model = Gpt::new(config, 0);
        let shapes = model.shapes();
        for ((name, values), shape) in
            model.named_parameters_mut().into_iter().zip(shapes)
        {
            let (got_shape, numbers) =
                tensor(&name).ok_or_else(|| format!("it has no tensor `{name}`"))?;
            if got_shape != shape || numbers.len() != values.len() {
                return Err(format!(
                    "`{name}` has the shape {got_shape:?}; the model needs {shape:?}"
                ));
            }
            values.copy_from_slice(&numbers);
        }
        Ok(model)
    }

    /// The shape of every tensor, in the order of [`Gpt::named_parameters`].
    fn shapes(&self) -> Vec<Vec<usize>> {
        let mut shapes = vec![self.embedding.shape().to_vec()];
        for b in &self.blocks {
            shapes.push(b.norm_1.gain.shape().to_vec());
            for w in [
                &b.attention.w_q,
                &b.attention.w_k,
                &b.attention.w_v,
                &b.attention.w_o,
            ] {
                shapes.push(w.shape().to_vec());
            }
            shapes.push(b.norm_2.gain.shape().to_vec());
            for w in [
                &b.feed_forward.w_gate,
                &b.feed_forward.w_up,
                &b.feed_forward.w_down,
            ] {
                shapes.push(w.shape().to_vec());
            }
        }
        shapes.push(self.norm_final.gain.shape().to_vec());
        shapes
    }

    /// The number of learned numbers (the tied head counts once).
    pub fn parameter_count(&self) -> usize {
        self.parameters().iter().map(|p| p.len()).sum()
    }

    /// A model of the same shape with every parameter 0: where gradients are summed.
    pub fn zeros_like(&self) -> Self {
        let mut zeros = self.clone();
        for tensor in zeros.parameters_mut() {
            tensor.fill(0.0);
        }
        zeros
    }

    // ANCHOR: gpt_forward
    /// The forward pass over `tokens` (`n` ids, each below `vocab_size`):
    ///
    /// ```text
    /// x_0 = E[tokens]           row t is row tokens[t] of the embedding   (n, d_model)
    /// x_{l+1} = block_l(x_l).output                                       (n, d_model)
    /// normed = RMSNorm_f(x_L)                                             (n, d_model)
    /// logits = normed Eᵀ        the head is the embedding, tied           (n, vocab)
    /// ```
    ///
    /// Every stream `x_0 … x_L` and block record is kept. Panics on an id outside the
    /// vocabulary.
    pub fn forward(&self, tokens: &[usize]) -> GptForward {
        // TODO: look up the rows of the embedding (`self.embedding.select(Axis(0), tokens)`),
        //       run the blocks in order keeping each input and record, the final norm,
        //       then the tied head `normed.dot(&self.embedding.t())`.
        todo!("Gpt::forward")
    }
    // ANCHOR_END: gpt_forward

    // ANCHOR: gpt_backward
    /// The gradient of every parameter, from the forward's `tokens`, its record `f` and
    /// `d_logits = ∂L/∂logits`, `(n, vocab)`, as a model of the same shape:
    ///
    /// ```text
    /// d_normed = d_logits E                  dE  = d_logitsᵀ normed      (the head)
    /// d_x_L = RMSNorm_f.backward(x_L, d_normed).d_x
    /// d_x_l = block_l.backward(x_l, f_l, d_x_{l+1}).d_x, from the last block down
    /// dE[tokens[t]] += d_x_0[t]              for every t                 (the lookup)
    /// ```
    ///
    /// `E` is used twice, so its gradient is the sum of both uses; a token that occurs
    /// twice adds both rows.
    pub fn backward(&self, tokens: &[usize], f: &GptForward, d_logits: &Matrix) -> Gpt {
        // TODO: the head's two gradients; the final norm's backward; the blocks'
        //       backward in reverse, keeping each block's parameter gradients; then add
        //       each row of d_x_0 into the row of its token.
        todo!("Gpt::backward")
    }
    // ANCHOR_END: gpt_backward

    /// Stores every tensor row by row (a product with a transpose, such as `dYᵀ x`, may
    /// come out column by column), so that [`Gpt::parameters`] can view each as one
    /// slice.
    pub fn standardise(&mut self) {
        fn fix<D: Dimension>(tensor: &mut Array<Float, D>) {
            if !tensor.is_standard_layout() {
                *tensor = tensor.as_standard_layout().into_owned();
            }
        }
        fix(&mut self.embedding);
        for block in &mut self.blocks {
            fix(&mut block.norm_1.gain);
            fix(&mut block.norm_2.gain);
            for w in [
                &mut block.attention.w_q,
                &mut block.attention.w_k,
                &mut block.attention.w_v,
                &mut block.attention.w_o,
                &mut block.feed_forward.w_gate,
                &mut block.feed_forward.w_up,
                &mut block.feed_forward.w_down,
            ] {
                fix(w);
            }
        }
        fix(&mut self.norm_final.gain);
    }

    /// The logits of `tokens`, `(n, vocab)`: [`Gpt::forward`]'s last matrix.
    pub fn logits(&self, tokens: &[usize]) -> Matrix {
        self.forward(tokens).logits
    }

    /// The next-token loss of a window of `n + 1` ids (the model reads the first `n`
    /// and is scored on the last `n`) and the gradient of every parameter.
    pub fn loss_and_gradient(&self, window: &[usize]) -> (Loss, Gpt) {
        assert!(
            window.len() >= 2,
            "a window needs at least two tokens: one to read, one to predict"
        );
        let (inputs, targets) = (&window[..window.len() - 1], &window[1..]);
        let f = self.forward(inputs);
        let loss = next_token_loss(&f.logits, targets);
        let mut grads = self.backward(inputs, &f, &loss.d_logits);
        grads.standardise();
        (loss, grads)
    }
}

// ANCHOR: next_token_loss
/// The mean cross-entropy of the next token: row `t` of `logits`, `(n, vocab)`, scores
/// every id as the one that follows position `t`, and `targets[t]` is the one that did.
///
/// ```text
/// value    = −(1/n) Σ_t log softmax(logits_t)[targets[t]]       in nats
/// d_logits = (softmax(logits) − onehot(targets)) / n            (n, vocab)
/// ```
///
/// Use lesson 06's `log_softmax_rows` (stable). No id is padding here: every row
/// counts. `tokens` is `Loss::tokens`, `n`. Panics unless there is one target per row,
/// each below `vocab`.
pub fn next_token_loss(logits: &Matrix, targets: &[usize]) -> Loss {
    // TODO: log p = log_softmax_rows(logits); the value is minus the mean of
    //       log p[t, targets[t]]; the gradient is (exp(log p) − onehot)/n.
    todo!("next_token_loss")
}
// ANCHOR_END: next_token_loss

/// Adds `grads` (a model of the same shape) into `into`, tensor by tensor.
pub fn add_gradients(into: &mut Gpt, grads: &Gpt) {
    for (sum, g) in into.parameters_mut().into_iter().zip(grads.parameters()) {
        for (s, v) in sum.iter_mut().zip(g) {
            *s += v;
        }
    }
}

/// `(vocab,)` logits of one position as a vector (a row of [`GptForward::logits`]).
pub fn last_row(logits: &Matrix) -> Vector {
    logits.row(logits.nrows() - 1).to_owned()
}
