// BEGIN STUB
// //! Lesson 04: positional encoding.
// END STUB
// BEGIN SOLUTION
//! Lesson 04: positional encoding, solved.
// END SOLUTION
//!
//! ```text
//! PE(pos, 2i)     = sin(pos · ω_i)        ω_i = 1 / 10000^(2i / d_model)
//! PE(pos, 2i + 1) = cos(pos · ω_i)        i = 0, 1, …, d_model/2 − 1
//! x_pos           = √d_model · E[token_pos] + PE(pos)
//! ```
//!
//! | name     | shape                | meaning                                   |
//! |----------|----------------------|-------------------------------------------|
//! | `omega`  | `(d_model / 2,)`     | one angular frequency per (sin, cos) pair |
//! | `table`  | `(max_len, d_model)` | row `pos`: the encoding of position `pos` |
//! | `weight` | `(vocab, d_model)`   | row `v`: the embedding of token `v`       |
//! | `tokens` | `n` token ids        | a sentence, as row indices into `weight`  |
//! | `x`      | `(n, d_model)`       | row `pos`: what the first layer sees      |
//!
//! Self-attention treats its input as a set: permute the rows of `x` and its output
//! rows are permuted the same way. Adding `PE(pos)` to row `pos` is what tells the
//! model where each token stands. The book explains every step in chapter 04,
//! "Positional encoding".
// BEGIN STUB
// //!
// //! # How to work on this lesson
// //!
// //! Every `todo!()` below is yours to replace; the `///` comment above it is the
// //! contract (shapes, formula, where the book explains it). Work top to bottom: each
// //! function uses the ones before it. Check yourself with
// //!
// //! ```text
// //! cargo test -p positional-encoding     # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch         # the graded tests, re-run on every save
// //! ```
// //!
// //! Don't change the signatures or the tests: grading uses only this `src/` folder,
// //! with the course's own copy of everything else.
// END STUB

use course_common::ndarray::s;
use course_common::{Float, Matrix, Vector};

/// The base of the geometric progression of wavelengths: the longest wavelength is
/// just under `PE_BASE · 2π` (the paper's 10000).
pub const PE_BASE: Float = 10_000.0;

// ANCHOR: frequencies
/// The angular frequencies of the sinusoidal encoding, one per (sin, cos) pair.
///
/// `ω_i = 1 / 10000^(2i / d_model) = 10000^(−2i / d_model)` for
/// `i = 0, 1, …, d_model/2 − 1`: `ω_0 = 1` (wavelength 2π), then each pair turns
/// `10000^(2 / d_model)` times more slowly than the one before.
///
/// Panics if `d_model` is odd. Shape `(d_model / 2,)`. Book: chapter 04,
/// "The formula".
pub fn frequencies(d_model: usize) -> Vector {
    // TODO: panic if d_model is odd; then ω_i = PE_BASE^(−2i / d_model) for
    //       i in 0..d_model / 2. Convert to Float before dividing.
    // BEGIN SOLUTION: todo!("frequencies")
    assert_even(d_model);
    let d = d_model as Float;
    Vector::from_shape_fn(d_model / 2, |i| PE_BASE.powf(-((2 * i) as Float) / d)) // (d_model/2,)
    // END SOLUTION
}
// ANCHOR_END: frequencies

// ANCHOR: sinusoidal_table
/// The sinusoidal positional-encoding table of the paper, sines and cosines
/// interleaved.
///
/// `table[[pos, 2i]] = sin(pos · ω_i)` and `table[[pos, 2i + 1]] = cos(pos · ω_i)`,
/// with `ω_i` from [`frequencies`]: column `2i` holds a sine, column `2i + 1` the
/// cosine of the same frequency, positions counted from 0. (Some codebases put all
/// the sines first and all the cosines after; that is a different table.)
///
/// Panics, with a message that says `d_model` must be even, if `d_model` is odd.
/// Shape `(max_len, d_model)`. Book: chapter 04, "The formula".
pub fn sinusoidal_table(max_len: usize, d_model: usize) -> Matrix {
    // TODO: `Matrix::from_shape_fn((max_len, d_model), |(pos, col)| ...)`: the
    //       angle is pos · ω_{col / 2}; its sine at even columns, cosine at odd.
    // BEGIN SOLUTION: todo!("sinusoidal_table")
    let omega = frequencies(d_model); // (d_model/2,)
    Matrix::from_shape_fn((max_len, d_model), |(pos, col)| {
        let angle = pos as Float * omega[col / 2];
        if col.is_multiple_of(2) {
            angle.sin()
        } else {
            angle.cos()
        }
    }) // (max_len, d_model)
    // END SOLUTION
}
// ANCHOR_END: sinusoidal_table
// BEGIN SOLUTION

fn assert_even(d_model: usize) {
    assert!(
        d_model.is_multiple_of(2),
        "d_model must be even, got {d_model}: the sinusoidal table pairs a sine \
         (column 2i) with a cosine (column 2i + 1) at each frequency"
    );
}
// END SOLUTION

/// A token embedding: one learned row of `d_model` numbers per token of the
/// vocabulary, looked up and multiplied by [`Embedding::scale`] (`√d_model`).
///
/// The scale and the initialisation go together. Lesson 06 draws the weights with
/// standard deviation `1/√d_model`, so the scaled rows have entries of standard
/// deviation about 1 and a norm of about `√d_model`, next to the positional
/// encoding's `√(d_model/2)`: a ratio of about √2 (see
/// [`embedding_to_encoding_ratio`]). Book: chapter 04, "Why multiply by √d_model".
#[derive(Debug, Clone, PartialEq)]
pub struct Embedding {
    /// `E`, shape `(vocab, d_model)`: row `v` is token `v`'s embedding.
    pub weight: Matrix,
}

impl Embedding {
    /// An embedding from its weight `(vocab, d_model)`.
    pub fn new(weight: Matrix) -> Self {
        Self { weight }
    }

    /// The number of tokens in the vocabulary (rows of the weight).
    pub fn vocab_size(&self) -> usize {
        self.weight.nrows()
    }

    /// The width of an embedding (columns of the weight).
    pub fn d_model(&self) -> usize {
        self.weight.ncols()
    }

    /// The factor every looked-up row is multiplied by: `√d_model`, as in the
    /// paper (section 3.4, "In the embedding layers, we multiply those weights by
    /// √d_model").
    pub fn scale(&self) -> Float {
        (self.d_model() as Float).sqrt()
    }

    // ANCHOR: embedding_forward
    /// Looks the tokens up: row `t` of the result is `scale() · weight[tokens[t]]`.
    ///
    /// Each row depends only on its own token, never on where the token stands.
    /// Panics, naming the token and the vocabulary size, if a token is not below
    /// `vocab_size()`. Shape `(tokens.len(), d_model)`. Book: chapter 04,
    /// "Embeddings: a lookup table".
    pub fn forward(&self, tokens: &[usize]) -> Matrix {
        // TODO: check each token against the vocabulary, then copy row `token` of
        //       the weight times `self.scale()` into row t of the result.
        // BEGIN SOLUTION: todo!("Embedding::forward")
        let scale = self.scale();
        let mut out = Matrix::zeros((tokens.len(), self.d_model())); // (n, d_model)
        for (mut row, &token) in out.rows_mut().into_iter().zip(tokens) {
            assert!(
                token < self.vocab_size(),
                "token {token} is outside the vocabulary of {} tokens (ids 0..{})",
                self.vocab_size(),
                self.vocab_size()
            );
            row.assign(&(&self.weight.row(token) * scale));
        }
        out
        // END SOLUTION
    }
    // ANCHOR_END: embedding_forward

    // ANCHOR: embedding_backward
    /// The backward pass of [`Embedding::forward`]: the gradient of the weight.
    ///
    /// Row `v` of the result is `scale() · Σ_{t : tokens[t] = v} d_out[t]`: each
    /// row of `d_out` is added (scatter-add) into the row of its token, so a token
    /// that occurs twice collects both gradients; rows of unused tokens are 0.
    ///
    /// `d_out` is `(tokens.len(), d_model)`; the result has the weight's shape
    /// `(vocab, d_model)`. Book: chapter 04, "The backward pass of a lookup".
    pub fn backward(&self, tokens: &[usize], d_out: &Matrix) -> Matrix {
        // TODO: start from zeros of the weight's shape; for each token and its row
        //       of d_out, add scale · row into row `token` (`scaled_add`): add,
        //       don't assign, or a repeated token keeps only its last gradient.
        // BEGIN SOLUTION: todo!("Embedding::backward")
        assert_eq!(
            d_out.dim(),
            (tokens.len(), self.d_model()),
            "d_out must have one row per token and d_model columns"
        );
        let scale = self.scale();
        let mut d_weight = Matrix::zeros(self.weight.dim()); // (vocab, d_model)
        for (row, &token) in d_out.rows().into_iter().zip(tokens) {
            d_weight.row_mut(token).scaled_add(scale, &row);
        }
        d_weight
        // END SOLUTION
    }
    // ANCHOR_END: embedding_backward
}

// ANCHOR: add_positional_encoding
/// Adds the positional encoding to a sequence: row `t` of the result is
/// `x[t] + table[start + t]`.
///
/// `start` is the position of the first row, 0 for a whole sentence; when a
/// decoder generates one token at a time, the new token at position `p` needs
/// `start = p`. `x` is `(n, d_model)` and `table` `(max_len, d_model)`.
///
/// Panics if the widths differ, or, saying how many rows are needed, if the table
/// has fewer than `start + n` rows. Shape `(n, d_model)`. Book: chapter 04,
/// "Adding the encoding".
pub fn add_positional_encoding(x: &Matrix, table: &Matrix, start: usize) -> Matrix {
    // TODO: check the widths and that start + n <= table rows (say how many
    //       rows are needed); then x + the rows start..start + n of the table
    //       (`table.slice(s![a..b, ..])`).
    // BEGIN SOLUTION: todo!("add_positional_encoding")
    assert_eq!(
        x.ncols(),
        table.ncols(),
        "x and the table must both be d_model wide"
    );
    let end = start + x.nrows();
    assert!(
        end <= table.nrows(),
        "positions {start}..{end} need a table of at least {end} rows, but it has {}: \
         build a longer one with sinusoidal_table",
        table.nrows()
    );
    x + &table.slice(s![start..end, ..]) // (n, d_model)
    // END SOLUTION
}
// ANCHOR_END: add_positional_encoding

// ANCHOR: embed_with_positions
/// What the first layer of the Transformer sees: each token's scaled embedding
/// plus the encoding of its position, counted from 0.
///
/// `embed_with_positions(e, tokens, table)[t] = e.scale() · e.weight[tokens[t]] +
/// table[t]`. The table is a constant, so the gradient of the embedding weight is
/// `e.backward(tokens, d_x)`: the encoding adds nothing to learn.
/// Shape `(tokens.len(), d_model)`. Book: chapter 04, "Adding the encoding".
pub fn embed_with_positions(
    embedding: &Embedding,
    tokens: &[usize],
    table: &Matrix,
) -> Matrix {
    // TODO: look the tokens up with the embedding, then add the encoding from
    //       position 0.
    // BEGIN SOLUTION: todo!("embed_with_positions")
    add_positional_encoding(&embedding.forward(tokens), table, 0) // (n, d_model)
    // END SOLUTION
}
// ANCHOR_END: embed_with_positions

// ANCHOR: embedding_to_encoding_ratio
/// How large the scaled embeddings are next to the positional encoding: the ratio
/// of their root-mean-square row norms.
///
/// ```text
/// ratio = sqrt(mean_v ‖scale · weight[v]‖²) / sqrt(mean_pos ‖table[pos]‖²)
/// ```
///
/// over every row of the weight (the whole vocabulary) and every row of the table.
/// Every row of a sinusoidal table has `‖PE(pos)‖² = d_model / 2`. A ratio near 1
/// means both signals reach the first layer; a ratio of 8 or more means the
/// positions are a faint ripple on top of the words. Panics if the widths differ.
/// Book: chapter 04, "Why multiply by √d_model".
pub fn embedding_to_encoding_ratio(embedding: &Embedding, table: &Matrix) -> Float {
    // TODO: the root-mean-square row norm of weight · scale(), divided by that
    //       of the table: sqrt(sum of squares / number of rows) for each.
    // BEGIN SOLUTION: todo!("embedding_to_encoding_ratio")
    assert_eq!(
        embedding.d_model(),
        table.ncols(),
        "the embedding and the table must both be d_model wide"
    );
    let rms_row_norm = |m: &Matrix| {
        let squares: Float = m.iter().map(|v| v * v).sum();
        (squares / m.nrows() as Float).sqrt()
    };
    let scaled = &embedding.weight * embedding.scale(); // (vocab, d_model)
    rms_row_norm(&scaled) / rms_row_norm(table)
    // END SOLUTION
}
// ANCHOR_END: embedding_to_encoding_ratio
