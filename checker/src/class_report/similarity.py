# Compares every pair of files in each folder given, with copydetect (winnowing over
# tokens, as MOSS does: https://github.com/blingenf/copydetect), and prints the
# similarities as JSON. The checker writes the folders (one per lesson, a file per student)
# and runs this script; it reads nothing else.
#
# Input (standard input, JSON): {"lessons": [{"id", "dir", "boilerplate"}]} where `dir`
# holds one .rs file per student and `boilerplate` the code that counts for nobody (the
# lesson's stub and reference solution).
# Output (standard output, JSON): {"version", "lessons": [{"id", "files": [names],
# "similarity": [[a pair's similarity: the mean of the shares of each file's tokens that
# match the other]], "shared": [[how many tokens they share]]}]}. Tokens are those of
# copydetect's filtered code, boilerplate left out.
import json
import sys
from importlib import metadata

try:
    from copydetect import CopyDetector
except ImportError:
    print(json.dumps({"missing": True}))
    sys.exit(0)

request = json.load(sys.stdin)
out = {"version": metadata.version("copydetect"), "lessons": []}
for lesson in request["lessons"]:
    detector = CopyDetector(
        test_dirs=[lesson["dir"]],
        ref_dirs=[lesson["dir"]],
        boilerplate_dirs=[lesson["boilerplate"]],
        extensions=["rs"],
        display_t=0.0,
        autoopen=False,
        silent=True,
    )
    files = list(detector.test_files)
    if len(files) < 2:
        out["lessons"].append({"id": lesson["id"], "files": [], "similarity": [], "shared": []})
        continue
    detector.run()
    index = {name: i for i, name in enumerate(detector.ref_files)}
    matrix, shared = [], []
    for i, test in enumerate(files):
        row, tokens = [], []
        for other in files:
            j = index[other]
            if other == test:
                row.append(1.0)
                tokens.append(0)
                continue
            a, b = detector.similarity_matrix[i, j]
            row.append(max(0.0, (float(a) + float(b)) / 2.0))
            tokens.append(max(0, int(detector.token_overlap_matrix[i, j])))
        matrix.append(row)
        shared.append(tokens)
    names = [name.rsplit("/", 1)[-1] for name in files]
    out["lessons"].append(
        {"id": lesson["id"], "files": names, "similarity": matrix, "shared": shared}
    )
print(json.dumps(out))
