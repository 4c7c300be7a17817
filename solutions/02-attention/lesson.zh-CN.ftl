### Simplified Chinese (zh-CN) text of lesson 02-attention's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-02-attention-title
###   hint-02-attention-<function, every :: written as -->-<the hint step's name>
### Each hint step is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po). Each message
### carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: 76b14a5034f53fd9
lesson-02-attention-title = 注意力

# en: 929f5e168827d143
hint-02-attention-softmax_rows-idea =
    第 i 行是查询 i 对每个键的分数，查询 i 的权重之和必须为 1：要对每一行归一化，而不是对每一列。计算要数值稳定：对每一行，找出最大的分数 m，从每个分数中减去它，取指数，再除以这一行的和（在 f64 中，exp 的自变量超过约 709.78 就会溢出；起作用的只是分数之间的差）。最大分数为 −∞ 的行没有任何可关注的键，而 −∞ − (−∞) 是 NaN：这样的行改为全部填零。
# en: b18cf855ccd7f8e7
hint-02-attention-softmax_rows-code =
    克隆 `scores`，然后循环 `for mut row in weights.rows_mut()`：`let max = row.fold(Float::NEG_INFINITY, |max, &s| max.max(s));`（f64 用不了 `Iterator::max`）；如果 `max == Float::NEG_INFINITY`，就 `row.fill(0.0)` 并 `continue`；否则 `row.mapv_inplace(|s| (s - max).exp());`、`let sum = row.sum();`、`row /= sum;`。如果改为对整个矩阵操作，每行的最大值和行和必须是 (n, 1) 的列（`insert_axis(Axis(1))`）：(n,) 向量会被当作一行来广播。

# en: 08d23097688a67ed
hint-02-attention-softmax_rows_backward-idea =
    每一行的雅可比矩阵是 diag(w) − w wᵀ，但千万不要把它构造出来：对一行来说，ds = w ⊙ (dw − (w · dw))，其中 w · dw 每行只是一个数。对所有行同时计算，dS = W ⊙ (dW − rowsum(W ⊙ dW))，形状为 (n, m)。检验方法：dS 的每一行之和都是 0，因为给一行分数都加上同一个常数，结果不会有任何变化。
# en: dce91ceab9889286
hint-02-attention-softmax_rows_backward-code =
    `let row_dots = (weights * d_weights).sum_axis(Axis(1)).insert_axis(Axis(1));` 就是由各行之和组成的 (n, 1) 列（Axis(1) 沿每一行求和；Axis(0) 则会对各列求和）；然后返回 `weights * &(d_weights - &row_dots)`。没有 `insert_axis`，(n,) 向量就会被当作一行来广播：n ≠ m 时是形状错误，而对于自注意力的方阵权重，则会悄无声息地算错。

# en: 8d421b40baf22ff3
hint-02-attention-causal_mask-idea =
    位置 i 可以关注位置 0..=i：对角线上及其下方为 `true`（包括对角线），形状为 (len, len)。`j < i` 会让每个位置看不到自己（第 0 行也就没有任何可关注的位置）；`i <= j` 是上三角，会让每个位置都看到未来。
# en: aada1f42d504df9e
hint-02-attention-causal_mask-code =
    用形状 (len, len) 和一个闭包调用 `Mask::from_shape_fn`，闭包接收下标对 `(i, j)`，返回 `j <= i`：i 是查询（行），j 是键（列）。

# en: 1d81ffb3aa68342a
hint-02-attention-padding_mask-idea =
    每个查询一行，每个键一列：形状为 (n_queries, key_is_token.len())。每一行都相同，元素 (i, j) 就是 `key_is_token[j]`：填充是作为键（一列）被屏蔽的，所以任何查询都不会从它那里取到任何东西。用 `Mask::from_shape_fn` 按这个形状构造，闭包忽略行下标，对第 j 列返回 `key_is_token[j]`。

# en: 663d99118f4ed454
hint-02-attention-apply_mask-idea =
    `true` 表示“可以关注”：这个分数原样保留。`false` 变成 `Float::NEG_INFINITY`，即真正的 −∞，而不是像 −1e9 这样绝对值很大的有限数：有限值只不过是又一个分数，真实的分数可能跌到它之下，让被屏蔽的位置反而胜出；而且整行都被屏蔽时，结果会变成均匀平均，而不是全零。掩码的形状必须与分数相同，为 (n_q, n_k)：用 `assert_eq!(scores.dim(), mask.dim(), "...")` 检查，并附上一条信息。
# en: d3176ee34c9bae1c
hint-02-attention-apply_mask-code =
    `Zip::from(scores)` 再接 `.and(mask)`，可以同时遍历两者；最后用 `.map_collect` 和一个接收 `(&score, &allowed)` 的闭包收尾：`allowed` 为 true 时返回原分数，为 false 时返回 `Float::NEG_INFINITY`。它返回的就是新的 `Matrix`。

# en: 32607cbc083a6150
hint-02-attention-scaled_dot_product_attention-idea =
    四步：分数 S = Q Kᵀ / √d_k，形状为 (n_q, n_k)，其中 d_k 是查询和键的宽度（`q.ncols()`）；如果有掩码，在 softmax 之前对分数调用 `apply_mask`（在 softmax 之后才把权重置零，各行之和就不再是 1）；W = 对它们调用 `softmax_rows` 的结果；输出 = W V，形状为 (n_q, d_v)。漏了 1/√d_k，或者除以 d_k 而不是 √d_k，评分器都会明确指出。n_q 和 n_k 可以不同（交叉注意力）。
# en: 69837338bd3e0049
hint-02-attention-scaled_dot_product_attention-code =
    分数是 `q.dot(&k.t())` 除以 `q.ncols()` 的平方根（开方之前先转换成 `Float`）。然后对 `mask` 做 `match`：为 `Some(mask)` 时，分数用这个掩码经过 `apply_mask`；为 `None` 时，分数保持不变。权重是对结果调用 `softmax_rows` 得到的，输出是 `weights.dot(v)`，把两者放进一个 `Attention` 返回。

# en: 2a42b7691338ea73
hint-02-attention-scaled_dot_product_attention_backward-idea =
    记 s = 1/√d_k，按相反的顺序撤回前向传播的各步：O = W V，然后 W = softmax_rows(A)，A = s·S + M，S = Q Kᵀ。对乘积 Y = A B，有 dA = dY Bᵀ，dB = Aᵀ dY。使用保存下来的 `weights`，不要重新计算。掩码不需要特殊处理：被屏蔽的权重为 0，所以它们的分数梯度也是 0。
# en: dae23259b15569ff
hint-02-attention-scaled_dot_product_attention_backward-details =
    dV = Wᵀ dO (n_k, d_v)；dW = dO Vᵀ (n_q, n_k)；dS = softmax_rows_backward(W, dW) · s：前向传播把分数除以了 √d_k，反向传播也要除，忘了这一步是典型的疏忽。然后 dQ = dS K (n_q, d_k)，dK = dSᵀ Q (n_k, d_k)。在自注意力中，W 和 dS 都是方阵，所以漏了转置照样能编译、能运行：要逐个核对公式，而不只是核对形状。
# en: aa2fc95fe86c7415
hint-02-attention-scaled_dot_product_attention_backward-code =
    依次计算：`scale`，即 1 除以 `q.ncols()`（转换为 `Float`）的平方根；`d_v`，`weights.t()` 用 `dot` 乘以 `d_output`；`d_weights`，`d_output` 用 `dot` 乘以 `v.t()`；`d_scores`，对 `weights` 和 `&d_weights` 调用 `softmax_rows_backward`，再乘以 `scale`；`d_q`，`d_scores` 用 `dot` 乘以 `k`；`d_k`，`d_scores.t()` 用 `dot` 乘以 `q`；最后把三者放进一个 `AttentionGrads` 返回。（这里的 `d_k` 是 ∂L/∂K，不是宽度。）

# en: 0beac042d79abcd5
hint-02-attention-Linear--forward-idea =
    y = x Wᵀ + b：x 是 (n, d_in)，权重是 (d_out, d_in)，和 PyTorch 一样每个输出特征占一行，y 是 (n, d_out)。`x.dot(&self.weight)` 把权重当成了 (d_in, d_out)：权重不是方阵时会出现形状错误，是方阵时则会悄无声息地算错。偏置加到每一行上。
# en: 193b1dc03d8f1681
hint-02-attention-Linear--forward-code =
    `x.dot(&self.weight.t()) + &self.bias`：把 `Vector` 加到 `Matrix` 上，会沿各行广播。

# en: 7593c099917550ab
hint-02-attention-Linear--backward-idea =
    对 Y = X Wᵀ + b 套用矩阵乘积的求导规则，和 RNN 的一步一样：dX = dY W，形状为 (n, d_in)，不转置（转置在前向传播里）；dW = dYᵀ X，形状为 (d_out, d_in)，与权重相同（Xᵀ dY 是它的转置）；db = dY 对各行求和，形状为 (d_out,)，因为偏置加到了每一行上。拿 `///` 契约逐一核对每个形状。
# en: 98c640a9c09886a6
hint-02-attention-Linear--backward-code =
    `LinearGrads {"{"} d_x: d_y.dot(&self.weight), d_weight: d_y.t().dot(x), d_bias: d_y.sum_axis(Axis(0)) {"}"}`。

# en: b27bce38a60f9cbb
hint-02-attention-SelfAttentionHead--forward-idea =
    自注意力：查询、键和值都来自同一个 x (n, d_model)，各自经过自己的投影：Q = x W_qᵀ + b_q (n, d_k)，K = x W_kᵀ + b_k (n, d_k)，V = x W_vᵀ + b_v (n, d_v)。然后用给定的掩码计算注意力，并保留 Q、K 和 V：反向传播需要它们。把 W_q 和 W_k 弄混，评分器会明确指出。
# en: a5d2702fb47ef6d9
hint-02-attention-SelfAttentionHead--forward-code =
    `q` 是对 `x` 调用 `self.w_q.forward` 的结果，`k` 和 `v` 同理，分别用 `w_k` 和 `w_v`；`attention` 是以这三者（按 q、k、v 的顺序）调用 `scaled_dot_product_attention` 的结果，`mask` 原样传下去；返回一个装有 `q`、`k`、`v` 和 `attention` 的 `HeadForward`。

# en: 11b7451a2ec2f757
hint-02-attention-SelfAttentionHead--backward-idea =
    把各部分倒着串起来。注意力的反向传播利用保存下来的 `forward.q`、`forward.k`、`forward.v` 和 `forward.attention.weights`，给出 dQ、dK 和 dV；它们各自再经过自己的投影传回去，这些投影的输入都是 x。x 同时供给三者，所以它的梯度是三者之和：dX = dQ W_q + dK W_k + dV W_v。只返回三者之一，或者用覆盖代替累加，是典型错误。
# en: d636681ea34d431d
hint-02-attention-SelfAttentionHead--backward-code =
    `grads` 是以 `&forward.q`、`&forward.k`、`&forward.v`、`&forward.attention.weights` 和 `d_output` 调用 `scaled_dot_product_attention_backward` 的结果。然后 `w_q` 是以 `x` 和 `&grads.d_q` 调用 `self.w_q.backward` 的结果（`w_k` 用 `grads.d_k`，`w_v` 用 `grads.d_v`）；`d_x` 是它们三个 `d_x` 字段之和；返回一个包含 `d_x` 和三个 `LinearGrads` 的 `HeadGrads`。检验方法：键偏置的梯度在舍入误差范围内为 0，因为 dS 的每一行之和都是 0。
