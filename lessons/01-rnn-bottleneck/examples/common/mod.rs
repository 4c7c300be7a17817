//! What the measurement programs of chapter 01 share: deterministic inputs, a table
//! printer, and a small hand-rolled SVG line plot (axes, ticks, log scales, legend), so
//! that the book's figures come from a command and need no plotting library.

#![allow(dead_code)] // Each example uses a different part of this module.

use course_common::{Float, Matrix};
use std::fmt::Write as _;
use std::path::PathBuf;

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

/// Where a figure is written (see `course_common::output`).
pub fn figure_path(name: &str) -> PathBuf {
    course_common::output::figures_dir().join(name)
}

/// Writes a figure and says where.
pub fn write_figure(name: &str, svg: &str) {
    let path = figure_path(name);
    std::fs::write(&path, svg)
        .unwrap_or_else(|err| panic!("could not write {}: {err}", path.display()));
    println!("wrote {}", path.display());
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

/// Colours that stay apart for colour-blind readers (Okabe and Ito).
pub const BLUE: &str = "#0072B2";
pub const VERMILLION: &str = "#D55E00";
pub const GREEN: &str = "#009E73";
pub const PURPLE: &str = "#CC79A7";
pub const ORANGE: &str = "#E69F00";
pub const GREY: &str = "#555555";

/// One line of a plot.
pub struct Series {
    pub label: String,
    pub color: &'static str,
    /// Dashed lines are bounds or references, solid ones are measurements.
    pub dashed: bool,
    /// Draw a dot at each point.
    pub markers: bool,
    pub points: Vec<(Float, Float)>,
}

/// One axis: its label, its range, and whether it is logarithmic.
pub struct PlotAxis {
    pub label: String,
    pub min: Float,
    pub max: Float,
    pub log: bool,
}

/// Which corner of the plot area the legend goes in.
#[derive(Clone, Copy)]
pub enum Corner {
    TopRight,
    BottomLeft,
    BottomRight,
    TopLeft,
    /// To the right of the plot area, outside it: the panel grows to make room.
    Outside,
}

/// One plot: a title, two axes and its lines.
pub struct Panel {
    pub title: String,
    pub x: PlotAxis,
    pub y: PlotAxis,
    pub series: Vec<Series>,
    pub legend: Corner,
    /// A last line of the legend, without a sample line (such as "dashed: bounds").
    pub note: Option<String>,
}

const PANEL_W: Float = 440.0;
const PANEL_H: Float = 340.0;
const LEFT: Float = 74.0;
const RIGHT: Float = 16.0;
const TOP: Float = 34.0;
const BOTTOM: Float = 52.0;

/// The panels side by side as one SVG document, with a title and a description for
/// screen readers.
pub fn svg(title: &str, description: &str, panels: &[Panel]) -> String {
    let width: Float = panels.iter().map(panel_width).sum();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{PANEL_H:.0}" viewBox="0 0 {width:.0} {PANEL_H:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#1a1a1a">"##
    );
    let _ = writeln!(out, "  <title>{}</title>", escape(title));
    let _ = writeln!(out, "  <desc>{}</desc>", escape(description));
    let _ = writeln!(
        out,
        r##"  <rect x="0" y="0" width="{width:.0}" height="{PANEL_H:.0}" fill="#ffffff"/>"##
    );
    let mut dx = 0.0;
    for (index, panel) in panels.iter().enumerate() {
        draw_panel(&mut out, panel, index, dx);
        dx += panel_width(panel);
    }
    out.push_str("</svg>\n");
    out
}

/// The legend's width and height.
fn legend_size(panel: &Panel) -> (Float, Float) {
    let entries = panel.series.iter().filter(|s| !s.label.is_empty());
    let rows = (entries.clone().count() + usize::from(panel.note.is_some())) as Float;
    let longest = entries
        .map(|s| s.label.chars().count() + 6)
        .chain(panel.note.iter().map(|n| n.chars().count()))
        .max()
        .unwrap_or(0) as Float;
    (longest * 6.4 + 12.0, rows * 17.0 + 8.0)
}

/// A panel's width: the plot, and its legend if that sits outside.
fn panel_width(panel: &Panel) -> Float {
    match panel.legend {
        Corner::Outside => PANEL_W + legend_size(panel).0 + 8.0,
        _ => PANEL_W,
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Maps data to pixels along one axis.
struct Scale {
    min: Float,
    max: Float,
    log: bool,
    from: Float,
    to: Float,
}

impl Scale {
    fn of(&self, v: Float) -> Float {
        let (v, min, max) = if self.log {
            (v.log10(), self.min.log10(), self.max.log10())
        } else {
            (v, self.min, self.max)
        };
        self.from + (v - min) / (max - min) * (self.to - self.from)
    }
}

/// Tick positions and labels: powers of ten on a log axis (every second or fourth one if
/// there are many), round numbers on a linear one.
fn ticks(axis: &PlotAxis) -> Vec<(Float, String)> {
    if axis.log {
        let (lo, hi) = (
            axis.min.log10().ceil() as i32,
            axis.max.log10().floor() as i32,
        );
        let every = match hi - lo {
            0..=8 => 1,
            9..=16 => 2,
            17..=32 => 4,
            _ => 8,
        };
        (lo..=hi)
            .filter(|e| e.rem_euclid(every) == 0)
            .map(|e| ((10.0 as Float).powi(e), power_label(e)))
            .collect()
    } else {
        let span = axis.max - axis.min;
        let raw = span / 6.0;
        let magnitude = (10.0 as Float).powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        let first = (axis.min / step).ceil() as i64;
        let last = (axis.max / step + 1e-9).floor() as i64;
        (first..=last)
            .map(|k| {
                let v = k as Float * step;
                (v, trim(v))
            })
            .collect()
    }
}

/// `10^e` as SVG text with a superscript; small powers written out.
fn power_label(e: i32) -> String {
    match e {
        0 => "1".to_owned(),
        1 => "10".to_owned(),
        2 => "100".to_owned(),
        3 => "1000".to_owned(),
        _ => {
            let exponent = e.to_string().replace('-', "−");
            format!(r#"10<tspan dy="-5" font-size="9">{exponent}</tspan>"#)
        }
    }
}

fn trim(v: Float) -> String {
    let text = format!("{v:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

fn draw_panel(out: &mut String, panel: &Panel, index: usize, dx: Float) {
    let (x0, x1) = (dx + LEFT, dx + PANEL_W - RIGHT);
    let (y0, y1) = (TOP, PANEL_H - BOTTOM);
    let sx = Scale {
        min: panel.x.min,
        max: panel.x.max,
        log: panel.x.log,
        from: x0,
        to: x1,
    };
    let sy = Scale {
        min: panel.y.min,
        max: panel.y.max,
        log: panel.y.log,
        from: y1,
        to: y0,
    };
    let clip = format!("plot-area-{index}");
    let _ = writeln!(
        out,
        r#"  <clipPath id="{clip}"><rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}"/></clipPath>"#,
        x1 - x0,
        y1 - y0
    );
    // Title.
    let _ = writeln!(
        out,
        r#"  <text x="{:.1}" y="20" text-anchor="middle" font-weight="bold" font-size="13">{}</text>"#,
        (x0 + x1) / 2.0,
        escape(&panel.title)
    );
    // Grid and ticks.
    for (v, label) in ticks(&panel.x) {
        let x = sx.of(v);
        let _ = writeln!(
            out,
            r##"  <line x1="{x:.1}" y1="{y0:.1}" x2="{x:.1}" y2="{y1:.1}" stroke="#e6e6e6"/>"##
        );
        let _ = writeln!(
            out,
            r#"  <text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
            y1 + 16.0
        );
    }
    for (v, label) in ticks(&panel.y) {
        let y = sy.of(v);
        let _ = writeln!(
            out,
            r##"  <line x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="#e6e6e6"/>"##
        );
        let _ = writeln!(
            out,
            r#"  <text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#,
            x0 - 6.0,
            y + 4.0
        );
    }
    // Axes.
    let _ = writeln!(
        out,
        r##"  <rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#333"/>"##,
        x1 - x0,
        y1 - y0
    );
    let _ = writeln!(
        out,
        r#"  <text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (x0 + x1) / 2.0,
        PANEL_H - 14.0,
        escape(&panel.x.label)
    );
    let (ly, lx) = ((y0 + y1) / 2.0, dx + 16.0);
    let _ = writeln!(
        out,
        r#"  <text x="{lx:.1}" y="{ly:.1}" text-anchor="middle" transform="rotate(-90 {lx:.1} {ly:.1})">{}</text>"#,
        escape(&panel.y.label)
    );
    // Lines.
    let _ = writeln!(out, r#"  <g clip-path="url(#{clip})" fill="none">"#);
    for series in &panel.series {
        let points: Vec<(Float, Float)> = series
            .points
            .iter()
            .filter(|(x, y)| (!panel.x.log || *x > 0.0) && (!panel.y.log || *y > 0.0))
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .map(|&(x, y)| (sx.of(x), sy.of(y)))
            .collect();
        let path: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, (x, y))| format!("{}{x:.1} {y:.1}", if i == 0 { "M" } else { "L" }))
            .collect();
        let dash = if series.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"    <path d="{}" stroke="{}" stroke-width="2"{dash}/>"#,
            path.join(" "),
            series.color
        );
        if series.markers {
            for (x, y) in &points {
                let _ = writeln!(
                    out,
                    r#"    <circle cx="{x:.1}" cy="{y:.1}" r="2.6" fill="{}" stroke="none"/>"#,
                    series.color
                );
            }
        }
    }
    out.push_str("  </g>\n");
    // Legend: the labelled series, then the note.
    let entries: Vec<&Series> = panel
        .series
        .iter()
        .filter(|s| !s.label.is_empty())
        .collect();
    let (w, h) = legend_size(panel);
    let (bx, by) = match panel.legend {
        Corner::TopRight => (x1 - w - 6.0, y0 + 6.0),
        Corner::TopLeft => (x0 + 6.0, y0 + 6.0),
        Corner::BottomLeft => (x0 + 6.0, y1 - h - 6.0),
        Corner::BottomRight => (x1 - w - 6.0, y1 - h - 6.0),
        Corner::Outside => (x1 + 8.0, y0),
    };
    let _ = writeln!(
        out,
        r##"  <rect x="{bx:.1}" y="{by:.1}" width="{w:.1}" height="{h:.1}" fill="#ffffff" fill-opacity="0.9" stroke="#bbb"/>"##
    );
    for (i, series) in entries.iter().enumerate() {
        let y = by + 14.0 + 17.0 * i as Float;
        let dash = if series.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"  <line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2"{dash}/>"#,
            bx + 6.0,
            y - 4.0,
            bx + 30.0,
            y - 4.0,
            series.color
        );
        let _ = writeln!(
            out,
            r#"  <text x="{:.1}" y="{y:.1}">{}</text>"#,
            bx + 36.0,
            escape(&series.label)
        );
    }
    if let Some(note) = &panel.note {
        let y = by + 14.0 + 17.0 * entries.len() as Float;
        let _ = writeln!(
            out,
            r##"  <text x="{:.1}" y="{y:.1}" fill="{GREY}">{}</text>"##,
            bx + 6.0,
            escape(note)
        );
    }
}
