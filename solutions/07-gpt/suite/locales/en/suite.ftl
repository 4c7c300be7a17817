# The graded tests of lesson 07 (A GPT of your own): what a failed test says.

## BPE

count-pairs-run = count_pairs([7, 7, 7, 7, 5, 7, 7])
count-pairs-total = count_pairs: your counts add up to { $total }, but the sequence has { $windows } windows of two, each one pair: count every position (the windows overlap)
count-pairs-short = count_pairs([3]): one id has no pair
merge-pair = merge_pair({ $ids }, ({ $a }, { $b }), 300)
merge-pair-left = merge_pair: the pair ({ $a }, { $b }) still occurs at position { $at } of your result; a left-to-right scan merges every occurrence and leaves none behind
train-corpus = train_bpe of three documents (English, Chinese, English), 30 merges, flat (first, second, …)
merge-outside-documents = train_bpe: merge { $rank } makes the bytes “{ $text }”, which occur in no document: pairs are counted only inside the documents between end-of-text tokens (split the text at END_OF_TEXT first)
merge-unknown-id = train_bpe: merge { $rank } names an id that no earlier merge made
train-ties = train_bpe("dcba", 5): every pair occurs once, so the smallest pair wins each round
train-documents = train_bpe("ab<|endoftext|>ab<|endoftext|>b", 3): pairs are counted inside each document only
encode-text = encode({ $text }) with the 30 merges
encode-rank = encode("{ $text }") with the merges { $merges }, learned in that order: the lowest rank first
decode-text = decode_bytes(encode({ $text })) must give back its bytes exactly
decode-eot = decode_bytes([end_of_text()]) must be the bytes of "<|endoftext|>"

## RMSNorm

rms-forward = RmsNorm::forward on three rows of five, with a gain
rms-scale = RmsNorm::forward(1000·x) against RmsNorm::forward(x): dividing by the root mean square removes the scale
rms-d-x-hint = with h = dY ⊙ g and r = 1/√(mean(x²) + ε) per row, dx = r·(h − x̂ ⊙ mean(h ⊙ x̂))
rms-d-gain-hint = dg = Σ_rows dY ⊙ x̂, with x̂ = x·r

## RoPE

rope-forward = apply_rope on four rows of eight from position { $start }
rope-relative = RoPE: q at position { $m } and k at { $n } score { $a }, moved together by { $shift } they score { $b }; the score must depend on the distance only
rope-backward = rope_backward at positions 7 to 10
rope-odd = apply_rope on a (2, 5) matrix must panic: a pair needs two features, so d_head must be even

## SwiGLU

swiglu-forward = SwiGlu::forward(x).output, three rows of four through six hidden units
silu-points = silu at −3, −0.5, 0, 0.5, 3 and 40
swiglu-deduce-slope = SwiGlu::backward: dW_down and dW_up are right, so dh = dY W_down and db = dh ⊙ SiLU(a) are right; dW_gate = daᵀ x is wrong, so da = dh ⊙ b ⊙ SiLU'(a) is: check SiLU's slope, SiLU'(a) = σ(a)·(1 + a·(1 − σ(a)))
swiglu-deduce-dx = SwiGlu::backward: every weight's gradient is right, so da and db are; only dx is wrong: x feeds both projections, dx = da W_gate + db W_up
swiglu-backward-forward-first = SwiGlu::backward: your SwiGlu::forward is wrong on this very input (swiglu_forward_matches_numpy fails too), and the backward pass takes a, b and h from the forward pass: fix the forward pass first, then look at these gradients again

## The schedule, AdamW, sampling, bits per byte

cosine-rates = cosine_rate(step, 10, 110, 3e-3, 2e-4) for every step from 0 to 130 (entry k is step k)
adamw-three-steps = the parameters (three tensors, flat; the second does not decay) after three AdamW steps
softmax-t = softmax_with_temperature(logits, { $t })
top-k = top_k_filter(probs, { $k })
top-p = top_p_filter(probs, { $p })
sample-plain = sample_next(logits, T = 1, no filter, u) for 25 draws u from 0.01 to 0.99
sample-filtered = sample_next(logits, T = 1, top-k 5, top-p 0.9, u) for the same 25 draws
sample-greedy = sample_next(logits, greedy, u) for three draws: the lower id of the two largest logits, whatever u
baseline = { $which }_bits_per_byte on an 80/20 split of the corpus
bits-per-byte = bits_per_byte(10 nats, 7 bytes) = 10 / (7 ln 2)
temperature-sharpens = softmax_with_temperature: the largest probability is { $cold } at T = 0.7 and { $warm } at T = 1.5; a lower temperature must sharpen the distribution (divide the logits by T before the softmax: dividing afterwards cancels in the normalisation)
top-k-count = top_k_filter(probs, { $k }) keeps { $kept } tokens (nonzero probabilities); it must keep exactly the { $k } most probable
filter-sum = { $call }: your probabilities add up to { $sum }, not 1: divide the kept ones by their sum
top-p-exact = top_p_filter([0.5, 0.25, 0.25], { $p }): the token at which the cumulative probability reaches p exactly is kept, and none after it
baseline-sum-unigram = unigram_bits_per_byte: the probabilities your model gives the 256 byte values (2^(−bits) of each one-byte text) add up to { $sum }, not 1: with add-one smoothing each of the 256 values gets one extra count, so the denominator is the number of bytes plus 256
baseline-sum-bigram = bigram_bits_per_byte: the probabilities your model gives the 256 byte values after the byte { $byte } add up to { $sum }, not 1: P(b | a) = (count(a, b) + 1) / (count(a, ·) + 256), with count(a, ·) the pairs that start with a

## Causal self-attention with RoPE

attention-forward = CausalSelfAttention::forward(x).output, five tokens of width 8, two heads of width 4
attention-causal = CausalSelfAttention: the outputs of the first three tokens, with the last two tokens and without them: a token must not see the ones after it
attention-backward-forward-first = CausalSelfAttention::backward: your CausalSelfAttention::forward is wrong on this very input (self_attention_matches_numpy fails too), and the backward pass takes the queries, keys, values and weights from the forward pass: fix the forward pass first, then look at these gradients again

## The model

block-forward = Block::forward(x).output, block 0 of the tiny model (width 8, two heads, d_ff 12) on five tokens: h = x + Attention(RMSNorm_1(x)), y = h + SwiGLU(RMSNorm_2(h))
gpt-stream = Gpt::forward(tokens).stream[1], the stream after the first block, seven tokens (token 3 twice)
gpt-logits = Gpt::forward(tokens).logits, RMSNorm_f(x_L) Eᵀ with the head tied to the embedding, seven tokens
loss-value = next_token_loss(logits, targets).value, the mean of −ln p(target) over seven rows (PyTorch's F.cross_entropy)
loss-gradient = next_token_loss(logits, targets).d_logits, (softmax(logits) − onehot(targets)) / n
attention-step = CausalSelfAttention::step token by token from an empty cache, five tokens of width 8, two heads: each output must be that token's row of the whole-sequence pass
generate-cached = Gpt::generate with the key/value cache against the same model without a cache, prompt [3, 7], 10 new tokens, temperature { $temperature }, seed { $seed }
gpt-logits-after-stream = (The stream after the first block is right, so the embedding's lookup and the first block are: the error comes after them, in what the second block reads, the last RMSNorm or the head.)
loss-gradient-rows = each row of next_token_loss's d_logits must add up to 0 (softmax adds up to 1, the one-hot target to 1); yours is off by up to { $worst }: the gradient is (softmax − onehot) / n, with the probabilities, not their logarithms
attention-step-first = CausalSelfAttention::step on the first token of an empty cache: at position 0 RoPE turns nothing and the token attends only to itself (its own key and value, pushed before it attends), so its output is its value through W_o, x W_vᵀ W_oᵀ
generate-draws = Greedy generation agreed, so the model and its cache give the right logits: the tokens part where they are drawn. Draw one uniform per new token, in order, from seeded_rng(seed), and pass it to sample_next
generate-prompt = The first new token already differs, and it depends only on the logits after the prompt: run the prompt through one set of caches, token after token, and take the logits after its last token
generate-cache = The first new tokens agree and a later one differs: feed each new token back through the same caches, at the next position, to get the logits of the one after it
block-forward-after-residual = (h = x + Attention(RMSNorm_1(x)) is right, so the first half of the block is: the error is in the second, y = h + SwiGLU(RMSNorm_2(h)).)
block-residual = Block::forward(x).residual, block 0 of the tiny model: h = x + Attention(RMSNorm_1(x)), the stream between the two sublayers
