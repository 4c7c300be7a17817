//! The book's charts, drawn as SVG text by the lessons' example programs.
//!
//! The figures of the book come from commands: each lesson's examples measure something
//! with the learner's code (or, for the book, the reference solutions) and draw it with
//! this crate. It writes SVG by hand, with no plotting library, so that it has nothing
//! to install and nothing between the numbers and the picture:
//!
//! - [`svg`] writes a document element by element, each attribute in the order given and
//!   each number either as Rust writes it or with a fixed number of decimals;
//! - [`chart`] draws line charts: panels side by side, linear or logarithmic axes, grid,
//!   lines with markers, a legend;
//! - [`heatmap`] draws matrices as grids of coloured cells with their labels, and colour
//!   scales;
//! - [`colour`] holds the palette (Okabe and Ito's, which stays readable for colour-blind
//!   readers) and the colour maps;
//! - [`write()`] saves a figure where the examples' figures go.
//!
//! # Deterministic
//!
//! A figure's bytes depend on its data and on nothing else: no clock, no random number,
//! no hash-map order, and every number is formatted explicitly (`fixed(x, 1)` is always
//! one decimal). `cargo xtask figures --check` relies on it: it redraws the book's
//! figures from the reference solutions and fails if a single byte differs from the
//! committed file. So a change here that alters a figure's text, even a number's
//! rounding or the order of two attributes, shows up as a changed figure; the
//! differences between the book's figures (sizes, offsets, which attribute comes first)
//! are the parameters of [`chart::ChartStyle`] and [`heatmap::Heatmap`].

pub mod chart;
pub mod colour;
pub mod heatmap;
pub mod svg;

use std::path::PathBuf;

/// Writes the figure `svg` as `name` in the figures folder (`target/figures/`, or
/// `COURSE_FIGURES_DIR`: see `course_common::output`) and returns its path. Panics,
/// naming the file, if it cannot be written.
pub fn write(name: &str, svg: &str) -> PathBuf {
    let path = course_common::output::figures_dir().join(name);
    std::fs::write(&path, svg)
        .unwrap_or_else(|err| panic!("could not write {}: {err}", path.display()));
    path
}
