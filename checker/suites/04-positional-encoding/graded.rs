//! Graded tests of lesson 04, positional encoding.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API
//! (and lesson 02's reference `SelfAttentionHead`), so any correct implementation passes.
//! Each test names the property it checks; every fixture is a hand-computed value, a value
//! from NumPy (tools/reference/lesson04_positional.py, float64), burn's PyTorch-derived
//! table, or an exact mathematical property. Every call into the lesson goes through
//! `observe` (the wrappers below), so that the checker's judge can replay the values the
//! learner's code returned (see `course_harness::tape`).

use attention::{Linear, SelfAttentionHead};
use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::check::show;
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::mistakes::positional_encoding::{
    CONCATENATED, SWAPPED, add_mistakes, embed_with_positions_mistakes,
    embedding_backward_mistakes, embedding_mistakes, frequency_mistakes, ratio_cause,
    reference_table, table_mistakes, table_mistakes_at_rows,
};
use course_harness::{
    Tol, assert_close, assert_gradient_close, assert_matrix_close, assert_same_shape,
    graded, linspace, linspace_matrix, numerical_gradient, observe,
};
use positional_encoding::{self as lesson, Embedding};
use std::panic::{UnwindSafe, catch_unwind, resume_unwind};

// ---------------------------------------------------------------------------------------
// Helpers (the wrong answers that common mistakes give are built by
// `course_harness::mistakes::positional_encoding`)
// ---------------------------------------------------------------------------------------

/// A sinusoidal table built by the test itself (the harness's), as the input of the ratio
/// tests, so that they check `embedding_to_encoding_ratio` alone, whatever the state of
/// the learner's `sinusoidal_table`.
fn independent_table(max_len: usize, d_model: usize) -> Matrix {
    reference_table(max_len, d_model)
}

/// Runs `f`, expecting it to panic, and returns the panic's message; `None` if it did not
/// panic. A `todo!()` is passed on as it is, so the checker reports it as not started.
fn panic_message(f: impl FnOnce() + UnwindSafe) -> Option<String> {
    let payload = catch_unwind(f).err()?;
    let text = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default();
    if text.starts_with("not yet implemented") {
        resume_unwind(payload);
    }
    Some(text)
}

fn row_matrix(v: &Vector) -> Matrix {
    v.clone().insert_axis(Axis(0))
}

// ---------------------------------------------------------------------------------------
// The lesson's functions, observed: every test calls the lesson through these, so that
// each value the learner's code returns is recorded in its sandbox and replayed in the
// judge (see course_harness::tape). `Embedding::new` and the other given methods are the
// course's code and are called directly.
// ---------------------------------------------------------------------------------------

fn frequencies(d_model: usize) -> Vector {
    observe("frequencies", || lesson::frequencies(d_model))
}

fn sinusoidal_table(max_len: usize, d_model: usize) -> Matrix {
    observe("sinusoidal_table", || {
        lesson::sinusoidal_table(max_len, d_model)
    })
}

/// `embedding.forward(tokens)`, observed.
fn embedding_forward(embedding: &Embedding, tokens: &[usize]) -> Matrix {
    observe("Embedding::forward", || embedding.forward(tokens))
}

/// `embedding.backward(tokens, d_out)`, observed.
fn embedding_backward(embedding: &Embedding, tokens: &[usize], d_out: &Matrix) -> Matrix {
    observe("Embedding::backward", || embedding.backward(tokens, d_out))
}

fn add_positional_encoding(x: &Matrix, table: &Matrix, start: usize) -> Matrix {
    observe("add_positional_encoding", || {
        lesson::add_positional_encoding(x, table, start)
    })
}

fn embed_with_positions(
    embedding: &Embedding,
    tokens: &[usize],
    table: &Matrix,
) -> Matrix {
    observe("embed_with_positions", || {
        lesson::embed_with_positions(embedding, tokens, table)
    })
}

fn embedding_to_encoding_ratio(embedding: &Embedding, table: &Matrix) -> Float {
    observe("embedding_to_encoding_ratio", || {
        lesson::embedding_to_encoding_ratio(embedding, table)
    })
}

// ---------------------------------------------------------------------------------------
// Frequencies and the table
// ---------------------------------------------------------------------------------------

/// ω_i = 10000^(−2i/d_model): [1, 0.1, 0.01, 0.001] for d_model = 8, and NumPy's values
/// for d_model = 16 (wavelengths 2π/ω_i from 2π up to nearly 10000·2π).
#[test]
fn frequencies_fall_geometrically_from_one() {
    graded(|| {
        let got = row_matrix(&frequencies(8));
        assert_matrix_close(
            "frequencies(8)",
            &got,
            &array![[1.0, 0.1, 0.01, 0.001]],
            Tol::TIGHT,
            &frequency_mistakes(8),
        );
        // tools/reference/lesson04_positional.py: 10000^(−2i/16), i = 0..8.
        let expected = array![[
            1.0,
            0.316227766,
            0.1,
            0.0316227766,
            0.01,
            0.00316227766,
            0.001,
            0.000316227766
        ]];
        assert_matrix_close(
            "frequencies(16)",
            &row_matrix(&frequencies(16)),
            &expected,
            Tol {
                abs: 1e-10,
                rel: 1e-9,
            },
            &[],
        );
    });
}

/// The table matches burn's d_model = 6 fixture ("values taken from the pytorch reference
/// implementation", 5 decimals) at positions 0, 1, 2, 3 and 11.
#[test]
fn table_matches_the_pytorch_derived_fixture_for_d_model_6() {
    graded(|| {
        let table = sinusoidal_table(12, 6);
        assert_same_shape("sinusoidal_table(12, 6)", &table, (12, 6));
        let rows = [0, 1, 2, 3, 11];
        let expected = array![
            [0.00000, 1.00000, 0.00000, 1.00000, 0.00000, 1.00000],
            [0.84147, 0.54030, 0.04640, 0.99892, 0.00215, 1.00000],
            [0.90930, -0.41615, 0.09270, 0.99569, 0.00431, 0.99999],
            [0.14112, -0.98999, 0.13880, 0.99032, 0.00646, 0.99998],
            [-0.99999, 0.00443, 0.48868, 0.87246, 0.02370, 0.99972]
        ];
        assert_matrix_close(
            "rows 0, 1, 2, 3 and 11 of sinusoidal_table(12, 6)",
            &table.select(Axis(0), &rows),
            &expected,
            Tol {
                abs: 6e-6,
                rel: 0.0,
            },
            &table_mistakes_at_rows(&rows, 6),
        );
    });
}

/// The table matches NumPy (float64, the paper's formula and the PyTorch tutorial's
/// vectorised form agree) for d_model = 8 and 16, up to position 1000.
#[test]
fn table_matches_numpy_for_d_model_8_and_16() {
    graded(|| {
        let tol = Tol {
            abs: 1e-9,
            rel: 0.0,
        };
        // tools/reference/lesson04_positional.py: d_model = 8, rows 0..=5, 37 and 100.
        let rows8 = [0, 1, 2, 3, 4, 5, 37, 100];
        let expected8 = array![
            [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
            [
                0.8414709848,
                0.5403023059,
                0.09983341665,
                0.9950041653,
                0.009999833334,
                0.9999500004,
                0.0009999998333,
                0.9999995
            ],
            [
                0.9092974268,
                -0.4161468365,
                0.1986693308,
                0.9800665778,
                0.01999866669,
                0.9998000067,
                0.001999998667,
                0.999998
            ],
            [
                0.1411200081,
                -0.9899924966,
                0.2955202067,
                0.9553364891,
                0.0299955002,
                0.9995500337,
                0.0029999955,
                0.9999955
            ],
            [
                -0.7568024953,
                -0.6536436209,
                0.3894183423,
                0.921060994,
                0.03998933419,
                0.9992001067,
                0.003999989333,
                0.999992
            ],
            [
                -0.9589242747,
                0.2836621855,
                0.4794255386,
                0.8775825619,
                0.04997916927,
                0.9987502604,
                0.004999979167,
                0.9999875
            ],
            [
                -0.6435381334,
                0.7654140519,
                -0.5298361409,
                -0.8481000317,
                0.361615432,
                0.9323273456,
                0.03699155841,
                0.9993155781
            ],
            [
                -0.5063656411,
                0.8623188723,
                -0.5440211109,
                -0.8390715291,
                0.8414709848,
                0.5403023059,
                0.09983341665,
                0.9950041653
            ]
        ];
        let table8 = sinusoidal_table(101, 8);
        assert_same_shape("sinusoidal_table(101, 8)", &table8, (101, 8));
        assert_matrix_close(
            "rows 0..=5, 37 and 100 of sinusoidal_table(101, 8)",
            &table8.select(Axis(0), &rows8),
            &expected8,
            tol,
            &table_mistakes_at_rows(&rows8, 8),
        );

        // tools/reference/lesson04_positional.py: d_model = 16, rows 1, 7, 50, 99, 1000.
        let rows16 = [1, 7, 50, 99, 1000];
        let expected16 = array![
            [
                0.8414709848,
                0.5403023059,
                0.3109835929,
                0.9504152803,
                0.09983341665,
                0.9950041653,
                0.0316175064,
                0.9995000417,
                0.009999833334,
                0.9999500004,
                0.00316227239,
                0.999995,
                0.0009999998333,
                0.9999995,
                0.0003162277607,
                0.99999995
            ],
            [
                0.6569865987,
                0.7539022543,
                0.8004216463,
                -0.599437393,
                0.6442176872,
                0.7648421873,
                0.2195560914,
                0.9755998784,
                0.06994284734,
                0.9975510003,
                0.0221341359,
                0.99975501,
                0.006999942833,
                0.9999755001,
                0.002213592554,
                0.99999755
            ],
            [
                -0.2623748537,
                0.9649660285,
                -0.1032407464,
                -0.9946563971,
                -0.9589242747,
                0.2836621855,
                0.9999465168,
                -0.01034231891,
                0.4794255386,
                0.8775825619,
                0.1574558982,
                0.98752602,
                0.04997916927,
                0.9987502604,
                0.0158107295,
                0.9998750026
            ],
            [
                -0.9992068342,
                0.03982088039,
                -0.109159741,
                0.9940242205,
                -0.4575358938,
                -0.8891911526,
                0.01093755193,
                -0.9999401832,
                0.8360259786,
                0.5486898606,
                0.307976566,
                0.951393943,
                0.09883836273,
                0.9951035012,
                0.03130143516,
                0.99950999
            ],
            [
                0.8268795405,
                0.5623790763,
                0.8786808508,
                -0.477409638,
                -0.5063656411,
                0.8623188723,
                0.2053781377,
                0.9786826966,
                -0.5440211109,
                -0.8390715291,
                -0.02068353153,
                -0.9997860729,
                0.8414709848,
                0.5403023059,
                0.3109835929,
                0.9504152803
            ]
        ];
        let table16 = sinusoidal_table(1001, 16);
        assert_same_shape("sinusoidal_table(1001, 16)", &table16, (1001, 16));
        assert_matrix_close(
            "rows 1, 7, 50, 99 and 1000 of sinusoidal_table(1001, 16)",
            &table16.select(Axis(0), &rows16),
            &expected16,
            tol,
            &table_mistakes_at_rows(&rows16, 16),
        );
    });
}

/// Row 0 is [0, 1, 0, 1, …] (sin 0, cos 0 in every pair) and with d_model = 2 row p is
/// [sin p, cos p]: sines at the even columns, cosines at the odd ones, interleaved.
#[test]
fn table_interleaves_sine_at_even_columns_and_cosine_at_odd_columns() {
    graded(|| {
        let table = sinusoidal_table(4, 8);
        assert_same_shape("sinusoidal_table(4, 8)", &table, (4, 8));
        let row0: Vec<Float> = table.row(0).to_vec();
        let interleaved = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0];
        let close = |a: &[Float], b: &[Float]| {
            a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12)
        };
        let cause = if close(&row0, &[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]) {
            SWAPPED.text()
        } else if close(&row0, &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]) {
            CONCATENATED.text()
        } else {
            "row 0 is position 0, where every angle is 0: sin 0 = 0 at the even columns and \
             cos 0 = 1 at the odd ones"
        };
        assert!(
            close(&row0, &interleaved),
            "row 0 of sinusoidal_table(4, 8): expected {interleaved:?}, got {row0:?}. \
             Likely cause: {cause}."
        );
        let two = sinusoidal_table(4, 2);
        let expected = Matrix::from_shape_fn((4, 2), |(p, c)| {
            if c == 0 {
                (p as Float).sin()
            } else {
                (p as Float).cos()
            }
        });
        assert_matrix_close(
            "sinusoidal_table(4, 2) (row p should be [sin p, cos p])",
            &two,
            &expected,
            Tol::TIGHT,
            &table_mistakes(4, 2),
        );
    });
}

/// An odd d_model cannot pair every sine with a cosine: the table (and the frequencies)
/// panic with a message that says d_model must be even.
#[test]
fn an_odd_d_model_is_rejected_with_a_clear_message() {
    graded(|| {
        for (what, message) in [
            (
                "sinusoidal_table(4, 7)",
                panic_message(|| {
                    let _ = sinusoidal_table(4, 7);
                }),
            ),
            (
                "frequencies(7)",
                panic_message(|| {
                    let _ = frequencies(7);
                }),
            ),
        ] {
            match message {
                None => panic!(
                    "{what} should panic: with d_model = 7 the last column has no partner. \
                     Likely cause: the function returned a table anyway; check that d_model \
                     is even first, with assert!."
                ),
                Some(text) => assert!(
                    text.to_lowercase().contains("even"),
                    "{what} panicked with \"{text}\", which does not say what is wrong. \
                     Likely cause: the panic came from an index out of bounds or similar \
                     rather than from a check; assert! that d_model is even, with a message \
                     that says so."
                ),
            }
        }
    });
}

/// For every pair (sin, cos) of frequency ω, PE(p + k) is PE(p) rotated by the angle kω:
/// [s', c'] = [[cos kω, sin kω], [−sin kω, cos kω]] [s, c], the same rotation for every p.
/// The rotation is read off row k itself, (sin kω, cos kω), so the check holds for any
/// frequencies: it is the angle-addition formula, and it needs sines at the even columns.
#[test]
fn shifting_by_k_rotates_every_sine_cosine_pair() {
    graded(|| {
        let d_model = 16;
        let table = sinusoidal_table(200, d_model);
        assert_same_shape("sinusoidal_table(200, 16)", &table, (200, 16));
        for k in [1, 3, 10, 37] {
            for p in [0, 5, 20, 120] {
                for i in 0..d_model / 2 {
                    let (sin_k, cos_k) = (table[[k, 2 * i]], table[[k, 2 * i + 1]]);
                    let (s, c) = (table[[p, 2 * i]], table[[p, 2 * i + 1]]);
                    let rotated = [cos_k * s + sin_k * c, -sin_k * s + cos_k * c];
                    let got = [table[[p + k, 2 * i]], table[[p + k, 2 * i + 1]]];
                    let off =
                        (rotated[0] - got[0]).abs().max((rotated[1] - got[1]).abs());
                    assert!(
                        off <= 1e-12,
                        "pair {i} (columns {}, {}) of PE({}) should be PE({p}) rotated by \
                         k·ω_{i} (k = {k}): expected {rotated:?}, got {got:?}. Likely cause: \
                         {}",
                        2 * i,
                        2 * i + 1,
                        p + k,
                        "each pair must be (sin(pos·ω_i), cos(pos·ω_i)) with the same ω_i for \
                         both columns and an angle proportional to pos; a swapped or \
                         concatenated layout, or a different frequency for the cosine, \
                         breaks the rotation"
                    );
                }
            }
        }
    });
}

/// ⟨PE(p), PE(p + k)⟩ = Σ_i cos(kω_i) depends on the distance k only (NumPy: d_model = 16,
/// k = 3 gives 5.543101061 at p = 0, 5, 20 and 400).
#[test]
fn the_dot_product_of_two_encodings_depends_only_on_their_distance() {
    graded(|| {
        let table = sinusoidal_table(430, 16);
        // tools/reference/lesson04_positional.py
        let expected = [
            (1, 7.485166243),
            (3, 5.543101061),
            (10, 3.646309192),
            (25, 4.807255756),
        ];
        for (k, dot) in expected {
            for p in [0, 5, 20, 400] {
                let got = table.row(p).dot(&table.row(p + k));
                assert!(
                    (got - dot).abs() <= 1e-8,
                    "⟨PE({p}), PE({})⟩ with d_model = 16: expected {dot} (= Σ_i cos({k}·ω_i), \
                     the same for every p), got {got}. Likely cause: the table's \
                     frequencies or layout are off; the dot product of two encodings can \
                     depend only on their distance when every pair is (sin, cos) of the \
                     same angle pos·ω_i.",
                    p + k
                );
            }
        }
    });
}

/// Every row has ‖PE(p)‖² = d_model/2: each (sin, cos) pair contributes sin² + cos² = 1.
#[test]
fn every_encoding_has_squared_norm_d_model_over_two() {
    graded(|| {
        for d_model in [2, 6, 16, 64] {
            let table = sinusoidal_table(300, d_model);
            let norms = table.map_axis(Axis(1), |row| row.dot(&row));
            let half = d_model as Float / 2.0;
            if let Some((p, n)) = norms
                .iter()
                .enumerate()
                .find(|(_, n)| (*n - half).abs() > 1e-9)
            {
                panic!(
                    "‖PE({p})‖² with d_model = {d_model}: expected {half} (d_model/2: each \
                     pair gives sin² + cos² = 1), got {n}. Likely cause: a column that is not \
                     paired with its partner (the sine and the cosine of a pair must share \
                     the same angle)."
                );
            }
        }
    });
}

// ---------------------------------------------------------------------------------------
// The embedding: a lookup, and its backward pass
// ---------------------------------------------------------------------------------------

fn small_embedding() -> Embedding {
    Embedding::new(array![
        [0.5, -1.0, 0.25, 2.0],
        [1.0, 0.0, -0.5, 0.75],
        [-2.0, 1.5, 0.0, -0.25]
    ])
}

/// forward([2, 0, 2, 1]) is rows 2, 0, 2, 1 of the weight, times √d_model = 2.
#[test]
fn embedding_forward_looks_up_rows_and_scales_by_sqrt_d_model() {
    graded(|| {
        let embedding = small_embedding();
        let tokens = [2, 0, 2, 1];
        let got = embedding_forward(&embedding, &tokens);
        let expected = array![
            [-4.0, 3.0, 0.0, -0.5],
            [1.0, -2.0, 0.5, 4.0],
            [-4.0, 3.0, 0.0, -0.5],
            [2.0, 0.0, -1.0, 1.5]
        ];
        assert_matrix_close(
            "Embedding::forward([2, 0, 2, 1])",
            &got,
            &expected,
            Tol::TIGHT,
            &embedding_mistakes(&embedding.weight, &tokens),
        );
        assert_same_shape(
            "Embedding::forward of no tokens",
            &embedding_forward(&embedding, &[]),
            (0, 4),
        );
    });
}

/// A token id that is not below the vocabulary size is a bug in the caller: forward
/// panics with a message about the vocabulary.
#[test]
fn embedding_forward_rejects_a_token_outside_the_vocabulary() {
    graded(|| {
        let embedding = small_embedding();
        match panic_message(|| {
            let _ = embedding_forward(&embedding, &[0, 7]);
        }) {
            None => panic!(
                "Embedding::forward(&[0, 7]) with a vocabulary of 3 tokens should panic. \
                 Likely cause: a token id outside the vocabulary was turned into something \
                 (a zero row, a clamp) instead of being rejected."
            ),
            Some(text) => assert!(
                text.to_lowercase().contains("vocab"),
                "Embedding::forward(&[0, 7]) panicked with \"{text}\", which does not say \
                 that token 7 is outside the vocabulary of 3. Likely cause: the index went \
                 straight into the weight; check the token first, with assert!."
            ),
        }
    });
}

/// backward scatters each row of d_out into the row of its token, times √d_model: token 1
/// occurs three times and collects all three rows; token 2 does not occur and gets 0.
#[test]
fn embedding_backward_accumulates_repeated_tokens() {
    graded(|| {
        let embedding = small_embedding();
        let tokens = [1, 0, 1, 1];
        let d_out = array![
            [1.0, 0.0, -1.0, 2.0],
            [0.5, 0.5, 0.5, 0.5],
            [2.0, -1.0, 0.0, 1.0],
            [-0.5, 3.0, 1.0, 0.0]
        ];
        // Token 1: 2 · ([1, 0, −1, 2] + [2, −1, 0, 1] + [−0.5, 3, 1, 0]) = [5, 4, 0, 6].
        let expected = array![
            [1.0, 1.0, 1.0, 1.0],
            [5.0, 4.0, 0.0, 6.0],
            [0.0, 0.0, 0.0, 0.0]
        ];
        let got = embedding_backward(&embedding, &tokens, &d_out);
        assert_same_shape("Embedding::backward (the weight's gradient)", &got, (3, 4));
        assert_matrix_close(
            "Embedding::backward([1, 0, 1, 1], d_out)",
            &got,
            &expected,
            Tol::TIGHT,
            &embedding_backward_mistakes(3, &tokens, &d_out),
        );
    });
}

/// The scatter-add agrees with central differences of L = Σ forward(tokens) ⊙ G with
/// respect to the weight, for a sentence with repeated and missing tokens.
#[test]
fn embedding_backward_matches_numerical_gradient() {
    graded(|| {
        let weight = linspace_matrix(5, 6, -0.9, 0.7);
        let tokens = [3, 1, 3, 0, 3, 1];
        let upstream = linspace_matrix(6, 6, 1.1, -0.8);
        let analytic =
            embedding_backward(&Embedding::new(weight.clone()), &tokens, &upstream);
        let numerical = numerical_gradient(
            |w| {
                weighted_sum(
                    &embedding_forward(&Embedding::new(w.clone()), &tokens),
                    &upstream,
                )
            },
            &weight,
            STEP,
        );
        assert_gradient_close(
            "Embedding::backward",
            &analytic,
            &numerical,
            "d_weight[v] = √d_model · (sum of the rows of d_out whose token is v): add \
             (+=), don't assign, and leave the rows of unused tokens at 0",
        );
    });
}

// ---------------------------------------------------------------------------------------
// Adding the encoding
// ---------------------------------------------------------------------------------------

/// Row t of the result is x[t] + table[start + t]: positions count from `start`.
#[test]
fn add_positional_encoding_adds_the_row_of_each_position() {
    graded(|| {
        let x = linspace_matrix(3, 4, -1.0, 1.2);
        let table = linspace_matrix(6, 4, 0.5, -2.0);
        for start in [0, 2] {
            let got = add_positional_encoding(&x, &table, start);
            let expected =
                Matrix::from_shape_fn((3, 4), |(t, c)| x[[t, c]] + table[[start + t, c]]);
            assert_matrix_close(
                &format!("add_positional_encoding(x, table, {start})"),
                &got,
                &expected,
                Tol::TIGHT,
                &add_mistakes(&x, &table, start),
            );
        }
    });
}

/// Asking for more positions than the table has panics and says how many rows are
/// needed; so does a table of the wrong width.
#[test]
fn add_positional_encoding_rejects_a_table_that_is_too_short() {
    graded(|| {
        let x = linspace_matrix(3, 4, -1.0, 1.2);
        let table = linspace_matrix(4, 4, 0.5, -2.0);
        match panic_message(|| {
            let _ = add_positional_encoding(&x, &table, 3);
        }) {
            None => panic!(
                "add_positional_encoding of 3 rows from position 3 with a 4-row table \
                 should panic: positions 3, 4, 5 need 6 rows. Likely cause: the missing \
                 rows were filled in or skipped instead of reported."
            ),
            Some(text) => assert!(
                text.contains('6') && {
                    let lower = text.to_lowercase();
                    lower.contains("row") || lower.contains("table")
                },
                "add_positional_encoding of 3 rows from position 3 with a 4-row table \
                 panicked with \"{text}\", which does not say how many rows are needed (6). \
                 Likely cause: the panic came from slicing past the end rather than from a \
                 check with a message."
            ),
        }
        let narrow = linspace_matrix(6, 2, 0.5, -2.0);
        assert!(
            panic_message(|| {
                let _ = add_positional_encoding(&x, &narrow, 0);
            })
            .is_some(),
            "add_positional_encoding of a (3, 4) x with a (6, 2) table should panic: the \
             encoding must be as wide as the embeddings (d_model). Likely cause: only part \
             of each row got an encoding."
        );
    });
}

/// embed_with_positions(e, tokens, table) = √d_model · e.weight[tokens] + table[0..n]:
/// the encoding is added after the scale, so it is not scaled itself.
#[test]
fn embed_with_positions_adds_the_encoding_to_the_scaled_embeddings() {
    graded(|| {
        let embedding = small_embedding();
        let table = sinusoidal_table(8, 4);
        let tokens = [1, 2, 1];
        let got = embed_with_positions(&embedding, &tokens, &table);
        let rows = embedding.weight.select(Axis(0), &tokens);
        let pe = table.slice(s![0..3, ..]).to_owned();
        let expected = &rows * 2.0 + &pe;
        assert_matrix_close(
            "embed_with_positions(e, [1, 2, 1], table)",
            &got,
            &expected,
            Tol::TIGHT,
            &embed_with_positions_mistakes(&embedding.weight, &tokens, &table),
        );
    });
}

// ---------------------------------------------------------------------------------------
// How large the embeddings are next to the encoding
// ---------------------------------------------------------------------------------------

/// With the course's initialisation scale (entries of size 1/√d_model) the scaled rows
/// have norm √d_model and the encoding's rows √(d_model/2): a ratio of √2, whatever
/// d_model is (hand-computed).
#[test]
fn the_course_initialisation_gives_a_ratio_of_sqrt_two() {
    graded(|| {
        for (vocab, d_model, max_len) in [(5, 8, 7), (11, 32, 50)] {
            let entry = 1.0 / (d_model as Float).sqrt();
            let weight = Matrix::from_shape_fn((vocab, d_model), |(v, c)| {
                if (v + c).is_multiple_of(2) {
                    entry
                } else {
                    -entry
                }
            });
            let table = independent_table(max_len, d_model);
            let got =
                embedding_to_encoding_ratio(&Embedding::new(weight.clone()), &table);
            let expected = (2.0 as Float).sqrt();
            let cause = ratio_cause(got, &weight, &table).unwrap_or(
                "ratio = sqrt(mean over the vocabulary of ‖scale · weight[v]‖²) / \
                 sqrt(mean over positions of ‖table[pos]‖²)",
            );
            assert!(
                (got - expected).abs() <= 1e-10,
                "embedding_to_encoding_ratio with entries ±1/√{d_model} (d_model = \
                 {d_model}): expected √2 = {expected}, got {got}. Likely cause: {cause}."
            );
        }
    });
}

/// PyTorch's default nn.Embedding init, N(0, 1), times √d_model drowns the encoding: with
/// entries ±1 and d_model = 32 the ratio is √(2·32) = 8 (hand-computed).
#[test]
fn unit_variance_embeddings_times_sqrt_d_model_drown_the_encoding() {
    graded(|| {
        let weight =
            Matrix::from_shape_fn(
                (7, 32),
                |(v, c)| {
                    if (v * 3 + c) % 5 < 2 { -1.0 } else { 1.0 }
                },
            );
        let table = independent_table(20, 32);
        let got = embedding_to_encoding_ratio(&Embedding::new(weight), &table);
        assert_close(
            "embedding_to_encoding_ratio with entries ±1 and d_model = 32 (scaled rows have \
             norm 32, encoding rows norm 4)",
            got,
            8.0,
            Tol::TIGHT,
        );
    });
}

/// The ratio on an irregular weight and a table with a different number of rows than the
/// vocabulary matches NumPy: root-mean-square row norms, not total (Frobenius) norms and
/// not the mean of the norms.
#[test]
fn embedding_to_encoding_ratio_matches_numpy() {
    graded(|| {
        let weight = linspace_matrix(4, 6, -1.0, 1.0);
        let table = independent_table(10, 6);
        let got = embedding_to_encoding_ratio(&Embedding::new(weight.clone()), &table);
        // tools/reference/lesson04_positional.py; the values common mistakes give (the rows
        // unscaled 0.8512565308, the mean of the norms 1.89963148, total norms 1.318760947)
        // are the harness's to name.
        let expected = 2.085144141;
        let cause = ratio_cause(got, &weight, &table).unwrap_or(
            "ratio = sqrt(mean_v ‖scale · weight[v]‖²) / sqrt(mean_pos ‖table[pos]‖²)",
        );
        assert!(
            (got - expected).abs() <= 1e-8,
            "embedding_to_encoding_ratio(linspace(4, 6, −1, 1), sinusoidal_table(10, 6)): \
             expected {expected}, got {got}. Likely cause: {cause}."
        );
    });
}

// ---------------------------------------------------------------------------------------
// Why attention needs positions: 猫追狗 and 狗追猫
// ---------------------------------------------------------------------------------------

/// The vocabulary of the seed's example: 猫 (cat), 追 (chase), 狗 (dog).
fn tokens(text: &str) -> Vec<usize> {
    text.chars()
        .map(|c| match c {
            '猫' => 0,
            '追' => 1,
            '狗' => 2,
            other => panic!("{other} is not in the test's vocabulary"),
        })
        .collect()
}

/// The embeddings of 猫, 追, 狗 (d_model = 4), the same as in chapter 04.
fn animal_embedding() -> Embedding {
    Embedding::new(array![
        [0.6, -0.2, 0.5, 0.1],
        [-0.4, 0.7, 0.0, -0.5],
        [0.3, 0.4, -0.6, 0.2]
    ])
}

fn identity_linear(d: usize) -> Linear {
    Linear::new(Matrix::eye(d), Vector::zeros(d))
}

/// A head whose three projections are the identity: Q = K = V = X.
fn identity_head(d: usize) -> SelfAttentionHead {
    SelfAttentionHead {
        w_q: identity_linear(d),
        w_k: identity_linear(d),
        w_v: identity_linear(d),
    }
}

fn reversed_rows(m: &Matrix) -> Matrix {
    m.slice(s![..;-1, ..]).to_owned()
}

/// Panics unless `got` equals `expected` to 1e-12, naming the one way the lesson's code can
/// break the symmetry: a lookup that depends on where the token stands.
fn assert_permuted(what: &str, got: &Matrix, expected: &Matrix) {
    assert_same_shape(what, got, expected.dim());
    let gap = (got - expected)
        .iter()
        .fold(0.0 as Float, |m, v| m.max(v.abs()));
    assert!(
        gap <= 1e-12,
        "{what}: without positions, reordering the tokens must reorder these rows and change \
         nothing else, but they differ by up to {gap:.3e}. Likely cause: Embedding::forward \
         depends on where a token stands; row t must be scale() · weight[tokens[t]], the same \
         at every position (positions are added by add_positional_encoding).\n{}{}",
        show("expected", expected),
        show("got", got)
    );
}

/// Without positional encoding, self-attention gives 狗追猫 exactly the rows it gives
/// 猫追狗, in reverse order: 猫 gets the same vector in both sentences, and so does 追, so
/// nothing downstream can tell who chases whom.
#[test]
fn without_positions_attention_cannot_tell_cat_chases_dog_from_dog_chases_cat() {
    graded(|| {
        let embedding = animal_embedding();
        let head = identity_head(4);
        let out = |text: &str| {
            head.forward(&embedding_forward(&embedding, &tokens(text)), None)
                .attention
                .output
        };
        let (cat_chases_dog, dog_chases_cat) = (out("猫追狗"), out("狗追猫"));
        assert_permuted(
            "self-attention of 狗追猫 without positions (should be the rows of 猫追狗, reversed)",
            &dog_chases_cat,
            &reversed_rows(&cat_chases_dog),
        );
        // tools/reference/lesson04_positional.py: 猫追狗 without PE.
        let expected = array![
            [0.9399542755, -0.07129565239, 0.5974618779, 0.1242928524],
            [-0.4809576312, 1.210772121, -0.122341665, -0.7254992126],
            [0.3888986874, 0.7707499568, -0.6744016765, 0.08731635521]
        ];
        assert_matrix_close(
            "self-attention (Q = K = V = X) of the embeddings of 猫追狗",
            &cat_chases_dog,
            &expected,
            Tol {
                abs: 1e-9,
                rel: 0.0,
            },
            &[],
        );
    });
}

/// With the encoding added, the two sentences give different representations: the output
/// rows of 狗追猫 differ from the reversed rows of 猫追狗 by up to 1.447 (NumPy), and 追,
/// at position 1 in both, now differs by 0.513 because it sees who is at position 0.
#[test]
fn with_positions_attention_tells_who_chases_whom() {
    graded(|| {
        let embedding = animal_embedding();
        let table = sinusoidal_table(3, 4);
        let head = identity_head(4);
        let out = |text: &str| {
            let x = embed_with_positions(&embedding, &tokens(text), &table);
            head.forward(&x, None).attention.output
        };
        let (cat_chases_dog, dog_chases_cat) = (out("猫追狗"), out("狗追猫"));
        // tools/reference/lesson04_positional.py: with PE.
        let expected_cat = array![
            [1.124713373, 0.7238440618, 0.3017273523, 1.090741737],
            [0.477616717, 1.457010592, 0.01547805721, 0.4336111309],
            [1.366510053, 0.5179528062, -0.7656227092, 1.278356648]
        ];
        let expected_dog = array![
            [0.5622547318, 1.74607061, -0.9626144921, 1.192467018],
            [0.3695599308, 1.774886276, -0.4970866231, 0.6745609229],
            [2.050950009, -0.7235332016, 0.9550926358, 1.192362123]
        ];
        let tol = Tol {
            abs: 1e-9,
            rel: 0.0,
        };
        assert_matrix_close(
            "self-attention of 猫追狗 with positions",
            &cat_chases_dog,
            &expected_cat,
            tol,
            &[],
        );
        assert_matrix_close(
            "self-attention of 狗追猫 with positions",
            &dog_chases_cat,
            &expected_dog,
            tol,
            &[],
        );
        let gap = (&dog_chases_cat - &reversed_rows(&cat_chases_dog))
            .iter()
            .fold(0.0 as Float, |m, v| m.max(v.abs()));
        assert!(
            gap > 1.0,
            "with positions, 狗追猫 should no longer be 猫追狗 reversed: the largest \
             difference is {gap}, expected 1.447. Likely cause: the encoding was not added."
        );
    });
}

fn general_head() -> SelfAttentionHead {
    SelfAttentionHead {
        w_q: Linear::new(
            linspace_matrix(4, 8, 0.5, -0.6),
            Vector::from(linspace(0.1, -0.1, 4)),
        ),
        w_k: Linear::new(
            linspace_matrix(4, 8, -0.4, 0.7),
            Vector::from(linspace(-0.2, 0.2, 4)),
        ),
        w_v: Linear::new(
            linspace_matrix(3, 8, 0.8, -0.3),
            Vector::from(linspace(0.05, -0.05, 3)),
        ),
    }
}

/// For any head and any permutation P of the tokens, without positions
/// attention(P X) = P attention(X) and the weights become P W Pᵀ; with the encoding
/// added, the outputs differ by more than 1 (NumPy: 2.045).
#[test]
fn self_attention_is_permutation_equivariant_until_positions_are_added() {
    graded(|| {
        let embedding = Embedding::new(linspace_matrix(6, 8, -0.45, 0.5));
        let head = general_head();
        let sentence = [3, 0, 5, 1, 4];
        let perm = [2, 4, 0, 3, 1];
        let shuffled: Vec<usize> = perm.iter().map(|&p| sentence[p]).collect();

        let plain = head
            .forward(&embedding_forward(&embedding, &sentence), None)
            .attention;
        let moved = head
            .forward(&embedding_forward(&embedding, &shuffled), None)
            .attention;
        assert_permuted(
            "output for the permuted tokens, without positions (should be P · output)",
            &moved.output,
            &plain.output.select(Axis(0), &perm),
        );
        assert_permuted(
            "weights for the permuted tokens, without positions (should be P W Pᵀ)",
            &moved.weights,
            &plain.weights.select(Axis(0), &perm).select(Axis(1), &perm),
        );

        let table = sinusoidal_table(5, 8);
        let plain =
            head.forward(&embed_with_positions(&embedding, &sentence, &table), None);
        let moved =
            head.forward(&embed_with_positions(&embedding, &shuffled, &table), None);
        let gap = (&moved.attention.output
            - &plain.attention.output.select(Axis(0), &perm))
            .iter()
            .fold(0.0 as Float, |m, v| m.max(v.abs()));
        assert!(
            gap > 1.0,
            "with positions, permuting the tokens should change the outputs by more than \
             permuting them: the largest difference from P · output is {gap}, expected \
             about 2.045. Likely cause: embed_with_positions did not add table[t] to row t."
        );
    });
}

/// The gradient of a loss on the attention output flows back through the head, through
/// the (constant) encoding unchanged, and into the embedding by scatter-add: checked
/// against central differences with respect to the embedding weight.
#[test]
fn gradients_flow_from_attention_through_the_encoding_to_the_embedding() {
    graded(|| {
        let weight = array![
            [0.6, -0.2, 0.5, 0.1],
            [-0.4, 0.7, 0.0, -0.5],
            [0.3, 0.4, -0.6, 0.2]
        ];
        let head = SelfAttentionHead {
            w_q: Linear::new(
                linspace_matrix(3, 4, 0.5, -0.6),
                Vector::from(linspace(0.1, -0.1, 3)),
            ),
            w_k: Linear::new(
                linspace_matrix(3, 4, -0.4, 0.7),
                Vector::from(linspace(-0.2, 0.2, 3)),
            ),
            w_v: Linear::new(
                linspace_matrix(2, 4, 0.8, -0.3),
                Vector::from(linspace(0.05, -0.05, 2)),
            ),
        };
        let sentence = tokens("猫追狗追猫");
        let table = sinusoidal_table(5, 4);
        let upstream = linspace_matrix(5, 2, 1.0, -0.7);
        let embedding = Embedding::new(weight.clone());
        let x = embed_with_positions(&embedding, &sentence, &table);
        let forward = head.forward(&x, None);
        let d_x = head.backward(&x, &forward, &upstream).d_x;
        let analytic = embedding_backward(&embedding, &sentence, &d_x);
        let numerical = numerical_gradient(
            |w| {
                let x =
                    embed_with_positions(&Embedding::new(w.clone()), &sentence, &table);
                weighted_sum(&head.forward(&x, None).attention.output, &upstream)
            },
            &weight,
            STEP,
        );
        assert_gradient_close(
            "the embedding's gradient from a loss on the attention output",
            &analytic,
            &numerical,
            "the encoding is a constant, so the gradient of x = √d_model · E[tokens] + PE \
             reaches the embedding unchanged; Embedding::backward must then scatter-add \
             each row into its token's row (猫 and 追 occur twice) and multiply by √d_model",
        );
    });
}
