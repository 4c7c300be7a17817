# 第 07 课（你自己的 GPT）的留出测试：失败的测试这样说。

# en: 2203a6fa453e7f63
train-run = train_bpe("aaaaaaaa", 5)，展平：(a, a) → 256，(256, 256) → 257，(257, 257) → 258，然后只剩一个 token，没有相邻对了
# en: 8115fbab136cdfaa
round-trip = 在别的文本上训练之后，decode_bytes(encode({ $text })) 的字节
# en: 317ab0cae83f5de5
rms-hint = 设 h = dY ⊙ g，每行 r = 1/√(mean(x²) + ε)，则 dx = r·(h − x̂ ⊙ mean(h ⊙ x̂))，dg = Σ_rows dY ⊙ x̂
# en: ec92de47a3221d67
rope-relative = 宽度 16 的 RoPE：距离相同的两个得分不相等（{ $a } 和 { $b }）；它们必须相等
# en: e154dffabd4b7ab9
rope-hint = 把 dY 的每一对转回 −(start + t)·ω_i
# en: da6093405f3f9178
swiglu-hint = dW_down = dYᵀh，dh = dY W_down，db = dh ⊙ SiLU(a)，da = dh ⊙ b ⊙ SiLU'(a)，dW_gate = daᵀx，dW_up = dbᵀx，dx = da W_gate + db W_up
# en: c11ec121eebc5435
cosine-peak = cosine_rate(6, 7, 45, 5e-4, 5e-5) 是 { $got }：预热的最后一步必须等于 max_lr
# en: d122808db03a6e59
cosine-rises = cosine_rate 在预热之后的第 { $step } 步上升了；它只能下降
# en: 4726b7aa99023a14
cosine-floor = cosine_rate({ $step }, 7, 45, 5e-4, 5e-5) 是 { $got }：从最后一步起它等于 min_lr
# en: e169ed77f900f6fc
adamw-decay = 梯度为零的三步 AdamW：衰减的张量每步缩小为 (1 − lr·λ) 倍，另一个不变
# en: 00b680fc6fc7a60f
uniform-8-bits = train 和 test 中每个字节都恰好出现一次时，{ $which }_bits_per_byte 是 { $got }：每个字节的概率是 1/256，所以应恰好为 8
# en: 9ecf038a3728de75
cold-sum = softmax_with_temperature(logits, 0.05) 加起来是 { $sum }，不是 1
# en: 7ba593d191979507
greedy-tie = 对 logits [0.3, −2, 5, 5] 做贪心的 sample_next：取相等最大值中 id 较小的
# en: 4cd740bf708de8c3
gpt-embedding-gradient = Gpt::backward：一个有三个宽度为 4 的头、一个块、九个 id 的模型，其嵌入的梯度，窗口中 token 4 出现两次
# en: a9bd2c7900f47f38
gpt-w-v-gradient = Gpt::backward：同一模型 W_v 的梯度
# en: 94dfb10b12936033
loss-large = next_token_loss([[1000, 1000, −5]], [1]).value：两个相等的最大 logit，所以是 ln 2（取指数之前先减去每行最大的 logit）
# en: 00bff84622b4a7c3
loss-gradient-sum = next_token_loss 的梯度在一行上加起来是 { $sum }；softmax − onehot 加起来是 0
