"""Writes a suite's reference values into the file the suite reads, in the one format of
every lesson: solutions/<lesson>/suite/graded.json beside graded.rs (heldout.json beside
heldout.rs). The graded suites read it with course_harness::Reference.

    {
      "about": {"script": "solutions/03-multi-head-attention/reference.py", "python": "3.11.7",
                "numpy": "2.4.6", "torch": "2.15.0+cu132", "dtype": "float64"},
      "values": {
        "self_attention_output": {
          "what": "nn.MultiheadAttention(6, 2, ...), self-attention of x = ...: the output",
          "shape": [4, 6],
          "data": [
            -0.3292065351661095, -0.42536666211725194, ...,
            ...
          ]
        },
        ...
      }
    }

A matrix has the shape [rows, cols] and its data row by row (a line per row), a vector
[n], a scalar []. Every number is Python's repr() of the float64 the script computed: the
shortest decimal that reads back as exactly the same float, which the suites read back bit
for bit. Only float64 values are accepted (a float32 tensor would be rounded already), and
no NaN or infinity (JSON has none).

A lesson's script describes each value as it computes it and ends with `finish`:

    graded = Fixture("03-multi-head-attention/graded.json", torch=torch.__version__)
    graded.matrix("self_attention_output", "nn.MultiheadAttention(6, 2) on ...", out)
    finish(graded)

Run as `python3 solutions/NN-name/reference.py`, it writes the files; with `--check`, it
writes nothing and compares what it computes with the files: it names every value that is
missing, extra or different (with its largest difference) and exits with status 1 if there
is any. Differences of rounding alone (ROUNDING) are reported but do not fail: PyTorch's
matrix products sum in an order that depends on the machine (its CPU's vector width, the
number of threads), so the last bits of a layer's output differ from one machine to the
next, far below any tolerance of the suites.
"""

import json
import platform
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
# Numbers closer than this (relative to their size, or absolutely below 1) differ by the
# order of a sum, not by what was computed.
ROUNDING = 1e-12
SOLUTIONS = ROOT / "solutions"


def _floats(value):
    """`value` (a NumPy array, a PyTorch tensor, a list, a number) as a float64 array."""
    if hasattr(value, "detach"):  # a PyTorch tensor, without importing torch here
        value = value.detach().cpu().numpy()
    array = np.asarray(value)
    if array.dtype.kind == "f" and array.dtype != np.float64:
        raise TypeError(f"a {array.dtype} value: the reference values are float64")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError("a NaN or an infinity: JSON cannot hold it")
    return array


class Fixture:
    """The values one suite reads, in the order the script adds them."""

    def __init__(self, path, **libraries):
        """`path` is the lesson and the file ("02-attention/heldout.json"), which goes in
        the lesson's suite folder, solutions/02-attention/suite/;
        `libraries` the versions of what computed the values besides NumPy."""
        lesson, file = path.split("/", 1)
        self.path = SOLUTIONS / lesson / "suite" / file
        script = Path(sys.modules["__main__"].__file__).resolve().relative_to(ROOT)
        self.about = {
            "script": script.as_posix(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            **libraries,
            "dtype": "float64",
        }
        self.values = {}

    def _add(self, name, what, array, ndim):
        if name in self.values:
            raise KeyError(f"{self.path.name}: the value {name!r} is written twice")
        if array.ndim != ndim:
            raise ValueError(f"{name}: {array.ndim} dimensions, expected {ndim}")
        self.values[name] = {"what": what, "shape": list(array.shape), "data": array}

    def matrix(self, name, what, value):
        """A matrix, shape [rows, cols]."""
        self._add(name, what, _floats(value), 2)

    def vector(self, name, what, value):
        """A vector, shape [n]."""
        self._add(name, what, _floats(value), 1)

    def scalar(self, name, what, value):
        """A scalar, shape []."""
        self._add(name, what, _floats(value), 0)

    def integers(self, name, what, value):
        """A vector of whole numbers (such as weekdays), shape [n]."""
        array = np.asarray(value)
        if array.dtype.kind not in "iu":
            raise TypeError(f"{name}: whole numbers expected, got {array.dtype}")
        self._add(name, what, array, 1)

    def text(self):
        """The file's text: what `json.dumps` writes, laid out a line per matrix row."""

        def number(x):
            return json.dumps(x.item())  # floats as repr(): shortest, exact

        def numbers(xs):
            return ", ".join(number(x) for x in xs)

        lines = ["{", f'  "about": {json.dumps(self.about)},', '  "values": {']
        for i, (name, value) in enumerate(self.values.items()):
            data = value["data"]
            lines.append(f"    {json.dumps(name)}: {{")
            lines.append(f'      "what": {json.dumps(value["what"], ensure_ascii=False)},')
            lines.append(f'      "shape": {json.dumps(value["shape"])},')
            if data.ndim == 2:
                rows = [numbers(row) for row in data]
                lines.append('      "data": [')
                lines.extend(f"        {row}," for row in rows[:-1])
                lines.append(f"        {rows[-1]}")
                lines.append("      ]")
            else:
                lines.append(f'      "data": [{numbers(data.reshape(-1))}]')
            lines.append("    }" + ("," if i + 1 < len(self.values) else ""))
        lines += ["  }", "}", ""]
        text = "\n".join(lines)
        # What was written reads back as exactly these values.
        back = json.loads(text)["values"]
        for name, value in self.values.items():
            assert back[name]["shape"] == value["shape"], name
            assert [repr(x) for x in np.asarray(back[name]["data"], dtype=object).reshape(-1)] == [
                repr(x.item()) for x in value["data"].reshape(-1)
            ], name
        return text

    def check(self):
        """Compares the values with the file: returns (problems, notes), one per line."""
        where = self.path.relative_to(ROOT)
        if not self.path.exists():
            return [f"{where} does not exist"], []
        text = self.path.read_text(encoding="utf-8")
        if text == self.text():
            return [], []
        written = json.loads(text)
        old = written.get("values", {})
        problems, rounding = [], []
        for name in self.values.keys() - old.keys():
            problems.append(f"{name}: not in the file")
        for name in old.keys() - self.values.keys():
            problems.append(f"{name}: in the file, no longer computed")
        for name, value in self.values.items():
            if name not in old:
                continue
            if old[name]["shape"] != value["shape"]:
                problems.append(f"{name}: shape {old[name]['shape']} in the file, {value['shape']} now")
                continue
            was = np.asarray(old[name]["data"], dtype=np.float64).reshape(-1)
            now = value["data"].astype(np.float64).reshape(-1)
            differ = sum(a.tobytes() != b.tobytes() for a, b in zip(was, now))
            gap = np.abs(was - now).max() if len(now) else 0.0
            report = f"{name}: {differ} of {len(now)} numbers differ, by up to {gap:.3g}"
            if np.any(np.abs(was - now) > ROUNDING * np.maximum(1.0, np.abs(now))):
                problems.append(report)
            elif differ:
                rounding.append(report + " (rounding)")
            elif old[name].get("what") != value["what"]:
                problems.append(f"{name}: the same numbers, another description")
        notes = rounding
        if not problems and written.get("about") != self.about:
            notes.append(f"computed with other versions: {written.get('about')} in the file")
        elif not problems and not rounding:
            problems.append("the same values, laid out otherwise (write the file again)")
        return [f"{where}: {p}" for p in problems], [f"{where}: {n}" for n in notes]


def finish(*fixtures):
    """Writes the fixtures' files, or with --check compares them (exit status 1 when any
    differs)."""
    if "--check" in sys.argv[1:]:
        failed = False
        for f in fixtures:
            problems, notes = f.check()
            for line in problems + notes:
                print(line)
            if not problems:
                exact = "" if not notes else ", up to rounding"
                print(f"{f.path.relative_to(ROOT)}: up to date ({len(f.values)} values{exact})")
            failed = failed or bool(problems)
        sys.exit(1 if failed else 0)
    for f in fixtures:
        f.path.write_text(f.text(), encoding="utf-8")
        print(f"wrote {f.path.relative_to(ROOT)} ({len(f.values)} values)")
