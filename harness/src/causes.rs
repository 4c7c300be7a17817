//! The likely causes that failing checks name, each a message of a catalog.
//!
//! A [`Cause`] is a message id (with its arguments, for the few causes that have some)
//! in a [`Catalog`]: the harness's own for the causes that several lessons or both of a
//! lesson's test files name, a suite's for the causes only that suite names. It is
//! translated only when it is shown, in the process's language, and it keeps its id, so
//! that the named mistakes' recorded wrong answers ([`crate::named`](mod@crate::named)) and the reports
//! can say which mistake was named whatever the language.
//!
//! The causes every lesson's tests share are constants here, one module per lesson:
//! [`rnn`] (01), [`attention`] (02), [`multi_head_attention`] (03),
//! [`positional_encoding`] (04), [`encoder_layer`] (05) and [`full_model`] (06). The wrong
//! answers themselves are computed by the maintainers' builders, which the student edition
//! does not carry (see [`crate::named`](mod@crate::named)).

use crate::MESSAGES;
use course_i18n::{Arg, Catalog};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::sync::Mutex;

/// A likely cause: a message of a catalog, shown in this process's language.
///
/// It reads as the text it stands for: `&CAUSE` is a `&str` where one is expected,
/// `{CAUSE}` in a format string and `cause = CAUSE` in [`tr!`](crate::tr) give its text.
#[derive(Clone, Copy)]
pub struct Cause {
    catalog: Source,
    id: &'static str,
    args: &'static [(&'static str, CauseArg)],
}

/// Where a cause's message is. The harness's catalog is named without a reference, so
/// that the cause constants are valid `const`s on the oldest Rust the course supports
/// (1.89), where a constant cannot hold a reference to a static with interior mutability.
#[derive(Clone, Copy)]
enum Source {
    Harness,
    Catalog(&'static Catalog),
}

/// An argument of a [`Cause`]'s message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CauseArg {
    /// Text shown as it is (a symbol: `x`, `norm_1`).
    Text(&'static str),
    /// Another message of the same catalog, translated with it.
    Message(&'static str),
}

impl Cause {
    /// The message `id` of `catalog`, without arguments.
    pub const fn new(catalog: &'static Catalog, id: &'static str) -> Cause {
        Cause {
            catalog: Source::Catalog(catalog),
            id,
            args: &[],
        }
    }

    /// The message `id` of the harness's catalog (`harness/locales/`).
    pub const fn harness(id: &'static str) -> Cause {
        Cause {
            catalog: Source::Harness,
            id,
            args: &[],
        }
    }

    /// The same message, with these arguments.
    pub const fn with(self, args: &'static [(&'static str, CauseArg)]) -> Cause {
        Cause { args, ..self }
    }

    /// The message's id: what names this cause in every language.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The catalog the message belongs to.
    pub fn catalog(&self) -> &'static Catalog {
        match self.catalog {
            Source::Harness => &MESSAGES,
            Source::Catalog(catalog) => catalog,
        }
    }

    /// The message's arguments.
    pub fn args(&self) -> &'static [(&'static str, CauseArg)] {
        self.args
    }

    /// The cause as the reports name it, whatever the language: `catalog:id`
    /// (`harness:mask-after-softmax`).
    pub fn key(&self) -> String {
        format!("{}:{}", self.catalog().name(), self.id)
    }

    /// Notes that a check found this mistake made: the learner's result is this cause's
    /// wrong answer. The judge's verdict lists the causes a failed test named
    /// ([`take_named`]), so that reports can count mistakes by id.
    pub fn named(self) -> Cause {
        NAMED.with(|named| {
            let mut named = named.borrow_mut();
            let key = self.key();
            if !named.contains(&key) {
                named.push(key);
            }
        });
        self
    }

    /// The cause's text in this process's language, kept for the rest of the process
    /// (the causes are a fixed set of messages, each translated once).
    pub fn text(&self) -> &'static str {
        let args: Vec<(&str, Arg)> = self
            .args
            .iter()
            .map(|&(name, arg)| {
                let value = match arg {
                    CauseArg::Text(text) => text.to_owned(),
                    CauseArg::Message(id) => self.catalog().tr(id, &[]),
                };
                (name, Arg::from(value))
            })
            .collect();
        kept(self.catalog().tr(self.id, &args))
    }
}

// A cause only reads its catalog (whose messages are parsed once, behind a `OnceLock`), so
// a check that panics cannot leave it half-changed: tests may catch the panics of checks
// that hold causes.
impl std::panic::UnwindSafe for Cause {}
impl std::panic::RefUnwindSafe for Cause {}

impl PartialEq for Cause {
    fn eq(&self, other: &Cause) -> bool {
        self.catalog().name() == other.catalog().name()
            && self.id == other.id
            && self.args == other.args
    }
}

impl std::ops::Deref for Cause {
    type Target = str;
    fn deref(&self) -> &str {
        self.text()
    }
}

impl AsRef<str> for Cause {
    fn as_ref(&self) -> &str {
        self.text()
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.catalog().name(), self.id)?;
        if !self.args.is_empty() {
            write!(f, "{:?}", self.args)?;
        }
        Ok(())
    }
}

impl From<Cause> for Arg {
    fn from(cause: Cause) -> Self {
        cause.text().into()
    }
}

thread_local! {
    /// The causes the checks of the test this thread runs have found, by key.
    static NAMED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// The keys of the causes this thread's checks have found since the last call, in the
/// order they were found ([`Cause::named`]).
pub fn take_named() -> Vec<String> {
    NAMED.with(|named| std::mem::take(&mut *named.borrow_mut()))
}

/// What a check says about the likely cause of its failure: text, or a [`Cause`], which the
/// verdict also lists by key when the check fails ([`Cause::named`]).
pub trait Hint {
    /// The hint's text, in this process's language.
    fn text(&self) -> &str;
    /// Called when the check fails: a cause notes that it was found.
    fn failed(&self) {}
}

impl Hint for str {
    fn text(&self) -> &str {
        self
    }
}

impl Hint for String {
    fn text(&self) -> &str {
        self
    }
}

impl Hint for Cause {
    fn text(&self) -> &str {
        Cause::text(self)
    }
    fn failed(&self) {
        self.named();
    }
}

/// `text`, kept for the rest of the process. Each distinct text is kept once: what is
/// kept is a fixed set (the causes' texts in one language, the ids and symbols of the
/// recorded wrong answers), so the memory is bounded.
pub fn kept(text: String) -> &'static str {
    static KEPT: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let kept = kept.get_or_insert_with(HashSet::new);
    match kept.get(text.as_str()) {
        Some(&text) => text,
        None => {
            let text: &'static str = Box::leak(text.into_boxed_str());
            kept.insert(text);
            text
        }
    }
}

/// Lesson 01's causes: the Elman RNN's step, forward pass, context vector and
/// backpropagation through time.
pub mod rnn;

/// Lesson 02's causes: softmax, attention, masks, `Linear`.
pub mod attention;

/// Lesson 03's causes: split and merge heads, multi-head attention.
pub mod multi_head_attention;

/// Lesson 04's causes: the sinusoidal table, the embedding, adding the encoding.
pub mod positional_encoding;

/// Lesson 05's causes: LayerNorm, the feed-forward network, the encoder and decoder
/// layers, post-LN and pre-LN.
pub mod encoder_layer;

/// Lesson 06's causes: the full model's masks, the loss, the schedule, Adam, decoding.
pub mod full_model;

/// Lesson 07's causes: the BPE tokenizer, RMSNorm, RoPE, SwiGLU, the schedule, AdamW,
/// sampling, bits per byte.
pub mod gpt;
