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
use course_figures::colour::BLUES;
use course_figures::heatmap::{CellNumbers, Heatmap, LabelOrder, Labels, colour_steps};
use course_figures::svg::{Svg, fixed};
use course_figures::{Lang, lang::languages};
use multi_head_attention::{Linear, MultiHeadAttention};

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

/// One heatmap: a title, the words along both sides, one cell per weight with the weight
/// written in it.
fn panel(svg: &mut Svg, x0: Float, y0: Float, title: &str, weights: &Matrix) {
    const CELL: Float = 34.0;
    let mut heatmap = Heatmap::new(weights, BLUES, x0 + 46.0, y0 + 44.0, CELL);
    heatmap.outline = Some(("#ffffff", 1.5));
    heatmap.numbers = Some(CellNumbers {
        font_size: 11.0,
        decimals: 2,
        white_above: 0.45,
    });
    heatmap.labels = Labels {
        column_gap: 8.0,
        row_gap: 6.0,
        baseline: (0.5, 4.0),
        attributes: vec![("font-size", "12"), ("fill", "#444")],
    };
    svg.text(fixed(heatmap.left + 3.0 * CELL, 1), fixed(y0 + 16.0, 1))
        .attr("text-anchor", "middle")
        .attr("font-weight", "bold")
        .text(title);
    heatmap.draw(svg, &WORDS, &WORDS, LabelOrder::Paired);
}

/// The figure of chapter 03 "What the heads look like": each head's attention weights for a
/// short sentence, drawn as heatmaps, computed with your lesson code.
#[derive(clap::Parser)]
struct Args {
    /// The figure's languages: en, zh-CN, or both (en,zh-CN).
    #[arg(
        long = "lang",
        value_name = "LANG",
        value_delimiter = ',',
        default_value = "en"
    )]
    langs: Vec<Lang>,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
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

    for lang in languages(&args.langs) {
        let (width, height) = (880.0, 580.0);
        let mut svg = Svg::new(width, height, 14);
        let description = match lang {
            Lang::En => format!(
                "Five 6 by 6 heatmaps, one row per query word and one column per key word of \
                 the sentence \"the cat sat on the mat\": heads 0 to 3 of an untrained \
                 multi-head self-attention (d_model {D_MODEL}, {N_HEADS} heads, fixed \
                 deterministic weights), and their average. Each row sums to 1. Generated by \
                 lessons/03-multi-head-attention/examples/head_heatmaps.rs."
            ),
            Lang::ZhCn => format!(
                "五幅 6×6 热力图，句子 \"the cat sat on the mat\" 的每个查询词一行、每个键词一列：\
                 一个未训练的多头自注意力（d_model {D_MODEL}，{N_HEADS} 个头，固定的确定性权重）\
                 的第 0 到第 3 个头，以及它们的平均。每行之和为 1。由 \
                 lessons/03-multi-head-attention/examples/head_heatmaps.rs 生成。"
            ),
        };
        svg.title(
            lang.pick(
                "Attention weights of four untrained heads on \"the cat sat on the mat\"",
                "四个未训练的头在 \"the cat sat on the mat\" 上的注意力权重",
            ),
            &description,
        );
        svg.background(width, height);
        for (index, (title, weights)) in panels.iter().enumerate() {
            let title = match (lang, index) {
                (Lang::En, _) => title.clone(),
                (Lang::ZhCn, N_HEADS) => format!("{N_HEADS} 个头的平均"),
                (Lang::ZhCn, head) => format!("第 {head} 个头"),
            };
            let (column, row) = (index % 3, index / 3);
            panel(
                &mut svg,
                10.0 + column as Float * 290.0,
                10.0 + row as Float * 300.0,
                &title,
                weights,
            );
        }
        // The sixth slot: the colour scale and how to read the panels.
        let (lx, ly) = (10.0 + 2.0 * 290.0 + 46.0, 310.0 + 60.0);
        colour_steps(&mut svg, BLUES, lx, ly, 17.0, 20.0, 10, None);
        svg.rect(fixed(lx, 1), fixed(ly, 1), 187, 20)
            .attr("fill", "none")
            .attr("stroke", "#999")
            .end();
        for (x, text, anchor) in [(lx, "0", "start"), (lx + 187.0, "1", "end")] {
            svg.text(fixed(x, 1), fixed(ly + 36.0, 1))
                .attr("text-anchor", anchor)
                .attr("font-size", 12)
                .text(text);
        }
        let lines = match lang {
            Lang::En => [
                "rows: the word that asks (query)",
                "columns: the word looked at (key)",
                "each row sums to 1",
                "untrained, fixed weights:",
                "the patterns mean nothing yet",
            ],
            Lang::ZhCn => [
                "行：发出询问的词（查询）",
                "列：被查看的词（键）",
                "每行之和为 1",
                "未训练的固定权重：",
                "这些模式还没有任何含义",
            ],
        };
        for (i, line) in lines.iter().enumerate() {
            svg.text(fixed(lx, 1), fixed(ly + 70.0 + i as Float * 20.0, 1))
                .attr("font-size", 13)
                .text(line);
        }
        let path = course_figures::write_in(
            lang,
            "03-multi-head-attention-heads.svg",
            &svg.finish(),
        );
        println!("wrote {}", path.display());
    }
}
