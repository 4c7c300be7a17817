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
ids-differ = { $what }: the ids first differ at position { $at } (from 0): expected { $expected }, got { $got }.
ids-length = { $what }: { $expected } ids expected, got { $got }; the shorter is the start of the longer.
ids-reordered = Your ids are the expected ones, each as often, in another order.
ids-missing = The rest is equal, but from position { $at } yours lacks { $missing }.
ids-extra = The rest is equal, but from position { $at } yours has { $extra } too much.
ids-stretch = The rest is equal: from position { $at }, yours has { $yours } where the expected has { $expected }.
ids-diverge = The first { $at } ids agree; from there to the end, yours has { $yours } where the expected has { $expected }.
pair-count-differs = { $what }: the count of the pair ({ $a }, { $b }) should be { $expected }, got { $got }.
pair-count-missing = { $what }: the pair ({ $a }, { $b }) is missing from your counts; its count should be { $expected }.
pair-count-extra = { $what }: your counts give the pair ({ $a }, { $b }) the count { $got }, but it does not occur.
pair-count-repeated = { $what }: the counts agree, but you list { $got } pairs instead of { $expected }: a pair is listed more than once.
known-mistake = Your result matches a known mistake. Likely cause: { $cause }.
known-mistakes = Your result matches { $count } known mistakes on this input, which it cannot tell apart. Likely cause: { $causes }.
known-mistakes-or = { "; or " }
mask-shape =
    { $what }: expected shape { $expected } (queries, keys), got { $got }.
    Likely cause: { $hint }
mask-entry =
    { $what }: entry [{ $row }, { $col }] should be { $expected }, got { $got }.
    Likely cause: { $hint }

## Gradients (gradient.rs)

likely-cause = Likely cause: { $hint }
gradient-mismatch = { $what }: your gradient differs from the numerical gradient (central differences, h = { $step }) by a relative error of { $error }; a correct one agrees to below { $max }.
gradient-forward-first = If a test of this function's forward pass fails too, fix the forward pass first: the numerical gradient is computed from it.
# Words of gradient-forward-first that a hint may hold already (then the sentence is left
# out): keep them in both.
gradient-forward-first-phrase = forward pass first
label-numerical = numerical
label-yours = yours

## The tape (tape.rs): the replay's messages when the learner's process stopped early or
## its tape does not fit the test, after the marker [tape ended] or [tape mismatch]

tape-open-failed = could not open the tape { $path }: { $error }
tape-write-failed = could not write to the tape: { $error }
tape-ended = the learner's process recorded nothing for `{ $label }`: it ended (or was stopped) before this call returned
tape-label-mismatch = the test asks for `{ $label }` but the tape holds `{ $recorded }` here
tape-value-unreadable = the value of `{ $label }` is unreadable: { $why }
tape-value-extra-tokens = the value of `{ $label }` has extra tokens
tape-expected-value = `{ $label }` should be a value, the tape has an object
tape-expected-object = `{ $label }` should be an object, the tape has a value
tape-object-outside-observe = the judge used an object built by the learner's code outside `observe`: a bug in the graded suite (wrap the use in `observe`)
tape-panic-unreadable = the panic of `{ $label }` is unreadable: { $why }
panic-not-text = the code panicked with a value that is not text

# Why a value on the tape is unreadable ({ $why } above).
tape-entry-ends-early = the entry ends early
tape-expected-token = expected a `{ $tag }` token, found `{ $found }`
tape-not-a-number = `{ $text }` is not a valid number here
tape-not-float-bits = `{ $text }` is not a float's bits
tape-not-a-boolean = `{ $text }` is not a boolean
tape-not-utf8 = text is not UTF-8
tape-malformed-hexadecimal = malformed hexadecimal
tape-not-an-option = `{ $text }` is not an option
tape-malformed-float = malformed float
tape-malformed-boolean = malformed boolean
tape-malformed-integer = malformed integer
tape-array-without-shape = an array without its shape
tape-array-dimensions = an array of { $got } dimensions where { $expected } are expected
tape-array-shape-mismatch = an array whose shape does not match its elements
tape-malformed-array-elements = malformed array elements

## Verdicts (report.rs)

verdict-write-failed = could not write the grading verdict: { $error }

# The likely causes of mistakes.rs, one section per lesson: shared by the lesson's visible
# tests and its graded suite.

## Lesson 02, attention: softmax, attention, Linear (mistakes.rs, attention)

wrong-axis = the softmax normalised each column instead of each row (rows are queries: each query's weights over the keys must sum to 1)
no-max-subtraction = exp(1000) overflows to infinity, and ∞/∞ is NaN: subtract each row's maximum from its scores before exponentiating (the weights do not change, since softmax only sees differences of scores)
mask-after-softmax = the masked weights were set to 0 after the softmax, so the rows no longer sum to 1: replace the masked scores with −∞ before the softmax
scores-not-scaled = the scores were not divided by √d_k
scores-divided-by-d-k = the scores were divided by d_k instead of √d_k
softmax-jacobian-diagonal-only = only the diagonal of each row's Jacobian, w(1 − w), was used: every weight of a row depends on every score of the row, so the Jacobian is diag(w) − w wᵀ and dS = W ⊙ (dW − rowsum(W ⊙ dW))
softmax-rowsum-term-missing = the term rowsum(W ⊙ dW) was left out: dS = W ⊙ (dW − rowsum(W ⊙ dW)), with one sum per row broadcast back over the row
bias-not-added = the bias was not added
bias-on-one-row = the bias was added to one row only; it belongs to every row
weight-not-transposed = the output is x W + b, which reads the weight as (d_in, d_out); it is (d_out, d_in), one row per output feature as in PyTorch, so y = x Wᵀ + b (with a non-square weight, x W is a shape error)

## Lesson 01, the RNN (mistakes.rs, rnn)

w-hh-not-transposed = W_hh was used as it is (h W_hh) instead of transposed (h W_hhᵀ). The course stores every weight as (d_out, d_in), one row per hidden unit, like PyTorch's nn.RNN; a square W_hh runs either way, so nothing else warns you
last-upstream-only = only the last state's upstream gradient was used; every state has its own row of d_states (a loss can read any of them), and the gradient reaching state t is d_states[t] plus what step t + 1 sends back
carry-dropped = each state's d_states row replaced the gradient flowing back from later steps; add it instead: the gradient reaching state t is d_states[t] plus what step t + 1 sends back
own-output-as-previous = step t was handed its own output states[t] as its previous state, so dW_hh = dzᵀ h used the wrong h: the previous state of step t is h0 at t = 0 and states[t − 1] after it
no-tanh = the tanh was not applied: that is the pre-activation z, and the state is tanh(z)
previous-state-left-out = the previous state h was left out; each step mixes the new token with the state it carries
tanh-prime-at-z = tanh' was evaluated at the pre-activation z (1 − z²); it is 1 − tanh(z)² = 1 − h'², from the step's output h_next
tanh-prime-from-previous-state = tanh' was taken from the previous state (1 − h²); it is 1 − h'², from the step's output h_next
tanh-skipped-in-backward = the tanh was skipped in the backward pass: multiply the upstream gradient by tanh' = 1 − h'² first
tanh-prime-unsquared = tanh' was computed as 1 − h' instead of 1 − h'² (squared): tanh'(z) = 1 − tanh(z)², and tanh(z) is the step's output h'
d-h-through-w-hh-transposed = dh = dz W_hhᵀ: the forward multiplies h by W_hhᵀ, so the backward multiplies dz by W_hh (as Linear's dx = dY W)
d-w-hh-transposed = dW_hh = hᵀ dz is the transpose of the gradient: W_hh is (d_out, d_in), so dW_hh = dzᵀ h
d-w-hh-from-new-state = dW_hh was built from the new state h' instead of the previous state h, which is what W_hh multiplies
every-step-from-h0 = every step started from h0: the state must be carried, each step starts from the state the previous step returned
states-shifted = the states are shifted by one: row t is the state after reading token t, and h0 is not one of the rows
context-first-state = the context is the first state; it is the last one, after the whole sentence was read
context-mean-of-states = the context is the mean of the states; a seq2seq encoder hands over its last state only
origin-jacobian-transposed = the gradient went back through W_hhᵀ instead of W_hh (dh = dz W_hh), or the forward used h W_hh instead of h W_hhᵀ
bptt-overwritten = the gradient was overwritten at every step, so only step 0's share is left; the same weights are used by every step, so add (+=) each step's share
bptt-last-step-only = only the last step's share is there; the same weights are used by every step, so add (+=) the share of every step

## Lesson 03, multi-head attention (mistakes.rs, multi_head_attention)

heads-interleaved = the heads took interleaved columns (head i got columns i, i + n_heads, i + 2·n_heads, ...), as a reshape to (n, d_k, n_heads) gives; head i owns the contiguous block of columns i·d_k .. (i+1)·d_k, as a reshape to (n, n_heads, d_k) gives, in the paper and in PyTorch
heads-plain-reshape = the heads were cut by a plain reshape of the row-major numbers (the (n, d_model) matrix read as (n_heads, n, d_k)), which puts several tokens' features in one row of a head; head i is columns i·d_k .. (i+1)·d_k of every row, a slice of the columns, and the rows (the tokens) stay as they are
mask-not-passed-to-heads = the mask was not passed to the heads' attention: each head's scaled_dot_product_attention must get the mask, so that the masked keys get weight 0 in every head
kv-from-query = the keys and values were projected from the query input: K and V come from key_value_input (the encoder's output, in cross-attention), Q from query_input
values-projected-by-w-k = the values were projected with W_k (V = X W_k, the keys): each of Q, K and V has its own projection, V = X W_v
queries-projected-by-w-k = the queries were projected with W_k: each of Q, K and V has its own projection, Q = X_query W_q
one-weight-matrix-per-head = split Q, K and V into n_heads heads of d_k columns and run lesson 02's attention once per head; forward returns one weight matrix per head
not-through-w-o = the heads' upstream gradient was not sent back through W_o: head i's d_output is its slice of dConcat = d_output W_o (W_o's backward d_x), not a slice of d_output itself
scaled-by-d-model = the scores were divided by √d_model instead of √d_k: each head's queries and keys are d_k = d_model / n_heads wide, and lesson 02's attention already divides by the square root of their width
heads-merged-in-reverse = the heads were merged in reverse order (the last head first): head i goes back to columns i·d_k .. (i+1)·d_k, head 0 on the left, where split_heads took it from
no-output-projection = the output projection W_o was not applied: the output is the heads' outputs side by side, then W_o (concat W_oᵀ + b_o)
output-projection-not-transposed = the output projection's weight was not transposed (concat W_o + b_o); a Linear layer computes x Wᵀ + b
one-wide-head = the attention ran once over the full d_model-wide Q, K and V (one head) instead of once per head on d_k-wide slices
mask-inverted = the mask was inverted: in the course `true` means "may attend" (PyTorch's key_padding_mask uses the opposite, True = ignore)
d-query-input-not-through-w-q = d_query_input is dQ itself, not sent back through W_q: the forward computed Q = query_input W_qᵀ + b_q, so the backward gives d_query_input = dQ W_q (W_q's backward d_x)
value-path-alone = your d_key_value_input is the value path alone (dV W_v): the key/value input also feeds W_k, so add dK W_k
key-path-alone = your d_key_value_input is the key path alone (dK W_k): the key/value input also feeds W_v, so add dV W_v
count-no-biases = the biases were not counted (4 of d_model each)
count-no-w-o = the output projection W_o was not counted
count-one-head = the weights were counted for one head only; W_q, W_k, W_v and W_o are d_model × d_model whatever the number of heads
count-every-head-full = every head was counted as if it had its own d_model × d_model projections (the count times n_heads): the heads share the four projections, each head using a d_k-wide slice of their outputs, so the count does not depend on n_heads
count-every-parameter = count every weight and bias of the four projections (weight.len() + bias.len() for each)

## Lesson 04, positional encoding (mistakes.rs, positional_encoding)

sin-cos-swapped = sine and cosine are swapped: column 2i must hold sin(pos·ω_i) and column 2i + 1 cos(pos·ω_i) (your table has the cosine at the even columns)
table-concatenated = the table is concatenated, [sin(pos·ω_0), …, sin(pos·ω_{"{"}d/2−1{"}"}), cos(pos·ω_0), …] (the tensor2tensor layout), not interleaved as in the paper: column 2i is a sine and column 2i + 1 the cosine of the same frequency
integer-division = the exponent 2i/d_model was computed in integer arithmetic (2 * i / d_model is 0 for every i < d_model/2, so every frequency is 1): convert to Float before dividing
exponent-i = the exponent is i/d_model instead of 2i/d_model: the frequencies fall too slowly
exponent-column = the exponent uses the column index j (j/d_model) for both columns of a pair; the cosine at column 2i + 1 must use the same frequency as the sine at column 2i, exponent 2i/d_model
exponent-two-columns = the exponent is 2j/d_model with the column index j; the paper's i is the pair index (j / 2 rounded down), so the exponent is 2·(j/2)/d_model
positive-exponent = the position was multiplied by 10000^(2i/d_model) instead of divided by it: ω_i = 10000^(−2i/d_model) ≤ 1
positions-from-one = positions were counted from 1; the first row of the table is position 0 (sin 0 = 0, cos 0 = 1)
rows-not-scaled = the rows were not multiplied by scale() = √d_model
rows-times-d-model = the rows were multiplied by d_model instead of √d_model
rows-divided-by-scale = the rows were divided by √d_model instead of multiplied
repeated-token-overwritten = a repeated token's gradient was overwritten (`=`) instead of added (`+=`): only its last occurrence counts. A token used three times collects the gradient of all three uses
repeated-token-first-only = only the first occurrence of a repeated token was counted; every occurrence adds its row of d_out
embedding-gradient-not-scaled = the gradient was not multiplied by scale() = √d_model; forward multiplies every looked-up row by it, so the backward pass must too
first-position-everywhere = every row got the encoding of the first position; row t needs table[start + t]
positions-shifted = the positions were shifted by one (table[start + t + 1]); the first row is position start
start-ignored = `start` was ignored: row t must get table[start + t], which matters when a decoder adds one token at position start
encoding-scaled-too = the encoding was scaled too (√d_model · (E + PE)); the scale belongs to the embedding only
embeddings-not-scaled = the embeddings were not multiplied by √d_model
ratio-rows-not-scaled = the embedding rows were not multiplied by scale() = √d_model: compare the rows as the model sees them
ratio-mean-of-norms = the mean of the row norms was used; the ratio uses the root mean square of the row norms, sqrt(mean ‖row‖²)
ratio-total-norms = the total (Frobenius) norms were compared without dividing by the number of rows; when the vocabulary and the table differ in size, compare the average row

## Lesson 05, the encoder and decoder layers (mistakes.rs, encoder_layer)

gamma-beta-swapped = γ and β were swapped: γ (gamma) multiplies x̂ and β (beta) is added, y = γ ⊙ x̂ + β
gelu-tanh = the activation is GELU (tanh approximation, as in BERT and GPT-2); the paper's FFN, and the course's, uses the ReLU: max(0, x W_1ᵀ + b_1)
gelu-erf = the activation is GELU (x·Φ(x)); the paper's FFN, and the course's, uses the ReLU: max(0, x W_1ᵀ + b_1)
post-not-pre = this is the pre-LN layer's output, with NormPosition::Post: post-LN normalises after the residual addition, h = norm_1(x + SA(x)), out = norm_2(h + FFN(h))
pre-not-post = this is the post-LN layer's output, with NormPosition::Pre: pre-LN normalises the sublayer's input only, h = x + SA(norm_1(x)), out = h + FFN(norm_2(h))
no-residual = the residual connections are missing: each block adds its input to its sublayer's output (x + SA(..), h + FFN(..))
no-relu = the FFN has no ReLU (check FeedForward::forward)
residual-from-norm = the residual added the normalised input: pre-LN is x + SA(norm_1(x)), with the raw x on the residual path, not norm_1(x) + SA(norm_1(x))
cross-queries-from-input = the cross-attention's queries came from the layer's input x; they come from the first block's output: cross_attention.forward(h_1, memory, memory_mask) in post-LN, cross_attention.forward(norm_2(h_1), memory, memory_mask) in pre-LN
self-mask-ignored = the self-attention ignored self_mask, so every target position saw the whole target sequence, the future included: pass self_mask to self_attention.forward
memory-mask-ignored = the cross-attention ignored memory_mask, so the padded source position got attention: pass memory_mask to cross_attention.forward
cross-over-self = the cross-attention's keys and values came from the decoder's own stream; they come from the encoder's output: cross_attention.forward(query_input, memory, memory_mask)
unbiased-std-plus-eps = the standard deviation was the unbiased one (÷(d_model − 1), what torch.std computes) with ε added to it, as the Annotated Transformer's LayerNorm does; nn.LayerNorm (and the course) divide the variance by d_model and put ε inside the square root: (x − μ) / √(σ² + ε)
annotated-layer-norm = this is the Annotated Transformer's LayerNorm (unbiased std, ε = 1e-6 added to the std); nn.LayerNorm divides the variance by d_model and puts ε inside the square root: (x − μ) / √(σ² + ε)
unbiased-variance = the variance was the unbiased one (÷(d_model − 1)); LayerNorm uses the biased variance, the mean of the squared deviations (÷ d_model)
eps-on-std = ε was added to the standard deviation, (x − μ) / (σ + ε); it belongs inside the square root, (x − μ) / √(σ² + ε)
eps-left-out = ε was left out: (x − μ) / √(σ² + ε) with ε = self.eps
columns-normalised = each column was normalised over the rows (BatchNorm's axis) instead of each row over its features: LayerNorm computes one mean and one variance per row (per token)
beta-not-added = β was not added: y = γ ⊙ x̂ + β
gamma-not-applied = γ was not applied: y = γ ⊙ x̂ + β
affine-before-normalising = γ and β were applied before normalising, which the normalisation then undoes; they come after: y = γ ⊙ x̂ + β
mean-variance-as-constants = μ and σ² were treated as constants (dx = g/σ): both depend on every entry of the row, which adds the terms − mean(g) and − x̂ ⊙ mean(g ⊙ x̂)
variance-term-missing = the variance's term is missing: dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))
mean-term-missing = the mean's term is missing: dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))
gamma-missing-in-backward = γ is missing: the gradient that reaches x̂ is g = dY ⊙ γ
d-gamma-with-x = dγ summed dY ⊙ x instead of dY ⊙ x̂ (the normalised input)
hidden-pre-activation = the ReLU is missing, or `hidden` holds the pre-activation; it is the ReLU's output, max(0, x W_1ᵀ + b_1), which is also what w_2 takes as input
ffn-no-relu = the ReLU is missing: FFN(x) = max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2
relu-on-output = a ReLU was applied to the output too; only the hidden layer has one, so the FFN's output can be negative
relu-gradient-missing = the ReLU's gradient is missing: it passes the gradient where the unit was on (hidden > 0) and blocks it (0) where it was off
# A residual block's mistakes: { $name } is one of the block-… names below, { $input },
# { $norm } and { $f } are code (x, norm_1, SA).
residual-post-missing = the residual around the { $name } is missing: the block is { $norm }({ $input } + { $f }({ $input })), not { $norm }({ $f }({ $input }))
residual-pre-missing = the residual around the { $name } is missing: the block is { $input } + { $f }({ $norm }({ $input })), not { $f }({ $norm }({ $input }))
residual-pre-normalised = the residual around the { $name } added the normalised input: pre-LN is { $input } + { $f }({ $norm }({ $input })), with the raw { $input } on the residual path, not { $norm }({ $input }) + { $f }({ $norm }({ $input }))
block-self-attention = self-attention
block-cross-attention = cross-attention
block-ffn = FFN
mask-not-reaching-self-attention = the mask did not reach the self-attention: pass it to self_attention.forward
d-key-value-input-left-out = d_key_value_input was left out of d_x: the self-attention's one input fed its queries, its keys and its values, so the gradient that comes back to it is d_query_input + d_key_value_input

## Lesson 06, the full model (mistakes.rs, full_model)

no-embedding-scale = the embeddings were not multiplied by √d_model (lesson 04's Embedding does it: use embed_with_positions)
no-positions = no positional encoding was added (embed_with_positions with model.positions)
no-causal-mask = the decoder's self-attention has no causal mask (target_mask)
no-encoder-mask = the encoder's self-attention does not mask the source's padding (key_padding_mask(S, src))
no-cross-mask = the cross-attention does not mask the source's padding (key_padding_mask(T, src) as the decoder layers' memory mask)
same-input = every layer was given the embeddings instead of the output of the layer below it
loss-over-every-row = the loss is the mean over every row, padding included: divide by the number of targets that are not padding, not by the number of rows
log-softmax-overflow = exp(1000) overflows; compute the log-softmax as x − max − ln Σ exp(x − max): subtract the row maximum
noam-max = the schedule took the max instead of the min of step^−0.5 and step · warmup^−1.5 (`max` instead of `min`): the min is what rises linearly during the warm-up and decays as 1/√step after it
no-bias-correction = no bias correction: divide m by 1 − β₁ᵗ and v by 1 − β₂ᵗ (t counts from 1)
eps-inside-the-root = ε was put inside the square root, m̂ / √(v̂ + ε); Adam adds it to the root, θ ← θ − lr · m̂ / (√v̂ + ε)
sum-of-d-memory = every decoder layer reads the same memory, so its gradient is the SUM of every layer's d_memory
add-never-assign = walk the layers backwards, feed each layer's backward the input it had in the forward pass, and ADD every layer's gradients (and every pair's) into the gradient model: += , never =
start-from-bos = decoding must start from BOS, never PAD (issue #127 of the Annotated Transformer: starting from PAD), as in training
cache-append = the cache must keep the keys and values of every earlier position (append with push_row, never replace), and the positional encoding must use cache.position, which decode_step increments
annotated-label-smoothing = this is the Annotated Transformer's LabelSmoothing (1 − ε on the gold class, ε/(V − 2) elsewhere, 0 on the padding column); the course uses PyTorch's definition, (1 − ε)·onehot + ε/V over every class
pad-row-smoothed = the row whose target is PAD must be all zeros: it is not a prediction
smoothing-over-others = ε was spread as ε/(V − 1) over the other classes with 1 − ε on the gold class; the course uses PyTorch's definition, (1 − ε)·onehot + ε/V: every class (the gold one too) gets ε/V, and the gold class 1 − ε + ε/V
smoothing-over-v-minus-one = ε was spread as ε/(V − 1) instead of ε/V; the course uses PyTorch's definition, (1 − ε)·onehot + ε/V, so each row sums to 1
pad-row-gradient = the padding row's gradient is not 0: it kept p/N; a row whose target is PAD adds nothing to the loss, so its gradient is 0 (multiply p by the rows' is-token mask before subtracting q)
gradient-over-rows = the gradient was divided by the number of rows instead of the number of tokens that are not padding
pad-row-gradient-over-rows = the padding row's gradient is not 0 and the gradient was divided by the number of rows instead of the number of tokens
noam-step-zero-infinite = step 0 gives 0^−0.5 = ∞: use max(step, 1)
noam-step-zero-zero = step 0 gives min(0^−0.5, 0 · warmup^−1.5) = min(∞, 0) = 0: treat step 0 as step 1, max(step, 1)
noam-warm-up = the warm-up part is step · warmup^−1.5, a straight line that meets step^−0.5 at step = warmup
noam-rule = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)
clipped-each-tensor = each tensor was clipped on its own; the paper's clipping (and PyTorch's clip_grad_norm_) uses one norm over every tensor, so the direction of the whole gradient is kept

## Every value against the reference (reference_run.rs, tape.rs)

differs-from-reference =
    This test's checks passed, but the judge also runs every call on the reference solution, with the same inputs, and compares what comes back: `{ $label }` (call { $call } of this test) returned something else: { $what }.
    The checks look only at chosen properties and points, so a mistake they cannot see shows up here, and so does code that answers them without computing what the contract says (a value remembered from an earlier call, zeros where the checks compare zeros with zeros, an answer right only for the inputs a test uses). If another test of `{ $label }` fails with a message of its own, fix that first; otherwise compare `{ $label }` with its contract on inputs like these.
differs-value = yours is { $got } where the reference's is { $reference }
differs-shape = yours has shape { $got } where the reference's has shape { $reference }
differs-entry = entry { $index } is { $got } where the reference's is { $reference }
differs-length = yours has { $got } items where the reference's has { $reference }
differs-item = item { $index }: { $what }
differs-part = part { $part } of { $parts }: { $what }

## A panic in the learner's code (panics.rs): the function, where, and what it means

learner-panic = `{ $function }` panicked: { $message }
learner-panic-at = `{ $function }` panicked at { $site }: { $message }
learner-panic-meaning = What it means: { $meaning }
panic-index-empty-axis = an index into an axis of length 0, in an array of shape [{ $shape }]: the array is empty. Was it cut by a slice whose range is empty (n.. with n the length, a..a), or built with no rows?
panic-index-past-axis = an index ({ $index }) past the end of an axis of length { $length }, in an array of shape [{ $shape }]: indices run from 0 to { $length } − 1. An off-by-one, or an index from another range (a position, a count, an id larger than the table)?
panic-index-out-of-array = an index past the end of an array: check each index against the length of the axis it indexes.
panic-matrix-product = a matrix product of a { $left } and a { $right } matrix: the inner sizes ({ $inner_left } and { $inner_right }) must be equal. A transpose missing or one too many (weights are stored (d_out, d_in)), or the operands in the wrong order?
panic-incompatible-shapes = an entry-wise operation (+, −, ×, ÷, or an assignment) on two arrays whose shapes neither match nor broadcast. An (n,) vector broadcasts as a row: a value per row must be an (n, 1) column (insert_axis(Axis(1))); or a transpose is missing.
panic-broadcast = an array of shape [{ $from }] cannot be stretched to shape [{ $to }]. An (n,) vector broadcasts as a row: a value per row must be an (n, 1) column (insert_axis(Axis(1))).
panic-slice-past-end = a slice that reaches { $index }, past the end of an axis of length { $length }: a range computed from another size (the whole width instead of a head's, say), or an off-by-one.
panic-index-past-list = index { $index } of a list of { $length } entries, which run from 0 to { $length } − 1: an off-by-one, or an index from another range.
panic-subtract-overflow = an unsigned integer (usize) went below zero: an index such as i − 1 at i = 0, or a size minus a larger one.
panic-divide-by-zero = an integer division by zero: a count or a size that is 0 (an empty input?).
panic-unwrap-none = an `unwrap()` on `None`: a value that was not there (the maximum of an empty list, a lookup that found nothing).

## Several checks of one test (check.rs, Checks)

checks-also-failing = Also failing in this test (each has its own message when the first is fixed):
checks-right = Right in this test: { $names }.

# What a wrong result still has in common with the right one (relations.rs).
relation-not-finite = { $count } of your entries are NaN or infinite (the first at [{ $row }, { $col }]) where every expected entry is finite. NaN comes from 0/0, ∞ − ∞, 0 × ∞ or the square root of a negative number: look for a division by something that can be 0 (a count, a norm, a variance, 1 − βᵗ at t = 0) or an exp that overflowed.
relation-transposed = Yours is the transpose of the expected matrix: rows and columns are swapped (a .t() missing or one too many, or a product's operands in the other order).
relation-negated = Yours is the expected matrix with every sign flipped: a minus sign is wrong (a difference taken the other way round).
relation-scaled = Every entry of yours is { $factor } × the expected one{ $name }: one constant factor is wrong (a scale left out, applied twice, or inverted).
relation-factor-name = { " " }(= { $name })
relation-rows-scaled = Each row of yours is the expected row times a factor of its own ({ $factors }): a per-row scale is wrong (a normaliser such as a softmax's sum or 1/σ, left out or applied twice).
relation-columns-scaled = Each column of yours is the expected column times a factor of its own ({ $factors }): a per-column scale is wrong (a per-feature factor such as γ, left out or applied twice).
relation-rows-reversed = Your rows are the expected rows in reverse order: a loop or an index runs the other way.
relation-rows-shifted = Row i of yours is row i { $shift } of the expected, for { $count } of the { $n } rows: an off-by-one in a position or an index.
relation-rows-reordered = Your rows are the expected rows in another order: row i of yours is row { $order }[i] of the expected. An index computed the wrong way?
relation-columns-reversed = Your columns are the expected columns in reverse order: a loop or an index runs the other way.
relation-columns-shifted = Column j of yours is column j { $shift } of the expected, for { $count } of the { $n } columns: an off-by-one in an index.
relation-columns-reordered = Your columns are the expected columns in another order: column j of yours is column { $order }[j] of the expected (heads or features cut or put back in the wrong order?).
relation-offset = Every entry of yours is the expected one plus { $offset }: a constant added or left out.
relation-column-offset = Yours minus the expected is the same row in every row ({ $offset }): an offset per column, such as a bias added twice or left out.
relation-row-offset = Yours minus the expected is constant along each row: an offset per row (a row's mean or maximum subtracted, or not).
relation-zero-rows = Row(s) { $rows } of yours are all zero where the expected are not: never written, or skipped by a loop?
relation-zero-columns = Column(s) { $cols } of yours are all zero where the expected are not: never written, or skipped?
relation-rows-right = Right: row(s) { $right }. Wrong: row(s) { $wrong }.
relation-columns-right = Right: column(s) { $right }. Wrong: column(s) { $wrong }.
relation-number-squared = Yours is the square of the expected number: a square root missing?
relation-number-root = Yours is the square root of the expected number: a square root too many?
relation-number-inverse = Yours is the inverse (1/x) of the expected number: a ratio upside down?
relation-number-scaled = Yours is { $factor } × the expected number{ $name }: one factor is wrong.

## Lesson 07: BPE, RMSNorm, RoPE, SwiGLU (causes/gpt.rs)

bpe-tie-largest = among pairs with the same count, training took the largest pair (or the last one seen); the rule is the smallest pair, by first id, then second (a BTreeMap visits it first; `max_by_key` keeps the last of equal maxima)
bpe-tie-first-seen = among pairs with the same count, training took the pair seen first in the text; the rule is the smallest pair, by first id, then second, whatever the order of the text
bpe-count-non-overlapping = pairs were counted without overlaps (after a pair, the count skipped its second id); count every position: [a, a, a] holds the pair (a, a) twice
bpe-merge-step-one = after merging a pair, the scan went on at the pair's second id instead of after it: that id is used again, so every id of the input gives one id of the output and the text never gets shorter
bpe-encode-left-first = encoding merged the leftmost learned pair first instead of the pair with the lowest rank (learned first): the merges must be applied in the order training learned them, wherever they are in the text
bpe-encode-highest-rank = encoding applied the merges from the last learned to the first (the highest rank first); apply the lowest rank first, as training did
bpe-encode-most-frequent = encoding merged first the learned pair that occurs most often in the text being encoded; the order is the merges' rank, the first learned first, whatever that text's counts: training counts pairs, encoding only looks up their ranks
bpe-encode-one-pass = encoding stopped after the first merge; go on until no adjacent pair of the result has been learned (a merge can make a pair that a later merge joins)
bpe-eot-as-bytes = the end-of-text token was encoded as the bytes of its text "<|endoftext|>"; it is one id, `end_of_text()`: split the text at it first
bpe-eot-id = the end-of-text token has the wrong id; it is the last id, 256 + the number of merges (`self.end_of_text()`), after every merged token
bpe-eot-dropped = the end-of-text token was dropped; each occurrence of "<|endoftext|>" in the text is one id in the result (and decodes back to that text)
rms-mean-subtracted = the row's mean was subtracted, as LayerNorm does; RMSNorm divides x itself by √(mean(x²) + ε), without centring
rms-eps-outside = ε was added outside the square root, x / (√mean(x²) + ε); it goes inside: x / √(mean(x²) + ε)
rms-no-sqrt = x was divided by the mean square, not by its square root: the root mean square is √(mean(x²) + ε)
rms-unbiased = the squares were averaged over d_model − 1; the mean is over the row's d_model features
rms-backward-constant-r = the backward pass treated 1/rms as a constant (dx = r·(dY ⊙ g)); r depends on x too, which adds the term − r·x̂ ⊙ mean_row(h ⊙ x̂)
rms-d-gain-raw-x = the gain's gradient used the input x (Σ_rows dY ⊙ x); the gain multiplies the normalised x̂ = x·r, so dg = Σ_rows dY ⊙ x̂
rms-d-gain-no-x = the gain's gradient is Σ_rows dY, as for a bias; the gain multiplies x̂ = x·r, so dg = Σ_rows dY ⊙ x̂
rms-backward-mean-term = the backward pass has LayerNorm's − mean_row(h) term; RMSNorm subtracted no mean, so dx = r·(h − x̂ ⊙ mean_row(h ⊙ x̂)) only
rope-clockwise = the pairs were turned the other way (the sine's sign flipped): y[2i] = x[2i]·cos − x[2i+1]·sin and y[2i+1] = x[2i]·sin + x[2i+1]·cos
rope-half-split = feature i was paired with feature i + d_head/2 (the layout of some LLaMA ports); here a pair is two adjacent columns, (2i, 2i + 1), as in lesson 04's table
rope-ignores-start = the positions started at 0 whatever `start` was; row t is at position start + t (with a cache, the new token comes after the cached ones)
rope-frequency-per-column = each column got a frequency of its own (ω indexed by the column, not the pair); both columns of pair i turn by the same angle p·ω_i
rope-backward-forward = the backward pass turned the gradient by the same angle as the forward pass; it must turn it back, by the opposite angle (the inverse of a rotation is its transpose)
swiglu-silu-on-up = SiLU was applied to the output of W_up instead of W_gate: h = SiLU(x W_gateᵀ) ⊙ x W_upᵀ
swiglu-sigmoid = the gate is the sigmoid σ(a), not SiLU(a) = a·σ(a) (that would be GLU's gate)
swiglu-slope-sigmoid = the backward pass used σ(a) as the slope of SiLU; SiLU'(a) = σ(a)·(1 + a·(1 − σ(a)))
swiglu-dx-one-path = dx has only one of its two paths; x feeds both W_gate and W_up, so dx = da W_gate + db W_up

## Lesson 07: the schedule, AdamW, sampling, bits per byte (causes/gpt.rs)

lr-warmup-from-zero = the warm-up starts at 0 (max_lr · step / warmup): step 0 would not move the weights at all; it is max_lr · (step + 1) / warmup, so that the warm-up's last step reaches max_lr
lr-cosine-progress-total = the cosine's progress is counted over all the steps; it runs over the steps after the warm-up: progress = (step − warmup) / (total − warmup), 0 when the warm-up ends and 1 at the last step
lr-cosine-no-half = the cosine lacks its (1 + cos)/2: it must fall from 1 to 0 as progress goes from 0 to 1, so the rate goes from max_lr to min_lr
lr-cosine-to-zero = the cosine decays to 0 instead of min_lr: min_lr + (max_lr − min_lr) · (1 + cos(π · progress)) / 2
adamw-l2 = the weight decay was added to the gradient (g + λθ), which is Adam with an L2 penalty: AdamW decouples it, θ ← θ − lr·λ·θ, and m and v see the gradient alone
adamw-decay-after = the decay was applied after Adam's step, to the updated weight; PyTorch's AdamW decays θ first (θ ← θ − lr·λ·θ), then takes Adam's step
adamw-decay-all = every tensor was decayed; only those whose flag in `decays` is true decay (weight matrices; not the gains)
adamw-decay-no-lr = the decay is missing the learning rate: θ ← θ − lr·λ·θ, not θ − λ·θ
temperature-ignored = the temperature changed nothing: this is softmax(logits) itself. Dividing every exponential by T (or every probability) cancels when they are normalised; divide the logits by T before the exponential: softmax(logits / T)
temperature-multiplied = the logits were multiplied by the temperature; they are divided by it: softmax(logits / T), so that T < 1 sharpens
top-k-not-renormalised = the kept probabilities were not renormalised: divide them by their sum, so that they add up to 1
top-k-ties-high = among equal probabilities the higher id was kept; the lower id ranks first
top-p-excludes-crossing = the token at which the cumulative probability reaches p was left out; it belongs to the nucleus (the smallest set whose probability is at least p), and the most probable token is always kept
top-p-not-renormalised = the nucleus was not renormalised: divide the kept probabilities by their sum
bits-in-nats = the result is in nats (natural logarithm); bits per byte uses log₂, so divide nats by ln 2
baseline-no-smoothing = the counts were not smoothed: add one to every count and 256 to the denominator (add-one smoothing), so that a byte never seen still has a probability
bigram-skips-first = the first byte of the text was left out (the mean over the pairs only); it is scored by the unigram model, and the mean is over every byte

## Lesson 07: causal self-attention with RoPE (causes/gpt.rs)

rope-on-values = the values were turned by RoPE too; only the queries and keys carry position (their dot products are the scores), the values pass unturned
rope-before-projection = RoPE was applied to the input before the projections; it turns each head's queries and keys after W_q and W_k, so that the score of two positions depends on their distance
rope-whole-width = RoPE was applied to the whole width d_model before the heads were split, with frequencies of d_model; each head is turned on its own, with the frequencies of d_head
self-attention-not-causal = the attention has no causal mask: each position may look only at itself and the positions before it (causal_mask(n) from lesson 02)
rope-not-turned-back = the gradients of the queries and keys were not turned back by rope_backward before the projections' gradients; the forward pass turned them, so the backward pass must undo it
attention-dx-path = dx lacks one of its three paths; x feeds the queries, the keys and the values, so dx = dQ W_q + dK W_k + dV W_v

## Lesson 07: the model, its loss, its backward pass, the cached step (causes/gpt.rs)

block-residual-on-normed = both sublayers' outputs were added to their normalised inputs (h = a + Attention(a), y = b + SwiGLU(b)) instead of to the stream: pre-norm adds to x and h themselves, h = x + Attention(RMSNorm_1(x)), y = h + SwiGLU(RMSNorm_2(h))
block-residual-1-on-normed = the attention's output was added to its normalised input, h = a + Attention(a) with a = RMSNorm_1(x), instead of to the stream: h = x + Attention(RMSNorm_1(x))
block-residual-2-on-normed = the feed-forward's output was added to its normalised input, y = b + SwiGLU(b) with b = RMSNorm_2(h), instead of to the stream: y = h + SwiGLU(RMSNorm_2(h))
block-parallel = the feed-forward read RMSNorm_2(x) instead of RMSNorm_2(h): the two sublayers ran side by side; the feed-forward must read the stream after the attention's residual
block-post-norm = the block normalised after each residual (post-norm, lesson 05's post-LN) instead of before each sublayer: a = RMSNorm_1(x), h = x + Attention(a), b = RMSNorm_2(h), y = h + SwiGLU(b)
block-attention-gets-dy = the attention's backward got d_y instead of d_h = d_y + RMSNorm_2's d_x: the attention's output reaches y along both of h's paths
block-skip-carries-dy = the first residual passed d_y straight to x instead of d_h: d_x = d_h + RMSNorm_1's d_x
block-norm-backward-at-output = an RMSNorm's backward was taken at its output (a or b) instead of at its input (x or h): each backward pass takes the input its forward pass had
block-no-skip-gradient = a residual's straight path was left out of the gradient: h = x + f(x) gives d_x = d_h + f's d_x, the upstream gradient itself plus the sublayer's
gpt-head-unnormed = the logits were computed from the last stream x_L instead of from RMSNorm_f(x_L): the model's last RMSNorm comes before the head
gpt-embedding-no-head-share = dE lacks the head's share, d_logitsᵀ RMSNorm_f(x_L): E is used twice, by the lookup and by the tied head, so its gradient is the sum of both
gpt-embedding-no-lookup-share = dE lacks the lookup's share: row t of d_x_0 must be added into row tokens[t] of dE, on top of the head's share
gpt-embedding-lookup-assigned = the lookup's rows were written over dE instead of added: the head's share is lost in those rows, and a token that occurs twice keeps only one of its rows
gpt-embedding-head-unnormed = the head's share of dE used x_L instead of RMSNorm_f(x_L), the input of the head
gpt-block-grads-reversed = the blocks' gradients, computed from the last block down, were not put back in order: block l got the gradients of block L − 1 − l
loss-gradient-not-mean = the gradient lacks the 1/n of the mean: d_logits = (softmax − onehot) / n, as the value is a mean over the n rows
loss-value-sum = the loss is the sum over the rows instead of their mean
loss-in-bits = the loss is in bits (a base-2 logarithm); the cross-entropy here is in nats, with the natural logarithm (bits_per_byte converts later)
loss-gradient-target-only = only the target's entry got a gradient; every entry of a row gets softmax minus the one-hot target, over n
step-key-at-zero = the new key was turned at position 0 instead of at its own position p = cache.len(): a cached key is turned once, at the position of its token
step-query-at-zero = the new query was turned at position 0 instead of at p = cache.len()
step-query-after-push = the new query was turned at p + 1: the position was read as cache.len() after the new key was pushed; read p = cache.len() once, before the push, and turn both the query and the key at p
step-key-after-push = the new key was turned at p + 1: the position was read as cache.len() after the push; read p = cache.len() once, before the push, and turn both the query and the key at p
step-attend-before-push = attention ran over the cache before the new token's key and value were pushed: a token attends to itself too, as row p of the causal mask allows
gradient-of-another-tensor = this is the right gradient of another tensor of the same shape: each sublayer's backward computed the right numbers, and they were put in the wrong place when the gradients were gathered (check the order of the fields and of the blocks)
