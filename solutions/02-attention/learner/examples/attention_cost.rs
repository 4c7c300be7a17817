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
//! - its three stages, each on its own inputs of the right shape: the scores
//!   `Q Kᵀ / √d_k`, the row softmax (of an `(n, n)` fill), and the weighted sum `W V`;
//! - for comparison, the three projections `X W_qᵀ + b_q`, `X W_kᵀ + b_k`,
//!   `X W_vᵀ + b_v` of a head of width 64 (lesson 02's `Linear`), whose work grows
//!   like `n`, not `n²`,
//!
//! prints two Markdown tables and writes `book/src/figures/cost-of-attention.svg`.
//! Timings are measurements: they vary from run to run and machine to machine. The
//! figure is drawn from the numbers as printed, so the same tables give the same
//! figure byte for byte. The inputs are deterministic fills (no random generator).
//!
//! `--lang en,zh-CN` draws the figure in English and in Chinese (into
//! `target/figures/zh-CN/`) from the same measurements. `--tables FILE` measures nothing:
//! it redraws the figure from the two tables this program printed, read from FILE (the
//! book's chapter quotes them, so `--tables book/src/cost-of-attention.md` redraws the
//! book's figure).
//!
//! It runs on your lesson crate, once lesson 02 passes, and times your attention;
//! `cargo xtask experiments` runs it on the reference solution, whose timings the book
//! quotes. Run by a learner, it writes its figure into `target/figures/`.

use attention::{Linear, scaled_dot_product_attention, softmax_rows};
use course_common::ndarray::{Array1, Array2};
use course_common::{Float, Matrix, Vector};
use course_figures::chart::{
    Axis, ChartStyle, Corner, LegendStyle, Panel, Series, decade_ticks, line_chart,
};
use course_figures::colour::{BLUE, GREY, VERMILLION};
use course_figures::{Lang, LangArgs, lang::languages};
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
    // Each stage on inputs of its own shape, timed alone: the product Q Kᵀ and its
    // scaling; your softmax_rows of an (n, n) fill; the product of the weights your
    // attention returns with V.
    let scores = fill(n, n, 8);
    let weights = scaled_dot_product_attention(&q, &k, &v, None).weights;
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
struct Args {
    #[command(flatten)]
    lang: LangArgs,
    /// Measure nothing: redraw the figure from the two tables this program printed, read
    /// from FILE (such as the book's chapter, which quotes them).
    #[arg(long, value_name = "FILE")]
    tables: Option<PathBuf>,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if let Some(file) = &args.tables {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|err| panic!("could not read {}: {err}", file.display()));
        draw(&rows_from_tables(&text), &args.lang.langs);
        return;
    }
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

    println!();
    draw(&rows, &args.lang.langs);
}

/// Writes the figure of `rows` in each language asked for.
fn draw(rows: &[Row], langs: &[Lang]) {
    for lang in languages(langs) {
        let path =
            course_figures::write_in(lang, "cost-of-attention.svg", &figure(rows, lang));
        println!("wrote {}", path.display());
    }
}

/// The rows of the two tables `main` prints, read back from `text`: the table whose header
/// names "attention (ms)" gives the calls and the projections, the one whose header names
/// "softmax (ms)" the three stages. Panics if a length is missing from either.
fn rows_from_tables(text: &str) -> Vec<Row> {
    let mut rows: Vec<Row> = LENGTHS
        .iter()
        .map(|&n| Row {
            n,
            attention: Float::NAN,
            scores: Float::NAN,
            softmax: Float::NAN,
            weighted_sum: Float::NAN,
            projections: Float::NAN,
        })
        .collect();
    let mut table = None;
    for line in text.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !line.trim_start().starts_with('|') {
            table = None;
        } else if line.contains("attention (ms)") {
            table = Some(1);
        } else if line.contains("softmax (ms)") {
            table = Some(2);
        } else if let (Some(which), Ok(n)) = (table, cells[0].parse::<usize>()) {
            let number = |i: usize| -> Float {
                cells[i]
                    .parse()
                    .unwrap_or_else(|_| panic!("not a number in the table: {line}"))
            };
            if let Some(row) = rows.iter_mut().find(|r| r.n == n) {
                if which == 1 {
                    row.attention = number(1);
                    row.projections = number(3);
                } else {
                    row.scores = number(1);
                    row.softmax = number(2);
                    row.weighted_sum = number(3);
                }
            }
        }
    }
    for row in &rows {
        let values = [
            row.attention,
            row.scores,
            row.softmax,
            row.weighted_sum,
            row.projections,
        ];
        assert!(
            values.iter().all(|v| v.is_finite()),
            "the tables give no complete row for n = {}",
            row.n
        );
    }
    rows
}

// The figure: two log-log panels.

/// The look of the figure: taller than chapter 01's charts, lines not clipped, a larger
/// dot on each measured point, and a fixed-width legend in grey ink.
fn style() -> ChartStyle {
    ChartStyle {
        height: 360.0,
        left: 70.0,
        right: 14.0,
        clip: false,
        marker_radius: 3.0,
        marker_no_stroke: false,
        legend: LegendStyle {
            inset: 8.0,
            width: Some(236.0),
            border: "#cccccc",
            label_fill: Some(GREY),
        },
        ..ChartStyle::default()
    }
}

/// A log-log panel against the sequence length, ticks at the measured lengths and at
/// the powers of ten just below and just above every value drawn; measured lines get a
/// dot at each point, dashed references none.
fn panel(title: &str, y_label: &str, lines: Vec<Series>, lang: Lang) -> Panel {
    let (min, max) = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .fold((Float::INFINITY, 0.0), |(lo, hi): (Float, Float), v| {
            (lo.min(v), hi.max(v))
        });
    let (lo, hi) = (min.log10().floor() as i32, max.log10().ceil() as i32);
    let (first, last) = (LENGTHS[0], LENGTHS[LENGTHS.len() - 1]);
    let x = Axis::log(
        lang.pick("sequence length n (log scale)", "序列长度 n（对数坐标）"),
        first as Float,
        last as Float,
    )
    .with_ticks(
        LENGTHS
            .iter()
            .map(|&n| (n as Float, n.to_string()))
            .collect(),
    );
    let power = |e: i32| (10.0 as Float).powi(e);
    Panel {
        title: title.to_owned(),
        x,
        y: Axis::log(y_label, power(lo), power(hi)).with_ticks(decade_ticks(lo, hi)),
        series: lines
            .into_iter()
            .map(|line| Series {
                markers: !line.dashed,
                ..line
            })
            .collect(),
        legend: Corner::TopLeft,
        note: None,
    }
}

fn figure(rows: &[Row], lang: Lang) -> String {
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
    let line = |label: &str, color, value: &dyn Fn(&Row) -> Float| {
        Series::line(
            label,
            color,
            rows.iter().map(|r| (x(r), value(r))).collect(),
        )
    };
    let n2_through = |r: &Row, t: Float| t * (x(r) / x(anchor)).powi(2);
    let n1_through = |r: &Row, t: Float| t * (x(r) / x(anchor));
    let time = panel(
        lang.pick(
            "Time of one call, d_k = 64 (measured)",
            "一次调用的耗时，d_k = 64（实测）",
        ),
        lang.pick("milliseconds (log scale)", "毫秒（对数坐标）"),
        vec![
            line(
                lang.pick("attention, n × n", "注意力，n × n"),
                BLUE,
                &|r| r.attention,
            ),
            line(
                lang.pick("∝ n² (through n = 1024)", "∝ n²（过 n = 1024 处）"),
                BLUE,
                &|r| n2_through(r, anchor.attention),
            )
            .dashed(),
            line(
                lang.pick("Q, K, V projections", "Q、K、V 投影"),
                VERMILLION,
                &|r| r.projections,
            ),
            line(
                lang.pick("∝ n (through n = 1024)", "∝ n（过 n = 1024 处）"),
                VERMILLION,
                &|r| n1_through(r, anchor.projections),
            )
            .dashed(),
        ],
        lang,
    );
    let memory = panel(
        lang.pick(
            "Memory of one head (exact, f64)",
            "一个头的内存（精确值，f64）",
        ),
        lang.pick("bytes (log scale)", "字节（对数坐标）"),
        vec![
            line(
                lang.pick("attention weights, n × n", "注意力权重，n × n"),
                BLUE,
                &|r| (r.n * r.n * BYTES) as Float,
            ),
            line(
                lang.pick("Q, K and V, 3 × n × 64", "Q、K 和 V，3 × n × 64"),
                VERMILLION,
                &|r| (3 * r.n * D_K * BYTES) as Float,
            ),
        ],
        lang,
    );
    let description = match lang {
        Lang::En => format!(
            "Left: measured time of one scaled dot-product attention call with d_k = 64, from \
         {:.3} ms at n = {} to {} ms at n = {}, against the three projections of a head, \
         from {:.3} ms to {} ms, on log-log axes with dashed reference slopes n squared and \
         n. Right: bytes of the n by n weight matrix against the bytes of Q, K and V.",
            first.attention,
            first.n,
            last.attention,
            last.n,
            first.projections,
            last.projections,
        ),
        Lang::ZhCn => format!(
            "左：d_k = 64 时一次缩放点积注意力调用的实测耗时，从 n = {1} 时的 {0:.3} 毫秒\
             到 n = {3} 时的 {2} 毫秒，对比一个头的三个投影，从 {4:.3} 毫秒到 {5} 毫秒，\
             双对数坐标，虚线为 n 的平方和 n 的参考斜率。右：n×n 权重矩阵的字节数，\
             对比 Q、K 和 V 的字节数。",
            first.attention,
            first.n,
            last.attention,
            last.n,
            first.projections,
            last.projections,
        ),
    };
    line_chart(
        lang.pick("The cost of attention", "注意力的代价"),
        &description,
        &[time, memory],
        &style(),
    )
}
