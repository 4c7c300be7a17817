//! Deterministic inputs for tests, and the reference values scripts computed for them.
//!
//! The course's fixtures never come from a random generator: a generator's stream may
//! change between crate versions (rand documents `StdRng` as non-portable), and then a
//! correct submission would fail. Like CS231n's assignments, tests fill matrices with
//! evenly spaced values instead, which are irregular enough to catch transposes and
//! swapped arguments when rows and columns differ.
//!
//! The values a suite compares with that come from NumPy or PyTorch are not pasted into
//! the suite: the lesson's script (`solutions/<lesson>/reference.py`) that computes them writes them into a JSON
//! file beside the suite (`solutions/<lesson>/suite/graded.json` for `graded.rs`, and
//! likewise for the held-out tier), and the suite reads them with [`Reference`]. The file
//! is compiled into the suite with `include_str!`, so it travels wherever the suite does
//! and nothing reads it at run time. Its format is the one every script writes
//! (`tools/reference/fixture.py`):
//!
//! ```json
//! {
//!   "about": {"script": "solutions/03-multi-head-attention/reference.py", "dtype": "float64", ...},
//!   "values": {
//!     "self_attention_output": {"what": "...", "shape": [4, 6], "data": [-0.3292, ...]}
//!   }
//! }
//! ```
//!
//! A matrix has the shape `[rows, columns]` and its data row by row, a vector the shape
//! `[n]`, a scalar `[]`. Every number is the shortest decimal that reads back as exactly
//! the float the script computed, and is read back bit for bit.

use course_common::{Float, Matrix, Vector, ndarray};
use serde_json::{Map, Value};

/// `n` evenly spaced values from `start` to `end` inclusive, like `numpy.linspace`.
pub fn linspace(start: Float, end: Float, n: usize) -> Vec<Float> {
    match n {
        0 => Vec::new(),
        1 => vec![start],
        _ => (0..n)
            .map(|i| start + (end - start) * i as Float / (n - 1) as Float)
            .collect(),
    }
}

/// A `(rows, cols)` matrix filled row by row with `linspace(start, end, rows * cols)`,
/// like `numpy.linspace(start, end, rows * cols).reshape(rows, cols)`.
pub fn linspace_matrix(rows: usize, cols: usize, start: Float, end: Float) -> Matrix {
    ndarray::Array::from_shape_vec((rows, cols), linspace(start, end, rows * cols))
        .expect("linspace gives exactly rows * cols values")
}

/// The reference values of one suite, as its script wrote them (see the module docs).
///
/// A suite parses its file once, and asks for each value by name with the shape it
/// expects:
///
/// ```
/// # use course_harness::Reference;
/// let reference = Reference::parse(
///     "02-attention/graded.json",
///     r#"{"about": {"script": "solutions/02-attention/reference.py"},
///         "values": {"softmax": {"what": "softmax of [[1, 2]]", "shape": [1, 2],
///                                "data": [0.2689414213699951, 0.7310585786300049]}}}"#,
/// );
/// let expected = reference.matrix("softmax");
/// assert_eq!(expected.dim(), (1, 2));
/// assert_eq!(expected[[0, 1]], 0.7310585786300049);
/// ```
///
/// Every accessor panics, naming the file and the value, when the value is missing or
/// has another shape: a defect of the course (the suite and its script disagree), which
/// the solutions' own run of the suites finds first.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The file's name in messages: `<lesson>/<tier>.json`.
    name: String,
    /// The script that wrote it, to say what to run again.
    script: String,
    values: Map<String, Value>,
}

impl Reference {
    /// Reads the reference values `text` of the file called `name` in messages (the
    /// lesson folder and the file, `03-multi-head-attention/graded.json`).
    ///
    /// Panics when `text` is not a file of this format.
    pub fn parse(name: &str, text: &str) -> Self {
        let fail = |why: &str| -> ! {
            panic!(
                "the reference values {name} are not in the format of \
                 tools/reference/fixture.py: {why}"
            )
        };
        let mut root: Value = serde_json::from_str(text)
            .unwrap_or_else(|error| fail(&format!("not valid JSON ({error})")));
        let script = root
            .pointer("/about/script")
            .and_then(Value::as_str)
            .unwrap_or("its lesson's reference.py")
            .to_owned();
        let Some(Value::Object(values)) = root.get_mut("values").map(Value::take) else {
            fail("it has no \"values\" object");
        };
        Self {
            name: name.to_owned(),
            script,
            values,
        }
    }

    /// The names of the values, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// The matrix called `key` (its shape `[rows, columns]`).
    #[track_caller]
    pub fn matrix(&self, key: &str) -> Matrix {
        let (shape, data) = self.floats(key);
        match shape[..] {
            [rows, cols] => Matrix::from_shape_vec((rows, cols), data)
                .expect("the data's length was checked against the shape"),
            _ => self.wrong_shape(key, &shape, "a matrix, [rows, columns]"),
        }
    }

    /// The vector called `key` (its shape `[n]`).
    #[track_caller]
    pub fn vector(&self, key: &str) -> Vector {
        let (shape, data) = self.floats(key);
        match shape[..] {
            [_] => Vector::from(data),
            _ => self.wrong_shape(key, &shape, "a vector, [n]"),
        }
    }

    /// The scalar called `key` (its shape `[]`).
    #[track_caller]
    pub fn scalar(&self, key: &str) -> Float {
        let (shape, data) = self.floats(key);
        match shape[..] {
            [] => data[0],
            _ => self.wrong_shape(key, &shape, "a scalar, []"),
        }
    }

    /// The vector of whole numbers called `key` (its shape `[n]`), such as weekdays.
    #[track_caller]
    pub fn integers(&self, key: &str) -> Vec<i64> {
        let (shape, data) = self.data(key);
        if shape.len() != 1 {
            self.wrong_shape(key, &shape, "a vector, [n]");
        }
        data.iter()
            .map(|value| {
                value.as_i64().unwrap_or_else(|| {
                    panic!(
                        "the reference value `{key}` of {} should hold whole numbers, but \
                         holds {value}",
                        self.name
                    )
                })
            })
            .collect()
    }

    /// The shape of the value `key` and its data as floats.
    #[track_caller]
    fn floats(&self, key: &str) -> (Vec<usize>, Vec<Float>) {
        let (shape, data) = self.data(key);
        let floats = data
            .iter()
            .map(|value| {
                value.as_f64().unwrap_or_else(|| {
                    panic!(
                        "the reference value `{key}` of {} should hold numbers, but holds \
                         {value}",
                        self.name
                    )
                })
            })
            .collect();
        (shape, floats)
    }

    /// The shape of the value `key` and its data, checked to have as many entries as the
    /// shape says.
    #[track_caller]
    fn data(&self, key: &str) -> (Vec<usize>, &Vec<Value>) {
        let Some(entry) = self.values.get(key) else {
            let names: Vec<&str> = self.names().collect();
            panic!(
                "the reference values {} have no value named `{key}` (they have {}). \
                 Likely cause: the suite asks for a value its script does not write: run \
                 {} again after changing either.",
                self.name,
                names.join(", "),
                self.script
            );
        };
        let shape: Option<Vec<usize>> = entry
            .get("shape")
            .and_then(Value::as_array)
            .and_then(|dims| {
                dims.iter()
                    .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
                    .collect()
            });
        let (Some(shape), Some(Value::Array(data))) = (shape, entry.get("data")) else {
            panic!(
                "the reference value `{key}` of {} should have a \"shape\" (a list of \
                 sizes) and \"data\" (a list of numbers)",
                self.name
            );
        };
        let expected: usize = shape.iter().product();
        assert!(
            data.len() == expected,
            "the reference value `{key}` of {} has the shape {shape:?} ({expected} \
             numbers) but {} numbers of data",
            self.name,
            data.len()
        );
        (shape, data)
    }

    #[track_caller]
    fn wrong_shape(&self, key: &str, shape: &[usize], wanted: &str) -> ! {
        panic!(
            "the reference value `{key}` of {} has the shape {shape:?}, but the suite reads \
             it as {wanted}",
            self.name
        )
    }
}

/// A deterministic `(rows, cols)` fill with no linear structure (unlike a linspace fill,
/// whose matrices have rank 2 and whose rows LayerNorm maps all to the same vector): entry
/// `k = i·cols + j + seed` is `((k² · 7 + k · 13 + 3) mod 97) / 48 − 1`, in [−1, 1], times
/// `scale`. The reference scripts compute the same numbers.
pub fn scrambled(rows: usize, cols: usize, seed: usize, scale: Float) -> Matrix {
    Matrix::from_shape_fn((rows, cols), |(i, j)| {
        let k = (i * cols + j + seed) as u64;
        (((k * k * 7 + k * 13 + 3) % 97) as Float / 48.0 - 1.0) * scale
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy() {
        assert_eq!(linspace(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        let m = linspace_matrix(2, 3, -0.5, 0.5);
        assert_eq!(m[[1, 2]], 0.5);
        assert_eq!(m[[0, 1]], -0.3);
    }

    #[test]
    fn scrambled_follows_its_formula() {
        // k = 0: 3 / 48 − 1; k = 1 (seed 1): 23 / 48 − 1; k = 13: (1183 + 169 + 3) mod 97 = 94.
        let m = scrambled(1, 2, 0, 1.0);
        assert_eq!(m[[0, 0]], 3.0 / 48.0 - 1.0);
        assert_eq!(m[[0, 1]], 23.0 / 48.0 - 1.0);
        assert_eq!(scrambled(1, 1, 13, 2.0)[[0, 0]], (94.0 / 48.0 - 1.0) * 2.0);
    }

    const FILE: &str = r#"{
      "about": {"script": "solutions/09-demo/reference.py", "dtype": "float64"},
      "values": {
        "m": {"what": "a matrix", "shape": [2, 3], "data": [
          0.1, -2.5, 3.0,
          1e-300, 0.30000000000000004, -0.0
        ]},
        "v": {"what": "a vector", "shape": [2], "data": [0.7390851332151607, 5e-324]},
        "s": {"what": "a scalar", "shape": [], "data": [2.4891041206422866]},
        "days": {"what": "whole numbers", "shape": [3], "data": [5, 0, 6]},
        "short": {"what": "too little data", "shape": [2, 2], "data": [1.0, 2.0, 3.0]}
      }
    }"#;

    fn reference() -> Reference {
        Reference::parse("09-demo/graded.json", FILE)
    }

    #[test]
    fn values_come_back_with_their_shapes_bit_for_bit() {
        let r = reference();
        let m = r.matrix("m");
        assert_eq!(m.dim(), (2, 3));
        assert_eq!(m[[0, 1]], -2.5);
        assert_eq!(m[[1, 1]].to_bits(), (0.1 as Float + 0.2).to_bits());
        assert_eq!(m[[1, 0]], 1e-300);
        assert!(m[[1, 2]] == 0.0 && m[[1, 2]].is_sign_negative());
        let v = r.vector("v");
        assert_eq!(v[0], 0.7390851332151607);
        assert_eq!(v[1].to_bits(), 1, "the smallest subnormal");
        assert_eq!(r.scalar("s"), 2.4891041206422866);
        assert_eq!(r.integers("days"), vec![5, 0, 6]);
        assert_eq!(r.names().count(), 5);
    }

    /// Every decimal a script writes (Python's repr, the shortest that reads back the
    /// same) comes back as exactly the same float: serde_json's `float_roundtrip`.
    #[test]
    fn shortest_decimals_read_back_exactly() {
        let mut u: Float = 0.123_456_789;
        let mut numbers = Vec::new();
        for i in 0..2000 {
            u = (u * 3.987_654_321 + 0.1).fract();
            let x = u * (10.0 as Float).powi(i % 40 - 20);
            numbers.push(if i % 2 == 0 { x } else { -x });
        }
        let text = format!(
            r#"{{"values": {{"x": {{"shape": [{}], "data": [{}]}}}}}}"#,
            numbers.len(),
            numbers
                .iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let back = Reference::parse("x.json", &text).vector("x");
        for (n, b) in numbers.iter().zip(&back) {
            assert_eq!(n.to_bits(), b.to_bits(), "{n:?} came back as {b:?}");
        }
    }

    fn message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload = std::panic::catch_unwind(f).expect_err("it should panic");
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    }

    #[test]
    fn a_missing_or_misshapen_value_is_named_with_its_file() {
        let missing = message(|| {
            reference().matrix("nope");
        });
        assert!(
            missing.contains("09-demo/graded.json")
                && missing.contains("`nope`")
                && missing.contains("solutions/09-demo/reference.py"),
            "{missing}"
        );
        let vector_as_matrix = message(|| {
            reference().matrix("v");
        });
        assert!(
            vector_as_matrix.contains("`v`") && vector_as_matrix.contains("[2]"),
            "{vector_as_matrix}"
        );
        let short = message(|| {
            reference().matrix("short");
        });
        assert!(short.contains("3 numbers of data"), "{short}");
        let floats = message(|| {
            reference().integers("v");
        });
        assert!(floats.contains("whole numbers"), "{floats}");
        let broken = message(|| {
            Reference::parse("x.json", "{\"values\": [");
        });
        assert!(
            broken.contains("x.json") && broken.contains("JSON"),
            "{broken}"
        );
    }
}
