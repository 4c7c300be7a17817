//! Lesson 04: the frequencies, the sinusoidal table, the embedding and its backward pass,
//! adding the encoding, the embedding-to-encoding ratio.

use crate::differing;
use course_common::ndarray::{Axis, s};
use course_common::{Float, Matrix};
use course_harness::Cause;
use course_harness::Misconception;
use course_harness::causes::positional_encoding::*;

/// ω_i = 10000^(−2i/d_model).
pub fn omega(i: usize, d_model: usize) -> Float {
    (10_000.0 as Float).powf(-((2 * i) as Float) / d_model as Float)
}

/// A `(max_len, d_model)` table whose entry (pos, col) is `entry(pos, col)`.
fn table_with(
    max_len: usize,
    d_model: usize,
    entry: impl Fn(Float, usize) -> Float,
) -> Matrix {
    Matrix::from_shape_fn((max_len, d_model), |(pos, col)| entry(pos as Float, col))
}

fn sin_or_cos(col: usize, angle: Float) -> Float {
    if col.is_multiple_of(2) {
        angle.sin()
    } else {
        angle.cos()
    }
}

/// The sinusoidal table, written out: column 2i is sin(pos·ω_i), column 2i + 1
/// cos(pos·ω_i).
pub fn reference_table(max_len: usize, d_model: usize) -> Matrix {
    table_with(max_len, d_model, |pos, col| {
        sin_or_cos(col, pos * omega(col / 2, d_model))
    })
}

/// What `frequencies(d_model)` returns (as a `(1, d_model/2)` row) with the exponent
/// in integer arithmetic, i/d_model, or positive.
pub fn frequency_mistakes(d_model: usize) -> Vec<Misconception> {
    let d: Float = d_model as Float;
    let row = |f: &dyn Fn(usize) -> Float| {
        Matrix::from_shape_fn((1, d_model / 2), |(_, i)| f(i))
    };
    let right = row(&|i| omega(i, d_model));
    let mistakes = vec![
        Misconception {
            cause: INTEGER_DIVISION,
            result: row(&|_| 1.0),
        },
        Misconception {
            cause: EXPONENT_I,
            result: row(&|i| (10_000.0 as Float).powf(-(i as Float) / d)),
        },
        Misconception {
            cause: POSITIVE_EXPONENT,
            result: row(&|i| 1.0 / omega(i, d_model)),
        },
    ];
    differing(&right, mistakes)
}

/// What `sinusoidal_table(max_len, d_model)` returns with sine and cosine swapped, the
/// concatenated layout, a wrong exponent, or positions from 1.
pub fn table_mistakes(max_len: usize, d_model: usize) -> Vec<Misconception> {
    let d: Float = d_model as Float;
    let half = d_model / 2;
    let with_frequency = |omega: &dyn Fn(usize) -> Float| {
        table_with(max_len, d_model, |pos, col| {
            sin_or_cos(col, pos * omega(col))
        })
    };
    let mistakes = vec![
        Misconception {
            cause: SWAPPED,
            result: table_with(max_len, d_model, |pos, col| {
                sin_or_cos(col + 1, pos * omega(col / 2, d_model))
            }),
        },
        Misconception {
            cause: CONCATENATED,
            result: table_with(max_len, d_model, |pos, col| {
                if col < half {
                    (pos * omega(col, d_model)).sin()
                } else {
                    (pos * omega(col - half, d_model)).cos()
                }
            }),
        },
        Misconception {
            cause: INTEGER_DIVISION,
            result: with_frequency(&|_| 1.0),
        },
        Misconception {
            cause: EXPONENT_I,
            result: with_frequency(&|col| {
                (10_000.0 as Float).powf(-((col / 2) as Float) / d)
            }),
        },
        Misconception {
            cause: EXPONENT_COLUMN,
            result: with_frequency(&|col| (10_000.0 as Float).powf(-(col as Float) / d)),
        },
        Misconception {
            cause: EXPONENT_TWO_COLUMNS,
            result: with_frequency(&|col| {
                (10_000.0 as Float).powf(-2.0 * col as Float / d)
            }),
        },
        Misconception {
            cause: POSITIVE_EXPONENT,
            result: with_frequency(&|col| 1.0 / omega(col / 2, d_model)),
        },
        Misconception {
            cause: FROM_ONE,
            result: table_with(max_len, d_model, |pos, col| {
                sin_or_cos(col, (pos + 1.0) * omega(col / 2, d_model))
            }),
        },
    ];
    differing(&reference_table(max_len, d_model), mistakes)
}

/// [`table_mistakes`] restricted to the given rows, to compare with a fixture that
/// lists only some positions.
pub fn table_mistakes_at_rows(rows: &[usize], d_model: usize) -> Vec<Misconception> {
    let max_len = rows.iter().max().map_or(0, |&r| r + 1);
    table_mistakes(max_len, d_model)
        .into_iter()
        .map(|m| Misconception {
            cause: m.cause,
            result: m.result.select(Axis(0), rows),
        })
        .collect()
}

/// What `Embedding::forward(tokens)` returns for the embedding `weight` with the rows
/// unscaled, scaled by d_model, or divided by √d_model.
pub fn embedding_mistakes(weight: &Matrix, tokens: &[usize]) -> Vec<Misconception> {
    let rows = weight.select(Axis(0), tokens);
    let d_model = weight.ncols() as Float;
    let right = &rows * d_model.sqrt();
    let mistakes = vec![
        Misconception {
            cause: Cause::harness("rows-not-scaled"),
            result: rows.clone(),
        },
        Misconception {
            cause: Cause::harness("rows-times-d-model"),
            result: &rows * d_model,
        },
        Misconception {
            cause: Cause::harness("rows-divided-by-scale"),
            result: &rows / d_model.sqrt(),
        },
    ];
    differing(&right, mistakes)
}

/// What `Embedding::backward(tokens, d_out)` returns for a vocabulary of `vocab` tokens
/// when a repeated token keeps its last or its first occurrence only, or without the
/// factor √d_model.
pub fn embedding_backward_mistakes(
    vocab: usize,
    tokens: &[usize],
    d_out: &Matrix,
) -> Vec<Misconception> {
    let scale = (d_out.ncols() as Float).sqrt();
    let scatter = |keep: &dyn Fn(&mut Matrix, usize, usize)| {
        let mut d_weight = Matrix::zeros((vocab, d_out.ncols()));
        for (t, &token) in tokens.iter().enumerate() {
            keep(&mut d_weight, t, token);
        }
        d_weight
    };
    let right = scatter(&|d, t, token| {
        d.row_mut(token).scaled_add(scale, &d_out.row(t));
    });
    let mut seen = vec![false; vocab];
    let mut first_only = Matrix::zeros((vocab, d_out.ncols()));
    for (t, &token) in tokens.iter().enumerate() {
        if !std::mem::replace(&mut seen[token], true) {
            first_only.row_mut(token).assign(&(&d_out.row(t) * scale));
        }
    }
    let mistakes = vec![
        Misconception {
            cause: Cause::harness("repeated-token-overwritten"),
            result: scatter(&|d, t, token| {
                d.row_mut(token).assign(&(&d_out.row(t) * scale));
            }),
        },
        Misconception {
            cause: Cause::harness("repeated-token-first-only"),
            result: first_only,
        },
        Misconception {
            cause: Cause::harness("embedding-gradient-not-scaled"),
            result: &right / scale,
        },
    ];
    differing(&right, mistakes)
}

/// `add_positional_encoding(x, table, start)`, right: row t is `x[t] + table[start + t]`.
/// The suite reads it recorded, so that the student edition does not compute it.
pub fn added(x: &Matrix, table: &Matrix, start: usize) -> Matrix {
    x + &table.slice(s![start..start + x.nrows(), ..])
}

/// `embed_with_positions`, right, for the embedding `weight`: √d_model · `weight[tokens]`
/// + `table[0..n]`, recorded for the suite as [`added`] is.
pub fn embedded(weight: &Matrix, tokens: &[usize], table: &Matrix) -> Matrix {
    let scale = (weight.ncols() as Float).sqrt();
    weight.select(Axis(0), tokens) * scale + table.slice(s![0..tokens.len(), ..])
}

/// What `add_positional_encoding(x, table, start)` returns with the first position's
/// encoding on every row, the positions shifted by one, or `start` ignored.
pub fn add_mistakes(x: &Matrix, table: &Matrix, start: usize) -> Vec<Misconception> {
    let n = x.nrows();
    if start + n > table.nrows() {
        return Vec::new();
    }
    let rows = |from: usize| x + &table.slice(s![from..from + n, ..]);
    let mut mistakes = vec![Misconception {
        cause: Cause::harness("first-position-everywhere"),
        result: x + &table.row(start),
    }];
    if start + n < table.nrows() {
        mistakes.push(Misconception {
            cause: Cause::harness("positions-shifted"),
            result: rows(start + 1),
        });
    }
    mistakes.push(Misconception {
        cause: Cause::harness("start-ignored"),
        result: rows(0),
    });
    differing(&added(x, table, start), mistakes)
}

/// What `embed_with_positions(embedding, tokens, table)` returns for the embedding
/// `weight` with the encoding scaled too, or the embeddings unscaled.
pub fn embed_with_positions_mistakes(
    weight: &Matrix,
    tokens: &[usize],
    table: &Matrix,
) -> Vec<Misconception> {
    let scale = (weight.ncols() as Float).sqrt();
    let rows = weight.select(Axis(0), tokens);
    let pe = table.slice(s![0..tokens.len(), ..]).to_owned();
    let mistakes = vec![
        Misconception {
            cause: Cause::harness("encoding-scaled-too"),
            result: (&rows + &pe) * scale,
        },
        Misconception {
            cause: Cause::harness("embeddings-not-scaled"),
            result: &rows + &pe,
        },
    ];
    differing(&embedded(weight, tokens, table), mistakes)
}

/// The wrong values of `embedding_to_encoding_ratio(embedding, table)` for the embedding
/// `weight`, each a 1 × 1 result: the rows unscaled, the mean of the row norms, or total
/// norms (named with `course_harness::scalar_cause`).
pub fn ratio_mistakes(weight: &Matrix, table: &Matrix) -> Vec<Misconception> {
    let norms = |m: &Matrix| m.map_axis(Axis(1), |row| row.dot(&row).sqrt());
    let rms = |m: &Matrix| (norms(m).mapv(|n| n * n).mean().unwrap_or(0.0)).sqrt();
    let mean = |m: &Matrix| norms(m).mean().unwrap_or(0.0);
    let total = |m: &Matrix| m.iter().map(|v| v * v).sum::<Float>().sqrt();
    let scaled = weight * (weight.ncols() as Float).sqrt();
    let right = rms(&scaled) / rms(table);
    [
        (
            rms(weight) / rms(table),
            Cause::harness("ratio-rows-not-scaled"),
        ),
        (
            mean(&scaled) / mean(table),
            Cause::harness("ratio-mean-of-norms"),
        ),
        (
            total(&scaled) / total(table),
            Cause::harness("ratio-total-norms"),
        ),
    ]
    .into_iter()
    .filter(|(value, _)| (value - right).abs() > 1e-9)
    .map(|(value, cause)| Misconception {
        cause,
        result: Matrix::from_elem((1, 1), value),
    })
    .collect()
}
