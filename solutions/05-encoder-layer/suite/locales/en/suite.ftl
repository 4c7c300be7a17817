# The graded tests of lesson 05 (the encoder layer and the decoder layer): what a failed
# test says. Arguments are already formatted (numbers, matrices); `position` is the layer's
# NormPosition (Post or Pre), `hint` and `cause` a likely cause. Keep the English byte for
# byte what the tests say: `cargo xtask mistakes 05` looks for these words.

## Said of every gradient check

gradient-of = { $what }: { $gradient }

## LayerNorm

inv-std-mismatch = normalise_rows([[1, 0, 0, 0]]).inv_std should be [1/√(3/16 + 1e-5)] = [{ $expected }], got { $got }. Likely cause: inv_std holds one number per row, 1/√(σ² + ε), with σ² the biased variance of that row.
layer-norm-4-pytorch = LayerNorm::new(4).forward([[1, 0, 0, 0]]) (PyTorch's nn.LayerNorm(4))
burn-published = LayerNorm of burn's fixture (burn's published values)
burn-pytorch = LayerNorm of burn's fixture (PyTorch)
eps-fixed = ε was fixed at 1e-5 (LAYER_NORM_EPS) instead of taken from the layer's own `eps` field
burn-eps = LayerNorm with eps = 0.1 of burn's fixture (PyTorch; burn publishes −0.4863, −1.9180, 1.5766, ...)
candle-rows = LayerNorm of candle's rows [1, 2, 3], [4, 5, 6], [9, 8, 7]
gamma-beta-pytorch = LayerNorm with γ = linspace(0.5, 1.5, 5), β = linspace(−0.3, 0.3, 5) (PyTorch)
layer-norm-of-input = LayerNorm of a { $shape } input
mean-not-zero = LayerNorm (γ = 1, β = 0): row { $row } of the output has mean { $mean }, expected 0. Likely cause: the row's mean μ must be subtracted from each of its entries (a mean per row, over the features).
eps-left-out = ε was left out: with it inside the square root the output's std is √(σ²/(σ² + ε)), visibly below 1 when σ² is as small as ε
eps-on-std = ε was added to the standard deviation instead of the variance
divide-by-std = divide by √(σ² + ε), where σ² is the biased variance of the row (÷ d_model)
std-mismatch = LayerNorm (γ = 1, β = 0): row { $row } has input variance { $variance }, so its output's standard deviation should be √(σ²/(σ² + ε)) = { $expected }, got { $got }. Likely cause: { $cause }.
constant-row = LayerNorm of a constant row
constant-row-hint = a constant row has variance 0, and (x − μ)/√σ² is 0/0 = NaN: ε inside the square root, (x − μ)/√(σ² + ε), is what keeps it finite
constant-row-is-beta = LayerNorm of a constant row (x̂ = 0, so the output is β)
layer-norm-rows-at-once = LayerNorm of 7 rows at once, against each row on its own
sum-gradient-hint = the mean and the variance depend on every entry of the row, which adds two terms to dx: dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂)) with g = dY ⊙ γ. Treating μ and σ² as constants (dx = g·r) is the usual mistake
sum-gradient-burn = d sum(LayerNorm(x)) / dx for burn's x = [[9, 10], [54, 61]] should be exactly 0 (each row of LayerNorm's output sums to Σβ whatever x is), got { $got }. Likely cause: { $hint }.
d-gamma-burn = dγ of sum(LayerNorm(x)) (burn: [−2, 2])
d-gamma-pytorch = dγ of sum(LayerNorm(x)) (PyTorch)
d-beta-burn = dβ of sum(LayerNorm(x)) (burn: [2, 2])
sum-gradient-uniform-gamma = d sum(LayerNorm(x)) / dx with γ = 1.7 everywhere should be 0 (up to 1e-12): Σ_j (1.7·x̂_j + β_j) = Σβ whatever x is; got a largest entry of { $largest }. Likely cause: { $hint }.
layer-norm-d-x-hint = with g = dY ⊙ γ and r = 1/√(σ² + ε) per row, dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂)), the means taken over each row's features
layer-norm-d-gamma-hint = dγ = Σ_rows dY ⊙ x̂: the normalised input, not x nor the output
layer-norm-d-beta-hint = β is added to every row, so dβ = Σ_rows dY

## The position-wise feed-forward network

ffn-sizes = FeedForward with w_1 (10, 6) should report d_model 6 and d_ff 10, got { $d_model } and { $d_ff }
ffn-output-pytorch = FeedForward output (PyTorch: linear2(relu(linear1(x))))
ffn-of-input = FeedForward of a (5, 6) input
ffn-row-unchanged = FeedForward output row { $row } after changing input row 2 only
ffn-rows-at-once = FeedForward of 5 rows at once, against each row on its own
ffn-d-x-hint = back through w_2 (its input is hidden), then the ReLU (× 1 where hidden > 0, × 0 elsewhere), then w_1 (its input is x)
ffn-w-1-hint = w_1's input is x and its upstream gradient is the one that came back through w_2 and the ReLU
ffn-w-2-hint = w_2's input is hidden (after the ReLU) and its upstream gradient is d_output

## The encoder layer

encoder-post-pytorch = encoder layer, post-LN (PyTorch's nn.TransformerEncoderLayer, norm_first=False)
encoder-pre-pytorch = encoder layer, pre-LN (PyTorch's nn.TransformerEncoderLayer, norm_first=True)
encoder-padded-pytorch = encoder layer, post-LN, with the last two tokens padded (PyTorch)
mask-not-passed = the mask did not reach the self-attention: pass it to self_attention.forward
padding-moved-real-tokens = encoder layer ({ $position }): the real tokens' outputs after changing the padded tokens (should not move at all)
pre-ln-identity = pre-LN encoder layer whose sublayers output 0 (should be the identity: x + 0 + 0)
pre-ln-normalised-twice = the output is LayerNorm(LayerNorm(x)): either the layer computed post-LN, or its residual connections added the normalised input; pre-LN's residual path carries the raw input, h = x + SA(norm_1(x)), out = h + FFN(norm_2(h))
pre-ln-identity-d-x = pre-LN encoder layer whose sublayers output 0: d_x (should be d_output: the residual path is the identity, a straight highway for the gradient)
skip-gradient-dropped = the gradient that skips each sublayer was dropped: at every residual connection y = x + F(..), dx = dy + (what comes back through F)
post-ln-normalises = post-LN encoder layer whose sublayers output 0 (should be LayerNorm(LayerNorm(x)): post-LN normalises after every residual addition)
encoder-d-model = EncoderLayer::d_model() of the base model should be 512, got { $got }
encoder-base-count = the base model's encoder layer should have 3,152,384 parameters: 1,050,624 in the attention (4·512² + 4·512), 2,099,712 in the FFN (2·512·2048 + 2048 + 512) and 2,048 in the two LayerNorms (γ and β, 512 each); got { $got }. Likely cause: a part is missing or counted twice; add up the parts' parameter_count().
encoder-fixture-count = the fixture's encoder layer (d_model = 6, d_ff = 10) should have 168 + 136 + 24 = 328 parameters, got { $got }
encoder-against-autograd = encoder layer ({ $position }) backward, against PyTorch's autograd: { $name }

## Gradient checks of whole layers, every parameter

encoder-layer = encoder layer ({ $position })
encoder-post-attention-hint = post-LN: the self-attention's upstream gradient is norm_1's d_x (norm_1 normalised x + SA(x)), and its input x fed queries, keys and values
encoder-post-ffn-hint = post-LN: the FFN's input is h = norm_1(..) and its upstream gradient is norm_2's d_x
encoder-post-norm-1-hint = post-LN: norm_1's input is x + SA(x) and its upstream gradient d_h is norm_2's d_x plus what comes back through the FFN
encoder-post-norm-2-hint = post-LN: norm_2's input is h + FFN(h) and its upstream gradient is d_output
encoder-pre-attention-hint = pre-LN: the self-attention's input is norm_1(x) and its upstream gradient is d_h = d_output + norm_2's d_x
encoder-pre-ffn-hint = pre-LN: the FFN's input is norm_2(h) and its upstream gradient is d_output
encoder-pre-norm-1-hint = pre-LN: norm_1's input is x and its upstream gradient is what comes back through the self-attention (d_query_input + d_key_value_input)
encoder-pre-norm-2-hint = pre-LN: norm_2's input is h and its upstream gradient is the FFN's d_x
encoder-d-x-hint = walk the blocks backwards; at each residual connection y = x + F(..) the gradient of x is the gradient of y plus what comes back through F; in self-attention the one input feeds queries, keys and values, so its gradient is d_query_input + d_key_value_input

## The decoder layer

decoder-post-pytorch = decoder layer, post-LN (PyTorch's nn.TransformerDecoderLayer, norm_first=False)
decoder-pre-pytorch = decoder layer, pre-LN (PyTorch's nn.TransformerDecoderLayer, norm_first=True)
saw-the-future =
    decoder layer ({ $position }): output row { $row } changed when only target rows { $first }..4 changed, so position { $row } saw the future.
    before: { $before }
    after:  { $after }
    Likely cause: the self-attention must get self_mask (the causal mask), the cross-attention memory_mask; and every LayerNorm must normalise each row (position) over its features (a LayerNorm over the rows mixes positions).
input-ignored = decoder layer ({ $position }): output row 3 did not change when target row 3 changed; the layer must use its input
padded-memory-moved-output = decoder layer ({ $position }) output after changing the padded memory row (should not move at all; the cross-attention must get memory_mask)
d-memory-shape = d_memory: one row per source position (5), d_model (6) columns
padded-memory-gradient = decoder layer ({ $position }): the padded memory row's gradient should be exactly 0 (it gets no attention), got { $got }. Likely cause: d_memory is the cross-attention's d_key_value_input.
decoder-output-shape = decoder output: one row per target token
cross-attention-weights-shape = cross-attention weights: one row per target token, one column per source token (queries from the decoder, keys from the memory)
self-attention-weights-shape = self-attention weights
decoder-d-x = decoder d_x
decoder-d-memory = decoder d_memory
decoder-d-model = DecoderLayer::d_model() of the base model should be 512, got { $got }
decoder-base-count = the base model's decoder layer should have 4,204,032 parameters: 2 × 1,050,624 in the two attentions, 2,099,712 in the FFN and 3,072 in the three LayerNorms; got { $got }. Likely cause: the cross-attention or the third LayerNorm is missing, or a part is counted twice.
decoder-fixture-count = the fixture's decoder layer (d_model = 6, d_ff = 10) should have 2·168 + 136 + 36 = 508 parameters, got { $got }
decoder-against-autograd = decoder layer ({ $position }) backward, against PyTorch's autograd: { $name }
decoder-layer = decoder layer ({ $position })
decoder-post-self-attention-hint = post-LN: the self-attention's upstream gradient is norm_1's d_x, and its input x fed queries, keys and values
decoder-post-cross-attention-hint = post-LN: the cross-attention's query input is h_1 = norm_1(..), its key/value input the memory, and its upstream gradient norm_2's d_x
decoder-post-ffn-hint = post-LN: the FFN's input is h_2 = norm_2(..) and its upstream gradient norm_3's d_x
decoder-post-norms-hint = post-LN: norm_k's input is (its block's input) + (its sublayer's output), and its upstream gradient is what reaches its output: d_output for norm_3, then the sum of the skip path and the sublayer path for norm_2 and norm_1
decoder-pre-self-attention-hint = pre-LN: the self-attention's input is norm_1(x) and its upstream gradient d_h_1
decoder-pre-cross-attention-hint = pre-LN: the cross-attention's query input is norm_2(h_1), its key/value input the memory, and its upstream gradient d_h_2 = d_output + norm_3's d_x
decoder-pre-ffn-hint = pre-LN: the FFN's input is norm_3(h_2) and its upstream gradient d_output
decoder-pre-norms-hint = pre-LN: norm_k's input is its block's input (x, h_1, h_2), and its upstream gradient is what comes back through its sublayer's query path
decoder-d-x-hint = walk the three blocks backwards, adding the skip path's gradient at each residual connection; only the cross-attention's query path (d_query_input) goes back into the decoder's stream, and the self-attention's input gets d_query_input + d_key_value_input
decoder-d-memory-hint = the memory is the cross-attention's key/value input, so d_memory is the cross-attention's d_key_value_input (it feeds both W_k and W_v)
