//! Measurement 3 of chapter 01: how many strictly sequential steps a recurrent layer
//! needs for n tokens, against self-attention's constant depth; how many multiply-adds
//! each does; and how long one forward pass of each takes on this machine.
//!
//! ```text
//! cargo run --release -p measurements --example sequential_steps
//! ```
//!
//! prints the tables the chapter quotes and writes
//! book/src/figures/01-rnn-bottleneck-sequential-steps.svg. The counts and the figure
//! are exact and deterministic; the timings are measurements (the median of several
//! runs, on one thread: ndarray without a BLAS uses one), so they vary from run to run
//! and machine to machine, and the figure does not show them.

#[path = "../../lessons/01-rnn-bottleneck/examples/common/mod.rs"]
mod common;

use common::{hash_matrix, print_table};
use course_common::{Float, Matrix, Vector};
use course_figures::chart::{Axis, ChartStyle, Corner, Panel, Series, line_chart};
use course_figures::colour::{BLUE, VERMILLION};
use course_figures::{Lang, LangArgs, lang::languages};
use rnn::{Rnn, orthogonal};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// d_in = d_hidden = d_model = d_k = d_v.
const D: usize = 64;
const LENGTHS: [usize; 7] = [16, 32, 64, 128, 256, 512, 1024];
/// Steps that must run one after the other, per layer, in self-attention: project
/// (Q, K, V together), score (Q Kᵀ), softmax, weighted sum (W V). None depends on n.
const ATTENTION_STAGES: usize = 4;

/// One head of self-attention, `softmax(Q Kᵀ / √d) V` with `Q = X W_qᵀ` and so on:
/// a plain implementation of what lesson 02 has you write.
struct Head {
    w_q: Matrix,
    w_k: Matrix,
    w_v: Matrix,
}

impl Head {
    fn forward(&self, x: &Matrix) -> Matrix {
        let (q, k, v) = (
            x.dot(&self.w_q.t()),
            x.dot(&self.w_k.t()),
            x.dot(&self.w_v.t()),
        ); // (n, d) each
        let mut scores = q.dot(&k.t()) / (D as Float).sqrt(); // (n, n)
        for mut row in scores.rows_mut() {
            let max = row.fold(Float::NEG_INFINITY, |m, &s| m.max(s));
            row.mapv_inplace(|s| (s - max).exp());
            let sum = row.sum();
            row /= sum;
        }
        scores.dot(&v) // (n, d)
    }
}

/// The median time of `f`, over at least 7 runs and about 0.3 s.
fn median_time(mut f: impl FnMut()) -> Duration {
    f(); // warm up
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 7
        || (start.elapsed() < Duration::from_millis(300) && times.len() < 1000)
    {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn micros(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1e6)
}

/// Measurement 3 of chapter 01: how many strictly sequential steps a recurrent layer needs
/// for n tokens, against self-attention's constant depth; how many multiply-adds each does;
/// and how long one forward pass of each takes on this machine.
#[derive(clap::Parser)]
struct Args {
    #[command(flatten)]
    lang: LangArgs,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let cell = Rnn::new(
        hash_matrix(D, D, 2, (3.0 / D as Float).sqrt()),
        orthogonal(D, 0.9),
        hash_matrix(1, D, 3, 0.1).row(0).to_owned(),
    );
    let head = Head {
        w_q: hash_matrix(D, D, 5, (3.0 / D as Float).sqrt()),
        w_k: hash_matrix(D, D, 6, (3.0 / D as Float).sqrt()),
        w_v: hash_matrix(D, D, 7, (3.0 / D as Float).sqrt()),
    };
    let h0 = Vector::zeros(D);

    println!("Per layer, for n tokens of width d = {D} (exact counts):\n");
    let rows: Vec<Vec<String>> = LENGTHS
        .iter()
        .map(|&n| {
            let rnn_madds = 2 * n * D * D;
            let attention_madds = 3 * n * D * D + 2 * n * n * D;
            vec![
                n.to_string(),
                n.to_string(),
                ATTENTION_STAGES.to_string(),
                (n - 1).to_string(),
                "1".to_owned(),
                format!("{:.2e}", rnn_madds as Float),
                format!("{:.2e}", attention_madds as Float),
            ]
        })
        .collect();
    print_table(
        &[
            "n",
            "RNN: sequential steps",
            "attention: sequential stages",
            "RNN: path token 1 → n",
            "attention: path",
            "RNN: multiply-adds 2nd²",
            "attention: 3nd² + 2n²d",
        ],
        &rows,
    );

    println!(
        "\nOne forward pass, median wall-clock time in µs (release build, one thread; \
         indicative only):\n"
    );
    let rows: Vec<Vec<String>> = LENGTHS
        .iter()
        .map(|&n| {
            let xs = hash_matrix(n, D, 1, 1.0);
            let rnn = median_time(|| {
                black_box(cell.forward(black_box(&xs), &h0));
            });
            // The same recurrence with the input projection done as one product before
            // the loop (it does not depend on the states), so that only h W_hhᵀ, a
            // (64 × 64) matrix-vector product, and the tanh remain sequential.
            let lean = median_time(|| {
                let inputs = xs.dot(&cell.w_xh.t()) + &cell.b; // (n, d)
                let mut h = h0.clone();
                let mut states = Matrix::zeros((n, D));
                for t in 0..n {
                    h = (&inputs.row(t) + &cell.w_hh.dot(&h)).mapv(Float::tanh);
                    states.row_mut(t).assign(&h);
                }
                black_box(states);
            });
            // The same multiply-adds as the RNN, as two big products: what the RNN would
            // cost if its steps did not depend on each other (they do; this is a yardstick,
            // not an RNN).
            let independent = median_time(|| {
                let z = xs.dot(&cell.w_xh.t()) + xs.dot(&cell.w_hh.t()) + &cell.b;
                black_box(z.mapv(Float::tanh));
            });
            let attention = median_time(|| {
                black_box(head.forward(black_box(&xs)));
            });
            let per_step = rnn.as_secs_f64() * 1e9 / n as Float;
            vec![
                n.to_string(),
                micros(rnn),
                format!("{per_step:.0}"),
                micros(lean),
                micros(independent),
                micros(attention),
            ]
        })
        .collect();
    print_table(
        &[
            "n",
            "RNN forward",
            "RNN ns per step",
            "RNN, lean loop",
            "same multiply-adds, as 2 products",
            "self-attention head",
        ],
        &rows,
    );

    for lang in languages(&args.lang.langs) {
        let points = |f: &dyn Fn(Float) -> Float| -> Vec<(Float, Float)> {
            LENGTHS
                .iter()
                .map(|&n| (n as Float, f(n as Float)))
                .collect()
        };
        let d = D as Float;
        let lengths = || {
            Axis::log(
                lang.pick("sequence length n (log scale)", "序列长度 n（对数坐标）"),
                10.0,
                2000.0,
            )
        };
        let steps = Panel {
            title: lang
                .pick(
                    "Steps that must run one after another",
                    "必须依次执行的步骤",
                )
                .to_owned(),
            x: lengths(),
            y: Axis::log(
                lang.pick(
                    "sequential steps per layer (log scale)",
                    "每层的串行步数（对数坐标）",
                ),
                1.0,
                2000.0,
            ),
            series: vec![
                Series::line("RNN: n", VERMILLION, points(&|n| n)).with_markers(),
                Series::line(
                    match lang {
                        Lang::En => {
                            format!("self-attention: {ATTENTION_STAGES}, whatever n")
                        }
                        Lang::ZhCn => format!("自注意力：{ATTENTION_STAGES}，与 n 无关"),
                    },
                    BLUE,
                    points(&|_| ATTENTION_STAGES as Float),
                )
                .with_markers(),
            ],
            legend: Corner::TopLeft,
            note: None,
        };
        let work = Panel {
            title: lang
                .pick(
                    "Multiply-adds per layer (d = 64)",
                    "每层的乘加次数（d = 64）",
                )
                .to_owned(),
            x: lengths(),
            y: Axis::log(
                lang.pick("multiply-adds (log scale)", "乘加次数（对数坐标）"),
                1e4,
                1e9,
            ),
            series: vec![
                Series::line("RNN: 2nd²", VERMILLION, points(&|n| 2.0 * n * d * d))
                    .with_markers(),
                Series::line(
                    lang.pick("self-attention: 3nd² + 2n²d", "自注意力：3nd² + 2n²d"),
                    BLUE,
                    points(&|n| 3.0 * n * d * d + 2.0 * n * n * d),
                )
                .with_markers(),
            ],
            legend: Corner::TopLeft,
            note: None,
        };
        let figure = line_chart(
            lang.pick(
                "Sequential steps and multiply-adds of an RNN layer and a self-attention layer",
                "RNN 层与自注意力层的串行步数和乘加次数",
            ),
            lang.pick("Two log-log panels against the sequence length n from 16 to 1024, for width 64. \
             Left: the steps that must run one after another per layer, n for the RNN (a line \
             rising from 16 to 1024) and 4 for self-attention whatever n is (a flat line). \
             Right: multiply-adds per layer, 2 n d squared for the RNN and 3 n d squared plus \
             2 n squared d for self-attention, which grows faster and does more work at every n.",
                "两幅双对数坐标图，横轴为序列长度 n，从 16 到 1024，宽度为 64。左：每层必须依次执行的步骤，\
                 RNN 为 n（一条从 16 升到 1024 的线），自注意力无论 n 多大都是 4（一条水平线）。\
                 右：每层的乘加次数，RNN 为 2 n d 的平方，自注意力为 3 n d 的平方加 2 n 的平方 d，\
                 后者增长更快，在每个 n 上的计算量都更大。",
            ),
            &[steps, work],
            &ChartStyle::default(),
        );
        let path = course_figures::write_in(
            lang,
            "01-rnn-bottleneck-sequential-steps.svg",
            &figure,
        );
        println!("wrote {}", path.display());
    }
}
