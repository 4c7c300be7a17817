# 测试工具（harness）的消息：无论在哪一课，每个失败的检查都这样说。
# 参数已经格式化好（数字、形状、矩阵）；`what` 用调用者的语言说出被检查的值。

## 多条消息共用的词

# en: 9dc97f9f81913a49
label-expected = 期望值
# en: e7bef963525cccd3
label-got = 实际值

## 浮点数与形状（check.rs）

# en: 245629e9ad228c5b
close-mismatch = { $what }：期望 { $expected }，实际得到 { $got }（容差 { $abs } + { $rel } × |期望值|）。
# en: f2d54f8b32e68c0f
shape-likely-cause = 某个矩阵乘积、求和或转置用错了轴：照着 /// 契约写下每个操作数的（行，列），一步步跟下去
# en: cbcd651983dd1a55
shape-rows = { $got } 行而不是 { $expected } 行
# en: 26bf0111080c0fb3
shape-cols = { $got } 列而不是 { $expected } 列
# en: 625f9c11a51fc9e4
shape-rows-and-cols = { $rows }，且 { $cols }
# en: 7db70edff1a6c675
shape-transposed = （恰好是正确形状的转置）
# en: 60d938c93a0af8c8
shape-mismatch =
    { $what }：期望形状 { $expected }（行，列），实际得到 { $got }：{ $differs }{ $transposed }。
    可能的原因：{ $hint }
# en: 5b380aa4f080b993
not-finite =
    { $what }：元素 [{ $row }, { $col }] 是 { $value }；每个元素都必须是有限数。
    可能的原因：{ $hint }
# en: 08bf8e68b6f0925c
rows-sum-to-one =
    { $what }：第 { $row } 行的和是 { $sum }，但 softmax 的每一行之和都是 1。
    可能的原因：{ $hint }
# en: 4a6877248b05967a
matrix-entry = { $what }：元素 [{ $row }, { $col }] 应为 { $expected }，实际得到 { $got }（|差| { $diff }，容差 { $abs } + { $rel } × |期望值|）。
# en: c1f36cd1299e93e0
ids-differ = { $what }：两串 id 在位置 { $at }（从 0 数起）第一次不同：应为 { $expected }，实际得到 { $got }。
# en: bf2d39dace7254f2
ids-length = { $what }：应有 { $expected } 个 id，实际得到 { $got } 个；较短的一串正是较长一串的开头。
# en: 841023e2779f439d
ids-reordered = 你的 id 与期望的完全相同、每个出现的次数也相同，只是顺序不同。
# en: 878733eb4912d99d
ids-missing = 其余部分相同，但从位置 { $at } 起，你的结果少了 { $missing }。
# en: 2ad66a1762b7e3dc
ids-extra = 其余部分相同，但从位置 { $at } 起，你的结果多出了 { $extra }。
# en: d477f965da348fe3
ids-stretch = 其余部分相同：从位置 { $at } 起，你的结果是 { $yours }，而期望的是 { $expected }。
# en: 0b166f9b2e21c479
ids-diverge = 前 { $at } 个 id 相同；从那里到结尾，你的结果是 { $yours }，而期望的是 { $expected }。
# en: 5d270fa792949504
pair-count-differs = { $what }：字节对 ({ $a }, { $b }) 的计数应为 { $expected }，实际得到 { $got }。
# en: 1e4c2f3e1329cd0f
pair-count-missing = { $what }：你的计数里缺少字节对 ({ $a }, { $b })；它的计数应为 { $expected }。
# en: b200f53f3233f0fc
pair-count-extra = { $what }：你的计数给了字节对 ({ $a }, { $b }) 计数 { $got }，但它并没有出现。
# en: 6eb472a3b9fcebbb
pair-count-repeated = { $what }：各对的计数相同，但你列出了 { $got } 个字节对而不是 { $expected } 个：有一对被列了不止一次。
# en: f4268ebea5dd54b7
known-mistake = 你的结果与一个已知错误的结果相同。可能的原因：{ $cause }。
# en: bc9b8b12c09effbf
known-mistakes = 你的结果与 { $count } 个已知错误的结果相同，这个输入无法区分它们。可能的原因：{ $causes }。
# en: c8abe8ecfc0fb593
known-mistakes-or = { "；或者 " }
# en: 2de57e1c6353e37a
mask-shape =
    { $what }：期望形状 { $expected }（查询，键），实际得到 { $got }。
    可能的原因：{ $hint }
# en: 3d7aec9bd357e991
mask-entry =
    { $what }：元素 [{ $row }, { $col }] 应为 { $expected }，实际得到 { $got }。
    可能的原因：{ $hint }

## 梯度（gradient.rs）

# en: 5a767158965985a8
likely-cause = 可能的原因：{ $hint }
# en: 849852db5746042d
gradient-mismatch = { $what }：你的梯度与数值梯度（中心差分，h = { $step }）的相对误差为 { $error }；正确的梯度与它的相对误差低于 { $max }。
# en: cc4707032ddf0618
gradient-forward-first = 如果这个函数前向传播的测试也失败了，请先修正前向传播：数值梯度正是由它计算出来的。
# gradient-forward-first 中的一个短语：提示里已经有它时，这句话就不再重复。两处要保持一致。
# en: 65a5ee1eae5f23e5
gradient-forward-first-phrase = 先修正前向传播
# en: 1885eaafd4b9d4e7
label-numerical = 数值梯度
# en: f2df7e99f0dca4d3
label-yours = 你的梯度

## 记录文件（tape.rs）：学习者的进程提前结束、或记录文件与测试对不上时，回放给出的消息，
## 跟在标记 [tape ended] 或 [tape mismatch] 之后

# en: 615d4d59eb4bf6e9
tape-open-failed = 无法打开记录文件 { $path }：{ $error }
# en: 74cd0c2a1990eb6d
tape-write-failed = 无法写入记录文件：{ $error }
# en: 6fdde90cc1c06e39
tape-ended = 学习者的进程没有为 `{ $label }` 记录任何值：它在这次调用返回之前就结束了（或被终止了）
# en: eb6e65ed40f13d14
tape-label-mismatch = 测试要的是 `{ $label }`，但记录文件在这里存的是 `{ $recorded }`
# en: d1f02f754c75d374
tape-value-unreadable = `{ $label }` 的值无法读取：{ $why }
# en: 70d65bbaa0b4b245
tape-value-extra-tokens = `{ $label }` 的值带有多余的记号
# en: 5f78f70c28d7d032
tape-expected-value = `{ $label }` 应当是一个值，记录文件中却是一个对象
# en: f5b7b3e80195899a
tape-expected-object = `{ $label }` 应当是一个对象，记录文件中却是一个值
# en: d928497727e3c77d
tape-object-outside-observe = 裁判在 `observe` 之外使用了学习者代码构建的对象：这是评分测试套件的缺陷（请把这次使用放进 `observe`）
# en: 6bab17e670ed17b0
tape-panic-unreadable = `{ $label }` 的 panic 消息无法读取：{ $why }
# en: 1a8924aac0e1f351
panic-not-text = 代码 panic 时给出的值不是文本

# 记录文件中的值为什么无法读取（即上面的 { $why }）。
# en: 7d162f4fe4d4630c
tape-entry-ends-early = 条目提前结束
# en: 19c035c39db61dbf
tape-expected-token = 应为 `{ $tag }` 记号，实际是 `{ $found }`
# en: 5d1c141af6741308
tape-not-a-number = `{ $text }` 在这里不是有效的数字
# en: 0ad5f8dd85723f5b
tape-not-float-bits = `{ $text }` 不是浮点数的位模式
# en: 625d9c39c571cc94
tape-not-a-boolean = `{ $text }` 不是布尔值
# en: ed4b457e8e1a9994
tape-not-utf8 = 文本不是 UTF-8
# en: 177ef4ef997647fe
tape-malformed-hexadecimal = 十六进制数格式错误
# en: 58cb07e33aa40dd4
tape-not-an-option = `{ $text }` 不是 Option 值
# en: 60b8c8d2499881fe
tape-malformed-float = 浮点数格式错误
# en: 759169e41050b6f6
tape-malformed-boolean = 布尔值格式错误
# en: 04e9bebc5e3bcd36
tape-malformed-integer = 整数格式错误
# en: 107ad40d24728178
tape-array-without-shape = 数组缺少形状
# en: cb46725534769033
tape-array-dimensions = 数组有 { $got } 个维度，而期望的是 { $expected } 个
# en: f6706cd7b1a34736
tape-array-shape-mismatch = 数组的形状与其元素个数不符
# en: f26e3442fb9ec997
tape-malformed-array-elements = 数组元素格式错误

## 判定结果（report.rs）

# en: ea8e00cd8bc0fb44
verdict-write-failed = 无法写入评分判定结果：{ $error }

# mistakes.rs 中的可能原因，每课一节：由该课的可见测试和评分测试套件共用。

## 第 02 课，注意力：softmax、注意力、Linear（mistakes.rs，attention）

# en: ff39e898929c70c8
wrong-axis = softmax 对每一列做了归一化，而不是对每一行（行是查询：每个查询在所有键上的权重之和必须为 1）
# en: 025fb43c6b52fbcc
no-max-subtraction = exp(1000) 溢出为无穷大，而 ∞/∞ 是 NaN：在取指数之前，先从每一行的分数中减去该行的最大值（权重不会因此改变，因为 softmax 只看分数之间的差）
# en: 6ba795d0a6965ada
mask-after-softmax = 被屏蔽的权重是在 softmax 之后才置为 0 的，所以各行之和不再为 1：应在 softmax 之前把被屏蔽的分数替换为 −∞
# en: 4025413d835fdf80
scores-not-scaled = 分数没有除以 √d_k
# en: f4967bb821b65de4
scores-divided-by-d-k = 分数除以的是 d_k，而不是 √d_k
# en: 4add054429a66b25
softmax-jacobian-diagonal-only = 只用了每一行雅可比矩阵的对角线 w(1 − w)：一行中的每个权重都依赖于该行的每个分数，所以雅可比矩阵是 diag(w) − w wᵀ，且 dS = W ⊙ (dW − rowsum(W ⊙ dW))
# en: 6e67820f68b67db0
softmax-rowsum-term-missing = 漏掉了 rowsum(W ⊙ dW) 这一项：dS = W ⊙ (dW − rowsum(W ⊙ dW))，每行求一个和，再广播回该行
# en: 8ffd8d7ca4338f02
bias-not-added = 没有加上偏置
# en: b26891e34a5b765f
bias-on-one-row = 偏置只加到了一行上；它属于每一行
# en: 567ad2b34ffcc0bb
weight-not-transposed = 输出算成了 x W + b，这相当于把权重当作 (d_in, d_out)；它其实是 (d_out, d_in)，与 PyTorch 一样每个输出特征占一行，所以 y = x Wᵀ + b（若权重不是方阵，x W 会出现形状错误）

## 第 01 课，RNN（mistakes.rs，rnn）

# en: 4697293cec1fa9e4
w-hh-not-transposed = W_hh 被原样使用（h W_hh），而没有转置（h W_hhᵀ）。本课程把每个权重存为 (d_out, d_in)，每个隐藏单元占一行，与 PyTorch 的 nn.RNN 相同；方阵 W_hh 两种写法都能运行，所以不会有别的地方提醒你
# en: 91e09b919dc2bc4a
last-upstream-only = 只用了最后一个状态的上游梯度；每个状态在 d_states 中都有自己的一行（损失可以读取其中任何一个），到达状态 t 的梯度是 d_states[t] 加上第 t + 1 步传回的梯度
# en: df66129622000b69
carry-dropped = 每个状态的 d_states 行取代了从后面各步传回的梯度；应当把它加上去：到达状态 t 的梯度是 d_states[t] 加上第 t + 1 步传回的梯度
# en: 15cf4493a330f734
own-output-as-previous = 第 t 步拿到的“前一个状态”是它自己的输出 states[t]，所以 dW_hh = dzᵀ h 用错了 h：第 t 步的前一个状态在 t = 0 时是 h0，之后是 states[t − 1]
# en: 46bfd12ecd4c9d37
no-tanh = 没有应用 tanh：这是预激活值 z，而状态是 tanh(z)
# en: dc166a30ab09c281
previous-state-left-out = 漏掉了前一个状态 h；每一步都要把新词元与它携带的状态混合起来
# en: 1f9c37426a5ae85c
tanh-prime-at-z = tanh' 是在预激活值 z 处求的（1 − z²）；它应是 1 − tanh(z)² = 1 − h'²，取自这一步的输出 h_next
# en: d20e2dc688be154f
tanh-prime-from-previous-state = tanh' 取自前一个状态（1 − h²）；它应是 1 − h'²，取自这一步的输出 h_next
# en: 66c833ece58bc561
tanh-skipped-in-backward = 反向传播时跳过了 tanh：先把上游梯度乘以 tanh' = 1 − h'²
# en: 9a741fcc4b55a67c
tanh-prime-unsquared = tanh' 被算成了 1 − h'，而不是 1 − h'²（平方）：tanh'(z) = 1 − tanh(z)²，而 tanh(z) 就是这一步的输出 h'
# en: e1b7cf9a2a21e208
d-h-through-w-hh-transposed = dh = dz W_hhᵀ：前向传播把 h 乘以 W_hhᵀ，所以反向传播要把 dz 乘以 W_hh（如同 Linear 的 dx = dY W）
# en: 99e8c680fe4c5997
d-w-hh-transposed = dW_hh = hᵀ dz 是梯度的转置：W_hh 是 (d_out, d_in)，所以 dW_hh = dzᵀ h
# en: bb10e0f69ef0a7c4
d-w-hh-from-new-state = dW_hh 是用新状态 h' 算出来的，而不是用前一个状态 h，W_hh 乘的是 h
# en: d284f9d81f1c83d3
every-step-from-h0 = 每一步都从 h0 开始：状态必须传递下去，每一步都从上一步返回的状态开始
# en: aef996d44e3f1a5d
states-shifted = 状态错开了一位：第 t 行是读完词元 t 之后的状态，h0 不在这些行之中
# en: 18f27a547fe78b43
context-first-state = 上下文取的是第一个状态；它应是最后一个状态，即读完整个句子之后的状态
# en: a31d2fc29c03e901
context-mean-of-states = 上下文取的是各状态的平均值；seq2seq 编码器只交出它的最后一个状态
# en: 14eae800b7699ad9
origin-jacobian-transposed = 梯度是经过 W_hhᵀ 而不是 W_hh 传回去的（dh = dz W_hh），或者前向传播用了 h W_hh 而不是 h W_hhᵀ
# en: 9a7db8f1c63504e3
bptt-overwritten = 梯度在每一步都被覆盖了，所以只剩下第 0 步的贡献；每一步都使用同一组权重，所以要把每一步的贡献加起来（+=）
# en: bb723d5d5fe13247
bptt-last-step-only = 只有最后一步的贡献；每一步都使用同一组权重，所以要把每一步的贡献都加起来（+=）

## 第 03 课，多头注意力（mistakes.rs，multi_head_attention）

# en: a3c5e5e64fff3ea2
heads-interleaved = 各个头取的是交错的列（头 i 取第 i、i + n_heads、i + 2·n_heads……列），这是重塑为 (n, d_k, n_heads) 的结果；头 i 拥有连续的列块 i·d_k .. (i+1)·d_k，这是重塑为 (n, n_heads, d_k) 的结果，论文和 PyTorch 都是如此
# en: 7a21b880f9c4f9b1
heads-plain-reshape = 各个头是把行主序排列的数直接重塑切出来的（把 (n, d_model) 矩阵读成 (n_heads, n, d_k)），这会把好几个词元的特征放进一个头的同一行；头 i 是每一行的第 i·d_k .. (i+1)·d_k 列，即列的一个切片，各行（各词元）保持不变
# en: 26eb5c7bb6fc20a5
mask-not-passed-to-heads = 掩码没有传给各个头的注意力：每个头的 scaled_dot_product_attention 都必须拿到掩码，这样被屏蔽的键在每个头中的权重都是 0
# en: 144fe28edae9523a
kv-from-query = 键和值是从查询输入投影得到的：K 和 V 来自 key_value_input（在交叉注意力中是编码器的输出），Q 来自 query_input
# en: b17f939f5cfe27d3
values-projected-by-w-k = 值是用 W_k 投影的（V = X W_k，即键）：Q、K、V 各有自己的投影，V = X W_v
# en: bac292b2352e2850
queries-projected-by-w-k = 查询是用 W_k 投影的：Q、K、V 各有自己的投影，Q = X_query W_q
# en: 1328166cd2ac023d
one-weight-matrix-per-head = 把 Q、K、V 各拆成 n_heads 个头，每个头 d_k 列，并对每个头运行一次第 02 课的注意力；forward 为每个头返回一个权重矩阵
# en: 5c543828d41ce7a0
not-through-w-o = 各个头的上游梯度没有经过 W_o 传回：头 i 的 d_output 是 dConcat = d_output W_o（W_o 反向传播的 d_x）中属于它的切片，而不是 d_output 本身的切片
# en: 490f701573cc0a51
scaled-by-d-model = 分数除以的是 √d_model 而不是 √d_k：每个头的查询和键宽度为 d_k = d_model / n_heads，而第 02 课的注意力已经会除以其宽度的平方根
# en: 68b68ffda85e8ed6
heads-merged-in-reverse = 各个头是按相反的顺序合并的（最后一个头在最前）：头 i 应回到第 i·d_k .. (i+1)·d_k 列，头 0 在最左边，也就是 split_heads 取出它的位置
# en: e144b29adae2b823
no-output-projection = 没有应用输出投影 W_o：输出是把各个头的输出并排放在一起，再经过 W_o（concat W_oᵀ + b_o）
# en: ef56a8fec2dde2d4
output-projection-not-transposed = 输出投影的权重没有转置（concat W_o + b_o）；Linear 层计算的是 x Wᵀ + b
# en: db4bd87c146cca8f
one-wide-head = 注意力在完整的 d_model 宽的 Q、K、V 上只运行了一次（只有一个头），而不是在每个 d_k 宽的切片上各运行一次
# en: a0ce18e6ae328032
mask-inverted = 掩码被取反了：在本课程中 `true` 表示“可以关注”（PyTorch 的 key_padding_mask 恰好相反，True 表示忽略）
# en: d85d7369bc26be4d
d-query-input-not-through-w-q = d_query_input 就是 dQ 本身，没有经过 W_q 传回：前向传播计算的是 Q = query_input W_qᵀ + b_q，所以反向传播得到 d_query_input = dQ W_q（W_q 反向传播的 d_x）
# en: 44f61d9459e867b0
value-path-alone = 你的 d_key_value_input 只有值的路径（dV W_v）：键/值输入同时也送入了 W_k，所以要加上 dK W_k
# en: 77c32fa0214a83d1
key-path-alone = 你的 d_key_value_input 只有键的路径（dK W_k）：键/值输入同时也送入了 W_v，所以要加上 dV W_v
# en: c0a06792a26f5848
count-no-biases = 没有计入偏置（4 个偏置，各有 d_model 个参数）
# en: 3bcdef25260e1e93
count-no-w-o = 没有计入输出投影 W_o
# en: f63f7bd7e92f2a54
count-one-head = 权重只按一个头计算了；无论有多少个头，W_q、W_k、W_v 和 W_o 都是 d_model × d_model
# en: 489612747ab007ca
count-every-head-full = 把每个头都当成拥有自己的 d_model × d_model 投影来计数（参数量乘了 n_heads）：各个头共用这四个投影，每个头只用其输出中宽为 d_k 的一段，所以参数量与 n_heads 无关
# en: cd5900d294026902
count-every-parameter = 把四个投影的每个权重和偏置都计入（每个投影为 weight.len() + bias.len()）

## 第 04 课，位置编码（mistakes.rs，positional_encoding）

# en: e2c3676261701fcd
sin-cos-swapped = 正弦和余弦互换了：第 2i 列应为 sin(pos·ω_i)，第 2i + 1 列应为 cos(pos·ω_i)（你的表在偶数列放的是余弦）
# en: 71bf296aafffa039
table-concatenated = 表是拼接式的，[sin(pos·ω_0), …, sin(pos·ω_{"{"}d/2−1{"}"}), cos(pos·ω_0), …]（tensor2tensor 的布局），而不是论文中的交错式：第 2i 列是正弦，第 2i + 1 列是同一频率的余弦
# en: b918ea6094903b1f
integer-division = 指数 2i/d_model 是用整数运算算的（对每个 i < d_model/2，2 * i / d_model 都是 0，所以每个频率都是 1）：先转换为 Float 再做除法
# en: 5da61d607c8390b6
exponent-i = 指数是 i/d_model 而不是 2i/d_model：频率下降得太慢
# en: b56e14db01145fd3
exponent-column = 指数对一对中的两列都用了列下标 j（j/d_model）；第 2i + 1 列的余弦必须与第 2i 列的正弦使用同一个频率，指数为 2i/d_model
# en: a30bf4de94449d83
exponent-two-columns = 指数是 2j/d_model，其中 j 是列下标；论文中的 i 是列对的下标（j / 2 向下取整），所以指数是 2·(j/2)/d_model
# en: a7f36ad6d9d2707f
positive-exponent = 位置乘以了 10000^(2i/d_model)，而不是除以它：ω_i = 10000^(−2i/d_model) ≤ 1
# en: 6b31bd733d40142a
positions-from-one = 位置是从 1 开始数的；表的第一行是位置 0（sin 0 = 0，cos 0 = 1）
# en: 1b245d32f136cb2c
rows-not-scaled = 各行没有乘以 scale() = √d_model
# en: 3937c537513bdd73
rows-times-d-model = 各行乘以的是 d_model 而不是 √d_model
# en: 16c9fb844229a727
rows-divided-by-scale = 各行除以了 √d_model，而不是乘以它
# en: 95e433ffb537ef64
repeated-token-overwritten = 重复词元的梯度被覆盖了（`=`），而不是累加（`+=`）：只有它最后一次出现起作用。一个用了三次的词元要收集全部三次使用的梯度
# en: accc5c2275cdc25f
repeated-token-first-only = 重复的词元只计入了第一次出现；每一次出现都要加上它在 d_out 中的那一行
# en: 07cb3da137408639
embedding-gradient-not-scaled = 梯度没有乘以 scale() = √d_model；forward 把查到的每一行都乘以了它，所以反向传播也必须乘
# en: f67f12616fb06858
first-position-everywhere = 每一行得到的都是第一个位置的编码；第 t 行需要 table[start + t]
# en: 2fd47c0115da00fb
positions-shifted = 位置错开了一位（table[start + t + 1]）；第一行是位置 start
# en: 5cf39648905b6fef
start-ignored = 忽略了 `start`：第 t 行必须得到 table[start + t]，当解码器在位置 start 添加一个词元时这一点很重要
# en: b318dd2bc85bee97
encoding-scaled-too = 位置编码也被缩放了（√d_model · (E + PE)）；缩放只属于嵌入
# en: 30f4ae8668c82c06
embeddings-not-scaled = 嵌入没有乘以 √d_model
# en: 4ddfdc3899131026
ratio-rows-not-scaled = 嵌入的行没有乘以 scale() = √d_model：要按模型看到的样子来比较各行
# en: 71c884efc62f557d
ratio-mean-of-norms = 用了各行范数的平均值；这个比值用的是各行范数的均方根 sqrt(mean ‖row‖²)
# en: 33b0235f14fe0a5a
ratio-total-norms = 比较的是总的（Frobenius）范数，却没有除以行数；当词表和位置编码表的大小不同时，要比较平均的一行

## 第 05 课，编码器层和解码器层（mistakes.rs，encoder_layer）

# en: fbf13bcbb2304aba
gamma-beta-swapped = γ 和 β 互换了：γ（gamma）乘以 x̂，β（beta）是加上去的，y = γ ⊙ x̂ + β
# en: 001bf55ff1598d0a
gelu-tanh = 激活函数是 GELU（tanh 近似，BERT 和 GPT-2 所用）；论文和本课程的 FFN 用的是 ReLU：max(0, x W_1ᵀ + b_1)
# en: 10ff00bb4081d65d
gelu-erf = 激活函数是 GELU（x·Φ(x)）；论文和本课程的 FFN 用的是 ReLU：max(0, x W_1ᵀ + b_1)
# en: abd6e299b88bd4bf
post-not-pre = 这是 pre-LN 层的输出，而设置是 NormPosition::Post：post-LN 在残差相加之后做归一化，h = norm_1(x + SA(x))，out = norm_2(h + FFN(h))
# en: e1a8af46c96e944e
pre-not-post = 这是 post-LN 层的输出，而设置是 NormPosition::Pre：pre-LN 只对子层的输入做归一化，h = x + SA(norm_1(x))，out = h + FFN(norm_2(h))
# en: 2d3dca0f61e51bc4
no-residual = 缺少残差连接：每个块都要把它的输入加到子层的输出上（x + SA(..)，h + FFN(..)）
# en: 72a00d083530350f
no-relu = FFN 中没有 ReLU（检查 FeedForward::forward）
# en: 803e277f8d7be533
residual-from-norm = 残差连接加上的是归一化后的输入：pre-LN 是 x + SA(norm_1(x))，残差路径上是原始的 x，而不是 norm_1(x) + SA(norm_1(x))
# en: 034bbbb8b4bac440
cross-queries-from-input = 交叉注意力的查询来自该层的输入 x；它们应来自第一个块的输出：post-LN 中为 cross_attention.forward(h_1, memory, memory_mask)，pre-LN 中为 cross_attention.forward(norm_2(h_1), memory, memory_mask)
# en: 8089fe339334ed22
self-mask-ignored = 自注意力忽略了 self_mask，所以每个目标位置都看到了整个目标序列，包括未来：把 self_mask 传给 self_attention.forward
# en: 073944283d04943e
memory-mask-ignored = 交叉注意力忽略了 memory_mask，所以填充的源位置也得到了注意力：把 memory_mask 传给 cross_attention.forward
# en: 6e0e877bbc2b1372
cross-over-self = 交叉注意力的键和值来自解码器自己的残差流；它们应来自编码器的输出：cross_attention.forward(query_input, memory, memory_mask)
# en: 53140009689f9f02
unbiased-std-plus-eps = 标准差用的是无偏估计（÷(d_model − 1)，即 torch.std 的算法），并把 ε 加在了标准差上，就像 Annotated Transformer 的 LayerNorm 那样；nn.LayerNorm（以及本课程）把方差除以 d_model，并把 ε 放在平方根里面：(x − μ) / √(σ² + ε)
# en: d9a335e54b6e6b43
annotated-layer-norm = 这是 Annotated Transformer 的 LayerNorm（无偏标准差，ε = 1e-6 加在标准差上）；nn.LayerNorm 把方差除以 d_model，并把 ε 放在平方根里面：(x − μ) / √(σ² + ε)
# en: 83977efe70d3a71f
unbiased-variance = 方差用的是无偏估计（÷(d_model − 1)）；层归一化用的是有偏方差，即偏差平方的平均值（÷ d_model）
# en: 2a1a142be9ec8674
eps-on-std = ε 加在了标准差上，(x − μ) / (σ + ε)；它应放在平方根里面，(x − μ) / √(σ² + ε)
# en: 921be9e66ecb3b6d
eps-left-out = 漏掉了 ε：(x − μ) / √(σ² + ε)，其中 ε = self.eps
# en: 638a778a74ee59a1
columns-normalised = 对每一列在各行上做了归一化（BatchNorm 的轴），而不是对每一行在其特征上做归一化：层归一化为每一行（每个词元）计算一个均值和一个方差
# en: fae1b80d10a98252
beta-not-added = 没有加上 β：y = γ ⊙ x̂ + β
# en: 035ad86d40751dd0
gamma-not-applied = 没有乘上 γ：y = γ ⊙ x̂ + β
# en: 0276302978309526
affine-before-normalising = γ 和 β 在归一化之前就应用了，随后的归一化又把它们的作用抵消了；它们应在归一化之后：y = γ ⊙ x̂ + β
# en: 6e3b5f767d95762f
mean-variance-as-constants = μ 和 σ² 被当作常数（dx = g/σ）：两者都依赖于该行的每个元素，这会带来 − mean(g) 和 − x̂ ⊙ mean(g ⊙ x̂) 两项
# en: ca1ef5303934bb39
variance-term-missing = 缺少方差那一项：dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))
# en: ae21f7ec9f0466b1
mean-term-missing = 缺少均值那一项：dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))
# en: e4d67bc76a1288e5
gamma-missing-in-backward = 缺少 γ：到达 x̂ 的梯度是 g = dY ⊙ γ
# en: 0d79e079978035fd
d-gamma-with-x = dγ 累加的是 dY ⊙ x，而不是 dY ⊙ x̂（归一化后的输入）
# en: 77e892e0ec6b0b49
hidden-pre-activation = 缺少 ReLU，或者 `hidden` 存的是预激活值；它应是 ReLU 的输出 max(0, x W_1ᵀ + b_1)，这也是 w_2 的输入
# en: e6a9a033c63a07df
ffn-no-relu = 缺少 ReLU：FFN(x) = max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2
# en: 8f455b8a6626c44f
relu-on-output = 输出上也用了 ReLU；只有隐藏层有 ReLU，所以 FFN 的输出可以是负数
# en: 1d152c2c7a32e970
relu-gradient-missing = 缺少 ReLU 的梯度：在单元激活处（hidden > 0）它让梯度通过，在未激活处把梯度挡住（置为 0）
# 残差块的错误：{ $name } 是下面 block-… 的名称之一，{ $input }、{ $norm } 和 { $f } 是代码
# （x、norm_1、SA）。
# en: 704fc7c6c43435ba
residual-post-missing = { $name }周围缺少残差连接：这个块应是 { $norm }({ $input } + { $f }({ $input }))，而不是 { $norm }({ $f }({ $input }))
# en: 5d7189947b132799
residual-pre-missing = { $name }周围缺少残差连接：这个块应是 { $input } + { $f }({ $norm }({ $input }))，而不是 { $f }({ $norm }({ $input }))
# en: 9aeb8180c3fdd66d
residual-pre-normalised = { $name }周围的残差连接加上的是归一化后的输入：pre-LN 是 { $input } + { $f }({ $norm }({ $input }))，残差路径上是原始的 { $input }，而不是 { $norm }({ $input }) + { $f }({ $norm }({ $input }))
# en: 47b89e59f95c22f8
block-self-attention = 自注意力
# en: 6546c86a112c65d8
block-cross-attention = 交叉注意力
# en: 5ee6a0e3ef8b74fc
block-ffn = 前馈网络（FFN）
# en: bd97f19e50b15ab3
mask-not-reaching-self-attention = 掩码没有传到自注意力：把它传给 self_attention.forward
# en: b10705578abc0b57
d-key-value-input-left-out = d_x 中漏掉了 d_key_value_input：自注意力唯一的输入同时提供了它的查询、键和值，所以传回这个输入的梯度是 d_query_input + d_key_value_input

## 第 06 课，完整模型（mistakes.rs，full_model）

# en: 2f7cd7fe87aace9b
no-embedding-scale = 嵌入没有乘以 √d_model（第 04 课的 Embedding 会做这一步：使用 embed_with_positions）
# en: 1e877f50b76763b4
no-positions = 没有加上位置编码（用 embed_with_positions 和 model.positions）
# en: 8e0bbe6476e49a6b
no-causal-mask = 解码器的自注意力没有因果掩码（target_mask）
# en: 1c012128c26b97f9
no-encoder-mask = 编码器的自注意力没有对源序列的填充做掩码（key_padding_mask(S, src)）
# en: bba59a5cd6af5467
no-cross-mask = 交叉注意力没有对源序列的填充做掩码（key_padding_mask(T, src)，作为解码器各层的 memory 掩码）
# en: 6a2cdedc63a0de40
same-input = 每一层拿到的都是嵌入，而不是下面一层的输出
# en: 4ae1440219ad827b
loss-over-every-row = 损失是对所有行（包括填充行）求的平均：应除以不是填充的目标个数，而不是行数
# en: 298f28515bdb10f8
log-softmax-overflow = exp(1000) 溢出了；把 log-softmax 算成 x − max − ln Σ exp(x − max)：减去该行的最大值
# en: c17d7ed1e6ac7ba7
noam-max = 调度取的是 step^−0.5 与 step · warmup^−1.5 中的较大值而不是较小值（用了 `max` 而不是 `min`）：较小值才会在预热期间线性上升，并在预热之后按 1/√step 衰减
# en: 2254a348131ccab6
no-bias-correction = 没有偏差修正：把 m 除以 1 − β₁ᵗ，把 v 除以 1 − β₂ᵗ（t 从 1 开始计数）
# en: 01a3845f9a1dd895
eps-inside-the-root = ε 被放进了平方根里，m̂ / √(v̂ + ε)；Adam 把它加在平方根之外，θ ← θ − lr · m̂ / (√v̂ + ε)
# en: b8d875a2281bca8a
sum-of-d-memory = 每个解码器层读取的是同一个 memory，所以它的梯度是所有层的 d_memory 之和
# en: 479fc70d012c5617
add-never-assign = 倒序遍历各层，把每一层在前向传播时的输入交给它的 backward，并把每一层（以及每个句对）的梯度累加进梯度模型：用 += ，绝不用 =
# en: a0032ed8cfb6596d
start-from-bos = 解码必须从 BOS 开始，绝不能从 PAD 开始（Annotated Transformer 的 issue #127：从 PAD 开始），与训练时一样
# en: 98f30c2545d303a1
cache-append = 缓存必须保留之前每个位置的键和值（用 push_row 追加，绝不替换），并且位置编码必须使用 cache.position，它由 decode_step 递增
# en: d385842b3937dc8f
annotated-label-smoothing = 这是 Annotated Transformer 的 LabelSmoothing（正确类别为 1 − ε，其余为 ε/(V − 2)，填充列为 0）；本课程采用 PyTorch 的定义，在所有类别上取 (1 − ε)·onehot + ε/V
# en: 04cf86e3f8739bad
pad-row-smoothed = 目标为 PAD 的行必须全为零：它不是一个预测
# en: b063042bbc7926af
smoothing-over-others = ε 按 ε/(V − 1) 分给了其他类别，正确类别为 1 − ε；本课程采用 PyTorch 的定义 (1 − ε)·onehot + ε/V：每个类别（包括正确类别）都得到 ε/V，正确类别为 1 − ε + ε/V
# en: d26d3d24ef813244
smoothing-over-v-minus-one = ε 是按 ε/(V − 1) 而不是 ε/V 分配的；本课程采用 PyTorch 的定义 (1 − ε)·onehot + ε/V，这样每一行之和为 1
# en: 0863b2380696edfb
pad-row-gradient = 填充行的梯度不是 0：它保留了 p/N；目标为 PAD 的行对损失没有贡献，所以它的梯度是 0（在减去 q 之前，把 p 乘以各行“是否为词元”的掩码）
# en: 92f31d98de51dcee
gradient-over-rows = 梯度除以的是行数，而不是非填充词元的个数
# en: 2681b3fb2b337846
pad-row-gradient-over-rows = 填充行的梯度不是 0，并且梯度除以的是行数而不是词元个数
# en: 4997528108070e77
noam-step-zero-infinite = 第 0 步得到 0^−0.5 = ∞：使用 max(step, 1)
# en: 3eb91c364037906f
noam-step-zero-zero = 第 0 步得到 min(0^−0.5, 0 · warmup^−1.5) = min(∞, 0) = 0：把第 0 步当作第 1 步，max(step, 1)
# en: c214270825b3b9e4
noam-warm-up = 预热部分是 step · warmup^−1.5，这是一条直线，在 step = warmup 处与 step^−0.5 相交
# en: 6611544c032268f5
noam-rule = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)
# en: 75cc48940db87003
clipped-each-tensor = 每个张量是各自裁剪的；论文中的裁剪（以及 PyTorch 的 clip_grad_norm_）对所有张量使用同一个范数，从而保持整个梯度的方向

## Every value against the reference (reference_run.rs, tape.rs)

# en: 5419461e022b38a5
differs-from-reference =
    本测试自己的检查都通过了，但评判程序还会用相同的输入在参考解上运行每一次调用，并比较返回的结果：`{ $label }`（本测试的第 { $call } 次调用）返回的结果不同：{ $what }。
    检查只看选定的性质和若干取值点，所以它们看不到的错误会在这里显出来；不按契约计算、却能应付这些检查的代码（记住先前某次调用的值、在检查拿零与零比较之处返回零、只对测试所用的输入才正确的答案）也一样。如果 `{ $label }` 的另一个测试失败并给出了自己的说明，请先修正那个；否则请在类似这些输入上对照契约检查 `{ $label }`。
# en: ba38dcfc29d69c69
differs-value = 你的结果是 { $got }，参考解的是 { $reference }
# en: 23f23a05e260e22d
differs-shape = 你的结果形状为 { $got }，参考解的形状为 { $reference }
# en: 08b01d7b1cf3f048
differs-entry = 元素 { $index } 为 { $got }，参考解的为 { $reference }
# en: 4032cbc50e84b898
differs-length = 你的结果有 { $got } 项，参考解的有 { $reference } 项
# en: e9ffd8ef28f8ee7a
differs-item = 第 { $index } 项：{ $what }
# en: 77bcdc9489c3d998
differs-part = 第 { $part } 部分（共 { $parts } 部分）：{ $what }

## 学习者代码中的 panic（panics.rs）：哪个函数、在哪里、是什么意思

# en: 2771e1a6428e200b
learner-panic = `{ $function }` 发生了 panic：{ $message }
# en: 56f779b4464a1875
learner-panic-at = `{ $function }` 在 { $site } 发生了 panic：{ $message }
# en: 8be7e07b4f7d684d
learner-panic-meaning = 这是什么意思：{ $meaning }
# en: f43206189b1e172b
panic-index-empty-axis = 对长度为 0 的轴取下标，数组形状是 [{ $shape }]：这个数组是空的。是不是用了一个范围为空的切片（n.. 且 n 等于长度，或 a..a），或者构造时就没有行？
# en: 9c8ad106be3a399b
panic-index-past-axis = 下标（{ $index }）超出了长度为 { $length } 的轴的末端，数组的形状为 [{ $shape }]：下标的范围是 0 到 { $length } − 1。是差了一（off-by-one），还是用了另一个范围的下标（位置、计数、比表更大的 id）？
# en: 616fbbfb376a55de
panic-index-out-of-array = 下标超出了数组的末端：把每个下标和它所索引的那条轴的长度比较一下。
# en: 0ed19fdc3f76c633
panic-matrix-product = 一个 { $left } 矩阵和一个 { $right } 矩阵的乘积：内侧的两个大小（{ $inner_left } 和 { $inner_right }）必须相等。是少了一个转置或多了一个（权重按 (d_out, d_in) 存储），还是两个操作数的顺序反了？
# en: d4e973f76e9cbaf7
panic-incompatible-shapes = 对两个形状既不相同、也无法广播的数组做逐元素运算（+、−、×、÷ 或赋值）。(n,) 向量会被当作一行来广播：每行一个值，必须是 (n, 1) 的列（insert_axis(Axis(1))）；或者是少了一个转置。
# en: 04a414c8f762d258
panic-broadcast = 形状为 [{ $from }] 的数组无法扩展为形状 [{ $to }]。(n,) 向量会被当作一行来广播：每行一个值，必须是 (n, 1) 的列（insert_axis(Axis(1))）。
# en: 278b4b24c0f35877
panic-slice-past-end = 切片到达了 { $index }，超出了长度为 { $length } 的轴的末端：范围是用另一个大小算出来的（比如用了整个宽度，而不是一个头的宽度），或者差了一。
# en: 4e4618f001241c6a
panic-index-past-list = 在有 { $length } 项的列表中取第 { $index } 项，而下标的范围是 0 到 { $length } − 1：差了一，或者用了另一个范围的下标。
# en: 2d8c76c65ff32b99
panic-subtract-overflow = 无符号整数（usize）减到了零以下：比如在 i = 0 时取 i − 1 这样的下标，或者用一个大小减去比它大的另一个大小。
# en: d7b989e743d4c091
panic-divide-by-zero = 整数除以零：某个计数或大小为 0（输入是空的？）。
# en: 0903109c0f88fd21
panic-unwrap-none = 对 `None` 调用了 `unwrap()`：要的值不存在（空列表的最大值，没有找到任何结果的查找）。

## Several checks of one test (check.rs, Checks)

# en: 86eb8f8d5e3f8b46
checks-also-failing = 这个测试中同样失败的检查（修好第一个之后，每一个都会给出自己的说明）：
# en: cb2d643b5cf6642f
checks-right = 这个测试中正确的部分：{ $names }。

# What a wrong result still has in common with the right one (relations.rs).
# en: 6c4ff71b452bd1ab
relation-not-finite = 你的结果中有 { $count } 个元素是 NaN 或无穷大（第一个在 [{ $row }, { $col }]），而期望的每个元素都是有限数。NaN 来自 0/0、∞ − ∞、0 × ∞ 或负数的平方根：找一找除以可能为 0 的量（计数、范数、方差、t = 0 时的 1 − βᵗ）的地方，或者溢出的 exp。
# en: 0b2271a369d483f8
relation-transposed = 你的结果是期望矩阵的转置：行和列互换了（少了或多了一个 .t()，或者乘积的两个操作数顺序反了）。
# en: a326d0fb3c8bb7ec
relation-negated = 你的结果是期望矩阵每个元素取反：某个负号错了（差取反了方向）。
# en: 13263d148c98070e
relation-scaled = 你的每个元素都是期望值的 { $factor } 倍{ $name }：有一个常数因子错了（漏了某个缩放、乘了两次，或者取了倒数）。
# en: 327fb75b2e2919c9
relation-factor-name = （= { $name }）
# en: 972524a97f2e4345
relation-rows-scaled = 你的每一行都是期望的那一行乘以它自己的一个因子（{ $factors }）：某个按行的缩放错了（归一化项，例如 softmax 的和或 1/σ，漏了或用了两次）。
# en: 8da391b1ee4dfd4e
relation-columns-scaled = 你的每一列都是期望的那一列乘以它自己的一个因子（{ $factors }）：某个按列的缩放错了（按特征的因子，例如 γ，漏了或用了两次）。
# en: 211a6a6ed28f7a89
relation-rows-reversed = 你的各行是期望的各行倒过来的顺序：某个循环或下标的方向反了。
# en: f33ed9e19aee0972
relation-rows-shifted = 你的第 i 行是期望的第 i { $shift } 行（{ $n } 行中有 { $count } 行如此）：位置或下标差了一。
# en: 496af06af00529cc
relation-rows-reordered = 你的各行是期望的各行换了顺序：你的第 i 行是期望的第 { $order }[i] 行。下标算错了？
# en: 2e35761209bea78f
relation-columns-reversed = 你的各列是期望的各列倒过来的顺序：某个循环或下标的方向反了。
# en: e7b3d53c90e20545
relation-columns-shifted = 你的第 j 列是期望的第 j { $shift } 列（{ $n } 列中有 { $count } 列如此）：下标差了一。
# en: 3ef4b11225ea0075
relation-columns-reordered = 你的各列是期望的各列换了顺序：你的第 j 列是期望的第 { $order }[j] 列（头或特征切分、拼回的顺序错了？）。
# en: 5b5c7ffbef5b27f1
relation-offset = 你的每个元素都是期望值加上 { $offset }：多加了或漏加了一个常数。
# en: a74a7c970447cc9f
relation-column-offset = 你的结果减去期望值，每一行都是同一行（{ $offset }）：每列有一个偏移，例如偏置加了两次或漏加了。
# en: 5fd28959acd974ec
relation-row-offset = 你的结果减去期望值，在每一行内是常数：每行有一个偏移（是否减去了该行的均值或最大值）。
# en: 99836f1a218a0f60
relation-zero-rows = 你的第 { $rows } 行全为零，而期望的不是：从没写入，还是被循环跳过了？
# en: ecf7a12abb044592
relation-zero-columns = 你的第 { $cols } 列全为零，而期望的不是：从没写入，还是被跳过了？
# en: 1fcfbb777b9c16ef
relation-rows-right = 第 { $right } 行是对的；第 { $wrong } 行是错的。
# en: de0c494f7744e55f
relation-columns-right = 第 { $right } 列是对的；第 { $wrong } 列是错的。
# en: 3e1cb763184b8206
relation-number-squared = 你的数是期望值的平方：漏了一个平方根？
# en: 7a674dea38dca9d0
relation-number-root = 你的数是期望值的平方根：多了一个平方根？
# en: 49acbc5f8859b471
relation-number-inverse = 你的数是期望值的倒数（1/x）：比值上下颠倒了？
# en: 5e64cfefa174cebb
relation-number-scaled = 你的数是期望值的 { $factor } 倍{ $name }：有一个因子错了。

## Lesson 07: BPE, RMSNorm, RoPE, SwiGLU (causes/gpt.rs)

# en: 48938dae64e1e4d8
bpe-tie-largest = 训练时在出现次数相同的字节对中选了最大的一对（或最后看到的一对）；规则是取最小的一对，先比第一个 id，再比第二个（BTreeMap 先访问到它；`max_by_key` 在多个相等的最大值中保留最后一个）
# en: 528ff55ce2666bd1
bpe-tie-first-seen = 训练时在出现次数相同的字节对中选了在文本中最先出现的一对；规则是取最小的一对（先比第一个 id，再比第二个），与文本中的顺序无关
# en: 596b69e1eaa74749
bpe-count-non-overlapping = 字节对是按不重叠的方式计数的（数到一对之后跳过了它的第二个 id）；每个位置都要数：[a, a, a] 含有两次 (a, a)
# en: 72e0ab65f1de2aee
bpe-merge-step-one = 合并一对之后，扫描从这对的第二个 id 继续，而不是跳过它：这个 id 又被用了一次，于是输入的每个 id 都给出输出的一个 id，文本永远不会变短
# en: cf3579ed09da87cc
bpe-encode-left-first = 编码时先合并了最左边的已学字节对，而不是秩最低（最先学到）的那一对：合并必须按训练学到它们的顺序应用，无论它们在文本中的哪里
# en: 34445dc05a33f271
bpe-encode-highest-rank = 编码时从最后学到的合并开始应用（秩最高的先）；应当像训练时那样，先应用秩最低的
# en: d04d312b4c4c985e
bpe-encode-most-frequent = 编码时先合并了在被编码文本中出现次数最多的已学字节对；顺序应当是合并的秩，先学到的先合并，与这段文本里的计数无关：计数是训练的事，编码只查每一对的秩
# en: 0987af8506eb010b
bpe-encode-one-pass = 编码在第一次合并之后就停了；要一直做下去，直到结果中没有任何相邻的一对是学过的（一次合并可能造出后面某次合并要用的一对）
# en: ea5a13d6e997b5af
bpe-eot-as-bytes = 文本结束符被编码成了它的文字 "<|endoftext|>" 的字节；它是一个 id，`end_of_text()`：先在它处把文本切开
# en: 57726aea64b9e89b
bpe-eot-id = 文本结束符的 id 不对；它是最后一个 id，256 + 合并次数（`self.end_of_text()`），在所有合并出来的 token 之后
# en: 64ed8f925effdb78
bpe-eot-dropped = 文本结束符被丢掉了；文本中每出现一次 "<|endoftext|>"，结果中就有一个对应的 id（解码时也还原成这段文字）
# en: 6b732309612c5540
rms-mean-subtracted = 减去了每行的均值，那是 LayerNorm 的做法；RMSNorm 直接用 x 除以 √(mean(x²) + ε)，不做中心化
# en: 17f0721f384be7d4
rms-eps-outside = ε 加在了平方根外面，x / (√mean(x²) + ε)；它应该在里面：x / √(mean(x²) + ε)
# en: 7c187d91c0a273bc
rms-no-sqrt = x 被除以了均方，而不是均方的平方根：均方根是 √(mean(x²) + ε)
# en: a9bf58e5ed4de4b9
rms-unbiased = 平方的平均是除以 d_model − 1 算的；应当对每行的 d_model 个特征求平均
# en: 02ce38c03043f0cd
rms-backward-constant-r = 反向传播把 1/rms 当成了常数（dx = r·(dY ⊙ g)）；r 也依赖于 x，这带来一项 − r·x̂ ⊙ mean_row(h ⊙ x̂)
# en: adeb65ed39ee06f8
rms-d-gain-raw-x = 增益的梯度用了输入 x（Σ_rows dY ⊙ x）；增益乘的是归一化后的 x̂ = x·r，所以 dg = Σ_rows dY ⊙ x̂
# en: 02b9613381bbc0bf
rms-d-gain-no-x = 增益的梯度是 Σ_rows dY，像偏置那样；增益乘的是 x̂ = x·r，所以 dg = Σ_rows dY ⊙ x̂
# en: f9defc80dcd9a968
rms-backward-mean-term = 反向传播里多了 LayerNorm 的 − mean_row(h) 一项；RMSNorm 没有减均值，所以 dx 只是 r·(h − x̂ ⊙ mean_row(h ⊙ x̂))
# en: 1529687958c438f4
rope-clockwise = 每一对被转向了反方向（正弦的符号反了）：y[2i] = x[2i]·cos − x[2i+1]·sin，y[2i+1] = x[2i]·sin + x[2i+1]·cos
# en: c409e9abddd9402b
rope-half-split = 第 i 个特征与第 i + d_head/2 个配成了一对（某些 LLaMA 移植版的布局）；这里一对是相邻的两列 (2i, 2i + 1)，与第 04 课的表相同
# en: 5bb2d02f62246682
rope-ignores-start = 无论 `start` 是多少，位置都从 0 开始；第 t 行的位置是 start + t（有缓存时，新 token 排在缓存的 token 之后）
# en: f8f3132faa8c059f
rope-frequency-per-column = 每一列都用了自己的频率（ω 按列而不是按对取）；第 i 对的两列要转同一个角度 p·ω_i
# en: 74d2f9591aa450d1
rope-backward-forward = 反向传播把梯度转了和前向相同的角度；它应当转回来，转相反的角度（旋转的逆就是它的转置）
# en: 2d0654bb809104e7
swiglu-silu-on-up = SiLU 用在了 W_up 的输出上，而不是 W_gate 的：h = SiLU(x W_gateᵀ) ⊙ x W_upᵀ
# en: 8e1a8b6ccfc6b56b
swiglu-sigmoid = 门用的是 sigmoid σ(a)，而不是 SiLU(a) = a·σ(a)（那是 GLU 的门）
# en: ef197b003b8e0b84
swiglu-slope-sigmoid = 反向传播把 σ(a) 当成了 SiLU 的斜率；SiLU'(a) = σ(a)·(1 + a·(1 − σ(a)))
# en: b9eb632af8ad5c11
swiglu-dx-one-path = dx 只算了两条路径中的一条；x 同时进入 W_gate 和 W_up，所以 dx = da W_gate + db W_up

## Lesson 07: the schedule, AdamW, sampling, bits per byte (causes/gpt.rs)

# en: 6bc8edc3243665ed
lr-warmup-from-zero = 预热从 0 开始（max_lr · step / warmup）：第 0 步根本不会更新权重；应为 max_lr · (step + 1) / warmup，这样预热的最后一步正好到达 max_lr
# en: 128d34b4925989de
lr-cosine-progress-total = 余弦的进度是按全部步数算的；它应当只覆盖预热之后的步数：progress = (step − warmup) / (total − warmup)，预热结束时为 0，最后一步为 1
# en: 91d02110c0f9fff3
lr-cosine-no-half = 余弦缺了 (1 + cos)/2：随着进度从 0 到 1，它必须从 1 降到 0，使学习率从 max_lr 降到 min_lr
# en: 7406ac8df04532a4
lr-cosine-to-zero = 余弦衰减到了 0 而不是 min_lr：应为 min_lr + (max_lr − min_lr) · (1 + cos(π · progress)) / 2
# en: 84777b3b2b16e1f1
adamw-l2 = 权重衰减被加到了梯度上（g + λθ），那是带 L2 惩罚的 Adam：AdamW 把它解耦，θ ← θ − lr·λ·θ，而 m 和 v 只看到梯度本身
# en: 067ef4615a1c0ab2
adamw-decay-after = 衰减是在 Adam 的一步之后、对更新后的权重做的；PyTorch 的 AdamW 先衰减 θ（θ ← θ − lr·λ·θ），再走 Adam 的一步
# en: 5bd2b037bfdd3503
adamw-decay-all = 每个张量都被衰减了；只有 `decays` 中标记为 true 的才衰减（权重矩阵；增益不衰减）
# en: 4889738d9cdabca0
adamw-decay-no-lr = 衰减缺了学习率：应为 θ ← θ − lr·λ·θ，而不是 θ − λ·θ
# en: cada2e466e1e2c22
temperature-ignored = 温度没有起任何作用：结果就是 softmax(logits) 本身。把每个指数（或每个概率）除以 T，归一化时就被约掉了；应当在取指数之前把 logits 除以 T：softmax(logits / T)
# en: 65821b766ca20c9f
temperature-multiplied = logits 被乘以了温度；应当除以它：softmax(logits / T)，这样 T < 1 才会让分布更尖锐
# en: 81917f83d68dc52e
top-k-not-renormalised = 保留下来的概率没有重新归一化：要除以它们的和，使它们加起来为 1
# en: c4eb056312d59a1a
top-k-ties-high = 在概率相等时保留了 id 较大的；应当是 id 较小的排在前面
# en: a58e9493a24beab8
top-p-excludes-crossing = 累积概率达到 p 的那个 token 被排除了；它属于核（概率至少为 p 的最小集合），而且最可能的 token 总要保留
# en: c6f07a4bf010ad92
top-p-not-renormalised = 核没有重新归一化：要把保留下来的概率除以它们的和
# en: 235464447e33ad8b
bits-in-nats = 结果的单位是奈特（自然对数）；每字节比特数用的是 log₂，所以要把奈特除以 ln 2
# en: 1bbc9f36c94092a0
baseline-no-smoothing = 计数没有做平滑：每个计数加一、分母加 256（加一平滑），这样没见过的字节也有概率
# en: 204de3651caf6f4f
bigram-skips-first = 文本的第一个字节被漏掉了（只对相邻对求平均）；它应由一元模型打分，平均是对所有字节求的

## Lesson 07: causal self-attention with RoPE (causes/gpt.rs)

# en: ead3baa81a98ecbe
rope-on-values = 值也被 RoPE 旋转了；只有查询和键携带位置（它们的点积就是得分），值不旋转
# en: b1d83f396bdfea47
rope-before-projection = RoPE 被用在了投影之前的输入上；它应当在 W_q 和 W_k 之后、对每个头的查询和键做旋转，这样两个位置的得分才只取决于它们的距离
# en: 41d4d932c546620f
rope-whole-width = RoPE 在分头之前作用于整个宽度 d_model，用的是 d_model 的频率；应当对每个头分别旋转，用 d_head 的频率
# en: 539b8373ce795560
self-attention-not-causal = 注意力没有因果掩码：每个位置只能看它自己和它之前的位置（第 02 课的 causal_mask(n)）
# en: 8ce3ed62aa4efd55
rope-not-turned-back = 查询和键的梯度在计算投影的梯度之前没有用 rope_backward 转回来；前向时旋转过它们，反向时必须撤销
# en: 053ce46da347723f
attention-dx-path = dx 少了三条路径中的一条；x 同时进入查询、键和值，所以 dx = dQ W_q + dK W_k + dV W_v

## Lesson 07: the model, its loss, its backward pass, the cached step (causes/gpt.rs)

# en: 5bcb6d17f33da8f9
block-residual-on-normed = 两个子层的输出都加在了各自归一化后的输入上（h = a + Attention(a)，y = b + SwiGLU(b)），而不是加在残差流上：pre-norm 加在 x 和 h 本身上，h = x + Attention(RMSNorm_1(x))，y = h + SwiGLU(RMSNorm_2(h))
# en: 815e8e7c9e33401e
block-residual-1-on-normed = 注意力的输出加在了它归一化后的输入上，h = a + Attention(a)，其中 a = RMSNorm_1(x)，而不是加在残差流上：h = x + Attention(RMSNorm_1(x))
# en: da9b0620db965ff4
block-residual-2-on-normed = 前馈层的输出加在了它归一化后的输入上，y = b + SwiGLU(b)，其中 b = RMSNorm_2(h)，而不是加在残差流上：y = h + SwiGLU(RMSNorm_2(h))
# en: a1c7fc58f2310d90
block-parallel = 前馈层读的是 RMSNorm_2(x) 而不是 RMSNorm_2(h)：两个子层并排运行了；前馈层必须读注意力残差之后的残差流
# en: bd396c529d9cacf8
block-post-norm = 块在每个残差之后做了归一化（post-norm，第 05 课的 post-LN），而不是在每个子层之前：a = RMSNorm_1(x)，h = x + Attention(a)，b = RMSNorm_2(h)，y = h + SwiGLU(b)
# en: 3cf7d8ebe2aa3efd
block-attention-gets-dy = 注意力的反向传播拿到的是 d_y，而不是 d_h = d_y + RMSNorm_2 的 d_x：注意力的输出沿 h 的两条路径到达 y
# en: 11d98ea1e4cdbcd1
block-skip-carries-dy = 第一个残差把 d_y 直接传给了 x，而不是 d_h：d_x = d_h + RMSNorm_1 的 d_x
# en: 8f4287fd8cb0ef84
block-norm-backward-at-output = RMSNorm 的反向传播是在它的输出（a 或 b）处求的，而不是在它的输入（x 或 h）处：每个反向传播都要用它的前向传播当时的输入
# en: 795f8546fbc4e674
block-no-skip-gradient = 梯度里漏掉了残差的直连路径：h = x + f(x) 给出 d_x = d_h + f 的 d_x，即上游梯度本身加上子层的梯度
# en: b36c3f6bf180bf21
gpt-head-unnormed = logits 是由最后的残差流 x_L 算出的，而不是由 RMSNorm_f(x_L)：模型最后的 RMSNorm 在输出头之前
# en: 9a302b8e8bc7ae92
gpt-embedding-no-head-share = dE 缺了输出头的那一份 d_logitsᵀ RMSNorm_f(x_L)：E 被用了两次，一次查表，一次作为共享权重的输出头，所以它的梯度是两者之和
# en: 9bc5b958badab60d
gpt-embedding-no-lookup-share = dE 缺了查表的那一份：d_x_0 的第 t 行必须加到 dE 的第 tokens[t] 行上，叠加在输出头那一份之上
# en: 0cc5699bc7021371
gpt-embedding-lookup-assigned = 查表的行被直接写进了 dE，而不是加上去：这些行里输出头的那一份丢了，出现两次的 token 也只留下了其中一行
# en: 7e3ac139ff7c6284
gpt-embedding-head-unnormed = dE 中输出头的那一份用了 x_L，而不是输出头的输入 RMSNorm_f(x_L)
# en: 68a42fb60b14ab37
gpt-block-grads-reversed = 各个块的梯度是从最后一个块往前算的，但没有按原顺序放回：第 l 个块拿到的是第 L − 1 − l 个块的梯度
# en: 397b71f5cdfd7f94
loss-gradient-not-mean = 梯度缺了平均值的 1/n：d_logits = (softmax − onehot) / n，因为损失值是 n 行的平均
# en: 75742a316bd08203
loss-value-sum = 损失是各行之和，而不是它们的平均值
# en: 161a9ccc5a9b2f66
loss-in-bits = 损失用的是比特（以 2 为底的对数）；这里的交叉熵用奈特，即自然对数（之后由 bits_per_byte 换算）
# en: 317d55dbf739ca6b
loss-gradient-target-only = 只有目标那一项得到了梯度；每行的每一项都是 softmax 减去 one-hot 目标，再除以 n
# en: e1edf7aab9c71da6
step-key-at-zero = 新的键在位置 0 旋转，而不是在它自己的位置 p = cache.len()：缓存里的键只旋转一次，按它那个 token 的位置
# en: 46ef21267080c17f
step-query-at-zero = 新的查询在位置 0 旋转，而不是在 p = cache.len()
# en: e99dd4298494ceca
step-query-after-push = 新的查询在 p + 1 处旋转：位置是在压入新键之后才按 cache.len() 读的；应当在压入之前读一次 p = cache.len()，查询和键都在 p 处旋转
# en: 295cfaf9eaf36945
step-key-after-push = 新的键在 p + 1 处旋转：位置是在压入之后才按 cache.len() 读的；应当在压入之前读一次 p = cache.len()，查询和键都在 p 处旋转
# en: e14ca6d2ae1c8572
step-attend-before-push = 在把新 token 的键和值压入缓存之前就对缓存做了注意力：token 也要关注它自己，因果掩码的第 p 行允许这样
# en: 491e776e0e9150b6
gradient-of-another-tensor = 这是另一个形状相同的张量的正确梯度：各子层的反向传播算出的数是对的，但收集梯度时放错了位置（检查字段的顺序和块的顺序）
