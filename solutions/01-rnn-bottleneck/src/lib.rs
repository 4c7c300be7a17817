// BEGIN STUB
// //! Lesson 01: the RNN bottleneck.
// END STUB
// BEGIN SOLUTION
//! Lesson 01: the RNN bottleneck, solved.
// END SOLUTION
//!
//! An Elman recurrent network reads a sequence one token at a time and carries
//! everything it has read in one hidden state of fixed size:
//!
//! ```text
//! h_t = tanh(x_t W_xhᵀ + h_(t-1) W_hhᵀ + b)          t = 1, ..., T
//! ```
//!
//! | name     | shape                  | meaning                                      |
//! |----------|------------------------|----------------------------------------------|
//! | `xs`     | `(T, d_in)`            | the sequence, one row per token              |
//! | `h0`     | `(d_hidden,)`          | the state before the first token             |
//! | `w_xh`   | `(d_hidden, d_in)`     | input to hidden, one row per hidden unit     |
//! | `w_hh`   | `(d_hidden, d_hidden)` | hidden to hidden: the recurrence             |
//! | `b`      | `(d_hidden,)`          | the bias                                     |
//! | `states` | `(T, d_hidden)`        | row `t` is the state after reading token `t` |
//!
//! The encoder's last state is the context vector: the only thing a seq2seq decoder
//! without attention learns about the source sentence. The book explains every step
//! in chapter 01, "The RNN bottleneck".
// BEGIN STUB
// //!
// //! # How every lesson of this course works
// //!
// //! This is your first lesson, so here are the conventions, once for all of them.
// //!
// //! - **Each `todo!()` is yours to replace.** A function you write has the body
// //!   `todo!("name")`: it compiles, and panics when it runs, so the tests report
// //!   "`name` is still a todo!()" until you write it. Everything else in the file
// //!   (types, constructors, helpers such as [`row`] and [`orthogonal`]) is complete.
// //! - **The `///` comment above a function is its contract**: what goes in, what
// //!   comes out, every matrix's shape as `(rows, columns)`, the formula, and the
// //!   section of the book that explains it. The tests check what it promises.
// //! - **A `// TODO:` comment** says in a line or two what the body has to do. Delete
// //!   it when you are done, if you like.
// //! - **Work from top to bottom**: each function builds on the ones above it.
// //! - **Don't change the signatures, and don't edit the tests.** Grading uses only
// //!   this `src/` folder, with the course's own copy of everything else: edited
// //!   tests, manifests or cargo settings change nothing in your grade.
// //!
// //! Check yourself with
// //!
// //! ```text
// //! cargo test -p rnn                # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch    # the graded tests, re-run on every save
// //! ```
// //!
// //! The visible tests show what "done" looks like. The graded tests check much more,
// //! and when one fails it says what it expected, what came back, and the likely
// //! cause. In watch mode, `h` shows a hint, `n` moves to the next lesson and `q`
// //! quits.
// END STUB

use course_common::ndarray::{Axis, s};
use course_common::{Float, Matrix, Vector};

/// An Elman RNN cell: `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)`.
///
/// The weights use the layout of the whole course (and of PyTorch's `nn.RNN`):
/// `(d_out, d_in)`, one row per hidden unit. So `W_xh` is `(d_hidden, d_in)`, and
/// each step is two linear maps, as lesson 02's `Linear` computes them, and a tanh.
/// CS231n writes `x Wx + h Wh` with `Wx` `(d_in, d_hidden)`: the same numbers,
/// transposed. Book: chapter 01, "The Elman RNN".
#[derive(Debug, Clone, PartialEq)]
pub struct Rnn {
    /// `W_xh`, shape `(d_hidden, d_in)`.
    pub w_xh: Matrix,
    /// `W_hh`, shape `(d_hidden, d_hidden)`.
    pub w_hh: Matrix,
    /// `b`, shape `(d_hidden,)`. (PyTorch keeps two biases, `b_ih` and `b_hh`; they
    /// are only ever added together, so one is enough.)
    pub b: Vector,
}

/// Gradients of a loss through one [`Rnn::step`].
#[derive(Debug, Clone, PartialEq)]
pub struct StepGrads {
    /// `∂L/∂x`, shape `(n, d_in)`.
    pub d_x: Matrix,
    /// `∂L/∂h` (the previous state), shape `(n, d_hidden)`.
    pub d_h: Matrix,
    /// `∂L/∂W_xh`, shape `(d_hidden, d_in)`.
    pub d_w_xh: Matrix,
    /// `∂L/∂W_hh`, shape `(d_hidden, d_hidden)`.
    pub d_w_hh: Matrix,
    /// `∂L/∂b`, shape `(d_hidden,)`.
    pub d_b: Vector,
}

/// Gradients of a loss through [`Rnn::forward`]: backpropagation through time.
#[derive(Debug, Clone, PartialEq)]
pub struct RnnGrads {
    /// `∂L/∂xs`, shape `(T, d_in)`: row `t` is the gradient for token `t`.
    pub d_xs: Matrix,
    /// `∂L/∂h0`, shape `(d_hidden,)`.
    pub d_h0: Vector,
    /// `∂L/∂W_xh`, shape `(d_hidden, d_in)`, summed over all time steps.
    pub d_w_xh: Matrix,
    /// `∂L/∂W_hh`, shape `(d_hidden, d_hidden)`, summed over all time steps.
    pub d_w_hh: Matrix,
    /// `∂L/∂b`, shape `(d_hidden,)`, summed over all time steps.
    pub d_b: Vector,
}

impl Rnn {
    /// A cell from `W_xh` `(d_hidden, d_in)`, `W_hh` `(d_hidden, d_hidden)` and `b`
    /// `(d_hidden,)`.
    ///
    /// Panics if the shapes do not fit together.
    pub fn new(w_xh: Matrix, w_hh: Matrix, b: Vector) -> Self {
        let d_hidden = w_xh.nrows();
        assert_eq!(
            w_hh.dim(),
            (d_hidden, d_hidden),
            "W_hh must be (d_hidden, d_hidden), with d_hidden = the rows of W_xh"
        );
        assert_eq!(
            b.len(),
            d_hidden,
            "the bias needs one entry per hidden unit"
        );
        Self { w_xh, w_hh, b }
    }

    /// The width of one input token, `d_in`.
    pub fn d_in(&self) -> usize {
        self.w_xh.ncols()
    }

    /// The width of the hidden state, `d_hidden`.
    pub fn d_hidden(&self) -> usize {
        self.w_hh.nrows()
    }

    // ANCHOR: step
    /// One step, `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)`, for `n` rows at once.
    ///
    /// - `x`: `(n, d_in)`, the tokens read at this step, one row per sequence;
    /// - `h`: `(n, d_hidden)`, the previous states;
    /// - returns `h'`, `(n, d_hidden)`. The rows never mix: row `i` of `h'` depends
    ///   only on row `i` of `x` and of `h`.
    ///
    /// Book: chapter 01, "The Elman RNN".
    pub fn step(&self, x: &Matrix, h: &Matrix) -> Matrix {
        // TODO: z = x W_xhᵀ + h W_hhᵀ + b (a Vector added to a Matrix is added
        //       to every row), then tanh of every entry (`mapv(Float::tanh)`).
        // BEGIN SOLUTION: todo!("Rnn::step")
        let z = x.dot(&self.w_xh.t()) + h.dot(&self.w_hh.t()) + &self.b; // (n, d_hidden)
        z.mapv(Float::tanh) // (n, d_hidden)
        // END SOLUTION
    }
    // ANCHOR_END: step

    // ANCHOR: step_backward
    /// The backward pass of [`Rnn::step`].
    ///
    /// Given the step's inputs `x` `(n, d_in)` and `h` `(n, d_hidden)`, its output
    /// `h_next` `(n, d_hidden)` and the upstream gradient `d_h_next`
    /// `(n, d_hidden)`:
    ///
    /// ```text
    /// dz = dh' ⊙ (1 − h'²)        (tanh' = 1 − tanh², from the output)
    /// dx = dz W_xh      dh = dz W_hh      dW_xh = dzᵀ x      dW_hh = dzᵀ h
    /// db = Σ_rows dz
    /// ```
    ///
    /// Book: chapter 01, "One step, backwards".
    pub fn step_backward(
        &self,
        x: &Matrix,
        h: &Matrix,
        h_next: &Matrix,
        d_h_next: &Matrix,
    ) -> StepGrads {
        // TODO: dz = dh' ⊙ (1 − h'²) (`*` of two matrices multiplies entry by
        //       entry), then the five lines of the formula above.
        // BEGIN SOLUTION: todo!("Rnn::step_backward")
        let d_z = d_h_next * &h_next.mapv(|v| 1.0 - v * v); // (n, d_hidden)
        StepGrads {
            d_x: d_z.dot(&self.w_xh),   // (n, d_in)
            d_h: d_z.dot(&self.w_hh),   // (n, d_hidden)
            d_w_xh: d_z.t().dot(x),     // (d_hidden, d_in)
            d_w_hh: d_z.t().dot(h),     // (d_hidden, d_hidden)
            d_b: d_z.sum_axis(Axis(0)), // (d_hidden,)
        }
        // END SOLUTION
    }
    // ANCHOR_END: step_backward

    // ANCHOR: forward
    /// Runs the cell over a whole sequence and keeps every state.
    ///
    /// `xs` is `(T, d_in)`, one row per token; `h0` `(d_hidden,)` is the state
    /// before the first token. Returns `states`, `(T, d_hidden)`: row `t` is the
    /// state after reading token `t`, that is `h_(t+1) = step(x_t, h_t)`. `h0` is
    /// not a row of it. An empty sequence (`T = 0`) gives a `(0, d_hidden)` matrix.
    ///
    /// Book: chapter 01, "Reading a sentence".
    pub fn forward(&self, xs: &Matrix, h0: &Vector) -> Matrix {
        // TODO: start from h0 as a (1, d_hidden) row (`as_row`); for each t,
        //       step with token t (`row(xs, t)`) and the state so far, and
        //       store the new state as row t of a (T, d_hidden) matrix.
        // BEGIN SOLUTION: todo!("Rnn::forward")
        let mut states = Matrix::zeros((xs.nrows(), self.d_hidden())); // (T, d_hidden)
        let mut h = as_row(h0); // (1, d_hidden)
        for t in 0..xs.nrows() {
            h = self.step(&row(xs, t), &h); // (1, d_hidden)
            states.row_mut(t).assign(&h.row(0));
        }
        states
        // END SOLUTION
    }
    // ANCHOR_END: forward

    // ANCHOR: backward
    /// Backpropagation through time: the backward pass of [`Rnn::forward`].
    ///
    /// Given the forward's inputs `xs` `(T, d_in)` and `h0`, its `states`
    /// `(T, d_hidden)`, and an upstream gradient on every state, `d_states`
    /// `(T, d_hidden)` (row `t` is `∂L/∂` row `t` of `states`; often all zero but
    /// the last), walk from the last step to the first. The gradient reaching state
    /// `t` is its own `d_states` row plus what flows back from step `t + 1`. The
    /// weights are shared by every step, so their gradients are sums over steps.
    ///
    /// Book: chapter 01, "Backpropagation through time".
    pub fn backward(
        &self,
        xs: &Matrix,
        h0: &Vector,
        states: &Matrix,
        d_states: &Matrix,
    ) -> RnnGrads {
        // TODO: d_h = zeros (1, d_hidden); for t from T − 1 down to 0: add
        //       row t of d_states to d_h, run step_backward for step t (its
        //       previous state is h0 when t = 0), keep its d_x as row t of
        //       d_xs, add (+=) its weight gradients, and carry its d_h back.
        // BEGIN SOLUTION: todo!("Rnn::backward")
        let (len, d_hidden) = (xs.nrows(), self.d_hidden());
        let mut grads = RnnGrads {
            d_xs: Matrix::zeros(xs.dim()),          // (T, d_in)
            d_h0: Vector::zeros(d_hidden),          // (d_hidden,)
            d_w_xh: Matrix::zeros(self.w_xh.dim()), // (d_hidden, d_in)
            d_w_hh: Matrix::zeros(self.w_hh.dim()), // (d_hidden, d_hidden)
            d_b: Vector::zeros(d_hidden),           // (d_hidden,)
        };
        // The gradient that flows back into the state from the steps after it.
        let mut d_h = Matrix::zeros((1, d_hidden)); // (1, d_hidden)
        for t in (0..len).rev() {
            d_h += &d_states.slice(s![t..t + 1, ..]);
            let h_prev = if t == 0 {
                as_row(h0)
            } else {
                row(states, t - 1)
            }; // (1, d_hidden)
            let step = self.step_backward(&row(xs, t), &h_prev, &row(states, t), &d_h);
            grads.d_xs.row_mut(t).assign(&step.d_x.row(0));
            grads.d_w_xh += &step.d_w_xh;
            grads.d_w_hh += &step.d_w_hh;
            grads.d_b += &step.d_b;
            d_h = step.d_h; // (1, d_hidden)
        }
        grads.d_h0 = d_h.row(0).to_owned();
        grads
        // END SOLUTION
    }
    // ANCHOR_END: backward

    // ANCHOR: encode
    /// The encoder's context vector: the last state after reading all of `xs`.
    ///
    /// `xs` is `(T, d_in)`; returns `h_T`, `(d_hidden,)`. Everything a decoder
    /// without attention will ever know about the sequence is in this one vector,
    /// whatever `T` is. For an empty sequence nothing was read: the context is h0.
    ///
    /// Book: chapter 01, "The context vector".
    pub fn encode(&self, xs: &Matrix, h0: &Vector) -> Vector {
        // TODO: the last row of `forward`'s states, or h0 if there is none.
        // BEGIN SOLUTION: todo!("Rnn::encode")
        let states = self.forward(xs, h0); // (T, d_hidden)
        match states.nrows() {
            0 => h0.clone(),
            len => states.row(len - 1).to_owned(),
        }
        // END SOLUTION
    }
    // ANCHOR_END: encode
}

/// Row `t` of `m` as a `(1, cols)` matrix, to feed one token to [`Rnn::step`].
pub fn row(m: &Matrix, t: usize) -> Matrix {
    m.slice(s![t..t + 1, ..]).to_owned()
}

/// A vector as a `(1, len)` matrix: one state, as [`Rnn::step`] takes it.
pub fn as_row(v: &Vector) -> Matrix {
    v.view().insert_axis(Axis(0)).to_owned()
}

/// An `(n, n)` orthogonal matrix times `scale`: every singular value is `|scale|`.
///
/// Built from fixed Givens rotations (the identity rotated in every plane `(p, r)`,
/// `p < r`, by a fixed angle), so it is the same on every run, with no random
/// generator. `orthogonal(n, 1.0)` satisfies `Qᵀ Q = I` up to rounding, so
/// `orthogonal(n, σ)` stretches every vector by exactly `σ`. The chapter's
/// measurements use it as `W_hh`, with a largest singular value known exactly.
pub fn orthogonal(n: usize, scale: Float) -> Matrix {
    let mut q = Matrix::eye(n); // (n, n)
    for p in 0..n {
        for r in p + 1..n {
            let angle = 0.7 + 0.618_033_988_749_895 * (p * n + r) as Float;
            let (sin, cos) = angle.sin_cos();
            let (row_p, row_r) = (q.row(p).to_owned(), q.row(r).to_owned());
            q.row_mut(p).assign(&(cos * &row_p - sin * &row_r));
            q.row_mut(r).assign(&(sin * &row_p + cos * &row_r));
        }
    }
    q * scale // (n, n)
}

/// The largest singular value `σ_max(m)` (the spectral norm): the most `m` can
/// stretch a vector, `max ‖m v‖ / ‖v‖`.
///
/// A thousand steps of power iteration on `mᵀ m` from a fixed start, so
/// deterministic; accurate to about 12 digits for the course's matrices. Returns 0
/// for an empty or all-zero matrix.
pub fn spectral_norm(m: &Matrix) -> Float {
    let n = m.ncols();
    let mut v = Vector::from_shape_fn(n, |i| 1.0 + i as Float / n as Float); // (n,)
    let mut lambda: Float = 0.0;
    for _ in 0..1_000 {
        let norm = v.dot(&v).sqrt();
        if norm == 0.0 {
            return 0.0;
        }
        v /= norm;
        let w = m.t().dot(&m.dot(&v)); // (n,)
        lambda = v.dot(&w); // the Rayleigh quotient, which tends to σ_max²
        v = w;
    }
    lambda.max(0.0).sqrt()
}
