//! Train the GPT you wrote on the course's own book, English and Chinese, on your CPU.
//!
//! ```text
//! cargo run --release -p gpt --example train_gpt
//! ```
//!
//! Once every graded test of lesson 07 passes, this
//!
//! 1. reads the book (`book/src/**/*.md`, and the Chinese edition's translations from
//!    `book/po/zh-CN.po`) and splits every document: its first 90 % for training, the
//!    last 10 % held out;
//! 2. trains a byte-level BPE with your `train_bpe` on a sample of the training text;
//! 3. measures the byte unigram and bigram baselines on the held-out bytes;
//! 4. trains your model (your blocks, your gradients, your AdamW, your cosine schedule,
//!    lesson 06's clipping) on random windows of the training tokens, with a progress
//!    bar and a sample printed now and then;
//! 5. reports the held-out bits per byte against the baselines, prints samples, and
//!    writes the loss curve as `target/figures/07-gpt-training.svg` and the trained
//!    model's attention on one sentence as `target/figures/07-gpt-attention.svg`, the
//!    numbers as `target/experiments/train_gpt.json` and the model as
//!    `target/experiments/gpt.safetensors` (which `scripts/gpt_torch.py` loads in PyTorch).
//!
//! The batch is split over two threads (each window's gradient is computed on its own;
//! the two halves are added in a fixed order, so a run is deterministic). The reference
//! run's figures are in chapter 07, "Training it on the book". `--steps N` trains for N
//! steps; `--help` lists the other settings.

use clap::Parser;
use course_checkpoint::{Checkpoint, CheckpointError, Probe, Tensor};
use course_common::{Float, Matrix};
use course_figures::chart::{Axis, ChartStyle, Corner, Panel, Series, line_chart};
use course_figures::colour::{BLUE, BLUES, GREY, ORANGE, VERMILLION};
use course_figures::heatmap::{Heatmap, LabelOrder};
use course_figures::svg::{Svg, fixed};
use course_figures::{Lang, LangArgs, lang::languages};
use gpt::{
    AdamW, Bpe, Config, Gpt, Sampling, add_gradients, bigram_bits_per_byte,
    bits_per_byte, clip_global_norm, cosine_rate, next_token_loss, train_bpe,
    unigram_bits_per_byte,
};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Trains a small GPT on the course's book and measures its held-out bits per byte
/// against the byte unigram and bigram baselines.
#[derive(Parser)]
struct Options {
    /// Training steps.
    #[arg(long, value_name = "N", default_value_t = 1500)]
    steps: usize,
    /// Windows per step (split over two threads).
    #[arg(long, value_name = "B", default_value_t = 16)]
    batch: usize,
    /// Tokens each window reads (the model's context).
    #[arg(long, value_name = "T", default_value_t = 64)]
    context: usize,
    /// BPE merges learned (the vocabulary is 256 bytes + merges + end-of-text).
    #[arg(long, value_name = "M", default_value_t = 512)]
    merges: usize,
    /// The width of the model.
    #[arg(long, default_value_t = 96)]
    d_model: usize,
    /// Attention heads per block.
    #[arg(long, default_value_t = 4)]
    n_heads: usize,
    /// Blocks.
    #[arg(long, default_value_t = 3)]
    n_layers: usize,
    /// The SwiGLU's hidden width.
    #[arg(long, default_value_t = 256)]
    d_ff: usize,
    /// The peak learning rate (after the warm-up).
    #[arg(long, default_value_t = 3e-3)]
    lr: Float,
    /// The seed of the initialisation and of the windows.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bytes of training text the BPE learns its merges from.
    #[arg(long, value_name = "BYTES", default_value_t = 300_000)]
    bpe_sample: usize,
    /// The folder with the book's `src` and `po` (found from this crate by default).
    #[arg(long, value_name = "DIR")]
    book: Option<PathBuf>,
    /// Only draw the figures again, from the numbers of the last run
    /// (`target/experiments/train_gpt.json`), without training.
    #[arg(long)]
    redraw: bool,
    #[command(flatten)]
    lang: LangArgs,
}

/// The book's documents, each as text: the English chapters, then the Chinese
/// translations, one document per source file.
fn read_book(book: &Path) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    let mut folders = vec![book.join("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut documents = Vec::new();
    for file in &files {
        documents.push(std::fs::read_to_string(file)?);
    }
    documents.extend(translations(&std::fs::read_to_string(
        book.join("po").join("zh-CN.po"),
    )?));
    Ok(documents)
}

/// The Chinese translations of a gettext catalogue, one document per source file (the
/// `#: src/file.md:line` reference before each entry): every `msgstr`, unescaped, the
/// paragraphs separated by blank lines.
fn translations(po: &str) -> Vec<String> {
    let mut documents: Vec<(String, String)> = Vec::new();
    let mut source = String::new();
    let mut in_msgstr = false;
    let mut text = String::new();
    let flush =
        |source: &str, text: &mut String, documents: &mut Vec<(String, String)>| {
            if !text.is_empty() {
                match documents.last_mut() {
                    Some((s, doc)) if s == source => {
                        doc.push_str("\n\n");
                        doc.push_str(text);
                    }
                    _ => documents.push((source.to_string(), text.clone())),
                }
                text.clear();
            }
        };
    for line in po.lines() {
        if let Some(reference) = line.strip_prefix("#: ") {
            flush(&source, &mut text, &mut documents);
            in_msgstr = false;
            let file = reference.split(':').next().unwrap_or_default();
            source = file.to_string();
        } else if let Some(rest) = line.strip_prefix("msgstr ") {
            in_msgstr = true;
            text.push_str(&unquote(rest));
        } else if line.starts_with('"') && in_msgstr {
            text.push_str(&unquote(line));
        } else if line.starts_with("msgid") || line.is_empty() {
            in_msgstr = false;
        }
    }
    flush(&source, &mut text, &mut documents);
    documents.into_iter().map(|(_, d)| d).collect()
}

/// A quoted gettext string, unescaped.
fn unquote(quoted: &str) -> String {
    let inner = quoted.trim().trim_matches('"');
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Each document split at the line nearest 90 % of its length: (training, held out).
fn split(documents: &[String]) -> (Vec<&str>, Vec<&str>) {
    let mut train = Vec::new();
    let mut held_out = Vec::new();
    for doc in documents {
        let cut = doc.len() * 9 / 10;
        let cut = doc.as_bytes()[cut..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(doc.len(), |i| cut + i + 1); // just after a newline: a char boundary
        train.push(&doc[..cut]);
        if cut < doc.len() {
            held_out.push(&doc[cut..]);
        }
    }
    (train, held_out)
}

/// The documents' tokens, each document followed by end-of-text.
fn tokens(bpe: &Bpe, documents: &[&str]) -> Vec<usize> {
    let mut ids = Vec::new();
    for doc in documents {
        ids.extend(bpe.encode(doc));
        ids.push(bpe.end_of_text());
    }
    ids
}

/// The held-out loss: the tokens cut into consecutive windows of `context + 1` (each
/// window's last token starts the next), the nats of every predicted token summed, and
/// the bytes those tokens stand for.
fn held_out_nats(
    model: &Gpt,
    bpe: &Bpe,
    ids: &[usize],
    context: usize,
) -> (Float, usize) {
    let mut nats = 0.0;
    let mut bytes = 0;
    let mut start = 0;
    while start + 1 < ids.len() {
        let end = (start + context + 1).min(ids.len());
        let window = &ids[start..end];
        let logits = model.logits(&window[..window.len() - 1]);
        let loss = next_token_loss(&logits, &window[1..]);
        nats += loss.value * loss.tokens as Float;
        bytes += window[1..]
            .iter()
            .map(|&id| bpe.token_bytes(id).len())
            .sum::<usize>();
        start = end - 1;
    }
    (nats, bytes)
}

/// The mean loss and the summed gradient of `windows`.
fn batch_gradient(model: &Gpt, windows: &[&[usize]]) -> (Float, Gpt) {
    let mut grads = model.zeros_like();
    let mut loss = 0.0;
    for window in windows {
        let (l, g) = model.loss_and_gradient(window);
        loss += l.value;
        add_gradients(&mut grads, &g);
    }
    (loss, grads)
}

/// Saves `model` as safetensors, with the logits of `probe` for another program to check
/// its own computation of the model against (`scripts/gpt_torch.py` does, in PyTorch).
fn save_model(model: &Gpt, path: &Path, probe: &[usize]) -> Result<(), CheckpointError> {
    let logits = model.logits(probe).as_standard_layout().into_owned(); // (n, vocab)
    let checkpoint = Checkpoint {
        tensors: model
            .shaped_parameters()
            .into_iter()
            .map(|(name, shape, values)| (name, Tensor { shape, values }))
            .collect(),
        metadata: model.config.to_metadata().into_iter().collect(),
        probe: Some(Probe {
            tokens: probe.to_vec(),
            logits: Tensor {
                shape: vec![logits.nrows(), logits.ncols()],
                values: logits.iter().copied().collect(),
            },
        }),
    };
    course_checkpoint::save(&checkpoint, path)
}

/// What one run measured, written as JSON.
#[derive(serde::Serialize, serde::Deserialize)]
struct Summary {
    parameters: usize,
    vocab_size: usize,
    train_tokens: usize,
    held_out_bytes: usize,
    bytes_per_token: Float,
    bpe_seconds: Float,
    train_seconds: Float,
    eval_seconds: Float,
    steps: usize,
    /// (step, training loss in nats per token), every step.
    losses: Vec<(usize, Float)>,
    /// (step, held-out bits per byte), at each evaluation.
    held_out: Vec<(usize, Float)>,
    unigram_bits_per_byte: Float,
    bigram_bits_per_byte: Float,
    model_bits_per_byte: Float,
    sample: String,
    /// The trained model's attention on [`ATTENTION_TEXT`], for the figure.
    attention: Attention,
}

/// The sentence whose attention the figure shows: a sentence of the chapter, so of the
/// training text, whose tokens are words and pieces of words the model has learned.
const ATTENTION_TEXT: &str =
    "The model attends to the tokens before it, never to those after it.";

/// The attention of every head of every block on one text: what the figure draws.
#[derive(serde::Serialize, serde::Deserialize)]
struct Attention {
    /// The text of each token (its bytes, shown with U+FFFD where cut inside a character).
    tokens: Vec<String>,
    /// `weights[block][head][query][key]`: each row adds up to 1, zero above the diagonal.
    weights: Vec<Vec<Vec<Vec<Float>>>>,
}

impl Attention {
    fn of(model: &Gpt, bpe: &Bpe, text: &str) -> Self {
        let ids = bpe.encode(text);
        let forward = model.forward(&ids);
        Self {
            tokens: ids.iter().map(|&id| bpe.decode(&[id])).collect(),
            weights: forward
                .blocks
                .iter()
                .map(|block| {
                    block
                        .attention
                        .weights
                        .iter()
                        .map(|head| {
                            head.rows().into_iter().map(|row| row.to_vec()).collect()
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// How much of its attention head `h` of block `b` gives, on average over the queries
    /// after the first, to the token itself, to the one before it and to the first token.
    fn shares(&self, b: usize, h: usize) -> (Float, Float, Float) {
        let rows = &self.weights[b][h];
        let n = (rows.len() - 1) as Float;
        let mean = |f: &dyn Fn(usize) -> Float| (1..rows.len()).map(f).sum::<Float>() / n;
        (
            mean(&|t| rows[t][t]),
            mean(&|t| rows[t][t - 1]),
            mean(&|t| rows[t][0]),
        )
    }
}

/// The block whose heads the figure shows.
const ATTENTION_BLOCK: usize = 0;

/// The heads of block [`ATTENTION_BLOCK`] on [`ATTENTION_TEXT`], side by side.
fn attention_figure(lang: Lang, attention: &Attention) -> String {
    let n = attention.tokens.len();
    let heads = &attention.weights[ATTENTION_BLOCK];
    let cell = 15.0;
    let label_width = 90.0;
    let panel_width = label_width + cell * n as Float + 20.0;
    let columns = 2;
    let panel_height = 70.0 + cell * n as Float + 20.0;
    let rows = heads.len().div_ceil(columns);
    let width = columns as Float * panel_width + 20.0;
    let height = rows as Float * panel_height + 80.0;
    let mut svg = Svg::new(fixed(width, 0), fixed(height, 0), 13);
    let (title, description) = match lang {
        Lang::En => (
            "What the trained model's first block attends to".to_owned(),
            format!(
                "Heatmaps of the attention weights of the {} heads of block {} of the model \
                 trained on the book, on the sentence {:?}: one row per token (the query), one \
                 column per token it may attend to (the keys before it and itself); each row \
                 adds up to 1 and the cells above the diagonal are empty (the causal mask).",
                heads.len(),
                ATTENTION_BLOCK,
                ATTENTION_TEXT
            ),
        ),
        Lang::ZhCn => (
            "训练好的模型的第一个块在关注什么".to_owned(),
            format!(
                "热力图：在本书上训练的模型第 {} 个块的 {} 个头在句子 {:?} 上的注意力权重：每行是一个\
                 词元（查询），每列是它可以关注的词元（它之前的键和它自己）；每行之和为 1，对角线以上的\
                 格子为空（因果掩码）。",
                ATTENTION_BLOCK,
                heads.len(),
                ATTENTION_TEXT
            ),
        ),
    };
    svg.title(&title, &description);
    svg.background(fixed(width, 0), fixed(height, 0));
    svg.text(10, 22)
        .attr("font-weight", "bold")
        .attr("font-size", 15)
        .text(&title);
    // Spaces shown as ␣, so that a token's leading space can be seen.
    let labels: Vec<String> = attention
        .tokens
        .iter()
        .map(|t| t.replace(' ', "␣"))
        .collect();
    for (h, head) in heads.iter().enumerate() {
        let x0 = 10.0 + (h % columns) as Float * panel_width;
        let y0 = 40.0 + (h / columns) as Float * panel_height;
        let weights = Matrix::from_shape_fn((n, n), |(q, k)| head[q][k]);
        let (own, previous, first) = attention.shares(ATTENTION_BLOCK, h);
        svg.text(fixed(x0, 1), fixed(y0 + 12.0, 1))
            .attr("font-weight", "bold")
            .text(match lang {
                Lang::En => format!(
                    "head {h}: itself {:.0} %, the one before {:.0} %, the first {:.0} %",
                    100.0 * own,
                    100.0 * previous,
                    100.0 * first
                ),
                Lang::ZhCn => format!(
                    "第 {h} 个头：自身 {:.0} %，前一个 {:.0} %，第一个 {:.0} %",
                    100.0 * own,
                    100.0 * previous,
                    100.0 * first
                ),
            });
        let mut heatmap =
            Heatmap::new(&weights, BLUES, x0 + label_width, y0 + 64.0, cell);
        heatmap.outline = Some(("white", 0.5));
        heatmap.labels.attributes = vec![
            ("font-size", "11"),
            ("font-family", "Menlo, Consolas, monospace"),
        ];
        heatmap.draw(&mut svg, &[] as &[&str], &labels, LabelOrder::WithRows);
        // The columns' labels, turned upright so that long tokens do not overlap.
        for (k, label) in labels.iter().enumerate() {
            let x = x0 + label_width + cell * (k as Float + 0.5) + 4.0;
            let y = y0 + 60.0;
            svg.text(fixed(x, 1), fixed(y, 1))
                .attr(
                    "transform",
                    format!("rotate(-90 {} {})", fixed(x, 1), fixed(y, 1)),
                )
                .attr("font-size", 11)
                .attr("font-family", "Menlo, Consolas, monospace")
                .text(label);
        }
    }
    let y = 40.0 + rows as Float * panel_height + 10.0;
    svg.text(10, fixed(y, 1)).attr("font-size", 12).text(lang.pick(
        "rows: the token that attends (the query); columns: the tokens it attends to; ␣ is a \
         space; percentages: the mean share of a row, over every token but the first",
        "行：发出注意的词元（查询）；列：它关注的词元；␣ 表示空格；百分比：除第一个词元外各行所占份额的平均",
    ));
    svg.finish()
}

/// The training loss (the mean of every 25 steps) and the held-out evaluations, in bits
/// per byte, against the two baselines.
fn loss_figure(lang: Lang, summary: &Summary) -> String {
    // Nats per token to bits per byte, with the training text's mean bytes per token.
    let to_bits = 1.0 / (std::f64::consts::LN_2 * summary.bytes_per_token);
    let training: Vec<(Float, Float)> = summary
        .losses
        .chunks(25)
        .map(|chunk| {
            let step = chunk[chunk.len() - 1].0 as Float;
            let mean =
                chunk.iter().map(|&(_, l)| l).sum::<Float>() / chunk.len() as Float;
            (step, mean * to_bits)
        })
        .collect();
    let steps = summary.steps as Float;
    let flat = |value: Float| vec![(0.0, value), (steps, value)];
    let panel = Panel {
        title: lang
            .pick("Bits per byte while training", "训练过程中的每字节比特数")
            .to_owned(),
        x: Axis::linear(lang.pick("training step", "训练步数"), 0.0, steps),
        y: Axis::linear(lang.pick("bits per byte", "每字节比特数"), 0.0, 7.0),
        series: vec![
            Series::line(
                lang.pick(
                    "training windows (mean of 25 steps)",
                    "训练窗口（每 25 步的平均）",
                ),
                BLUE,
                training,
            ),
            Series::line(
                lang.pick("held-out text", "留出文本"),
                VERMILLION,
                summary
                    .held_out
                    .iter()
                    .map(|&(s, b)| (s as Float, b))
                    .collect(),
            )
            .with_markers(),
            Series::line(
                lang.pick("byte bigram baseline", "字节二元模型基线"),
                ORANGE,
                flat(summary.bigram_bits_per_byte),
            )
            .dashed(),
            Series::line(
                lang.pick("byte unigram baseline", "字节一元模型基线"),
                GREY,
                flat(summary.unigram_bits_per_byte),
            )
            .dashed(),
        ],
        legend: Corner::Outside,
        note: None,
    };
    let description = match lang {
        Lang::En => format!(
            "Line chart of bits per byte against the training step. The training loss falls \
             from {:.1} to {:.2}; the held-out text ends at {:.2} bits per byte, below the byte \
             bigram baseline ({:.2}) and the unigram baseline ({:.2}).",
            summary.losses.first().map_or(0.0, |l| l.1) * to_bits,
            summary.losses.last().map_or(0.0, |l| l.1) * to_bits,
            summary.model_bits_per_byte,
            summary.bigram_bits_per_byte,
            summary.unigram_bits_per_byte
        ),
        Lang::ZhCn => format!(
            "折线图：每字节比特数随训练步数的变化。训练损失从 {:.1} 降到 {:.2}；留出文本最终为每字节 \
             {:.2} 比特，低于字节二元模型基线（{:.2}）和一元模型基线（{:.2}）。",
            summary.losses.first().map_or(0.0, |l| l.1) * to_bits,
            summary.losses.last().map_or(0.0, |l| l.1) * to_bits,
            summary.model_bits_per_byte,
            summary.bigram_bits_per_byte,
            summary.unigram_bits_per_byte
        ),
    };
    line_chart(
        lang.pick(
            "A GPT trained on the book, against the byte baselines",
            "在本书上训练的 GPT 与字节基线的对比",
        ),
        &description,
        &[panel],
        &ChartStyle::default(),
    )
}

/// Draws the loss curve and the attention in every language asked for.
fn draw(options: &Options, summary: &Summary) {
    for lang in languages(&options.lang.langs) {
        let figure = loss_figure(lang, summary);
        let path = course_figures::write_in(lang, "07-gpt-training.svg", &figure);
        println!("wrote {}", path.display());
        let figure = attention_figure(lang, &summary.attention);
        let path = course_figures::write_in(lang, "07-gpt-attention.svg", &figure);
        println!("wrote {}", path.display());
    }
}

fn main() {
    let options = Options::parse();
    if options.redraw {
        let path = course_common::output::experiments_dir().join("train_gpt.json");
        let summary: Summary = match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
        {
            Ok(summary) => summary,
            Err(error) => {
                eprintln!(
                    "error: cannot read the last run's numbers in {}: {error}\n\
                     Train once without --redraw first.",
                    path.display()
                );
                std::process::exit(2);
            }
        };
        draw(&options, &summary);
        return;
    }
    let book = options
        .book
        .clone()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book"));
    let documents = match read_book(&book) {
        Ok(documents) => documents,
        Err(error) => {
            eprintln!(
                "error: cannot read the book under {}: {error}\n\
                 Run this from the course's folder, or name the book's folder with --book DIR.",
                book.display()
            );
            std::process::exit(2);
        }
    };
    let (train_docs, held_out_docs) = split(&documents);
    let train_text: String = train_docs.concat();
    let held_out_text: String = held_out_docs.concat();
    println!(
        "the book: {} documents, {} bytes for training, {} held out",
        documents.len(),
        train_text.len(),
        held_out_text.len()
    );

    // The tokenizer, trained on a sample of the training text: the same share of every
    // document (its beginning, up to a line end), so that both languages are in it.
    let started = Instant::now();
    let share = (options.bpe_sample as Float / train_text.len() as Float).min(1.0);
    let mut sample = String::new();
    for doc in &train_docs {
        let want = (doc.len() as Float * share) as usize;
        let end = doc.as_bytes()[want..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(doc.len(), |i| want + i + 1); // just after a newline: a char boundary
        sample.push_str(&doc[..end]);
        sample.push_str(gpt::END_OF_TEXT);
    }
    let bpe = train_bpe(&sample, options.merges);
    let bpe_seconds = started.elapsed().as_secs_f64();
    let train_ids = tokens(&bpe, &train_docs);
    let held_out_ids = tokens(&bpe, &held_out_docs);
    println!(
        "BPE: {} merges from {} bytes in {:.1} s; {} training tokens, {:.2} bytes per token",
        options.merges,
        sample.len(),
        bpe_seconds,
        train_ids.len(),
        train_text.len() as Float / train_ids.len() as Float
    );

    let unigram = unigram_bits_per_byte(train_text.as_bytes(), held_out_text.as_bytes());
    let bigram = bigram_bits_per_byte(train_text.as_bytes(), held_out_text.as_bytes());
    println!(
        "held-out baselines: unigram {unigram:.3} bits per byte, bigram {bigram:.3}"
    );

    let config = Config {
        vocab_size: bpe.vocab_size(),
        d_model: options.d_model,
        n_heads: options.n_heads,
        n_layers: options.n_layers,
        d_ff: options.d_ff,
        context: options.context,
    };
    let mut model = Gpt::new(config, options.seed);
    let mut adamw = AdamW::new(&model.parameters(), &model.decays());
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed + 1000);
    println!(
        "model: {} parameters (d_model {}, {} heads, {} blocks, d_ff {}, context {})",
        model.parameter_count(),
        config.d_model,
        config.n_heads,
        config.n_layers,
        config.d_ff,
        config.context
    );

    let warmup = (options.steps / 20).max(1);
    let bar = ProgressBar::new(options.steps as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} steps, {elapsed} elapsed, ~{eta} left  {msg}",
        )
        .expect("a valid progress template"),
    );
    let mut losses = Vec::new();
    let mut held_out = Vec::new();
    let started = Instant::now();
    let mut eval_seconds = 0.0;
    let prompt = bpe.encode("# ");
    // Where the model starts: the held-out text before any step.
    let evaluation = Instant::now();
    let (nats, bytes) = held_out_nats(&model, &bpe, &held_out_ids, options.context);
    held_out.push((0, bits_per_byte(nats, bytes)));
    eval_seconds += evaluation.elapsed().as_secs_f64();
    for step in 0..options.steps {
        let starts: Vec<usize> = (0..options.batch)
            .map(|_| rng.random_range(0..train_ids.len() - options.context - 1))
            .collect();
        let windows: Vec<&[usize]> = starts
            .iter()
            .map(|&s| &train_ids[s..s + options.context + 1])
            .collect();
        let (first, second) = windows.split_at(windows.len() / 2);
        let ((loss_a, grads_a), (loss_b, grads_b)) = std::thread::scope(|scope| {
            let other = scope.spawn(|| batch_gradient(&model, second));
            let mine = batch_gradient(&model, first);
            (mine, other.join().expect("a gradient thread"))
        });
        let mut grads = grads_a;
        add_gradients(&mut grads, &grads_b);
        let scale = 1.0 / options.batch as Float;
        for g in grads.parameters_mut() {
            g.iter_mut().for_each(|v| *v *= scale);
        }
        let loss = (loss_a + loss_b) * scale;
        clip_global_norm(&mut grads.parameters_mut(), 1.0);
        let lr = cosine_rate(step, warmup, options.steps, options.lr, options.lr / 10.0);
        adamw.update(&mut model.parameters_mut(), &grads.parameters(), lr);
        losses.push((step + 1, loss));
        bar.set_message(format!("loss {loss:.3}"));
        bar.inc(1);
        if (step + 1) % (options.steps / 5).max(1) == 0 {
            let evaluation = Instant::now();
            let (nats, bytes) =
                held_out_nats(&model, &bpe, &held_out_ids, options.context);
            let bpb = bits_per_byte(nats, bytes);
            held_out.push((step + 1, bpb));
            let text = bpe.decode(&model.generate(&prompt, 48, &Sampling::GREEDY, 0));
            bar.suspend(|| {
                println!(
                    "step {:>5}: held-out {bpb:.3} bits per byte; greedy: {:?}",
                    step + 1,
                    text
                )
            });
            eval_seconds += evaluation.elapsed().as_secs_f64();
        }
    }
    bar.finish();
    let train_seconds = started.elapsed().as_secs_f64() - eval_seconds;
    let (nats, bytes) = held_out_nats(&model, &bpe, &held_out_ids, options.context);
    let model_bpb = bits_per_byte(nats, bytes);
    println!(
        "trained {} steps in {:.0} s (and {:.0} s of evaluation); held-out bits per byte: model {model_bpb:.3}, \
         bigram {bigram:.3} ({:+.1} %), unigram {unigram:.3}",
        options.steps,
        train_seconds,
        eval_seconds,
        100.0 * (model_bpb - bigram) / bigram
    );
    let sampling = Sampling {
        temperature: 0.8,
        top_k: 0,
        top_p: 0.95,
    };
    let mut sample = String::new();
    for (seed, start) in [(1, "# "), (2, "The "), (3, "注意力")].into_iter() {
        let text = bpe.decode(&model.generate(&bpe.encode(start), 80, &sampling, seed));
        println!("sample (T = 0.8, top-p 0.95): {text:?}");
        sample.push_str(&text);
        sample.push('\n');
    }

    let summary = Summary {
        parameters: model.parameter_count(),
        vocab_size: bpe.vocab_size(),
        train_tokens: train_ids.len(),
        held_out_bytes: bytes,
        bytes_per_token: train_text.len() as Float / train_ids.len() as Float,
        bpe_seconds,
        train_seconds,
        eval_seconds,
        steps: options.steps,
        losses,
        held_out,
        unigram_bits_per_byte: unigram,
        bigram_bits_per_byte: bigram,
        model_bits_per_byte: model_bpb,
        sample,
        attention: Attention::of(&model, &bpe, ATTENTION_TEXT),
    };
    for b in 0..config.n_layers {
        for h in 0..config.n_heads {
            let (own, previous, first) = summary.attention.shares(b, h);
            println!(
                "attention of block {b}, head {h}: itself {own:.2}, the token before {previous:.2}, the first {first:.2}"
            );
        }
    }
    draw(&options, &summary);
    let folder = course_common::output::experiments_dir();
    let checkpoint = folder.join("gpt.safetensors");
    let probe = &held_out_ids[..held_out_ids.len().min(16)];
    match std::fs::create_dir_all(&folder)
        .map_err(|e| e.to_string())
        .and_then(|()| save_model(&model, &checkpoint, probe).map_err(|e| e.to_string()))
    {
        Ok(()) => println!(
            "wrote {} (the weights, and the logits of {} held-out tokens to check them by);\n\
             load it in PyTorch: python3 lessons/07-gpt/scripts/gpt_torch.py {}",
            checkpoint.display(),
            probe.len(),
            checkpoint.display()
        ),
        Err(error) => eprintln!("warning: could not write the checkpoint: {error}"),
    }
    if let Err(error) = std::fs::create_dir_all(&folder).and_then(|()| {
        std::fs::write(
            folder.join("train_gpt.json"),
            serde_json::to_string_pretty(&summary).expect("a summary serialises"),
        )
    }) {
        eprintln!("warning: could not write {}: {error}", folder.display());
    } else {
        println!("wrote {}", folder.join("train_gpt.json").display());
    }
}
