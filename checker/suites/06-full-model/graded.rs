//! Graded tests of lesson 06, the full Transformer.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API
//! (which re-exports the earlier lessons' types; grading supplies their reference
//! solutions), so any correct implementation passes. Every fixture is hand-computed, an
//! exact property (masks, rows that cannot see each other, central differences, Adam's
//! first step), or a value from PyTorch in float64 (torch 2.15.0), which
//! tools/reference/lesson06_full_model.py writes into `graded.json` beside this file:
//! F.cross_entropy with label smoothing, torch.optim.Adam, clip_grad_norm_, Python's
//! datetime and float arithmetic, and a whole tiny Transformer built from
//! nn.TransformerEncoderLayer / nn.TransformerDecoderLayer. The wrong logits used to
//! name mistakes come from the same script, with one piece switched off at a time; the
//! other wrong answers, and the causes that name every mistake, come from
//! `course_harness::mistakes::full_model`, which the lesson's visible tests use too.
//!
//! Random generators appear only where any stream would do: a test of an initialiser
//! checks statistics that hold for every draw order, and the data tests check properties
//! of whatever dates come out.
//!
//! Calls into the lesson go through `observe` (models and caches the lesson's code builds
//! or changes, through `object`) so that the checker's judge can replay them (see
//! `course_harness::tape`).

use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::mistakes::full_model::{
    ADD_NEVER_ASSIGN, CACHE_APPEND, EPS_INSIDE_THE_ROOT, LOG_SOFTMAX_OVERFLOW,
    NO_BIAS_CORRECTION, NO_CAUSAL_MASK, NO_CROSS_MASK, NO_EMBEDDING_SCALE,
    NO_ENCODER_MASK, NO_POSITIONS, SAME_INPUT, SUM_OF_D_MEMORY, adam_eps_inside_the_root,
    clip_mistakes, loss_gradient_mistakes, noam_cause, smoothing_mistakes,
};
use course_harness::{
    Misconception, Reference, Tol, assert_all_finite, assert_close,
    assert_gradient_close, assert_matrix_close, assert_same_shape, graded,
    linspace_matrix, numerical_gradient, object, observe, relative_error,
};
use std::ops::Range;
use std::sync::LazyLock;
use transformer::{
    Adam, BOS, Batch, ChaCha8Rng, Config, Date, DateFormat, DateTask, EOS, Fields,
    HELDOUT_YEARS, Loss, MONTH_NAMES, NormPosition, PAD, Split, TrainConfig, Transformer,
    Vocabulary, WEEKDAY_NAMES, cached_attention, clip_global_norm, cross_entropy_loss,
    day_of_week, days_in_month, embedding_init, exact_match, greedy_decode,
    greedy_decode_cached, key_padding_mask, next_token, noam_factor, noam_rate,
    seeded_rng, smoothed_targets, target_mask, train, train_step, xavier_uniform,
};

/// The values PyTorch and Python computed for these tests (see the module docs), by name.
static REFERENCE: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse("06-full-model/graded.json", include_str!("graded.json"))
});

/// Exactly equal: for properties that hold bit for bit (rows that cannot see each other).
const EXACT: Tol = Tol { abs: 0.0, rel: 0.0 };

/// Agreement with PyTorch's float64 results: any correct order of summation is far
/// inside it, and any wrong formula far outside.
const TORCH: Tol = Tol {
    abs: 1e-9,
    rel: 1e-9,
};

/// Appended to every gradient hint: a gradient check compares the backward pass with
/// central differences of the learner's own forward pass.
fn gradient_hint(hint: &str) -> String {
    format!(
        "{hint}. (If a forward-pass test fails too, fix the forward pass first: the \
         numerical gradient is computed from your forward pass.)"
    )
}

fn row(values: &[Float]) -> Matrix {
    Vector::from(values.to_vec()).insert_axis(Axis(0))
}

// ---------------------------------------------------------------------------------------
// The tiny model, with deterministic parameters (the reference script builds the same)
// ---------------------------------------------------------------------------------------

/// 7 tokens (PAD, BOS, EOS and 3 to 6), d_model 4, 2 heads, d_ff 6, two encoder and two
/// decoder layers, post-LN: 88 tensors, 883 numbers.
fn tiny_config() -> Config {
    Config {
        vocab_size: 7,
        d_model: 4,
        n_heads: 2,
        d_ff: 6,
        n_layers: 2,
        max_len: 8,
        norm_position: NormPosition::Post,
    }
}

/// The suite's fill with no linear structure: ((k² · 7 + k · 13 + 3) mod 97) / 48 − 1.
fn scrambled_value(k: usize) -> Float {
    ((k * k * 7 + k * 13 + 3) % 97) as Float / 48.0 - 1.0
}

#[derive(Clone, Copy)]
enum Kind {
    Embedding,
    Weight,
    Bias,
    Gamma,
    Beta,
}

/// Every tensor of `Transformer::parameters`, in its documented order, with its name
/// and kind.
fn parameter_names(config: &Config) -> Vec<(String, Kind)> {
    let mut names = vec![
        ("src_embedding.weight".to_owned(), Kind::Embedding),
        ("tgt_embedding.weight".to_owned(), Kind::Embedding),
    ];
    let linear = |names: &mut Vec<(String, Kind)>, prefix: String| {
        names.push((format!("{prefix}.weight"), Kind::Weight));
        names.push((format!("{prefix}.bias"), Kind::Bias));
    };
    let attention = |names: &mut Vec<(String, Kind)>, prefix: String| {
        for w in ["w_q", "w_k", "w_v", "w_o"] {
            linear(names, format!("{prefix}.{w}"));
        }
    };
    let norm = |names: &mut Vec<(String, Kind)>, prefix: String| {
        names.push((format!("{prefix}.gamma"), Kind::Gamma));
        names.push((format!("{prefix}.beta"), Kind::Beta));
    };
    for i in 0..config.n_layers {
        attention(&mut names, format!("encoder[{i}].self_attention"));
        linear(&mut names, format!("encoder[{i}].ffn.w_1"));
        linear(&mut names, format!("encoder[{i}].ffn.w_2"));
        norm(&mut names, format!("encoder[{i}].norm_1"));
        norm(&mut names, format!("encoder[{i}].norm_2"));
    }
    for i in 0..config.n_layers {
        attention(&mut names, format!("decoder[{i}].self_attention"));
        attention(&mut names, format!("decoder[{i}].cross_attention"));
        linear(&mut names, format!("decoder[{i}].ffn.w_1"));
        linear(&mut names, format!("decoder[{i}].ffn.w_2"));
        norm(&mut names, format!("decoder[{i}].norm_1"));
        norm(&mut names, format!("decoder[{i}].norm_2"));
        norm(&mut names, format!("decoder[{i}].norm_3"));
    }
    linear(&mut names, "output".to_owned());
    names
}

/// Entry i of tensor k is offset + scale · scrambled(i + 7k + 1), by kind: embeddings
/// 0.5·s, weights 0.8·s, biases and β 0.1·s, γ 1 + 0.3·s.
fn deterministic_model(config: Config) -> Transformer {
    let mut model = Transformer::zeros(config);
    let names = parameter_names(&config);
    let tensors = model.parameters_mut();
    assert_eq!(
        tensors.len(),
        names.len(),
        "Transformer::parameters_mut lists {} tensors, the documented order {}",
        tensors.len(),
        names.len()
    );
    for (k, (tensor, (_, kind))) in tensors.into_iter().zip(&names).enumerate() {
        let (offset, scale) = match kind {
            Kind::Embedding => (0.0, 0.5),
            Kind::Weight => (0.0, 0.8),
            Kind::Bias | Kind::Beta => (0.0, 0.1),
            Kind::Gamma => (1.0, 0.3),
        };
        for (i, value) in tensor.iter_mut().enumerate() {
            *value = offset + scale * scrambled_value(i + 7 * k + 1);
        }
    }
    model
}

/// Two pairs, written out (not through `Batch::new`): sources [3 4 5 6] and [5 3], targets
/// [4 6 5] and [6]; S = 4, T = 4.
fn tiny_batch() -> Batch {
    Batch {
        src: vec![vec![3, 4, 5, 6], vec![5, 3, PAD, PAD]],
        tgt_in: vec![vec![BOS, 4, 6, 5], vec![BOS, 6, PAD, PAD]],
        tgt_out: vec![vec![4, 6, 5, EOS], vec![6, EOS, PAD, PAD]],
    }
}

fn one_pair(src: &[usize], tgt_in: &[usize], tgt_out: &[usize]) -> Batch {
    Batch {
        src: vec![src.to_vec()],
        tgt_in: vec![tgt_in.to_vec()],
        tgt_out: vec![tgt_out.to_vec()],
    }
}

/// The loss of `model` on `batch` by the lesson's forward pass and loss, not observed:
/// call it inside `observe` (as [`loss_of`] does).
fn loss_value(model: &Transformer, batch: &Batch, smoothing: Float) -> Float {
    cross_entropy_loss(&model.forward(batch).logits, &batch.targets(), smoothing).value
}

/// The loss of `model` on `batch`: the lesson's forward pass and loss, observed.
fn loss_of(model: &Transformer, batch: &Batch, smoothing: Float) -> Float {
    observe("Transformer::forward (loss)", || {
        loss_value(model, batch, smoothing)
    })
}

/// The logits of `model` on `batch`: the lesson's forward pass, observed.
fn logits_of(model: &Transformer, batch: &Batch) -> Matrix {
    observe("Transformer::forward", || model.forward(batch).logits)
}

/// Every tensor of a model that the lesson's code computed or changed (a gradient, a
/// model after a training step), copied out as course values: call it inside `observe`.
fn tensors(model: &Transformer) -> Vec<Vec<Float>> {
    model.parameters().iter().map(|t| t.to_vec()).collect()
}

// ---------------------------------------------------------------------------------------
// The data: the calendar, the examples, the batches
// ---------------------------------------------------------------------------------------

/// Months have 31, 30 or 28/29 days; a year is a leap year when divisible by 4, except
/// centuries, which must be divisible by 400.
#[test]
fn days_in_month_follows_the_gregorian_calendar() {
    graded(|| {
        let cases = [
            (2023, 1, 31, ""),
            (
                2023,
                4,
                30,
                "April, June, September and November have 30 days",
            ),
            (2023, 2, 28, "2023 is not divisible by 4: not a leap year"),
            (2024, 2, 29, "2024 is divisible by 4: a leap year"),
            (
                1900,
                2,
                28,
                "1900 is a century not divisible by 400: not a leap year",
            ),
            (
                2100,
                2,
                28,
                "2100 is a century not divisible by 400: not a leap year",
            ),
            (2000, 2, 29, "2000 is divisible by 400: a leap year"),
            (1600, 2, 29, "1600 is divisible by 400: a leap year"),
            (1001, 12, 31, ""),
            (
                2999,
                9,
                30,
                "April, June, September and November have 30 days",
            ),
            (1234, 7, 31, "July and August both have 31 days"),
            (1234, 8, 31, "July and August both have 31 days"),
        ];
        for (year, month, expected, why) in cases {
            let got = observe("days_in_month", || days_in_month(year, month));
            assert!(
                got == expected,
                "days_in_month({year}, {month}): expected {expected}, got {got}. {why}"
            );
        }
        let total: u32 = (1..=12)
            .map(|m| observe("days_in_month", || days_in_month(2023, m)))
            .sum();
        assert!(
            total == 365,
            "the months of 2023 add up to {total} days, not 365"
        );
        let total: u32 = (1..=12)
            .map(|m| observe("days_in_month", || days_in_month(2024, m)))
            .sum();
        assert!(
            total == 366,
            "the months of 2024 add up to {total} days, not 366"
        );
    });
}

/// Weekdays of fixed dates, Monday = 0, from Python's datetime (proleptic Gregorian).
#[test]
fn day_of_week_matches_python_s_calendar() {
    graded(|| {
        let dates = [
            (2000, 1, 1),
            (1970, 1, 1),
            (2046, 6, 24),
            (1000, 1, 1),
            (2999, 12, 31),
            (1582, 10, 15),
            (1899, 3, 14),
            (1900, 3, 1),
            (2000, 2, 29),
            (2100, 3, 1),
            (1600, 2, 29),
            (2024, 2, 29),
        ];
        // datetime.date(y, m, d).weekday() of each date.
        let weekdays = REFERENCE.integers("weekday");
        assert!(weekdays.len() == dates.len(), "a weekday per date");
        for ((year, month, day), expected) in dates.into_iter().zip(weekdays) {
            let expected = usize::try_from(expected).expect("a weekday is 0 to 6");
            let got = observe("day_of_week", || day_of_week(Date { year, month, day }));
            assert!(
                got == expected,
                "day_of_week({year}-{month:02}-{day:02}): expected {expected} ({}), got {got}. \
                 Likely cause: {}",
                WEEKDAY_NAMES[expected],
                if got == (expected + 1) % 7 {
                    "counting from Sunday = 0 instead of Monday = 0, or an off-by-one day"
                } else if year < 2000 {
                    "dates before the reference date: count backwards (and mind the sign \
                     of the remainder), and apply the century rule of leap years"
                } else {
                    "a leap day counted in the wrong year (the century rule, or February \
                     of the current year counted before March)"
                }
            );
        }
    });
}

/// Walking day by day for ten years, the weekday advances by one each day.
#[test]
fn consecutive_days_have_consecutive_weekdays() {
    graded(|| {
        let (mut year, mut month, mut day): (u32, u32, u32) = (1896, 1, 1);
        let mut previous =
            observe("day_of_week", || day_of_week(Date { year, month, day }));
        for _ in 0..3700 {
            // The test's own calendar, not the lesson's.
            let leap: bool = (year.is_multiple_of(4) && !year.is_multiple_of(100))
                || year.is_multiple_of(400);
            let length = match month {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
            let weekday =
                observe("day_of_week", || day_of_week(Date { year, month, day }));
            assert!(
                weekday == (previous + 1) % 7,
                "day_of_week({year}-{month:02}-{day:02}) is {weekday}, but the day before \
                 was {previous}: consecutive days must have consecutive weekdays (mod 7)"
            );
            previous = weekday;
        }
    });
}

/// A leap-year test of the suite's own, to check generated dates independently.
fn exists(date: Date) -> bool {
    let leap = (date.year.is_multiple_of(4) && !date.year.is_multiple_of(100))
        || date.year.is_multiple_of(400);
    let length = match date.month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    };
    date.day >= 1 && date.day <= length
}

/// `DateTask::sample_date`, observed: the draws depend on the lesson's `days_in_month`,
/// so `rng` is used only inside this call.
fn sample_date(task: &DateTask, rng: &mut ChaCha8Rng, split: Split) -> Date {
    let (year, month, day) = observe("DateTask::sample_date", || {
        let date = task.sample_date(rng, split);
        (date.year, date.month, date.day)
    });
    Date { year, month, day }
}

/// `DateTask::sample`, observed: the date, the source, the target and the fields' ranges
/// come back as course values, and the test holds them in values of its own.
fn sample_example(
    task: &DateTask,
    rng: &mut ChaCha8Rng,
    split: Split,
) -> (Date, String, String, Fields) {
    let ((year, month, day), source, target, (y, m, d)) =
        observe("DateTask::sample", || {
            let example = task.sample(rng, split);
            let span = |range: &Range<usize>| (range.start, range.end);
            let fields = &example.fields;
            let spans = (span(&fields.year), span(&fields.month), span(&fields.day));
            let date = (example.date.year, example.date.month, example.date.day);
            (date, example.source, example.target, spans)
        });
    let fields = Fields {
        year: y.0..y.1,
        month: m.0..m.1,
        day: d.0..d.1,
    };
    (Date { year, month, day }, source, target, fields)
}

/// Every sampled date exists, every day of the month can occur (29 February too), and
/// every example's target is the ISO form of the date its source names.
#[test]
fn every_example_names_a_real_date_and_its_target_is_that_date_in_iso_form() {
    graded(|| {
        let task = DateTask::new();
        let mut rng = seeded_rng(11);
        let mut feb_29 = false;
        let mut day_31 = false;
        for _ in 0..20_000 {
            let date = sample_date(&task, &mut rng, Split::Train);
            assert!(
                exists(date),
                "sample_date gave {:04}-{:02}-{:02}, which does not exist. Likely cause: \
                 days_in_month",
                date.year,
                date.month,
                date.day
            );
            feb_29 |= date.month == 2 && date.day == 29;
            day_31 |= date.day == 31;
        }
        assert!(
            feb_29 && day_31,
            "20000 sampled dates never had {}: days_in_month is too short",
            if feb_29 { "a 31st" } else { "a 29 February" }
        );
        for _ in 0..2000 {
            let (date, source, target, fields) =
                sample_example(&task, &mut rng, Split::Train);
            assert_eq!(
                target,
                format!("{:04}-{:02}-{:02}", date.year, date.month, date.day)
            );
            let source = &source;
            assert_eq!(
                source[fields.year.clone()].parse::<u32>().ok(),
                Some(date.year)
            );
            assert_eq!(
                source[fields.day.clone()].parse::<u32>().ok(),
                Some(date.day)
            );
            let month = &source[fields.month.clone()];
            let named = MONTH_NAMES[date.month as usize - 1];
            assert!(
                month.parse::<u32>().ok() == Some(date.month) || named.starts_with(month),
                "{source:?}: the month field {month:?} is not month {}",
                date.month
            );
        }
    });
}

/// The weekday formats name the right day: 24 June 2046 is a Sunday, 14 March 1899 a
/// Tuesday (Python's datetime).
#[test]
fn weekday_formats_name_the_right_day() {
    graded(|| {
        let task = DateTask::new();
        // Dates as literals: `Date::new` would check them with the lesson's
        // days_in_month.
        let date = |year, month, day| Date { year, month, day };
        let cases = [
            (
                date(2046, 6, 24),
                DateFormat::WeekdayMonthDayYear,
                "sunday june 24 2046",
            ),
            (
                date(2046, 6, 24),
                DateFormat::ShortWeekdayDayShortMonthYear,
                "sun 24 jun 2046",
            ),
            (
                date(1899, 3, 14),
                DateFormat::WeekdayMonthDayYear,
                "tuesday march 14 1899",
            ),
            (
                date(2000, 2, 29),
                DateFormat::ShortWeekdayDayShortMonthYear,
                "tue 29 feb 2000",
            ),
            (
                date(1000, 1, 1),
                DateFormat::WeekdayMonthDayYear,
                "wednesday january 1 1000",
            ),
        ];
        for (date, format, expected) in cases {
            let got = observe("DateTask::example", || task.example(date, format).source);
            assert!(
                got == expected,
                "{format:?} of {}: expected {expected:?}, got {got:?}. Likely cause: \
                 day_of_week (0 must be Monday)",
                date.iso()
            );
        }
    });
}

/// A batch made by the lesson's code (`Batch::new`, `DateTask::batch`), observed: its
/// three fields come back as token lists, held in a `Batch` of the test's own.
fn observed_batch(label: &str, make: impl FnOnce() -> Batch) -> Batch {
    let (src, tgt_in, tgt_out) = observe(label, || {
        let batch = make();
        (batch.src, batch.tgt_in, batch.tgt_out)
    });
    Batch {
        src,
        tgt_in,
        tgt_out,
    }
}

/// Training batches never contain a held-out year; held-out batches contain only those.
#[test]
fn held_out_years_never_appear_in_training_batches() {
    graded(|| {
        let task = DateTask::new();
        assert!(
            task.vocab.len() == 44 && !task.vocab.is_empty(),
            "the date vocabulary has 44 tokens, the special three included"
        );
        assert!(
            Vocabulary::new("").is_empty(),
            "a vocabulary of the special tokens only is empty"
        );
        let mut rng = seeded_rng(5);
        let year_of = |batch: &Batch, b: usize| -> u32 {
            task.vocab
                .decode(&batch.tgt_out[b][..4])
                .parse()
                .unwrap_or(0)
        };
        for _ in 0..30 {
            let batch = observed_batch("DateTask::batch", || {
                task.batch(&mut rng, 64, Split::Train)
            });
            for b in 0..batch.len() {
                let year = year_of(&batch, b);
                assert!(
                    !HELDOUT_YEARS.contains(&year),
                    "a training batch holds the held-out year {year}: the model would \
                     see the years it is evaluated on"
                );
            }
        }
        let batch = observed_batch("DateTask::batch", || {
            task.batch(&mut rng, 64, Split::HeldOut)
        });
        for b in 0..batch.len() {
            let year = year_of(&batch, b);
            assert!(
                HELDOUT_YEARS.contains(&year),
                "a held-out batch holds {year}, which is not a held-out year (or the \
                 batch's tgt_out does not start with the target)"
            );
        }
    });
}

/// The decoder reads `BOS y_1 … y_n` and predicts `y_1 … y_n EOS`: the target shifted
/// right by one, every row padded with PAD to the longest.
#[test]
fn batch_shifts_the_target_for_teacher_forcing_and_pads() {
    graded(|| {
        let batch = observed_batch("Batch::new", || {
            Batch::new(&[(vec![3, 4, 5], vec![6, 7]), (vec![8], vec![9, 10, 11])])
        });
        assert!(
            batch.len() == 2 && !batch.is_empty() && batch.target_len() == 4,
            "a batch of 2 pairs whose longest target has 3 tokens: len() 2, target_len() 4"
        );
        let empty = Batch {
            src: Vec::new(),
            tgt_in: Vec::new(),
            tgt_out: Vec::new(),
        };
        assert!(empty.is_empty(), "a batch with no pairs is empty");
        let expected = Batch {
            src: vec![vec![3, 4, 5], vec![8, PAD, PAD]],
            tgt_in: vec![vec![BOS, 6, 7, PAD], vec![BOS, 9, 10, 11]],
            tgt_out: vec![vec![6, 7, EOS, PAD], vec![9, 10, 11, EOS]],
        };
        assert!(
            batch.src == expected.src,
            "Batch::new's src: expected {:?}, got {:?}. Every source is padded with PAD \
             (token 0) to the longest source.",
            expected.src,
            batch.src
        );
        assert!(
            batch.tgt_in == expected.tgt_in,
            "Batch::new's tgt_in: expected {:?}, got {:?}. The decoder's input is BOS \
             followed by the target (the target shifted right), padded to the longest \
             target plus one. Starting from PAD instead of BOS is the Annotated \
             Transformer's issue #127.",
            expected.tgt_in,
            batch.tgt_in
        );
        assert!(
            batch.tgt_out == expected.tgt_out,
            "Batch::new's tgt_out: expected {:?}, got {:?}. What the decoder must predict \
             is the target followed by EOS, padded: position t predicts the token after \
             tgt_in[..=t].",
            expected.tgt_out,
            batch.tgt_out
        );
    });
}

// ---------------------------------------------------------------------------------------
// Masks
// ---------------------------------------------------------------------------------------

/// Every query may look at every real token and at no padding.
#[test]
fn key_padding_mask_hides_padding_from_every_query() {
    graded(|| {
        let got = observe("key_padding_mask", || {
            key_padding_mask(2, &[5, 3, PAD, 4, PAD])
        });
        let expected = array![
            [true, true, false, true, false],
            [true, true, false, true, false]
        ];
        assert!(
            got == expected,
            "key_padding_mask(2, [5, 3, PAD, 4, PAD]) should be\n{expected:?}\ngot\n{got:?}\n\
             Likely cause: one row per query, one column per key, false exactly where the \
             key is PAD (token 0)."
        );
    });
}

/// Position i of the decoder sees positions 0..=i that are not padding.
#[test]
fn target_mask_is_causal_and_hides_padding() {
    graded(|| {
        let got = observe("target_mask", || target_mask(&[BOS, 4, 5, PAD, PAD]));
        let expected = array![
            [true, false, false, false, false],
            [true, true, false, false, false],
            [true, true, true, false, false],
            [true, true, true, false, false],
            [true, true, true, false, false]
        ];
        let padding_only = observe("key_padding_mask", || {
            key_padding_mask(5, &[BOS, 4, 5, PAD, PAD])
        });
        let hint = if got == padding_only {
            "this is only the padding mask: without the causal part, position i sees the \
             tokens it must predict"
        } else if got.diag().iter().any(|&d| !d) && got.iter().filter(|&&m| m).count() > 5
        {
            "the mask is upper-triangular or excludes the diagonal: position i must see \
             positions 0..=i, itself included"
        } else {
            "combine lesson 02's causal_mask(T) and key_padding_mask(T, tgt_in) with &"
        };
        assert!(
            got == expected,
            "target_mask([BOS, 4, 5, PAD, PAD]) should be\n{expected:?}\ngot\n{got:?}\n\
             Likely cause: {hint}."
        );
    });
}

// ---------------------------------------------------------------------------------------
// Initialisation
// ---------------------------------------------------------------------------------------

fn mean_and_std(m: &Matrix) -> (Float, Float) {
    let n = m.len() as Float;
    let mean = m.sum() / n;
    let var = m.iter().map(|v| (v - mean) * (v - mean)).sum::<Float>() / n;
    (mean, var.sqrt())
}

/// Xavier-uniform: every entry in (−a, a) with a = √(6/(fan_in + fan_out)), spread
/// uniformly (standard deviation a/√3), different from entry to entry.
#[test]
fn xavier_uniform_has_the_right_range_and_spread() {
    graded(|| {
        let mut rng = seeded_rng(3);
        let w = observe("xavier_uniform", || xavier_uniform(200, 300, &mut rng));
        assert_same_shape("xavier_uniform(200, 300)", &w, (200, 300));
        let a = (6.0 / 500.0 as Float).sqrt();
        let largest = w.iter().fold(0.0 as Float, |m, v| m.max(v.abs()));
        assert!(
            largest <= a,
            "xavier_uniform(200, 300): an entry is {largest:.4}, outside (−a, a) with \
             a = √(6 / (fan_in + fan_out)) = √(6/500) = {a:.4}. Likely cause: a computed \
             from one fan only, or without the 6."
        );
        let (mean, std) = mean_and_std(&w);
        assert!(
            mean.abs() < 0.01 * a,
            "xavier_uniform: the mean of 60000 entries is {mean:.5}; it should be near 0 \
             (draw from −a to a, not from 0 to a)"
        );
        let expected = a / (3.0 as Float).sqrt();
        assert!(
            (std - expected).abs() < 0.02 * expected,
            "xavier_uniform: the standard deviation is {std:.5}, expected a/√3 = \
             {expected:.5} for a uniform distribution on (−a, a)"
        );
        let rows_differ = w.row(0) != w.row(1);
        assert!(
            rows_differ,
            "xavier_uniform: rows 0 and 1 are equal: draw every entry"
        );
    });
}

/// The embedding starts with entries of standard deviation 1/√d_model, normally
/// distributed: after lesson 04's ×√d_model they are about N(0, 1).
#[test]
fn embedding_init_has_standard_deviation_one_over_sqrt_d_model() {
    graded(|| {
        let mut rng = seeded_rng(4);
        let e = observe("embedding_init", || embedding_init(500, 64, &mut rng));
        assert_same_shape("embedding_init(500, 64)", &e, (500, 64));
        let (mean, std) = mean_and_std(&e);
        assert!(
            (std - 0.125).abs() < 0.004,
            "embedding_init(500, 64): the standard deviation is {std:.4}, expected \
             1/√64 = 0.125.{}",
            if (std - 1.0).abs() < 0.05 {
                " Likely cause: N(0, 1), PyTorch's nn.Embedding default; times √d_model \
                 the embeddings would be 8 times the positional encoding and drown it \
                 (lesson 04)"
            } else {
                ""
            }
        );
        assert!(
            mean.abs() < 0.004,
            "embedding_init: the mean is {mean:.4}, expected 0"
        );
        let within =
            e.iter().filter(|v| v.abs() <= 0.125).count() as Float / e.len() as Float;
        assert!(
            (within - 0.6827).abs() < 0.02,
            "embedding_init: {:.1} % of the entries are within one standard deviation; \
             a normal distribution has 68.3 % (a uniform one 57.7 %): use \
             standard_normal",
            100.0 * within
        );
    });
}

// ---------------------------------------------------------------------------------------
// The forward pass
// ---------------------------------------------------------------------------------------

/// The logits of a whole tiny Transformer (two encoder and two decoder layers, padded
/// source and target) equal PyTorch's.
#[test]
fn the_tiny_model_s_logits_match_pytorch() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let (logits, decoder_output, encoder_passes, decoder_passes) =
            observe("Transformer::forward", || {
                let forward = model.forward(&tiny_batch());
                (
                    forward.logits,
                    forward.decoder_output,
                    forward.encoder.len(),
                    forward.decoder.len(),
                )
            });
        let [
            no_scale,
            no_positions,
            no_causal,
            no_encoder_mask,
            no_cross_mask,
            same_input,
        ] = [
            "no_scale",
            "no_positions",
            "no_causal_mask",
            "no_encoder_mask",
            "no_cross_mask",
            "same_input",
        ]
        .map(|mistake| REFERENCE.matrix(&format!("tiny_model_logits_{mistake}")));
        let misconceptions = [
            Misconception {
                cause: &NO_EMBEDDING_SCALE,
                result: no_scale,
            },
            Misconception {
                cause: &NO_POSITIONS,
                result: no_positions,
            },
            Misconception {
                cause: &NO_CAUSAL_MASK,
                result: no_causal,
            },
            Misconception {
                cause: &NO_ENCODER_MASK,
                result: no_encoder_mask,
            },
            Misconception {
                cause: &NO_CROSS_MASK,
                result: no_cross_mask,
            },
            Misconception {
                cause: &SAME_INPUT,
                result: same_input,
            },
        ];
        assert_matrix_close(
            "the tiny model's logits (B·T, vocab)",
            &logits,
            &REFERENCE.matrix("tiny_model_logits"),
            TORCH,
            &misconceptions,
        );
        assert_same_shape("decoder_output", &decoder_output, (8, 4));
        assert!(
            model.parameter_count() == 883,
            "the tiny model has 883 learned numbers (PyTorch counts the same), \
             parameter_count says {}",
            model.parameter_count()
        );
        assert!(
            encoder_passes == 2 && decoder_passes == 2,
            "ModelForward keeps one encoder and one decoder pass per pair of the batch"
        );
    });
}

/// Row b·T + t of the logits is position t of pair b: a batch gives each pair the rows it
/// gets alone.
#[test]
fn a_batch_gives_each_pair_the_logits_it_gets_alone() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let batch = tiny_batch();
        let together = logits_of(&model, &batch);
        for b in 0..2 {
            let alone = logits_of(
                &model,
                &one_pair(&batch.src[b], &batch.tgt_in[b], &batch.tgt_out[b]),
            );
            assert_matrix_close(
                &format!(
                    "rows {}..{} of the batch's logits (pair {b} alone)",
                    4 * b,
                    4 * b + 4
                ),
                &together.slice(s![4 * b..4 * b + 4, ..]).to_owned(),
                &alone,
                Tol {
                    abs: 1e-12,
                    rel: 1e-12,
                },
                &[],
            );
        }
    });
}

/// Changing the decoder's inputs after position t changes no logit of positions 0..=t.
#[test]
fn the_decoder_cannot_see_the_future() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let src = [3, 4, 5, 6];
        let base = logits_of(
            &model,
            &one_pair(&src, &[BOS, 4, 6, 5, 3], &[4, 6, 5, 3, EOS]),
        );
        let changed = logits_of(
            &model,
            &one_pair(&src, &[BOS, 4, 3, 3, 6], &[4, 3, 3, 6, EOS]),
        );
        assert_matrix_close(
            "logits of positions 0 and 1 when the inputs at positions 2 to 4 change",
            &changed.slice(s![..2, ..]).to_owned(),
            &base.slice(s![..2, ..]).to_owned(),
            EXACT,
            &[],
        );
        let moved = (&changed.row(2) - &base.row(2)).mapv(Float::abs).sum();
        assert!(
            moved > 1e-6,
            "position 2's logits did not change when its own input changed"
        );
    });
}

/// Padding added to a source and a target changes nothing at the real positions.
#[test]
fn padding_changes_nothing_at_the_real_positions() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let alone = logits_of(&model, &one_pair(&[5, 3], &[BOS, 6], &[6, EOS]));
        let padded = logits_of(
            &model,
            &one_pair(
                &[5, 3, PAD, PAD, PAD],
                &[BOS, 6, PAD, PAD],
                &[6, EOS, PAD, PAD],
            ),
        );
        assert_matrix_close(
            "the logits of [5 3] → [6] with and without padding",
            &padded.slice(s![..2, ..]).to_owned(),
            &alone,
            Tol {
                abs: 1e-10,
                rel: 1e-10,
            },
            &[],
        );
    });
}

/// At initialisation the model knows nothing: the loss is about ln V (within ±0.7).
#[test]
fn the_loss_at_initialisation_is_close_to_ln_vocab() {
    graded(|| {
        let config = Config {
            vocab_size: 44,
            d_model: 16,
            n_heads: 2,
            d_ff: 32,
            n_layers: 1,
            max_len: 32,
            norm_position: NormPosition::Post,
        };
        let pairs: Vec<(Vec<usize>, Vec<usize>)> = (0..8)
            .map(|p| {
                let src = (0..10).map(|i| 3 + (p * 7 + i * 5) % 41).collect();
                let tgt = (0..6).map(|i| 3 + (p * 11 + i * 3) % 41).collect();
                (src, tgt)
            })
            .collect();
        let batch = Batch {
            src: pairs.iter().map(|(s, _)| s.clone()).collect(),
            tgt_in: pairs
                .iter()
                .map(|(_, t)| std::iter::once(BOS).chain(t.iter().copied()).collect())
                .collect(),
            tgt_out: pairs
                .iter()
                .map(|(_, t)| t.iter().copied().chain(std::iter::once(EOS)).collect())
                .collect(),
        };
        let ln_v = (44.0 as Float).ln();
        for seed in 0..4 {
            // Transformer::new draws with the lesson's initialisers.
            let model = object("Transformer::new", || Transformer::new(config, seed));
            let loss = observe("Transformer::forward (loss)", || {
                loss_value(&model, &batch, 0.0)
            });
            assert!(
                (loss - ln_v).abs() <= 0.7,
                "the loss of a freshly initialised model (seed {seed}) is {loss:.3}, but \
                 ln V = {ln_v:.3}: a model that knows nothing spreads its probability \
                 over the V tokens, so the loss should be within ±0.7 of ln V. Likely \
                 cause: weights initialised too large (xavier_uniform), or a loss that is \
                 summed instead of averaged over the tokens"
            );
        }
    });
}

// ---------------------------------------------------------------------------------------
// The loss
// ---------------------------------------------------------------------------------------

/// `cross_entropy_loss`, observed: its value, gradient and token count come back as
/// course values, held in a `Loss` of the test's own.
fn cross_entropy(logits: &Matrix, targets: &[usize], smoothing: Float) -> Loss {
    let (value, d_logits, tokens) = observe("cross_entropy_loss", || {
        let loss = cross_entropy_loss(logits, targets, smoothing);
        (loss.value, loss.d_logits, loss.tokens)
    });
    Loss {
        value,
        d_logits,
        tokens,
    }
}

/// PyTorch's smoothing: gold gets 1 − ε + ε/V, every other class ε/V, padding rows 0.
#[test]
fn smoothed_targets_follow_pytorch_s_definition() {
    graded(|| {
        let got = observe("smoothed_targets", || {
            smoothed_targets(&[2, 1, PAD, 3], 5, 0.4)
        });
        let expected = array![
            [0.08, 0.08, 0.68, 0.08, 0.08],
            [0.08, 0.68, 0.08, 0.08, 0.08],
            [0.0, 0.0, 0.0, 0.0, 0.0],
            [0.08, 0.08, 0.08, 0.68, 0.08]
        ];
        // The Annotated Transformer's smoothing, ε/(V − 1) over the other classes, a
        // smoothed PAD row.
        let mistakes = smoothing_mistakes(&[2, 1, PAD, 3], 5, 0.4);
        assert_matrix_close(
            "smoothed_targets([2, 1, PAD, 3], V = 5, ε = 0.4)",
            &got,
            &expected,
            Tol::TIGHT,
            &mistakes,
        );
    });
}

/// PyTorch's example: logits [2, 1, 0], gold class the first, ε = 0.1 → 0.5076 (the
/// columns are rotated here so that the gold class is not PAD).
#[test]
fn label_smoothed_loss_matches_pytorch_s_example() {
    graded(|| {
        let logits = array![[0.0, 2.0, 1.0]];
        let smoothed = cross_entropy(&logits, &[1], 0.1);
        assert_close(
            "cross_entropy_loss([[0, 2, 1]], [1], ε = 0.1)",
            smoothed.value,
            REFERENCE.scalar("example_loss"),
            Tol::TIGHT,
        );
        let plain = cross_entropy(&logits, &[1], 0.0);
        assert_close(
            "cross_entropy_loss([[0, 2, 1]], [1], ε = 0) = −log softmax = ln(1 + e + e²) − 2",
            plain.value,
            REFERENCE.scalar("example_loss_without_smoothing"),
            Tol::TIGHT,
        );
        assert!(
            smoothed.tokens == 1,
            "one target that is not padding: tokens should be 1"
        );
    });
}

/// The loss is the mean over the rows whose target is not PAD; padding rows add nothing
/// and get a zero gradient.
#[test]
fn the_loss_averages_over_real_tokens_and_ignores_padding() {
    graded(|| {
        let logits = linspace_matrix(4, 5, -1.5, 2.0);
        let targets = [2, 4, PAD, 3];
        let loss = cross_entropy(&logits, &targets, 0.2);
        let all_rows = REFERENCE.scalar("padded_loss_over_all_rows");
        assert!(
            (loss.value - all_rows).abs() > 1e-6,
            "the loss is {}, the mean over all 4 rows: divide by the number of targets \
             that are not padding (3), not by the number of rows",
            loss.value
        );
        // F.cross_entropy(logits, targets, ignore_index=0, label_smoothing=0.2).
        assert_close(
            "the loss with a padding row",
            loss.value,
            REFERENCE.scalar("padded_loss"),
            Tol::TIGHT,
        );
        assert!(
            loss.tokens == 3,
            "tokens should be 3 (the rows not PAD), got {}",
            loss.tokens
        );
        let expected = REFERENCE.matrix("padded_loss_d_logits");
        // The padding row's gradient kept, the gradient divided by the number of rows.
        let mistakes = loss_gradient_mistakes(&logits, &targets, 0.2);
        assert_matrix_close(
            "d loss / d logits with a padding row",
            &loss.d_logits,
            &expected,
            Tol::TIGHT,
            &mistakes,
        );
    });
}

/// The gradient of the loss agrees with central differences, with smoothing and padding.
#[test]
fn the_loss_gradient_matches_central_differences() {
    graded(|| {
        let logits = linspace_matrix(5, 6, 1.3, -2.2);
        let targets = [3, 1, PAD, 5, 2];
        let analytic = cross_entropy(&logits, &targets, 0.1).d_logits;
        let numerical = numerical_gradient(
            |l| {
                observe("cross_entropy_loss(..).value", || {
                    cross_entropy_loss(l, &targets, 0.1).value
                })
            },
            &logits,
            STEP,
        );
        assert_gradient_close(
            "d loss / d logits",
            &analytic,
            &numerical,
            &gradient_hint(
                "the gradient of cross-entropy over a softmax is (p − q)/N: the \
             predicted probabilities minus the smoothed targets, divided by the number of \
             real tokens, and 0 on padding rows",
            ),
        );
    });
}

/// Logits of 1000 do not overflow: the log-softmax subtracts each row's maximum.
#[test]
fn the_loss_is_stable_for_huge_logits() {
    graded(|| {
        let logits = array![[1000.0, 999.0, 998.0], [-1000.0, 0.0, 1000.0]];
        let loss = cross_entropy(&logits, &[1, 2], 0.0);
        assert!(
            loss.value.is_finite(),
            "the loss of logits near ±1000 is {}: {LOG_SOFTMAX_OVERFLOW}",
            loss.value
        );
        // Row 0: ln(1 + e + e²) − 1; row 1: ln(1 + e^-1000 + e^-2000) ≈ 0.
        let expected = ((1.0 as Float) + 1.0_f64.exp() + 2.0_f64.exp()).ln() - 1.0;
        assert_close(
            "the loss of huge logits",
            loss.value,
            expected / 2.0,
            Tol::TIGHT,
        );
        assert_all_finite(
            "d_logits of huge logits",
            &loss.d_logits,
            "subtract the row maximum",
        );
    });
}

// ---------------------------------------------------------------------------------------
// The backward pass
// ---------------------------------------------------------------------------------------

/// Checks the analytic gradient of every tensor (`analytic`, the gradient model's
/// tensors in `Transformer::parameters`' order) against central differences of `loss`,
/// at a few entries of each (all of them for small tensors).
fn check_every_tensor(
    what: &str,
    model: &Transformer,
    analytic: &[Vec<Float>],
    loss: &dyn Fn(&Transformer) -> Float,
    only: &dyn Fn(&str) -> bool,
) {
    let names = parameter_names(&model.config);
    let mut probe = model.clone();
    for (k, (name, _)) in names.iter().enumerate() {
        if !only(name) {
            continue;
        }
        let len = analytic[k].len();
        let mut entries: Vec<usize> = if len <= 6 {
            (0..len).collect()
        } else {
            vec![0, len / 3, 2 * len / 3, len - 1]
        };
        entries.dedup();
        let mut numerical = Vec::new();
        let mut mine = Vec::new();
        for &i in &entries {
            let original = probe.parameters()[k][i];
            probe.parameters_mut()[k][i] = original + STEP;
            let plus = loss(&probe);
            probe.parameters_mut()[k][i] = original - STEP;
            let minus = loss(&probe);
            probe.parameters_mut()[k][i] = original;
            numerical.push((plus - minus) / (2.0 * STEP));
            mine.push(analytic[k][i]);
        }
        let (n, a) = (row(&numerical), row(&mine));
        let largest_difference =
            (&n - &a).iter().fold(0.0 as Float, |m, v| m.max(v.abs()));
        if largest_difference > 1e-8 && relative_error(&a, &n) > 1e-6 {
            assert_gradient_close(
                &format!("{what}: the gradient of {name} (entries {entries:?})"),
                &a,
                &n,
                &gradient_hint(&ADD_NEVER_ASSIGN),
            );
        }
    }
}

/// The encoder's backward pass (through both layers and into the source embedding)
/// agrees with central differences.
#[test]
fn encode_backward_matches_central_differences() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let src = [5, 3, 6, PAD];
        let upstream = linspace_matrix(4, 4, 0.9, -0.7);
        // The lesson's code adds into the gradient model: its tensors come back.
        let grads = observe("Transformer::encode_backward", || {
            let forward = model.encode(&src);
            let mut grads = Transformer::zeros(tiny_config());
            model.encode_backward(&src, &forward, &upstream, &mut grads);
            tensors(&grads)
        });
        let loss = |m: &Transformer| {
            let memory = observe("Transformer::encode", || m.encode(&src).output);
            weighted_sum(&memory, &upstream)
        };
        check_every_tensor("encode_backward", &model, &grads, &loss, &|name| {
            name.starts_with("encoder") || name.starts_with("src_embedding")
        });
    });
}

/// The decoder's backward pass agrees with central differences, for its parameters and
/// for the memory it read.
#[test]
fn decode_backward_matches_central_differences() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let (src, tgt_in) = ([5, 3, 6, PAD], [BOS, 4, 4, 6]);
        let memory = linspace_matrix(4, 4, -1.1, 1.3);
        let upstream = linspace_matrix(4, 4, 0.6, -0.8);
        // The lesson's code adds into the gradient model: its tensors come back.
        let (d_memory, grads) = observe("Transformer::decode_backward", || {
            let forward = model.decode(&tgt_in, &src, &memory);
            let mut grads = Transformer::zeros(tiny_config());
            let d_memory =
                model.decode_backward(&tgt_in, &memory, &forward, &upstream, &mut grads);
            (d_memory, tensors(&grads))
        });
        let decoded = |m: &Transformer, mem: &Matrix| {
            observe("Transformer::decode", || {
                m.decode(&tgt_in, &src, mem).output
            })
        };
        let numerical = numerical_gradient(
            |mem| weighted_sum(&decoded(&model, mem), &upstream),
            &memory,
            STEP,
        );
        assert_gradient_close(
            "decode_backward's gradient of the memory",
            &d_memory,
            &numerical,
            &gradient_hint(&SUM_OF_D_MEMORY),
        );
        let loss = |m: &Transformer| weighted_sum(&decoded(m, &memory), &upstream);
        check_every_tensor("decode_backward", &model, &grads, &loss, &|name| {
            name.starts_with("decoder") || name.starts_with("tgt_embedding")
        });
    });
}

/// The whole model's loss and its gradient on the tiny batch (label smoothing, padding,
/// two layers each), for `config`.
fn whole_model_gradient_check(config: Config, what: &str, only: &dyn Fn(&str) -> bool) {
    let model = deterministic_model(config);
    let batch = tiny_batch();
    let grads = observe("Transformer::backward", || {
        let forward = model.forward(&batch);
        let loss = cross_entropy_loss(&forward.logits, &batch.targets(), 0.1);
        tensors(&model.backward(&batch, &forward, &loss.d_logits))
    });
    check_every_tensor(
        what,
        &model,
        &grads,
        &|m: &Transformer| loss_of(m, &batch, 0.1),
        only,
    );
}

/// The gradient of the whole model's loss agrees with central differences for every
/// tensor of the encoder side: the source embedding and both encoder layers.
#[test]
fn the_whole_model_s_gradient_matches_central_differences_on_the_encoder_side() {
    graded(|| {
        whole_model_gradient_check(tiny_config(), "Transformer::backward", &|name| {
            name.starts_with("src_embedding") || name.starts_with("encoder")
        });
    });
}

/// The same for every tensor of the decoder side: the target embedding, both decoder
/// layers and the output projection.
#[test]
fn the_whole_model_s_gradient_matches_central_differences_on_the_decoder_side() {
    graded(|| {
        whole_model_gradient_check(tiny_config(), "Transformer::backward", &|name| {
            !name.starts_with("src_embedding") && !name.starts_with("encoder")
        });
    });
}

/// With pre-LN layers, whose backward pass reads the layer's input, the gradients of the
/// first LayerNorms and of everything below them agree with central differences: each
/// layer's backward must get the input that layer had (the layer below's output).
#[test]
fn the_gradient_of_a_pre_ln_model_matches_central_differences() {
    graded(|| {
        let mut config = tiny_config();
        config.norm_position = NormPosition::Pre;
        whole_model_gradient_check(config, "Transformer::backward (pre-LN)", &|name| {
            name.ends_with("embedding.weight")
                || name.contains("norm_1.")
                || name.starts_with("encoder[0].self_attention.w_v")
                || name.starts_with("decoder[0].self_attention.w_v")
        });
    });
}

/// Four of the tiny model's gradients equal PyTorch's autograd.
#[test]
fn the_tiny_model_s_gradients_match_pytorch() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let batch = tiny_batch();
        let forward = object("Transformer::forward", || model.forward(&batch));
        let loss = object("cross_entropy_loss", || {
            cross_entropy_loss(&forward.logits, &batch.targets(), 0.1)
        });
        assert_close(
            "the tiny model's loss (ε = 0.1)",
            observe("cross_entropy_loss (value)", || loss.value),
            REFERENCE.scalar("tiny_model_loss"),
            TORCH,
        );
        let got = observe("Transformer::backward", || {
            tensors(&model.backward(&batch, &forward, &loss.d_logits))
        });
        for (k, name, note) in CHECKED_TENSORS {
            assert_matrix_close(
                &format!("the gradient of {name}{note}, flattened"),
                &row(&got[k]),
                &row(&REFERENCE.vector(&format!("gradient of {name}")).to_vec()),
                TORCH,
                &[],
            );
        }
    });
}

// ---------------------------------------------------------------------------------------
// The optimiser
// ---------------------------------------------------------------------------------------

/// lr = factor · d^−0.5 · min(step^−0.5, step · warmup^−1.5): the paper's numbers.
#[test]
fn noam_rate_matches_the_paper_s_numbers() {
    graded(|| {
        let cases = [
            ((1, 512, 4000, 1.0), "step 1"),
            ((4000, 512, 4000, 1.0), "the peak, step = warmup"),
            ((20000, 512, 4000, 1.0), "step 20000, decaying as 1/√step"),
            ((0, 512, 4000, 1.0), "step 0 is treated as step 1"),
            ((2000, 512, 4000, 1.0), "half-way up the warm-up"),
            ((4000, 256, 4000, 1.0), "d_model 256"),
            ((400, 512, 400, 0.5), "factor 0.5, warm-up 400"),
        ];
        // The schedule written out in Python, for each case in this order.
        let rates = REFERENCE.vector("noam_rate");
        assert!(rates.len() == cases.len(), "a rate per case");
        for (((step, d_model, warmup, factor), what), expected) in
            cases.into_iter().zip(rates)
        {
            let got = observe("noam_rate", || noam_rate(step, d_model, warmup, factor));
            let close = Tol {
                abs: 1e-15,
                rel: 1e-9,
            };
            assert!(
                close.accepts(got, expected),
                "noam_rate({step}, {d_model}, {warmup}, {factor}) ({what}): expected \
                 {expected:e}, got {got:e}. Likely cause: {}",
                noam_cause(got, step, d_model, warmup, factor)
            );
        }
        // The date experiment's schedule: peak 3e-3 at step 100 (noam(100, 32, 100, factor)).
        let factor = noam_factor(3e-3, 32, 100);
        let peak = observe("noam_rate", || noam_rate(100, 32, 100, factor));
        assert!(
            (peak - 3e-3).abs() < 1e-12,
            "noam_rate(100, 32, 100, noam_factor(3e-3, 32, 100)) should be the peak, 3e-3, \
             got {peak:e}"
        );
        let dates = TrainConfig::dates();
        for (step, expected) in [(1, 3e-5), (100, 3e-3), (400, 1.5e-3)] {
            let got = observe("TrainConfig::learning_rate", || {
                dates.learning_rate(step, 32)
            });
            assert!(
                (got - expected).abs() < 1e-12,
                "TrainConfig::dates().learning_rate({step}, 32): expected {expected:e}, got {got:e}"
            );
        }
    });
}

/// Clipping scales every tensor by the same factor max_norm/‖g‖, with the norm over all
/// tensors at once, and returns the norm before clipping.
#[test]
fn clipping_scales_every_tensor_by_the_same_factor() {
    graded(|| {
        let (mut a, mut b) = (vec![3.0, 4.0], vec![12.0]);
        // The tensors are scaled in place: they come back with the norm.
        let (norm, a, b) = observe("clip_global_norm", || {
            let norm = clip_global_norm(&mut [&mut a[..], &mut b[..]], 1.0);
            (norm, a.clone(), b.clone())
        });
        assert_close(
            "the norm returned by clip_global_norm",
            norm,
            13.0,
            Tol::TIGHT,
        );
        let got = row(&[a[0], a[1], b[0]]);
        assert_matrix_close(
            "[3, 4] and [12] clipped to a global norm of 1",
            &got,
            &row(&[3.0 / 13.0, 4.0 / 13.0, 12.0 / 13.0]),
            Tol {
                abs: 1e-9,
                rel: 1e-6,
            },
            &clip_mistakes(&[&[3.0, 4.0], &[12.0]], 1.0),
        );
        let (mut c, mut d) = (vec![0.3, -0.4], vec![0.0]);
        let (small, c, d) = observe("clip_global_norm", || {
            let norm = clip_global_norm(&mut [&mut c[..], &mut d[..]], 1.0);
            (norm, c.clone(), d.clone())
        });
        assert_close("the norm of [0.3, −0.4], [0]", small, 0.5, Tol::TIGHT);
        assert!(
            c == [0.3, -0.4] && d == [0.0],
            "a gradient whose norm (0.5) is below max_norm (1) must not change, got {c:?}, {d:?}"
        );
    });
}

/// torch.optim.Adam(lr 0.1, betas (0.9, 0.98), eps 1e-9), three steps.
#[test]
fn adam_matches_pytorch_for_three_steps() {
    graded(|| {
        let mut params = vec![1.0, -2.0, 0.5];
        // The lesson's update changes the optimiser's state and the parameters in
        // place: the optimiser is used inside observed calls only, and the
        // parameters come back from each update.
        let mut adam = object("Adam::new", || Adam::new(&[&params[..]]));
        let grads = [[0.1, -0.3, 0.0], [0.2, 0.1, -0.05], [-0.1, 0.2, 0.3]];
        // The parameters after each step, a row per step.
        let expected = REFERENCE.matrix("adam_steps");
        let no_correction = REFERENCE.matrix("adam_steps_without_bias_correction");
        let eps_inside = adam_eps_inside_the_root(
            &params,
            &[&grads[0][..], &grads[1][..], &grads[2][..]],
            0.1,
        );
        for t in 0..3 {
            let updated = observe("Adam::update", || {
                adam.update(&mut [&mut params[..]], &[&grads[t][..]], 0.1);
                params.clone()
            });
            let mut misconceptions = vec![Misconception {
                cause: &NO_BIAS_CORRECTION,
                result: no_correction.slice(s![t..=t, ..]).to_owned(),
            }];
            // ε inside the root moves these parameters by only ~1e-9, less than the
            // 1e-6 within which a misconception is recognised: name it only when the
            // result is that one to the last digits.
            let wrong = row(&eps_inside[t]);
            let updated_row = row(&updated);
            if (&updated_row - &wrong).iter().all(|d| d.abs() <= 1e-14) {
                misconceptions.insert(
                    0,
                    Misconception {
                        cause: &EPS_INSIDE_THE_ROOT,
                        result: wrong,
                    },
                );
            }
            assert_matrix_close(
                &format!("the parameters after Adam step {}", t + 1),
                &updated_row,
                &expected.slice(s![t..=t, ..]).to_owned(),
                Tol {
                    abs: 1e-12,
                    rel: 1e-12,
                },
                &misconceptions,
            );
        }
        let step = observe("Adam::step", || adam.step);
        assert!(
            step == 3,
            "Adam::step should count the updates: 3, got {step}"
        );
    });
}

/// With bias correction, Adam's first step moves every parameter by almost exactly lr
/// against the sign of its gradient, whatever the gradient's size.
#[test]
fn adam_s_first_step_moves_each_parameter_by_the_learning_rate() {
    graded(|| {
        let mut params = vec![0.0, 0.0, 0.0, 0.0];
        let mut adam = object("Adam::new", || Adam::new(&[&params[..]]));
        // The parameters are updated in place: they come back from the call.
        let updated = observe("Adam::update", || {
            adam.update(
                &mut [&mut params[..]],
                &[&[1000.0, -1e-3, 5.0, 0.0][..]],
                0.01,
            );
            params.clone()
        });
        let eps_inside = adam_eps_inside_the_root(
            &[0.0, 0.0, 0.0, 0.0],
            &[&[1000.0, -1e-3, 5.0, 0.0][..]],
            0.01,
        );
        assert_matrix_close(
            "the parameters after one Adam step with gradients [1000, −0.001, 5, 0]",
            &row(&updated),
            &row(&[-0.01, 0.01, -0.01, 0.0]),
            Tol {
                abs: 1e-8,
                rel: 0.0,
            },
            &[Misconception {
                cause: &EPS_INSIDE_THE_ROOT,
                result: row(&eps_inside[0]),
            }],
        );
    });
}

// ---------------------------------------------------------------------------------------
// Training
// ---------------------------------------------------------------------------------------

/// One training step of the tiny model (loss with ε = 0.1, backward, clip to 1, Adam with
/// lr 0.01) gives PyTorch's loss, gradient norm and new parameters.
#[test]
fn one_training_step_matches_pytorch() {
    graded(|| {
        let mut model = deterministic_model(tiny_config());
        let mut adam = object("Adam::new", || Adam::new(&model.parameters()));
        // The step changes the model (and the optimiser) in place: the report and the
        // model's new tensors come back from the call.
        let (loss, grad_norm, tokens, got) = observe("train_step", || {
            let report = train_step(&mut model, &mut adam, &tiny_batch(), 0.01, 1.0, 0.1);
            (
                report.loss,
                report.grad_norm,
                report.tokens,
                tensors(&model),
            )
        });
        assert_close(
            "the step's loss (before the update)",
            loss,
            REFERENCE.scalar("tiny_model_loss"),
            TORCH,
        );
        assert_close(
            "the gradient norm before clipping",
            grad_norm,
            REFERENCE.scalar("tiny_model_gradient_norm"),
            TORCH,
        );
        assert!(
            tokens == 6,
            "the batch has 6 target tokens, the report says {tokens}"
        );
        for (k, name, _) in CHECKED_TENSORS {
            assert_matrix_close(
                &format!("{name} after one training step"),
                &row(&got[k]),
                &row(&REFERENCE.vector(&format!("{name} after one step")).to_vec()),
                TORCH,
                &[],
            );
        }
    });
}

/// A small model learns four pairs by heart in 60 steps: the whole training loop works.
#[test]
fn a_tiny_batch_is_learned_by_heart() {
    graded(|| {
        let config = Config {
            vocab_size: 12,
            d_model: 16,
            n_heads: 2,
            d_ff: 32,
            n_layers: 1,
            max_len: 16,
            norm_position: NormPosition::Post,
        };
        let batch = Batch {
            src: vec![
                vec![3, 4, 5, 6, 7],
                vec![8, 9, 10, 11, PAD],
                vec![5, 3, 9, PAD, PAD],
                vec![11, 7, 4, 3, 8],
            ],
            tgt_in: vec![
                vec![BOS, 7, 6, 5, 4],
                vec![BOS, 11, 10, 9, 8],
                vec![BOS, 9, 3, 5, PAD],
                vec![BOS, 8, 3, 4, 7],
            ],
            tgt_out: vec![
                vec![7, 6, 5, 4, EOS],
                vec![11, 10, 9, 8, EOS],
                vec![9, 3, 5, EOS, PAD],
                vec![8, 3, 4, 7, EOS],
            ],
        };
        let mut model = object("Transformer::new", || Transformer::new(config, 0));
        let settings = TrainConfig {
            steps: 60,
            batch_size: 4,
            peak_lr: 0.01,
            warmup: 10,
            clip_norm: 1.0,
            label_smoothing: 0.0,
            beta1: 0.9,
            beta2: 0.98,
            adam_eps: 1e-9,
        };
        // The loop changes the model and calls `on_step` in the lesson's code: each
        // report's step and loss, and the number of calls, come back.
        let (steps, losses, seen) = observe("train", || {
            let mut seen: usize = 0;
            let reports = train(&mut model, &settings, |_| batch.clone(), |_| seen += 1);
            let steps: Vec<usize> = reports.iter().map(|r| r.step).collect();
            let losses: Vec<Float> = reports.iter().map(|r| r.loss).collect();
            (steps, losses, seen)
        });
        assert!(
            steps.len() == 60 && seen == 60 && steps[59] == 60,
            "train should run and report 60 steps"
        );
        let (first, last) = (losses[0], losses[59]);
        assert!(
            last < 0.1,
            "after 60 training steps on the same 4 pairs the loss is {last:.4} (it started \
             at {first:.4}); a working model learns them by heart, below 0.1. Likely cause: \
             the update goes the wrong way (θ −= lr · m̂/(√v̂ + ε)), a gradient that is \
             assigned instead of added, or a learning rate that is not used"
        );
    });
}

// ---------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------

/// Greedy decoding of `src`, without and with the cache, each observed, with its name.
fn both_decodings(
    model: &Transformer,
    src: &[usize],
    max_len: usize,
) -> [(&'static str, Vec<usize>); 2] {
    [
        (
            "greedy_decode",
            observe("greedy_decode", || greedy_decode(model, src, max_len)),
        ),
        (
            "greedy_decode_cached",
            observe("greedy_decode_cached", || {
                greedy_decode_cached(model, src, max_len)
            }),
        ),
    ]
}

/// Attention over pre-projected keys and values equals lesson 03's multi-head attention.
#[test]
fn cached_attention_equals_multi_head_attention() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let mha = &model.decoder[1].cross_attention;
        let x = linspace_matrix(3, 4, -0.8, 1.1);
        let memory = linspace_matrix(5, 4, 1.2, -0.9);
        let mask = observe("key_padding_mask", || {
            key_padding_mask(3, &[4, 5, 6, PAD, PAD])
        });
        let expected = mha.forward(&x, &memory, Some(&mask)).output;
        let (keys, values) = (mha.w_k.forward(&memory), mha.w_v.forward(&memory));
        let got = observe("cached_attention", || {
            cached_attention(mha, &x, &keys, &values, Some(&mask))
        });
        assert_matrix_close(
            "cached_attention with keys = w_k(memory), values = w_v(memory)",
            &got,
            &expected,
            Tol {
                abs: 1e-12,
                rel: 1e-12,
            },
            &[],
        );
    });
}

/// The cache starts empty, with the memory's keys and values of every decoder layer.
#[test]
fn start_decoding_caches_the_memory_s_keys_and_values() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let src = [5, 3, 6, PAD];
        // Each LayerCache comes back as its four matrices: (keys, values, memory_keys,
        // memory_values).
        let (layers, position, memory_mask) =
            observe("Transformer::start_decoding", || {
                let cache = model.start_decoding(&src);
                let layers: Vec<(Matrix, Matrix, Matrix, Matrix)> = cache
                    .layers
                    .into_iter()
                    .map(|l| (l.keys, l.values, l.memory_keys, l.memory_values))
                    .collect();
                (layers, cache.position, cache.memory_mask)
            });
        let memory = observe("Transformer::encode", || model.encode(&src).output);
        assert!(layers.len() == 2, "one LayerCache per decoder layer");
        assert!(position == 0, "decoding starts at position 0");
        let padding = observe("key_padding_mask", || key_padding_mask(1, &src));
        assert!(
            memory_mask == padding,
            "the cache's memory_mask should be key_padding_mask(1, src)"
        );
        for (i, (keys, _, memory_keys, memory_values)) in layers.iter().enumerate() {
            let ca = &model.decoder[i].cross_attention;
            assert_matrix_close(
                &format!("layer {i}'s memory_keys"),
                memory_keys,
                &ca.w_k.forward(&memory),
                Tol {
                    abs: 1e-12,
                    rel: 1e-12,
                },
                &[],
            );
            assert_matrix_close(
                &format!("layer {i}'s memory_values"),
                memory_values,
                &ca.w_v.forward(&memory),
                Tol {
                    abs: 1e-12,
                    rel: 1e-12,
                },
                &[],
            );
            assert_same_shape(&format!("layer {i}'s keys before any step"), keys, (0, 4));
        }
    });
}

/// Decoding token by token with the cache gives, at every step, the logits the full
/// forward pass computes with its causal mask.
fn check_cached_steps(config: Config) {
    let model = deterministic_model(config);
    let src = [3, 4, 5, 6];
    let tgt_in = [BOS, 4, 6, 5, 3, 6];
    let full = logits_of(&model, &one_pair(&src, &tgt_in, &[4, 6, 5, 3, 6, EOS]));
    // The cache is built and changed by the lesson's code: it is used inside observed
    // calls only, and each step returns the logits, the position and the first
    // layer's keys.
    let mut cache = object("Transformer::start_decoding", || model.start_decoding(&src));
    for (t, &token) in tgt_in.iter().enumerate() {
        let (logits, position, keys) = observe("Transformer::decode_step", || {
            let logits = model.decode_step(&mut cache, token);
            let keys = cache.layers.first().map(|layer| layer.keys.clone());
            (logits, cache.position, keys)
        });
        let got = row(logits.as_slice().unwrap_or(&[]));
        let expected = full.slice(s![t..t + 1, ..]).to_owned();
        let hint = if t == 0 {
            "at position 0 the cache holds only the new row: check the embedding (×√d_model, \
             plus PE at position cache.position), the layer's steps in the order of lesson \
             05's DecoderLayer::forward for this norm position, and the output projection"
                .to_owned()
        } else {
            format!("position 0 was right, so the step itself is: {CACHE_APPEND}")
        };
        assert_matrix_close(
            &format!(
                "{:?}-LN: decode_step's logits at position {t} against row {t} of the full \
                 forward pass (likely cause if they differ: {hint})",
                config.norm_position
            ),
            &got,
            &expected,
            Tol {
                abs: 1e-10,
                rel: 1e-10,
            },
            &[],
        );
        assert!(
            position == t + 1,
            "decode_step must advance cache.position: after {} steps it is {}",
            t + 1,
            position
        );
        assert_same_shape(
            "the self-attention keys in the cache",
            &keys.unwrap_or_else(|| Matrix::zeros((0, 0))),
            (t + 1, 4),
        );
    }
}

#[test]
fn decode_step_gives_the_logits_of_the_full_forward_pass() {
    graded(|| check_cached_steps(tiny_config()));
}

/// The same for pre-LN layers: the cache keeps the keys of norm_1's output.
#[test]
fn decode_step_matches_the_full_forward_pass_for_pre_ln_layers_too() {
    graded(|| {
        let mut config = tiny_config();
        config.norm_position = NormPosition::Pre;
        check_cached_steps(config);
    });
}

/// The token greedy decoding picks from a row of logits, by hand: the first highest score
/// among every token but PAD and BOS (what `next_token` does).
fn greedy_pick(logits: &[Float]) -> usize {
    let mut best = EOS;
    for (token, &score) in logits.iter().enumerate() {
        if token != PAD && token != BOS && score > logits[best] {
            best = token;
        }
    }
    best
}

/// Greedy decoding with and without the cache generates the same tokens.
#[test]
fn greedy_decoding_with_and_without_the_cache_agree() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        for src in [vec![3, 4, 5, 6], vec![6, 5], vec![4, 4, 3, PAD]] {
            let full = observe("greedy_decode", || greedy_decode(&model, &src, 6));
            let cached = observe("greedy_decode_cached", || {
                greedy_decode_cached(&model, &src, 6)
            });
            let hint = if full == cached {
                String::new()
            } else {
                // Which of the two is not greedy decoding from BOS: the forward pass over
                // [BOS, its tokens] says what each step should have picked.
                let from_bos = |tokens: &[usize]| {
                    let tgt_in: Vec<usize> =
                        std::iter::once(BOS).chain(tokens.iter().copied()).collect();
                    let tgt_out = vec![EOS; tgt_in.len()];
                    let logits = logits_of(&model, &one_pair(&src, &tgt_in, &tgt_out));
                    tokens
                        .iter()
                        .enumerate()
                        .all(|(t, &token)| greedy_pick(&logits.row(t).to_vec()) == token)
                };
                let wrong = match (from_bos(&full), from_bos(&cached)) {
                    (true, false) => {
                        "greedy_decode_cached's tokens are not what the forward \
                        pass over [BOS, its tokens] predicts (greedy_decode's are)"
                    }
                    (false, true) => {
                        "greedy_decode's tokens are not what the forward pass \
                        over [BOS, its tokens] predicts (greedy_decode_cached's are)"
                    }
                    _ => {
                        "neither is what the forward pass over [BOS, its tokens] predicts"
                    }
                };
                format!(
                    " Likely cause: {wrong}: decoding must start from BOS, never PAD (issue \
                     #127 of the Annotated Transformer: starting from PAD), feed back the \
                     token each step picks, keep the keys and values of every earlier \
                     position in the cache, and stop at EOS or after max_len tokens."
                )
            };
            assert!(
                full == cached,
                "greedy decoding of {src:?}: {full:?} re-running the decoder, {cached:?} with \
                 the cache; they must be the same.{hint}"
            );
        }
    });
}

/// Greedy decoding starts from BOS, picks each token with next_token, and agrees with the
/// teacher-forced forward pass over its own output.
#[test]
fn greedy_decoding_starts_from_bos_and_agrees_with_the_forward_pass() {
    graded(|| {
        let model = deterministic_model(tiny_config());
        let src = [3, 4, 5, 6];
        for (name, tokens) in both_decodings(&model, &src, 6) {
            assert!(
                tokens.iter().all(|&t| t > EOS),
                "{name} returned {tokens:?}: the result holds generated tokens only, \
                 never PAD, BOS or EOS"
            );
            let tgt_in: Vec<usize> =
                std::iter::once(BOS).chain(tokens.iter().copied()).collect();
            let tgt_out = vec![EOS; tgt_in.len()];
            let logits = logits_of(&model, &one_pair(&src, &tgt_in, &tgt_out));
            for (t, &token) in tokens.iter().enumerate() {
                let expected = next_token(logits.row(t));
                assert!(
                    token == expected,
                    "{name} generated {tokens:?}, but the forward pass over [BOS, ...] says \
                     token {t} should be {expected}. Likely cause: decoding did not start \
                     from BOS (issue #127 of the Annotated Transformer: starting from PAD), \
                     or the last row of the decoder was not the one used"
                );
            }
            if tokens.len() < 6 {
                let stop = next_token(logits.row(tokens.len()));
                assert!(
                    stop == EOS,
                    "{name} stopped after {} tokens, but the next token is {stop}, not EOS",
                    tokens.len()
                );
            }
        }
    });
}

/// A hand-built model whose decoder, position by position, outputs the successor of the
/// token it reads: with every sublayer's weights 0, each decoder row is LayerNorm(√d ·
/// E[token] + PE), and the embedding and output rows are chosen so that BOS → 3 → 4 → 5 →
/// 6 → EOS, while PAD → 4.
fn successor_model() -> Transformer {
    let config = Config {
        vocab_size: 7,
        d_model: 8,
        n_heads: 2,
        d_ff: 4,
        n_layers: 1,
        max_len: 8,
        norm_position: NormPosition::Post,
    };
    let mut model = Transformer::zeros(config);
    let layer = &mut model.decoder[0];
    for norm in [&mut layer.norm_1, &mut layer.norm_2, &mut layer.norm_3] {
        norm.gamma.fill(1.0);
    }
    // The embedding row of each input token points at the feature of its successor.
    for (token, feature) in [(BOS, 0), (PAD, 1), (3, 1), (4, 2), (5, 3), (6, 4)] {
        model.tgt_embedding.weight[[token, feature]] = 10.0;
    }
    // Output row of token 3 + k reads feature k; EOS reads feature 4.
    for (token, feature) in [(3, 0), (4, 1), (5, 2), (6, 3), (EOS, 4)] {
        model.output.weight[[token, feature]] = 5.0;
    }
    model
}

/// Greedy decoding of the hand-built successor model gives exactly 3 4 5 6, then stops.
#[test]
fn greedy_decoding_of_a_hand_built_model_starts_from_bos() {
    graded(|| {
        let model = successor_model();
        let src = [3, 4, 5];
        for (name, tokens) in both_decodings(&model, &src, 6) {
            let hint = if tokens == [4, 5, 6] {
                "decoding started from PAD instead of BOS (the Annotated Transformer's \
                 issue #127): the first input is BOS, as in training"
            } else if tokens.len() == 6 && tokens.iter().all(|&t| t == 3) {
                "every step read the logits of the first row instead of the last \
                 (the new token's)"
            } else if tokens.len() == 6 {
                "generation did not stop at EOS"
            } else {
                "each step appends the token picked with next_token from the last row's \
                 logits and feeds it back in"
            };
            assert!(
                tokens == [3, 4, 5, 6],
                "{name} of the hand-built successor model: expected [3, 4, 5, 6] (BOS → 3 → \
                 4 → 5 → 6 → EOS), got {tokens:?}. Likely cause: {hint}."
            );
        }
        let pairs = [
            (src.to_vec(), vec![3, 4, 5, 6]),
            (vec![6, 5], vec![3, 4, 5, 6]),
            (src.to_vec(), vec![3, 4, 5]),
        ];
        let score = observe("exact_match", || exact_match(&model, &pairs));
        assert!(
            (score - 2.0 / 3.0).abs() < 1e-12,
            "exact_match of the successor model on two right targets and one wrong (too \
             short) target: expected 2/3, got {score}"
        );
        let tie = observe("next_token", || {
            next_token(array![9.0, 9.0, 1.0, 2.0, 2.0, 0.0, -1.0].view())
        });
        assert!(
            tie == 3,
            "next_token([9, 9, 1, 2, 2, 0, −1]) should be 3: never PAD or BOS, and the first \
             of equal scores; got {tie}"
        );
        let short = observe("greedy_decode_cached", || {
            greedy_decode_cached(&model, &src, 2)
        });
        assert!(
            short == [3, 4],
            "greedy_decode_cached(.., max_len = 2) should stop after 2 tokens, got {short:?}"
        );
    });
}

/// Generation stops at EOS (nothing when EOS comes first) and after max_len tokens.
#[test]
fn greedy_decoding_stops_at_eos_and_at_max_len() {
    graded(|| {
        let mut model = deterministic_model(tiny_config());
        let src = [3, 4, 5, 6];
        model.output.bias[EOS] = 100.0;
        for (name, tokens) in both_decodings(&model, &src, 5) {
            assert!(
                tokens.is_empty(),
                "{name}: the first token is EOS, so nothing is generated; got {tokens:?}"
            );
        }
        model.output.bias[EOS] = -100.0;
        for (name, tokens) in both_decodings(&model, &src, 5) {
            assert!(
                tokens.len() == 5,
                "{name}(.., max_len = 5) never sees EOS, so it must return 5 tokens; got \
                 {tokens:?}"
            );
        }
    });
}

// ---------------------------------------------------------------------------------------
// The tensors whose PyTorch values the tiny model's tests check
// ---------------------------------------------------------------------------------------

/// Four of the tiny model's tensors: their number in `Transformer::parameters`' order, their
/// name there (which names their reference values), and a note for the messages.
const CHECKED_TENSORS: [(usize, &str, &str); 4] = [
    (
        0,
        "src_embedding.weight",
        " (the rows of PAD, BOS and EOS get no gradient: padding is masked, and BOS and EOS \
         are not in the sources)",
    ),
    (14, "encoder[0].norm_1.gamma", ""),
    (70, "decoder[1].cross_attention.w_k.weight", ""),
    (87, "output.bias", ""),
];
