# The graded suite of lesson 02, attention: what its failing tests say.
# Arguments are already formatted (numbers, matrices); labels name the checked value and
# hints give the likely cause. Keep the English byte for byte what it is: `cargo xtask
# mistakes 02` looks for these words.

## Softmax

softmax-label-shape = softmax_rows of a (4, 5) matrix
softmax-label-huge-scores = softmax_rows of scores near ±10⁴
softmax-huge-scores-hint = a NaN in softmax is 0/0 or ∞/∞: either exp overflowed (exp(10000) is infinite: subtract each row's maximum before exponentiating), or every exp of a row underflowed to 0 (what was subtracted was not the row's maximum: a running maximum starts at −∞, not at 0)
softmax-label-fully-masked-row = softmax_rows with a fully masked row
softmax-fully-masked-row-hint = a row that is all −∞ has maximum −∞, and −∞ − (−∞) is NaN: give such a row all-zero weights instead
softmax-label-minus-infinity = softmax_rows with −∞ scores
softmax-backward-hint = each row's Jacobian is diag(w) − w wᵀ, so dS = W ⊙ (dW − rowsum(W ⊙ dW)); check the row sum is taken per row and broadcast back over the row (If softmax_rows fails its tests too, fix it first: the numerical gradient is computed from it.)

## Masks

causal-mask-hint = row i is query i and column j key j: query i may attend to keys j ≤ i (itself and the past); an upper-triangular mask (j ≥ i) lets positions see the future
causal-mask-empty = causal_mask(0) should be an empty (0, 0) mask
padding-mask-hint = the mask has one row per query and one column per key; column j is key_is_token[j], the same for every query
apply-mask-mismatch =
    apply_mask should give
    { $expected }
    got
    { $got }
    Likely cause: `true` in the mask means 'may attend' (keep the score); `false` means −∞. A large negative number such as −1e9 is not −∞: scores can drift below it.

## Scaled dot-product attention

attention-label-output-three-words = attention output (three words)
attention-label-weights-three-words = attention weights (three words)
attention-label-journey-weights = weights of the query x²
attention-label-journey-context = context vector z²
attention-label-output-d-k-16 = attention output (d_k = 16)
attention-label-weights-shape = attention weights for 3 queries and 5 keys
attention-label-weights = attention weights
cross-attention-label-output = output: one row per query, one column per value feature
cross-attention-label-weights = weights: one row per query, one column per key
causal-future-weight = weight [{ $i }, { $j }] under a causal mask is { $weight }, but position { $i } must not see position { $j } at all. Likely cause: masking with a large finite number or after the softmax; mask the scores with −∞ before it.
causal-label-weights = causally masked weights
causal-weights-hint = the weights were zeroed after the softmax, which leaves rows that no longer sum to 1: mask the scores with −∞ before the softmax instead (or the softmax normalised columns instead of rows)
causal-label-first-output = output of position 0 under a causal mask
masking-label-weights = masked attention weights
padding-label-output = output after changing the value of a padded key
fully-masked-hint = a query with every key masked has scores all −∞; its softmax must give zero weights (not 0/0 = NaN)
fully-masked-label-weights = weights with a fully masked query
fully-masked-label-output = output with a fully masked query
fully-masked-finite-cause = the mask used a large finite number such as −1e9 instead of −∞: a query with every key masked then weighs all keys equally and returns the average of the values; mask with −∞ and give an all −∞ row zero weights
fully-masked-label-query-output = output of the fully masked query
huge-scores-hint = scores of 10⁴/√2 overflow exp: subtract each row's maximum first
huge-scores-label-weights = weights with scores near 10⁴
huge-scores-label-output = output with scores near 10⁴
peaked-query-label = output of a query 50 × k₂ (should copy v₂)
query-between-keys-label = output of a query 50 × (k₀ + k₃) (should average v₀ and v₃)
library-best-book = the query [4, 0, 0] should weigh the deep-learning book (key 0) most; weights were { $weights }. Likely cause: scores must be query · key, one per key.
library-mostly-content = the answer should be mostly the deep-learning book's content; got { $output }
attention-backward-d-v-hint = the output is W V, so dV = Wᵀ dO (the weights transposed)
attention-backward-d-q-hint = dQ = dS K, where dS is the softmax backward of dW = dO Vᵀ, times 1/√d_k
attention-backward-d-k-hint = dK = dSᵀ Q: the scores are Q Kᵀ, so K's gradient takes dS transposed

## The Linear layer and one self-attention head

linear-label-square-weight = Linear::forward with a square weight
linear-label-d-x = Linear d_x
linear-d-x-hint = dx = dY W (not Wᵀ)
linear-label-d-weight = Linear d_weight
linear-label-d-bias = Linear d_bias
linear-d-bias-hint = the bias is added to every row, so d_bias is dY summed over the rows (`sum_axis(Axis(0))`), one entry per output feature
head-swapped-cause = queries and keys were swapped (W_q and W_k mixed up)
head-label-weights = head weights
head-label-output = head output
head-path-query = query
head-path-key = key
head-path-value = value
head-d-x-path-missing-hint = your d_x is the sum of the other two paths only: the { $path } path (the d_x of { $name }) is missing. x feeds the query, key and value projections, so its gradient is the sum of all three
head-d-x-hint = x feeds the query, key and value projections: its gradient is the sum of all three
head-label-d-x = head d_x
head-label-path-d-x = head: the d_x of { $name } (the { $path } path's share of d_x)
head-path-d-x-hint = each projection's d_x is what its own input receives: dQ W_q for the query path, dK W_k for the key path, dV W_v for the value path
head-label-d-parameter = head d_{ $name }
head-d-weight-hint = send each of dQ, dK, dV back through its own projection
head-d-bias-hint = a projection's bias gradient is its dQ (or dV) summed over the rows
head-d-b-k-not-zero = head d_b_k should be 0 (up to rounding) for any input, got { $got }. Adding a vector b to every key adds q_i · b to every score of row i, and the softmax ignores a constant added to a row, so the loss does not depend on b_k. Likely cause: d_b_k must be dK summed over the rows; with dK = dSᵀ Q those sums are 0 because every row of dS sums to 0. Check dK and the key projection's backward.
