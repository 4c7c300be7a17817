# 第 07 课（你自己的 GPT）的评分测试：失败的测试这样说。


## BPE

# en: 8f32208240a391ca
count-pairs-run = count_pairs([7, 7, 7, 7, 5, 7, 7])
# en: 8381bead297a94ed
count-pairs-short = count_pairs([3])：只有一个 id，没有相邻的一对
# en: 468d0ac2f104aed0
merge-pair = merge_pair({ $ids }, ({ $a }, { $b }), 300)
# en: ed2229798e12148e
train-corpus = 在三篇文档（英文、中文、英文）上 train_bpe，30 次合并，展平为 (第一个, 第二个, …)
# en: 7412979c8210d451
train-ties = train_bpe("dcba", 5)：每一对都只出现一次，所以每一轮都是最小的一对胜出
# en: 1fa6edf5776ee3e6
train-documents = train_bpe("ab<|endoftext|>ab<|endoftext|>b", 3)：只在每篇文档内部数相邻的对
# en: d334c24b6f52c8bb
encode-text = 用这 30 次合并 encode({ $text })
# en: 2c25e2908367943e
encode-rank = 用按此顺序学到的合并 { $merges } 来 encode("{ $text }")：先合并秩最低的
# en: 8afcd8b97c406aeb
decode-text = decode_bytes(encode({ $text })) 必须原样还原它的字节
# en: 91caa8c3f6bf78ee
decode-eot = decode_bytes([end_of_text()]) 必须是 "<|endoftext|>" 的字节

## RMSNorm

# en: 279ed32a19fd6a44
rms-forward = 对三行、每行五个特征、带增益的输入做 RmsNorm::forward
# en: b63060a83bfd5a0e
rms-scale = RmsNorm::forward(1000·x) 与 RmsNorm::forward(x) 对比：除以均方根会消掉缩放
# en: 9598f5f096894463
rms-d-x-hint = 设 h = dY ⊙ g，每行 r = 1/√(mean(x²) + ε)，则 dx = r·(h − x̂ ⊙ mean(h ⊙ x̂))
# en: 4c14aba0fb94e1c6
rms-d-gain-hint = dg = Σ_rows dY ⊙ x̂，其中 x̂ = x·r

## RoPE

# en: c7b38822c87cc43e
rope-forward = 对四行、每行八个特征、从位置 { $start } 开始做 apply_rope
# en: ddcb9bb92142fa6d
rope-relative = RoPE：q 在位置 { $m }、k 在位置 { $n } 时得分 { $a }，两者一起平移 { $shift } 后得分 { $b }；得分必须只取决于两者的距离
# en: 62f41e97325635b4
rope-backward = 位置 7 到 10 上的 rope_backward
# en: be70dc37a6974426
rope-odd = 对 (2, 5) 矩阵做 apply_rope 必须 panic：一对需要两个特征，所以 d_head 必须是偶数

## SwiGLU

# en: 7b4e2570ae4bdbb3
swiglu-forward = SwiGlu::forward(x).output，三行、每行四个特征，经过六个隐藏单元
# en: 34f999c22b2c37ce
silu-points = silu 在 −3、−0.5、0、0.5、3 和 40 处的值
# en: b734f0035e95a14b
count-pairs-total = count_pairs：你的计数加起来是 { $total }，但这串 id 有 { $windows } 个宽度为二的窗口，每个窗口是一对：每个位置都要数（窗口是重叠的）
# en: 2fb4291682774c17
merge-pair-left = merge_pair：在你的结果中，位置 { $at } 处仍有 ({ $a }, { $b }) 这一对；从左到右的扫描会合并每一处，不留下任何一处
# en: 72794f5085d5f3e0
merge-outside-documents = train_bpe：第 { $rank } 次合并造出了字节“{ $text }”，它不出现在任何一篇文档中：只在文本结束符之间的各篇文档内部数相邻对（先在 END_OF_TEXT 处切开文本）
# en: 955afd3308747a8e
merge-unknown-id = train_bpe：第 { $rank } 次合并用到了一个之前的合并都没有造出的 id
# en: 7430da0dbbfa5f16
swiglu-deduce-slope = SwiGlu::backward：dW_down 和 dW_up 都对，所以 dh = dY W_down 和 db = dh ⊙ SiLU(a) 都对；dW_gate = daᵀ x 错了，所以错在 da = dh ⊙ b ⊙ SiLU'(a)：检查 SiLU 的斜率，SiLU'(a) = σ(a)·(1 + a·(1 − σ(a)))
# en: ba967f1e3ca013a3
swiglu-deduce-dx = SwiGlu::backward：每个权重的梯度都对，所以 da 和 db 都对；只有 dx 错了：x 同时进入两个投影，dx = da W_gate + db W_up
# en: 35fe527c35fb482a
swiglu-backward-forward-first = SwiGlu::backward：你的 SwiGlu::forward 在这同一个输入上就错了（swiglu_forward_matches_numpy 也失败），而反向传播要用前向传播的 a、b 和 h：先改好前向传播，再回来看这些梯度

## The schedule, AdamW, sampling, bits per byte

# en: 606467010b22a0ad
cosine-rates = 从第 0 步到第 130 步的 cosine_rate(step, 10, 110, 3e-3, 2e-4)（第 k 项是第 k 步）
# en: feabc76b15d315c7
adamw-three-steps = 三步 AdamW 之后的参数（三个张量，展平；第二个不衰减）
# en: 9a886495a65ee3d8
softmax-t = softmax_with_temperature(logits, { $t })
# en: 36e5a79b7592a0b7
top-k = top_k_filter(probs, { $k })
# en: f21942b82c11130c
top-p = top_p_filter(probs, { $p })
# en: 744ee811863b77e2
sample-plain = 对从 0.01 到 0.99 的 25 个抽样值 u 做 sample_next(logits, T = 1, 不过滤, u)
# en: fbcc0e69d1789d31
sample-filtered = 对同样的 25 个 u 做 sample_next(logits, T = 1, top-k 5, top-p 0.9, u)
# en: 7965d5021042b70b
sample-greedy = 对三个 u 做贪心的 sample_next(logits, u)：两个最大 logit 中 id 较小的那个，与 u 无关
# en: 502d1a4af6b4d37b
baseline = 在语料的 80/20 划分上的 { $which }_bits_per_byte
# en: 21268dfbadb32323
bits-per-byte = bits_per_byte(10 奈特, 7 字节) = 10 / (7 ln 2)
# en: 877326feceaca8ec
temperature-sharpens = softmax_with_temperature：最大概率在 T = 0.7 时是 { $cold }，在 T = 1.5 时是 { $warm }；更低的温度必须让分布更尖锐（在 softmax 之前把 logits 除以 T：之后再除会在归一化中抵消）
# en: a7ce10b204932da6
top-k-count = top_k_filter(probs, { $k }) 保留了 { $kept } 个 token（非零概率）；它必须恰好保留概率最大的 { $k } 个
# en: 410cdba16b5229ad
filter-sum = { $call }：你的概率加起来是 { $sum }，不是 1：要把保留下来的概率除以它们的和
# en: da8b1cfd7c370be7
top-p-exact = top_p_filter([0.5, 0.25, 0.25], { $p })：累积概率恰好达到 p 的那个 token 要保留，它之后的都不保留
# en: 91ba6656ebe47f4a
baseline-sum-unigram = unigram_bits_per_byte：你的模型给 256 个字节值的概率（每个单字节文本的 2^(−bits)）加起来是 { $sum }，不是 1：加一平滑给 256 个值各加一次计数，所以分母是字节数加 256
# en: 563c91de16b32e36
baseline-sum-bigram = bigram_bits_per_byte：你的模型给字节 { $byte } 之后 256 个字节值的概率加起来是 { $sum }，不是 1：P(b | a) = (count(a, b) + 1) / (count(a, ·) + 256)，其中 count(a, ·) 是以 a 开头的相邻对的个数

## Causal self-attention with RoPE

# en: 9787f84e3f369ced
attention-forward = CausalSelfAttention::forward(x).output，五个宽度为 8 的 token，两个宽度为 4 的头
# en: 00b267245ce4828a
attention-causal = CausalSelfAttention：前三个 token 的输出，有后两个 token 时与没有时对比：一个 token 不能看到它之后的 token
# en: ba2849eb89c8ce56
attention-backward-forward-first = CausalSelfAttention::backward：你的 CausalSelfAttention::forward 在这同一个输入上就错了（self_attention_matches_numpy 也失败），而反向传播要用前向传播的查询、键、值和权重：先改好前向传播，再回来看这些梯度
# en: d8114e848845c393
block-forward = Block::forward(x).output，小模型的第 0 个块（宽度 8，两个头，d_ff 12），五个 token：h = x + Attention(RMSNorm_1(x))，y = h + SwiGLU(RMSNorm_2(h))
# en: e9b6e1679a9295a1
gpt-stream = Gpt::forward(tokens).stream[1]，第一个块之后的残差流，七个 token（token 3 出现两次）
# en: 2961146f977cfbc0
gpt-logits = Gpt::forward(tokens).logits，RMSNorm_f(x_L) Eᵀ，输出头与嵌入共享权重，七个 token
# en: 9775619ddffcef69
loss-value = next_token_loss(logits, targets).value，七行 −ln p(目标) 的平均值（PyTorch 的 F.cross_entropy）
# en: 75b3c51fac754dd4
loss-gradient = next_token_loss(logits, targets).d_logits，(softmax(logits) − onehot(targets)) / n
# en: 9859501f5e9f397d
attention-step = 从空缓存开始逐个 token 调用 CausalSelfAttention::step，五个宽度为 8 的 token，两个头：每个输出都必须等于整段序列一次算出的那一行
# en: f0b93894b2926025
generate-cached = 带键值缓存的 Gpt::generate 与同一模型不带缓存的生成对比，提示 [3, 7]，生成 10 个新 token，温度 { $temperature }，种子 { $seed }
# en: b1121687b59f4a76
gpt-logits-after-stream = （第一个块之后的残差流是对的，所以嵌入查表和第一个块都对：错误在它们之后，在第二个块读取的输入、最后的 RMSNorm 或输出头中。）
# en: 78b6e7798cada959
loss-gradient-rows = next_token_loss 的 d_logits 每一行加起来必须是 0（softmax 加起来是 1，one-hot 目标也是 1）；你的结果最多偏离 { $worst }：梯度是 (softmax − onehot) / n，用的是概率，不是它们的对数
# en: 9475d9c05a7b1717
attention-step-first = 对空缓存的第一个 token 调用 CausalSelfAttention::step：在位置 0 RoPE 不做任何旋转，这个 token 只关注它自己（它自己的键和值，在计算注意力之前压入缓存），所以它的输出是它的值经过 W_o，即 x W_vᵀ W_oᵀ
# en: 5807c5eebc36f022
generate-draws = 贪心生成是一致的，所以模型和它的缓存给出的 logits 是对的：token 在抽样时出现分歧。每个新 token 按顺序从 seeded_rng(seed) 抽一个均匀随机数，传给 sample_next
# en: d8e94212b5385918
generate-prompt = 第一个新 token 就不同了，而它只取决于提示之后的 logits：把提示逐个 token 送进同一组缓存，取它最后一个 token 之后的 logits
# en: d65fa18988e44821
generate-cache = 前几个新 token 一致，后面某个不同：把每个新 token 送回同一组缓存、放在下一个位置，才能得到再下一个 token 的 logits
# en: ac633cb24ea78bd4
block-forward-after-residual = （h = x + Attention(RMSNorm_1(x)) 是对的，所以块的前一半是对的：错误在后一半，y = h + SwiGLU(RMSNorm_2(h))。）
# en: da5f804cca33ddb5
block-residual = Block::forward(x).residual，小模型的第 0 个块：h = x + Attention(RMSNorm_1(x))，两个子层之间的残差流
