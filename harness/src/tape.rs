//! The value tape: how a graded test runs the learner's code in one process and is
//! judged in another.
//!
//! A verdict must not come from the process that runs the learner's code: code in a
//! process can read that process's memory, write its files and choose its exit status,
//! so any secret or report there can be forged. So the checker runs every graded test
//! twice, in two modes of the same source:
//!
//! 1. **Record**, in a sandbox, against the learner's crate. Every call into the
//!    learner's code is wrapped in [`observe`], which runs it and writes what it returned
//!    (or the message it panicked with) to the tape, as a course type: [`Float`], a
//!    `Matrix`, a boolean mask, integers, text, and vectors, options and tuples of those.
//!    Nothing the learner returns is ever trusted as their own type: a type with a lying
//!    `PartialEq` or `Deref` cannot be recorded at all.
//! 2. **Replay**, in the checker's judge, against the course's reference solution. The
//!    test body runs again, but each [`observe`] does not run its call: it takes the next
//!    value from the tape and returns it. Everything else (the inputs, the expected
//!    values, the numerical gradients built from the learner's recorded forward passes,
//!    the checks and their teaching messages) is computed by the judge, from the course's
//!    own code. [`graded`](crate::graded) then writes the verdict for the checker.
//!
//! So the learner's process can only ever contribute values: a tape it forged is still
//! judged value by value against what the judge computed, and a tape that ends early
//! (a crash, a timeout, `std::process::exit`) fails at the first missing value.
//!
//! **Every value against the reference.** A test's own checks look at chosen properties
//! and values; a gradient test, for one, differentiates the learner's own forward pass,
//! which a forward that answers the test's probes from memory (or returns zeros
//! everywhere) would satisfy. So where the judge is built on the reference solution
//! (the instructor's edition; the checker sets [`REFERENCE_ENV`]), each [`observe`] also
//! runs its call there, on the same inputs, and the value the learner returned must be
//! the reference's up to rounding (see [`crate::reference_run`]). A test whose checks
//! pass but whose values differ fails, naming the first call that differed. Calls whose
//! right answer is not unique (a random draw, a training run) use [`observe_any`] and
//! [`object_any`]: from there on, the test's own checks alone decide.
//!
//! Objects whose type the lesson defines (a model, a layer built by the learner's
//! constructor) are held with [`object`]: the record run keeps the object, the judge keeps
//! nothing, and the object may only be used inside a later [`observe`]. Whatever learner
//! code mutates (an optimizer's state, a model's parameters, a random generator the test
//! hands it) is invisible to the judge unless an [`observe`] returns it.
//!
//! Outside the checker (a plain `cargo test`), neither mode is set and [`observe`] simply
//! runs its call.
//!
//! The tape is text, one entry per line: `=` and the label for a value, `!` for a panic,
//! `o` for an object, then the value's tokens (see [`Taped`]). A record run writes the
//! test's name before each entry (one process may record several tests, one after the
//! other) and `.` when the test's body has ended; a replay reads one test's entries. Floats are written as their
//! bits, so a replayed value is the recorded one exactly, NaN and infinities included.

use crate::{MESSAGES, tr};
use course_common::ndarray::{Array, ArrayD, Dimension, IxDyn};
use course_common::{Float, Matrix, Vector};
use std::cell::RefCell;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The environment variable that asks for a record run: the number of an open file
/// descriptor (`fd:3`) or a file path to append the tape to.
pub const RECORD_ENV: &str = "COURSE_TAPE_RECORD";
/// The environment variable that asks for a replay run: a folder holding each test's tape
/// as `<test name>.tape`; the judge writes each verdict beside it as `<test name>.verdict`.
/// One judge process can so replay many tests, each on its own libtest thread (which
/// libtest names after its test).
pub const REPLAY_ENV: &str = "COURSE_TAPE_REPLAY";
/// The environment variable with which the checker tells a replay that the lesson crate
/// its judge was built on is the reference solution (`1`): each observed call then also
/// runs there and its value is compared with the learner's (see [`crate::reference_run`]).
pub const REFERENCE_ENV: &str = "COURSE_TAPE_REFERENCE";
/// The start of the panic message with which a replay stops where the tape has no more
/// values: the learner's process ended (or was stopped) before it got there.
pub const TAPE_ENDED: &str = "[tape ended]";
/// The start of the panic message with which a replay stops where the tape holds
/// something other than what the test asks for next.
pub const TAPE_MISMATCH: &str = "[tape mismatch]";

/// How this process runs the graded tests.
enum Mode {
    /// A plain `cargo test`: calls run, nothing is written.
    Plain,
    /// Calls run and their values are written to the tape.
    Record(Mutex<Box<dyn Write + Send>>),
    /// Calls do not run; their values come from the tapes in this folder.
    Replay(PathBuf),
}

/// One test's tape, being replayed.
struct Replay {
    entries: Vec<String>,
    next: usize,
}

thread_local! {
    /// The tape of the test this thread runs, loaded at its first call.
    static TAPE: RefCell<Option<Replay>> = const { RefCell::new(None) };
    /// The label of the last call this thread's test made into the lesson.
    static LAST_CALL: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The label of the last call into the lesson (through [`observe`] or [`object`]) that the
/// running test made: when a check fails, the call whose value it was looking at, most
/// often. The checker uses it to offer the hints of the function that failed.
pub fn last_call() -> Option<String> {
    LAST_CALL.with(|call| call.borrow().clone())
}

fn enter(label: &str) {
    LAST_CALL.with(|call| *call.borrow_mut() = Some(label.to_owned()));
    crate::reference_run::count_call();
}

/// The name of the running test: libtest names each test's thread after it.
pub fn test_name() -> String {
    std::thread::current().name().unwrap_or("main").to_owned()
}

/// The folder of tapes and verdicts, in a replay run.
pub fn replay_dir() -> Option<&'static Path> {
    match mode() {
        Mode::Replay(dir) => Some(dir),
        _ => None,
    }
}

fn mode() -> &'static Mode {
    static MODE: OnceLock<Mode> = OnceLock::new();
    MODE.get_or_init(|| {
        if let Some(dir) = std::env::var_os(REPLAY_ENV) {
            return Mode::Replay(PathBuf::from(dir));
        }
        if let Some(target) = std::env::var_os(RECORD_ENV) {
            let target = target.to_string_lossy().into_owned();
            // `fd:N` is reopened through /proc, which needs no unsafe code.
            let path = match target.strip_prefix("fd:") {
                Some(fd) => format!("/proc/self/fd/{fd}"),
                None => target.clone(),
            };
            let file = std::fs::OpenOptions::new()
                .append(true)
                .create(!target.starts_with("fd:"))
                .open(&path)
                .unwrap_or_else(|error| {
                    panic!(
                        "{}",
                        tr!(
                            MESSAGES,
                            "tape-open-failed",
                            path = path.as_str(),
                            error = error.to_string(),
                        )
                    )
                });
            return Mode::Record(Mutex::new(Box::new(file)));
        }
        Mode::Plain
    })
}

/// Runs `call`, a call into the learner's code, and returns its value.
///
/// Under the checker the value is recorded (in the learner's sandboxed process) or
/// replayed (in the judge, where `call` does not run). `label` names the call in the tape
/// (`"softmax_rows"`); a replay checks it, so a test and its tape cannot drift apart.
///
/// Every value a check looks at that the learner's code produced must pass through here.
#[track_caller]
pub fn observe<T: Taped>(label: &str, call: impl FnOnce() -> T) -> T {
    enter(label);
    match mode() {
        Mode::Plain => plain(label, call),
        Mode::Record(tape) => {
            record(tape, label, '=', call, |value, line| value.write(line))
        }
        Mode::Replay(dir) => {
            let (kind, mut tokens) = next_entry(dir, label);
            match kind {
                '=' => {
                    let value = T::read(&mut tokens).unwrap_or_else(|why| {
                        panic!(
                            "{TAPE_MISMATCH} {}",
                            tr!(
                                MESSAGES,
                                "tape-value-unreadable",
                                label = label,
                                why = why
                            )
                        )
                    });
                    if tokens.next().is_some() {
                        panic!(
                            "{TAPE_MISMATCH} {}",
                            tr!(MESSAGES, "tape-value-extra-tokens", label = label)
                        );
                    }
                    crate::reference_run::compare(label, &value, call);
                    value
                }
                '!' => replay_panic(label, &mut tokens),
                _ => panic!(
                    "{TAPE_MISMATCH} {}",
                    tr!(MESSAGES, "tape-expected-value", label = label)
                ),
            }
        }
    }
}

/// An object built by the learner's code (a layer, a model): usable inside [`observe`]
/// calls only, because the judge never has it.
pub struct Held<T>(Option<T>);

impl<T> std::ops::Deref for Held<T> {
    type Target = T;
    #[track_caller]
    fn deref(&self) -> &T {
        self.0.as_ref().unwrap_or_else(|| held_outside_observe())
    }
}

impl<T> std::ops::DerefMut for Held<T> {
    #[track_caller]
    fn deref_mut(&mut self) -> &mut T {
        self.0.as_mut().unwrap_or_else(|| held_outside_observe())
    }
}

#[track_caller]
fn held_outside_observe() -> ! {
    panic!(
        "{TAPE_MISMATCH} {}",
        tr!(MESSAGES, "tape-object-outside-observe")
    )
}

/// As [`observe`], for a call whose right answer is not unique: a random draw, a
/// training run, anything computed from an object built with [`object_any`].
///
/// The value is judged by the test's own checks only, and so is everything after it in
/// the test: the judge stops comparing the learner's values with the reference's there,
/// because the state they come from may rightly differ.
#[track_caller]
pub fn observe_any<T: Taped>(label: &str, call: impl FnOnce() -> T) -> T {
    crate::reference_run::unpin();
    observe(label, call)
}

/// As [`object`], for an object whose right value is not unique (a model whose weights
/// the learner's code draws at random): from here on, the test's own checks alone decide
/// (see [`observe_any`]).
#[track_caller]
pub fn object_any<T>(label: &str, make: impl FnOnce() -> T) -> Held<T> {
    crate::reference_run::unpin();
    object(label, make)
}

/// Builds an object with the learner's code (`make` is a call into the lesson).
///
/// The record run keeps the object; the judge gets the construction's panic, if it
/// panicked, and otherwise an empty [`Held`] (or, where it compares the learner's values
/// with the reference's, the reference's object). Use the object inside [`observe`] only.
#[track_caller]
pub fn object<T>(label: &str, make: impl FnOnce() -> T) -> Held<T> {
    enter(label);
    match mode() {
        Mode::Plain => Held(Some(plain(label, make))),
        Mode::Record(tape) => Held(Some(record(tape, label, 'o', make, |_, _| {}))),
        Mode::Replay(dir) => {
            let (kind, mut tokens) = next_entry(dir, label);
            match kind {
                // The reference's own object, where the judge compares with it (the
                // learner's stays in the learner's process).
                'o' => Held(crate::reference_run::run(make)),
                '!' => replay_panic(label, &mut tokens),
                _ => panic!(
                    "{TAPE_MISMATCH} {}",
                    tr!(MESSAGES, "tape-expected-object", label = label)
                ),
            }
        }
    }
}

/// Runs `call` outside the checker (a plain `cargo test`), noting a panic that leaves it
/// (see [`crate::panics`]).
fn plain<T>(label: &str, call: impl FnOnce() -> T) -> T {
    let outcome = catch_unwind(AssertUnwindSafe(|| crate::panics::in_learner_call(call)));
    match outcome {
        Ok(value) => value,
        Err(payload) => {
            let site = crate::panics::take_site();
            crate::panics::note(label, &panic_message(payload.as_ref()), site);
            resume_unwind(payload)
        }
    }
}

/// Runs `call` and writes its entry: `kind`, the label and, with `write`, its value; or,
/// when it panicked, `!`, the label, the message and where in the lesson's source it came
/// from (if known; see [`crate::panics`]), before panicking on.
fn record<T>(
    tape: &Mutex<Box<dyn Write + Send>>,
    label: &str,
    kind: char,
    call: impl FnOnce() -> T,
    write: impl FnOnce(&T, &mut String),
) -> T {
    let outcome = catch_unwind(AssertUnwindSafe(|| crate::panics::in_learner_call(call)));
    let mut line = String::new();
    match &outcome {
        Ok(value) => {
            line.push(kind);
            push_label(&mut line, label);
            write(value, &mut line);
        }
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            let site = crate::panics::take_site();
            line.push('!');
            push_label(&mut line, label);
            message.write(&mut line);
            site.write(&mut line);
            crate::panics::note(label, &message, site);
        }
    }
    line.push('\n');
    write_entry(tape, &line);
    match outcome {
        Ok(value) => value,
        Err(payload) => resume_unwind(payload),
    }
}

/// Panics as the learner's code did at `label`, with the message the tape recorded, as a
/// plain `cargo test` would have.
fn replay_panic(label: &str, tokens: &mut dyn Iterator<Item = String>) -> ! {
    let unreadable = |why: String| -> ! {
        panic!(
            "{TAPE_MISMATCH} {}",
            tr!(MESSAGES, "tape-panic-unreadable", label = label, why = why)
        )
    };
    let message = String::read(tokens).unwrap_or_else(|why| unreadable(why));
    let site = Option::<String>::read(tokens).unwrap_or_else(|why| unreadable(why));
    crate::panics::note(label, &message, site);
    resume_unwind(Box::new(message))
}

fn push_label(line: &mut String, label: &str) {
    label.to_owned().write(line);
}

fn write_entry(tape: &Mutex<Box<dyn Write + Send>>, line: &str) {
    // Each entry starts with the running test's name: one process may record many tests
    // (the checker splits the tape by name).
    let mut name = String::new();
    test_name().write(&mut name);
    // A line of its own, whatever the learner's code left unfinished on the tape: the
    // checker times each test's end as it reads it.
    let line = format!("\n{} {line}", &name[1..]);
    let mut tape = tape.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // One write per entry, so that an entry is on the tape before the next call runs.
    if let Err(error) = tape.write_all(line.as_bytes()).and_then(|()| tape.flush()) {
        panic!(
            "{}",
            tr!(MESSAGES, "tape-write-failed", error = error.to_string())
        );
    }
}

/// In a record run, marks the end of the running test's body on the tape: the test ran
/// to its end (or to a failed check) in this process. Called by [`graded`](crate::graded).
pub fn record_end() {
    if let Mode::Record(tape) = mode() {
        write_entry(tape, ".\n");
    }
}

/// The marker [`record_end`] writes after a test's name.
pub const END: &str = ".";

/// The next entry of this test's tape in `dir`, which must be labelled `label`: its kind
/// and its tokens.
#[track_caller]
fn next_entry(dir: &Path, label: &str) -> (char, std::vec::IntoIter<String>) {
    let line = TAPE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let replay = slot.get_or_insert_with(|| {
            // A missing tape reads as an empty one: the learner's process recorded nothing.
            let text = std::fs::read_to_string(dir.join(format!("{}.tape", test_name())))
                .unwrap_or_default();
            Replay {
                entries: text.lines().map(str::to_owned).collect(),
                next: 0,
            }
        });
        let line = replay.entries.get(replay.next).cloned();
        replay.next += 1;
        line
    });
    let Some(line) = line else {
        panic!(
            "{TAPE_ENDED} {}",
            tr!(MESSAGES, "tape-ended", label = label)
        );
    };
    let mut tokens: std::vec::IntoIter<String> = line
        .split(' ')
        .map(str::to_owned)
        .collect::<Vec<_>>()
        .into_iter();
    let kind = tokens
        .next()
        .and_then(|k| {
            let mut chars = k.chars();
            let kind = chars.next()?;
            chars.next().is_none().then_some(kind)
        })
        .unwrap_or('?');
    let recorded = String::read(&mut tokens).unwrap_or_default();
    if recorded != label {
        panic!(
            "{TAPE_MISMATCH} {}",
            tr!(
                MESSAGES,
                "tape-label-mismatch",
                label = label,
                recorded = recorded.escape_debug().to_string()
            )
        );
    }
    (kind, tokens)
}

/// The text of a panic payload, as `panic!` and `assert!` produce it.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        tr!(MESSAGES, "panic-not-text")
    }
}

/// A course type that can go on the tape: written as space-separated tokens, read back
/// exactly. Only course types implement it (the lesson crates cannot: they do not depend
/// on the harness), so whatever the learner returns is converted to one first.
pub trait Taped: Sized {
    /// Appends this value's tokens, each preceded by a space.
    fn write(&self, line: &mut String);
    /// Reads a value from the next tokens.
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String>;
    /// Where this value (the learner's) differs from `reference` (the reference
    /// solution's, for the same call) by more than rounding, said for the learner; `None`
    /// where it does not. Numbers compare as [`same_number`] says, everything else exactly.
    fn differs_from(&self, reference: &Self) -> Option<String> {
        self.differs_within(reference, 0.0)
    }
    /// [`differs_from`](Self::differs_from), the numbers carrying the rounding of values as
    /// large as `scale` (the largest magnitude of the list or array they are part of).
    fn differs_within(&self, reference: &Self, scale: Float) -> Option<String>;
    /// The largest magnitude of the finite numbers in this value (0 for one without).
    fn magnitude(&self) -> Float {
        0.0
    }
}

/// Whether the learner's `got` is the reference's `reference` up to rounding: both NaN,
/// equal (infinities included), or within `1e-6 |reference| + 1e-9 scale + 1e-12`, where
/// `scale` is the largest magnitude among the values it comes with (an entry near zero in
/// a matrix of large entries carries their rounding). Two correct implementations that
/// add in different orders agree far closer than this; a wrong one misses by far more.
pub fn same_number(got: Float, reference: Float, scale: Float) -> bool {
    if got.is_nan() || reference.is_nan() {
        return got.is_nan() && reference.is_nan();
    }
    if got.is_infinite() || reference.is_infinite() {
        return got == reference;
    }
    (got - reference).abs() <= 1e-6 * reference.abs() + 1e-9 * scale + 1e-12
}

/// A number as a message shows it: six decimals, or three significant digits in
/// scientific notation where that would hide it; `extra` digits more.
fn shown_number(value: Float, extra: usize) -> String {
    if value == 0.0 || !value.is_finite() || (1e-3..1e6).contains(&value.abs()) {
        format!("{value:.*}", 6 + extra)
    } else {
        format!("{value:.*e}", 3 + extra)
    }
}

/// Two numbers as a message shows them side by side: [`shown_number`], with as many
/// more digits as it takes for numbers that differ to read differently.
fn shown_numbers(got: Float, reference: Float) -> (String, String) {
    crate::check::shown_apart_as(got, reference, shown_number)
}

/// The message for two values that differ as a whole (numbers, flags, integers).
fn differs(got: String, reference: String) -> String {
    tr!(MESSAGES, "differs-value", got = got, reference = reference)
}

fn token(tokens: &mut dyn Iterator<Item = String>) -> Result<String, String> {
    tokens
        .next()
        .ok_or_else(|| tr!(MESSAGES, "tape-entry-ends-early"))
}

fn tagged(tokens: &mut dyn Iterator<Item = String>, tag: char) -> Result<String, String> {
    let token = token(tokens)?;
    token.strip_prefix(tag).map(str::to_owned).ok_or_else(|| {
        tr!(
            MESSAGES,
            "tape-expected-token",
            tag = tag.to_string(),
            found = short(&token)
        )
    })
}

fn short(token: &str) -> String {
    token.chars().take(24).collect()
}

fn number<N: std::str::FromStr>(text: &str) -> Result<N, String> {
    text.parse()
        .map_err(|_| tr!(MESSAGES, "tape-not-a-number", text = short(text)))
}

impl Taped for Float {
    fn write(&self, line: &mut String) {
        line.push_str(&format!(" f{:016x}", self.to_bits()));
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        let hex = tagged(tokens, 'f')?;
        u64::from_str_radix(&hex, 16)
            .map(Float::from_bits)
            .map_err(|_| tr!(MESSAGES, "tape-not-float-bits", text = short(&hex)))
    }
    fn differs_within(&self, reference: &Self, scale: Float) -> Option<String> {
        (!same_number(*self, *reference, scale)).then(|| {
            let (got, reference) = shown_numbers(*self, *reference);
            differs(got, reference)
        })
    }
    fn magnitude(&self) -> Float {
        if self.is_finite() { self.abs() } else { 0.0 }
    }
}

impl Taped for bool {
    fn write(&self, line: &mut String) {
        line.push_str(if *self { " b1" } else { " b0" });
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        match tagged(tokens, 'b')?.as_str() {
            "1" => Ok(true),
            "0" => Ok(false),
            other => Err(tr!(MESSAGES, "tape-not-a-boolean", text = short(other))),
        }
    }
    fn differs_within(&self, reference: &Self, _: Float) -> Option<String> {
        (self != reference).then(|| differs(self.to_string(), reference.to_string()))
    }
}

macro_rules! taped_integer {
    ($($t:ty),*) => {$(
        impl Taped for $t {
            fn write(&self, line: &mut String) {
                line.push_str(&format!(" i{self}"));
            }
            fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
                number(&tagged(tokens, 'i')?)
            }
            fn differs_within(&self, reference: &Self, _: Float) -> Option<String> {
                (self != reference)
                    .then(|| differs(self.to_string(), reference.to_string()))
            }
        }
    )*};
}
taped_integer!(usize, u8, u16, u32, u64, i32, i64);

impl Taped for () {
    fn write(&self, line: &mut String) {
        line.push_str(" u");
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        tagged(tokens, 'u').map(|_| ())
    }
    fn differs_within(&self, _: &Self, _: Float) -> Option<String> {
        None
    }
}

impl Taped for String {
    fn write(&self, line: &mut String) {
        line.push_str(" s");
        for byte in self.bytes() {
            line.push_str(&format!("{byte:02x}"));
        }
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        let hex = tagged(tokens, 's')?;
        String::from_utf8(bytes_from_hex(&hex)?)
            .map_err(|_| tr!(MESSAGES, "tape-not-utf8"))
    }
    fn differs_within(&self, reference: &Self, _: Float) -> Option<String> {
        let quoted = |text: &str| -> String {
            let text: String = text.chars().take(60).collect();
            format!("{text:?}")
        };
        (self != reference).then(|| differs(quoted(self), quoted(reference)))
    }
}

fn bytes_from_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(tr!(MESSAGES, "tape-malformed-hexadecimal"));
    }
    Ok((0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("checked hex digits"))
        .collect())
}

impl<T: Taped> Taped for Option<T> {
    fn write(&self, line: &mut String) {
        match self {
            None => line.push_str(" n"),
            Some(value) => {
                line.push_str(" y");
                value.write(line);
            }
        }
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        match token(tokens)?.as_str() {
            "n" => Ok(None),
            "y" => T::read(tokens).map(Some),
            other => Err(tr!(MESSAGES, "tape-not-an-option", text = short(other))),
        }
    }
    fn differs_within(&self, reference: &Self, scale: Float) -> Option<String> {
        match (self, reference) {
            (None, None) => None,
            (Some(got), Some(reference)) => got.differs_within(reference, scale),
            _ => {
                let shown = |value: &Self| if value.is_some() { "Some" } else { "None" };
                Some(differs(shown(self).into(), shown(reference).into()))
            }
        }
    }
    fn magnitude(&self) -> Float {
        self.as_ref().map_or(0.0, T::magnitude)
    }
}

impl<T: Taped> Taped for Vec<T> {
    fn write(&self, line: &mut String) {
        line.push_str(&format!(" v{}", self.len()));
        for item in self {
            item.write(line);
        }
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        let len: usize = number(&tagged(tokens, 'v')?)?;
        // Every item takes at least one token, so a length the tape cannot hold is
        // refused before anything is allocated for it.
        let mut items = Vec::new();
        for _ in 0..len {
            items.push(T::read(tokens)?);
        }
        Ok(items)
    }
    fn differs_within(&self, reference: &Self, scale: Float) -> Option<String> {
        if self.len() != reference.len() {
            return Some(tr!(
                MESSAGES,
                "differs-length",
                got = self.len(),
                reference = reference.len()
            ));
        }
        // The items of a list are values of one kind (a model's tensors, the losses of a
        // run): each carries the rounding of the largest.
        let scale = scale.max(Taped::magnitude(reference));
        self.iter()
            .zip(reference)
            .enumerate()
            .find_map(|(index, (got, reference))| {
                let what = got.differs_within(reference, scale)?;
                Some(tr!(MESSAGES, "differs-item", index = index, what = what))
            })
    }
    fn magnitude(&self) -> Float {
        self.iter().map(T::magnitude).fold(0.0, Float::max)
    }
}

macro_rules! taped_tuple {
    ($($name:ident),+) => {
        impl<$($name: Taped + 'static),+> Taped for ($($name,)+) {
            #[allow(non_snake_case)]
            fn write(&self, line: &mut String) {
                let ($($name,)+) = self;
                $($name.write(line);)+
            }
            fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
                Ok(($($name::read(tokens)?,)+))
            }
            #[allow(non_snake_case)]
            fn differs_within(&self, reference: &Self, scale: Float) -> Option<String> {
                let ($($name,)+) = self;
                let got = [$($name as &dyn Differs,)+];
                let ($($name,)+) = reference;
                let reference = [$($name as &dyn Differs,)+];
                let parts = got.len();
                got.iter().zip(reference).enumerate().find_map(|(index, (got, reference))| {
                    let (what, path) = in_part(index, || got.differs_within_dyn(reference, scale));
                    let what = what?;
                    Some(match part_name(&path) {
                        // A field of a lesson's struct: named (`w_o.d_weight: entry …`).
                        Some((name, true)) => format!("{name}.{what}"),
                        Some((name, false)) => format!("{name}: {what}"),
                        None if parts == 1 => what,
                        None => tr!(MESSAGES, "differs-part", part = index + 1, parts = parts, what = what),
                    })
                })
            }
        }
    };
}
thread_local! {
    /// The field names of the lesson's struct being observed ([`with_part_names`]), by
    /// the path of tuple indices that leads to each on the tape.
    static PART_NAMES: RefCell<Vec<(Vec<usize>, &'static str)>> = const { RefCell::new(Vec::new()) };
    /// The path of tuple parts the comparison of a value is in.
    static PART_PATH: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Runs `call`, an observed call whose value is a lesson's struct taken apart into tuples
/// (`tape_structs!`), with the struct's field names by path, so that a difference found in
/// it is named by field (`w_o.d_weight`) instead of by position (`part 6 of 6: part 2 of
/// 3`).
#[doc(hidden)]
pub fn with_part_names<T>(
    names: Vec<(Vec<usize>, &'static str)>,
    call: impl FnOnce() -> T,
) -> T {
    struct Restore(Vec<(Vec<usize>, &'static str)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = std::mem::take(&mut self.0);
            PART_NAMES.with(|names| *names.borrow_mut() = before);
        }
    }
    let _restore = Restore(PART_NAMES.with(|current| current.replace(names)));
    call()
}

/// Runs `compare` inside part `index` of the current tuple: its result, and the part's path.
fn in_part<T>(index: usize, compare: impl FnOnce() -> T) -> (T, Vec<usize>) {
    let path = PART_PATH.with(|path| {
        let mut path = path.borrow_mut();
        path.push(index);
        path.clone()
    });
    let result = compare();
    PART_PATH.with(|path| path.borrow_mut().pop());
    (result, path)
}

/// The field name at `path`, and whether the field is itself a named struct.
fn part_name(path: &[usize]) -> Option<(&'static str, bool)> {
    PART_NAMES.with(|names| {
        let names = names.borrow();
        let name = names.iter().find(|(p, _)| p == path)?.1;
        let nested = names
            .iter()
            .any(|(p, _)| p.len() == path.len() + 1 && p.starts_with(path));
        Some((name, nested))
    })
}

/// [`Taped::differs_from`] for the parts of a tuple, which have different types.
trait Differs {
    fn as_any(&self) -> &dyn std::any::Any;
    fn differs_within_dyn(&self, reference: &dyn Differs, scale: Float)
    -> Option<String>;
}

impl<T: Taped + 'static> Differs for T {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn differs_within_dyn(
        &self,
        reference: &dyn Differs,
        scale: Float,
    ) -> Option<String> {
        // The two parts come from the same tuple type, so the types always match.
        reference
            .as_any()
            .downcast_ref::<T>()
            .and_then(|reference| self.differs_within(reference, scale))
    }
}

taped_tuple!(A);
taped_tuple!(A, B);
taped_tuple!(A, B, C);
taped_tuple!(A, B, C, D);
taped_tuple!(A, B, C, D, E);
taped_tuple!(A, B, C, D, E, F);
taped_tuple!(A, B, C, D, E, F, G);
taped_tuple!(A, B, C, D, E, F, G, H);

/// Puts a lesson's result structs on the tape: the one way every suite (and the visible
/// tests that share its calls) does it.
///
/// The tape carries course types only ([`Taped`]); a lesson's own structs (`LinearGrads`,
/// a layer's forward cache) are the learner's crate's, which the harness cannot know. So
/// the macro writes, in the calling module, a trait `Parts` that takes such a struct apart
/// into a tuple of course types and puts it back together, its impls for the listed
/// structs (fields that are themselves listed structs are taken apart in turn) and for
/// the course's value types, and `observe_parts`, which calls into the lesson through
/// [`observe`] and returns the struct the learner's code returned (in the judge, the one
/// replayed from the tape):
///
/// ```ignore
/// course_harness::tape_structs! {
///     LinearGrads { d_x: Matrix, d_weight: Matrix, d_bias: Vector }
///     MultiHeadGrads { d_query_input: Matrix, w_q: LinearGrads, w_o: LinearGrads }
/// }
/// let grads = observe_parts("Linear::backward", || layer.backward(&x, &d_y));
/// ```
///
/// A struct of more than eight fields (the longest tuple the tape holds) gets a hand-written
/// `impl Parts` that groups its fields (see lesson 05's decoder layer).
#[macro_export]
macro_rules! tape_structs {
    ($($name:ident { $($field:ident: $part:ty),+ $(,)? })*) => {
        /// A result struct of the lesson as the tape carries it: its fields, taken apart
        /// inside `observe` and put back together outside (`course_harness::tape_structs`).
        #[allow(dead_code)]
        trait Parts: Sized {
            /// The struct's fields as course types.
            type Tape: $crate::Taped;
            fn into_tape(self) -> Self::Tape;
            fn from_tape(tape: Self::Tape) -> Self;
            /// The names of the struct's fields, by their path in the tape's tuples.
            fn names(
                _path: &mut ::std::vec::Vec<usize>,
                _names: &mut ::std::vec::Vec<(::std::vec::Vec<usize>, &'static str)>,
            ) {
            }
        }

        /// Calls `call`, a call into the lesson that returns one of its result structs,
        /// through `observe`; a difference from the reference is named by field.
        #[allow(dead_code)]
        fn observe_parts<T: Parts>(label: &str, call: impl FnOnce() -> T) -> T {
            let mut names = ::std::vec::Vec::new();
            T::names(&mut ::std::vec::Vec::new(), &mut names);
            $crate::tape::with_part_names(names, || {
                T::from_tape($crate::observe(label, || call().into_tape()))
            })
        }

        $crate::tape_structs!(@values
            $crate::__course_common::Matrix,
            $crate::__course_common::Vector,
            ::std::vec::Vec<$crate::__course_common::Matrix>,
            $crate::__course_common::ndarray::Array2<bool>,
            $crate::__course_common::Float,
            usize,
            bool
        );

        $(
            impl Parts for $name {
                type Tape = ($(<$part as Parts>::Tape,)+);
                fn into_tape(self) -> Self::Tape {
                    ($(Parts::into_tape(self.$field),)+)
                }
                fn from_tape(tape: Self::Tape) -> Self {
                    let ($($field,)+) = tape;
                    Self { $($field: Parts::from_tape($field),)+ }
                }
                fn names(
                    path: &mut ::std::vec::Vec<usize>,
                    names: &mut ::std::vec::Vec<(::std::vec::Vec<usize>, &'static str)>,
                ) {
                    let mut index = 0_usize;
                    $(
                        path.push(index);
                        names.push((path.clone(), stringify!($field)));
                        <$part as Parts>::names(path, names);
                        path.pop();
                        index += 1;
                    )+
                    let _ = index;
                }
            }
        )*
    };
    (@values $($value:ty),+) => {$(
        impl Parts for $value {
            type Tape = Self;
            fn into_tape(self) -> Self {
                self
            }
            fn from_tape(tape: Self) -> Self {
                tape
            }
        }
    )+};
}

/// An element type of an array that can go on the tape, written compactly.
pub trait TapedElement: Sized + Clone {
    /// The number of hexadecimal digits of one element.
    const WIDTH: usize;
    /// The element's digits.
    fn to_hex(&self) -> String;
    /// The element from its digits.
    fn from_hex(hex: &str) -> Result<Self, String>;
    /// Whether the learner's element is the reference's up to rounding, `scale` being
    /// the largest [`magnitude`](Self::magnitude) of the reference's elements.
    fn same(&self, reference: &Self, scale: Float) -> bool;
    /// What the element weighs in its array's rounding: its absolute value for a finite
    /// number, nothing otherwise.
    fn magnitude(&self) -> Float {
        0.0
    }
    /// The element as a message shows it.
    fn shown(&self) -> String;
    /// The element and the reference's, as a message shows them side by side: for
    /// numbers, with as many digits as it takes for two that differ to read differently.
    fn shown_beside(&self, reference: &Self) -> (String, String) {
        (self.shown(), reference.shown())
    }
}

impl TapedElement for Float {
    const WIDTH: usize = 16;
    fn to_hex(&self) -> String {
        format!("{:016x}", self.to_bits())
    }
    fn from_hex(hex: &str) -> Result<Self, String> {
        u64::from_str_radix(hex, 16)
            .map(Float::from_bits)
            .map_err(|_| tr!(MESSAGES, "tape-malformed-float"))
    }
    fn same(&self, reference: &Self, scale: Float) -> bool {
        same_number(*self, *reference, scale)
    }
    fn magnitude(&self) -> Float {
        if self.is_finite() { self.abs() } else { 0.0 }
    }
    fn shown(&self) -> String {
        shown_number(*self, 0)
    }
    fn shown_beside(&self, reference: &Self) -> (String, String) {
        shown_numbers(*self, *reference)
    }
}

impl TapedElement for bool {
    const WIDTH: usize = 1;
    fn to_hex(&self) -> String {
        (if *self { "1" } else { "0" }).to_owned()
    }
    fn from_hex(hex: &str) -> Result<Self, String> {
        match hex {
            "1" => Ok(true),
            "0" => Ok(false),
            _ => Err(tr!(MESSAGES, "tape-malformed-boolean")),
        }
    }
    fn same(&self, reference: &Self, _: Float) -> bool {
        self == reference
    }
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl TapedElement for usize {
    const WIDTH: usize = 16;
    fn to_hex(&self) -> String {
        format!("{:016x}", *self as u64)
    }
    fn from_hex(hex: &str) -> Result<Self, String> {
        u64::from_str_radix(hex, 16)
            .ok()
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| tr!(MESSAGES, "tape-malformed-integer"))
    }
    fn same(&self, reference: &Self, _: Float) -> bool {
        self == reference
    }
    fn shown(&self) -> String {
        self.to_string()
    }
}

/// Arrays of any dimension: `a` then the shape joined by `,`, `:`, then the elements'
/// digits in logical (row-major) order.
/// A float array of one or two dimensions as a matrix (a vector as one row); `None` for
/// anything else.
fn as_matrix<E: 'static, D: 'static>(array: &Array<E, D>) -> Option<Matrix> {
    let any = array as &dyn std::any::Any;
    if let Some(matrix) = any.downcast_ref::<Matrix>() {
        return Some(matrix.clone());
    }
    any.downcast_ref::<Vector>()
        .map(|vector| vector.clone().insert_axis(course_common::ndarray::Axis(0)))
}

impl<E: TapedElement + 'static, D: Dimension + 'static> Taped for Array<E, D> {
    fn write(&self, line: &mut String) {
        let shape: Vec<String> = self.shape().iter().map(usize::to_string).collect();
        line.push_str(&format!(" a{}:", shape.join(",")));
        for value in self.iter() {
            line.push_str(&value.to_hex());
        }
    }
    fn read(tokens: &mut dyn Iterator<Item = String>) -> Result<Self, String> {
        let text = tagged(tokens, 'a')?;
        let (shape, digits) = text
            .split_once(':')
            .ok_or_else(|| tr!(MESSAGES, "tape-array-without-shape"))?;
        let shape: Vec<usize> = if shape.is_empty() {
            Vec::new()
        } else {
            shape.split(',').map(number).collect::<Result<_, _>>()?
        };
        if let Some(ndim) = D::NDIM
            && ndim != shape.len()
        {
            return Err(tr!(
                MESSAGES,
                "tape-array-dimensions",
                got = shape.len(),
                expected = ndim
            ));
        }
        let count = shape
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .filter(|&n| n.checked_mul(E::WIDTH) == Some(digits.len()))
            .ok_or_else(|| tr!(MESSAGES, "tape-array-shape-mismatch"))?;
        if !digits.is_ascii() {
            return Err(tr!(MESSAGES, "tape-malformed-array-elements"));
        }
        let values = (0..count)
            .map(|i| E::from_hex(&digits[i * E::WIDTH..(i + 1) * E::WIDTH]))
            .collect::<Result<Vec<E>, String>>()?;
        ArrayD::from_shape_vec(IxDyn(&shape), values)
            .map_err(|error| error.to_string())?
            .into_dimensionality::<D>()
            .map_err(|error| error.to_string())
    }
    fn differs_within(&self, reference: &Self, scale: Float) -> Option<String> {
        let shape = |array: &Self| -> String {
            let dims: Vec<String> = array.shape().iter().map(usize::to_string).collect();
            format!("({})", dims.join(", "))
        };
        if self.shape() != reference.shape() {
            return Some(tr!(
                MESSAGES,
                "differs-shape",
                got = shape(self),
                reference = shape(reference)
            ));
        }
        let scale = scale.max(Taped::magnitude(reference));
        let (flat, (got, expected)) = self
            .iter()
            .zip(reference.iter())
            .enumerate()
            .find(|(_, (got, expected))| !got.same(expected, scale))?;
        // The entry's index, from its place in row-major order.
        let mut index = Vec::with_capacity(self.ndim());
        let mut rest = flat;
        for &dim in self.shape().iter().rev() {
            index.push((rest % dim.max(1)).to_string());
            rest /= dim.max(1);
        }
        index.reverse();
        let (got, expected) = got.shown_beside(expected);
        let entry = tr!(
            MESSAGES,
            "differs-entry",
            index = format!("[{}]", index.join(", ")),
            got = got,
            reference = expected
        );
        // For numbers, what the learner's array still has in common with the reference's
        // (a factor, a transpose, the rows that are right, …).
        let relation: String = as_matrix(self)
            .zip(as_matrix(reference))
            .map(|(got, reference)| crate::relations::describe(&got, &reference, 1e-6))
            .unwrap_or_default()
            .iter()
            .map(|line| format!("\n{line}"))
            .collect();
        Some(format!("{entry}{relation}"))
    }
    fn magnitude(&self) -> Float {
        self.iter().map(E::magnitude).fold(0.0, Float::max)
    }
}

// The course's aliases are covered by the impl above; these assertions keep it so.
const _: fn() = || {
    fn taped<T: Taped>() {}
    taped::<Matrix>();
    taped::<Vector>();
    taped::<course_common::ndarray::Array2<bool>>();
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_in_a_lesson_struct_is_named_by_its_field() {
        course_i18n::set_current(course_i18n::Lang::En);
        struct Inner {
            a: Matrix,
            b: Matrix,
        }
        struct Outer {
            x: Matrix,
            inner: Inner,
        }
        crate::tape_structs! {
            Inner { a: Matrix, b: Matrix }
            Outer { x: Matrix, inner: Inner }
        }
        let value = |b: Float| Outer {
            x: Matrix::zeros((1, 2)),
            inner: Inner {
                a: Matrix::ones((1, 2)),
                b: Matrix::from_elem((1, 2), b),
            },
        };
        let (got, reference) = (value(2.0).into_tape(), value(3.0).into_tape());
        let mut names = Vec::new();
        Outer::names(&mut Vec::new(), &mut names);
        let what =
            with_part_names(names, || got.differs_from(&reference)).expect("b differs");
        assert!(what.starts_with("inner.b: "), "{what}");
        // Without names (a plain tuple), by position as before.
        let what = got.differs_from(&reference).expect("b differs");
        assert!(what.starts_with("part 2 of 2: part 2 of 2: "), "{what}");
        let _ = value(0.0).inner.a;
        let _ = value(0.0).x;
    }
    use course_common::ndarray::{Array2, Array3, array};

    fn round_trip<T: Taped + PartialEq + std::fmt::Debug>(value: T) {
        let mut line = String::new();
        value.write(&mut line);
        let mut tokens = line.split(' ').skip(1).map(str::to_owned);
        assert_eq!(T::read(&mut tokens).unwrap(), value, "{line}");
        assert!(tokens.next().is_none());
    }

    #[test]
    fn course_types_come_back_exactly() {
        round_trip(1.0 / 3.0);
        round_trip(Float::NEG_INFINITY);
        round_trip(-0.0);
        round_trip(true);
        round_trip(42usize);
        round_trip(String::from("row 2 sums to 1.37\nnext line, ünïcode"));
        round_trip(String::new());
        round_trip(vec![Some(1.5), None]);
        round_trip((array![[1.0, 2.0], [3.0, 4.0]], 7u32, vec![vec![1usize, 2]]));
        round_trip(array![[true, false, true]]);
        round_trip(Array2::<Float>::zeros((0, 3)));
        round_trip(Array3::<Float>::from_shape_fn((2, 3, 4), |(i, j, k)| {
            (i * 12 + j * 4 + k) as Float
        }));
        round_trip(array![1usize, 5, 9]);
        // NaN is not equal to itself; its bits come back.
        let mut line = String::new();
        Float::NAN.write(&mut line);
        let mut tokens = line.split(' ').skip(1).map(str::to_owned);
        assert!(Float::read(&mut tokens).unwrap().is_nan());
    }

    #[test]
    fn values_differ_from_the_reference_beyond_rounding_only() {
        // Adding in another order moves a result by a few units in the last place.
        let sum = [0.1, 0.2, 0.3].iter().sum::<Float>();
        let other = [0.3, 0.2, 0.1].iter().sum::<Float>();
        assert!(sum != other && sum.differs_from(&other).is_none());
        assert!(1.0.differs_from(&1.0001).is_some());
        assert!(Float::NAN.differs_from(&Float::NAN).is_none());
        assert!(Float::NAN.differs_from(&0.0).is_some());
        assert!(
            Float::NEG_INFINITY
                .differs_from(&Float::NEG_INFINITY)
                .is_none()
        );
        assert!((-1e9).differs_from(&Float::NEG_INFINITY).is_some());
        // An entry near zero in a matrix of large entries carries their rounding.
        let reference = array![[1e6, 0.0]];
        assert!(array![[1e6, 1e-6]].differs_from(&reference).is_none());
        assert!(array![[1e6, 1e-2]].differs_from(&reference).is_some());
        // The items of a list carry the rounding of its largest one.
        assert!(vec![1e6, 1e-6].differs_from(&vec![1e6, 0.0]).is_none());
        assert!(vec![1e6, 1e-2].differs_from(&vec![1e6, 0.0]).is_some());
        // Zeros where the reference is not: the first such entry is named.
        let zeros = Matrix::zeros((2, 2));
        let message = zeros.differs_from(&array![[0.0, 0.0], [0.5, 0.0]]).unwrap();
        assert!(message.contains("[1, 0]"), "{message}");
        let message = zeros.differs_from(&Matrix::zeros((2, 3))).unwrap();
        assert!(message.contains("(2, 3)"), "{message}");
        // Parts of a tuple and items of a list are named.
        let message = (1usize, vec![true, false])
            .differs_from(&(1usize, vec![true, true]))
            .unwrap();
        assert!(message.contains("2") && message.contains("1"), "{message}");
        assert!(Some(1.0).differs_from(&None).is_some());
        assert!(String::from("a").differs_from(&String::from("a")).is_none());
    }

    #[test]
    fn malformed_tokens_are_refused_without_allocating() {
        let read = |text: &str| -> Result<Matrix, String> {
            Matrix::read(&mut text.split(' ').map(str::to_owned))
        };
        assert!(read("a1000000000,1000000000:00").is_err());
        assert!(read("a2,2:00").is_err());
        assert!(read("a2:0000000000000000").is_err());
        assert!(read("f0").is_err());
        assert!(
            Vec::<Float>::read(
                &mut "v18446744073709551615".split(' ').map(str::to_owned)
            )
            .is_err()
        );
    }
}
