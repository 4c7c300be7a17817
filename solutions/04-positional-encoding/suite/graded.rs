//! Graded tests of lesson 04, positional encoding.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API
//! (and lesson 02's reference `SelfAttentionHead`), so any correct implementation passes.
//! Each test names the property it checks; every fixture is a hand-computed value, a value
//! from NumPy (float64, which solutions/04-positional-encoding/reference.py writes into
//! `graded.json` beside this file), burn's PyTorch-derived table, or an exact mathematical
//! property. Every call into the lesson goes through
//! `observe` (the wrappers below), so that the checker's judge can replay the values the
//! learner's code returned (see `course_harness::tape`).

use attention::{Linear, SelfAttentionHead};
use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::positional_encoding::{CONCATENATED, SWAPPED};
use course_harness::check::show;
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::relations::or_relation;
use course_harness::{
    Catalog, Named, Reference, Tol, assert_close, assert_gradient_close,
    assert_matrix_close, assert_same_shape, graded, linspace, linspace_matrix, named,
    numerical_gradient, observe, scalar_cause, tr,
};
#[cfg(feature = "builders")]
use course_mistakes::positional_encoding::{
    add_mistakes, added, embed_with_positions_mistakes, embedded,
    embedding_backward_mistakes, embedding_mistakes, frequency_mistakes, ratio_mistakes,
    reference_table, table_mistakes, table_mistakes_at_rows,
};
use positional_encoding::{self as lesson, Embedding};
use std::panic::{UnwindSafe, catch_unwind, resume_unwind};
use std::sync::LazyLock;

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named =
    Named::new(file!(), &[&MESSAGES], include_str!("graded.named.json"));

/// The values NumPy computed for these tests (see the module docs), by name.
static NUMPY: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse(
        "04-positional-encoding/graded.json",
        include_str!("graded.json"),
    )
});

/// What a failed test says, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "04-positional-encoding",
    include_str!("locales/en/suite.ftl"),
    include_str!("locales/zh-CN/suite.ftl"),
);

// ---------------------------------------------------------------------------------------
// Helpers (the wrong answers that common mistakes give are built by
// `course_mistakes::positional_encoding`)
// ---------------------------------------------------------------------------------------

/// A sinusoidal table built by the test itself (the harness's), as the input of the ratio
/// tests, so that they check `embedding_to_encoding_ratio` alone, whatever the state of
/// the learner's `sinusoidal_table`. It is recorded beside this file (see
/// `course_harness::named`), so that no code of this file computes the table.
#[cfg_attr(not(feature = "builders"), allow(unused_variables))]
fn independent_table(max_len: usize, d_model: usize) -> Matrix {
    named!(NAMED, reference_table(max_len, d_model) => Matrix)
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
    let _args = course_harness::call_args!(d_model);
    observe("frequencies", || lesson::frequencies(d_model))
}

fn sinusoidal_table(max_len: usize, d_model: usize) -> Matrix {
    let _args = course_harness::call_args!(max_len, d_model);
    observe("sinusoidal_table", || {
        lesson::sinusoidal_table(max_len, d_model)
    })
}

/// `embedding.forward(tokens)`, observed.
fn embedding_forward(embedding: &Embedding, tokens: &[usize]) -> Matrix {
    let _args = course_harness::call_args!(tokens);
    observe("Embedding::forward", || embedding.forward(tokens))
}

/// `embedding.backward(tokens, d_out)`, observed.
fn embedding_backward(embedding: &Embedding, tokens: &[usize], d_out: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(tokens, d_out);
    observe("Embedding::backward", || embedding.backward(tokens, d_out))
}

fn add_positional_encoding(x: &Matrix, table: &Matrix, start: usize) -> Matrix {
    let _args = course_harness::call_args!(x, table, start);
    observe("add_positional_encoding", || {
        lesson::add_positional_encoding(x, table, start)
    })
}

fn embed_with_positions(
    embedding: &Embedding,
    tokens: &[usize],
    table: &Matrix,
) -> Matrix {
    let _args = course_harness::call_args!(tokens, table);
    observe("embed_with_positions", || {
        lesson::embed_with_positions(embedding, tokens, table)
    })
}

fn embedding_to_encoding_ratio(embedding: &Embedding, table: &Matrix) -> Float {
    let _args = course_harness::call_args!(table);
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
            &named!(NAMED, frequency_mistakes(8)),
        );
        // 10000^(−2i/16), i = 0..8.
        assert_matrix_close(
            "frequencies(16)",
            &row_matrix(&frequencies(16)),
            &row_matrix(&NUMPY.vector("frequencies_16")),
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
            &tr!(MESSAGES, "table-rows-d6"),
            &table.select(Axis(0), &rows),
            &expected,
            Tol {
                abs: 6e-6,
                rel: 0.0,
            },
            &named!(NAMED, table_mistakes_at_rows(&rows, 6)),
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
        let rows8 = [0, 1, 2, 3, 4, 5, 37, 100];
        let expected8 = NUMPY.matrix("table_8_rows");
        let table8 = sinusoidal_table(101, 8);
        assert_same_shape("sinusoidal_table(101, 8)", &table8, (101, 8));
        assert_matrix_close(
            &tr!(MESSAGES, "table-rows-d8"),
            &table8.select(Axis(0), &rows8),
            &expected8,
            tol,
            &named!(NAMED, table_mistakes_at_rows(&rows8, 8)),
        );

        let rows16 = [1, 7, 50, 99, 1000];
        let expected16 = NUMPY.matrix("table_16_rows");
        let table16 = sinusoidal_table(1001, 16);
        assert_same_shape("sinusoidal_table(1001, 16)", &table16, (1001, 16));
        assert_matrix_close(
            &tr!(MESSAGES, "table-rows-d16"),
            &table16.select(Axis(0), &rows16),
            &expected16,
            tol,
            &named!(NAMED, table_mistakes_at_rows(&rows16, 16)),
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
            SWAPPED.text().to_owned()
        } else if close(&row0, &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]) {
            CONCATENATED.text().to_owned()
        } else {
            tr!(MESSAGES, "row-zero-cause")
        };
        assert!(
            close(&row0, &interleaved),
            "{}",
            tr!(
                MESSAGES,
                "row-zero-mismatch",
                expected = format!("{interleaved:?}"),
                got = format!("{row0:?}"),
                cause = cause,
            )
        );
        let two = sinusoidal_table(4, 2);
        // sin p and cos p for p = 0 to 3, written out (Python's math.sin and math.cos).
        let expected = array![
            [0.0, 1.0],
            [0.8414709848078965, 0.5403023058681398],
            [0.9092974268256817, -0.4161468365471424],
            [0.1411200080598672, -0.9899924966004454],
        ];
        assert_matrix_close(
            &tr!(MESSAGES, "table-d2"),
            &two,
            &expected,
            Tol::TIGHT,
            &named!(NAMED, table_mistakes(4, 2)),
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
                None => panic!("{}", tr!(MESSAGES, "odd-not-rejected", what = what)),
                Some(text) => assert!(
                    text.to_lowercase().contains("even"),
                    "{}",
                    tr!(MESSAGES, "odd-unclear", what = what, text = text)
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
                        "{}",
                        tr!(
                            MESSAGES,
                            "rotation-broken",
                            i = i,
                            even = 2 * i,
                            odd = 2 * i + 1,
                            shifted = p + k,
                            p = p,
                            k = k,
                            expected = format!("{rotated:?}"),
                            got = format!("{got:?}"),
                        )
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
        let distances = [1, 3, 10, 25];
        let dots = NUMPY.vector("dot_at_distance");
        assert!(
            dots.len() == distances.len(),
            "one dot product per distance"
        );
        for (k, dot) in distances.into_iter().zip(dots) {
            for p in [0, 5, 20, 400] {
                let got = table.row(p).dot(&table.row(p + k));
                assert!(
                    (got - dot).abs() <= 1e-8,
                    "{}",
                    tr!(
                        MESSAGES,
                        "dot-not-distance-only",
                        p = p,
                        shifted = p + k,
                        k = k,
                        expected = dot.to_string(),
                        got = got.to_string(),
                    )
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
                    "{}",
                    tr!(
                        MESSAGES,
                        "norm-not-half",
                        p = p,
                        d_model = d_model,
                        expected = half.to_string(),
                        got = n.to_string(),
                    )
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
            &named!(NAMED, embedding_mistakes(&embedding.weight, &tokens)),
        );
        assert_same_shape(
            &tr!(MESSAGES, "forward-no-tokens"),
            &embedding_forward(&embedding, &[]),
            (0, 4),
        );
    });
}

/// A token id that is not below the vocabulary size is a bug in the caller: forward
/// panics with a message about the vocabulary. Both the first id past the end (the
/// vocabulary's size itself, where an off-by-one bound lets it through) and one far past it.
#[test]
fn embedding_forward_rejects_a_token_outside_the_vocabulary() {
    graded(|| {
        let embedding = small_embedding();
        for token in [3, 7] {
            let token_text = token.to_string();
            match panic_message(|| {
                let _ = embedding_forward(&embedding, &[0, token]);
            }) {
                None => panic!(
                    "{}",
                    tr!(MESSAGES, "vocab-not-rejected", token = token_text.as_str())
                ),
                // The contract asks for a message that names the token and the vocabulary
                // size, in any words: both numbers must be in it; and it must be the
                // check's own, not an index that failed inside ndarray (whose message
                // holds the same numbers when the token is the vocabulary's size).
                Some(text) => {
                    let numbers: Vec<&str> = text
                        .split(|c: char| !c.is_ascii_digit())
                        .filter(|n| !n.is_empty())
                        .collect();
                    let from_indexing = text.starts_with("collapse_axis")
                        || text.starts_with("ndarray:")
                        || text.starts_with("index out of bounds");
                    assert!(
                        !from_indexing
                            && numbers.contains(&token_text.as_str())
                            && numbers.contains(&"3"),
                        "{}",
                        tr!(
                            MESSAGES,
                            "vocab-unclear",
                            token = token_text.as_str(),
                            text = text
                        )
                    );
                }
            }
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
        assert_same_shape(&tr!(MESSAGES, "backward-shape"), &got, (3, 4));
        assert_matrix_close(
            "Embedding::backward([1, 0, 1, 1], d_out)",
            &got,
            &expected,
            Tol::TIGHT,
            &named!(NAMED, embedding_backward_mistakes(3, &tokens, &d_out)),
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
            &tr!(MESSAGES, "backward-hint"),
        );
    });
}

// ---------------------------------------------------------------------------------------
// Adding the encoding
// ---------------------------------------------------------------------------------------

/// Row t of the result is x[t] + table[start + t]: positions count from `start`. Start 3
/// uses the table's last row: a table of exactly start + n rows is long enough.
#[test]
fn add_positional_encoding_adds_the_row_of_each_position() {
    graded(|| {
        let x = linspace_matrix(3, 4, -1.0, 1.2);
        let table = linspace_matrix(6, 4, 0.5, -2.0);
        for start in [0, 2, 3] {
            let got = add_positional_encoding(&x, &table, start);
            let expected = named!(NAMED, added(&x, &table, start) => Matrix);
            assert_matrix_close(
                &format!("add_positional_encoding(x, table, {start})"),
                &got,
                &expected,
                Tol::TIGHT,
                &named!(NAMED, add_mistakes(&x, &table, start)),
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
            None => panic!("{}", tr!(MESSAGES, "short-not-rejected")),
            Some(text) => assert!(
                text.contains('6') && {
                    let lower = text.to_lowercase();
                    lower.contains("row") || lower.contains("table")
                },
                "{}",
                tr!(MESSAGES, "short-unclear", text = text)
            ),
        }
        let narrow = linspace_matrix(6, 2, 0.5, -2.0);
        assert!(
            panic_message(|| {
                let _ = add_positional_encoding(&x, &narrow, 0);
            })
            .is_some(),
            "{}",
            tr!(MESSAGES, "narrow-not-rejected")
        );
    });
}

/// embed_with_positions(e, tokens, table) = √d_model · e.weight[tokens] + table[0..n]:
/// the encoding is added after the scale, so it is not scaled itself.
#[test]
fn embed_with_positions_adds_the_encoding_to_the_scaled_embeddings() {
    graded(|| {
        let embedding = small_embedding();
        let table = independent_table(8, 4);
        let tokens = [1, 2, 1];
        let got = embed_with_positions(&embedding, &tokens, &table);
        let expected =
            named!(NAMED, embedded(&embedding.weight, &tokens, &table) => Matrix);
        assert_matrix_close(
            "embed_with_positions(e, [1, 2, 1], table)",
            &got,
            &expected,
            Tol::TIGHT,
            &named!(
                NAMED,
                embed_with_positions_mistakes(&embedding.weight, &tokens, &table)
            ),
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
            let wrong_ratios = named!(NAMED, ratio_mistakes(&weight, &table));
            let cause = scalar_cause(got, expected, &wrong_ratios)
                .map(|cause| cause.text().to_owned())
                .unwrap_or_else(|| {
                    or_relation(got, expected, &tr!(MESSAGES, "ratio-formula"))
                });
            assert!(
                (got - expected).abs() <= 1e-10,
                "{}",
                tr!(
                    MESSAGES,
                    "ratio-not-sqrt-two",
                    d_model = d_model,
                    expected = expected.to_string(),
                    got = got.to_string(),
                    cause = cause,
                )
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
        assert_close(&tr!(MESSAGES, "ratio-unit-entries"), got, 8.0, Tol::TIGHT);
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
        // The values common mistakes give (the rows unscaled 0.8512565308, the mean of the
        // norms 1.89963148, total norms 1.318760947) are the harness's to name.
        let expected = NUMPY.scalar("ratio");
        let wrong_ratios = named!(NAMED, ratio_mistakes(&weight, &table));
        let cause = scalar_cause(got, expected, &wrong_ratios)
            .map(|cause| cause.text().to_owned())
            .unwrap_or_else(|| {
                or_relation(got, expected, &tr!(MESSAGES, "ratio-formula-short"))
            });
        assert!(
            (got - expected).abs() <= 1e-8,
            "{}",
            tr!(
                MESSAGES,
                "ratio-mismatch",
                expected = expected.to_string(),
                got = got.to_string(),
                cause = cause,
            )
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
            other => panic!(
                "{}",
                tr!(MESSAGES, "not-in-vocabulary", token = other.to_string())
            ),
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
        "{}\n{}{}",
        tr!(
            MESSAGES,
            "not-permuted",
            what = what,
            gap = format!("{gap:.3e}")
        ),
        show(&tr!(MESSAGES, "label-expected"), expected),
        show(&tr!(MESSAGES, "label-got"), got)
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
            &tr!(MESSAGES, "dog-without-positions"),
            &dog_chases_cat,
            &reversed_rows(&cat_chases_dog),
        );
        let expected = NUMPY.matrix("cat_chases_dog_without_positions");
        assert_matrix_close(
            &tr!(MESSAGES, "cat-without-positions"),
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
        let expected_cat = NUMPY.matrix("cat_chases_dog_with_positions");
        let expected_dog = NUMPY.matrix("dog_chases_cat_with_positions");
        let tol = Tol {
            abs: 1e-9,
            rel: 0.0,
        };
        assert_matrix_close(
            &tr!(MESSAGES, "with-positions", sentence = "猫追狗"),
            &cat_chases_dog,
            &expected_cat,
            tol,
            &[],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "with-positions", sentence = "狗追猫"),
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
            "{}",
            tr!(MESSAGES, "still-reversed", gap = gap.to_string())
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
            &tr!(MESSAGES, "permuted-output"),
            &moved.output,
            &plain.output.select(Axis(0), &perm),
        );
        assert_permuted(
            &tr!(MESSAGES, "permuted-weights"),
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
            "{}",
            tr!(MESSAGES, "still-equivariant", gap = gap.to_string())
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
            &tr!(MESSAGES, "gradient-through-attention"),
            &analytic,
            &numerical,
            &tr!(MESSAGES, "gradient-through-attention-hint"),
        );
    });
}
