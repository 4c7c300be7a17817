//! The figure of chapter 03 "What the heads look like": each head's attention weights
//! for a short sentence, drawn as heatmaps, computed with your lesson code.
//!
//! ```text
//! cargo run --release -p multi-head-attention --example head_heatmaps
//! ```
//!
//! writes `book/src/figures/03-multi-head-attention-heads.svg` and prints the weights.
//! Everything is deterministic: the embeddings and the weights are fixed fills (no
//! random generator), so the figure is the same on every machine. The weights are
//! *untrained*: the picture shows what the mechanism computes, not what a model learned.

use course_common::{Float, Matrix, Vector};
use multi_head_attention::{Linear, MultiHeadAttention};
use std::fmt::Write as _;
use std::path::PathBuf;

const WORDS: [&str; 6] = ["the", "cat", "sat", "on", "the", "mat"];
const D_MODEL: usize = 16;
const N_HEADS: usize = 4;

/// A fixed pseudo-random number in [−1, 1] for the pair (a, b): a small integer hash,
/// so that the fills have no linear structure and need no random generator.
fn fill(a: usize, b: usize) -> Float {
    let k = (a * 131 + b * 31 + 7) as u64;
    ((k * k * 2_654_435_761 + k * 40_503) % 10_007) as Float / 5_003.0 - 1.0
}

/// One embedding per distinct word: the two "the" get the same vector.
fn embeddings() -> Matrix {
    let vocabulary = ["the", "cat", "sat", "on", "mat"];
    Matrix::from_shape_fn((WORDS.len(), D_MODEL), |(position, feature)| {
        let word = vocabulary
            .iter()
            .position(|w| *w == WORDS[position])
            .expect("every word is in the vocabulary");
        fill(1000 + word, feature)
    })
}

/// A `D_MODEL × D_MODEL` projection with fixed weights of scale `scale` and zero bias
/// (PyTorch also starts its attention biases at zero).
fn projection(seed: usize, scale: Float) -> Linear {
    Linear::new(
        Matrix::from_shape_fn((D_MODEL, D_MODEL), |(i, j)| {
            scale * fill(seed + i, 17 * j + seed)
        }),
        Vector::zeros(D_MODEL),
    )
}

/// A colour from white (weight 0) to dark blue (weight 1).
fn colour(weight: Float) -> String {
    let (low, high) = ([247.0, 251.0, 255.0], [8.0, 48.0, 107.0]);
    let t = weight.clamp(0.0, 1.0);
    let channel = |i: usize| (low[i] + (high[i] - low[i]) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", channel(0), channel(1), channel(2))
}

/// One heatmap: a title, the words along both sides, one cell per weight.
fn panel(svg: &mut String, x0: f64, y0: f64, title: &str, weights: &Matrix) {
    const CELL: f64 = 34.0;
    let (left, top) = (x0 + 46.0, y0 + 44.0);
    let _ = writeln!(
        svg,
        r##"  <text x="{:.1}" y="{:.1}" text-anchor="middle" font-weight="bold">{title}</text>"##,
        left + 3.0 * CELL,
        y0 + 16.0
    );
    for (j, word) in WORDS.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"  <text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="12" fill="#444">{word}</text>"##,
            left + (j as f64 + 0.5) * CELL,
            top - 8.0
        );
        let _ = writeln!(
            svg,
            r##"  <text x="{:.1}" y="{:.1}" text-anchor="end" font-size="12" fill="#444">{word}</text>"##,
            left - 6.0,
            top + (j as f64 + 0.5) * CELL + 4.0
        );
    }
    for ((i, j), &w) in weights.indexed_iter() {
        let (x, y) = (left + j as f64 * CELL, top + i as f64 * CELL);
        let ink = if w > 0.45 { "#ffffff" } else { "#1a1a1a" };
        let _ = writeln!(
            svg,
            r##"  <rect x="{x:.1}" y="{y:.1}" width="{CELL}" height="{CELL}" fill="{}" stroke="#ffffff" stroke-width="1.5"/>"##,
            colour(w)
        );
        let _ = writeln!(
            svg,
            r##"  <text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="11" fill="{ink}">{:.2}</text>"##,
            x + CELL / 2.0,
            y + CELL / 2.0 + 4.0,
            w
        );
    }
}

/// The figure of chapter 03 "What the heads look like": each head's attention weights for a
/// short sentence, drawn as heatmaps, computed with your lesson code.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    let mha = MultiHeadAttention::new(
        N_HEADS,
        projection(100, 0.9),
        projection(200, 0.9),
        projection(300, 0.5),
        projection(400, 0.5),
    );
    let x = embeddings();
    let forward = mha.forward(&x, &x, None);
    let average = forward
        .weights
        .iter()
        .fold(Matrix::zeros((WORDS.len(), WORDS.len())), |sum, w| sum + w)
        / N_HEADS as Float;

    let mut panels: Vec<(String, &Matrix)> = forward
        .weights
        .iter()
        .enumerate()
        .map(|(head, w)| (format!("head {head}"), w))
        .collect();
    panels.push(("average of the 4 heads".to_owned(), &average));
    for (title, weights) in &panels {
        println!("{title}:");
        for row in weights.rows() {
            let cells: Vec<String> = row.iter().map(|w| format!("{w:.3}")).collect();
            println!("  [{}]", cells.join(", "));
        }
    }

    let (width, height) = (880.0, 580.0);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="14" fill="#1a1a1a">"##
    );
    let _ = writeln!(
        svg,
        "  <title>Attention weights of four untrained heads on \"the cat sat on the mat\"</title>"
    );
    let _ = writeln!(
        svg,
        "  <desc>Five 6 by 6 heatmaps, one row per query word and one column per key word \
         of the sentence \"the cat sat on the mat\": heads 0 to 3 of an untrained \
         multi-head self-attention (d_model {D_MODEL}, {N_HEADS} heads, fixed \
         deterministic weights), and their average. Each row sums to 1. Generated by \
         lessons/03-multi-head-attention/examples/head_heatmaps.rs.</desc>"
    );
    let _ = writeln!(
        svg,
        r##"  <rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    for (index, (title, weights)) in panels.iter().enumerate() {
        let (column, row) = (index % 3, index / 3);
        panel(
            &mut svg,
            10.0 + column as f64 * 290.0,
            10.0 + row as f64 * 300.0,
            title,
            weights,
        );
    }
    // The sixth slot: the colour scale and how to read the panels.
    let (lx, ly) = (10.0 + 2.0 * 290.0 + 46.0, 310.0 + 60.0);
    for step in 0..=10 {
        let w = step as Float / 10.0;
        let _ = writeln!(
            svg,
            r##"  <rect x="{:.1}" y="{ly:.1}" width="17" height="20" fill="{}"/>"##,
            lx + step as f64 * 17.0,
            colour(w)
        );
    }
    let _ = writeln!(
        svg,
        r##"  <rect x="{lx:.1}" y="{ly:.1}" width="187" height="20" fill="none" stroke="#999"/>"##
    );
    for (x, text, anchor) in [(lx, "0", "start"), (lx + 187.0, "1", "end")] {
        let _ = writeln!(
            svg,
            r##"  <text x="{x:.1}" y="{:.1}" text-anchor="{anchor}" font-size="12">{text}</text>"##,
            ly + 36.0
        );
    }
    let lines = [
        "rows: the word that asks (query)",
        "columns: the word looked at (key)",
        "each row sums to 1",
        "untrained, fixed weights:",
        "the patterns mean nothing yet",
    ];
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"  <text x="{lx:.1}" y="{:.1}" font-size="13">{line}</text>"##,
            ly + 70.0 + i as f64 * 20.0
        );
    }
    svg.push_str("</svg>\n");

    let path =
        course_common::output::figures_dir().join("03-multi-head-attention-heads.svg");
    std::fs::write(&path, svg).expect("could not write the figure");
    println!("wrote {}", path.display());
}
