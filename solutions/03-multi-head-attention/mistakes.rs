//! Lesson 03: split and merge heads, multi-head attention's forward and backward passes,
//! its parameter count.
//!
//! The builders take the layer as a [`Layer`] of borrowed
//! weights and compute attention themselves (with lesson 02's formulas, in
//! [`attention`](crate::attention)).

use crate::attention::{attend, attend_backward, linear};
use crate::differing;
use course_common::ndarray::{Array2, Axis, concatenate, s};
use course_common::{Float, Matrix, Vector};
use course_harness::Cause;
use course_harness::causes::multi_head_attention::*;
use course_harness::{Groups, Misconception};

const SCALED_BY_D_MODEL: Cause = Cause::harness("scaled-by-d-model");

/// One projection: weight `(d_out, d_in)` and bias, as lesson 02's `Linear`.
#[derive(Clone, Copy)]
pub struct LinearWeights<'a> {
    /// The weight, `(d_out, d_in)`.
    pub weight: &'a Matrix,
    /// The bias, `(d_out,)`.
    pub bias: &'a Vector,
}

/// A multi-head attention layer's number of heads and four projections.
#[derive(Clone, Copy)]
pub struct Layer<'a> {
    /// The number of heads.
    pub n_heads: usize,
    /// The query projection.
    pub w_q: LinearWeights<'a>,
    /// The key projection.
    pub w_k: LinearWeights<'a>,
    /// The value projection.
    pub w_v: LinearWeights<'a>,
    /// The output projection.
    pub w_o: LinearWeights<'a>,
}

/// Which columns of Q, K and V head `head` owns, given `d_k` and `n_heads`.
type HeadColumns = fn(usize, usize, usize) -> Vec<usize>;

fn contiguous(head: usize, d_k: usize, _n_heads: usize) -> Vec<usize> {
    (head * d_k..(head + 1) * d_k).collect()
}

/// `x` cut into `n_heads` blocks of contiguous columns, as `split_heads` does: the input
/// a test gives the merge builders, so that they never start from a learner's split.
pub fn split(x: &Matrix, n_heads: usize) -> Vec<Matrix> {
    let d_k = x.ncols() / n_heads;
    (0..n_heads)
        .map(|head| x.select(Axis(1), &contiguous(head, d_k, n_heads)))
        .collect()
}

fn interleaved(head: usize, d_k: usize, n_heads: usize) -> Vec<usize> {
    (0..d_k).map(|m| m * n_heads + head).collect()
}

/// Multi-head attention written out head by head, the heads owning `head_columns`,
/// the queries multiplied by `score_scale`: `(output, concat, weights)`.
fn by_definition(
    layer: &Layer,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Array2<bool>>,
    head_columns: HeadColumns,
    score_scale: Float,
) -> (Matrix, Matrix, Vec<Matrix>) {
    let project = |p: &LinearWeights, x: &Matrix, rows: &[usize]| {
        linear(
            x,
            &p.weight.select(Axis(0), rows),
            &p.bias.select(Axis(0), rows),
        )
    };
    let d_k = layer.w_q.weight.ncols() / layer.n_heads;
    let mut concat = Matrix::zeros((query_input.nrows(), layer.w_v.weight.nrows()));
    let mut weights = Vec::new();
    for head in 0..layer.n_heads {
        let columns = head_columns(head, d_k, layer.n_heads);
        let q = project(&layer.w_q, query_input, &columns) * score_scale;
        let k = project(&layer.w_k, key_value_input, &columns);
        let v = project(&layer.w_v, key_value_input, &columns);
        let (output, head_weights) = attend(&q, &k, &v, mask);
        for (position, &column) in columns.iter().enumerate() {
            concat.column_mut(column).assign(&output.column(position));
        }
        weights.push(head_weights);
    }
    let output = linear(&concat, layer.w_o.weight, layer.w_o.bias);
    (output, concat, weights)
}

/// Multi-head attention's output, written out head by head: each head's own rows of
/// W_q, W_k, W_v, lesson 02's attention, the heads side by side, then W_o.
pub fn forward(
    layer: &Layer,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Array2<bool>>,
) -> Matrix {
    by_definition(layer, query_input, key_value_input, mask, contiguous, 1.0).0
}

/// Each head's attention weights in [`forward`], head by head.
pub fn head_weights(
    layer: &Layer,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Array2<bool>>,
) -> Vec<Matrix> {
    by_definition(layer, query_input, key_value_input, mask, contiguous, 1.0).2
}

/// The gradients of [`forward`] for its two inputs, `(d_query_input,
/// d_key_value_input)`, given the upstream gradient `d_output`.
pub fn input_gradients(
    layer: &Layer,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Array2<bool>>,
    d_output: &Matrix,
) -> (Matrix, Matrix) {
    let (d_q, key_path, value_path) =
        input_paths(layer, query_input, key_value_input, mask, d_output, true);
    (d_q.dot(layer.w_q.weight), key_path + value_path)
}

/// What `split_heads(x, n_heads)` returns with interleaved columns or a plain reshape,
/// one list per head.
pub fn split_mistakes(x: &Matrix, n_heads: usize) -> Vec<Vec<Misconception>> {
    let (n, d_k) = (x.nrows(), x.ncols() / n_heads);
    let flat: Vec<Float> = x.iter().copied().collect();
    (0..n_heads)
        .map(|head| {
            let right = x.slice(s![.., head * d_k..(head + 1) * d_k]).to_owned();
            let reshaped = Matrix::from_shape_vec(
                (n, d_k),
                flat[head * n * d_k..(head + 1) * n * d_k].to_vec(),
            )
            .expect("n · d_k numbers");
            let mistakes = vec![
                Misconception {
                    cause: INTERLEAVED,
                    result: x.select(Axis(1), &interleaved(head, d_k, n_heads)),
                },
                Misconception {
                    cause: PLAIN_RESHAPE,
                    result: reshaped,
                },
            ];
            differing(&right, mistakes)
        })
        .collect()
}

/// What `merge_heads(heads)` returns with the heads' columns interleaved or the heads
/// in reverse order.
pub fn merge_mistakes(heads: &[Matrix]) -> Vec<Misconception> {
    let Some(first) = heads.first() else {
        return Vec::new();
    };
    let (n_heads, d_k) = (heads.len(), first.ncols());
    let side_by_side = |heads: Vec<&Matrix>| {
        let views: Vec<_> = heads.iter().map(|h| h.view()).collect();
        concatenate(Axis(1), &views).expect("heads of the same shape")
    };
    let right = side_by_side(heads.iter().collect());
    let mut interleaved = Matrix::zeros(right.dim());
    for (head, values) in heads.iter().enumerate() {
        for m in 0..d_k {
            interleaved
                .column_mut(m * n_heads + head)
                .assign(&values.column(m));
        }
    }
    let mistakes = vec![
        Misconception {
            cause: INTERLEAVED,
            result: interleaved,
        },
        Misconception {
            cause: Cause::harness("heads-merged-in-reverse"),
            result: side_by_side(heads.iter().rev().collect()),
        },
    ];
    differing(&right, mistakes)
}

/// What `forward(query_input, key_value_input, mask).output` is with interleaved heads,
/// scores scaled by √d_model, no W_o or W_o untransposed, one wide head, the values or
/// the queries projected with W_k, keys and values from the query input (no mask, two
/// inputs), or the mask not passed or inverted.
pub fn output_mistakes(
    layer: &Layer,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Array2<bool>>,
) -> Vec<Misconception> {
    let written_out = |layer: &Layer, kv: &Matrix, mask, columns, scale| {
        by_definition(layer, query_input, kv, mask, columns, scale)
    };
    let d_model = layer.w_q.weight.ncols() as Float;
    let d_k = d_model / layer.n_heads as Float;
    let (right, concat, _) = written_out(layer, key_value_input, mask, contiguous, 1.0);
    let one_head = Layer {
        n_heads: 1,
        ..*layer
    };
    let mut mistakes = vec![
        Misconception {
            cause: INTERLEAVED,
            result: written_out(layer, key_value_input, mask, interleaved, 1.0).0,
        },
        Misconception {
            cause: SCALED_BY_D_MODEL,
            result: written_out(
                layer,
                key_value_input,
                mask,
                contiguous,
                (d_k / d_model).sqrt(),
            )
            .0,
        },
        Misconception {
            cause: Cause::harness("no-output-projection"),
            result: concat.clone(),
        },
        Misconception {
            cause: Cause::harness("output-projection-not-transposed"),
            result: concat.dot(layer.w_o.weight) + layer.w_o.bias,
        },
        Misconception {
            cause: Cause::harness("one-wide-head"),
            result: written_out(&one_head, key_value_input, mask, contiguous, 1.0).0,
        },
    ];
    // One projection used for another: with identity projections (the hand-worked
    // fixtures) these give the right answer and are left out by `differing`.
    for (cause, swapped) in [
        (
            VALUES_BY_W_K,
            Layer {
                w_v: layer.w_k,
                ..*layer
            },
        ),
        (
            QUERIES_BY_W_K,
            Layer {
                w_q: layer.w_k,
                ..*layer
            },
        ),
    ] {
        mistakes.push(Misconception {
            cause,
            result: written_out(&swapped, key_value_input, mask, contiguous, 1.0).0,
        });
    }
    if mask.is_none() && query_input != key_value_input {
        mistakes.push(Misconception {
            cause: KV_FROM_QUERY,
            result: written_out(layer, query_input, None, contiguous, 1.0).0,
        });
    }
    if let Some(mask) = mask {
        mistakes.push(Misconception {
            cause: MASK_NOT_PASSED,
            result: written_out(layer, key_value_input, None, contiguous, 1.0).0,
        });
        mistakes.push(Misconception {
            cause: Cause::harness("mask-inverted"),
            result: written_out(
                layer,
                key_value_input,
                Some(&mask.mapv(|allowed| !allowed)),
                contiguous,
                1.0,
            )
            .0,
        });
    }
    differing(&right, mistakes)
}

/// What each head's weights of `forward(query_input, key_value_input, mask)` are with
/// interleaved heads, scores scaled by √d_model, or the mask not passed; one list per
/// head.
pub fn weights_mistakes(
    layer: &Layer,
    query_input: &Matrix,
    key_value_input: &Matrix,
    mask: Option<&Array2<bool>>,
) -> Vec<Vec<Misconception>> {
    let d_model = layer.w_q.weight.ncols() as Float;
    let d_k = d_model / layer.n_heads as Float;
    let weights = |mask, columns, scale| {
        by_definition(layer, query_input, key_value_input, mask, columns, scale).2
    };
    let right = weights(mask, contiguous, 1.0);
    let mut wrong = vec![
        (INTERLEAVED, weights(mask, interleaved, 1.0)),
        (
            SCALED_BY_D_MODEL,
            weights(mask, contiguous, (d_k / d_model).sqrt()),
        ),
    ];
    if mask.is_some() {
        wrong.push((MASK_NOT_PASSED, weights(None, contiguous, 1.0)));
    }
    right
        .iter()
        .enumerate()
        .map(|(head, right)| {
            let mistakes = wrong
                .iter()
                .map(|(cause, weights)| Misconception {
                    cause: *cause,
                    result: weights[head].clone(),
                })
                .collect();
            differing(right, mistakes)
        })
        .collect()
}

/// The wrong gradients of `backward` for its two inputs.
pub struct InputGradientMistakes {
    /// For `d_query_input`: not through W_o, or dQ not through W_q.
    pub d_query_input: Vec<Misconception>,
    /// For `d_key_value_input`: the value path or the key path alone, or not through
    /// W_o.
    pub d_key_value_input: Vec<Misconception>,
}

impl From<InputGradientMistakes> for Groups {
    fn from(mistakes: InputGradientMistakes) -> Groups {
        Groups::new([
            ("d_query_input", mistakes.d_query_input),
            ("d_key_value_input", mistakes.d_key_value_input),
        ])
    }
}

/// `(dQ, the key path dK W_k, the value path dV W_v)`, with the heads' upstream
/// gradient sent back through W_o or not.
fn input_paths(
    layer: &Layer,
    x_q: &Matrix,
    x_kv: &Matrix,
    mask: Option<&Array2<bool>>,
    d_output: &Matrix,
    through_w_o: bool,
) -> (Matrix, Matrix, Matrix) {
    let d_k = layer.w_q.weight.ncols() / layer.n_heads;
    let q = linear(x_q, layer.w_q.weight, layer.w_q.bias);
    let k = linear(x_kv, layer.w_k.weight, layer.w_k.bias);
    let v = linear(x_kv, layer.w_v.weight, layer.w_v.bias);
    let d_concat = if through_w_o {
        d_output.dot(layer.w_o.weight)
    } else {
        d_output.clone()
    };
    let (mut d_q, mut d_keys, mut d_values) = (
        Matrix::zeros(q.dim()),
        Matrix::zeros(k.dim()),
        Matrix::zeros(v.dim()),
    );
    for head in 0..layer.n_heads {
        let columns = s![.., head * d_k..(head + 1) * d_k];
        let (q_h, k_h, v_h) = (
            q.slice(columns).to_owned(),
            k.slice(columns).to_owned(),
            v.slice(columns).to_owned(),
        );
        let weights = attend(&q_h, &k_h, &v_h, mask).1;
        let d_out = d_concat.slice(columns).to_owned();
        let (dq, dk, dv) = attend_backward(&q_h, &k_h, &v_h, &weights, &d_out);
        d_q.slice_mut(columns).assign(&dq);
        d_keys.slice_mut(columns).assign(&dk);
        d_values.slice_mut(columns).assign(&dv);
    }
    (
        d_q,
        d_keys.dot(layer.w_k.weight),
        d_values.dot(layer.w_v.weight),
    )
}

/// What `backward` returns for `d_query_input` and `d_key_value_input` when the heads'
/// upstream gradient skips W_o, d_query_input is dQ itself, or d_key_value_input is
/// one path alone.
pub fn input_gradient_mistakes(
    layer: &Layer,
    x_q: &Matrix,
    x_kv: &Matrix,
    mask: Option<&Array2<bool>>,
    d_output: &Matrix,
) -> InputGradientMistakes {
    let (d_q, key_path, value_path) = input_paths(layer, x_q, x_kv, mask, d_output, true);
    let (skipped_d_q, skipped_key, skipped_value) =
        input_paths(layer, x_q, x_kv, mask, d_output, false);
    let right_q = d_q.dot(layer.w_q.weight);
    let right_kv = &key_path + &value_path;
    InputGradientMistakes {
        d_query_input: differing(
            &right_q,
            vec![
                Misconception {
                    cause: NOT_THROUGH_W_O,
                    result: skipped_d_q.dot(layer.w_q.weight),
                },
                Misconception {
                    cause: Cause::harness("d-query-input-not-through-w-q"),
                    result: d_q,
                },
            ],
        ),
        d_key_value_input: differing(
            &right_kv,
            vec![
                Misconception {
                    cause: Cause::harness("value-path-alone"),
                    result: value_path,
                },
                Misconception {
                    cause: Cause::harness("key-path-alone"),
                    result: key_path,
                },
                Misconception {
                    cause: NOT_THROUGH_W_O,
                    result: skipped_key + skipped_value,
                },
            ],
        ),
    }
}

/// The wrong counts of `parameter_count` for a layer of `n_heads` heads on `d_model`
/// features, each a 1 × 1 result (see `course_harness::causes::multi_head_attention::
/// parameter_count_cause`, which names the general rule when none matches).
pub fn parameter_count_mistakes(d_model: usize, n_heads: usize) -> Vec<Misconception> {
    let d = d_model;
    let count = |cause, count: usize| Misconception {
        cause,
        result: Matrix::from_elem((1, 1), count as Float),
    };
    let mistakes = vec![
        count(Cause::harness("count-no-biases"), 4 * d * d),
        count(Cause::harness("count-no-w-o"), 3 * d * d + 3 * d),
        count(
            Cause::harness("count-one-head"),
            4 * d * d / n_heads + 4 * d,
        ),
        count(
            Cause::harness("count-every-head-full"),
            n_heads * (4 * d * d + 4 * d),
        ),
    ];
    differing(
        &Matrix::from_elem((1, 1), (4 * d * d + 4 * d) as Float),
        mistakes,
    )
}
