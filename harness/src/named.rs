//! The named mistakes' wrong answers, computed by the maintainers' builders and recorded
//! beside the tests for everyone else.
//!
//! A check names a mistake when the learner's result equals what the mistake produces
//! ([`Misconception`]). Computing that wrong answer takes most of the right computation
//! (softmax over the wrong axis is a softmax), so the code that computes it must not
//! ship where a learner can read or call it. The builders live in the course's
//! `mistakes` crate, outside the student edition; each call of one in a test is written
//!
//! ```ignore
//! assert_matrix_close("weights", &got, &expected, Tol::TIGHT, &named!(NAMED, softmax_mistakes(&scores)));
//! ```
//!
//! with `NAMED` the test file's [`Named`]: the file's recorded results, `include_str!`ed
//! from the JSON file beside it (`visible.rs` → `visible.named.json`). What the macro
//! does depends on the test crate's `builders` feature:
//!
//! - **on** (the solutions' tests, in the maintainers' workspace): it calls the builder
//!   and checks that the recorded result is the same, up to rounding, so a change of a
//!   builder or of a test's inputs fails CI until `cargo xtask named` records it again;
//!   with `COURSE_NAMED_WRITE=<workspace root>` it records the result instead;
//! - **off** (the learner's crate, the student edition, the checker's grading builds):
//!   the builder's code is not compiled at all, and the macro returns the recorded
//!   result.
//!
//! A result is recorded under the test function's name, the builder call's text and its
//! rank among the calls of that text in that test, so the same call in the same test finds
//! it. A call must therefore run whether the test passes or fails: made only in a failure
//! message, it would be recorded by no passing run. A builder's inputs must be the test's
//! own (fixed inputs, or values the builders compute from them), never a value the
//! learner's code returned: the record holds what the builder computed from the
//! solution's values, so a wrong intermediate value would leave the learner's result
//! unnamed where the builder, given the learner's value, would have named it. Causes are
//! recorded by id ([`Cause`]), and shown in the reader's language.
//!
//! Only wrong answers and values for the tests' own fixed inputs are recorded, which the
//! learner could compute by hand: no code that computes a lesson's result ships.

use crate::causes::{Cause, CauseArg, kept};
use crate::check::Misconception;
use course_common::{Float, Matrix};
use course_i18n::Catalog;
use serde_json::{Map, Number, Value, json};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The environment variable that makes builders record their results: the workspace
/// root, against which each test file's path (`file!()`) is resolved.
pub const WRITE_ENV: &str = "COURSE_NAMED_WRITE";

/// The command that records the results again, named by every stale-record failure.
const RECORD_COMMAND: &str = "cargo xtask named";

/// A file's record: by test, by builder call (its text), the results of its calls in order.
type Record = BTreeMap<String, BTreeMap<String, Vec<Value>>>;

/// One test file's recorded results (see the module docs).
pub struct Named {
    source: &'static str,
    catalogs: &'static [&'static Catalog],
    text: &'static str,
    parsed: OnceLock<Record>,
}

impl Named {
    /// The results recorded for the test file `source` (its `file!()`), in `text` (its
    /// `.named.json`, `include_str!`ed), whose causes are messages of the harness's
    /// catalog or of one of `catalogs`.
    pub const fn new(
        source: &'static str,
        catalogs: &'static [&'static Catalog],
        text: &'static str,
    ) -> Named {
        Named {
            source,
            catalogs,
            text,
            parsed: OnceLock::new(),
        }
    }

    /// The result the builder computed, checked against the record (or recorded, with
    /// [`WRITE_ENV`]). Used by [`named!`](macro@crate::named) where the builders are compiled.
    #[track_caller]
    pub fn built<T: Recorded>(&self, call: &'static str, value: T) -> T {
        let call = &call_key(call);
        let (test, rank) = next_call(call);
        BUILDERS_RAN.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Err(why) = value.tells_apart() {
            panic!(
                "`{call}` in {test} (its call {}) in {}: {why}. A learner whose result \
                 matched would be told one of them, perhaps the wrong one: choose inputs \
                 on which every listed mistake gives a different result",
                rank + 1,
                self.source,
            );
        }
        let json = value.to_json();
        if let Some(root) = std::env::var_os(WRITE_ENV) {
            self.write(Path::new(&root), &test, call, rank, json);
            return value;
        }
        let recorded = self.entry(&test, call, rank);
        if !recorded.is_some_and(|recorded| same(recorded, &json)) {
            panic!(
                "the recorded result of `{call}` in {test} (its call {}) in {} is not what \
                 the builders compute now: run `{RECORD_COMMAND}` and commit the \
                 .named.json files",
                rank + 1,
                self.source,
            );
        }
        value
    }

    /// The recorded result of this call. Used by [`named!`](macro@crate::named) where the
    /// builders are not compiled.
    #[track_caller]
    pub fn recorded<T: Recorded>(&self, call: &'static str) -> T {
        let call = &call_key(call);
        let (test, rank) = next_call(call);
        match self.entry(&test, call, rank) {
            Some(json) => T::from_json(json, self).unwrap_or_else(|| {
                panic!(
                    "{}: the recorded result of `{call}` in {test} is not a {}",
                    self.source,
                    std::any::type_name::<T>()
                )
            }),
            None => T::missing(self.source, &test, call),
        }
    }

    fn entry(&self, test: &str, call: &str, rank: usize) -> Option<&Value> {
        let parsed = self.parsed.get_or_init(|| {
            if self.text.trim().is_empty() {
                return BTreeMap::new();
            }
            serde_json::from_str(self.text).unwrap_or_else(|error| {
                panic!("{}: its .named.json is not valid: {error}", self.source)
            })
        });
        let calls = parsed.get(test)?.get(call)?;
        calls.get(rank).filter(|value| !value.is_null())
    }

    fn write(&self, root: &Path, test: &str, call: &str, rank: usize, json: Value) {
        static WRITTEN: Mutex<Option<HashMap<PathBuf, Record>>> = Mutex::new(None);
        let path = record_path(root, self.source);
        let mut written = WRITTEN
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let files = written.get_or_insert_with(HashMap::new);
        let file = files.entry(path.clone()).or_default();
        let calls = file
            .entry(test.to_owned())
            .or_default()
            .entry(call.to_owned())
            .or_default();
        if calls.len() <= rank {
            calls.resize(rank + 1, Value::Null);
        }
        calls[rank] = json;
        let text = render(file);
        std::fs::write(&path, text)
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
    }

    /// The catalog named `name`: the harness's or one of the file's.
    fn catalog(&self, name: &str) -> Option<&'static Catalog> {
        if name == crate::MESSAGES.name() {
            return Some(&crate::MESSAGES);
        }
        self.catalogs
            .iter()
            .copied()
            .find(|catalog| catalog.name() == name)
    }
}

/// Where the results of the test file `source` are recorded: beside it, its extension
/// `.rs` replaced by `.named.json`.
pub fn record_path(root: &Path, source: &str) -> PathBuf {
    root.join(source).with_extension("named.json")
}

/// The file's text: one line per builder call of a test, tests and calls in the order of
/// their names, so that a change shows as the lines of the calls it concerns.
fn render(file: &Record) -> String {
    let string = |text: &str| serde_json::to_string(text).expect("a string serialises");
    let tests: Vec<String> = file
        .iter()
        .map(|(test, calls)| {
            let calls: Vec<String> = calls
                .iter()
                .map(|(call, results)| {
                    let results =
                        serde_json::to_string(results).expect("JSON values serialise");
                    format!("    {}: {results}", string(call))
                })
                .collect();
            format!("  {}: {{\n{}\n  }}", string(test), calls.join(",\n"))
        })
        .collect();
    format!("{{\n{}\n}}\n", tests.join(",\n"))
}

thread_local! {
    /// The test this thread runs, and how many times it has made each builder call.
    static CALLS: RefCell<(String, HashMap<String, usize>)> =
        RefCell::new((String::new(), HashMap::new()));
}

/// The running test's name (the last part of the thread's name, which the test runner
/// sets, so that the same test has the same name in every crate that includes its file)
/// and the rank of this call among the calls of the same text in it.
fn next_call(call: &str) -> (String, usize) {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("main");
    let test = name.rsplit("::").next().unwrap_or(name).to_owned();
    CALLS.with(|calls| {
        let mut calls = calls.borrow_mut();
        if calls.0 != test {
            *calls = (test.clone(), HashMap::new());
        }
        let count = calls.1.entry(call.to_owned()).or_default();
        let rank = *count;
        *count += 1;
        (test, rank)
    })
}

/// The key of a builder call: its text (`stringify!`) without white space or trailing
/// commas, so that reformatting the test does not change it.
fn call_key(call: &str) -> String {
    let compact: String = call.split_whitespace().collect();
    compact
        .replace(",)", ")")
        .replace(",]", "]")
        .replace(",}", "}")
}

/// Whether two recorded values are the same up to rounding: the same structure, the same
/// texts, numbers within 1e-9 relative (the builders run on other machines too, where a
/// matrix product may round differently).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()) + 1e-12
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same(x, y)))
        }
        _ => a == b,
    }
}

/// Whether a builder has run in this process: true in the maintainers' runs of the
/// solutions' tests (the `builders` feature), never where only the records are read.
static BUILDERS_RAN: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Whether this process runs the builders: the fixture checks that guard the records
/// ([`crate::check`]) run only then, on the solution, where a failure is the
/// maintainers' to fix and never a learner's.
pub(crate) fn builders_ran() -> bool {
    BUILDERS_RAN.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether two wrong answers can be told apart by the checks that recognise them: a
/// different shape, or an entry where they differ by more than twice what recognition
/// accepts ([`RECOGNISED`](crate::check::RECOGNISED)), so that no result is recognised
/// as both. NaN and infinities at the same entries are the same.
pub fn distinguishable(a: &Matrix, b: &Matrix) -> bool {
    let tol = crate::check::RECOGNISED;
    a.dim() != b.dim()
        || a.iter().zip(b.iter()).any(|(&x, &y)| {
            if x.is_finite() && y.is_finite() {
                (x - y).abs() > 2.0 * (tol.abs + tol.rel * x.abs().max(y.abs()))
            } else {
                !(x == y || (x.is_nan() && y.is_nan()))
            }
        })
}

/// The first two mistakes of `list` with different causes that give the same result.
fn confusable(list: &[Misconception]) -> Result<(), String> {
    for (i, a) in list.iter().enumerate() {
        for b in &list[i + 1..] {
            if a.cause.key() != b.cause.key() && !distinguishable(&a.result, &b.result) {
                return Err(format!(
                    "the mistakes `{}` and `{}` give the same result on this input",
                    a.cause.key(),
                    b.cause.key()
                ));
            }
        }
    }
    Ok(())
}

/// A value a builder computes that can be recorded.
pub trait Recorded: Sized {
    /// Whether the wrong answers in this value can be told apart (see
    /// [`distinguishable`]): checked where a builder computes it, so that no record
    /// holds two mistakes a learner's result could match at once.
    fn tells_apart(&self) -> Result<(), String> {
        Ok(())
    }
    /// The value as JSON.
    fn to_json(&self) -> Value;
    /// The value back from JSON, its causes resolved in `named`'s catalogs.
    fn from_json(json: &Value, named: &Named) -> Option<Self>;
    /// What a call with no record returns: nothing to name for a list of wrong answers;
    /// a value a test needs cannot be made up, so the others panic.
    fn missing(source: &str, test: &str, call: &str) -> Self {
        panic!(
            "{source}: nothing is recorded for `{call}` in {test}: run `{RECORD_COMMAND}`"
        )
    }
    /// Whether a list of these may be missing from the record (and read as empty): only
    /// wrong answers, which merely name a mistake.
    fn may_be_missing_in_a_list() -> bool {
        false
    }
    /// Whether a list of these can be told apart: for wrong answers, pairwise.
    fn list_tells_apart(list: &[Self]) -> Result<(), String> {
        list.iter().try_for_each(Recorded::tells_apart)
    }
}

impl Recorded for Float {
    fn to_json(&self) -> Value {
        number(*self)
    }
    fn from_json(json: &Value, _: &Named) -> Option<Self> {
        float(json)
    }
}

impl Recorded for Matrix {
    fn to_json(&self) -> Value {
        json!({
            "shape": [self.nrows(), self.ncols()],
            "values": self.iter().map(|&x| number(x)).collect::<Vec<_>>(),
        })
    }
    fn from_json(json: &Value, _: &Named) -> Option<Self> {
        let shape = json.get("shape")?.as_array()?;
        let rows = shape.first()?.as_u64()? as usize;
        let cols = shape.get(1)?.as_u64()? as usize;
        let values = json
            .get("values")?
            .as_array()?
            .iter()
            .map(float)
            .collect::<Option<Vec<_>>>()?;
        Matrix::from_shape_vec((rows, cols), values).ok()
    }
}

impl Recorded for Cause {
    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("catalog".into(), self.catalog().name().into());
        object.insert("id".into(), self.id().into());
        if !self.args().is_empty() {
            let args: Map<String, Value> = self
                .args()
                .iter()
                .map(|&(name, arg)| {
                    let value = match arg {
                        CauseArg::Text(text) => json!({ "text": text }),
                        CauseArg::Message(id) => json!({ "message": id }),
                    };
                    (name.to_owned(), value)
                })
                .collect();
            object.insert("args".into(), Value::Object(args));
        }
        Value::Object(object)
    }
    fn from_json(json: &Value, named: &Named) -> Option<Self> {
        let id = json.get("id")?.as_str()?;
        let catalog = named.catalog(json.get("catalog")?.as_str()?)?;
        let mut cause = Cause::new(catalog, kept(id.to_owned()));
        if let Some(args) = json.get("args").and_then(Value::as_object) {
            let args = args
                .iter()
                .map(|(name, value)| {
                    let arg =
                        if let Some(text) = value.get("text").and_then(Value::as_str) {
                            CauseArg::Text(kept(text.to_owned()))
                        } else {
                            let id = value.get("message")?.as_str()?;
                            CauseArg::Message(kept(id.to_owned()))
                        };
                    Some((kept(name.clone()), arg))
                })
                .collect::<Option<Vec<_>>>()?;
            cause = cause.with(Box::leak(args.into_boxed_slice()));
        }
        Some(cause)
    }
}

impl Recorded for Misconception {
    fn may_be_missing_in_a_list() -> bool {
        true
    }
    fn list_tells_apart(list: &[Self]) -> Result<(), String> {
        confusable(list)
    }
    fn to_json(&self) -> Value {
        json!({ "cause": self.cause.to_json(), "result": self.result.to_json() })
    }
    fn from_json(json: &Value, named: &Named) -> Option<Self> {
        Some(Misconception {
            cause: Cause::from_json(json.get("cause")?, named)?,
            result: Matrix::from_json(json.get("result")?, named)?,
        })
    }
}

impl<T: Recorded> Recorded for Vec<T> {
    fn tells_apart(&self) -> Result<(), String> {
        T::list_tells_apart(self)
    }
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(Recorded::to_json).collect())
    }
    fn from_json(json: &Value, named: &Named) -> Option<Self> {
        json.as_array()?
            .iter()
            .map(|item| T::from_json(item, named))
            .collect()
    }
    fn missing(source: &str, test: &str, call: &str) -> Self {
        if T::may_be_missing_in_a_list() {
            Vec::new()
        } else {
            panic!(
                "{source}: nothing is recorded for `{call}` in {test}: run \
                 `{RECORD_COMMAND}`"
            )
        }
    }
}

impl<T: Recorded> Recorded for Option<T> {
    fn tells_apart(&self) -> Result<(), String> {
        self.as_ref().map_or(Ok(()), Recorded::tells_apart)
    }
    fn to_json(&self) -> Value {
        match self {
            Some(value) => json!({ "some": value.to_json() }),
            None => Value::Null,
        }
    }
    fn from_json(json: &Value, named: &Named) -> Option<Self> {
        match json.get("some") {
            Some(value) => Some(Some(T::from_json(value, named)?)),
            None => json.is_null().then_some(None),
        }
    }
}

/// A builder's lists of wrong answers by name, one for each result of the function it
/// checks (`d_x`, `d_w`, …): `groups["d_x"]` is the list for `d_x`, empty if there is none.
#[derive(Clone, Debug, Default)]
pub struct Groups(BTreeMap<String, Vec<Misconception>>);

impl Groups {
    /// The lists, by name.
    pub fn new<'a>(
        groups: impl IntoIterator<Item = (&'a str, Vec<Misconception>)>,
    ) -> Groups {
        Groups(
            groups
                .into_iter()
                .map(|(name, list)| (name.to_owned(), list))
                .collect(),
        )
    }
}

impl std::ops::Index<&str> for Groups {
    type Output = [Misconception];
    fn index(&self, name: &str) -> &[Misconception] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }
}

impl Recorded for Groups {
    fn tells_apart(&self) -> Result<(), String> {
        self.0.iter().try_for_each(|(name, list)| {
            confusable(list).map_err(|why| format!("{why} (their `{name}`)"))
        })
    }
    fn to_json(&self) -> Value {
        Value::Object(
            self.0
                .iter()
                .map(|(name, list)| (name.clone(), list.to_json()))
                .collect(),
        )
    }
    fn from_json(json: &Value, named: &Named) -> Option<Self> {
        json.as_object()?
            .iter()
            .map(|(name, list)| Some((name.clone(), Vec::from_json(list, named)?)))
            .collect::<Option<_>>()
            .map(Groups)
    }
    fn missing(_: &str, _: &str, _: &str) -> Self {
        Groups::default()
    }
}

/// A float as JSON: a number, or the text `inf`, `-inf` or `NaN` (which JSON lacks).
fn number(x: Float) -> Value {
    match Number::from_f64(x) {
        Some(number) => Value::Number(number),
        None if x.is_nan() => "NaN".into(),
        None if x > 0.0 => "inf".into(),
        None => "-inf".into(),
    }
}

fn float(json: &Value) -> Option<Float> {
    match json {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => match text.as_str() {
            "NaN" => Some(Float::NAN),
            "inf" => Some(Float::INFINITY),
            "-inf" => Some(Float::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// A builder's result where the builders are compiled (the `builders` feature of the
/// crate whose test uses it), its recorded result everywhere else: see the module docs.
///
/// `named!(NAMED, builder(args))` gives a `Vec<Misconception>`; `named!(NAMED, expr =>
/// Type)` any other [`Recorded`] type (a builder that checks several results at once
/// gives [`Groups`]: `named!(NAMED, Groups::from(builder(args)) => Groups)`).
#[macro_export]
macro_rules! named {
    ($named:expr, $build:expr) => {
        $crate::named!($named, $build => ::std::vec::Vec<$crate::Misconception>)
    };
    ($named:expr, $build:expr => $type:ty) => {{
        #[cfg(feature = "builders")]
        let found: $type = $named.built(stringify!($build), $build);
        #[cfg(not(feature = "builders"))]
        let found: $type = $named.recorded(stringify!($build));
        found
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_common::ndarray::array;

    fn mistake(id: &'static str, result: Matrix) -> Misconception {
        Misconception {
            cause: Cause::harness(id),
            result,
        }
    }

    #[test]
    fn a_list_whose_mistakes_an_input_cannot_tell_apart_is_refused() {
        // σ + ε and √(σ² + ε) for σ = 1/2 agree to ε² (here 1e-10): no learner's result
        // could be recognised as one and not the other.
        let list = vec![
            mistake("unbiased-variance", array![[1.5, -0.5]]),
            mistake("unbiased-std-plus-eps", array![[1.5 + 1e-10, -0.5]]),
        ];
        let why = list.tells_apart().expect_err("the two coincide");
        assert!(why.contains("unbiased-std-plus-eps"), "{why}");
        // One entry apart by more than twice what recognition accepts is enough.
        let list = vec![
            mistake("unbiased-variance", array![[1.5, -0.5]]),
            mistake("unbiased-std-plus-eps", array![[1.5, -0.5001]]),
        ];
        assert!(list.tells_apart().is_ok());
        // The same cause twice (variants of one mistake) is not a confusion.
        let list = vec![
            mistake("eps-on-std", array![[1.0]]),
            mistake("eps-on-std", array![[1.0]]),
        ];
        assert!(list.tells_apart().is_ok());
        // NaN at the same entry is the same; a shape apart is apart.
        assert!(!distinguishable(
            &array![[Float::NAN, 1.0]],
            &array![[Float::NAN, 1.0]]
        ));
        assert!(distinguishable(&array![[1.0, 1.0]], &array![[1.0], [1.0]]));
        let groups = Groups::new([(
            "d_x",
            vec![
                mistake("mean-term-missing", array![[2.0]]),
                mistake("mean-variance-as-constants", array![[2.0]]),
            ],
        )]);
        let why = groups.tells_apart().expect_err("they coincide");
        assert!(why.contains("`d_x`"), "{why}");
    }

    #[test]
    fn a_call_is_keyed_by_its_tokens_however_it_is_laid_out() {
        let one_line = call_key("decoder_mistakes(&layer, &x, Some(&mask))");
        let wrapped =
            call_key("decoder_mistakes(\n    &layer,\n    &x,\n    Some(&mask),\n)");
        assert_eq!(one_line, wrapped);
        assert_ne!(one_line, call_key("decoder_mistakes(&layer, &x, None)"));
    }

    #[test]
    fn recorded_values_are_the_same_up_to_rounding_only() {
        let a = json!({"values": [1.0, "NaN", "inf"], "id": "wrong-axis"});
        let b = json!({"values": [1.0 + 1e-13, "NaN", "inf"], "id": "wrong-axis"});
        let c = json!({"values": [1.0 + 1e-6, "NaN", "inf"], "id": "wrong-axis"});
        assert!(same(&a, &b));
        assert!(!same(&a, &c));
        assert!(!same(
            &a,
            &json!({"values": [1.0, "NaN", "inf"], "id": "no-tanh"})
        ));
    }

    #[test]
    fn a_matrix_with_non_finite_entries_comes_back_as_it_was_recorded() {
        let named = Named::new("tests.rs", &[], "");
        let m = Matrix::from_shape_vec((1, 3), vec![Float::NAN, Float::INFINITY, -0.5])
            .expect("a 1 × 3 matrix");
        let back = Matrix::from_json(&m.to_json(), &named).expect("it reads back");
        assert!(back[[0, 0]].is_nan());
        assert_eq!(back[[0, 1]], Float::INFINITY);
        assert_eq!(back[[0, 2]], -0.5);
    }
}
