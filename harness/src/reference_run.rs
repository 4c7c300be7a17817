//! The judge's second look at every value: the same call, run on the reference solution.
//!
//! A graded test's checks look at what its author chose: a property (rows sum to one),
//! values at a few points, a gradient computed from the learner's own forward pass. Code
//! can satisfy them without computing what the lesson asks for: a forward pass that
//! answers a gradient check's probes from memory, a backward pass that returns zeros where
//! the forward pass returns zeros too. So where the judge is built on the reference
//! solution, [`observe`](crate::observe) also runs each call there, on the inputs the test
//! built (the same ones the learner's code got, since the test body computes them the
//! same way, from the tape's values where they depend on earlier calls), and compares:
//! every value the learner returned must be the reference's up to rounding
//! ([`same_number`](crate::tape::same_number)).
//!
//! The test's own checks speak first: they name the mistake. Only when they all pass
//! does the first difference fail the test ([`first_difference`], read by
//! [`graded`](crate::graded)), with a message that says which call differed and where.
//!
//! What the comparison cannot establish, it leaves to the test's checks:
//! - a call where the reference panics (an input it refuses) is not compared;
//! - after [`observe_any`](crate::observe_any) or [`object_any`](crate::object_any) (a
//!   random draw, a model with random weights, a training run) nothing is compared,
//!   because the state that follows may rightly differ from the reference's.
//!
//! In the learner's own edition there is no reference to run: the judge is the learner's
//! test executable, the checker does not set [`REFERENCE_ENV`],
//! and the test's checks alone decide.

use crate::tape::{REFERENCE_ENV, Taped};
use crate::{MESSAGES, tr};
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{LazyLock, Once};

/// The first call of a test whose value differed from the reference's.
struct Difference {
    label: String,
    call: usize,
    what: String,
}

thread_local! {
    /// How many calls into the lesson the running test has made.
    static CALLS: Cell<usize> = const { Cell::new(0) };
    /// Whether the running test has made a call whose answer is not unique.
    static UNPINNED: Cell<bool> = const { Cell::new(false) };
    /// The first difference the running test met.
    static DIFFERENCE: RefCell<Option<Difference>> = const { RefCell::new(None) };
    /// Whether this thread is running a call on the reference (its panics are expected
    /// and not printed).
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Whether this process compares with the reference: the checker's judge on the reference
/// solution.
fn compares() -> bool {
    static COMPARES: LazyLock<bool> = LazyLock::new(|| {
        crate::tape::replay_dir().is_some()
            && std::env::var_os(REFERENCE_ENV).is_some_and(|v| v == "1")
    });
    *COMPARES
}

/// Counts a call into the lesson (an [`observe`](crate::observe) or an
/// [`object`](crate::object)).
pub(crate) fn count_call() {
    CALLS.with(|calls| calls.set(calls.get() + 1));
}

/// From here on, the running test's values are not compared.
pub(crate) fn unpin() {
    UNPINNED.with(|unpinned| unpinned.set(true));
}

/// Runs `call` on the reference, where this process compares and the test is still
/// pinned: its value, or `None` (not comparing, or the reference panicked).
pub(crate) fn run<T>(call: impl FnOnce() -> T) -> Option<T> {
    if !compares() || UNPINNED.with(Cell::get) {
        return None;
    }
    quiet_panics();
    QUIET.with(|quiet| quiet.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(call));
    QUIET.with(|quiet| quiet.set(false));
    outcome.ok()
}

/// Runs `call` on the reference and keeps the first difference between its value and the
/// learner's `got`.
pub(crate) fn compare<T: Taped>(label: &str, got: &T, call: impl FnOnce() -> T) {
    let Some(reference) = run(call) else {
        return;
    };
    let Some(what) = got.differs_from(&reference) else {
        return;
    };
    DIFFERENCE.with(|first| {
        first.borrow_mut().get_or_insert_with(|| Difference {
            label: label.to_owned(),
            call: CALLS.with(Cell::get),
            what,
        });
    });
}

/// The first call of the running test whose value differed from the reference's: its
/// label and the message that fails the test.
pub fn first_difference() -> Option<(String, String)> {
    DIFFERENCE.with(|first| {
        first.borrow().as_ref().map(|difference| {
            (
                difference.label.clone(),
                tr!(
                    MESSAGES,
                    "differs-from-reference",
                    label = difference.label.as_str(),
                    call = difference.call,
                    what = difference.what.as_str()
                ),
            )
        })
    })
}

/// Installs, once, a panic hook that prints nothing for panics of calls run on the
/// reference (an input it refuses is expected) and defers to the previous hook otherwise.
fn quiet_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
}
