//! One training step of your GPT, timed, beside the same step in PyTorch.
//!
//! ```text
//! cargo run --release -p gpt --example step_vs_pytorch
//! ```
//!
//! times a full step of `train_gpt`'s model (769 ids, d_model 96, 4 heads, 3 blocks,
//! d_ff 256) on 16 windows of 64 tokens: the forward pass, the loss, the backward pass of
//! every window, lesson 06's clipping and your AdamW, on one thread, the median of
//! `--repeats` steps after two to warm up. Then, if a Python with PyTorch is found
//! (`--python`, default `python3`), it runs `scripts/gpt_torch.py --bench-step` for the
//! same step in PyTorch, in float64 and in float32, on one thread, and prints the three
//! side by side. Without PyTorch it prints the Rust time and says how to install it.
//! Writes `target/experiments/step_vs_pytorch.json`.

use clap::Parser;
use course_common::Float;
use gpt::{AdamW, Config, Gpt, add_gradients, clip_global_norm};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Times one training step of the lesson's GPT, and the same step in PyTorch.
#[derive(Parser)]
struct Options {
    /// Windows per step.
    #[arg(long, default_value_t = 16)]
    batch: usize,
    /// Tokens each window reads.
    #[arg(long, default_value_t = 64)]
    context: usize,
    /// Timed steps (the median is reported), after two to warm up.
    #[arg(long, default_value_t = 5)]
    repeats: usize,
    /// The Python that has PyTorch.
    #[arg(long, default_value = "python3")]
    python: String,
}

/// The model `train_gpt` trains (its vocabulary is 256 bytes + 512 merges + end-of-text).
const CONFIG: Config = Config {
    vocab_size: 769,
    d_model: 96,
    n_heads: 4,
    n_layers: 3,
    d_ff: 256,
    context: 64,
};

fn median(mut values: Vec<Float>) -> Float {
    values.sort_by(Float::total_cmp);
    values[values.len() / 2]
}

#[derive(serde::Serialize)]
struct Summary {
    batch: usize,
    context: usize,
    rust_float64_seconds: Float,
    torch: Option<serde_json::Value>,
}

fn main() {
    let options = Options::parse();
    let config = Config {
        context: options.context,
        ..CONFIG
    };
    let mut model = Gpt::new(config, 1);
    let mut adamw = AdamW::new(&model.parameters(), &model.decays());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let windows: Vec<Vec<usize>> = (0..options.batch)
        .map(|_| {
            (0..=options.context)
                .map(|_| rng.random_range(0..config.vocab_size))
                .collect()
        })
        .collect();
    println!(
        "one training step: {} windows of {} tokens, {} parameters, one thread",
        options.batch,
        options.context,
        model.parameter_count()
    );
    let mut times = Vec::new();
    for step in 0..options.repeats + 2 {
        let started = Instant::now();
        let mut grads = model.zeros_like();
        for window in &windows {
            let (_, g) = model.loss_and_gradient(window);
            add_gradients(&mut grads, &g);
        }
        let scale = 1.0 / options.batch as Float;
        for g in grads.parameters_mut() {
            g.iter_mut().for_each(|v| *v *= scale);
        }
        clip_global_norm(&mut grads.parameters_mut(), 1.0);
        adamw.update(&mut model.parameters_mut(), &grads.parameters(), 1e-3);
        if step >= 2 {
            times.push(started.elapsed().as_secs_f64());
        }
    }
    let rust = median(times);
    println!("  Rust, your code, float64:  {:>8.1} ms", rust * 1e3);

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gpt_torch.py");
    let shape = format!(
        "{},{},{},{},{}",
        config.vocab_size, config.d_model, config.n_heads, config.n_layers, config.d_ff
    );
    let output = Command::new(&options.python)
        .arg(&script)
        .args(["--bench-step", "--config", &shape])
        .args(["--batch", &options.batch.to_string()])
        .args(["--context", &options.context.to_string()])
        .args(["--repeats", &options.repeats.to_string()])
        .output();
    let torch = match output {
        Ok(out) if out.status.success() => {
            match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                Ok(value) => Some(value),
                Err(error) => {
                    eprintln!("the PyTorch benchmark printed no JSON ({error})");
                    None
                }
            }
        }
        Ok(out) => {
            eprintln!(
                "the PyTorch benchmark failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            None
        }
        Err(error) => {
            eprintln!(
                "could not run {} ({error}): install Python 3 with PyTorch \
                 (`pip install torch safetensors numpy`), or name it with --python",
                options.python
            );
            None
        }
    };
    if let Some(value) = &torch {
        let seconds = |key: &str| value[key].as_f64().unwrap_or(Float::NAN);
        let (f64_s, f32_s) = (seconds("float64_seconds"), seconds("float32_seconds"));
        println!(
            "  PyTorch {}, float64:   {:>8.1} ms   (Rust takes {:.2}x)",
            value["torch"].as_str().unwrap_or("?"),
            f64_s * 1e3,
            rust / f64_s
        );
        println!(
            "  PyTorch {}, float32:   {:>8.1} ms   (Rust takes {:.2}x)",
            value["torch"].as_str().unwrap_or("?"),
            f32_s * 1e3,
            rust / f32_s
        );
    }
    let summary = Summary {
        batch: options.batch,
        context: options.context,
        rust_float64_seconds: rust,
        torch,
    };
    let folder = course_common::output::experiments_dir();
    let path = folder.join("step_vs_pytorch.json");
    match std::fs::create_dir_all(&folder).and_then(|()| {
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&summary).expect("a summary serialises"),
        )
    }) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(error) => eprintln!("warning: could not write {}: {error}", path.display()),
    }
}
