//! Where the time of one training step goes, and what stacking the batch would buy.
//!
//! ```text
//! cargo run --release -p transformer --example step_cost
//! ```
//!
//! Times the parts of one training step of the date model (batch of 64): the forward
//! pass, the loss, the backward pass, clipping and Adam. Then measures the design choice
//! of chapter 06, "The encoder and decoder stacks": lesson 05's layers take one sequence
//! at a time, so the model calls them once per sequence, while the output projection
//! and the loss take the whole batch stacked into one matrix. The second table times a
//! projection (and an FFN layer) both ways: 64 products of (S, 32) matrices, against one
//! product of the (64·S, 32) stack. Best of several repetitions; one thread. Last, the
//! loss of a freshly initialised model, for ten seeds, against ln V (chapter 06, "The loss
//! at initialisation"). Writes the numbers to `target/experiments/step_cost.json`.

use course_common::{Float, Matrix};
use serde::Serialize;
use std::time::Instant;
use transformer::{
    Adam, Config, DateTask, Split, Transformer, clip_global_norm, cross_entropy_loss,
    seeded_rng,
};

/// The best time of `reps` runs of `f`, in milliseconds.
fn best_ms(reps: usize, mut f: impl FnMut()) -> Float {
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            f();
            1e3 * start.elapsed().as_secs_f64()
        })
        .fold(Float::INFINITY, Float::min)
}

/// The numbers written to `target/experiments/step_cost.json`.
#[derive(Serialize)]
struct Summary {
    /// The parts of one step, ms.
    step_ms: StepMs,
    #[serde(rename = "projection 32 → 32")]
    projection: Products,
    #[serde(rename = "FFN 32 → 64")]
    ffn: Products,
    initial_loss_minus_ln_v_d16: Vec<Float>,
    initial_loss_minus_ln_v_d32: Vec<Float>,
    batch: BatchShape,
}

#[derive(Serialize)]
struct StepMs {
    forward: Float,
    loss: Float,
    backward: Float,
    clip_and_adam: Float,
}

/// One product for the whole batch, µs: per sequence, and stacked.
#[derive(Serialize)]
struct Products {
    per_sequence_us: Float,
    stacked_us: Float,
}

#[derive(Serialize)]
struct BatchShape {
    pairs: usize,
    s: usize,
    t: usize,
}

/// `value` with `decimals` decimals, the number `format!("{value:.decimals$}")` writes:
/// the precision the summary keeps.
fn rounded(value: Float, decimals: usize) -> Float {
    format!("{value:.decimals$}")
        .parse()
        .expect("a formatted number parses back")
}

/// Where the time of one training step goes, and what stacking the batch would buy.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    let task = DateTask::new();
    let mut model = Transformer::new(Config::dates(), 1);
    let batch = task.batch(&mut seeded_rng(7), 64, Split::Train);
    let (s, t) = (batch.src[0].len(), batch.target_len());
    println!(
        "one training step of the date model: 64 pairs, S = {s}, T = {t}, one thread\n"
    );
    let forward = model.forward(&batch);
    let loss = cross_entropy_loss(&forward.logits, &batch.targets(), 0.0);
    let reps = 30;
    let t_forward = best_ms(reps, || {
        std::hint::black_box(model.forward(&batch));
    });
    let t_loss = best_ms(reps, || {
        std::hint::black_box(cross_entropy_loss(&forward.logits, &batch.targets(), 0.0));
    });
    let t_backward = best_ms(reps, || {
        std::hint::black_box(model.backward(&batch, &forward, &loss.d_logits));
    });
    let mut grads = model.backward(&batch, &forward, &loss.d_logits);
    let mut adam = Adam::new(&model.parameters());
    let t_update = best_ms(reps, || {
        clip_global_norm(&mut grads.parameters_mut(), 1.0);
        adam.update(&mut model.parameters_mut(), &grads.parameters(), 1e-9);
    });
    println!("| part | ms (best of {reps}) |");
    println!("|---|---:|");
    for (part, ms) in [
        (
            "forward pass (encode, decode, output projection)",
            t_forward,
        ),
        ("loss and its gradient", t_loss),
        ("backward pass", t_backward),
        ("clipping and Adam", t_update),
    ] {
        println!("| {part} | {ms:.2} |");
    }
    println!(
        "| total | {:.2} |\n",
        t_forward + t_loss + t_backward + t_update
    );
    let step_ms = StepMs {
        forward: rounded(t_forward, 3),
        loss: rounded(t_loss, 3),
        backward: rounded(t_backward, 3),
        clip_and_adam: rounded(t_update, 3),
    };

    println!(
        "one product x Wᵀ for the whole batch, per sequence or stacked (S = {s}):\n"
    );
    println!(
        "| product | 64 per-sequence products (µs) | one stacked product (µs) | stacked GFLOP/s |"
    );
    println!("|---|---:|---:|---:|");
    let products = [("projection 32 → 32", 32, 32), ("FFN 32 → 64", 32, 64)].map(
        |(name, d_in, d_out)| {
            let fill = |r: usize, c: usize, k: usize| {
                Matrix::from_shape_fn((r, c), |(i, j)| {
                    ((i * 7 + j * 13 + k) % 17) as Float * 0.01
                })
            };
            let w = fill(d_out, d_in, 1);
            let pieces: Vec<Matrix> = (0..64).map(|b| fill(s, d_in, b)).collect();
            let stacked = fill(64 * s, d_in, 3);
            let per_sequence = 1e3
                * best_ms(200, || {
                    for x in &pieces {
                        std::hint::black_box(x.dot(&w.t()));
                    }
                });
            let one = 1e3
                * best_ms(200, || {
                    std::hint::black_box(stacked.dot(&w.t()));
                });
            let flops = 2.0 * (64 * s * d_in * d_out) as Float;
            println!(
                "| {name} | {per_sequence:.1} | {one:.1} | {:.1} |",
                flops / (one * 1e-6) / 1e9
            );
            Products {
                per_sequence_us: rounded(per_sequence, 2),
                stacked_us: rounded(one, 2),
            }
        },
    );

    println!(
        "\nthe loss at initialisation minus ln V = ln 44, one batch of 64 dates, seeds 0 to 9:\n"
    );
    let ln_v = (44.0 as Float).ln();
    let excesses = [16, 32].map(|d_model| {
        let mut config = Config::dates();
        config.d_model = d_model;
        config.d_ff = 2 * d_model;
        let excess: Vec<Float> = (0..10)
            .map(|seed| {
                let model = Transformer::new(config, seed);
                let logits = model.forward(&batch).logits;
                cross_entropy_loss(&logits, &batch.targets(), 0.0).value - ln_v
            })
            .collect();
        let text: Vec<String> = excess.iter().map(|e| format!("{e:+.2}")).collect();
        println!("d_model {d_model:>2}: {}", text.join(" "));
        excess
            .iter()
            .map(|&e| rounded(e, 4))
            .collect::<Vec<Float>>()
    });
    let [projection, ffn] = products;
    let [d16, d32] = excesses;
    let summary = Summary {
        step_ms,
        projection,
        ffn,
        initial_loss_minus_ln_v_d16: d16,
        initial_loss_minus_ln_v_d32: d32,
        batch: BatchShape { pairs: 64, s, t },
    };
    let json = serde_json::to_string_pretty(&summary).expect("a summary is JSON") + "\n";
    let dir = course_common::output::experiments_dir();
    std::fs::write(dir.join("step_cost.json"), json).expect("write step_cost.json");
}
