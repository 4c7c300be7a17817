# The graded tests of lesson 07 (A GPT of your own): what a failed test says.

## BPE

count-pairs-run = count_pairs([7, 7, 7, 7, 5, 7, 7]) as (first, second, count), smallest pair first
count-pairs-short = count_pairs([3]): one id has no pair
merge-pair = merge_pair({ $ids }, ({ $a }, { $b }), 300)
train-corpus = train_bpe of three documents (English, Chinese, English), 30 merges, flat (first, second, …)
train-ties = train_bpe("dcba", 5): every pair occurs once, so the smallest pair wins each round
train-documents = train_bpe("ab<|endoftext|>ab<|endoftext|>b", 3): pairs are counted inside each document only
encode-text = encode({ $text }) with the 30 merges
encode-rank = encode("abcab") with the merges (b, c), (a, b), (c, a): the lowest rank first
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
