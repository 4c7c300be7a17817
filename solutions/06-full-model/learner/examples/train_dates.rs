//! The experiment of chapter 06: train the Transformer from scratch on the date task and
//! measure what it learned.
//!
//! ```text
//! cargo run --release -p transformer --example train_dates
//! ```
//!
//! trains the reference model (d_model 32, 2 heads, d_ff 64, one encoder and one decoder
//! layer, post-LN, 25,644 parameters) on dates with years 1000–2999, the held-out years
//! never in a training batch, and reports:
//!
//! - exact-match accuracy of greedy decoding on 1000 dates of the held-out years (and on
//!   1000 fresh dates of the training years), per format and per output position;
//! - how often the cross-attention peak (argmax over the source of the head-averaged
//!   weights, teacher-forced) of each output digit lands in the source field (year,
//!   month, day) the digit comes from;
//! - the loss curve, the wall-clock training time, and the cost of greedy decoding with
//!   and without the key/value cache.
//!
//! It writes `book/src/figures/06-full-model-training.svg` (the curve),
//! `book/src/figures/06-full-model-cross-attention.svg` (the real cross-attention of a
//! few held-out dates), `book/src/figures/06-full-model-heads.svg` (the two heads of
//! that cross-attention, separately, for one date) and
//! `target/experiments/date_translation.json`. The SVG is written
//! by hand with fixed number formats. Training is deterministic (fixed seeds, one
//! thread); the time is this machine's.
//!
//! Variants (they print their results and write
//! `target/experiments/date_translation-<variant>.json`, and no figures):
//!
//! ```text
//! --steps N          train for N steps (default 3000)
//! --seed S           the model's initialisation seed (default 1)
//! --smoothing E      label smoothing ε (default 0)
//! --pre-ln           pre-LN layers instead of post-LN
//! --narrow-years     the memorisation trap: years 1950–2049, ten of them held out
//! ```

use course_common::ndarray::s;
use course_common::{Float, Matrix};
use course_figures::colour::BLUES;
use course_figures::heatmap::{Heatmap, LabelOrder, colour_steps};
use course_figures::svg::{Svg, fixed, polyline_points};
use course_figures::{Lang, LangArgs, lang::languages};
use serde::Serialize;
use std::time::{Duration, Instant};
use transformer::{
    Adam, BOS, Batch, Config, Date, DateFormat, DateTask, EOS, Example, NormPosition,
    Split, TrainConfig, Transformer, greedy_decode, greedy_decode_cached, next_token,
    seeded_rng, train_step,
};

/// The seed of the training batches.
const DATA_SEED: u64 = 7;
/// The seed of the evaluation sets.
const EVAL_SEED: u64 = 2024;
/// The number of dates in each evaluation set.
const EVAL_SIZE: usize = 1000;
/// The steps at which the held-out accuracy is measured for the curve.
const CHECKPOINTS: [usize; 14] = [
    50, 100, 150, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000, 2500, 3000,
];

/// Trains the date model of chapter 06 with your lesson code and measures it: the loss
/// curve, exact-match accuracy on held-out years, decoding with and without the cache.
/// With no option it draws the chapter's figures; any option makes a variant that only
/// prints and writes its own summary.
#[derive(clap::Parser)]
struct Options {
    /// Train for N steps.
    #[arg(long, value_name = "N", default_value_t = 3000)]
    steps: usize,
    /// The model's initialisation seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Label smoothing ε.
    #[arg(long, value_name = "E", default_value_t = 0.0)]
    smoothing: Float,
    /// Pre-LN layers instead of post-LN.
    #[arg(long)]
    pre_ln: bool,
    /// The memorisation trap: years 1950–2049, ten of them held out.
    #[arg(long = "narrow-years")]
    narrow: bool,
    #[command(flatten)]
    lang: LangArgs,
}

impl Options {
    /// The default run writes the figures; a variant gets its own name.
    fn variant(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.steps != 3000 {
            parts.push(format!("steps{}", self.steps));
        }
        if self.seed != 1 {
            parts.push(format!("seed{}", self.seed));
        }
        if self.smoothing != 0.0 {
            parts.push(format!("smoothing{}", self.smoothing));
        }
        if self.pre_ln {
            parts.push("preln".to_owned());
        }
        if self.narrow {
            parts.push("narrow".to_owned());
        }
        (!parts.is_empty()).then(|| parts.join("-"))
    }
}

fn main() {
    let options = <Options as clap::Parser>::parse();
    let task = if options.narrow {
        let heldout = [1953, 1962, 1968, 1977, 1984, 1991, 2006, 2015, 2031, 2047];
        DateTask::with_years(1950..=2049, &heldout)
    } else {
        DateTask::new()
    };
    let mut config = Config::dates();
    if options.pre_ln {
        config.norm_position = NormPosition::Pre;
    }
    let mut settings = TrainConfig::dates();
    settings.steps = options.steps;
    settings.label_smoothing = options.smoothing;

    let mut model = Transformer::new(config, options.seed);
    let heldout = evaluation_set(&task, Split::HeldOut, EVAL_SEED);
    let in_distribution = evaluation_set(&task, Split::Train, EVAL_SEED + 1);
    let ln_v = (config.vocab_size as Float).ln();
    println!(
        "model: d_model {}, {} heads, d_ff {}, {} + {} layers, {:?}-LN, {} parameters",
        config.d_model,
        config.n_heads,
        config.d_ff,
        config.n_layers,
        config.n_layers,
        config.norm_position,
        model.parameter_count()
    );
    println!(
        "task: years {}..={}, held out {:?}",
        task.years.start(),
        task.years.end(),
        task.heldout_years
    );
    println!(
        "training: {} steps of {} pairs, peak lr {} after {} warm-up steps, clip {}, \
         smoothing {}, Adam({}, {}, {:e})\n",
        settings.steps,
        settings.batch_size,
        settings.peak_lr,
        settings.warmup,
        settings.clip_norm,
        settings.label_smoothing,
        settings.beta1,
        settings.beta2,
        settings.adam_eps
    );

    // Training, timed without the evaluations at the checkpoints.
    let mut rng = seeded_rng(DATA_SEED);
    let mut adam = Adam::with_betas(
        &model.parameters(),
        settings.beta1,
        settings.beta2,
        settings.adam_eps,
    );
    let mut losses = Vec::with_capacity(settings.steps);
    let mut norms = Vec::with_capacity(settings.steps);
    let mut curve: Vec<(usize, Float)> = Vec::new();
    let mut train_time = Duration::ZERO;
    for step in 1..=settings.steps {
        let start = Instant::now();
        let batch = task.batch(&mut rng, settings.batch_size, Split::Train);
        let lr = settings.learning_rate(step, config.d_model);
        let report = train_step(
            &mut model,
            &mut adam,
            &batch,
            lr,
            settings.clip_norm,
            settings.label_smoothing,
        );
        train_time += start.elapsed();
        losses.push(report.loss);
        norms.push(report.grad_norm);
        if step == 1 {
            println!(
                "step 1: loss {:.3} (ln V = {ln_v:.3}, difference {:+.3})",
                report.loss,
                report.loss - ln_v
            );
        }
        if CHECKPOINTS.contains(&step) || step == settings.steps {
            let accuracy = exact_match(&model, &task, &heldout[..200]);
            curve.push((step, accuracy));
            println!(
                "step {step:>5}: loss (mean of the last 50 steps) {:.4}, held-out exact match \
                 (200 dates) {:5.1} %, {:.1} s of training",
                mean_tail(&losses, 50),
                100.0 * accuracy,
                train_time.as_secs_f64()
            );
        }
    }
    let train_seconds = train_time.as_secs_f64();
    for (from, to) in [(1, 100), (101, 1000), (1001, settings.steps)] {
        // A shorter run (`--steps 300`) has fewer windows, and a shorter last one.
        let to = to.min(norms.len());
        if from > to {
            break;
        }
        let window = &norms[from - 1..to];
        let mut sorted = window.to_vec();
        sorted.sort_by(Float::total_cmp);
        let clipped = window.iter().filter(|&&n| n > settings.clip_norm).count();
        println!(
            "gradient norm before clipping, steps {from}..={to}: median {:.2}, largest {:.2}, \
             clipped in {:.0} % of the steps",
            sorted[sorted.len() / 2],
            sorted[sorted.len() - 1],
            100.0 * clipped as Float / window.len() as Float
        );
    }
    println!(
        "\ntrained {} steps in {:.1} s ({:.1} ms per step) on {}\n",
        settings.steps,
        train_seconds,
        1e3 * train_seconds / settings.steps as Float,
        machine()
    );

    // Accuracy.
    let heldout_exact = exact_match(&model, &task, &heldout);
    let in_distribution_exact = exact_match(&model, &task, &in_distribution);
    println!(
        "exact match, greedy decoding with the cache: held-out years {:.1} %, training \
         years (fresh dates) {:.1} % ({EVAL_SIZE} dates each)",
        100.0 * heldout_exact,
        100.0 * in_distribution_exact
    );
    per_format(&model, &task, &heldout);
    per_position(&model, &task, &heldout);
    show_mistakes(&model, &task, &heldout);

    // Where the cross-attention looks.
    let alignment = alignment(&model, &task, &heldout);
    alignment_per_format(&model, &task, &heldout);
    println!(
        "\ncross-attention peak (argmax over the source of the head-averaged weights, \
         teacher-forced, last decoder layer) inside the right source field, {EVAL_SIZE} \
         held-out dates:\n  overall {:.1} %, year digits {:.1} %, month digits {:.1} %, \
         day digits {:.1} %\n  counting the character just before and after each field \
         as part of it: {:.1} %",
        100.0 * alignment.overall,
        100.0 * alignment.year,
        100.0 * alignment.month,
        100.0 * alignment.day,
        100.0 * alignment.widened
    );

    let decoding = decoding_cost(&model, &task, &heldout);

    // What to write.
    let json = summary_json(
        &options,
        &model,
        &settings,
        &task,
        train_seconds,
        heldout_exact,
        in_distribution_exact,
        &alignment,
        &losses,
        &curve,
        &decoding,
    );
    let experiments = course_common::output::experiments_dir();
    let name = match options.variant() {
        None => "date_translation.json".to_owned(),
        Some(variant) => format!("date_translation-{variant}.json"),
    };
    let json_path = experiments.join(name);
    std::fs::write(&json_path, json).expect("write the JSON summary");
    println!("\nwrote {}", json_path.display());
    if options.variant().is_none() {
        for lang in languages(&options.lang.langs) {
            let training = course_figures::write_in(
                lang,
                "06-full-model-training.svg",
                &training_svg(&losses, &curve, lang),
            );
            let heatmaps = course_figures::write_in(
                lang,
                "06-full-model-cross-attention.svg",
                &heatmaps_svg(&model, &task, lang),
            );
            let heads = course_figures::write_in(
                lang,
                "06-full-model-heads.svg",
                &heads_svg(&model, &task, lang),
            );
            println!(
                "wrote {}\nwrote {}\nwrote {}",
                training.display(),
                heatmaps.display(),
                heads.display()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------

/// The index of the largest entry (the first, on ties).
fn argmax(values: course_common::ndarray::ArrayView1<Float>) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

fn evaluation_set(task: &DateTask, split: Split, seed: u64) -> Vec<Example> {
    let mut rng = seeded_rng(seed);
    (0..EVAL_SIZE)
        .map(|_| task.sample(&mut rng, split))
        .collect()
}

fn decode_text(model: &Transformer, task: &DateTask, example: &Example) -> String {
    let (src, tgt) = task.tokens(example);
    task.vocab
        .decode(&greedy_decode_cached(model, &src, tgt.len() + 1))
}

fn exact_match(model: &Transformer, task: &DateTask, examples: &[Example]) -> Float {
    let correct = examples
        .iter()
        .filter(|e| decode_text(model, task, e) == e.target)
        .count();
    correct as Float / examples.len() as Float
}

fn mean_tail(values: &[Float], n: usize) -> Float {
    let tail = &values[values.len().saturating_sub(n)..];
    tail.iter().sum::<Float>() / tail.len() as Float
}

fn per_format(model: &Transformer, task: &DateTask, examples: &[Example]) {
    println!("\nheld-out exact match per format:");
    for format in DateFormat::ALL {
        let mine: Vec<&Example> =
            examples.iter().filter(|e| e.format == format).collect();
        let correct = mine
            .iter()
            .filter(|e| decode_text(model, task, e) == e.target)
            .count();
        let example = task.example(Date::new(2046, 6, 24), format).source;
        println!(
            "  {:<22} {:>5.1} % of {:>3}",
            format!("{example:?}"),
            100.0 * correct as Float / mine.len().max(1) as Float,
            mine.len()
        );
    }
}

fn per_position(model: &Transformer, task: &DateTask, examples: &[Example]) {
    let mut correct = [0usize; 10];
    for example in examples {
        let got: Vec<char> = decode_text(model, task, example).chars().collect();
        for (i, c) in example.target.chars().enumerate() {
            if got.get(i) == Some(&c) {
                correct[i] += 1;
            }
        }
    }
    let line: Vec<String> = correct
        .iter()
        .map(|&c| format!("{:.1}", 100.0 * c as Float / examples.len() as Float))
        .collect();
    println!(
        "held-out accuracy per output position (Y Y Y Y - M M - D D), %: {}",
        line.join(" ")
    );
}

fn show_mistakes(model: &Transformer, task: &DateTask, examples: &[Example]) {
    let wrong: Vec<(&Example, String)> = examples
        .iter()
        .map(|e| (e, decode_text(model, task, e)))
        .filter(|(e, got)| *got != e.target)
        .collect();
    let mut by_year: std::collections::BTreeMap<u32, usize> = Default::default();
    for (example, _) in &wrong {
        *by_year.entry(example.date.year).or_default() += 1;
    }
    println!(
        "held-out mistakes: {} of {}, by year {by_year:?}",
        wrong.len(),
        examples.len()
    );
    for (example, got) in wrong.iter().take(30) {
        println!(
            "  {:<30} → {got:<12} (expected {})",
            format!("{:?}", example.source),
            example.target
        );
    }
}

/// The fraction of output digits whose head-averaged cross-attention peak is in the
/// right source field.
struct Alignment {
    overall: Float,
    year: Float,
    month: Float,
    day: Float,
    /// The same, counting the character just before and just after each field as in it.
    widened: Float,
}

/// The head-averaged cross-attention of the last decoder layer, teacher-forced, for
/// one example: `(T, S)`, row `i` for the query that predicts output character `i`.
fn cross_attention(model: &Transformer, task: &DateTask, example: &Example) -> Matrix {
    let batch = Batch::new(&[task.tokens(example)]);
    let forward = model.forward(&batch);
    let layer = forward.decoder[0]
        .layers
        .last()
        .expect("the model has a decoder layer");
    let heads = &layer.cross_attention.weights;
    let mut mean = Matrix::zeros(heads[0].dim());
    for head in heads {
        mean += head;
    }
    mean / heads.len() as Float
}

fn alignment(model: &Transformer, task: &DateTask, examples: &[Example]) -> Alignment {
    // (field of output position i, or None for the dashes and EOS)
    let field_of = |i: usize| match i {
        0..=3 => Some(0),
        5 | 6 => Some(1),
        8 | 9 => Some(2),
        _ => None,
    };
    let mut hits = [0usize; 3];
    let mut total = [0usize; 3];
    let mut widened = 0usize;
    for example in examples {
        let weights = cross_attention(model, task, example);
        let ranges = [
            &example.fields.year,
            &example.fields.month,
            &example.fields.day,
        ];
        for i in 0..10 {
            let Some(field) = field_of(i) else { continue };
            let peak = argmax(weights.row(i));
            total[field] += 1;
            if ranges[field].contains(&peak) {
                hits[field] += 1;
            }
            if ranges[field].start <= peak + 1 && peak <= ranges[field].end {
                widened += 1;
            }
        }
    }
    let rate = |h: usize, t: usize| h as Float / t.max(1) as Float;
    Alignment {
        overall: rate(hits.iter().sum(), total.iter().sum()),
        year: rate(hits[0], total[0]),
        month: rate(hits[1], total[1]),
        day: rate(hits[2], total[2]),
        widened: rate(widened, total.iter().sum()),
    }
}

/// Where the month digits' attention peaks, per format, when it is not on the month.
fn alignment_per_format(model: &Transformer, task: &DateTask, examples: &[Example]) {
    println!(
        "\ncross-attention peaks of the month digits (positions 5 and 6), per format:"
    );
    for format in DateFormat::ALL {
        let mut hits = 0;
        let mut total = 0;
        let mut elsewhere: std::collections::BTreeMap<String, usize> = Default::default();
        for example in examples.iter().filter(|e| e.format == format) {
            let weights = cross_attention(model, task, example);
            for i in [5, 6] {
                let peak = argmax(weights.row(i));
                total += 1;
                if example.fields.month.contains(&peak) {
                    hits += 1;
                } else {
                    let place = if example.fields.day.contains(&peak) {
                        "day".to_owned()
                    } else if example.fields.year.contains(&peak) {
                        "year".to_owned()
                    } else {
                        let c = example.source.as_bytes()[peak] as char;
                        format!("{c:?}")
                    };
                    *elsewhere.entry(place).or_default() += 1;
                }
            }
        }
        let example = task.example(Date::new(2046, 6, 24), format).source;
        println!(
            "  {:<22} {:>5.1} % on the month; elsewhere: {:?}",
            format!("{example:?}"),
            100.0 * hits as Float / total.max(1) as Float,
            elsewhere
        );
    }
}

/// Milliseconds per date of greedy decoding without and with the cache, on the trained
/// model's held-out dates, and per length on the trained model with `EOS` suppressed, so that
/// it does not stop.
struct DecodingCost {
    dates_full_ms: Float,
    dates_cached_ms: Float,
    /// (generated tokens, full ms, cached ms)
    by_length: Vec<(usize, Float, Float)>,
}

fn decoding_cost(
    model: &Transformer,
    task: &DateTask,
    examples: &[Example],
) -> DecodingCost {
    let sources: Vec<Vec<usize>> =
        examples[..200].iter().map(|e| task.tokens(e).0).collect();
    let time = |f: &dyn Fn(&[usize]) -> Vec<usize>, sources: &[Vec<usize>]| {
        let start = Instant::now();
        let outputs: Vec<Vec<usize>> = sources.iter().map(|s| f(s)).collect();
        (
            1e3 * start.elapsed().as_secs_f64() / sources.len() as Float,
            outputs,
        )
    };
    let (dates_full_ms, full) = time(&|s| greedy_decode(model, s, 11), &sources);
    let (dates_cached_ms, cached) =
        time(&|s| greedy_decode_cached(model, s, 11), &sources);
    assert_eq!(full, cached, "the cache must not change what is generated");
    println!(
        "\ngreedy decoding of a held-out date: {dates_full_ms:.3} ms re-running the \
         decoder over the prefix, {dates_cached_ms:.3} ms with the key/value cache"
    );
    // Fixed lengths: the cost of n steps of each method, the best of 5 runs.
    let few = &sources[..20];
    let never_stops = never_stopping(model);
    let mut by_length = Vec::new();
    println!(
        "tokens generated | re-run the prefix (ms) | with the cache (ms)   (20 sources, best of 5)"
    );
    for n in [10, 20, 40, 60] {
        let best =
            |f: &dyn Fn(&[usize]) -> Vec<usize>| {
                (0..5).map(|_| time(f, few)).fold(
                    (Float::INFINITY, Vec::new()),
                    |a, b| if b.0 < a.0 { b } else { a },
                )
            };
        let (full_ms, full) = best(&|s| greedy_decode(&never_stops, s, n));
        let (cached_ms, cached) = best(&|s| greedy_decode_cached(&never_stops, s, n));
        assert_eq!(
            full, cached,
            "the cache must not change what the model predicts"
        );
        println!("{n:>16} | {full_ms:>22.3} | {cached_ms:>19.3}");
        by_length.push((n, full_ms, cached_ms));
    }
    DecodingCost {
        dates_full_ms,
        dates_cached_ms,
        by_length,
    }
}

/// The model with `EOS` made the least likely token at every step: your greedy
/// decoders then never stop early, and every source takes exactly `max_len` steps.
fn never_stopping(model: &Transformer) -> Transformer {
    let mut never_stops = model.clone();
    never_stops.output.bias[EOS] = -1e9;
    never_stops
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_owned())
        })
        .unwrap_or_else(|| "an unknown CPU".to_owned());
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    format!("{cpu}, {threads} hardware threads (training uses one)")
}

// ---------------------------------------------------------------------------------------
// The JSON summary
// ---------------------------------------------------------------------------------------

/// `value` with `decimals` decimals, the number `format!("{value:.decimals$}")` writes:
/// the precision the summary keeps.
fn rounded(value: Float, decimals: usize) -> Float {
    format!("{value:.decimals$}")
        .parse()
        .expect("a formatted number parses back")
}

/// The summary of a run, written to `target/experiments/date_translation*.json`.
#[derive(Serialize)]
struct Summary {
    heldout_exact_match: Float,
    heldout_examples: usize,
    in_distribution_exact_match: Float,
    attention_alignment: AlignmentSummary,
    train_seconds: Float,
    steps: usize,
    parameters: usize,
    initial_loss: Float,
    final_loss_mean_last_50: Float,
    /// (step, held-out exact match on 200 dates)
    heldout_curve: Vec<(usize, Float)>,
    decoding_ms_per_date: DecodingMs,
    decoding_ms_by_length: Vec<DecodingAtLength>,
    config: ConfigSummary,
    machine: String,
}

#[derive(Serialize)]
struct AlignmentSummary {
    overall: Float,
    year: Float,
    month: Float,
    day: Float,
    field_plus_neighbours: Float,
}

#[derive(Serialize)]
struct DecodingMs {
    full: Float,
    cached: Float,
}

#[derive(Serialize)]
struct DecodingAtLength {
    tokens: usize,
    full: Float,
    cached: Float,
}

/// The model's shape and the training settings.
#[derive(Serialize)]
struct ConfigSummary {
    vocab_size: usize,
    d_model: usize,
    n_heads: usize,
    d_ff: usize,
    n_layers: usize,
    norm_position: String,
    batch_size: usize,
    peak_lr: Float,
    warmup: usize,
    clip_norm: Float,
    label_smoothing: Float,
    beta1: Float,
    beta2: Float,
    adam_eps: Float,
    model_seed: u64,
    data_seed: u64,
    years: [u32; 2],
    heldout_years: Vec<u32>,
}

#[allow(clippy::too_many_arguments)]
fn summary_json(
    options: &Options,
    model: &Transformer,
    settings: &TrainConfig,
    task: &DateTask,
    train_seconds: Float,
    heldout_exact: Float,
    in_distribution_exact: Float,
    alignment: &Alignment,
    losses: &[Float],
    curve: &[(usize, Float)],
    decoding: &DecodingCost,
) -> String {
    let c = &model.config;
    let four = |v: Float| rounded(v, 4);
    let summary = Summary {
        heldout_exact_match: four(heldout_exact),
        heldout_examples: EVAL_SIZE,
        in_distribution_exact_match: four(in_distribution_exact),
        attention_alignment: AlignmentSummary {
            overall: four(alignment.overall),
            year: four(alignment.year),
            month: four(alignment.month),
            day: four(alignment.day),
            field_plus_neighbours: four(alignment.widened),
        },
        train_seconds: rounded(train_seconds, 2),
        steps: settings.steps,
        parameters: model.parameter_count(),
        initial_loss: four(losses[0]),
        final_loss_mean_last_50: rounded(mean_tail(losses, 50), 5),
        heldout_curve: curve.iter().map(|&(s, a)| (s, rounded(a, 3))).collect(),
        decoding_ms_per_date: DecodingMs {
            full: four(decoding.dates_full_ms),
            cached: four(decoding.dates_cached_ms),
        },
        decoding_ms_by_length: decoding
            .by_length
            .iter()
            .map(|&(tokens, full, cached)| DecodingAtLength {
                tokens,
                full: four(full),
                cached: four(cached),
            })
            .collect(),
        config: ConfigSummary {
            vocab_size: c.vocab_size,
            d_model: c.d_model,
            n_heads: c.n_heads,
            d_ff: c.d_ff,
            n_layers: c.n_layers,
            norm_position: format!("{:?}", c.norm_position),
            batch_size: settings.batch_size,
            peak_lr: settings.peak_lr,
            warmup: settings.warmup,
            clip_norm: settings.clip_norm,
            label_smoothing: settings.label_smoothing,
            beta1: settings.beta1,
            beta2: settings.beta2,
            adam_eps: settings.adam_eps,
            model_seed: options.seed,
            data_seed: DATA_SEED,
            years: [*task.years.start(), *task.years.end()],
            heldout_years: task.heldout_years.clone(),
        },
        machine: machine(),
    };
    serde_json::to_string_pretty(&summary).expect("a summary is JSON") + "\n"
}

// ---------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------

/// A document `width` by `height` on a white background, without title or description.
fn svg_open(width: Float, height: Float) -> Svg {
    let mut svg = Svg::new(width, height, 14);
    svg.tag("rect")
        .attr("width", width)
        .attr("height", height)
        .attr("fill", "white")
        .end();
    svg
}

/// The loss (log scale, left) and the held-out exact match (right) against the step.
fn training_svg(losses: &[Float], curve: &[(usize, Float)], lang: Lang) -> String {
    const ACCURACY: &str = "#d95f02";
    let (width, height) = (760.0, 400.0);
    let (left, right, top, bottom) = (80.0, 680.0, 40.0, 330.0);
    let steps = losses.len() as Float;
    let x = |step: Float| left + (right - left) * step / steps;
    let (log_min, log_max) = (-4.0, 1.0);
    let y_loss = |loss: Float| {
        bottom - (bottom - top) * (loss.max(1e-4).log10() - log_min) / (log_max - log_min)
    };
    let y_acc = |acc: Float| bottom - (bottom - top) * acc;
    let one = |v: Float| fixed(v, 1);
    let mut svg = svg_open(width, height);
    svg.text(one((left + right) / 2.0), 24)
        .attr("text-anchor", "middle")
        .attr("font-weight", "bold")
        .text(lang.pick(
            "Training the date model: loss and held-out exact match",
            "训练日期模型：损失与留出集上的完全匹配率",
        ));
    // Axes and grid.
    let loss_labels = ["0.0001", "0.001", "0.01", "0.1", "1", "10"];
    for (k, label) in loss_labels.iter().enumerate() {
        let y = y_loss(10f64.powi(log_min as i32 + k as i32));
        svg.line(left, one(y), right, one(y))
            .attr("stroke", "#e0e0e0")
            .end();
        svg.text(one(left - 6.0), one(y + 4.0))
            .attr("text-anchor", "end")
            .attr("font-size", 12)
            .text(label);
    }
    for k in 0..=4 {
        svg.text(one(right + 6.0), one(y_acc(k as Float * 0.25) + 4.0))
            .attr("font-size", 12)
            .attr("fill", ACCURACY)
            .text(format!("{}%", k * 25));
    }
    let tick = if steps > 1000.0 { 500 } else { 100 };
    for step in (0..).step_by(tick).take_while(|&s| s as Float <= steps) {
        let at = one(x(step as Float));
        svg.line(at, bottom, at, bottom + 5.0)
            .attr("stroke", "#888")
            .end();
        svg.text(at, bottom + 20.0)
            .attr("text-anchor", "middle")
            .attr("font-size", 12)
            .text(step);
    }
    for (x1, y1, x2) in [
        (left, bottom, right),
        (left, top, left),
        (right, top, right),
    ] {
        svg.line(x1, y1, x2, bottom).attr("stroke", "#444").end();
    }
    let middle = one((top + bottom) / 2.0);
    svg.text(one((left + right) / 2.0), one(bottom + 42.0))
        .attr("text-anchor", "middle")
        .attr("font-size", 13)
        .text(lang.pick("training step", "训练步数"));
    svg.text(20, middle)
        .attr("text-anchor", "middle")
        .attr("font-size", 13)
        .attr("transform", format!("rotate(-90 20 {middle})"))
        .text(lang.pick("loss per token (log scale)", "每个词元的损失（对数坐标）"));
    svg.text(740, middle)
        .attr("text-anchor", "middle")
        .attr("font-size", 13)
        .attr("fill", ACCURACY)
        .attr("transform", format!("rotate(90 740 {middle})"))
        .text(lang.pick("held-out exact match", "留出集完全匹配率"));
    // The raw loss, its moving average, and the accuracy.
    let window = 25;
    let raw: Vec<(Float, Float)> = losses
        .iter()
        .enumerate()
        .map(|(i, &l)| (x((i + 1) as Float), y_loss(l)))
        .collect();
    let smooth: Vec<(Float, Float)> = (0..losses.len())
        .map(|i| {
            let from = i.saturating_sub(window - 1);
            let mean = losses[from..=i].iter().sum::<Float>() / (i + 1 - from) as Float;
            (x((i + 1) as Float), y_loss(mean))
        })
        .collect();
    let accuracy: Vec<(Float, Float)> = curve
        .iter()
        .map(|&(s, a)| (x(s as Float), y_acc(a)))
        .collect();
    for (points, colour, stroke_width) in [
        (&raw, "#9ecae1", 0.8),
        (&smooth, "#08519c", 2.0),
        (&accuracy, ACCURACY, 2.0),
    ] {
        svg.tag("polyline")
            .attr("points", polyline_points(points, 1))
            .attr("fill", "none")
            .attr("stroke", colour)
            .attr("stroke-width", stroke_width)
            .end();
    }
    for &(cx, cy) in &accuracy {
        svg.circle(one(cx), one(cy), 3.5)
            .attr("fill", ACCURACY)
            .end();
    }
    // Legend.
    let legend = [
        ("#9ecae1", lang.pick("loss of each batch", "每个批次的损失")),
        (
            "#08519c",
            lang.pick("loss, mean of the last 25 steps", "损失，最近 25 步的平均"),
        ),
        (
            ACCURACY,
            lang.pick(
                "held-out exact match (200 dates)",
                "留出集完全匹配率（200 个日期）",
            ),
        ),
    ];
    for (i, (colour, label)) in legend.iter().enumerate() {
        let y = 60.0 + 20.0 * i as Float;
        svg.line(420, y, 450, y)
            .attr("stroke", colour)
            .attr("stroke-width", 2)
            .end();
        svg.text(456, y + 4.0).attr("font-size", 12).text(label);
    }
    svg.finish()
}

/// The labels of a cross-attention heatmap: the source characters (a space as ␣) across,
/// the output characters and EOS down.
fn labels(example: &Example) -> (Vec<String>, Vec<String>) {
    let columns = example
        .source
        .chars()
        .map(|c| if c == ' ' { '␣' } else { c }.to_string())
        .collect();
    let rows = example
        .target
        .chars()
        .map(|c| c.to_string())
        .chain(std::iter::once("EOS".to_owned()))
        .collect();
    (columns, rows)
}

/// A heatmap of `weights` (outputs × source characters) at `(left, top)`, cells `cell`
/// wide, labelled in a monospaced font of `font_size`.
fn cross_attention_map<'a>(
    weights: &'a Matrix,
    left: Float,
    top: Float,
    cell: Float,
    font_size: &'static str,
) -> Heatmap<'a> {
    let mut heatmap = Heatmap::new(weights, BLUES, left, top, cell);
    heatmap.outline = Some(("white", 0.5));
    heatmap.labels.attributes = vec![
        ("font-size", font_size),
        ("font-family", "Menlo, Consolas, monospace"),
    ];
    heatmap
}

/// The head-averaged cross-attention of the trained model for a few held-out dates.
fn heatmaps_svg(model: &Transformer, task: &DateTask, lang: Lang) -> String {
    let examples = [
        task.example(Date::new(1899, 3, 14), DateFormat::WeekdayMonthDayYear),
        task.example(Date::new(2479, 11, 5), DateFormat::Slashed),
        task.example(Date::new(1660, 8, 27), DateFormat::ShortMonthDayCommaYear),
    ];
    let cell = 22.0;
    let left = 70.0;
    let width = left + cell * 24.0 + 30.0;
    let panel_height = |e: &Example| 60.0 + cell * (e.target.len() + 1) as Float;
    let height = 20.0 + examples.iter().map(panel_height).sum::<Float>() + 40.0;
    let mut svg = svg_open(width, height);
    let mut y0 = 20.0;
    for example in &examples {
        let weights = cross_attention(model, task, example);
        let got = decode_text(model, task, example);
        svg.text(left, fixed(y0 + 14.0, 1))
            .attr("font-weight", "bold")
            .text(match lang {
                Lang::En => format!(
                    "\"{}\" → {} (the model's greedy output: {got})",
                    example.source, example.target
                ),
                Lang::ZhCn => format!(
                    "\"{}\" → {}（模型的贪心输出：{got}）",
                    example.source, example.target
                ),
            });
        let mut heatmap = cross_attention_map(&weights, left, y0 + 44.0, cell, "13");
        heatmap.labels.row_gap = 8.0;
        let (columns, rows) = labels(example);
        heatmap.draw(&mut svg, &columns, &rows, LabelOrder::WithRows);
        y0 += panel_height(example);
    }
    // Colour scale.
    let caption = |svg: &mut Svg, x: Float, y: Float, text: &str| {
        svg.text(fixed(x, 1), fixed(y, 1))
            .attr("font-size", 12)
            .text(text);
    };
    svg.text(left, fixed(y0 + 14.0, 1))
        .attr("font-size", 12)
        .text(lang.pick("weight:", "权重："));
    let outline = Some(("#ccc", 0.5));
    colour_steps(
        &mut svg,
        BLUES,
        left + 55.0,
        y0 + 3.0,
        20.0,
        14.0,
        10,
        outline,
    );
    caption(&mut svg, left + 46.0, y0 + 14.0, "0");
    caption(&mut svg, left + 55.0 + 20.0 * 11.0 + 4.0, y0 + 14.0, "1");
    caption(
        &mut svg,
        left,
        y0 + 34.0,
        lang.pick(
            "rows: the output character each query predicts; columns: the source characters \
             (␣ is a space)",
            "行：每个查询预测的输出字符；列：源字符（␣ 表示空格）",
        ),
    );
    svg.finish()
}

/// One heatmap panel: its title, and `weights` (outputs × source characters) at
/// (x0, y0).
fn panel(
    svg: &mut Svg,
    x0: Float,
    y0: Float,
    title: &str,
    example: &Example,
    weights: &Matrix,
) {
    svg.text(fixed(x0, 1), fixed(y0 + 14.0, 1))
        .attr("font-weight", "bold")
        .attr("font-size", 13)
        .text(title);
    let heatmap = cross_attention_map(weights, x0 + 30.0, y0 + 40.0, 20.0, "12");
    let (columns, rows) = labels(example);
    heatmap.draw(svg, &columns, &rows, LabelOrder::WithRows);
}

/// The two heads of the last decoder layer's cross-attention for one held-out date, and
/// their average.
fn heads_svg(model: &Transformer, task: &DateTask, lang: Lang) -> String {
    let example = task.example(Date::new(1899, 3, 14), DateFormat::WeekdayMonthDayYear);
    let batch = Batch::new(&[task.tokens(&example)]);
    let forward = model.forward(&batch);
    let layer = forward.decoder[0]
        .layers
        .last()
        .expect("the model has a decoder layer");
    let heads = &layer.cross_attention.weights;
    let width = 30.0 + 20.0 * example.source.len() as Float + 40.0;
    let panel_height = 40.0 + 20.0 * 11.0 + 30.0;
    let mut svg = svg_open(2.0 * width + 20.0, 2.0 * panel_height + 30.0);
    let average = cross_attention(model, task, &example);
    let head = |h: &'static str| {
        lang.pick(
            h,
            if h == "head 0" {
                "第 0 个头"
            } else {
                "第 1 个头"
            },
        )
    };
    panel(&mut svg, 10.0, 10.0, head("head 0"), &example, &heads[0]);
    panel(
        &mut svg,
        width + 10.0,
        10.0,
        head("head 1"),
        &example,
        &heads[1],
    );
    panel(
        &mut svg,
        10.0,
        panel_height + 10.0,
        lang.pick(
            "the average of the two (what the heatmaps show)",
            "两者的平均（即热力图所示）",
        ),
        &example,
        &average,
    );
    let source_to_target = format!("\"{}\" → {}", example.source, example.target);
    let notes = match lang {
        Lang::En => [
            (40.0, source_to_target.as_str()),
            (64.0, "cross-attention of the trained model's"),
            (82.0, "decoder layer, teacher-forced: each row"),
            (100.0, "(one per output character) sums to 1"),
        ],
        Lang::ZhCn => [
            (40.0, source_to_target.as_str()),
            (64.0, "训练好的模型解码器层的交叉注意力，"),
            (82.0, "采用教师强制：每行（每个输出字符"),
            (100.0, "一行）之和为 1"),
        ],
    };
    for (dy, text) in notes {
        svg.text(fixed(width + 10.0, 1), fixed(panel_height + dy, 1))
            .attr("font-size", 12)
            .text(text);
    }
    svg.finish()
}
