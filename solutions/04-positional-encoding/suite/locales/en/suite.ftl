# The graded tests of lesson 04 (positional encoding): what a failed test says.
# Arguments are already formatted (numbers, arrays); `what` names the checked value.
# Keep the English byte for byte what the tests say: `cargo xtask mistakes 04` looks for
# these words.

## Words shared by several messages

label-expected = expected
label-got = got

## Frequencies and the table

table-rows-d6 = rows 0, 1, 2, 3 and 11 of sinusoidal_table(12, 6)
table-rows-d8 = rows 0..=5, 37 and 100 of sinusoidal_table(101, 8)
table-rows-d16 = rows 1, 7, 50, 99 and 1000 of sinusoidal_table(1001, 16)
row-zero-cause = row 0 is position 0, where every angle is 0: sin 0 = 0 at the even columns and cos 0 = 1 at the odd ones
row-zero-mismatch = row 0 of sinusoidal_table(4, 8): expected { $expected }, got { $got }. Likely cause: { $cause }.
table-d2 = sinusoidal_table(4, 2) (row p should be [sin p, cos p])
odd-not-rejected = { $what } should panic: with d_model = 7 the last column has no partner. Likely cause: the function returned a table anyway; check that d_model is even first, with assert!.
odd-unclear = { $what } panicked with "{ $text }", which does not say what is wrong. Likely cause: the panic came from an index out of bounds or similar rather than from a check; assert! that d_model is even, with a message that says so.
rotation-broken = pair { $i } (columns { $even }, { $odd }) of PE({ $shifted }) should be PE({ $p }) rotated by k·ω_{ $i } (k = { $k }): expected { $expected }, got { $got }. Likely cause: each pair must be (sin(pos·ω_i), cos(pos·ω_i)) with the same ω_i for both columns and an angle proportional to pos; a swapped or concatenated layout, or a different frequency for the cosine, breaks the rotation
dot-not-distance-only = ⟨PE({ $p }), PE({ $shifted })⟩ with d_model = 16: expected { $expected } (= Σ_i cos({ $k }·ω_i), the same for every p), got { $got }. Likely cause: the table's frequencies or layout are off; the dot product of two encodings can depend only on their distance when every pair is (sin, cos) of the same angle pos·ω_i.
norm-not-half = ‖PE({ $p })‖² with d_model = { $d_model }: expected { $expected } (d_model/2: each pair gives sin² + cos² = 1), got { $got }. Likely cause: a column that is not paired with its partner (the sine and the cosine of a pair must share the same angle).

## The embedding: a lookup, and its backward pass

forward-no-tokens = Embedding::forward of no tokens
vocab-not-rejected = Embedding::forward(&[0, { $token }]) with a vocabulary of 3 tokens (ids 0, 1, 2) should panic. Likely cause: a token id outside the vocabulary was turned into something (a zero row, a clamp) instead of being rejected, or the bound lets the vocabulary's size itself through (token <= vocab instead of token < vocab).
vocab-unclear = Embedding::forward(&[0, { $token }]) panicked with "{ $text }", which does not name the token ({ $token }) and the vocabulary size (3). Likely cause: the index went straight into the weight (or the check's bound lets { $token } through); check the token first, with assert!(token < vocab), and say both numbers.
backward-shape = Embedding::backward (the weight's gradient)
backward-hint = d_weight[v] = √d_model · (sum of the rows of d_out whose token is v): add (+=), don't assign, and leave the rows of unused tokens at 0

## Adding the encoding

short-not-rejected = add_positional_encoding of 3 rows from position 3 with a 4-row table should panic: positions 3, 4, 5 need 6 rows. Likely cause: the missing rows were filled in or skipped instead of reported.
short-unclear = add_positional_encoding of 3 rows from position 3 with a 4-row table panicked with "{ $text }", which does not say how many rows are needed (6). Likely cause: the panic came from slicing past the end rather than from a check with a message.
narrow-not-rejected = add_positional_encoding of a (3, 4) x with a (6, 2) table should panic: the encoding must be as wide as the embeddings (d_model). Likely cause: only part of each row got an encoding.

## How large the embeddings are next to the encoding

ratio-formula = ratio = sqrt(mean over the vocabulary of ‖scale · weight[v]‖²) / sqrt(mean over positions of ‖table[pos]‖²)
ratio-not-sqrt-two = embedding_to_encoding_ratio with entries ±1/√{ $d_model } (d_model = { $d_model }): expected √2 = { $expected }, got { $got }. Likely cause: { $cause }.
ratio-unit-entries = embedding_to_encoding_ratio with entries ±1 and d_model = 32 (scaled rows have norm 32, encoding rows norm 4)
ratio-formula-short = ratio = sqrt(mean_v ‖scale · weight[v]‖²) / sqrt(mean_pos ‖table[pos]‖²)
ratio-mismatch = embedding_to_encoding_ratio(linspace(4, 6, −1, 1), sinusoidal_table(10, 6)): expected { $expected }, got { $got }. Likely cause: { $cause }.

## Why attention needs positions: 猫追狗 and 狗追猫

not-in-vocabulary = { $token } is not in the test's vocabulary
not-permuted = { $what }: without positions, reordering the tokens must reorder these rows and change nothing else, but they differ by up to { $gap }. Likely cause: Embedding::forward depends on where a token stands; row t must be scale() · weight[tokens[t]], the same at every position (positions are added by add_positional_encoding).
dog-without-positions = self-attention of 狗追猫 without positions (should be the rows of 猫追狗, reversed)
cat-without-positions = self-attention (Q = K = V = X) of the embeddings of 猫追狗
with-positions = self-attention of { $sentence } with positions
still-reversed = with positions, 狗追猫 should no longer be 猫追狗 reversed: the largest difference is { $gap }, expected 1.447. Likely cause: the encoding was not added.
permuted-output = output for the permuted tokens, without positions (should be P · output)
permuted-weights = weights for the permuted tokens, without positions (should be P W Pᵀ)
still-equivariant = with positions, permuting the tokens should change the outputs by more than permuting them: the largest difference from P · output is { $gap }, expected about 2.045. Likely cause: embed_with_positions did not add table[t] to row t.
gradient-through-attention = the embedding's gradient from a loss on the attention output
gradient-through-attention-hint = the encoding is a constant, so the gradient of x = √d_model · E[tokens] + PE reaches the embedding unchanged; Embedding::backward must then scatter-add each row into its token's row (猫 and 追 occur twice) and multiply by √d_model
