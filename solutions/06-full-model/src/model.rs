//! The model: initialisation, masks, the stacks, forward and backward.
//!
//! The whole Transformer: embeddings, the encoder and decoder stacks of lesson 05's
//! layers, the output projection, the masks, and the backward pass through all of it.
//!
//! ```text
//! memory = Encoder(√d·E_src[src] + PE)              one (S, d_model) matrix per source
//! h      = Decoder(√d·E_tgt[tgt_in] + PE, memory)   one (T, d_model) matrix per target
//! logits = h W_outᵀ + b_out                         (B·T, vocab), every sequence stacked
//! ```
//!
//! Lesson 05's layers attend over one sequence at a time, so the stacks loop over the
//! batch; the output projection and the loss take every position of every sequence at
//! once, stacked into one matrix. Book: chapter 06, "The whole architecture".
//!
//! The model's learned tensors are listed once, in `parameter_walk!`:
//! [`Transformer::named_parameters`], [`Transformer::parameters`] and their `_mut`
//! twins are that list, and the count, the zeroing and the optimiser read it.

use crate::data::{Batch, PAD};
use crate::{
    ChaCha8Rng, DecoderLayer, DecoderLayerForward, Embedding, EncoderLayer,
    EncoderLayerForward, FeedForward, LayerNorm, Linear, LinearGrads, Mask,
    MultiHeadAttention, NormPosition, causal_mask, padding_mask, sinusoidal_table,
};
use course_common::ndarray::{Array, Axis, Dimension, concatenate, s};
use course_common::{Float, Matrix, Vector};
use encoder_layer::{
    DecoderLayerGrads, EncoderLayerGrads, FeedForwardGrads, LayerNormGrads,
    MultiHeadGrads,
};
use positional_encoding::embed_with_positions;
use rand::{RngExt, SeedableRng};

/// The shape of a Transformer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The number of tokens, shared by the source and the target.
    pub vocab_size: usize,
    /// The width of every token's vector, `d_model`.
    pub d_model: usize,
    /// The number of attention heads; it divides `d_model`.
    pub n_heads: usize,
    /// The inner width of the feed-forward networks, `d_ff`.
    pub d_ff: usize,
    /// The number of layers of the encoder, and of the decoder (the paper's `N`).
    pub n_layers: usize,
    /// The longest sequence the positional table covers.
    pub max_len: usize,
    /// Post-LN (the paper's, the default) or pre-LN.
    pub norm_position: NormPosition,
}

impl Config {
    /// The model of the date experiment: `d_model` 32, 2 heads, `d_ff` 64, one
    /// encoder and one decoder layer, post-LN, the 44 tokens of the date
    /// vocabulary.
    pub fn dates() -> Self {
        Self {
            vocab_size: 44,
            d_model: 32,
            n_heads: 2,
            d_ff: 64,
            n_layers: 1,
            max_len: 64,
            norm_position: NormPosition::Post,
        }
    }
}

/// A named, seeded random generator: ChaCha8's stream is the same on every machine
/// and in every version of the crate (unlike `StdRng`'s).
pub fn seeded_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// One draw from the standard normal distribution, by the Box–Muller transform.
pub fn standard_normal(rng: &mut ChaCha8Rng) -> Float {
    // 1 − u is in (0, 1], so its logarithm is finite.
    let u: Float = 1.0 - rng.random::<Float>();
    let v: Float = rng.random::<Float>();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

// ANCHOR: xavier_uniform
/// A weight matrix drawn from Xavier's (Glorot's) uniform distribution: `U(−a, a)`
/// with `a = √(6 / (fan_in + fan_out))`, where `fan_out = rows` and `fan_in = cols`
/// (the weight is `(d_out, d_in)`).
///
/// The variance `a²/3 = 2 / (fan_in + fan_out)` keeps activations and gradients of
/// about the same size from layer to layer; PyTorch's `nn.Transformer` and the
/// Annotated Transformer initialise every matrix this way. Draw the entries row by
/// row with `rng.random_range(-a..a)`. Book: chapter 06, "Initialisation".
pub fn xavier_uniform(rows: usize, cols: usize, rng: &mut ChaCha8Rng) -> Matrix {
    // TODO: a = √(6 / (rows + cols)); draw every entry with
    //       rng.random_range(-a..a).
    // BEGIN SOLUTION: todo!("xavier_uniform")
    let a = (6.0 / (rows + cols) as Float).sqrt();
    Matrix::from_shape_fn((rows, cols), |_| rng.random_range(-a..a)) // (rows, cols)
    // END SOLUTION
}
// ANCHOR_END: xavier_uniform

// ANCHOR: embedding_init
/// An embedding table `(vocab, d_model)` of normal entries with mean 0 and standard
/// deviation `1/√d_model`.
///
/// Lesson 04's `Embedding` multiplies every row by `√d_model`, so the vectors the
/// first layer sees have entries of standard deviation 1, the size of the
/// positional encoding's. With PyTorch's default `N(0, 1)` they would be `√d_model`
/// times larger and drown the positions. Use [`standard_normal`]. Book: chapter 06,
/// "Initialisation".
pub fn embedding_init(vocab: usize, d_model: usize, rng: &mut ChaCha8Rng) -> Matrix {
    // TODO: every entry is standard_normal(rng) / √d_model.
    // BEGIN SOLUTION: todo!("embedding_init")
    let std = 1.0 / (d_model as Float).sqrt();
    Matrix::from_shape_fn((vocab, d_model), |_| std * standard_normal(rng)) // (vocab, d_model)
    // END SOLUTION
}
// ANCHOR_END: embedding_init

// ANCHOR: key_padding_mask
/// Which keys every query may attend to when the keys are the tokens `keys`: all
/// but the padding.
///
/// `mask[[i, j]] = keys[j] != PAD` for each of the `n_queries` rows; lesson 02's
/// `padding_mask` does the work. The encoder's self-attention uses
/// `key_padding_mask(S, src)` and the decoder's cross-attention
/// `key_padding_mask(T, src)`. Shape `(n_queries, keys.len())`. Book: chapter 06,
/// "Masks".
pub fn key_padding_mask(n_queries: usize, keys: &[usize]) -> Mask {
    // TODO: which keys are tokens (not PAD)? Then lesson 02's padding_mask.
    // BEGIN SOLUTION: todo!("key_padding_mask")
    let is_token: Vec<bool> = keys.iter().map(|&t| t != PAD).collect();
    padding_mask(n_queries, &is_token) // (n_queries, n_keys)
    // END SOLUTION
}
// ANCHOR_END: key_padding_mask

// ANCHOR: target_mask
/// The mask of the decoder's self-attention over its input `tgt_in`: position `i`
/// may look at position `j` when `j <= i` (no peeking at the future) and
/// `tgt_in[j]` is not padding.
///
/// Lesson 02's `causal_mask` and this lesson's [`key_padding_mask`], combined with
/// `&`. Shape `(T, T)`. Book: chapter 06, "Masks".
pub fn target_mask(tgt_in: &[usize]) -> Mask {
    // TODO: lesson 02's causal_mask(T), combined with & and key_padding_mask(T,
    //       tgt_in).
    // BEGIN SOLUTION: todo!("target_mask")
    let n = tgt_in.len();
    &causal_mask(n) & &key_padding_mask(n, tgt_in) // (T, T)
    // END SOLUTION
}
// ANCHOR_END: target_mask

/// The encoder-decoder Transformer of the paper.
///
/// Every learned number is in a public field; [`Transformer::parameters`] lists
/// them in a fixed order. The gradient of a loss has the same shape as the model,
/// so it is a `Transformer` too: [`Transformer::backward`] returns one whose every
/// parameter holds `∂L/∂(that parameter)`. Book: chapter 06, "The whole
/// architecture".
#[derive(Debug, Clone, PartialEq)]
pub struct Transformer {
    /// The shape of the model.
    pub config: Config,
    /// The source tokens' embedding, `(vocab, d_model)`.
    pub src_embedding: Embedding,
    /// The target tokens' embedding, `(vocab, d_model)`.
    pub tgt_embedding: Embedding,
    /// The encoder stack, `n_layers` layers.
    pub encoder: Vec<EncoderLayer>,
    /// The decoder stack, `n_layers` layers.
    pub decoder: Vec<DecoderLayer>,
    /// The output projection to the vocabulary, `(vocab, d_model)`: the logits.
    pub output: Linear,
    /// The sinusoidal positional table, `(max_len, d_model)`: a constant, not
    /// learned.
    pub positions: Matrix,
}

/// The model's parameter tree, written once: every learned tensor of `$model`, with its
/// name, in the order [`Transformer::parameters`] documents.
///
/// `parameter_walk!(self, as_slice)` walks a `&Transformer` and gives
/// `Vec<(String, &[Float])>`; `parameter_walk!(self, as_slice_mut, mut)` walks a
/// `&mut Transformer` and gives `Vec<(String, &mut [Float])>`. Below, `&$($mut)?` is `&`
/// in the first walk and `&mut` in the second, so both come from this one list: a new
/// parameter is one edit, here, and every walk of the parameters (the lists, the count,
/// the zeroing, Adam's state) follows.
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
                None => panic!("parameter {name} is not in standard (row-major) layout"),
            }
        }
        fn embedding<'a>(
            list: &mut List<'a>,
            name: String,
            embedding: &'a $($mut)? Embedding,
        ) {
            tensor(list, format!("{name}.weight"), &$($mut)? embedding.weight);
        }
        fn linear<'a>(list: &mut List<'a>, name: String, linear: &'a $($mut)? Linear) {
            tensor(list, format!("{name}.weight"), &$($mut)? linear.weight);
            tensor(list, format!("{name}.bias"), &$($mut)? linear.bias);
        }
        fn attention<'a>(
            list: &mut List<'a>,
            name: String,
            attention: &'a $($mut)? MultiHeadAttention,
        ) {
            linear(list, format!("{name}.w_q"), &$($mut)? attention.w_q);
            linear(list, format!("{name}.w_k"), &$($mut)? attention.w_k);
            linear(list, format!("{name}.w_v"), &$($mut)? attention.w_v);
            linear(list, format!("{name}.w_o"), &$($mut)? attention.w_o);
        }
        fn norm<'a>(list: &mut List<'a>, name: String, norm: &'a $($mut)? LayerNorm) {
            tensor(list, format!("{name}.gamma"), &$($mut)? norm.gamma);
            tensor(list, format!("{name}.beta"), &$($mut)? norm.beta);
        }

        let model = $model;
        let mut list = List::new();
        embedding(&mut list, "src_embedding".into(), &$($mut)? model.src_embedding);
        embedding(&mut list, "tgt_embedding".into(), &$($mut)? model.tgt_embedding);
        for (i, layer) in (&$($mut)? model.encoder).into_iter().enumerate() {
            let at = |field: &str| format!("encoder.{i}.{field}");
            attention(&mut list, at("self_attention"), &$($mut)? layer.self_attention);
            linear(&mut list, at("ffn.w_1"), &$($mut)? layer.ffn.w_1);
            linear(&mut list, at("ffn.w_2"), &$($mut)? layer.ffn.w_2);
            norm(&mut list, at("norm_1"), &$($mut)? layer.norm_1);
            norm(&mut list, at("norm_2"), &$($mut)? layer.norm_2);
        }
        for (i, layer) in (&$($mut)? model.decoder).into_iter().enumerate() {
            let at = |field: &str| format!("decoder.{i}.{field}");
            attention(&mut list, at("self_attention"), &$($mut)? layer.self_attention);
            attention(&mut list, at("cross_attention"), &$($mut)? layer.cross_attention);
            linear(&mut list, at("ffn.w_1"), &$($mut)? layer.ffn.w_1);
            linear(&mut list, at("ffn.w_2"), &$($mut)? layer.ffn.w_2);
            norm(&mut list, at("norm_1"), &$($mut)? layer.norm_1);
            norm(&mut list, at("norm_2"), &$($mut)? layer.norm_2);
            norm(&mut list, at("norm_3"), &$($mut)? layer.norm_3);
        }
        linear(&mut list, "output".into(), &$($mut)? model.output);
        list
    }};
}

impl Transformer {
    /// A freshly initialised model: embeddings from [`embedding_init`], every
    /// weight matrix from [`xavier_uniform`], biases 0, LayerNorms `γ = 1`,
    /// `β = 0`. The draws come from `ChaCha8Rng::seed_from_u64(seed)`, so a seed
    /// gives the same model on every machine.
    pub fn new(config: Config, seed: u64) -> Self {
        let mut rng = seeded_rng(seed);
        let rng = std::cell::RefCell::new(&mut rng);
        Self::build(
            config,
            &mut |rows, cols| embedding_init(rows, cols, &mut rng.borrow_mut()),
            &mut |rows, cols| xavier_uniform(rows, cols, &mut rng.borrow_mut()),
        )
    }

    /// A model of the given shape whose every parameter is 0 (LayerNorm gains
    /// included): what a gradient is summed into, or a blank to fill by hand.
    pub fn zeros(config: Config) -> Self {
        let mut model = Self::build(
            config,
            &mut |rows, cols| Matrix::zeros((rows, cols)),
            &mut |rows, cols| Matrix::zeros((rows, cols)),
        );
        for tensor in model.parameters_mut() {
            tensor.fill(0.0);
        }
        model
    }

    /// The model's structure, with embeddings and weight matrices from the two
    /// closures (each called with `(rows, cols)`, in a fixed order), zero biases
    /// and fresh LayerNorms.
    fn build(
        config: Config,
        embedding: &mut dyn FnMut(usize, usize) -> Matrix,
        weight: &mut dyn FnMut(usize, usize) -> Matrix,
    ) -> Self {
        let (v, d, d_ff) = (config.vocab_size, config.d_model, config.d_ff);
        let mut linear = |d_out: usize, d_in: usize| {
            Linear::new(weight(d_out, d_in), Vector::zeros(d_out))
        };
        let src_embedding = Embedding::new(embedding(v, d));
        let tgt_embedding = Embedding::new(embedding(v, d));
        let attention = |linear: &mut dyn FnMut(usize, usize) -> Linear| {
            MultiHeadAttention::new(
                config.n_heads,
                linear(d, d),
                linear(d, d),
                linear(d, d),
                linear(d, d),
            )
        };
        let mut encoder = Vec::new();
        for _ in 0..config.n_layers {
            encoder.push(EncoderLayer::new(
                attention(&mut linear),
                FeedForward::new(linear(d_ff, d), linear(d, d_ff)),
                LayerNorm::new(d),
                LayerNorm::new(d),
                config.norm_position,
            ));
        }
        let mut decoder = Vec::new();
        for _ in 0..config.n_layers {
            decoder.push(DecoderLayer::new(
                attention(&mut linear),
                attention(&mut linear),
                FeedForward::new(linear(d_ff, d), linear(d, d_ff)),
                LayerNorm::new(d),
                LayerNorm::new(d),
                LayerNorm::new(d),
                config.norm_position,
            ));
        }
        let output = linear(v, d);
        Self {
            config,
            src_embedding,
            tgt_embedding,
            encoder,
            decoder,
            output,
            positions: sinusoidal_table(config.max_len, d),
        }
    }

    /// Every learned tensor, flattened, in a fixed order:
    ///
    /// 1. `src_embedding`, `tgt_embedding`;
    /// 2. each encoder layer: its self-attention's `w_q`, `w_k`, `w_v`, `w_o` (each
    ///    weight then bias), its FFN's `w_1`, `w_2` (weight, bias), `norm_1`,
    ///    `norm_2` (`γ`, `β`);
    /// 3. each decoder layer: self-attention, cross-attention, FFN, `norm_1` to
    ///    `norm_3`, in the same way;
    /// 4. `output` (weight, bias).
    ///
    /// The positional table is not in the list: it is not learned. The list is
    /// [`Transformer::named_parameters`] without the names.
    pub fn parameters(&self) -> Vec<&[Float]> {
        let named = self.named_parameters();
        named.into_iter().map(|(_, tensor)| tensor).collect()
    }

    /// The same tensors as [`Transformer::parameters`], in the same order, to
    /// change them in place (the optimiser does).
    pub fn parameters_mut(&mut self) -> Vec<&mut [Float]> {
        let named = self.named_parameters_mut();
        named.into_iter().map(|(_, tensor)| tensor).collect()
    }

    /// Every learned tensor with its name, the path of its field, in the order of
    /// [`Transformer::parameters`]: `src_embedding.weight`, `tgt_embedding.weight`,
    /// `encoder.0.self_attention.w_q.weight`, `encoder.0.self_attention.w_q.bias`, …,
    /// `decoder.0.norm_3.beta`, `output.weight`, `output.bias`.
    pub fn named_parameters(&self) -> Vec<(String, &[Float])> {
        parameter_walk!(self, as_slice)
    }

    /// The same named tensors as [`Transformer::named_parameters`], in the same
    /// order, to change them in place.
    pub fn named_parameters_mut(&mut self) -> Vec<(String, &mut [Float])> {
        parameter_walk!(self, as_slice_mut, mut)
    }

    /// The number of learned numbers.
    pub fn parameter_count(&self) -> usize {
        self.parameters().iter().map(|p| p.len()).sum()
    }

    /// A model of the same shape with every parameter 0: where a gradient is
    /// summed.
    pub fn zeros_like(&self) -> Self {
        let mut zeros = self.clone();
        for tensor in zeros.parameters_mut() {
            tensor.fill(0.0);
        }
        zeros
    }
}

/// The encoder's forward pass over one source, kept for its backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct EncoderForward {
    /// What the first layer sees, `√d_model · E_src[src] + PE`, `(S, d_model)`.
    pub input: Matrix,
    /// Each layer's forward pass, in order; layer `i`'s input is layer `i − 1`'s
    /// output (`input` for layer 0).
    pub layers: Vec<EncoderLayerForward>,
    /// The last layer's output, the "memory" the decoder reads: `(S, d_model)`.
    pub output: Matrix,
}

/// The decoder's forward pass over one target, kept for its backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderForward {
    /// What the first layer sees, `√d_model · E_tgt[tgt_in] + PE`, `(T, d_model)`.
    pub input: Matrix,
    /// Each layer's forward pass, in order.
    pub layers: Vec<DecoderLayerForward>,
    /// The last layer's output, `(T, d_model)`.
    pub output: Matrix,
}

/// The forward pass of the whole model over a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelForward {
    /// One encoder pass per source, in batch order.
    pub encoder: Vec<EncoderForward>,
    /// One decoder pass per target, in batch order.
    pub decoder: Vec<DecoderForward>,
    /// The decoder's outputs stacked, sequence after sequence: `(B·T, d_model)`.
    /// Row `b·T + t` is position `t` of sequence `b`.
    pub decoder_output: Matrix,
    /// The output projection of every row: `(B·T, vocab)`; row `b·T + t` scores the
    /// token that should follow `tgt_in[b][..=t]`.
    pub logits: Matrix,
}

impl Transformer {
    // ANCHOR: encode
    /// The encoder over one (padded) source `src` of `S` tokens.
    ///
    /// 1. `x = embed_with_positions(&self.src_embedding, src, &self.positions)`
    ///    (lesson 04: `√d_model · E[src] + PE`);
    /// 2. `mask = key_padding_mask(S, src)`, the same for every layer;
    /// 3. each layer in turn: `x = layer.forward(&x, Some(&mask)).output`, keeping
    ///    every layer's forward pass.
    ///
    /// Book: chapter 06, "The encoder and decoder stacks".
    pub fn encode(&self, src: &[usize]) -> EncoderForward {
        // TODO: embed with positions, build the padding mask, run the layers in
        //       turn and keep every layer's forward pass.
        // BEGIN SOLUTION: todo!("Transformer::encode")
        let input = embed_with_positions(&self.src_embedding, src, &self.positions); // (S, d_model)
        let mask = key_padding_mask(src.len(), src); // (S, S)
        let mut x = input.clone();
        let mut layers = Vec::with_capacity(self.encoder.len());
        for layer in &self.encoder {
            let forward = layer.forward(&x, Some(&mask));
            x = forward.output.clone(); // (S, d_model)
            layers.push(forward);
        }
        EncoderForward {
            input,
            layers,
            output: x,
        }
        // END SOLUTION
    }
    // ANCHOR_END: encode

    // ANCHOR: decode
    /// The decoder over one (padded) target input `tgt_in` of `T` tokens, reading
    /// `memory` `(S, d_model)`, the encoder's output for the source `src`.
    ///
    /// Like [`Transformer::encode`] with the target embedding, and each layer
    /// called as `layer.forward(&x, memory, Some(&self_mask), Some(&memory_mask))`
    /// with `self_mask = target_mask(tgt_in)` `(T, T)` and
    /// `memory_mask = key_padding_mask(T, src)` `(T, S)`. Book: chapter 06, "The
    /// encoder and decoder stacks".
    pub fn decode(
        &self,
        tgt_in: &[usize],
        src: &[usize],
        memory: &Matrix,
    ) -> DecoderForward {
        // TODO: as encode, with the target embedding, target_mask for the
        //       self-attention and key_padding_mask(T, src) for the
        //       cross-attention.
        // BEGIN SOLUTION: todo!("Transformer::decode")
        let input = embed_with_positions(&self.tgt_embedding, tgt_in, &self.positions); // (T, d_model)
        let self_mask = target_mask(tgt_in); // (T, T)
        let memory_mask = key_padding_mask(tgt_in.len(), src); // (T, S)
        let mut x = input.clone();
        let mut layers = Vec::with_capacity(self.decoder.len());
        for layer in &self.decoder {
            let forward = layer.forward(&x, memory, Some(&self_mask), Some(&memory_mask));
            x = forward.output.clone(); // (T, d_model)
            layers.push(forward);
        }
        DecoderForward {
            input,
            layers,
            output: x,
        }
        // END SOLUTION
    }
    // ANCHOR_END: decode

    // ANCHOR: forward
    /// The whole model over a batch: for each pair `b`, encode `batch.src[b]` and
    /// decode `batch.tgt_in[b]` against that memory; then stack the `B` decoder
    /// outputs into one `(B·T, d_model)` matrix (`concatenate` along `Axis(0)`) and
    /// project every row at once with `self.output`: the logits, `(B·T, vocab)`.
    /// Book: chapter 06, "The whole architecture".
    pub fn forward(&self, batch: &Batch) -> ModelForward {
        // TODO: encode and decode every pair; stack the decoder outputs
        //       (concatenate along Axis(0)) and project them all at once with
        //       self.output.
        // BEGIN SOLUTION: todo!("Transformer::forward")
        let mut encoder = Vec::with_capacity(batch.len());
        let mut decoder = Vec::with_capacity(batch.len());
        for (src, tgt_in) in batch.src.iter().zip(&batch.tgt_in) {
            let enc = self.encode(src);
            decoder.push(self.decode(tgt_in, src, &enc.output));
            encoder.push(enc);
        }
        let views: Vec<_> = decoder.iter().map(|d| d.output.view()).collect();
        let decoder_output =
            concatenate(Axis(0), &views).expect("every target has the same length"); // (B·T, d_model)
        let logits = self.output.forward(&decoder_output); // (B·T, vocab)
        ModelForward {
            encoder,
            decoder,
            decoder_output,
            logits,
        }
        // END SOLUTION
    }
    // ANCHOR_END: forward

    // ANCHOR: encode_backward
    /// The backward pass of [`Transformer::encode`] for one source: adds the
    /// gradients of the encoder's layers and of the source embedding into `grads`,
    /// given `d_memory` `(S, d_model)`, the gradient of the loss with respect to
    /// the encoder's output.
    ///
    /// Walk the layers backwards: layer `i`'s input was `forward.input` (`i = 0`)
    /// or layer `i − 1`'s output; its `backward` gives the gradient of its input,
    /// which is the upstream gradient of the layer below, and its parameters'
    /// gradients, which [`add_encoder_layer_grads`] adds into `grads.encoder[i]`.
    /// The last `d_x` goes through `self.src_embedding.backward` into
    /// `grads.src_embedding.weight` (the positional table is a constant). Add,
    /// never assign: `grads` sums over the batch. Book: chapter 06, "Backward
    /// through the stacks".
    pub fn encode_backward(
        &self,
        src: &[usize],
        forward: &EncoderForward,
        d_memory: &Matrix,
        grads: &mut Transformer,
    ) {
        // TODO: walk the layers backwards (layer i's input: forward.input or layer
        //       i − 1's output), add each layer's gradients with
        //       add_encoder_layer_grads, and send the last d_x through the source
        //       embedding's backward.
        // BEGIN SOLUTION: todo!("Transformer::encode_backward")
        let mut d_x = d_memory.clone(); // (S, d_model)
        for (i, layer) in self.encoder.iter().enumerate().rev() {
            let input = if i == 0 {
                &forward.input
            } else {
                &forward.layers[i - 1].output
            };
            let layer_grads = layer.backward(input, &forward.layers[i], &d_x);
            add_encoder_layer_grads(&mut grads.encoder[i], &layer_grads);
            d_x = layer_grads.d_x; // (S, d_model)
        }
        grads.src_embedding.weight += &self.src_embedding.backward(src, &d_x); // (vocab, d_model)
        // END SOLUTION
    }
    // ANCHOR_END: encode_backward

    // ANCHOR: decode_backward
    /// The backward pass of [`Transformer::decode`] for one target: adds the
    /// gradients of the decoder's layers and of the target embedding into `grads`,
    /// given `d_output` `(T, d_model)`, and returns the gradient with respect to
    /// `memory` `(S, d_model)`.
    ///
    /// As in [`Transformer::encode_backward`], with [`add_decoder_layer_grads`].
    /// Every layer reads the same memory, so the memory's gradient is the **sum**
    /// of every layer's `d_memory`. Book: chapter 06, "Backward through the
    /// stacks".
    pub fn decode_backward(
        &self,
        tgt_in: &[usize],
        memory: &Matrix,
        forward: &DecoderForward,
        d_output: &Matrix,
        grads: &mut Transformer,
    ) -> Matrix {
        // TODO: as encode_backward, with add_decoder_layer_grads; the memory's
        //       gradient is the sum of every layer's d_memory.
        // BEGIN SOLUTION: todo!("Transformer::decode_backward")
        let mut d_x = d_output.clone(); // (T, d_model)
        let mut d_memory = Matrix::zeros(memory.dim()); // (S, d_model)
        for (i, layer) in self.decoder.iter().enumerate().rev() {
            let input = if i == 0 {
                &forward.input
            } else {
                &forward.layers[i - 1].output
            };
            let layer_grads = layer.backward(input, memory, &forward.layers[i], &d_x);
            add_decoder_layer_grads(&mut grads.decoder[i], &layer_grads);
            d_memory += &layer_grads.d_memory;
            d_x = layer_grads.d_x; // (T, d_model)
        }
        grads.tgt_embedding.weight += &self.tgt_embedding.backward(tgt_in, &d_x); // (vocab, d_model)
        d_memory
        // END SOLUTION
    }
    // ANCHOR_END: decode_backward

    // ANCHOR: backward
    /// The backward pass of [`Transformer::forward`]: the gradient of the loss with
    /// respect to every parameter, given `d_logits` `(B·T, vocab)`.
    ///
    /// 1. `grads = self.zeros_like()`;
    /// 2. the output projection:
    ///    `self.output.backward(&forward.decoder_output, d_logits)` gives its
    ///    weight and bias gradients (add them into `grads.output` with
    ///    [`add_linear_grads`]) and the gradient of the stacked decoder outputs;
    /// 3. for each pair `b`: rows `b·T .. (b+1)·T` of that gradient go back through
    ///    the decoder ([`Transformer::decode_backward`]), whose `d_memory` goes
    ///    back through the encoder ([`Transformer::encode_backward`]).
    ///
    /// Book: chapter 06, "Backward through the stacks".
    pub fn backward(
        &self,
        batch: &Batch,
        forward: &ModelForward,
        d_logits: &Matrix,
    ) -> Transformer {
        // TODO: zeros_like(); the output projection's backward (add_linear_grads);
        //       then, pair by pair, its rows of d_x through decode_backward, and
        //       the d_memory that comes back through encode_backward.
        // BEGIN SOLUTION: todo!("Transformer::backward")
        let mut grads = self.zeros_like();
        let output = self.output.backward(&forward.decoder_output, d_logits);
        add_linear_grads(&mut grads.output, &output);
        let t = batch.target_len();
        for b in 0..batch.len() {
            let d_output = output.d_x.slice(s![b * t..(b + 1) * t, ..]).to_owned(); // (T, d_model)
            let encoder = &forward.encoder[b];
            let d_memory = self.decode_backward(
                &batch.tgt_in[b],
                &encoder.output,
                &forward.decoder[b],
                &d_output,
                &mut grads,
            );
            self.encode_backward(&batch.src[b], encoder, &d_memory, &mut grads);
        }
        grads
        // END SOLUTION
    }
    // ANCHOR_END: backward
}

/// Adds a linear layer's gradients (lesson 02's `LinearGrads`) into `target`, a
/// linear layer of a gradient model: `weight += d_weight`, `bias += d_bias`.
pub fn add_linear_grads(target: &mut Linear, grads: &LinearGrads) {
    target.weight += &grads.d_weight;
    target.bias += &grads.d_bias;
}

fn add_attention(target: &mut MultiHeadAttention, grads: &MultiHeadGrads) {
    add_linear_grads(&mut target.w_q, &grads.w_q);
    add_linear_grads(&mut target.w_k, &grads.w_k);
    add_linear_grads(&mut target.w_v, &grads.w_v);
    add_linear_grads(&mut target.w_o, &grads.w_o);
}

fn add_feed_forward(target: &mut FeedForward, grads: &FeedForwardGrads) {
    add_linear_grads(&mut target.w_1, &grads.w_1);
    add_linear_grads(&mut target.w_2, &grads.w_2);
}

fn add_norm(target: &mut LayerNorm, grads: &LayerNormGrads) {
    target.gamma += &grads.d_gamma;
    target.beta += &grads.d_beta;
}

/// Adds one encoder layer's parameter gradients (lesson 05's `EncoderLayerGrads`)
/// into `target`, an encoder layer of a gradient model.
pub fn add_encoder_layer_grads(target: &mut EncoderLayer, grads: &EncoderLayerGrads) {
    add_attention(&mut target.self_attention, &grads.self_attention);
    add_feed_forward(&mut target.ffn, &grads.ffn);
    add_norm(&mut target.norm_1, &grads.norm_1);
    add_norm(&mut target.norm_2, &grads.norm_2);
}

/// Adds one decoder layer's parameter gradients (lesson 05's `DecoderLayerGrads`)
/// into `target`, a decoder layer of a gradient model.
pub fn add_decoder_layer_grads(target: &mut DecoderLayer, grads: &DecoderLayerGrads) {
    add_attention(&mut target.self_attention, &grads.self_attention);
    add_attention(&mut target.cross_attention, &grads.cross_attention);
    add_feed_forward(&mut target.ffn, &grads.ffn);
    add_norm(&mut target.norm_1, &grads.norm_1);
    add_norm(&mut target.norm_2, &grads.norm_2);
    add_norm(&mut target.norm_3, &grads.norm_3);
}
