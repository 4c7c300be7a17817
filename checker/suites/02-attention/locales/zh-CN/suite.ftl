# 第 02 课（注意力）评分测试的消息：失败的测试这样说。
# 参数已经格式化好（数字、矩阵）；标签说出被检查的值，提示给出可能的原因。

## Softmax

softmax-label-shape = 一个 (4, 5) 矩阵的 softmax_rows
softmax-label-huge-scores = 分数接近 ±10⁴ 时的 softmax_rows
softmax-huge-scores-hint = exp(10000) 会上溢为无穷大：取指数之前先减去每一行的最大值
softmax-label-fully-masked-row = 有一整行被屏蔽时的 softmax_rows
softmax-fully-masked-row-hint = 一行全是 −∞ 时，其最大值是 −∞，而 −∞ − (−∞) 是 NaN：这样的行应改为给出全零的权重
softmax-label-minus-infinity = 有 −∞ 分数时的 softmax_rows
softmax-backward-hint = 每一行的雅可比矩阵是 diag(w) − w wᵀ，所以 dS = W ⊙ (dW − rowsum(W ⊙ dW))；检查行和是否逐行求出，并在该行上广播回去（如果 softmax_rows 也没通过它的测试，先修好它：数值梯度是用它算出来的。）

## 掩码

causal-mask-hint = 第 i 行是查询 i，第 j 列是键 j：查询 i 可以关注键 j ≤ i（它自己和过去的位置）；上三角的掩码（j ≥ i）会让各位置看到未来
causal-mask-empty = causal_mask(0) 应该是一个空的 (0, 0) 掩码
padding-mask-hint = 掩码中每个查询占一行、每个键占一列；第 j 列是 key_is_token[j]，对每个查询都一样
apply-mask-mismatch =
    apply_mask 应该给出
    { $expected }
    实际得到
    { $got }
    可能的原因：掩码中的 `true` 表示“可以关注”（保留分数）；`false` 表示 −∞。像 −1e9 这样很大的负数并不是 −∞：分数可能漂移到它之下。

## 缩放点积注意力

attention-label-output-three-words = 注意力输出（三个词）
attention-label-weights-three-words = 注意力权重（三个词）
attention-label-journey-weights = 查询 x² 的权重
attention-label-journey-context = 上下文向量 z²
attention-label-output-d-k-16 = 注意力输出（d_k = 16）
attention-label-weights-shape = 3 个查询、5 个键的注意力权重
attention-label-weights = 注意力权重
cross-attention-label-output = 输出：每个查询一行，每个值特征一列
cross-attention-label-weights = 权重：每个查询一行，每个键一列
causal-future-weight = 因果掩码下的权重 [{ $i }, { $j }] 是 { $weight }，但位置 { $i } 完全不能看到位置 { $j }。可能的原因：用一个很大的有限数做掩码，或者在 softmax 之后才做掩码；应在 softmax 之前用 −∞ 对分数做掩码。
causal-label-weights = 因果掩码下的权重
causal-weights-hint = 权重是在 softmax 之后才置零的，这样各行的和不再是 1：应改为在 softmax 之前用 −∞ 对分数做掩码（或者 softmax 是按列而不是按行归一化的）
causal-label-first-output = 因果掩码下位置 0 的输出
masking-label-weights = 掩码后的注意力权重
padding-label-output = 改变一个填充键的值之后的输出
fully-masked-hint = 所有键都被屏蔽的查询，其分数全是 −∞；它的 softmax 必须给出全零的权重（而不是 0/0 = NaN）
fully-masked-label-weights = 有一个查询被完全掩码时的权重
fully-masked-label-output = 有一个查询被完全掩码时的输出
fully-masked-finite-cause = 掩码用的是像 −1e9 这样很大的有限数，而不是 −∞：于是所有键都被屏蔽的查询会平均地看待所有键，返回各个值的平均；应该用 −∞ 做掩码，并让全是 −∞ 的行得到全零的权重
fully-masked-label-query-output = 被完全掩码的查询的输出
huge-scores-hint = 10⁴/√2 量级的分数会让 exp 上溢：先减去每一行的最大值
huge-scores-label-weights = 分数接近 10⁴ 时的权重
huge-scores-label-output = 分数接近 10⁴ 时的输出
peaked-query-label = 查询 50 × k₂ 的输出（应当复制 v₂）
query-between-keys-label = 查询 50 × (k₀ + k₃) 的输出（应当是 v₀ 与 v₃ 的平均）
library-best-book = 查询 [4, 0, 0] 应当给“深度学习”那本书（键 0）最大的权重；实际权重是 { $weights }。可能的原因：分数必须是 查询 · 键，每个键一个。
library-mostly-content = 答案应当主要是“深度学习”那本书的内容；实际得到 { $output }
attention-backward-d-v-hint = 输出是 W V，所以 dV = Wᵀ dO（权重的转置）
attention-backward-d-q-hint = dQ = dS K 再乘以 1/√d_k，其中 dS 是 dW = dO Vᵀ 经过 softmax 反向传播的结果
attention-backward-d-k-hint = dK = dSᵀ Q：分数是 Q Kᵀ，所以 K 的梯度用的是 dS 的转置

## Linear 层与一个自注意力头

linear-label-square-weight = 权重为方阵时的 Linear::forward
linear-label-d-x = Linear 的 d_x
linear-d-x-hint = dx = dY W（不是 Wᵀ）
linear-label-d-weight = Linear 的 d_weight
linear-label-d-bias = Linear 的 d_bias
linear-d-bias-hint = 偏置加到了每一行上，所以 d_bias 是 dY 按行求和（`sum_axis(Axis(0))`），每个输出特征一个元素
head-swapped-cause = 查询和键弄反了（W_q 和 W_k 混淆了）
head-label-weights = 注意力头的权重
head-label-output = 注意力头的输出
head-path-query = 查询
head-path-key = 键
head-path-value = 值
head-d-x-path-missing-hint = 你的 d_x 只是另外两条路径之和：缺了{ $path }路径（{ $name } 的 d_x）。x 同时进入查询、键和值三个投影，所以它的梯度是三者之和
head-d-x-hint = x 同时进入查询、键和值三个投影：它的梯度是三者之和
head-label-d-x = 注意力头的 d_x
head-label-path-d-x = 注意力头：{ $name } 的 d_x（{ $path }路径在 d_x 中所占的部分）
head-path-d-x-hint = 每个投影的 d_x 就是它自己的输入收到的梯度：查询路径是 dQ W_q，键路径是 dK W_k，值路径是 dV W_v
head-label-d-parameter = 注意力头的 d_{ $name }
head-d-weight-hint = 把 dQ、dK、dV 分别送回各自的投影
head-d-bias-hint = 一个投影的偏置梯度是它的 dQ（或 dV）按行求和
head-d-b-k-not-zero = 对任何输入，注意力头的 d_b_k 都应为 0（在舍入误差以内），实际得到 { $got }。给每个键加上向量 b，会给第 i 行的每个分数加上 q_i · b，而 softmax 不受一行整体加上一个常数的影响，所以损失与 b_k 无关。可能的原因：d_b_k 必须是 dK 按行求和；由于 dK = dSᵀ Q，而 dS 的每一行之和都是 0，这些和都是 0。检查 dK 和键投影的反向传播。
