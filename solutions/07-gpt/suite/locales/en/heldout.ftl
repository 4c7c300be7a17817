# The held-out tests of lesson 07 (A GPT of your own): what a failed test says.

train-run = train_bpe("aaaaaaaa", 5), flat: (a, a) → 256, (256, 256) → 257, (257, 257) → 258, then one token and no pair left
round-trip = decode_bytes(encode({ $text })) as bytes, after training on other text
rms-hint = with h = dY ⊙ g and r = 1/√(mean(x²) + ε) per row, dx = r·(h − x̂ ⊙ mean(h ⊙ x̂)) and dg = Σ_rows dY ⊙ x̂
rope-relative = RoPE at width 16: two scores at the same distance differ ({ $a } and { $b }); they must be equal
rope-hint = turn each pair of dY back by −(start + t)·ω_i
swiglu-hint = dW_down = dYᵀh, dh = dY W_down, db = dh ⊙ SiLU(a), da = dh ⊙ b ⊙ SiLU'(a), dW_gate = daᵀx, dW_up = dbᵀx, dx = da W_gate + db W_up
cosine-peak = cosine_rate(6, 7, 45, 5e-4, 5e-5) is { $got }: the warm-up's last step must be at max_lr
cosine-rises = cosine_rate rises at step { $step } after the warm-up; it must only fall
cosine-floor = cosine_rate({ $step }, 7, 45, 5e-4, 5e-5) is { $got }: from the last step on it is min_lr
adamw-decay = three AdamW steps with zero gradients: the decaying tensor shrinks by (1 − lr·λ) each step, the other stays
uniform-8-bits = { $which }_bits_per_byte with every byte once in train and in test is { $got }: each byte has probability 1/256, so exactly 8
cold-sum = softmax_with_temperature(logits, 0.05) adds up to { $sum }, not 1
greedy-tie = greedy sample_next on logits [0.3, −2, 5, 5]: the lower id of the tied maxima
gpt-embedding-gradient = Gpt::backward: the gradient of the embedding of a model with three heads of width 4, one block, nine ids, on a window where token 4 occurs twice
gpt-w-v-gradient = Gpt::backward: the gradient of W_v of the same model
loss-large = next_token_loss([[1000, 1000, −5]], [1]).value: two equal largest logits, so ln 2 (subtract each row's largest logit before exponentiating)
loss-gradient-sum = the gradient of next_token_loss adds up to { $sum } over a row; softmax − onehot adds up to 0
