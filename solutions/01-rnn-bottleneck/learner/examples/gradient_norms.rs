//! Measurement 1 of chapter 01: how much of the gradient of the last state reaches each
//! earlier input, against the distance between them, for a recurrent matrix W_hh whose
//! largest singular value is 0.5, 1.0 or 2.0.
//!
//! ```text
//! cargo run --release -p rnn --example gradient_norms
//! ```
//!
//! prints the tables the chapter quotes and writes
//! book/src/figures/01-rnn-bottleneck-gradient-norms.svg. Everything is deterministic: the
//! weights and inputs are fixed fills, the recurrent matrix is `orthogonal(64, σ)`.
//!
//! For each input x_t it measures the Jacobian J_t = ∂h_T/∂x_t (d_hidden × d_in), one row
//! per backward pass (upstream e_k on the last state), and reports its spectral norm
//! ‖J_t‖₂ (the most a unit change of x_t can move h_T) and ‖∂(Σ h_T)/∂x_t‖, the norm of
//! the gradient of the sum of the last state's entries.

mod common;

use common::{hash_matrix, print_table, sci};
use course_common::{Float, Matrix, Vector};
use course_figures::chart::{Axis, ChartStyle, Corner, Panel, Series, line_chart};
use course_figures::colour::{BLUE, GREEN, VERMILLION};
use course_figures::{Lang, LangArgs, lang::languages};
use rnn::{Rnn, orthogonal, spectral_norm};

const D_IN: usize = 16;
const D_HIDDEN: usize = 64;
const LEN: usize = 50;
/// The scale of W_xh: x W_xhᵀ has entries of standard deviation about 0.3 × 0.58.
const INPUT_GAIN: Float = 0.3;
/// The side measurement: inputs that drive the tanh harder.
const STRONG_GAIN: Float = 1.0;
const SIGMAS: [Float; 3] = [0.5, 1.0, 2.0];

struct Run {
    sigma: Float,
    /// ‖∂h_T/∂x_t‖₂ by distance T − 1 − t (index 0 is the last input).
    jacobian_norms: Vec<Float>,
    /// ‖∂(Σ h_T)/∂x_t‖ by distance.
    sum_norms: Vec<Float>,
    /// The mean of tanh' = 1 − h² over every state and unit.
    mean_tanh_slope: Float,
}

fn measure(sigma: Float, w_xh: &Matrix, b: &Vector, xs: &Matrix) -> Run {
    let cell = Rnn::new(w_xh.clone(), orthogonal(D_HIDDEN, sigma), b.clone());
    let h0 = Vector::zeros(D_HIDDEN);
    let states = cell.forward(xs, &h0);
    // jacobians[t] = ∂h_T/∂x_t, filled one row k at a time.
    let mut jacobians = vec![Matrix::zeros((D_HIDDEN, D_IN)); LEN];
    for k in 0..D_HIDDEN {
        let mut upstream = Matrix::zeros((LEN, D_HIDDEN));
        upstream[[LEN - 1, k]] = 1.0;
        let grads = cell.backward(xs, &h0, &states, &upstream);
        for (t, jacobian) in jacobians.iter_mut().enumerate() {
            jacobian.row_mut(k).assign(&grads.d_xs.row(t));
        }
    }
    let by_distance = |f: &dyn Fn(&Matrix) -> Float| -> Vec<Float> {
        (0..LEN).map(|d| f(&jacobians[LEN - 1 - d])).collect()
    };
    let jacobian_norms = by_distance(&spectral_norm);
    let sum_norms = by_distance(&|j: &Matrix| {
        let g = j.sum_axis(course_common::ndarray::Axis(0));
        g.dot(&g).sqrt()
    });
    let mean_tanh_slope = states.mapv(|h| 1.0 - h * h).mean().unwrap_or(0.0);
    Run {
        sigma,
        jacobian_norms,
        sum_norms,
        mean_tanh_slope,
    }
}

/// Measurement 1 of chapter 01: how much of the gradient of the last state reaches each
/// earlier input, against the distance between them, for a recurrent matrix W_hh whose
/// largest singular value is 0.5, 1.0 or 2.0.
#[derive(clap::Parser)]
struct Args {
    #[command(flatten)]
    lang: LangArgs,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    // Inputs in [-1, 1]; with gain 1, x W_xhᵀ has entries of standard deviation ≈ 0.58.
    let xs = hash_matrix(LEN, D_IN, 1, 1.0);
    let w_xh_unit = hash_matrix(D_HIDDEN, D_IN, 2, 1.0) * (3.0 / D_IN as Float).sqrt();
    let w_xh = &w_xh_unit * INPUT_GAIN;
    let b = hash_matrix(1, D_HIDDEN, 3, 0.1).row(0).to_owned();
    let w_xh_norm = spectral_norm(&w_xh);
    println!(
        "d_in = {D_IN}, d_hidden = {D_HIDDEN}, T = {LEN}, W_hh = orthogonal(64, σ), \
         σ_max(W_xh) = {w_xh_norm:.3}\n"
    );

    let runs: Vec<Run> = SIGMAS.iter().map(|&s| measure(s, &w_xh, &b, &xs)).collect();

    let distances = [0, 1, 2, 5, 10, 20, 30, 40, 49];
    println!(
        "‖∂h_T/∂x_t‖₂ (spectral norm of the Jacobian), by distance d (steps from x_t to h_T):\n"
    );
    let mut header = vec!["distance".to_owned()];
    header.extend(runs.iter().map(|r| format!("σ = {}", r.sigma)));
    header.push("bound for σ = 0.5".to_owned());
    let rows: Vec<Vec<String>> = distances
        .iter()
        .map(|&d| {
            let mut row = vec![d.to_string()];
            row.extend(runs.iter().map(|r| sci(r.jacobian_norms[d])));
            row.push(sci((0.5 as Float).powi(d as i32) * w_xh_norm));
            row
        })
        .collect();
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    print_table(&header_refs, &rows);

    println!("\n‖∂(Σ h_T)/∂x_t‖ (as in the course's reference table), by distance:\n");
    let rows: Vec<Vec<String>> = distances
        .iter()
        .map(|&d| {
            let mut row = vec![d.to_string()];
            row.extend(runs.iter().map(|r| sci(r.sum_norms[d])));
            row
        })
        .collect();
    print_table(&header_refs[..4], &rows);

    println!("\nThe mean slope of the tanh over every state and unit, mean(1 − h²):\n");
    let rows: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            let per_step = r.jacobian_norms[LEN - 1] / r.jacobian_norms[0];
            vec![
                format!("σ = {}", r.sigma),
                format!("{:.3}", r.mean_tanh_slope),
                sci(per_step.powf(1.0 / (LEN - 1) as Float)),
            ]
        })
        .collect();
    print_table(
        &["W_hh", "mean(1 − h²)", "average factor per step back"],
        &rows,
    );

    println!(
        "\nThe same with W_xh {:.1}× larger (inputs that push the tanh into saturation):\n",
        STRONG_GAIN / INPUT_GAIN
    );
    let strong_w_xh = &w_xh_unit * STRONG_GAIN;
    let strong: Vec<Run> = SIGMAS
        .iter()
        .map(|&s| measure(s, &strong_w_xh, &b, &xs))
        .collect();
    let rows: Vec<Vec<String>> = strong
        .iter()
        .map(|r| {
            vec![
                format!("σ = {}", r.sigma),
                format!("{:.3}", r.mean_tanh_slope),
                sci(r.jacobian_norms[10]),
                sci(r.jacobian_norms[30]),
                sci(r.jacobian_norms[49]),
            ]
        })
        .collect();
    print_table(
        &["W_hh", "mean(1 − h²)", "‖J‖ at d = 10", "d = 30", "d = 49"],
        &rows,
    );

    for lang in languages(&args.lang.langs) {
        let colors = [BLUE, GREEN, VERMILLION];
        let mut series: Vec<Series> = runs
            .iter()
            .zip(colors)
            .map(|(r, color)| {
                let points = (0..LEN)
                    .map(|d| (d as Float, r.jacobian_norms[d]))
                    .collect();
                Series::line(format!("σ_max(W_hh) = {}", r.sigma), color, points)
            })
            .collect();
        // The bounds σ^d · σ_max(W_xh), dashed in each line's colour, with one legend entry.
        for (r, color) in runs.iter().zip(colors) {
            let bound = (0..LEN)
                .map(|d| (d as Float, r.sigma.powi(d as i32) * w_xh_norm))
                .collect();
            series.push(Series::line("", color, bound).dashed());
        }
        let panel = Panel {
            title: lang
                .pick(
                    "Gradient of the last state reaching each input",
                    "最后状态到达每个输入的梯度",
                )
                .to_owned(),
            x: Axis::linear(
                lang.pick(
                    "distance d (steps of recurrence between x_t and h_T)",
                    "距离 d（x_t 与 h_T 之间的循环步数）",
                ),
                0.0,
                (LEN - 1) as Float,
            ),
            y: Axis::log(
                lang.pick(
                    "‖∂h_T / ∂x_t‖ (spectral norm, log scale)",
                    "‖∂h_T / ∂x_t‖（谱范数，对数坐标）",
                ),
                1e-18,
                1e5,
            ),
            series,
            legend: Corner::BottomLeft,
            note: Some(
                lang.pick(
                    "dashed: the bound σ^d · σ_max(W_xh)",
                    "虚线：上界 σ^d · σ_max(W_xh)",
                )
                .to_owned(),
            ),
        };
        let description = match lang {
            Lang::En => format!(
                "Log-scale plot of the spectral norm of the Jacobian of the last hidden state \
                 with respect to each input, against the distance between them, for a tanh RNN \
                 with d_hidden 64 and W_hh orthogonal times 0.5, 1.0 and 2.0. At distance 49 the \
                 norms are {} for 0.5, {} for 1.0 and {} for 2.0. Dashed lines are the bounds \
                 sigma to the power d times the largest singular value of W_xh.",
                sci(runs[0].jacobian_norms[49]),
                sci(runs[1].jacobian_norms[49]),
                sci(runs[2].jacobian_norms[49]),
            ),
            Lang::ZhCn => format!(
                "对数坐标图：隐藏宽度 64 的 tanh RNN，W_hh 为正交矩阵乘以 0.5、1.0 和 2.0，\
                 最后隐藏状态对每个输入的雅可比矩阵的谱范数随二者距离的变化。距离为 49 时，\
                 范数在 0.5 时为 {}，1.0 时为 {}，2.0 时为 {}。虚线是上界：sigma 的 d 次方乘以 \
                 W_xh 的最大奇异值。",
                sci(runs[0].jacobian_norms[49]),
                sci(runs[1].jacobian_norms[49]),
                sci(runs[2].jacobian_norms[49]),
            ),
        };
        let figure = line_chart(
            lang.pick(
                "Gradient norm against distance for three recurrent matrices",
                "三种循环矩阵下梯度范数随距离的变化",
            ),
            &description,
            &[panel],
            &ChartStyle::default(),
        );
        let path = course_figures::write_in(
            lang,
            "01-rnn-bottleneck-gradient-norms.svg",
            &figure,
        );
        println!("wrote {}", path.display());
    }
}
