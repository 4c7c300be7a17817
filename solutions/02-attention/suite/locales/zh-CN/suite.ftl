# 第 02 课（注意力）评分测试的消息：失败的测试这样说。
# 参数已经格式化好（数字、矩阵）；标签说出被检查的值，提示给出可能的原因。

## Softmax

# en: daa8d4eeb5b7e58e
softmax-label-shape = 一个 (4, 5) 矩阵的 softmax_rows
# en: d5e4f7020d043982
softmax-label-huge-scores = 分数接近 ±10⁴ 时的 softmax_rows
# en: f025be5b231ef599
softmax-huge-scores-hint = softmax 中的 NaN 来自 0/0 或 ∞/∞：要么 exp 上溢了（exp(10000) 是无穷大：取指数之前先减去每一行的最大值），要么一行中所有的 exp 都下溢成了 0（减去的不是这一行的最大值：求最大值时，初始值应当是 −∞，而不是 0）
# en: 80184be4b100fc19
softmax-label-fully-masked-row = 有一整行被屏蔽时的 softmax_rows
# en: de4e0667f6eaf8b2
softmax-fully-masked-row-hint = 一行全是 −∞ 时，其最大值是 −∞，而 −∞ − (−∞) 是 NaN：这样的行应改为给出全零的权重
# en: 6e6cbfc2e93848c0
softmax-label-minus-infinity = 有 −∞ 分数时的 softmax_rows
# en: 34c00ffb7d0b0386
softmax-backward-hint = 每一行的雅可比矩阵是 diag(w) − w wᵀ，所以 dS = W ⊙ (dW − rowsum(W ⊙ dW))；检查行和是否逐行求出，并在该行上广播回去（如果 softmax_rows 也没通过它的测试，先修好它：数值梯度是用它算出来的。）

## 掩码

# en: a56565154cd88b44
causal-mask-hint = 第 i 行是查询 i，第 j 列是键 j：查询 i 可以关注键 j ≤ i（它自己和过去的位置）；上三角的掩码（j ≥ i）会让各位置看到未来
# en: aeea688baea91764
causal-mask-empty = causal_mask(0) 应该是一个空的 (0, 0) 掩码
# en: 2c8c9bac1d35f427
padding-mask-hint = 掩码中每个查询占一行、每个键占一列；第 j 列是 key_is_token[j]，对每个查询都一样
# en: 73cf5e404a233637
apply-mask-mismatch =
    apply_mask 应该给出
    { $expected }
    实际得到
    { $got }
    可能的原因：掩码中的 `true` 表示“可以关注”（保留分数）；`false` 表示 −∞。像 −1e9 这样很大的负数并不是 −∞：分数可能漂移到它之下。

## 缩放点积注意力

# en: de74383000b4864d
attention-label-output-three-words = 注意力输出（三个词）
# en: 9304f04727ae172b
attention-label-weights-three-words = 注意力权重（三个词）
# en: 22e6f8048b35fb7d
attention-label-journey-weights = 查询 x² 的权重
# en: d736cd70471df9a6
attention-label-journey-context = 上下文向量 z²
# en: 9790d7a677301836
attention-label-output-d-k-16 = 注意力输出（d_k = 16）
# en: cc3bd0d4bf3d4522
attention-label-weights-shape = 3 个查询、5 个键的注意力权重
# en: efdd69455568062a
attention-label-weights = 注意力权重
# en: d0e351e5737778fc
cross-attention-label-output = 输出：每个查询一行，每个值特征一列
# en: 53e250b8d290172c
cross-attention-label-weights = 权重：每个查询一行，每个键一列
# en: 3e1082744a620e08
causal-future-weight = 因果掩码下的权重 [{ $i }, { $j }] 是 { $weight }，但位置 { $i } 完全不能看到位置 { $j }。可能的原因：用一个很大的有限数做掩码，或者在 softmax 之后才做掩码；应在 softmax 之前用 −∞ 对分数做掩码。
# en: e2d830c0bcb8482e
causal-label-weights = 因果掩码下的权重
# en: 76d2da9f91f91208
causal-weights-hint = 权重是在 softmax 之后才置零的，这样各行的和不再是 1：应改为在 softmax 之前用 −∞ 对分数做掩码（或者 softmax 是按列而不是按行归一化的）
# en: 78ad965de9438f9c
causal-label-first-output = 因果掩码下位置 0 的输出
# en: fdbd6ef959bac8d7
masking-label-weights = 掩码后的注意力权重
# en: bb49c6f8cd1250c5
padding-label-output = 改变一个填充键的值之后的输出
# en: 4b0b0692e7f0e4c3
fully-masked-hint = 所有键都被屏蔽的查询，其分数全是 −∞；它的 softmax 必须给出全零的权重（而不是 0/0 = NaN）
# en: 2db060200bf97846
fully-masked-label-weights = 有一个查询被完全掩码时的权重
# en: de1cce96f396f63e
fully-masked-label-output = 有一个查询被完全掩码时的输出
# en: 4105e41feed91a03
fully-masked-finite-cause = 掩码用的是像 −1e9 这样很大的有限数，而不是 −∞：于是所有键都被屏蔽的查询会平均地看待所有键，返回各个值的平均；应该用 −∞ 做掩码，并让全是 −∞ 的行得到全零的权重
# en: e87b7316fb0c2548
fully-masked-label-query-output = 被完全掩码的查询的输出
# en: eee0d713577fbbac
huge-scores-hint = 10⁴/√2 量级的分数会让 exp 上溢：先减去每一行的最大值
# en: 5cfc4877ed5f09be
huge-scores-label-weights = 分数接近 10⁴ 时的权重
# en: 75f9cb4739ee8a42
huge-scores-label-output = 分数接近 10⁴ 时的输出
# en: bb2274a0c9f8d362
peaked-query-label = 查询 50 × k₂ 的输出（应当复制 v₂）
# en: 97dd4e1856bd2daf
query-between-keys-label = 查询 50 × (k₀ + k₃) 的输出（应当是 v₀ 与 v₃ 的平均）
# en: 0b23f38444b3aab2
library-best-book = 查询 [4, 0, 0] 应当给“深度学习”那本书（键 0）最大的权重；实际权重是 { $weights }。可能的原因：分数必须是 查询 · 键，每个键一个。
# en: cd7a42114c543d3b
library-mostly-content = 答案应当主要是“深度学习”那本书的内容；实际得到 { $output }
# en: 003ab33e9d407232
attention-backward-d-v-hint = 输出是 W V，所以 dV = Wᵀ dO（权重的转置）
# en: 50f16b996cad3f4f
attention-backward-d-q-hint = dQ = dS K 再乘以 1/√d_k，其中 dS 是 dW = dO Vᵀ 经过 softmax 反向传播的结果
# en: 0637f1506b6914e4
attention-backward-d-k-hint = dK = dSᵀ Q：分数是 Q Kᵀ，所以 K 的梯度用的是 dS 的转置

## Linear 层与一个自注意力头

# en: 70de84b9bf360ca9
linear-label-square-weight = 权重为方阵时的 Linear::forward
# en: 4563cb0fc41b1f1e
linear-label-d-x = Linear 的 d_x
# en: b58f324ad2c211cf
linear-d-x-hint = dx = dY W（不是 Wᵀ）
# en: 852569b79ed1c3d8
linear-label-d-weight = Linear 的 d_weight
# en: e5b63fbe8fe33868
linear-label-d-bias = Linear 的 d_bias
# en: ca18efa0f58436d1
linear-d-bias-hint = 偏置加到了每一行上，所以 d_bias 是 dY 按行求和（`sum_axis(Axis(0))`），每个输出特征一个元素
# en: f48ac3d3f5b4d3cd
head-swapped-cause = 查询和键弄反了（W_q 和 W_k 混淆了）
# en: 208a9ab51d9b906a
head-label-weights = 注意力头的权重
# en: 5134aeb7900857ee
head-label-output = 注意力头的输出
# en: 92431684e3cb299b
head-path-query = 查询
# en: b57484feeaaec1fb
head-path-key = 键
# en: 379d58e5a2d98a0b
head-path-value = 值
# en: c43bb4160b6ca2f0
head-d-x-path-missing-hint = 你的 d_x 只是另外两条路径之和：缺了{ $path }路径（{ $name } 的 d_x）。x 同时进入查询、键和值三个投影，所以它的梯度是三者之和
# en: 4bc5177fe67703b5
head-d-x-hint = x 同时进入查询、键和值三个投影：它的梯度是三者之和
# en: 41388db9aac4e23c
head-label-d-x = 注意力头的 d_x
# en: dc325bef96930e0c
head-label-path-d-x = 注意力头：{ $name } 的 d_x（{ $path }路径在 d_x 中所占的部分）
# en: 73e2be336f75ff62
head-path-d-x-hint = 每个投影的 d_x 就是它自己的输入收到的梯度：查询路径是 dQ W_q，键路径是 dK W_k，值路径是 dV W_v
# en: 1c61808f90b29f34
head-label-d-parameter = 注意力头的 d_{ $name }
# en: 34804763c2e37eeb
head-d-weight-hint = 把 dQ、dK、dV 分别送回各自的投影
# en: 8d56c621dc199bb4
head-d-bias-hint = 一个投影的偏置梯度是它的 dQ（或 dV）按行求和
# en: 98f7554e7ee099c9
head-d-b-k-not-zero = 对任何输入，注意力头的 d_b_k 都应为 0（在舍入误差以内），实际得到 { $got }。给每个键加上向量 b，会给第 i 行的每个分数加上 q_i · b，而 softmax 不受一行整体加上一个常数的影响，所以损失与 b_k 无关。可能的原因：d_b_k 必须是 dK 按行求和；由于 dK = dSᵀ Q，而 dS 的每一行之和都是 0，这些和都是 0。检查 dK 和键投影的反向传播。
