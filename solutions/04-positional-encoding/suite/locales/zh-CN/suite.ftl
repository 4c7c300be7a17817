# 第 04 课（位置编码）的评分测试：失败的测试这样说。
# 参数已经格式化好（数字、数组）；`what` 说出被检查的值。

## 多条消息共用的词

# en: 9dc97f9f81913a49
label-expected = 期望值
# en: e7bef963525cccd3
label-got = 实际值

## 频率与编码表

# en: c6e9bb053025f5f4
table-rows-d6 = sinusoidal_table(12, 6) 的第 0、1、2、3 和 11 行
# en: 4abb03b439403b94
table-rows-d8 = sinusoidal_table(101, 8) 的第 0..=5、37 和 100 行
# en: 7ffc484e658158fb
table-rows-d16 = sinusoidal_table(1001, 16) 的第 1、7、50、99 和 1000 行
# en: f2ab5d386e0ba5cd
row-zero-cause = 第 0 行是位置 0，这里每个角度都是 0：偶数列是 sin 0 = 0，奇数列是 cos 0 = 1
# en: 6f7c643821ae9186
row-zero-mismatch = sinusoidal_table(4, 8) 的第 0 行：期望 { $expected }，实际得到 { $got }。可能的原因：{ $cause }。
# en: e2b3ad471176bbe2
table-d2 = sinusoidal_table(4, 2)（第 p 行应为 [sin p, cos p]）
# en: 68da35725760806a
odd-not-rejected = { $what } 应当 panic：d_model = 7 时，最后一列没有与之配对的列。可能的原因：函数照样返回了一张表；请先用 assert! 检查 d_model 是偶数。
# en: aa68d5aa77f3eb43
odd-unclear = { $what } panic 时的消息是 "{ $text }"，没有说出哪里错了。可能的原因：panic 来自索引越界之类的错误，而不是来自一个检查；请用 assert! 断言 d_model 是偶数，并在消息中说明这一点（测试要求消息中含有英文单词 even）。
# en: c670daa3cc6152ae
rotation-broken = PE({ $shifted }) 的第 { $i } 对（第 { $even }、{ $odd } 列）应当是 PE({ $p }) 旋转 k·ω_{ $i } 角（k = { $k }）的结果：期望 { $expected }，实际得到 { $got }。可能的原因：每一对都必须是 (sin(pos·ω_i), cos(pos·ω_i))，两列用同一个 ω_i，角度与 pos 成正比；正弦与余弦交换、前后拼接的布局，或者余弦用了另一个频率，都会破坏这个旋转。
# en: 8ada791e90a82ce4
dot-not-distance-only = d_model = 16 时的 ⟨PE({ $p }), PE({ $shifted })⟩：期望 { $expected }（= Σ_i cos({ $k }·ω_i)，对每个 p 都相同），实际得到 { $got }。可能的原因：编码表的频率或布局不对；只有当每一对都是同一个角度 pos·ω_i 的 (sin, cos) 时，两个编码的点积才只取决于它们之间的距离。
# en: 61595b878ef86a4b
norm-not-half = d_model = { $d_model } 时的 ‖PE({ $p })‖²：期望 { $expected }（d_model/2：每一对贡献 sin² + cos² = 1），实际得到 { $got }。可能的原因：某一列没有和它的搭档配成一对（同一对中的正弦和余弦必须共用同一个角度）。

## 嵌入：查表，以及它的反向传播

# en: 91b1db6f732fa73c
forward-no-tokens = 没有词元时的 Embedding::forward
# en: 2f7500b40adef2e7
vocab-not-rejected = 词表只有 3 个词元（编号 0、1、2）时，Embedding::forward(&[0, { $token }]) 应当 panic。可能的原因：词表之外的词元编号被变成了别的东西（一个全零行，或截断到范围之内），而没有被拒绝；或者检查的边界放过了等于词表大小的编号（写成了 token <= vocab，而不是 token < vocab）。
# en: 7c1762a89f9e9fd5
vocab-unclear = Embedding::forward(&[0, { $token }]) panic 时的消息是 "{ $text }"，没有写出词元（{ $token }）和词表大小（3）。可能的原因：索引被直接用在了权重上（或者检查的边界放过了 { $token }）；请先用 assert!(token < vocab) 检查词元，并在消息中写出这两个数。
# en: 8236d87749e7f593
backward-shape = Embedding::backward（权重的梯度）
# en: e36911f2b2a2b2e1
backward-hint = d_weight[v] = √d_model ·（d_out 中词元为 v 的那些行之和）：要累加（+=），不要赋值，没有出现的词元对应的行保持为 0

## 加上位置编码

# en: cae12be0c916b4c7
short-not-rejected = 用 4 行的表从位置 3 开始为 3 行做 add_positional_encoding 时应当 panic：位置 3、4、5 需要 6 行。可能的原因：缺少的行被补上或被跳过了，而没有报告出来。
# en: 4482b38f68fa2032
short-unclear = 用 4 行的表从位置 3 开始为 3 行做 add_positional_encoding 时，panic 的消息是 "{ $text }"，没有说明需要多少行（6）。可能的原因：panic 来自越过末尾的切片，而不是来自一个带消息的检查（测试要求消息中含有数字 6，以及英文单词 row 或 table）。
# en: a6a4304bd41c27b9
narrow-not-rejected = 对形状为 (3, 4) 的 x 用 (6, 2) 的表做 add_positional_encoding 时应当 panic：位置编码必须和嵌入一样宽（d_model）。可能的原因：每一行只有一部分加上了位置编码。

## 嵌入与位置编码的大小之比

# en: df1bd354326818b1
ratio-formula = 比值 = sqrt(‖scale · weight[v]‖² 在词表上的平均) / sqrt(‖table[pos]‖² 在各位置上的平均)
# en: 5decdbfb5b35b9ca
ratio-not-sqrt-two = 元素为 ±1/√{ $d_model }（d_model = { $d_model }）时的 embedding_to_encoding_ratio：期望 √2 = { $expected }，实际得到 { $got }。可能的原因：{ $cause }。
# en: fbf6281350c5e53e
ratio-unit-entries = 元素为 ±1、d_model = 32 时的 embedding_to_encoding_ratio（缩放后的行范数为 32，位置编码的行范数为 4）
# en: 831643b1a707a14f
ratio-formula-short = 比值 = sqrt(mean_v ‖scale · weight[v]‖²) / sqrt(mean_pos ‖table[pos]‖²)
# en: 33512fe468164a72
ratio-mismatch = embedding_to_encoding_ratio(linspace(4, 6, −1, 1), sinusoidal_table(10, 6))：期望 { $expected }，实际得到 { $got }。可能的原因：{ $cause }。

## 注意力为什么需要位置：猫追狗与狗追猫

# en: 88672acafdd317e2
not-in-vocabulary = { $token } 不在测试的词表中
# en: 7165eed06202c1ef
not-permuted = { $what }：不加位置编码时，重排词元只应让这些行跟着重排，其他什么都不变，但它们最多相差 { $gap }。可能的原因：Embedding::forward 依赖于词元所在的位置；第 t 行必须是 scale() · weight[tokens[t]]，在每个位置上都一样（位置由 add_positional_encoding 加上）。
# en: 744f3066f4bde878
dog-without-positions = 不加位置编码时狗追猫的自注意力（应当是猫追狗的各行倒序排列）
# en: 90de861f75917ea3
cat-without-positions = 猫追狗的嵌入的自注意力（Q = K = V = X）
# en: f2932c1c8f45d426
with-positions = 加上位置编码后{ $sentence }的自注意力
# en: e0a800ea4e33f532
still-reversed = 加上位置编码后，狗追猫不应再是猫追狗的倒序：最大差值是 { $gap }，期望 1.447。可能的原因：没有加上位置编码。
# en: 907205d944a632f8
permuted-output = 不加位置编码时，置换后词元的输出（应当是 P · output）
# en: 322263a70f11d2e5
permuted-weights = 不加位置编码时，置换后词元的注意力权重（应当是 P W Pᵀ）
# en: 5f907def17046e4e
still-equivariant = 加上位置编码后，置换词元对输出的改变应当不只是把输出置换一下：与 P · output 的最大差值是 { $gap }，期望约为 2.045。可能的原因：embed_with_positions 没有把 table[t] 加到第 t 行上。
# en: 00d1601e010e7e4c
gradient-through-attention = 由注意力输出上的损失得到的嵌入梯度
# en: 62acf360cd49e814
gradient-through-attention-hint = 位置编码是常量，所以 x = √d_model · E[tokens] + PE 的梯度原样传到嵌入；接着 Embedding::backward 必须把每一行分散累加（scatter-add）到它的词元对应的行上（猫和追各出现两次），并乘以 √d_model
