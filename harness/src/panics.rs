//! What a panic in the learner's code means.
//!
//! A panic that leaves a learner's function and ends the test would otherwise reach the
//! learner as ndarray's or the standard library's words ("collapse_axis: Index 3 must be
//! less than axis length 3 for array with shape [3, 4]"), without the function it came
//! from or the line of theirs that made it. So:
//!
//! - while a call into the learner's code runs ([`crate::observe`]), a panic hook notes
//!   where in the lesson's source the panic came from: the innermost frame of the backtrace
//!   in a lesson's `src/` ([`learner_site`]), shown as `lessons/<id>/src/<file>:<line>`
//!   (nothing, where the backtrace cannot be read: a build without debug information, or a
//!   process that may not read its own executable);
//! - the tape carries that site with the panic's message, so the judge knows it too;
//! - when such a panic is what ends a graded test, [`crate::graded`] reports [`explain`]:
//!   the function, the site, the message as it was, and what the common ndarray and Rust
//!   panics mean here ([`meaning`]), in the learner's language.
//!
//! A `todo!()` is left as it is: it means "not started", which the checker reports itself.
//! A panic the test catches (a test that expects one) is left to the test.

use crate::{MESSAGES, tr};
use std::cell::{Cell, RefCell};

thread_local! {
    /// Whether a call into the learner's code is running on this thread.
    static IN_LEARNER_CALL: Cell<bool> = const { Cell::new(false) };
    /// Where the last panic inside a learner's call came from, if the backtrace says.
    static SITE: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The last panic that left a learner's call: its call's label, message and site.
    static LAST: RefCell<Option<LearnerPanic>> = const { RefCell::new(None) };
    /// The arguments of the learner's call about to run, as [`call_args!`](crate::call_args)
    /// described them.
    static ARGS: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// What a call's argument is, in a panic's message: an array's shape, a list's length, a
/// number's value.
pub trait Shape {
    /// The description: `(2, 3)`, `len 4`, `7`.
    fn shape(&self) -> String;
}

impl<S, D> Shape for course_common::ndarray::ArrayBase<S, D>
where
    S: course_common::ndarray::RawData,
    D: course_common::ndarray::Dimension,
{
    fn shape(&self) -> String {
        let dims: Vec<String> = self.shape().iter().map(usize::to_string).collect();
        match dims.len() {
            1 => format!("({},)", dims[0]),
            _ => format!("({})", dims.join(", ")),
        }
    }
}

impl<T> Shape for [T] {
    fn shape(&self) -> String {
        format!("len {}", self.len())
    }
}

impl<T> Shape for Vec<T> {
    fn shape(&self) -> String {
        self.as_slice().shape()
    }
}

impl<T: Shape + ?Sized> Shape for &T {
    fn shape(&self) -> String {
        (**self).shape()
    }
}

impl<T: Shape> Shape for Option<T> {
    fn shape(&self) -> String {
        match self {
            Some(value) => value.shape(),
            None => "None".into(),
        }
    }
}

macro_rules! shape_by_value {
    ($($t:ty),*) => {
        $(impl Shape for $t {
            fn shape(&self) -> String {
                self.to_string()
            }
        })*
    };
}
shape_by_value!(usize, u64, u32, i64, i32, f64, f32, bool);

impl Shape for str {
    fn shape(&self) -> String {
        format!("{} bytes", self.len())
    }
}

impl Shape for String {
    fn shape(&self) -> String {
        self.as_str().shape()
    }
}

/// While alive, the arguments of the next learner calls on this thread, for a panic's
/// message: made by [`call_args!`](crate::call_args), dropped after the call.
#[must_use = "the arguments are described only while the guard lives"]
pub struct CallArgs(Option<String>);

impl CallArgs {
    /// Describes `args` (name, shape) until the guard is dropped.
    pub fn new(args: &[(&str, String)]) -> CallArgs {
        let text = args
            .iter()
            .map(|(name, shape)| format!("{name}: {shape}"))
            .collect::<Vec<_>>()
            .join(", ");
        CallArgs(ARGS.with(|current| current.borrow_mut().replace(text)))
    }
}

impl Drop for CallArgs {
    fn drop(&mut self) {
        ARGS.with(|current| *current.borrow_mut() = self.0.take());
    }
}

/// Describes the arguments of the learner's call that follows, by name and shape, so that
/// a panic in it says what it was given:
///
/// ```ignore
/// let _args = call_args!(scores, mask);
/// observe("apply_mask", || apply_mask(scores, mask))
/// ```
///
/// shows, if `apply_mask` panics, "`apply_mask(scores: (2, 3), mask: (3, 3))` panicked at …".
#[macro_export]
macro_rules! call_args {
    ($($arg:ident),* $(,)?) => {
        $crate::panics::CallArgs::new(&[
            $((stringify!($arg), $crate::panics::Shape::shape(&$arg))),*
        ])
    };
}

/// A panic that left a call into the learner's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LearnerPanic {
    /// The call's label (`Embedding::forward`).
    pub label: String,
    /// The panic's message, as the learner's code panicked with it.
    pub message: String,
    /// Where in the lesson's source it came from (`lessons/04-…/src/lib.rs:165`), if known.
    pub site: Option<String>,
    /// The call's arguments, by name and shape (`scores: (2, 3)`), where the test said.
    pub args: Option<String>,
}

/// The message a `todo!()` panics with.
pub(crate) const NOT_STARTED: &str = "not yet implemented";

/// Runs `f`, a call a test expects to panic (an input the contract refuses), and returns
/// the panic's message, or `None` if it returned. A `todo!()` is passed on as it is: a
/// function not yet written has refused nothing, and the test must fail as not started,
/// where `#[should_panic]` or `catch_unwind(..).is_err()` would pass on a stub.
pub fn expected_panic(f: impl FnOnce()) -> Option<String> {
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).err()?;
    let message = crate::tape::panic_message(payload.as_ref());
    if message.starts_with(NOT_STARTED) {
        std::panic::resume_unwind(payload);
    }
    Some(message)
}

/// Runs `call`, a call into the learner's code, noting where a panic inside it comes from
/// (see the module docs); what it returns is `call`'s, panics included.
pub fn in_learner_call<T>(call: impl FnOnce() -> T) -> T {
    install_hook();
    SITE.with(|site| site.borrow_mut().take());
    let before = IN_LEARNER_CALL.with(|flag| flag.replace(true));
    // Restores the flag however `call` ends.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            IN_LEARNER_CALL.with(|flag| flag.set(self.0));
        }
    }
    let _restore = Restore(before);
    call()
}

/// The site [`in_learner_call`] noted for the panic that just left the call, if any.
pub fn take_site() -> Option<String> {
    SITE.with(|site| site.borrow_mut().take())
}

/// Notes that a panic left the learner's call `label` (recorded, replayed or, outside
/// the checker, caught on its way): [`explained`] then recognises it at the test's end.
pub fn note(label: &str, message: &str, site: Option<String>) {
    LAST.with(|last| {
        *last.borrow_mut() = Some(LearnerPanic {
            label: label.to_owned(),
            message: message.to_owned(),
            site,
            args: ARGS.with(|args| args.borrow().clone()),
        })
    });
}

/// The failure message of a test that ended with a panic whose message is `message`:
/// [`explain`]ed if it is the last panic that left a learner's call (and not a `todo!()`);
/// otherwise `message` itself (a failed check, or a panic the test caught and replaced),
/// followed by its [`meaning`] where it is a common ndarray or Rust panic (one in the
/// test's own code, on a value of the wrong shape the learner's code returned).
pub fn explained(message: &str) -> String {
    let last = LAST.with(|last| last.borrow_mut().take());
    if message.starts_with(NOT_STARTED) {
        return message.to_owned();
    }
    match last {
        Some(panic) if panic.message == message => explain(&panic),
        _ => match meaning(message) {
            Some(meaning) => format!(
                "{message}\n{}",
                tr!(MESSAGES, "learner-panic-meaning", meaning = meaning)
            ),
            None => message.to_owned(),
        },
    }
}

/// What a learner's panic says to the learner: the function and the site, the message
/// as it was, and its meaning where it is a common one.
pub fn explain(panic: &LearnerPanic) -> String {
    // "in `softmax_rows`" says something only where the panic is not in the function
    // the test called.
    let own = format!(", in `{}`", panic.label);
    let site = panic
        .site
        .as_deref()
        .map(|site| site.strip_suffix(own.as_str()).unwrap_or(site));
    let function = match &panic.args {
        Some(args) => format!("{}({args})", panic.label),
        None => panic.label.clone(),
    };
    let headline = match site {
        Some(site) => tr!(
            MESSAGES,
            "learner-panic-at",
            function = &function,
            site = site,
            message = &panic.message
        ),
        None => tr!(
            MESSAGES,
            "learner-panic",
            function = &function,
            message = &panic.message
        ),
    };
    match meaning(&panic.message) {
        Some(meaning) => format!(
            "{headline}\n{}",
            tr!(MESSAGES, "learner-panic-meaning", meaning = meaning)
        ),
        None => headline,
    }
}

/// The unsigned integers in `text`, in order.
fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The text between the first `[` after `from` and its `]`.
fn bracketed(text: &str, from: usize) -> Option<&str> {
    let open = from + text[from..].find('[')?;
    let close = open + text[open..].find(']')?;
    Some(&text[open + 1..close])
}

/// What a common ndarray or Rust panic message means in a lesson, in this process's
/// language; `None` for any other message.
pub fn meaning(message: &str) -> Option<String> {
    let n = numbers(message);
    let at = |i: usize| n.get(i).cloned().unwrap_or_default();
    if message.starts_with("collapse_axis: Index") {
        // "collapse_axis: Index 3 must be less than axis length 3 for array with shape [3, 4]"
        let shape = bracketed(message, 0).unwrap_or_default();
        if at(1) == "0" {
            // An axis of length 0: the array is empty, most often a slice whose range is.
            return Some(tr!(MESSAGES, "panic-index-empty-axis", shape = shape));
        }
        return Some(tr!(
            MESSAGES,
            "panic-index-past-axis",
            index = at(0),
            length = at(1),
            shape = shape
        ));
    }
    if message.starts_with("ndarray: index") && message.contains("out of bounds") {
        return Some(tr!(MESSAGES, "panic-index-out-of-array"));
    }
    if message.starts_with("ndarray: inputs") && message.contains("matrix multiplication")
    {
        // "ndarray: inputs 3 × 4 and 3 × 4 are not compatible for matrix multiplication"
        return Some(tr!(
            MESSAGES,
            "panic-matrix-product",
            left = format!("({}, {})", at(0), at(1)),
            right = format!("({}, {})", at(2), at(3)),
            inner_left = at(1),
            inner_right = at(2)
        ));
    }
    if message.contains("IncompatibleShape") || message.contains("incompatible shapes") {
        return Some(tr!(MESSAGES, "panic-incompatible-shapes"));
    }
    if message.starts_with("ndarray: could not broadcast") {
        // "ndarray: could not broadcast array from shape: [3] to: [4, 2]"
        let from = bracketed(message, 0).unwrap_or_default();
        let to_at = message.find("to:").unwrap_or(0);
        let to = bracketed(message, to_at).unwrap_or_default();
        return Some(tr!(MESSAGES, "panic-broadcast", from = from, to = to));
    }
    if message.starts_with("Slice end") || message.starts_with("Slice begin") {
        return Some(tr!(
            MESSAGES,
            "panic-slice-past-end",
            index = at(0),
            length = at(1)
        ));
    }
    if message.starts_with("index out of bounds: the len is") {
        return Some(tr!(
            MESSAGES,
            "panic-index-past-list",
            length = at(0),
            index = at(1)
        ));
    }
    if message.starts_with("attempt to subtract with overflow") {
        return Some(tr!(MESSAGES, "panic-subtract-overflow"));
    }
    if message.starts_with("attempt to divide by zero")
        || message
            .starts_with("attempt to calculate the remainder with a divisor of zero")
    {
        return Some(tr!(MESSAGES, "panic-divide-by-zero"));
    }
    if message.starts_with("called `Option::unwrap()` on a `None` value") {
        return Some(tr!(MESSAGES, "panic-unwrap-none"));
    }
    None
}

/// Installs, once, the hook that notes where a panic inside a learner's call comes from;
/// it then runs the hook that was there (which prints the panic as usual).
fn install_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_call = IN_LEARNER_CALL.with(Cell::get);
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            if in_call && !payload.starts_with(NOT_STARTED) {
                let backtrace = std::backtrace::Backtrace::force_capture().to_string();
                SITE.with(|site| *site.borrow_mut() = learner_site(&backtrace));
            }
            previous(info);
        }));
    });
}

/// The innermost frame of `backtrace` (as `Backtrace` prints it) in a lesson's source,
/// `<NN-name>/src/<file>.rs`, as the learner's edition names it,
/// `lessons/<NN-name>/src/<file>.rs:<line>`, followed by the function it is in when the
/// backtrace names one (`, in `softmax_rows``).
pub fn learner_site(backtrace: &str) -> Option<String> {
    let lines: Vec<&str> = backtrace.lines().collect();
    lines.iter().enumerate().find_map(|(at, line)| {
        let path = line.trim().strip_prefix("at ")?;
        let path = path.replace('\\', "/");
        let (file, position) = path.split_once(".rs:")?;
        let line_number = position.split(':').next()?;
        let parts: Vec<&str> = file.split('/').collect();
        let src = parts.iter().rposition(|part| *part == "src")?;
        let lesson = parts.get(src.checked_sub(1)?)?;
        let numbered = lesson.len() > 3
            && lesson.as_bytes()[..2].iter().all(u8::is_ascii_digit)
            && lesson.as_bytes()[2] == b'-';
        // The lesson's own code, not a suite's or a solution's path under the same name.
        let in_solutions = src >= 2 && parts[src - 2] == "solutions";
        if !numbered || in_solutions {
            return None;
        }
        let rest = parts[src + 1..].join("/");
        let site = format!("lessons/{lesson}/src/{rest}.rs:{line_number}");
        // The frame's function, on the line above: `  2: attention::softmax_rows`.
        let function = at
            .checked_sub(1)
            .and_then(|above| lines[above].trim().split_once(": "))
            .map(|(_, symbol)| {
                let symbol = symbol.trim_end_matches("::{{closure}}");
                // Without the crate's name: `Embedding::forward`, `softmax_rows`.
                symbol
                    .split_once("::")
                    .map_or(symbol, |(_, rest)| rest)
                    .to_owned()
            })
            .filter(|function| !function.is_empty() && !function.contains(' '));
        Some(match function {
            Some(function) => format!("{site}, in `{function}`"),
            None => site,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_expected_panic_is_its_message_and_a_todo_is_passed_on() {
        assert_eq!(
            expected_panic(|| panic!("d_head must be even")).as_deref(),
            Some("d_head must be even")
        );
        assert_eq!(expected_panic(|| {}), None);
        // What `todo!("apply_rope")` panics with.
        let todo = std::panic::catch_unwind(|| {
            expected_panic(|| std::panic::panic_any("not yet implemented: apply_rope"))
        });
        let payload = todo.expect_err("a todo!() is passed on");
        assert!(crate::tape::panic_message(payload.as_ref()).starts_with(NOT_STARTED));
    }

    #[test]
    fn the_site_is_the_innermost_frame_in_a_lesson_s_source() {
        let backtrace = "   0: std::panicking::begin_panic\n\
             \x20            at /rustc/abc/library/std/src/panicking.rs:769:5\n\
             \x20  1: ndarray::dimension::do_collapse_axis\n\
             \x20            at /home/u/.cargo/registry/src/index/ndarray-0.17.2/src/dimension/mod.rs:376:5\n\
             \x20  2: positional_encoding::Embedding::forward\n\
             \x20            at /check/work/abc/04-positional-encoding/src/lib.rs:165:23\n\
             \x20  3: positional_encoding::embed\n\
             \x20            at /check/work/abc/04-positional-encoding/src/model/embed.rs:9:5\n";
        assert_eq!(
            learner_site(backtrace).as_deref(),
            Some(
                "lessons/04-positional-encoding/src/lib.rs:165, in `Embedding::forward`"
            )
        );
        let solution = "  at /course/solutions/04-positional-encoding/src/lib.rs:1:1\n";
        assert_eq!(learner_site(solution), None);
        assert_eq!(learner_site("   0: <unknown>\n"), None);
    }

    #[test]
    fn the_common_panics_are_read_and_others_left_alone() {
        course_i18n::set_current(course_i18n::Lang::En);
        let index = meaning(
            "collapse_axis: Index 3 must be less than axis length 3 for array with shape [3, 4]",
        )
        .unwrap();
        assert!(index.contains("[3, 4]") && index.contains('3'), "{index}");
        let product = meaning(
            "ndarray: inputs 3 × 4 and 3 × 4 are not compatible for matrix multiplication",
        )
        .unwrap();
        assert!(product.contains("(3, 4)"), "{product}");
        let broadcast =
            meaning("ndarray: could not broadcast array from shape: [3] to: [4, 2]")
                .unwrap();
        assert!(
            broadcast.contains("[3]") && broadcast.contains("[4, 2]"),
            "{broadcast}"
        );
        for message in [
            "called `Result::unwrap()` on an `Err` value: ShapeError/IncompatibleShape: incompatible shapes",
            "index out of bounds: the len is 3 but the index is 3",
            "attempt to subtract with overflow",
            "attempt to divide by zero",
            "Slice end 8 is past end of axis of length 6",
            "called `Option::unwrap()` on a `None` value",
        ] {
            assert!(meaning(message).is_some(), "{message}");
        }
        assert_eq!(meaning("d_model must be even, got 7"), None);
        let empty = meaning(
            "collapse_axis: Index 0 must be less than axis length 0 for array with shape [0, 7]",
        )
        .expect("an empty axis is read");
        assert!(
            empty.contains("empty") && empty.contains("[0, 7]"),
            "{empty}"
        );
    }

    #[test]
    fn the_arguments_described_for_a_call_are_shown_with_its_panic() {
        use course_common::ndarray::Array2;
        course_i18n::set_current(course_i18n::Lang::En);
        let scores = Array2::<f64>::zeros((2, 3));
        let tokens = vec![1_usize, 4, 2];
        {
            let _args = crate::call_args!(scores, tokens);
            note("softmax_rows", "attempt to divide by zero", None);
        }
        let message = explained("attempt to divide by zero");
        assert!(
            message.contains("softmax_rows(scores: (2, 3), tokens: len 3)"),
            "{message}"
        );
        // Once the guard is gone, the next call has none.
        note("softmax_rows", "attempt to divide by zero", None);
        let message = explained("attempt to divide by zero");
        assert!(!message.contains("scores"), "{message}");
    }

    #[test]
    fn only_the_panic_that_left_the_learner_s_call_is_explained() {
        course_i18n::set_current(course_i18n::Lang::En);
        note("softmax_rows", "attempt to divide by zero", None);
        let text = explained("attempt to divide by zero");
        assert!(text.starts_with("`softmax_rows` panicked"), "{text}");
        // A test's own failure after the learner's panic was caught is its own.
        note("softmax_rows", "attempt to divide by zero", None);
        assert_eq!(explained("rows must sum to 1"), "rows must sum to 1");
        // A common panic in the test's own code (on a value of the wrong shape) is read too.
        let product = "ndarray: inputs 2 × 3 and 4 × 3 are not compatible for matrix multiplication";
        let text = explained(product);
        assert!(
            text.starts_with(product) && text.contains("transpose"),
            "{text}"
        );
        // A todo!() means not started, which the checker says itself.
        note("softmax_rows", "not yet implemented: softmax_rows", None);
        assert_eq!(
            explained("not yet implemented: softmax_rows"),
            "not yet implemented: softmax_rows"
        );
    }
}
