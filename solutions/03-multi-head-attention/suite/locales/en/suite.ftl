# The graded suite of lesson 03, multi-head attention: what its failing tests say.
# Arguments are already formatted (numbers, matrices); labels name the checked value and
# hints give the likely cause. Keep the English byte for byte what it is: `cargo xtask
# mistakes 03` looks for these words.

## Shared by several tests

cross-attention-panic =
    MultiHeadAttention::forward panicked on cross-attention of { $queries } queries over { $keys } keys and values: { $text }
    Likely cause: if a shape does not fit, { $cause }; the scores of each head are (n_q, n_k) = ({ $queries }, { $keys }), like the mask.
weights-of-head = weights of head { $head }
one-weight-matrix-per-head = { $heads } heads should give { $heads } weight matrices, got { $got }. Likely cause: { $cause }

## Split and merge

split-count = split_heads of a (3, 6) matrix into 3 heads: expected 3 matrices, got { $got }. Likely cause: one matrix per head, n_heads of them.
split-label-head = split_heads(x, 3): head { $head } (one row per token, d_k = 2 columns)
split-label-tall-head = a head of split_heads((5, 4) matrix, 2): rows are tokens and stay; the columns (features) are split
merge-label = merge_heads of three (2, 2) heads (the heads must sit side by side, not stacked: the tokens stay the rows)
split-then-merge =
    merge_heads(split_heads(x, { $heads })) should be x exactly (a pure reshape: no number changes), got
    { $got }
    for x =
    { $x }
    Likely cause: merge_heads must put head i back in the columns split_heads took it from.
merge-then-split = split_heads(merge_heads(heads), 4) should give the 4 heads back exactly, got { $got }. Likely cause: split and merge disagree about which columns belong to which head.

## The forward pass

one-head-weight-count = one head should give one weight matrix, got { $got }. Likely cause: { $cause }
one-head-label-weights = the weights of the only head
one-head-label-output = one-head attention with identity projections (should be lesson 02's attention)
heads-label-output = output with { $heads } heads
heads-weight-count = with { $heads } heads, forward should return { $heads } weight matrices, got { $got }. Likely cause: { $cause }
heads-label-weights = weights of head { $head } of { $heads }
pytorch-label-output = { $what }: output (PyTorch's nn.MultiheadAttention)
pytorch-weight-count = { $what }: expected { $expected } weight matrices (one per head), got { $got }. Likely cause: { $cause }
pytorch-label-weights = { $what }: weights of head { $head } (PyTorch's average_attn_weights=False)
pytorch-case-self-attention = self-attention
pytorch-case-cross-attention = cross-attention
pytorch-case-padded-self-attention = padded self-attention
seed-code-cause = the heads were split per token without moving the head axis before the sequence axis (the seed's `.view(-1, num_heads, d_k)` with no `.transpose(1, 2)`), so each token's heads attended over each other instead of over the tokens; attention runs per head over all positions
cross-attention-label-output-shape = cross-attention output: one row per query (2), d_model (6) columns
padded-key-weight = head { $head }: query { $row } gives weight { $weight } to the padded key { $col }; it must be exactly 0. Likely cause: the mask must reach every head's attention (pass it to each head's scaled_dot_product_attention).
padded-label-self-attention = self-attention outputs of the 3 real tokens after the 2 padded tokens changed
padded-label-cross-attention = cross-attention output after the 2 padded keys and values changed
causal-future-weight = head { $head }: position { $row } gives weight { $weight } to the future position { $col }; under a causal mask it must be exactly 0 in every head. Likely cause: the mask was not passed to every head's attention.
causal-label-weights = causal weights of head { $head }
causal-rows-hint = each head runs its own softmax over the keys, row by row
sizes = d_model should be 6 and d_k 2, got { $d_model } and { $d_k }
shapes-label-output = output: one row per query, d_model columns
shapes-label-head-weights = weights of head { $head }: one row per query (2), one column per key (5: the keys and values come from key_value_input)
shapes-rows-hint = each head's weights come from lesson 02's attention, a softmax per row
shapes-label-d-query-input = d_query_input (the gradient of the 2 queries' input)
shapes-label-d-key-value-input = d_key_value_input (the gradient of the 5 keys' and values' input)
shapes-bias-gradient = the gradient of { $name }'s bias should have 6 entries, got { $got }
parameter-count = parameter_count for d_model = { $d_model }, { $heads } heads: expected 4·{ $d }² + 4·{ $d } = { $expected }, got { $got }. Likely cause: { $cause }.

## The backward pass

d-query-input-hint = the query input feeds only W_q: d_query_input = dQ W_q, where dQ is every head's d_q merged side by side (and each head's upstream gradient is its own slice of d_output W_o)
d-key-value-input-value-path-hint = your d_key_value_input is the value path alone: the key/value input also feeds W_k, so add dK W_k to dV W_v
d-key-value-input-key-path-hint = your d_key_value_input is the key path alone: the key/value input also feeds W_v, so add dV W_v to dK W_k
d-key-value-input-hint = the key/value input feeds both W_k and W_v: d_key_value_input = dK W_k + dV W_v, with dK and dV every head's gradients merged side by side
d-w-q-hint = dW_q = dQᵀ query_input, with dQ every head's d_q merged side by side
d-w-k-hint = dW_k = dKᵀ key_value_input (the keys come from the key/value input, not the query input)
d-w-v-hint = dW_v = dVᵀ key_value_input, with dV every head's d_v merged side by side
d-w-o-hint = W_o's input is the heads' outputs side by side (concat): dW_o = d_outputᵀ concat, db_o = d_output summed over the rows
label-d-weight = d_{ $name } (weight)
label-d-bias = d_{ $name } (bias)
key-bias-not-zero = the gradient of the key bias b_k should be 0 (up to rounding), got { $got }. Adding b_k to every key adds q_i · b_k to every score of row i in each head, and the softmax ignores a constant added to a row. Likely cause: db_k must be dK summed over the rows, with dK from lesson 02's attention backward, merged side by side.
d-bias-hint = a projection's bias gradient is its upstream gradient summed over the rows
self-attention-counted-twice-hint = d_key_value_input alone already matches the whole gradient of x, so d_query_input is counted twice: d_query_input must be the query path only (dQ W_q)
self-attention-input-hint = x feeds W_q (through the queries) and W_k, W_v (through the keys and values): d_query_input must be dQ W_q and d_key_value_input dK W_k + dV W_v, so that their sum is the whole gradient of x
self-attention-label-input-gradient = d_query_input + d_key_value_input (self-attention)
independent-heads-label = weights of head { $head } after changing only head 1's rows of W_q and W_k
independent-heads-unchanged = head 1's weights did not change when its own rows of W_q and W_k did. Likely cause: head i must use columns i·d_k .. (i+1)·d_k of Q and K.
