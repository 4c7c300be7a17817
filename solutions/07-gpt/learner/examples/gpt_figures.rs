//! Two figures of chapter 07, computed from your lesson code.
//!
//! ```text
//! cargo run --release -p gpt --example gpt_figures
//! ```
//!
//! writes `target/figures/07-gpt-bpe-merges.svg` (one sentence cut into tokens by your
//! `train_bpe`'s tokenizer after 0, 10, 40 and 150 merges learned on a small fixed corpus)
//! and `target/figures/07-gpt-rope-rotation.svg` (a query and a key turned by your
//! `apply_rope` at two pairs of positions the same distance apart: the angle between them,
//! and so their score, is the same). It also prints the merges and the scores. The SVG is
//! written with fixed number formats, so the same code always gives the same bytes.

use course_common::ndarray::array;
use course_common::{Float, Matrix};
use course_figures::colour::{BLUE, GREY, VERMILLION};
use course_figures::svg::{Svg, fixed};
use course_figures::{Lang, LangArgs, lang::languages};
use gpt::{Bpe, apply_rope, train_bpe};

/// Two figures of chapter 07, computed from your lesson code.
#[derive(clap::Parser)]
struct Args {
    #[command(flatten)]
    lang: LangArgs,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let bpe = train_bpe(CORPUS, *MERGE_COUNTS.last().expect("merge counts"));
    print_merges(&bpe);
    print_scores();
    for lang in languages(&args.lang.langs) {
        let merges = course_figures::write_in(
            lang,
            "07-gpt-bpe-merges.svg",
            &merges_svg(&bpe, lang),
        );
        let rotation =
            course_figures::write_in(lang, "07-gpt-rope-rotation.svg", &rope_svg(lang));
        println!("wrote {}\nwrote {}", merges.display(), rotation.display());
    }
}

// ---------------------------------------------------------------------------------------
// BPE merges on a sentence
// ---------------------------------------------------------------------------------------

/// The corpus the tokenizer learns from: a few sentences about this course's subject,
/// fixed here so that the figure does not change when the book does.
const CORPUS: &str = "The transformer reads the tokens of a sentence all at once. \
Each token attends to the tokens before it: the attention weights say how much of each \
other token it takes. The tokens before it are the context; the tokens after it are \
masked, so that the model cannot see the token it predicts. The model predicts the next \
token, then the token after it, one token at a time. The attention of the model is \
the same for every token: the queries, the keys and the values are projections of the \
tokens. The transformer stacks blocks of attention and feed-forward layers; each block \
adds what it computes to the stream of the tokens. Training the model on the text of \
the book teaches it the tokens that follow the tokens before them.";

/// The sentence the figure cuts: not in the corpus, but made of its words.
const SENTENCE: &str = "the model attends to the tokens before the next token";

/// After how many merges the figure shows the sentence (the last is how many are learned).
const MERGE_COUNTS: [usize; 4] = [0, 10, 40, 150];

/// The first merges learned, with their bytes: what training found most frequent.
fn print_merges(bpe: &Bpe) {
    println!("the first 20 merges learned from the corpus:");
    for (rank, _) in bpe.merges().iter().enumerate().take(20) {
        let id = 256 + rank;
        println!("  {rank:>3}: id {id} {:?}", bpe.decode(&[id]));
    }
    for &count in &MERGE_COUNTS {
        let pieces = pieces(&prefix(bpe, count), SENTENCE);
        println!("{count:>4} merges: {} tokens {pieces:?}", pieces.len());
    }
}

/// The tokenizer with the first `count` merges of `bpe`.
fn prefix(bpe: &Bpe, count: usize) -> Bpe {
    Bpe::from_merges(bpe.merges()[..count.min(bpe.merges().len())].to_vec())
}

/// The text of each token of `text`.
fn pieces(bpe: &Bpe, text: &str) -> Vec<String> {
    bpe.encode(text)
        .iter()
        .map(|&id| bpe.decode(&[id]))
        .collect()
}

/// The sentence, cut into tokens after each count of merges, one row each, the tokens in
/// boxes of alternating colours whose widths follow their lengths.
fn merges_svg(bpe: &Bpe, lang: Lang) -> String {
    let char_width = 9.6; // a monospaced character at font size 16
    let left = 150.0;
    let row_height = 58.0;
    let width = left + char_width * SENTENCE.len() as Float + 40.0;
    let height = 60.0 + row_height * MERGE_COUNTS.len() as Float + 40.0;
    let mut svg = Svg::new(fixed(width, 0), fixed(height, 0), 13);
    let rows: Vec<(usize, Vec<String>)> = MERGE_COUNTS
        .iter()
        .map(|&count| (count, pieces(&prefix(bpe, count), SENTENCE)))
        .collect();
    let counts: Vec<String> = rows
        .iter()
        .map(|(merges, tokens)| format!("{merges}: {}", tokens.len()))
        .collect();
    let (title, description) = match lang {
        Lang::En => (
            "One sentence, cut by BPE as merges are learned",
            format!(
                "The sentence {SENTENCE:?} encoded by a byte-level BPE after 0, 10, 40 and \
                 150 merges learned from a paragraph about transformers. Each row shows its \
                 tokens as boxes; as merges are added, bytes join into pieces of words, then \
                 whole words with their spaces. Merges: tokens, row by row: {}.",
                counts.join(", ")
            ),
        ),
        Lang::ZhCn => (
            "同一个句子，随着学到的合并增多而被 BPE 切分",
            format!(
                "句子 {SENTENCE:?} 由字节级 BPE 编码，合并规则分别为从一段关于 Transformer 的文字中\
                 学到的前 0、10、40、150 条。每行把词元画成方框；合并越多，字节先并成词的片段，再并成\
                 带空格的整词。各行的合并数：词元数为 {}。",
                counts.join("、")
            ),
        ),
    };
    svg.title(title, &description);
    svg.background(fixed(width, 0), fixed(height, 0));
    svg.text(10, 24)
        .attr("font-weight", "bold")
        .attr("font-size", 15)
        .text(title);
    for (row, (merges, tokens)) in rows.iter().enumerate() {
        let y = 50.0 + row_height * row as Float;
        let label = match lang {
            Lang::En => format!("{merges} merges"),
            Lang::ZhCn => format!("{merges} 条合并"),
        };
        svg.text(10, fixed(y + 22.0, 1))
            .attr("font-weight", "bold")
            .text(label);
        let tokens_label = match lang {
            Lang::En => format!("{} tokens", tokens.len()),
            Lang::ZhCn => format!("{} 个词元", tokens.len()),
        };
        svg.text(10, fixed(y + 40.0, 1))
            .attr("fill", GREY)
            .text(tokens_label);
        let mut x = left;
        for (k, token) in tokens.iter().enumerate() {
            let w = char_width * token.len() as Float;
            let fill = if k % 2 == 0 { "#dbe9f6" } else { "#fde0c5" };
            svg.rect(fixed(x, 1), fixed(y + 6.0, 1), fixed(w, 1), 30)
                .attr("fill", fill)
                .attr("stroke", "#ffffff")
                .attr("stroke-width", 1.5)
                .end();
            svg.text(fixed(x, 1), fixed(y + 26.0, 1))
                .attr("font-family", "Menlo, Consolas, monospace")
                .attr("font-size", 16)
                .attr("xml:space", "preserve")
                .text(token.replace(' ', "␣"));
            x += w;
        }
    }
    svg.text(10, fixed(height - 16.0, 1))
        .attr("font-size", 12)
        .attr("fill", GREY)
        .text(match lang {
            Lang::En => format!(
                "␣ is a space; each box is one token; the merges were learned from a \
                 paragraph of {} bytes (gpt_figures.rs)",
                CORPUS.len()
            ),
            Lang::ZhCn => format!(
                "␣ 表示空格；每个方框是一个词元；合并规则学自一段 {} 字节的文字（gpt_figures.rs）",
                CORPUS.len()
            ),
        });
    svg.finish()
}

// ---------------------------------------------------------------------------------------
// RoPE as a rotation
// ---------------------------------------------------------------------------------------

/// The query's and the key's first pair of features (pair 0 turns by 1 radian a position).
const Q: [Float; 2] = [1.0, 0.2];
const K: [Float; 2] = [0.7, 0.6];

/// The two (query position, key position) pairs: 3 apart both times.
const POSITIONS: [(usize, usize); 2] = [(5, 2), (9, 6)];

/// `v` (one pair of a head of width 2) turned by your `apply_rope` to position `p`.
fn turned(v: [Float; 2], p: usize) -> [Float; 2] {
    let x: Matrix = array![[v[0], v[1]]];
    let y = apply_rope(&x, p);
    [y[[0, 0]], y[[0, 1]]]
}

fn dot(a: [Float; 2], b: [Float; 2]) -> Float {
    a[0] * b[0] + a[1] * b[1]
}

/// The angle of `v` in radians, from the first axis, counterclockwise.
fn angle(v: [Float; 2]) -> Float {
    v[1].atan2(v[0])
}

fn print_scores() {
    println!(
        "q = {Q:?}, k = {K:?}, turned by your apply_rope (pair 0: 1 radian a position):"
    );
    for (m, n) in POSITIONS {
        let (q, k) = (turned(Q, m), turned(K, n));
        println!(
            "  query at {m}, key at {n}: q·k = {:.6}, angle between them {:.4} rad",
            dot(q, k),
            (angle(q) - angle(k)).rem_euclid(std::f64::consts::TAU)
        );
    }
}

/// Two panels, one per pair of positions: the unit circle, the query and key before
/// turning (dashed, grey), turned (solid), and the angle between the turned pair.
fn rope_svg(lang: Lang) -> String {
    let radius = 110.0;
    let panel = 2.0 * radius + 120.0;
    let width = 2.0 * panel + 20.0;
    let height = 2.0 * radius + 195.0;
    let mut svg = Svg::new(fixed(width, 0), fixed(height, 0), 13);
    let scores: Vec<String> = POSITIONS
        .iter()
        .map(|&(m, n)| format!("{:.3}", dot(turned(Q, m), turned(K, n))))
        .collect();
    let (title, description) = match lang {
        Lang::En => (
            "RoPE turns the query and the key by their positions",
            format!(
                "Two panels, each a circle with one pair of features of a query and a key, \
                 before RoPE (dashed) and turned by RoPE (solid), pair 0, which turns by 1 \
                 radian per position. Left: query at position {}, key at {}; right: query at {}, \
                 key at {}. Both are 3 positions apart, so the angle between the turned vectors \
                 is the same, 3 radians less the angle between them before, and so is their \
                 dot product, the score: {} and {}.",
                POSITIONS[0].0,
                POSITIONS[0].1,
                POSITIONS[1].0,
                POSITIONS[1].1,
                scores[0],
                scores[1]
            ),
        ),
        Lang::ZhCn => (
            "RoPE 按位置转动查询和键",
            format!(
                "两幅图，每幅是一个圆，画出查询和键的一对特征：RoPE 之前（虚线）和 RoPE 转动之后（实线），\
                 第 0 对特征每个位置转 1 弧度。左：查询在位置 {}，键在位置 {}；右：查询在位置 {}，键在\
                 位置 {}。两者都相距 3 个位置，所以转动后两向量的夹角相同，点积（即分数）也相同：{} 和 {}。",
                POSITIONS[0].0,
                POSITIONS[0].1,
                POSITIONS[1].0,
                POSITIONS[1].1,
                scores[0],
                scores[1]
            ),
        ),
    };
    svg.title(title, &description);
    svg.background(fixed(width, 0), fixed(height, 0));
    svg.text(10, 24)
        .attr("font-weight", "bold")
        .attr("font-size", 15)
        .text(title);
    // One arrowhead per colour (an arrowhead's colour cannot follow its line's everywhere).
    svg.tag("defs").open();
    for (name, colour) in [("grey", GREY), ("blue", BLUE), ("vermillion", VERMILLION)] {
        svg.raw(&format!(
            r#"<marker id="arrow-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4.5" markerHeight="4.5" orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>"#
        ));
    }
    svg.close("defs");
    for (i, &(m, n)) in POSITIONS.iter().enumerate() {
        let cx = 10.0 + panel * i as Float + panel / 2.0;
        let cy = 60.0 + radius + 20.0;
        // SVG's y axis points down: a point (a, b) of the plane is drawn at (cx + a r, cy − b r).
        let at = |v: [Float; 2]| (cx + radius * v[0], cy - radius * v[1]);
        svg.circle(fixed(cx, 1), fixed(cy, 1), radius)
            .attr("fill", "none")
            .attr("stroke", "#cccccc")
            .end();
        svg.line(
            fixed(cx - radius - 10.0, 1),
            fixed(cy, 1),
            fixed(cx + radius + 10.0, 1),
            fixed(cy, 1),
        )
        .attr("stroke", "#e0e0e0")
        .end();
        svg.line(
            fixed(cx, 1),
            fixed(cy - radius - 10.0, 1),
            fixed(cx, 1),
            fixed(cy + radius + 10.0, 1),
        )
        .attr("stroke", "#e0e0e0")
        .end();
        let arrow = |svg: &mut Svg,
                     v: [Float; 2],
                     (name, colour): (&str, &str),
                     dashed: bool,
                     label: &str| {
            let (x, y) = at(v);
            svg.line(fixed(cx, 1), fixed(cy, 1), fixed(x, 1), fixed(y, 1))
                .attr("stroke", colour)
                .attr("stroke-width", if dashed { 1.5 } else { 2.5 })
                .attr_opt("stroke-dasharray", dashed.then_some("5 4"))
                .attr("marker-end", format!("url(#arrow-{name})"))
                .end();
            // The label a little beyond the arrow's tip, along it.
            let length = (v[0] * v[0] + v[1] * v[1]).sqrt();
            let (lx, ly) =
                at([v[0] * (1.0 + 0.22 / length), v[1] * (1.0 + 0.22 / length)]);
            svg.text(fixed(lx, 1), fixed(ly + 4.0, 1))
                .attr("text-anchor", "middle")
                .attr("fill", colour)
                .attr("font-weight", if dashed { "normal" } else { "bold" })
                .text(label);
        };
        arrow(&mut svg, Q, ("grey", GREY), true, "q");
        arrow(&mut svg, K, ("grey", GREY), true, "k");
        let (q, k) = (turned(Q, m), turned(K, n));
        arrow(&mut svg, q, ("blue", BLUE), false, &format!("R({m})q"));
        arrow(
            &mut svg,
            k,
            ("vermillion", VERMILLION),
            false,
            &format!("R({n})k"),
        );
        let between = angle(q) - angle(k);
        let caption = match lang {
            Lang::En => [
                format!("query at {m}, key at {n}: {} apart", m - n),
                format!(
                    "angle between them {:.2} rad, q·k = {:.3}",
                    between.rem_euclid(std::f64::consts::TAU),
                    dot(q, k)
                ),
            ],
            Lang::ZhCn => [
                format!("查询在 {m}，键在 {n}：相距 {}", m - n),
                format!(
                    "两者夹角 {:.2} 弧度，q·k = {:.3}",
                    between.rem_euclid(std::f64::consts::TAU),
                    dot(q, k)
                ),
            ],
        };
        svg.text(fixed(cx, 1), fixed(cy + radius + 40.0, 1))
            .attr("text-anchor", "middle")
            .attr("font-weight", "bold")
            .text(&caption[0]);
        svg.text(fixed(cx, 1), fixed(cy + radius + 60.0, 1))
            .attr("text-anchor", "middle")
            .text(&caption[1]);
    }
    svg.text(10, fixed(height - 14.0, 1))
        .attr("font-size", 12)
        .attr("fill", GREY)
        .text(lang.pick(
            "dashed: q and k before RoPE; solid: turned by 1 radian per position (pair 0, \
             computed with your apply_rope)",
            "虚线：RoPE 之前的 q 和 k；实线：每个位置转 1 弧度之后（第 0 对特征，用你的 apply_rope 计算）",
        ));
    svg.finish()
}
