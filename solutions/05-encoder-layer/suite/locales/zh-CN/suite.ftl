# 第 05 课（编码器层与解码器层）的评分测试：失败的测试这样说。
# 参数已经格式化好（数字、矩阵）；`position` 是该层的 NormPosition（Post 或 Pre），
# `hint` 和 `cause` 是可能的原因。

## 每个梯度检查都会说的

# en: d2950801ce131e0e
gradient-of = { $what }：{ $gradient }

## 层归一化（LayerNorm）

# en: 4fce0f44b8cb504c
inv-std-mismatch = normalise_rows([[1, 0, 0, 0]]).inv_std 应为 [1/√(3/16 + 1e-5)] = [{ $expected }]，实际得到 { $got }。可能的原因：inv_std 每行存一个数，即 1/√(σ² + ε)，其中 σ² 是该行的有偏方差。
# en: 8fb1b1c70912a87e
layer-norm-4-pytorch = LayerNorm::new(4).forward([[1, 0, 0, 0]])（PyTorch 的 nn.LayerNorm(4)）
# en: 216a1d2a6850b1c6
burn-published = 对 burn 测试数据的 LayerNorm（burn 公布的值）
# en: abe4da02f7b9767d
burn-pytorch = 对 burn 测试数据的 LayerNorm（PyTorch）
# en: b439ed3913c39ca8
eps-fixed = ε 被固定为 1e-5（LAYER_NORM_EPS），而没有取自该层自己的 `eps` 字段
# en: 3a0751bc2106b3d6
burn-eps = eps = 0.1 时对 burn 测试数据的 LayerNorm（PyTorch；burn 公布的是 −0.4863, −1.9180, 1.5766, ...）
# en: a8c2edbd5dde47f4
candle-rows = 对 candle 的三行 [1, 2, 3], [4, 5, 6], [9, 8, 7] 做 LayerNorm
# en: d54c576097f09e05
gamma-beta-pytorch = γ = linspace(0.5, 1.5, 5)、β = linspace(−0.3, 0.3, 5) 时的 LayerNorm（PyTorch）
# en: 021fc509aab95afd
layer-norm-of-input = 对形状为 { $shape } 的输入做 LayerNorm
# en: 7a3e376a20935167
mean-not-zero = LayerNorm（γ = 1，β = 0）：输出第 { $row } 行的均值为 { $mean }，期望 0。可能的原因：每一行的每个元素都必须减去该行的均值 μ（每行一个均值，在特征上求）。
# en: 7d935a960e43160b
eps-left-out = 漏掉了 ε：把它放在平方根里，输出的标准差就是 √(σ²/(σ² + ε))，当 σ² 和 ε 一样小时明显小于 1
# en: 0b7a13aed807798b
eps-on-std = ε 加在了标准差上，而不是方差上
# en: aebe7c19263b132a
divide-by-std = 应除以 √(σ² + ε)，其中 σ² 是该行的有偏方差（÷ d_model）
# en: 1b71e2c52bdfc997
std-mismatch = LayerNorm（γ = 1，β = 0）：第 { $row } 行的输入方差为 { $variance }，所以输出的标准差应为 √(σ²/(σ² + ε)) = { $expected }，实际得到 { $got }。可能的原因：{ $cause }。
# en: 2603f127d2db6716
constant-row = 对常数行做 LayerNorm
# en: cf652a9b798ce6bd
constant-row-hint = 常数行的方差为 0，(x − μ)/√σ² 就是 0/0 = NaN：把 ε 放进平方根，即 (x − μ)/√(σ² + ε)，才能让结果保持有限
# en: d704b0700743ec56
constant-row-is-beta = 对常数行做 LayerNorm（x̂ = 0，所以输出就是 β）
# en: b02a27cd77c1e183
layer-norm-rows-at-once = 一次对 7 行做 LayerNorm，与逐行单独计算的结果对照
# en: 524802763fd66348
sum-gradient-hint = 均值和方差依赖于该行的每一个元素，这给 dx 添了两项：dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))，其中 g = dY ⊙ γ。常见的错误是把 μ 和 σ² 当作常数（dx = g·r）
# en: 9c6a46eed44d0469
sum-gradient-burn = 对 burn 的 x = [[9, 10], [54, 61]]，d sum(LayerNorm(x)) / dx 应当恰好为 0（无论 x 是什么，LayerNorm 输出的每一行之和都是 Σβ），实际得到 { $got }。可能的原因：{ $hint }。
# en: 7072a2098322cdc0
d-gamma-burn = sum(LayerNorm(x)) 的 dγ（burn：[−2, 2]）
# en: 7433a154fc90bbe6
d-gamma-pytorch = sum(LayerNorm(x)) 的 dγ（PyTorch）
# en: 0c3a715e041cc66e
d-beta-burn = sum(LayerNorm(x)) 的 dβ（burn：[2, 2]）
# en: 93a2c0eb0d8fb283
sum-gradient-uniform-gamma = γ 处处为 1.7 时，d sum(LayerNorm(x)) / dx 应为 0（误差在 1e-12 以内）：无论 x 是什么，Σ_j (1.7·x̂_j + β_j) = Σβ；实际得到的最大元素是 { $largest }。可能的原因：{ $hint }。
# en: b7a6cb3824b31daf
layer-norm-d-x-hint = 设 g = dY ⊙ γ，每行 r = 1/√(σ² + ε)，则 dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))，均值在每一行的特征上求
# en: 6b5440b04b695b23
layer-norm-d-gamma-hint = dγ = Σ_rows dY ⊙ x̂：用的是归一化后的输入，既不是 x，也不是输出
# en: 789d2e0a458427bb
layer-norm-d-beta-hint = β 加在每一行上，所以 dβ = Σ_rows dY

## 逐位置的前馈网络

# en: 9373b9f923de9b03
ffn-sizes = w_1 为 (10, 6) 的 FeedForward 应当报告 d_model 为 6、d_ff 为 10，实际得到 { $d_model } 和 { $d_ff }
# en: ad2de7383fd34456
ffn-output-pytorch = FeedForward 的输出（PyTorch：linear2(relu(linear1(x)))）
# en: 61e3e6746b4b99c2
ffn-of-input = 对形状为 (5, 6) 的输入做 FeedForward
# en: b8f5c01e8ae3ecbe
ffn-row-unchanged = 只改动输入第 2 行之后，FeedForward 输出的第 { $row } 行
# en: 7d3e6ee736c6fc95
ffn-rows-at-once = 一次对 5 行做 FeedForward，与逐行单独计算的结果对照
# en: 29bab45d09cf1d0b
ffn-d-x-hint = 先反向穿过 w_2（它的输入是 hidden），再穿过 ReLU（hidden > 0 处 × 1，其余 × 0），最后是 w_1（它的输入是 x）
# en: fd40f98c129c9ed3
ffn-w-1-hint = w_1 的输入是 x，它的上游梯度是穿过 w_2 和 ReLU 传回来的梯度
# en: e7f5d44b1358b3f3
ffn-w-2-hint = w_2 的输入是 hidden（ReLU 之后），它的上游梯度是 d_output

## 编码器层

# en: d90fdd6af9780e70
encoder-post-pytorch = 编码器层，post-LN（PyTorch 的 nn.TransformerEncoderLayer，norm_first=False）
# en: 5edcaaf661c9e723
encoder-pre-pytorch = 编码器层，pre-LN（PyTorch 的 nn.TransformerEncoderLayer，norm_first=True）
# en: 564232846009ef24
encoder-padded-pytorch = 编码器层，post-LN，最后两个词元是填充（PyTorch）
# en: 2b43adf97ec7de90
mask-not-passed = 掩码没有传到自注意力：把它传给 self_attention.forward
# en: 740fb8ea281e4398
padding-moved-real-tokens = 编码器层（{ $position }）：改动填充词元之后真实词元的输出（应当完全不变）
# en: 2e2dede2ddf7fd4d
pre-ln-identity = 子层输出为 0 的 pre-LN 编码器层（应当是恒等映射：x + 0 + 0）
# en: 1447f953f1774643
pre-ln-normalised-twice = 输出是 LayerNorm(LayerNorm(x))：要么这一层算成了 post-LN，要么它的残差连接加的是归一化后的输入；pre-LN 的残差路径传递的是原始输入，h = x + SA(norm_1(x))，out = h + FFN(norm_2(h))
# en: c970887b2a573f7b
pre-ln-identity-d-x = 子层输出为 0 的 pre-LN 编码器层：d_x（应当就是 d_output：残差路径是恒等映射，是梯度的一条直通高速路）
# en: 4b3fcfe740f10f90
skip-gradient-dropped = 绕过每个子层的那部分梯度被丢掉了：在每个残差连接 y = x + F(..) 处，dx = dy +（穿过 F 传回来的梯度）
# en: 2f0ea2215a24fc43
post-ln-normalises = 子层输出为 0 的 post-LN 编码器层（应当是 LayerNorm(LayerNorm(x))：post-LN 在每次残差相加之后都做归一化）
# en: bd5f26ce20ce1a7d
encoder-d-model = 基础模型的 EncoderLayer::d_model() 应为 512，实际得到 { $got }
# en: c1f02659498b7069
encoder-base-count = 基础模型的编码器层应当有 3,152,384 个参数：注意力中 1,050,624 个（4·512² + 4·512），前馈网络中 2,099,712 个（2·512·2048 + 2048 + 512），两个 LayerNorm 中 2,048 个（γ 和 β，各 512 个）；实际得到 { $got }。可能的原因：漏掉了某个部分，或者某个部分数了两次；请把各部分的 parameter_count() 加起来。
# en: de82486ffcb11296
encoder-fixture-count = 测试用的编码器层（d_model = 6，d_ff = 10）应当有 168 + 136 + 24 = 328 个参数，实际得到 { $got }
# en: 38fa345b2451cbaa
encoder-against-autograd = 编码器层（{ $position }）的反向传播，与 PyTorch 的 autograd 对照：{ $name }

## 整层的梯度检查，逐个参数

# en: b2e46dc93dee5ff5
encoder-layer = 编码器层（{ $position }）
# en: bc545fd74d8e5bb7
encoder-post-attention-hint = post-LN：自注意力的上游梯度是 norm_1 的 d_x（norm_1 归一化的是 x + SA(x)），而它的输入 x 同时提供了查询、键和值
# en: 12b0f5408217884e
encoder-post-ffn-hint = post-LN：前馈网络的输入是 h = norm_1(..)，它的上游梯度是 norm_2 的 d_x
# en: 3a9241c70f5cfe96
encoder-post-norm-1-hint = post-LN：norm_1 的输入是 x + SA(x)，它的上游梯度 d_h 是 norm_2 的 d_x 加上穿过前馈网络传回来的梯度
# en: 1358579744346541
encoder-post-norm-2-hint = post-LN：norm_2 的输入是 h + FFN(h)，它的上游梯度是 d_output
# en: 6e59fed10b639597
encoder-pre-attention-hint = pre-LN：自注意力的输入是 norm_1(x)，它的上游梯度是 d_h = d_output + norm_2 的 d_x
# en: d283ad5dcd5bbf04
encoder-pre-ffn-hint = pre-LN：前馈网络的输入是 norm_2(h)，它的上游梯度是 d_output
# en: 2a8af01e4bf4afc5
encoder-pre-norm-1-hint = pre-LN：norm_1 的输入是 x，它的上游梯度是穿过自注意力传回来的梯度（d_query_input + d_key_value_input）
# en: 9009506f2bf8fead
encoder-pre-norm-2-hint = pre-LN：norm_2 的输入是 h，它的上游梯度是前馈网络的 d_x
# en: a6dade8638b2effc
encoder-d-x-hint = 从后往前逐块反向传播；在每个残差连接 y = x + F(..) 处，x 的梯度等于 y 的梯度加上穿过 F 传回来的梯度；在自注意力中，同一个输入同时提供查询、键和值，所以它的梯度是 d_query_input + d_key_value_input

## 解码器层

# en: c540ae701be0136c
decoder-post-pytorch = 解码器层，post-LN（PyTorch 的 nn.TransformerDecoderLayer，norm_first=False）
# en: c07fb13cf5d0a2f3
decoder-pre-pytorch = 解码器层，pre-LN（PyTorch 的 nn.TransformerDecoderLayer，norm_first=True）
# en: ae7eaf278c7808b7
saw-the-future =
    解码器层（{ $position }）：只改动了目标序列的第 { $first }..4 行，输出的第 { $row } 行却变了，说明位置 { $row } 看到了未来。
    改动前：{ $before }
    改动后：{ $after }
    可能的原因：自注意力必须用 self_mask（因果掩码），交叉注意力必须用 memory_mask；并且每个 LayerNorm 都必须在特征上对每一行（每个位置）做归一化（在行之间做的 LayerNorm 会把不同位置混在一起）。
# en: 55adc23af9e62ac9
input-ignored = 解码器层（{ $position }）：目标序列第 3 行改变时，输出的第 3 行没有变；这一层必须用到它的输入
# en: 1695d8250d939b07
padded-memory-moved-output = 改动 memory 中的填充行之后，解码器层（{ $position }）的输出（应当完全不变；交叉注意力必须用 memory_mask）
# en: a84151c2c0777235
d-memory-shape = d_memory：每个源位置一行（5 行），d_model 列（6 列）
# en: 6b579ae515b0bf9c
padded-memory-gradient = 解码器层（{ $position }）：memory 中填充行的梯度应当恰好为 0（它得不到任何注意力），实际得到 { $got }。可能的原因：d_memory 就是交叉注意力的 d_key_value_input。
# en: 409139d33e5f01a2
decoder-output-shape = 解码器的输出：每个目标词元一行
# en: 0386c43a55b274f3
cross-attention-weights-shape = 交叉注意力的权重：每个目标词元一行，每个源词元一列（查询来自解码器，键来自 memory）
# en: 245038c2d7376de1
self-attention-weights-shape = 自注意力的权重
# en: ce5c2a118822d547
decoder-d-x = 解码器的 d_x
# en: 77d89749f1c52da5
decoder-d-memory = 解码器的 d_memory
# en: cd9facaa21a58a31
decoder-d-model = 基础模型的 DecoderLayer::d_model() 应为 512，实际得到 { $got }
# en: a150bd6d727444ab
decoder-base-count = 基础模型的解码器层应当有 4,204,032 个参数：两个注意力中共 2 × 1,050,624 个，前馈网络中 2,099,712 个，三个 LayerNorm 中 3,072 个；实际得到 { $got }。可能的原因：漏掉了交叉注意力或第三个 LayerNorm，或者某个部分数了两次。
# en: 2d792aecf18baa46
decoder-fixture-count = 测试用的解码器层（d_model = 6，d_ff = 10）应当有 2·168 + 136 + 36 = 508 个参数，实际得到 { $got }
# en: a8982dfa60e5e19a
decoder-against-autograd = 解码器层（{ $position }）的反向传播，与 PyTorch 的 autograd 对照：{ $name }
# en: af76bc3d9cec0c25
decoder-layer = 解码器层（{ $position }）
# en: dbd2cb8aaf6a1da1
decoder-post-self-attention-hint = post-LN：自注意力的上游梯度是 norm_1 的 d_x，而它的输入 x 同时提供了查询、键和值
# en: b2e223f526497001
decoder-post-cross-attention-hint = post-LN：交叉注意力的查询输入是 h_1 = norm_1(..)，键/值输入是 memory，上游梯度是 norm_2 的 d_x
# en: f42ec2575ac092e7
decoder-post-ffn-hint = post-LN：前馈网络的输入是 h_2 = norm_2(..)，上游梯度是 norm_3 的 d_x
# en: a8d7099a1e8d3975
decoder-post-norms-hint = post-LN：norm_k 的输入是（它所在块的输入）+（它的子层的输出），它的上游梯度是到达它输出端的梯度：对 norm_3 是 d_output，对 norm_2 和 norm_1 则是跳跃路径与子层路径的梯度之和
# en: c9d6169969b670d0
decoder-pre-self-attention-hint = pre-LN：自注意力的输入是 norm_1(x)，上游梯度是 d_h_1
# en: 79940033d26f8c0c
decoder-pre-cross-attention-hint = pre-LN：交叉注意力的查询输入是 norm_2(h_1)，键/值输入是 memory，上游梯度是 d_h_2 = d_output + norm_3 的 d_x
# en: 119a8f684ff57f82
decoder-pre-ffn-hint = pre-LN：前馈网络的输入是 norm_3(h_2)，上游梯度是 d_output
# en: 2c95f8dc9badd554
decoder-pre-norms-hint = pre-LN：norm_k 的输入是它所在块的输入（x、h_1、h_2），它的上游梯度是穿过它的子层的查询路径传回来的梯度
# en: ed392a1bb8607536
decoder-d-x-hint = 从后往前逐一反向穿过三个块，在每个残差连接处加上跳跃路径的梯度；只有交叉注意力的查询路径（d_query_input）回到解码器的残差流中，而自注意力的输入得到 d_query_input + d_key_value_input
# en: e8f08d120a4a6971
decoder-d-memory-hint = memory 是交叉注意力的键/值输入，所以 d_memory 就是交叉注意力的 d_key_value_input（它同时流入 W_k 和 W_v）
