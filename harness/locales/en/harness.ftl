# The harness's messages: what every failed check says, whichever lesson it is in.
# Arguments are already formatted (numbers, shapes, matrices); `what` names the checked
# value in the caller's language. Keep the English byte for byte what the tests expect:
# `cargo xtask mistakes` looks for these words.

## Words shared by several messages

label-expected = expected
label-got = got

## Floats and shapes (check.rs)

close-mismatch = { $what }: expected { $expected }, got { $got } (tolerance { $abs } + { $rel } x |expected|).
shape-likely-cause = a product, a sum or a transpose over the wrong axis: write down each operand's (rows, columns) from the /// contract and follow them through
shape-rows = { $got } rows instead of { $expected }
shape-cols = { $got } columns instead of { $expected }
shape-rows-and-cols = { $rows } and { $cols }
shape-transposed = {" "}(exactly the transpose of the right shape)
shape-mismatch =
    { $what }: expected shape { $expected } (rows, columns), got { $got }: { $differs }{ $transposed }.
    Likely cause: { $hint }
not-finite =
    { $what }: entry [{ $row }, { $col }] is { $value }; every entry must be finite.
    Likely cause: { $hint }
rows-sum-to-one =
    { $what }: row { $row } sums to { $sum }, but every row of a softmax sums to 1.
    Likely cause: { $hint }
matrix-entry = { $what }: entry [{ $row }, { $col }] should be { $expected }, got { $got } (|difference| { $diff }, tolerance { $abs } + { $rel } x |expected|).
known-mistake = Your result matches a known mistake. Likely cause: { $cause }.
mask-shape =
    { $what }: expected shape { $expected } (queries, keys), got { $got }.
    Likely cause: { $hint }
mask-entry =
    { $what }: entry [{ $row }, { $col }] should be { $expected }, got { $got }.
    Likely cause: { $hint }
