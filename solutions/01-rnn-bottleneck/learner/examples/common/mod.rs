//! What the measurement programs of chapter 01 share: deterministic inputs and a table
//! printer. They draw their figures with the course's `course_figures` crate.

#![allow(dead_code)] // Each example uses a different part of this module.

use course_common::{Float, Matrix};

/// A `(rows, cols)` matrix of values spread irregularly over `[-scale, scale]`, the same
/// on every run and every machine: entry `k` (row by row) comes from the integer hash
/// SplitMix64 of `(stream, k)`, written out here, so no random generator (whose stream
/// could change between versions) is involved. Different `stream`s give unrelated fills.
pub fn hash_matrix(rows: usize, cols: usize, stream: u64, scale: Float) -> Matrix {
    Matrix::from_shape_fn((rows, cols), |(i, j)| {
        let k = (i * cols + j) as u64;
        let mut z = stream
            .wrapping_mul(0xD1B5_4A32_D192_ED03)
            .wrapping_add(k)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let unit = (z >> 11) as Float / (1u64 << 53) as Float; // in [0, 1)
        scale * (2.0 * unit - 1.0)
    })
}

/// A number in the compact scientific form the tables use: `1.23e-4`, `0.512`, `597`.
pub fn sci(v: Float) -> String {
    if v == 0.0 {
        "0".to_owned()
    } else if (1e-2..1e4).contains(&v.abs()) {
        format!("{v:.3}")
    } else {
        format!("{v:.2e}")
    }
}

/// Prints a Markdown table: a header row and the rows, with columns padded to align.
pub fn print_table(header: &[&str], rows: &[Vec<String>]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([header[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        println!("| {} |", padded.join(" | "));
    };
    line(header.iter().map(|h| h.to_string()).collect());
    println!(
        "|{}|",
        widths
            .iter()
            .map(|w| format!("{}:", "-".repeat(w + 1)))
            .collect::<Vec<_>>()
            .join("|")
    );
    for row in rows {
        line(row.clone());
    }
}
