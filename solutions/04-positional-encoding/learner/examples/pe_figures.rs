//! The figures and tables of chapter 04, computed from your lesson code.
//!
//! ```text
//! cargo run --release -p positional-encoding --example pe_figures
//! ```
//!
//! writes `book/src/figures/04-positional-encoding-heatmap.svg` (the table, 64 positions
//! by 32 dimensions) and `book/src/figures/04-positional-encoding-curves.svg` (a few of its
//! columns against the position), and prints the chapter's tables: dot products against
//! distance, the embedding-to-encoding ratio for several initialisations, and 猫追狗
//! against 狗追猫 through one self-attention head. The SVG is written by hand, with fixed
//! number formats, so the same code always gives the same bytes.

use attention::{Linear, SelfAttentionHead};
use course_common::ndarray::array;
use course_common::{Float, Matrix, Vector};
use course_figures::colour::RED_BLUE;
use course_figures::heatmap::Heatmap;
use course_figures::svg::{Svg, fixed, polyline_points};
use course_figures::{Lang, LangArgs, lang::languages};
use positional_encoding::{
    Embedding, embed_with_positions, embedding_to_encoding_ratio, frequencies,
    sinusoidal_table,
};
use std::fmt::Display;

/// The figures and tables of chapter 04, computed from your lesson code.
#[derive(clap::Parser)]
struct Args {
    #[command(flatten)]
    lang: LangArgs,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    for lang in languages(&args.lang.langs) {
        let heatmap = course_figures::write_in(
            lang,
            "04-positional-encoding-heatmap.svg",
            &heatmap_svg(64, 32, lang),
        );
        let curves = course_figures::write_in(
            lang,
            "04-positional-encoding-curves.svg",
            &curves_svg(64, 32, &[2, 3, 8, 14], lang),
        );
        println!("wrote {}\nwrote {}\n", heatmap.display(), curves.display());
    }

    dot_products_against_distance();
    ratios_for_several_initialisations();
    cat_chases_dog();
}

// ---------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------

/// ⟨PE(p), PE(p + k)⟩ for several p: the same number in every row's columns of one d_model.
fn dot_products_against_distance() {
    println!("<PE(p), PE(p + k)> against the distance k (it does not depend on p):\n");
    println!(
        "|   k | d=32, p=0 | d=32, p=100 | d=512, p=0 | d=512, p=100 | cos sim, d=512 |"
    );
    println!(
        "|----:|----------:|------------:|-----------:|-------------:|---------------:|"
    );
    let small = sinusoidal_table(400, 32);
    let large = sinusoidal_table(400, 512);
    let dot = |t: &Matrix, p: usize, k: usize| t.row(p).dot(&t.row(p + k));
    for k in [0, 1, 2, 4, 8, 16, 32, 64, 128] {
        println!(
            "| {k:>3} | {:>9.3} | {:>11.3} | {:>10.3} | {:>12.3} | {:>14.3} |",
            dot(&small, 0, k),
            dot(&small, 100, k),
            dot(&large, 0, k),
            dot(&large, 100, k),
            dot(&large, 0, k) / 256.0,
        );
    }
    println!();
}

/// A deterministic stream of standard normal numbers: splitmix64 and Box–Muller, written
/// out here so that the table below does not depend on a crate's generator.
struct Normal(u64);

impl Normal {
    fn uniform(&mut self) -> Float {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // 53 random bits, shifted into (0, 1).
        ((z >> 11) as Float + 0.5) / (1u64 << 53) as Float
    }

    fn sample(&mut self) -> Float {
        let (u1, u2) = (self.uniform(), self.uniform());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU as Float * u2).cos()
    }

    fn matrix(&mut self, rows: usize, cols: usize, std: Float) -> Matrix {
        Matrix::from_shape_fn((rows, cols), |_| std * self.sample())
    }
}

/// The standard deviation of an initialisation, from the vocabulary size and d_model.
type InitStd = fn(usize, usize) -> Float;

/// The embedding-to-encoding ratio for several initialisations, measured with the
/// lesson's helper, next to the value it should have, σ·√(2·d_model).
fn ratios_for_several_initialisations() {
    println!(
        "Embedding rows (as the model sees them) against encoding rows, vocabulary of 1000,"
    );
    println!("root-mean-square row norms (embedding_to_encoding_ratio):\n");
    println!(
        "| initialisation of the weight | scaled by √d_model? | d_model = 32 | d_model = 512 |"
    );
    println!("|---|---|---:|---:|");
    let vocab = 1000;
    let rows: [(&str, bool, InitStd); 4] = [
        ("N(0, 1) (PyTorch's nn.Embedding)", true, |_, _| 1.0),
        ("N(0, 1) (PyTorch's nn.Embedding)", false, |_, _| 1.0),
        ("std 1/√d_model (this course)", true, |_, d| {
            1.0 / (d as Float).sqrt()
        }),
        ("Xavier, std √(2/(vocab + d_model))", true, |v, d| {
            (2.0 / (v + d) as Float).sqrt()
        }),
    ];
    for (name, scaled, std) in rows {
        let mut cells = Vec::new();
        for d_model in [32, 512] {
            let mut normal = Normal(0x5EED_0004 + d_model as u64);
            let sigma = std(vocab, d_model);
            let mut weight = normal.matrix(vocab, d_model, sigma);
            if !scaled {
                // The lesson's Embedding always multiplies by √d_model; dividing the
                // weight by it first gives the rows an unscaled embedding would have.
                weight /= (d_model as Float).sqrt();
            }
            let table = sinusoidal_table(512, d_model);
            let ratio = embedding_to_encoding_ratio(&Embedding::new(weight), &table);
            let expected = if scaled {
                sigma * (2.0 * d_model as Float).sqrt()
            } else {
                sigma * (2.0 as Float).sqrt()
            };
            cells.push(format!("{ratio:.2} (σ·√(2d) = {expected:.2})"));
        }
        let how = if scaled { "yes" } else { "no" };
        println!("| {name} | {how} | {} | {} |", cells[0], cells[1]);
    }
    println!();
}

fn identity_head(d: usize) -> SelfAttentionHead {
    let identity = || Linear::new(Matrix::eye(d), Vector::zeros(d));
    SelfAttentionHead {
        w_q: identity(),
        w_k: identity(),
        w_v: identity(),
    }
}

/// 猫追狗 and 狗追猫 through a head with Q = K = V = X, without and with the encoding.
fn cat_chases_dog() {
    let embedding = Embedding::new(array![
        [0.6, -0.2, 0.5, 0.1],
        [-0.4, 0.7, 0.0, -0.5],
        [0.3, 0.4, -0.6, 0.2]
    ]);
    let head = identity_head(4);
    let table = sinusoidal_table(3, 4);
    let sentences = [("猫追狗", [0, 1, 2]), ("狗追猫", [2, 1, 0])];
    for with_positions in [false, true] {
        println!(
            "Attention weights {} positional encoding (rows: queries, columns: keys):\n",
            if with_positions { "with" } else { "without" }
        );
        for (text, tokens) in &sentences {
            let x = if with_positions {
                embed_with_positions(&embedding, tokens, &table)
            } else {
                embedding.forward(tokens)
            };
            let weights = head.forward(&x, None).attention.weights;
            let chars: Vec<char> = text.chars().collect();
            println!(
                "{text}      {}      {}      {}",
                chars[0], chars[1], chars[2]
            );
            for (row, c) in weights.rows().into_iter().zip(&chars) {
                println!("  {c}   {:>6.3} {:>6.3} {:>6.3}", row[0], row[1], row[2]);
            }
        }
        let out = |tokens: &[usize]| {
            let x = if with_positions {
                embed_with_positions(&embedding, tokens, &table)
            } else {
                embedding.forward(tokens)
            };
            head.forward(&x, None).attention.output
        };
        let (a, b) = (out(&[0, 1, 2]), out(&[2, 1, 0]));
        let mut gap: Float = 0.0;
        for t in 0..3 {
            for c in 0..4 {
                gap = gap.max((b[[t, c]] - a[[2 - t, c]]).abs());
            }
        }
        let chase =
            (0..4).fold(0.0 as Float, |m, c| m.max((a[[1, c]] - b[[1, c]]).abs()));
        println!(
            "largest |output(狗追猫) − output(猫追狗) reversed| = {gap:.3}; 追's output \
             row differs by {chase:.3}\n"
        );
    }
}

// ---------------------------------------------------------------------------------------
// SVG
// ---------------------------------------------------------------------------------------

/// A document with the chapter's title and description on a white background.
fn svg_open(width: usize, height: usize, title: &str, desc: &str) -> Svg {
    let mut svg = Svg::new(width, height, 14);
    svg.title(title, desc);
    svg.background(width, height);
    svg
}

/// A line from `(x1, y1)` to `(x2, y2)` in the document's ink.
fn tick(svg: &mut Svg, x1: Float, y1: Float, x2: Float, y2: Float) {
    svg.line(fixed(x1, 1), fixed(y1, 1), fixed(x2, 1), fixed(y2, 1))
        .attr("stroke", "#1a1a1a")
        .end();
}

/// A label at `(x, y)`, 12 pixels high, anchored as `anchor` says (if it says).
fn label(svg: &mut Svg, x: Float, y: Float, anchor: Option<&str>, text: impl Display) {
    svg.text(fixed(x, 1), fixed(y, 1))
        .attr_opt("text-anchor", anchor)
        .attr("font-size", 12)
        .text(text);
}

/// The table as a heatmap: positions down, dimensions across.
fn heatmap_svg(max_len: usize, d_model: usize, lang: Lang) -> String {
    let table = sinusoidal_table(max_len, d_model);
    let (cell_w, cell_h) = (14.0, 7.0);
    let (left, top) = (80.0, 70.0);
    let (plot_w, plot_h) = (cell_w * d_model as Float, cell_h * max_len as Float);
    let width = (left + plot_w + 130.0) as usize;
    let height = (top + plot_h + 80.0) as usize;
    let mut svg = svg_open(
        width,
        height,
        lang.pick(
            "Sinusoidal positional encoding as a heatmap",
            "正弦位置编码的热力图",
        ),
        &match lang {
            Lang::En => format!(
                "The table for {max_len} positions (rows, top to bottom) and d_model = \
             {d_model} dimensions (columns). Blue is −1, white 0, red +1. The first columns \
             alternate quickly from row to row; further right the columns change more and \
             more slowly, and the last ones stay near 0 (sine columns) or 1 (cosine \
             columns) over all {max_len} positions."
            ),
            Lang::ZhCn => format!(
                "{max_len} 个位置（行，自上而下）、d_model = {d_model} 个维度（列）的编码表。\
                 蓝色为 −1，白色为 0，红色为 +1。最前面几列逐行快速交替；越往右，列变化得越慢，\
                 最后几列在全部 {max_len} 个位置上都保持在 0 附近（正弦列）或 1 附近（余弦列）。"
            ),
        },
    );
    let one = |v: Float| fixed(v, 1);
    svg.text(one(left + plot_w / 2.0), 28)
        .attr("text-anchor", "middle")
        .attr("font-weight", "bold")
        .attr("font-size", 16)
        .text(match lang {
            Lang::En => format!(
                "PE(pos, j) for d_model = {d_model}, positions 0 to {}",
                max_len - 1
            ),
            Lang::ZhCn => {
                format!("PE(pos, j)，d_model = {d_model}，位置 0 到 {}", max_len - 1)
            }
        });
    let mut heatmap = Heatmap::new(&table, RED_BLUE, left, top, cell_w);
    heatmap.cell_height = cell_h;
    heatmap.decimals = 0;
    heatmap.crisp = true;
    heatmap.cells(&mut svg);
    svg.rect(one(left), one(top), one(plot_w), one(plot_h))
        .attr("fill", "none")
        .attr("stroke", "#1a1a1a")
        .attr("stroke-width", 1)
        .end();
    // Axes: columns across the top, positions down the left.
    for col in (0..d_model).step_by(4).chain([d_model - 1]) {
        let x = left + cell_w * (col as Float + 0.5);
        tick(&mut svg, x, top - 5.0, x, top);
        label(&mut svg, x, top - 9.0, Some("middle"), col);
    }
    svg.text(one(left + plot_w / 2.0), one(top + plot_h + 28.0))
        .attr("text-anchor", "middle")
        .text(lang.pick(
            "dimension j (sin at even j, cos at odd j); frequency falls to the right",
            "维度 j（j 为偶数时取 sin，为奇数时取 cos）；越往右频率越低",
        ));
    for pos in (0..max_len).step_by(8).chain([max_len - 1]) {
        let y = top + cell_h * (pos as Float + 0.5);
        tick(&mut svg, left - 5.0, y, left, y);
        label(&mut svg, left - 9.0, y + 4.0, Some("end"), pos);
    }
    let middle = one(top + plot_h / 2.0);
    svg.text(24, middle)
        .attr("text-anchor", "middle")
        .attr("transform", format!("rotate(-90 24 {middle})"))
        .text(lang.pick("position pos", "位置 pos"));
    // Colour bar, +1 at the top.
    let (bar_x, bar_w, bar_h) = (left + plot_w + 40.0, 18.0, 200.0);
    let bar_top = top + (plot_h - bar_h) / 2.0;
    svg.tag("g").attr("shape-rendering", "crispEdges").open();
    let steps = 40;
    for s in 0..steps {
        let value = 1.0 - 2.0 * (s as Float + 0.5) / steps as Float;
        svg.rect(
            one(bar_x),
            one(bar_top + bar_h * s as Float / steps as Float),
            one(bar_w),
            one(bar_h / steps as Float),
        )
        .attr("fill", RED_BLUE.colour(value))
        .end();
    }
    svg.close("g");
    svg.rect(one(bar_x), one(bar_top), one(bar_w), one(bar_h))
        .attr("fill", "none")
        .attr("stroke", "#1a1a1a")
        .end();
    for (text, frac) in [("+1", 0.0), ("0", 0.5), ("−1", 1.0)] {
        let y = bar_top + bar_h * frac;
        label(&mut svg, bar_x + bar_w + 6.0, y + 4.0, None, text);
    }
    svg.finish()
}

/// A few columns of your table against the position: a dot at each integer position the
/// table keeps, and the continuous sinusoid of the column's frequency through them
/// (sin(pos·ω) or cos(pos·ω), told apart by the table's value at position 0).
fn curves_svg(max_len: usize, d_model: usize, columns: &[usize], lang: Lang) -> String {
    let table = sinusoidal_table(max_len, d_model);
    let omega = frequencies(d_model);
    let (left, top, plot_w, plot_h) = (70.0, 60.0, 600.0, 300.0);
    let legend_h = 24.0 * columns.len() as Float;
    let width = (left + plot_w + 30.0) as usize;
    let height = (top + plot_h + 70.0 + legend_h) as usize;
    let x_of = |pos: Float| left + plot_w * pos / (max_len - 1) as Float;
    let y_of = |v: Float| top + plot_h * (1.0 - v) / 2.0;
    let styles = [
        ("#1b6ca8", None),
        ("#e07b00", Some("7 4")),
        ("#2a9d3a", Some("2 3")),
        ("#b0178c", Some("10 3 2 3")),
    ];
    let mut svg = svg_open(
        width,
        height,
        lang.pick(
            "Columns of the positional-encoding table against the position",
            "位置编码表的各列随位置的变化",
        ),
        &match lang {
            Lang::En => format!(
                "Columns {columns:?} of the d_model = {d_model} table for positions 0 to {}. \
             Columns 2 and 3 are the sine and the cosine of the same frequency, a quarter of \
             a period apart; column 8 is a slower sine and column 14 a much slower one.",
                max_len - 1
            ),
            Lang::ZhCn => format!(
                "d_model = {d_model} 的编码表中第 {columns:?} 列在位置 0 到 {} 上的取值。\
                 第 2 列和第 3 列是同一频率的正弦和余弦，相差四分之一个周期；\
                 第 8 列是较慢的正弦，第 14 列则慢得多。",
                max_len - 1
            ),
        },
    );
    let one = |v: Float| fixed(v, 1);
    svg.text(one(left + plot_w / 2.0), 28)
        .attr("text-anchor", "middle")
        .attr("font-weight", "bold")
        .attr("font-size", 16)
        .text(match lang {
            Lang::En => {
                format!("Columns of the table (d_model = {d_model}) against the position")
            }
            Lang::ZhCn => format!("编码表（d_model = {d_model}）的各列随位置的变化"),
        });
    // Grid and axes.
    for v in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        let y = y_of(v);
        svg.line(one(left), one(y), one(left + plot_w), one(y))
            .attr("stroke", if v == 0.0 { "#888888" } else { "#dddddd" })
            .end();
        let text = if v < 0.0 {
            format!("−{:.1}", -v)
        } else {
            format!("{v:.1}")
        };
        label(&mut svg, left - 8.0, y + 4.0, Some("end"), text);
    }
    for pos in (0..max_len).step_by(8).chain([max_len - 1]) {
        let x = x_of(pos as Float);
        tick(&mut svg, x, top + plot_h, x, top + plot_h + 5.0);
        label(&mut svg, x, top + plot_h + 19.0, Some("middle"), pos);
    }
    svg.rect(one(left), one(top), one(plot_w), one(plot_h))
        .attr("fill", "none")
        .attr("stroke", "#1a1a1a")
        .end();
    svg.text(one(left + plot_w / 2.0), one(top + plot_h + 40.0))
        .attr("text-anchor", "middle")
        .text(lang.pick("position pos", "位置 pos"));
    let middle = one(top + plot_h / 2.0);
    svg.text(20, middle)
        .attr("text-anchor", "middle")
        .attr("transform", format!("rotate(-90 20 {middle})"))
        .text("PE(pos, j)");
    // Curves, dots and legend.
    for (n, &col) in columns.iter().enumerate() {
        let (stroke, dash) = styles[n % styles.len()];
        let w = omega[col / 2];
        // The sinusoid of frequency ω through your table's value at position 0: its
        // phase is asin(PE(0, col)), 0 for a sine, π/2 for a cosine.
        let phase = table[[0, col]].clamp(-1.0, 1.0).asin();
        let f = |p: Float| (p * w + phase).sin();
        let samples = (max_len - 1) * 8;
        let points: Vec<(Float, Float)> = (0..=samples)
            .map(|s| {
                let p = s as Float / 8.0;
                (x_of(p), y_of(f(p)))
            })
            .collect();
        svg.tag("polyline")
            .attr("points", polyline_points(&points, 1))
            .attr("fill", "none")
            .attr("stroke", stroke)
            .attr("stroke-width", 2)
            .attr_opt("stroke-dasharray", dash)
            .end();
        svg.tag("g").attr("fill", stroke).open();
        for pos in 0..max_len {
            svg.circle(one(x_of(pos as Float)), one(y_of(table[[pos, col]])), 2.2)
                .end();
        }
        svg.close("g");
        let y = top + plot_h + 62.0 + 24.0 * n as Float;
        svg.line(one(left), one(y - 4.0), one(left + 40.0), one(y - 4.0))
            .attr("stroke", stroke)
            .attr("stroke-width", 2)
            .attr_opt("stroke-dasharray", dash)
            .end();
        let kind = if phase > std::f64::consts::FRAC_PI_4 as Float {
            "cos"
        } else {
            "sin"
        };
        let i = col / 2;
        let sub = format!("ω<tspan baseline-shift=\"sub\" font-size=\"10\">{i}</tspan>");
        let wavelength = std::f64::consts::TAU as Float / w;
        svg.text(one(left + 50.0), one(y)).markup(&match lang {
            Lang::En => format!(
                "column {col} = {kind}(pos · {sub}), {sub} = {w:.4}, wavelength 2π/{sub} = \
                 {wavelength:.1} positions"
            ),
            Lang::ZhCn => format!(
                "第 {col} 列 = {kind}(pos · {sub})，{sub} = {w:.4}，波长 2π/{sub} = \
                 {wavelength:.1} 个位置"
            ),
        });
    }
    svg.finish()
}
