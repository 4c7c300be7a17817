# 第 07 课（你自己的 GPT）的评分测试：失败的测试这样说。


## BPE

# en: 12cb4b560d0aa6c3
count-pairs-run = count_pairs([7, 7, 7, 7, 5, 7, 7]) 写成 (第一个, 第二个, 次数)，最小的一对在前
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
# en: 6b6f1917e1b5752f
encode-rank = 用合并 (b, c)、(a, b)、(c, a) 来 encode("abcab")：先合并秩最低的
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
