//! Measurement 2 of chapter 01: two sentences that differ only in their first token,
//! read by the same encoder. How far apart are their context vectors (last states) as
//! the sentences grow?
//!
//! ```text
//! cargo run --release -p rnn --example forgetting
//! ```
//!
//! prints the table the chapter quotes and writes
//! book/src/figures/01-rnn-bottleneck-forgetting.svg. Deterministic: fixed fills, and
//! W_hh = `orthogonal(64, σ)`.
//!
//! Because tanh never increases distances (|tanh'| ≤ 1), the distance between the two
//! states after t + 1 tokens is at most σ_max(W_hh)^t times their distance after the
//! first token: for σ_max < 1, the first token is forgotten geometrically fast.

mod common;

use common::{hash_matrix, print_table, sci};
use course_common::{Float, Vector};
use course_figures::chart::{Axis, ChartStyle, Corner, Panel, Series, line_chart};
use course_figures::colour::{BLUE, GREEN, ORANGE, VERMILLION};
use course_figures::{Lang, LangArgs, lang::languages};
use rnn::{Rnn, orthogonal};

const D_IN: usize = 16;
const D_HIDDEN: usize = 64;
const LEN: usize = 100;
const SIGMAS: [Float; 4] = [0.5, 0.9, 1.0, 2.0];

/// Measurement 2 of chapter 01: two sentences that differ only in their first token, read
/// by the same encoder. How far apart are their context vectors (last states) as the
/// sentences grow?
#[derive(clap::Parser)]
struct Args {
    #[command(flatten)]
    lang: LangArgs,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    // The same encoder inputs as the gradient measurement (gain 0.3).
    let xs = hash_matrix(LEN, D_IN, 1, 1.0);
    let w_xh = hash_matrix(D_HIDDEN, D_IN, 2, 1.0) * (3.0 / D_IN as Float).sqrt() * 0.3;
    let b = hash_matrix(1, D_HIDDEN, 3, 0.1).row(0).to_owned();
    // The other sentence: a different first token, the same tokens after it.
    let mut other = xs.clone();
    other
        .row_mut(0)
        .assign(&hash_matrix(1, D_IN, 4, 1.0).row(0));
    let h0 = Vector::zeros(D_HIDDEN);

    // distances[i][t]: ‖h − h'‖ after t + 1 tokens, for SIGMAS[i]. The state after t + 1
    // tokens does not depend on later tokens, so one run of LEN tokens gives every length.
    let mut distances = Vec::new();
    let mut norms = Vec::new();
    for &sigma in &SIGMAS {
        let cell = Rnn::new(w_xh.clone(), orthogonal(D_HIDDEN, sigma), b.clone());
        let (a, b) = (cell.forward(&xs, &h0), cell.forward(&other, &h0));
        let gap = &a - &b;
        distances.push(
            gap.rows()
                .into_iter()
                .map(|r| r.dot(&r).sqrt())
                .collect::<Vec<Float>>(),
        );
        norms.push(
            a.rows()
                .into_iter()
                .map(|r| r.dot(&r).sqrt())
                .collect::<Vec<Float>>(),
        );
    }

    println!(
        "d_in = {D_IN}, d_hidden = {D_HIDDEN}, W_hh = orthogonal(64, σ); \
         ‖h_T − h'_T‖ for two sentences that differ only in token 1:\n"
    );
    let lengths = [1, 2, 3, 5, 10, 20, 40, 60, 100];
    let mut header: Vec<String> = vec!["length T".to_owned()];
    header.extend(SIGMAS.iter().map(|s| format!("σ = {s}")));
    header.push("‖h_T‖, σ = 0.9".to_owned());
    header.push("‖h_T‖, σ = 2".to_owned());
    let rows: Vec<Vec<String>> = lengths
        .iter()
        .map(|&len| {
            let mut row = vec![len.to_string()];
            row.extend(distances.iter().map(|d| sci(d[len - 1])));
            row.push(sci(norms[1][len - 1]));
            row.push(sci(norms[3][len - 1]));
            row
        })
        .collect();
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    print_table(&header_refs, &rows);

    println!(
        "\nThe first length at which the distance is below 1 % of its value after token 1:\n"
    );
    let rows: Vec<Vec<String>> = SIGMAS
        .iter()
        .zip(&distances)
        .map(|(s, d)| {
            let when = d
                .iter()
                .position(|&v| v < 0.01 * d[0])
                .map_or(format!("> {LEN}"), |t| (t + 1).to_string());
            vec![format!("σ = {s}"), when]
        })
        .collect();
    print_table(&["W_hh", "T"], &rows);

    for lang in languages(&args.lang.langs) {
        let colors = [BLUE, ORANGE, GREEN, VERMILLION];
        let mut series: Vec<Series> = SIGMAS
            .iter()
            .zip(&distances)
            .zip(colors)
            .map(|((s, d), color)| {
                // Below 10⁻¹⁵ the two states agree to the last bits of f64 (the first token
                // is gone for good): the line stops there.
                let points = d
                    .iter()
                    .enumerate()
                    .take_while(|&(_, &v)| v > 1e-15)
                    .map(|(t, &v)| ((t + 1) as Float, v))
                    .collect();
                Series::line(format!("σ_max(W_hh) = {s}"), color, points)
            })
            .collect();
        // The bound for the first σ, dashed in its line's colour.
        let (sigma, first) = (SIGMAS[0], distances[0][0]);
        let bound = (0..LEN)
            .map(|t| ((t + 1) as Float, first * sigma.powi(t as i32)))
            .collect();
        series.push(Series::line("", colors[0], bound).dashed());
        let panel = Panel {
            title: lang
                .pick(
                    "Two sentences that differ only in token 1",
                    "两个仅第 1 个词元不同的句子",
                )
                .to_owned(),
            x: Axis::linear(
                lang.pick(
                    "sentence length T (tokens read)",
                    "句子长度 T（已读词元数）",
                ),
                1.0,
                LEN as Float,
            ),
            y: Axis::log(
                lang.pick("‖h_T − h′_T‖ (log scale)", "‖h_T − h′_T‖（对数坐标）"),
                1e-17,
                100.0,
            ),
            series,
            legend: Corner::Outside,
            note: Some(
                lang.pick(
                    "dashed: the bound 0.5^(T−1) · ‖h_1 − h′_1‖",
                    "虚线：上界 0.5^(T−1) · ‖h_1 − h′_1‖",
                )
                .to_owned(),
            ),
        };
        let description = match lang {
            Lang::En => format!(
                "Log-scale plot of the distance between the last hidden states of two \
                 sentences that differ only in their first token, against the sentence length, \
                 for W_hh orthogonal times 0.5, 0.9, 1.0 and 2.0. After 100 tokens the distance \
                 is {} for 0.5, {} for 0.9, {} for 1.0 and {} for 2.0. The dashed line is the \
                 bound 0.5 to the power T minus 1 times the distance after the first token; the \
                 line for 0.5 stops where the distance reaches 1e-15, the rounding floor.",
                sci(distances[0][LEN - 1]),
                sci(distances[1][LEN - 1]),
                sci(distances[2][LEN - 1]),
                sci(distances[3][LEN - 1]),
            ),
            Lang::ZhCn => format!(
                "对数坐标图：两个仅第一个词元不同的句子，其最后隐藏状态之间的距离随句子长度的变化，\
                 W_hh 为正交矩阵乘以 0.5、0.9、1.0 和 2.0。读完 100 个词元后，距离在 0.5 时为 {}，\
                 0.9 时为 {}，1.0 时为 {}，2.0 时为 {}。虚线是上界：0.5 的 T − 1 次方乘以第一个词元\
                 之后的距离；0.5 的曲线在距离降到 1e-15（舍入的下限）处停止。",
                sci(distances[0][LEN - 1]),
                sci(distances[1][LEN - 1]),
                sci(distances[2][LEN - 1]),
                sci(distances[3][LEN - 1]),
            ),
        };
        let figure = line_chart(
            lang.pick(
                "How an RNN encoder forgets the first token",
                "RNN 编码器如何遗忘第一个词元",
            ),
            &description,
            &[panel],
            &ChartStyle::default(),
        );
        let path =
            course_figures::write_in(lang, "01-rnn-bottleneck-forgetting.svg", &figure);
        println!("wrote {}", path.display());
    }
}
