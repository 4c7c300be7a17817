//! Matrix-product throughput of ndarray in `f32` and `f64`, on one thread.
//!
//! The course computes in `f64` (see the crate docs of `course-common`); this measures
//! what that costs on the machine at hand, at the shapes the course uses and at 512².
//! Run it optimised: `cargo xtask matmul` (or `cargo run --release -p course-common
//! --example matmul_throughput`).

use course_common::ndarray::{Array2, LinalgScalar};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// `(m, k, n)`: an `(m, k)` matrix times a `(k, n)` one, and what it stands for.
const SHAPES: &[(usize, usize, usize, &str)] = &[
    (512, 512, 512, "512 x 512 x 512"),
    (
        1536,
        32,
        96,
        "a batch of 1536 tokens, d_model 32, Q/K/V at once",
    ),
    (
        1536,
        64,
        192,
        "a batch of 1536 tokens, d_model 64, Q/K/V at once",
    ),
    (12, 16, 12, "one head's scores: 12 x 16 times 16 x 12"),
];

fn filled<A: LinalgScalar + From<u8>>(rows: usize, cols: usize) -> Array2<A> {
    Array2::from_shape_fn((rows, cols), |(i, j)| A::from(((i * 7 + j * 3) % 11) as u8))
}

/// Best-of-five GFLOP/s, each trial repeating the product for at least 50 ms.
fn gflops<A: LinalgScalar + From<u8>>(m: usize, k: usize, n: usize) -> f64 {
    let (a, b) = (filled::<A>(m, k), filled::<A>(k, n));
    let flops = 2.0 * (m * k * n) as f64;
    let mut best: f64 = 0.0;
    for _ in 0..5 {
        let (start, mut reps) = (Instant::now(), 0u32);
        while start.elapsed() < Duration::from_millis(50) {
            black_box(black_box(&a).dot(black_box(&b)));
            reps += 1;
        }
        best = best.max(flops * f64::from(reps) / start.elapsed().as_secs_f64() / 1e9);
    }
    best
}

fn main() {
    println!("ndarray matrix products, one thread, best of 5 trials (GFLOP/s)\n");
    println!(
        "  {:<52} {:>8} {:>8} {:>10}",
        "shape", "f32", "f64", "f64 / f32"
    );
    for &(m, k, n, what) in SHAPES {
        let (single, double) = (gflops::<f32>(m, k, n), gflops::<f64>(m, k, n));
        println!(
            "  {what:<52} {single:>8.1} {double:>8.1} {:>10.2}",
            double / single
        );
    }
}
