//! The cost of attention, measured: how long one call of
//! `scaled_dot_product_attention` takes as the sequence grows, and how large its
//! `(n, n)` weight matrix is. The book's chapter "The cost of attention" quotes the
//! tables this prints.
//!
//! ```text
//! cargo run --release -p attention --example attention_cost
//! ```
//!
//! For n = 64, 128, …, 2048 and d_k = d_v = 64 it times, on one thread (ndarray without
//! a BLAS library multiplies on one), the best of several runs of
//!
//! - the whole attention call, `softmax(Q Kᵀ / √d_k) V`;
//! - its three stages on their own: the scores `Q Kᵀ / √d_k`, the row softmax, and the
//!   weighted sum `W V`;
//! - for comparison, the three projections `X W_qᵀ + b_q`, `X W_kᵀ + b_k`,
//!   `X W_vᵀ + b_v` of a head of width 64 (lesson 02's `Linear`), whose work grows
//!   like `n`, not `n²`,
//!
//! prints two Markdown tables and writes `book/src/figures/cost-of-attention.svg`.
//! Timings are measurements: they vary from run to run and machine to machine. The
//! figure is drawn from the numbers as printed, so the same tables give the same
//! figure byte for byte. The inputs are deterministic fills (no random generator).
//!
//! To time your own attention instead, once lesson 02 passes: copy this file into
//! `lessons/02-attention/examples/`, change `attention` to `attention` in the
//! `use` line below, and change the figure's file name in `main`, so that the book's
//! figure stays the reference one.

use attention::{Linear, scaled_dot_product_attention, softmax_rows};
use course_common::ndarray::{Array1, Array2};
use course_common::{Float, Matrix, Vector};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The sequence lengths measured.
const LENGTHS: [usize; 6] = [64, 128, 256, 512, 1024, 2048];
/// The width of queries, keys and values, as in the Transformer paper's heads.
const D_K: usize = 64;
/// Bytes per matrix entry: the course computes in `f64`.
const BYTES: usize = std::mem::size_of::<Float>();

/// An `(rows, cols)` matrix of values in `[-0.5, 0.5)`, the same on every run: a cheap
/// integer formula, with `salt` giving different matrices different fills.
fn fill(rows: usize, cols: usize, salt: usize) -> Matrix {
    Array2::from_shape_fn((rows, cols), |(i, j)| {
        let k = (i * 131 + j * 71 + salt * 37) % 257;
        k as Float / 257.0 - 0.5
    })
}

/// The best (shortest) time of `f` over at least 5 runs and about 0.25 s of running,
/// after one warm-up run. The best run is the one least disturbed by other work on
/// the machine.
fn best_time(mut f: impl FnMut()) -> Duration {
    f();
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < 5 || (start.elapsed() < Duration::from_millis(250) && runs < 2000) {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

/// A time in milliseconds, rounded to 3 significant digits: the value the tables print
/// and the figure draws.
fn millis(d: Duration) -> Float {
    round3(d.as_secs_f64() * 1e3)
}

fn round3(v: Float) -> Float {
    let text = format!("{v:.2e}");
    text.parse()
        .expect("a number formatted by Rust parses back")
}

/// A number of milliseconds as the tables print it: 3 significant digits.
fn show_ms(v: Float) -> String {
    if v <= 0.0 {
        return "0".to_owned();
    }
    let decimals = (2 - v.log10().floor() as i32).max(0) as usize;
    format!("{v:.decimals$}")
}

/// A byte count with thousands separators and in KiB or MiB.
fn show_bytes(bytes: usize) -> String {
    let digits = bytes.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let human = if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    };
    format!("{grouped} ({human})")
}

/// One row of measurements.
struct Row {
    n: usize,
    /// The whole `scaled_dot_product_attention` call, ms.
    attention: Float,
    /// `Q Kᵀ / √d_k`, ms.
    scores: Float,
    /// `softmax_rows` of the scores, ms.
    softmax: Float,
    /// `W V`, ms.
    weighted_sum: Float,
    /// The three `Linear` projections of a head, ms.
    projections: Float,
}

fn measure(n: usize) -> Row {
    let (q, k, v) = (fill(n, D_K, 1), fill(n, D_K, 2), fill(n, D_K, 3));
    let x = fill(n, D_K, 4);
    let projection = |salt| {
        let bias: Vector =
            Array1::from_shape_fn(D_K, |j| ((j * 7 + salt) % 13) as Float / 130.0);
        Linear::new(fill(D_K, D_K, salt) / (D_K as Float).sqrt(), bias)
    };
    let (w_q, w_k, w_v) = (projection(5), projection(6), projection(7));
    let scale = (D_K as Float).sqrt();

    let attention = best_time(|| {
        black_box(scaled_dot_product_attention(
            black_box(&q),
            black_box(&k),
            black_box(&v),
            None,
        ));
    });
    let scores = q.dot(&k.t()) / scale;
    let weights = softmax_rows(&scores);
    let score_time = best_time(|| {
        black_box(black_box(&q).dot(&black_box(&k).t()) / scale);
    });
    let softmax_time = best_time(|| {
        black_box(softmax_rows(black_box(&scores)));
    });
    let weighted_sum_time = best_time(|| {
        black_box(black_box(&weights).dot(black_box(&v)));
    });
    let projection_time = best_time(|| {
        let x = black_box(&x);
        black_box((w_q.forward(x), w_k.forward(x), w_v.forward(x)));
    });
    Row {
        n,
        attention: millis(attention),
        scores: millis(score_time),
        softmax: millis(softmax_time),
        weighted_sum: millis(weighted_sum_time),
        projections: millis(projection_time),
    }
}

/// Prints a Markdown table with right-aligned, padded columns.
fn print_table(header: &[&str], rows: &[Vec<String>]) {
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
    let rule: Vec<String> = widths
        .iter()
        .map(|w| format!("{}:", "-".repeat(w + 1)))
        .collect();
    println!("|{}|", rule.join("|"));
    for row in rows {
        line(row.clone());
    }
}

/// The cost of attention, measured: how long one call of scaled_dot_product_attention takes
/// as the sequence grows, and how large its (n, n) weight matrix is. The book's chapter
/// "The cost of attention" quotes the tables this prints.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    println!(
        "Scaled dot-product attention, n queries and n keys, d_k = d_v = {D_K}, f64, one \
         thread, best of at least 5 runs.\n"
    );
    let rows: Vec<Row> = LENGTHS.iter().map(|&n| measure(n)).collect();

    let table: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let ratio = match i {
                0 => "–".to_owned(),
                _ => format!("{:.1}", r.attention / rows[i - 1].attention),
            };
            vec![
                r.n.to_string(),
                show_ms(r.attention),
                ratio,
                show_ms(r.projections),
                show_bytes(r.n * r.n * BYTES),
            ]
        })
        .collect();
    print_table(
        &[
            "n",
            "attention (ms)",
            "× previous n",
            "Q, K, V projections (ms)",
            "weights (n, n), bytes",
        ],
        &table,
    );

    println!("\nWhere the time of one attention call goes:\n");
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            // Q Kᵀ and W V: n² d_k multiply-adds each, 2 flops per multiply-add.
            let flops = 4.0 * (r.n * r.n * D_K) as Float;
            vec![
                r.n.to_string(),
                show_ms(r.scores),
                show_ms(r.softmax),
                show_ms(r.weighted_sum),
                format!("{:.0}", flops / (r.scores + r.weighted_sum) / 1e6),
            ]
        })
        .collect();
    print_table(
        &[
            "n",
            "Q Kᵀ / √d_k (ms)",
            "softmax (ms)",
            "W V (ms)",
            "GFLOP/s of the two products",
        ],
        &table,
    );

    let path = course_common::output::figures_dir().join("cost-of-attention.svg");
    std::fs::write(&path, figure(&rows))
        .unwrap_or_else(|err| panic!("could not write {}: {err}", path.display()));
    println!("\nwrote {}", path.display());
}

// The figure: two log-log panels, drawn by hand as SVG text.

const PANEL_W: Float = 440.0;
const HEIGHT: Float = 360.0;
const LEFT: Float = 70.0;
const RIGHT: Float = 14.0;
const TOP: Float = 34.0;
const BOTTOM: Float = 52.0;
const BLUE: &str = "#0072B2";
const VERMILLION: &str = "#D55E00";
const GREY: &str = "#555555";

/// One line of a panel.
struct Line {
    label: &'static str,
    color: &'static str,
    /// Dashed lines are references (slopes), solid ones are data.
    dashed: bool,
    points: Vec<(Float, Float)>,
}

/// A log-log panel: x from `LENGTHS[0]` to the last length, y over powers of ten.
struct Panel {
    title: &'static str,
    y_label: &'static str,
    lines: Vec<Line>,
}

impl Panel {
    /// The powers of ten just below and just above every value drawn.
    fn y_decades(&self) -> (i32, i32) {
        let values = self.lines.iter().flat_map(|l| l.points.iter().map(|p| p.1));
        let (min, max) = values
            .fold((Float::INFINITY, 0.0), |(lo, hi): (Float, Float), v| {
                (lo.min(v), hi.max(v))
            });
        (min.log10().floor() as i32, max.log10().ceil() as i32)
    }
}

fn figure(rows: &[Row]) -> String {
    let x = |r: &Row| r.n as Float;
    let first = &rows[0];
    let last = &rows[rows.len() - 1];
    // Reference slopes through each series' point at n = 1024, where the n² term
    // already dominates attention and a single slow run at the largest n (other work
    // on the machine) does not tilt the line.
    let anchor = rows
        .iter()
        .find(|r| r.n == 1024)
        .expect("1024 is one of the lengths");
    let n2_through = |r: &Row, t: Float| t * (x(r) / x(anchor)).powi(2);
    let n1_through = |r: &Row, t: Float| t * (x(r) / x(anchor));
    let time = Panel {
        title: "Time of one call, d_k = 64 (measured)",
        y_label: "milliseconds (log scale)",
        lines: vec![
            Line {
                label: "attention, n × n",
                color: BLUE,
                dashed: false,
                points: rows.iter().map(|r| (x(r), r.attention)).collect(),
            },
            Line {
                label: "∝ n² (through n = 1024)",
                color: BLUE,
                dashed: true,
                points: rows
                    .iter()
                    .map(|r| (x(r), n2_through(r, anchor.attention)))
                    .collect(),
            },
            Line {
                label: "Q, K, V projections",
                color: VERMILLION,
                dashed: false,
                points: rows.iter().map(|r| (x(r), r.projections)).collect(),
            },
            Line {
                label: "∝ n (through n = 1024)",
                color: VERMILLION,
                dashed: true,
                points: rows
                    .iter()
                    .map(|r| (x(r), n1_through(r, anchor.projections)))
                    .collect(),
            },
        ],
    };
    let bytes = |r: &Row| (r.n * r.n * BYTES) as Float;
    let qkv_bytes = |r: &Row| (3 * r.n * D_K * BYTES) as Float;
    let memory = Panel {
        title: "Memory of one head (exact, f64)",
        y_label: "bytes (log scale)",
        lines: vec![
            Line {
                label: "attention weights, n × n",
                color: BLUE,
                dashed: false,
                points: rows.iter().map(|r| (x(r), bytes(r))).collect(),
            },
            Line {
                label: "Q, K and V, 3 × n × 64",
                color: VERMILLION,
                dashed: false,
                points: rows.iter().map(|r| (x(r), qkv_bytes(r))).collect(),
            },
        ],
    };
    let width = 2.0 * PANEL_W;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{HEIGHT:.0}" viewBox="0 0 {width:.0} {HEIGHT:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="#1a1a1a">"##
    );
    let _ = writeln!(out, "  <title>The cost of attention</title>");
    let _ = writeln!(
        out,
        "  <desc>Left: measured time of one scaled dot-product attention call with d_k = 64, \
         from {:.3} ms at n = {} to {} ms at n = {}, against the three projections of a head, \
         from {:.3} ms to {} ms, on log-log axes with dashed reference slopes n squared and n. \
         Right: bytes of the n by n weight matrix against the bytes of Q, K and V.</desc>",
        first.attention,
        first.n,
        last.attention,
        last.n,
        first.projections,
        last.projections,
    );
    let _ = writeln!(
        out,
        r##"  <rect x="0" y="0" width="{width:.0}" height="{HEIGHT:.0}" fill="#ffffff"/>"##
    );
    draw_panel(&mut out, &time, 0.0);
    draw_panel(&mut out, &memory, PANEL_W);
    out.push_str("</svg>\n");
    out
}

fn draw_panel(out: &mut String, panel: &Panel, dx: Float) {
    let (x0, x1) = (dx + LEFT, dx + PANEL_W - RIGHT);
    let (y0, y1) = (TOP, HEIGHT - BOTTOM);
    let (n_min, n_max) = (LENGTHS[0] as Float, LENGTHS[LENGTHS.len() - 1] as Float);
    let (lo, hi) = panel.y_decades();
    let sx = |n: Float| x0 + (n / n_min).log2() / (n_max / n_min).log2() * (x1 - x0);
    let sy = |v: Float| y1 - (v.log10() - lo as Float) / (hi - lo) as Float * (y1 - y0);

    let _ = writeln!(
        out,
        r#"  <text x="{:.1}" y="20" text-anchor="middle" font-weight="bold" font-size="13">{}</text>"#,
        (x0 + x1) / 2.0,
        panel.title
    );
    for &n in &LENGTHS {
        let x = sx(n as Float);
        let _ = writeln!(
            out,
            r##"  <line x1="{x:.1}" y1="{y0:.1}" x2="{x:.1}" y2="{y1:.1}" stroke="#e6e6e6"/>"##
        );
        let _ = writeln!(
            out,
            r#"  <text x="{x:.1}" y="{:.1}" text-anchor="middle">{n}</text>"#,
            y1 + 16.0
        );
    }
    for e in lo..=hi {
        let y = sy(10f64.powi(e));
        let _ = writeln!(
            out,
            r##"  <line x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="#e6e6e6"/>"##
        );
        let label = match e {
            0 => "1".to_owned(),
            1 => "10".to_owned(),
            2 => "100".to_owned(),
            3 => "1000".to_owned(),
            _ => format!(
                r#"10<tspan dy="-5" font-size="9">{}</tspan>"#,
                e.to_string().replace('-', "−")
            ),
        };
        let _ = writeln!(
            out,
            r#"  <text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#,
            x0 - 6.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        out,
        r##"  <rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#333"/>"##,
        x1 - x0,
        y1 - y0
    );
    let _ = writeln!(
        out,
        r#"  <text x="{:.1}" y="{:.1}" text-anchor="middle">sequence length n (log scale)</text>"#,
        (x0 + x1) / 2.0,
        HEIGHT - 14.0
    );
    let (lx, ly) = (dx + 16.0, (y0 + y1) / 2.0);
    let _ = writeln!(
        out,
        r#"  <text x="{lx:.1}" y="{ly:.1}" text-anchor="middle" transform="rotate(-90 {lx:.1} {ly:.1})">{}</text>"#,
        panel.y_label
    );
    for line in &panel.lines {
        let path: Vec<String> = line
            .points
            .iter()
            .enumerate()
            .map(|(i, &(n, v))| {
                let command = if i == 0 { "M" } else { "L" };
                format!("{command}{:.1} {:.1}", sx(n), sy(v))
            })
            .collect();
        let dash = if line.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"  <path d="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
            path.join(" "),
            line.color
        );
        if !line.dashed {
            for &(n, v) in &line.points {
                let _ = writeln!(
                    out,
                    r#"  <circle cx="{:.1}" cy="{:.1}" r="3" fill="{}"/>"#,
                    sx(n),
                    sy(v),
                    line.color
                );
            }
        }
    }
    // Legend, top left (both panels' lines rise to the right).
    let (bx, by) = (x0 + 8.0, y0 + 8.0);
    let rows = panel.lines.len() as Float;
    let _ = writeln!(
        out,
        r##"  <rect x="{bx:.1}" y="{by:.1}" width="236" height="{:.1}" fill="#ffffff" fill-opacity="0.9" stroke="#cccccc"/>"##,
        rows * 17.0 + 8.0
    );
    for (i, line) in panel.lines.iter().enumerate() {
        let y = by + 14.0 + 17.0 * i as Float;
        let dash = if line.dashed {
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
            line.color
        );
        let _ = writeln!(
            out,
            r#"  <text x="{:.1}" y="{y:.1}" fill="{GREY}">{}</text>"#,
            bx + 36.0,
            line.label
        );
    }
}
