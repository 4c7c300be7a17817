### Simplified Chinese (zh-CN) text of the lesson titles and hints in course.toml,
### which keeps the English. The checker shows these when a learner asks for Chinese.
###
### Message ids:
###   lesson-<lesson id>-title
###   hint-<lesson id>-<function, every :: written as -->-<level, counted from 1>
### Each hint level is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po).

## 01-rnn-bottleneck: The RNN bottleneck

# en: 94895167f883ce89
lesson-01-rnn-bottleneck-title = RNN 的瓶颈

# en: 6fb019a404b778dc
hint-01-rnn-bottleneck-Rnn--step-1 =
    一步就是 h' = tanh(x W_xhᵀ + h W_hhᵀ + b)，一次处理 n 行：x 是 (n, d_in)，h 是 (n, d_hidden)，h' 是 (n, d_hidden)。权重按 (d_out, d_in) 存储，每个隐藏单元占一行，所以两个乘积中的权重都要转置。W_hh 是方阵，所以忘了转置它照样能编译、能运行，算出来的却是另一回事：在本章手算的例子中，z 必须是 [0.5, 0.5]；不转置 W_hh，得到的是 [0.5, −1.5]。
# en: 1498b18448262671
hint-01-rnn-bottleneck-Rnn--step-2 =
    `let z = x.dot(&self.w_xh.t()) + h.dot(&self.w_hh.t()) + &self.b;`（把 `Vector` 加到 `Matrix` 上，会加到每一行），然后返回 `z.mapv(Float::tanh)`。漏了偏置、漏了 tanh、漏了 `h` 项，评分器都会明确指出。

# en: 07ed170eac8d2db5
hint-01-rnn-bottleneck-Rnn--step_backward-1 =
    把这一步倒着走一遍：先过 tanh，再过两个线性映射。tanh'(z) = 1 − tanh²(z) = 1 − h'²，所以导数由这一步的输出 `h_next` 求得（它已经作为参数给了你），而不是由 z 求得（1 − z²），也不是由上一个状态 `h` 求得。逐元素地，dz = dh' ⊙ (1 − h'²)，形状为 (n, d_hidden)。
# en: e48e773877d80a4e
hint-01-rnn-bottleneck-Rnn--step_backward-2 =
    乘积部分按 Y = A B 的规则来（dA = dY Bᵀ，dB = Aᵀ dY）：前向传播乘的是 W_xhᵀ 和 W_hhᵀ，所以反向传播乘的是 W_xh 和 W_hh 本身：dx = dz W_xh (n, d_in)，dh = dz W_hh (n, d_hidden)。每个权重的梯度都与该权重形状相同：dW_xh = dzᵀ x (d_hidden, d_in)，dW_hh = dzᵀ h (d_hidden, d_hidden)，其中 h 是上一个状态，不是 h'。hᵀ dz 形状相同，却是它的转置：W_hh 是方阵，所以除了评分器，谁也发现不了。db = Σ_rows dz。
# en: 35c50aa4447df3af
hint-01-rnn-bottleneck-Rnn--step_backward-3 =
    `let d_z = d_h_next * &h_next.mapv(|v| 1.0 - v * v);`，然后 `StepGrads {"{"} d_x: d_z.dot(&self.w_xh), d_h: d_z.dot(&self.w_hh), d_w_xh: d_z.t().dot(x), d_w_hh: d_z.t().dot(h), d_b: d_z.sum_axis(Axis(0)) {"}"}`。

# en: 210dd4fddbb4589c
hint-01-rnn-bottleneck-Rnn--forward-1 =
    `forward` 是一个遍历 `xs` 各行、一路携带状态的循环：每一步都从上一步返回的状态出发，而不是每次都从 h0 出发。结果的形状为 (T, d_hidden)，第 t 行是读入词元 t 之后的状态：h0 不是其中的一行，所以各个状态不能错开一位。空序列得到 (0, d_hidden)：先建一个这个形状的零矩阵，循环一次也不执行，结果自然就对了。
# en: fc7f79afab9f5f00
hint-01-rnn-bottleneck-Rnn--forward-2 =
    先建一个可变的 `states`，即形状为 (`xs.nrows()`, `self.d_hidden()`) 的 `Matrix::zeros`，再建一个可变的 `h`，即 `as_row(h0)`，一个 (1, d_hidden) 矩阵。然后对 `t in 0..xs.nrows()`：把 `h` 换成以 `row(xs, t)` 和当前的 `h` 调用 `self.step` 的结果，再把新状态复制到 `states` 的第 t 行：先 `states.row_mut(t)`，再用 `h` 唯一的一行 `h.row(0)` 调用 `.assign`。返回 `states`。

# en: e5f2dfc826193583
hint-01-rnn-bottleneck-Rnn--backward-1 =
    随时间反向传播让 t 从 T − 1 一路走到 0（`for t in (0..len).rev()`），携带一个形状为 (1, d_hidden)、初始为零的梯度 `d_h`。每一步先把 `d_states` 的第 t 行加到它上面：到达状态 t 的梯度，是它自己的上游梯度加上后面各步传回来的梯度。要累加，不要替换；并且要用到 `d_states` 的每一行，而不只是最后一行：损失可以读取任何一个状态。
# en: 1aaddc2b98fdbc33
hint-01-rnn-bottleneck-Rnn--backward-2 =
    第 t 步读入的是词元 t 和上一个状态：t = 0 时上一个状态是 `as_row(h0)`，否则是 `row(states, t - 1)`；这一步的输出是 `row(states, t)`。所以调用 `self.step_backward(&row(xs, t), &h_prev, &row(states, t), &d_h)`。每一步用的都是同一组权重，所以它们的梯度是各步之和：从零开始（形状与各权重相同），把每一步的那一份累加（`+=`）上去。如果用覆盖，就只剩下第 0 步的那一份，也就是最后访问的那一步。
# en: a083d14abc71db49
hint-01-rnn-bottleneck-Rnn--backward-3 =
    循环之前，建一个全零的可变 `RnnGrads`：`Matrix::zeros(xs.dim())`、`Matrix::zeros(self.w_xh.dim())`、`Vector::zeros(d_hidden)`……循环之中：用 `+=` 把 `row(d_states, t)` 加进 `d_h`，调用 `step_backward`，把 `step.d_x.row(0)` 复制到 `grads.d_xs` 的第 t 行（先 `row_mut(t)`，再 `.assign`），用 `+=` 把 `step.d_w_xh` 加进 `grads.d_w_xh`（`d_w_hh` 和 `d_b` 同理），然后把 `step.d_h` 移入 `d_h`。循环之后，`grads.d_h0` 是 `d_h` 唯一的一行 `.row(0)`，再用 `.to_owned()` 转成自有的数据。

# en: 7ca0f067a795f651
hint-01-rnn-bottleneck-Rnn--encode-1 =
    上下文向量是编码器的最后一个状态 h_T：`forward` 所返回状态的最后一行，不是第一行，也不是各行的平均。没有词元时就一行也没有，这时上下文就是第一个词元之前的状态 h0。
# en: 09dacfc0a2d0e236
hint-01-rnn-bottleneck-Rnn--encode-2 =
    `let states = self.forward(xs, h0);`，然后 `match states.nrows() {"{"} 0 => h0.clone(), len => states.row(len - 1).to_owned() {"}"}`。

## 02-attention: Attention

# en: 76b14a5034f53fd9
lesson-02-attention-title = 注意力

# en: 929f5e168827d143
hint-02-attention-softmax_rows-1 =
    第 i 行是查询 i 对每个键的分数，查询 i 的权重之和必须为 1：要对每一行归一化，而不是对每一列。计算要数值稳定：对每一行，找出最大的分数 m，从每个分数中减去它，取指数，再除以这一行的和（在 f64 中，exp 的自变量超过约 709.78 就会溢出；起作用的只是分数之间的差）。最大分数为 −∞ 的行没有任何可关注的键，而 −∞ − (−∞) 是 NaN：这样的行改为全部填零。
# en: b18cf855ccd7f8e7
hint-02-attention-softmax_rows-2 =
    克隆 `scores`，然后循环 `for mut row in weights.rows_mut()`：`let max = row.fold(Float::NEG_INFINITY, |max, &s| max.max(s));`（f64 用不了 `Iterator::max`）；如果 `max == Float::NEG_INFINITY`，就 `row.fill(0.0)` 并 `continue`；否则 `row.mapv_inplace(|s| (s - max).exp());`、`let sum = row.sum();`、`row /= sum;`。如果改为对整个矩阵操作，每行的最大值和行和必须是 (n, 1) 的列（`insert_axis(Axis(1))`）：(n,) 向量会被当作一行来广播。

# en: 08d23097688a67ed
hint-02-attention-softmax_rows_backward-1 =
    每一行的雅可比矩阵是 diag(w) − w wᵀ，但千万不要把它构造出来：对一行来说，ds = w ⊙ (dw − (w · dw))，其中 w · dw 每行只是一个数。对所有行同时计算，dS = W ⊙ (dW − rowsum(W ⊙ dW))，形状为 (n, m)。检验方法：dS 的每一行之和都是 0，因为给一行分数都加上同一个常数，结果不会有任何变化。
# en: dce91ceab9889286
hint-02-attention-softmax_rows_backward-2 =
    `let row_dots = (weights * d_weights).sum_axis(Axis(1)).insert_axis(Axis(1));` 就是由各行之和组成的 (n, 1) 列（Axis(1) 沿每一行求和；Axis(0) 则会对各列求和）；然后返回 `weights * &(d_weights - &row_dots)`。没有 `insert_axis`，(n,) 向量就会被当作一行来广播：n ≠ m 时是形状错误，而对于自注意力的方阵权重，则会悄无声息地算错。

# en: 8d421b40baf22ff3
hint-02-attention-causal_mask-1 =
    位置 i 可以关注位置 0..=i：对角线上及其下方为 `true`（包括对角线），形状为 (len, len)。`j < i` 会让每个位置看不到自己（第 0 行也就没有任何可关注的位置）；`i <= j` 是上三角，会让每个位置都看到未来。
# en: aada1f42d504df9e
hint-02-attention-causal_mask-2 =
    用形状 (len, len) 和一个闭包调用 `Mask::from_shape_fn`，闭包接收下标对 `(i, j)`，返回 `j <= i`：i 是查询（行），j 是键（列）。

# en: 1d81ffb3aa68342a
hint-02-attention-padding_mask-1 =
    每个查询一行，每个键一列：形状为 (n_queries, key_is_token.len())。每一行都相同，元素 (i, j) 就是 `key_is_token[j]`：填充是作为键（一列）被屏蔽的，所以任何查询都不会从它那里取到任何东西。用 `Mask::from_shape_fn` 按这个形状构造，闭包忽略行下标，对第 j 列返回 `key_is_token[j]`。

# en: 663d99118f4ed454
hint-02-attention-apply_mask-1 =
    `true` 表示“可以关注”：这个分数原样保留。`false` 变成 `Float::NEG_INFINITY`，即真正的 −∞，而不是像 −1e9 这样绝对值很大的有限数：有限值只不过是又一个分数，真实的分数可能跌到它之下，让被屏蔽的位置反而胜出；而且整行都被屏蔽时，结果会变成均匀平均，而不是全零。掩码的形状必须与分数相同，为 (n_q, n_k)：用 `assert_eq!(scores.dim(), mask.dim(), "...")` 检查，并附上一条信息。
# en: d3176ee34c9bae1c
hint-02-attention-apply_mask-2 =
    `Zip::from(scores)` 再接 `.and(mask)`，可以同时遍历两者；最后用 `.map_collect` 和一个接收 `(&score, &allowed)` 的闭包收尾：`allowed` 为 true 时返回原分数，为 false 时返回 `Float::NEG_INFINITY`。它返回的就是新的 `Matrix`。

# en: 32607cbc083a6150
hint-02-attention-scaled_dot_product_attention-1 =
    四步：分数 S = Q Kᵀ / √d_k，形状为 (n_q, n_k)，其中 d_k 是查询和键的宽度（`q.ncols()`）；如果有掩码，在 softmax 之前对分数调用 `apply_mask`（在 softmax 之后才把权重置零，各行之和就不再是 1）；W = 对它们调用 `softmax_rows` 的结果；输出 = W V，形状为 (n_q, d_v)。漏了 1/√d_k，或者除以 d_k 而不是 √d_k，评分器都会明确指出。n_q 和 n_k 可以不同（交叉注意力）。
# en: 69837338bd3e0049
hint-02-attention-scaled_dot_product_attention-2 =
    分数是 `q.dot(&k.t())` 除以 `q.ncols()` 的平方根（开方之前先转换成 `Float`）。然后对 `mask` 做 `match`：为 `Some(mask)` 时，分数用这个掩码经过 `apply_mask`；为 `None` 时，分数保持不变。权重是对结果调用 `softmax_rows` 得到的，输出是 `weights.dot(v)`，把两者放进一个 `Attention` 返回。

# en: 2a42b7691338ea73
hint-02-attention-scaled_dot_product_attention_backward-1 =
    记 s = 1/√d_k，按相反的顺序撤回前向传播的各步：O = W V，然后 W = softmax_rows(A)，A = s·S + M，S = Q Kᵀ。对乘积 Y = A B，有 dA = dY Bᵀ，dB = Aᵀ dY。使用保存下来的 `weights`，不要重新计算。掩码不需要特殊处理：被屏蔽的权重为 0，所以它们的分数梯度也是 0。
# en: dae23259b15569ff
hint-02-attention-scaled_dot_product_attention_backward-2 =
    dV = Wᵀ dO (n_k, d_v)；dW = dO Vᵀ (n_q, n_k)；dS = softmax_rows_backward(W, dW) · s：前向传播把分数除以了 √d_k，反向传播也要除，忘了这一步是典型的疏忽。然后 dQ = dS K (n_q, d_k)，dK = dSᵀ Q (n_k, d_k)。在自注意力中，W 和 dS 都是方阵，所以漏了转置照样能编译、能运行：要逐个核对公式，而不只是核对形状。
# en: aa2fc95fe86c7415
hint-02-attention-scaled_dot_product_attention_backward-3 =
    依次计算：`scale`，即 1 除以 `q.ncols()`（转换为 `Float`）的平方根；`d_v`，`weights.t()` 用 `dot` 乘以 `d_output`；`d_weights`，`d_output` 用 `dot` 乘以 `v.t()`；`d_scores`，对 `weights` 和 `&d_weights` 调用 `softmax_rows_backward`，再乘以 `scale`；`d_q`，`d_scores` 用 `dot` 乘以 `k`；`d_k`，`d_scores.t()` 用 `dot` 乘以 `q`；最后把三者放进一个 `AttentionGrads` 返回。（这里的 `d_k` 是 ∂L/∂K，不是宽度。）

# en: 0beac042d79abcd5
hint-02-attention-Linear--forward-1 =
    y = x Wᵀ + b：x 是 (n, d_in)，权重是 (d_out, d_in)，和 PyTorch 一样每个输出特征占一行，y 是 (n, d_out)。`x.dot(&self.weight)` 把权重当成了 (d_in, d_out)：权重不是方阵时会出现形状错误，是方阵时则会悄无声息地算错。偏置加到每一行上。
# en: 193b1dc03d8f1681
hint-02-attention-Linear--forward-2 =
    `x.dot(&self.weight.t()) + &self.bias`：把 `Vector` 加到 `Matrix` 上，会沿各行广播。

# en: 7593c099917550ab
hint-02-attention-Linear--backward-1 =
    对 Y = X Wᵀ + b 套用矩阵乘积的求导规则，和 RNN 的一步一样：dX = dY W，形状为 (n, d_in)，不转置（转置在前向传播里）；dW = dYᵀ X，形状为 (d_out, d_in)，与权重相同（Xᵀ dY 是它的转置）；db = dY 对各行求和，形状为 (d_out,)，因为偏置加到了每一行上。拿 `///` 契约逐一核对每个形状。
# en: 98c640a9c09886a6
hint-02-attention-Linear--backward-2 =
    `LinearGrads {"{"} d_x: d_y.dot(&self.weight), d_weight: d_y.t().dot(x), d_bias: d_y.sum_axis(Axis(0)) {"}"}`。

# en: b27bce38a60f9cbb
hint-02-attention-SelfAttentionHead--forward-1 =
    自注意力：查询、键和值都来自同一个 x (n, d_model)，各自经过自己的投影：Q = x W_qᵀ + b_q (n, d_k)，K = x W_kᵀ + b_k (n, d_k)，V = x W_vᵀ + b_v (n, d_v)。然后用给定的掩码计算注意力，并保留 Q、K 和 V：反向传播需要它们。把 W_q 和 W_k 弄混，评分器会明确指出。
# en: a5d2702fb47ef6d9
hint-02-attention-SelfAttentionHead--forward-2 =
    `q` 是对 `x` 调用 `self.w_q.forward` 的结果，`k` 和 `v` 同理，分别用 `w_k` 和 `w_v`；`attention` 是以这三者（按 q、k、v 的顺序）调用 `scaled_dot_product_attention` 的结果，`mask` 原样传下去；返回一个装有 `q`、`k`、`v` 和 `attention` 的 `HeadForward`。

# en: 11b7451a2ec2f757
hint-02-attention-SelfAttentionHead--backward-1 =
    把各部分倒着串起来。注意力的反向传播利用保存下来的 `forward.q`、`forward.k`、`forward.v` 和 `forward.attention.weights`，给出 dQ、dK 和 dV；它们各自再经过自己的投影传回去，这些投影的输入都是 x。x 同时供给三者，所以它的梯度是三者之和：dX = dQ W_q + dK W_k + dV W_v。只返回三者之一，或者用覆盖代替累加，是典型错误。
# en: d636681ea34d431d
hint-02-attention-SelfAttentionHead--backward-2 =
    `grads` 是以 `&forward.q`、`&forward.k`、`&forward.v`、`&forward.attention.weights` 和 `d_output` 调用 `scaled_dot_product_attention_backward` 的结果。然后 `w_q` 是以 `x` 和 `&grads.d_q` 调用 `self.w_q.backward` 的结果（`w_k` 用 `grads.d_k`，`w_v` 用 `grads.d_v`）；`d_x` 是它们三个 `d_x` 字段之和；返回一个包含 `d_x` 和三个 `LinearGrads` 的 `HeadGrads`。检验方法：键偏置的梯度在舍入误差范围内为 0，因为 dS 的每一行之和都是 0。

## 03-multi-head-attention: Multi-head attention

# en: 767e1191da094735
lesson-03-multi-head-attention-title = 多头注意力

# en: 7a14dbb43d6cd842
hint-03-multi-head-attention-split_heads-1 =
    `split_heads` 只移动列：头 i 占有连续的一块列 i·d_k .. (i+1)·d_k，其中 d_k = d_model / n_heads（`x.ncols() / n_heads`）；行（每个词元一行）始终不变。不是交错的列 i, i + h, i + 2h, ...：那样往返测试照样能通过，但每个头拥有的会是 W_q 中错误的行。先用 `assert!` 检查 `n_heads > 0` 且它能整除 `x.ncols()`，并附上信息。
# en: a87e1e16651f705b
hint-03-multi-head-attention-split_heads-2 =
    `(0..n_heads).map(|i| x.slice(s![.., i * d_k..(i + 1) * d_k]).to_owned())`，然后 `.collect()`：`..` 保留所有行，`.to_owned()` 把每个视图变成自有的 `Matrix`，头 0 在最前。

# en: 16342d39e9363824
hint-03-multi-head-attention-merge_heads-1 =
    `merge_heads` 是 `split_heads` 的逆操作，也就是论文中的 Concat：把各个头沿列方向并排拼在一起，头 0 在最前，得到 (n, n_heads·d_k)。如果改为沿行方向（`Axis(0)`）拼接，就会把各个头当成额外的词元堆叠起来，得到 (n_heads·n, d_k)。如果 `heads` 为空或各头形状不同，就带着信息 panic。
# en: c4074c83f6d614f8
hint-03-multi-head-attention-merge_heads-2 =
    为每个头收集一个视图：`let views: Vec<_> = heads.iter().map(|h| h.view()).collect();`，然后 `concatenate(Axis(1), &views)`；Axis(1) 就是列。它返回一个 `Result`，所以在你自己检查过形状之后，用 `.expect(...)` 收尾。`merge_heads(&split_heads(&x, h))` 必须还原出 x。

# en: 9bc1dfc5647e7bb2
hint-03-multi-head-attention-MultiHeadAttention--forward-1 =
    四步，与契约中一致：投影，拆分成多个头，逐头计算注意力，合并后再用 `w_o` 投影。Q 由 `query_input` 经 `w_q` 得到；K 和 V 都来自 `key_value_input`，分别经过 `w_k` 和 `w_v`（正因如此，交叉注意力才能有 n_q ≠ n_k）。不要自己另加缩放：第 02 课的注意力已经把每个头的分数除以了 √d_k，这里的 d_k 是头的宽度，不是 d_model。
# en: 5eed982b66005c1b
hint-03-multi-head-attention-MultiHeadAttention--forward-2 =
    `let q = split_heads(&self.w_q.forward(query_input), self.n_heads);`，k 和 v 也同样由 `key_value_input` 得到。然后对每个头 i 调用第 02 课的 `scaled_dot_product_attention(&q[i], &k[i], &v[i], mask)`，每个头用同一个 `mask`（`Option<&Mask>` 是 `Copy` 的：原样传入即可）；把它的 `output` 推入一个 Vec，把 `weights` 推入另一个。
# en: f1dbdcf952d0c165
hint-03-multi-head-attention-MultiHeadAttention--forward-3 =
    `let concat = merge_heads(&outputs);` 和 `let output = self.w_o.forward(&concat);`，然后返回 `MultiHeadForward {"{"} output, weights, q, k, v, concat {"}"}`，其中 q、k 和 v 是按头存放的 Vec：反向传播需要每个头的 Q_i、K_i、V_i，以及 `w_o` 的输入 `concat`。

# en: 4663635d81bc156d
hint-03-multi-head-attention-MultiHeadAttention--parameter_count-1 =
    对四个投影 `w_q`、`w_k`、`w_v` 和 `w_o` 把 `weight.len() + bias.len()` 加起来（例如建一个指向这四者的引用数组，然后 `.iter()`，用 `.map(..)` 得到各自的参数个数，再 `.sum()`）：结果是 4·d_model² + 4·d_model，与头数无关。头越多，每个头越窄，权重并不会变多，所以没有哪一项要乘以 `n_heads`。

# en: 1175a29433183569
hint-03-multi-head-attention-MultiHeadAttention--backward-1 =
    把前向传播的各步倒过来执行；每一步的反向传播你都已经有了。拼接的反向是拆分，拆分的反向是拼接。`key_value_input` 供给两个投影 `w_k` 和 `w_v`，所以它的梯度是两条路径之和：漏掉其中一条（通常是值的那条）是典型错误。掩码不需要特殊处理：被屏蔽的权重为 0，不会传回任何梯度。
# en: 65ad8bc95a597c76
hint-03-multi-head-attention-MultiHeadAttention--backward-2 =
    从输出往回走：`w_o` 是以 `&forward.concat`（w_o 的输入是 `concat`）和 `d_output` 调用 `self.w_o.backward` 的结果；用 `split_heads` 把 `w_o.d_x` 拆成 `self.n_heads` 个头，就得到每个头的上游梯度 dO_i，形状为 (n_q, d_k)。对头 i，用该头保存的 `forward.q[i]`、`forward.k[i]`、`forward.v[i]`、`forward.weights[i]` 以及它的 dO_i 调用第 02 课的 `scaled_dot_product_attention_backward`，得到它的 `d_q`、`d_k` 和 `d_v`：每一种各收集到自己的 Vec 中。
# en: 426ca3da50a0aaa0
hint-03-multi-head-attention-MultiHeadAttention--backward-3 =
    用 `merge_heads` 把每一种合并回完整宽度，再连同相应投影的输入，送过它自己的投影：`self.w_q.backward(query_input, &dq)`、`self.w_k.backward(key_value_input, &dk)`、`self.w_v.backward(key_value_input, &dv)`。`d_query_input` 是 w_q 的 `d_x`；`d_key_value_input` 是 `&w_k.d_x + &w_v.d_x`；四个 `LinearGrads` 都要保留。w_k 的 `d_bias` 在舍入误差范围内为 0：这是对的。

## 04-positional-encoding: Positional encoding

# en: 4b2c388b8bfb1450
lesson-04-positional-encoding-title = 位置编码

# en: 0c1f9a72b3a84653
hint-04-positional-encoding-frequencies-1 =
    ω_i = 10000^(−2i/d_model)，i = 0, 1, ..., d_model/2 − 1：每个 (sin, cos) 对一个频率，共 d_model/2 个，从 ω_0 = 1 开始，每个都比前一个小。i 数的是对，不是列：指数是 −2i/d_model（不是 −i/d_model，也不是 −col/d_model，而且是负的）。先用 `assert!` 检查 `d_model` 是偶数，信息中要说明 d_model 必须是偶数。
# en: 52433674f2f1d926
hint-04-positional-encoding-frequencies-2 =
    `Vector::from_shape_fn(d_model / 2, |i| PE_BASE.powf(-((2 * i) as Float) / d_model as Float))`。除法之前先转换成 `Float`：`(2 * i / d_model) as Float` 先做两个整数的除法，对每个 i 都得到 0，于是每个频率都会是 1。

# en: 6764b513767a3d2a
hint-04-positional-encoding-sinusoidal_table-1 =
    第 2i 列是 sin(pos·ω_i)，第 2i + 1 列是同一频率的余弦：交错排列，正弦在前，位置从 0 开始计数。所以第 `col` 列所属的对的序号是 `col / 2`。不是先放全部正弦、再放全部余弦（那是另一张表），也不是 cos 在 sin 之前。频率取自 `frequencies(d_model)`：它还会拒绝奇数的 d_model，并给出正确的信息。
# en: 3cf21b88786605fa
hint-04-positional-encoding-sinusoidal_table-2 =
    `Matrix::from_shape_fn((max_len, d_model), |(pos, col)| ...)`：角度是 `pos as Float * omega[col / 2]`，`col` 为偶数时元素取它的正弦，为奇数时取它的余弦。第 0 行必须是 [0, 1, 0, 1, ...]。

# en: 1cba4775f72db909
hint-04-positional-encoding-Embedding--forward-1 =
    查表：结果的第 t 行是权重的第 `tokens[t]` 行，乘以 `self.scale()` = √d_model（论文第 3.4 节；很容易忘）。形状为 (tokens.len(), d_model)。不小于 `self.vocab_size()` 的词元 id 不能拿去索引：先用 `assert!` 检查，信息中写明该词元和词表大小。
# en: b2bda96259b86201
hint-04-positional-encoding-Embedding--forward-2 =
    建一个 `Matrix::zeros((tokens.len(), self.d_model()))`，然后连同对应的词元遍历它的各行，`for (mut row, &token) in out.rows_mut().into_iter().zip(tokens)`：检查词元，然后 `row.assign(&(&self.weight.row(token) * self.scale()))`。

# en: 4a7e7344da1a29eb
hint-04-positional-encoding-Embedding--backward-1 =
    查表的梯度是一次分散累加（scatter-add）：结果的第 v 行，等于词元 v 出现的每个位置上 `d_out` 的那些行之和，再乘以 `scale()`；没有出现的词元，对应的行为 0。它的形状与权重相同，为 (vocab, d_model)，而不是 d_out 的形状。要累加，绝不能赋值：出现两次的词元要把两行都收集起来。还要保留因子 √d_model：前向传播乘过它。
# en: 6d1e80d9c706cc08
hint-04-positional-encoding-Embedding--backward-2 =
    从 `Matrix::zeros(self.weight.dim())` 开始；对 `d_out` 的每一行及其词元，`for (row, &token) in d_out.rows().into_iter().zip(tokens)`，执行 `d_weight.row_mut(token).scaled_add(self.scale(), &row)`。

# en: 547ef04f801b0430
hint-04-positional-encoding-add_positional_encoding-1 =
    第 t 行加上位置 start + t 的编码：`x` 加上表的第 start .. start + n 行，其中 n = `x.nrows()`（整个句子的 start 为 0；正在生成词元 p 的解码器传入 p）。先检查两件事：宽度相等，并且 start + n ≤ `table.nrows()`，信息中要说明需要多少行（start + n），而不是让切片自己 panic。
# en: 5361ba8eee201306
hint-04-positional-encoding-add_positional_encoding-2 =
    用 `assert_eq!` 检查 `x.ncols()` 与 `table.ncols()` 相等，并附上信息；然后算出 `end`，即 `start` 加 `x.nrows()`，再 `assert!(end <= table.nrows(), ...)`，信息中写明 `end` 和表的行数；最后给 `x` 加上表的第 `start..end` 行（所有列）：`table.slice(s![start..end, ..])`。

# en: f13fdf0a35ddcdca
hint-04-positional-encoding-embed_with_positions-1 =
    调用你刚写好的两个函数：先用 `embedding.forward(tokens)` 查出各词元的嵌入（已经乘过 √d_model），再从位置 0 开始加上位置编码：`add_positional_encoding(&that, table, 0)`。位置编码是在缩放之后加上的，所以它本身不被缩放。

# en: ef35da6f08ad248d
hint-04-positional-encoding-embedding_to_encoding_ratio-1 =
    行范数的均方根之比：sqrt(‖scale · weight[v]‖² 在词表上的平均) 除以 sqrt(‖table[pos]‖² 在各位置上的平均)。比较的是模型看到的嵌入，即乘以 `scale()` 之后的；先对范数的平方取平均，再开平方（而不是对范数取平均）；每个和除以它自己的行数，因为词表和位置表的大小不同。宽度不同时 panic。
# en: 5bb447db81f7d8e4
hint-04-positional-encoding-embedding_to_encoding_ratio-2 =
    写一个闭包 `rms(m) = sqrt(sum of m's squared entries / m.nrows())`，即 m 各元素平方之和除以行数再开方（平方和用 `m.iter().map(|v| v * v).sum::<Float>()`），分别作用于 `&embedding.weight * embedding.scale()` 和位置表；返回前者除以后者。元素为 ±1/√d_model 时，对任何 d_model，答案都是 √2。

## 05-encoder-layer: The encoder layer

# en: d96066dd5fcadd91
lesson-05-encoder-layer-title = 编码器层

# en: 011becc9d35336d8
hint-05-encoder-layer-normalise_rows-1 =
    每行（每个词元）一个均值 μ 和一个方差 σ²，在该行的 d_model 个特征上计算：沿 `Axis(1)` 归约，绝不能沿列方向（那是 BatchNorm 的轴，会把不同词元混在一起）。方差用有偏方差，即偏差平方的平均（÷ d_model，不是 d_model − 1），ε 加在平方根里面：inv_std = 1/√(σ² + ε)，不是 1/(σ + ε)。`inv_std` 的形状是 (n,)，每行一个数。`x` 没有列时 panic。
# en: 95ee417954be618d
hint-05-encoder-layer-normalise_rows-2 =
    把 `d_model` 转换成 Float 后：`let mean = x.sum_axis(Axis(1)) / d_model;`、`let centred = x - &mean.insert_axis(Axis(1));`（(n, 1) 的列会沿每一行广播）、`let var = centred.mapv(|v| v * v).sum_axis(Axis(1)) / d_model;`、`inv_std = var.mapv(|v| 1.0 / (v + eps).sqrt())`，以及 `x_hat = centred * inv_std.view().insert_axis(Axis(1))`。

# en: bf1e2ccccc81b5fd
hint-05-encoder-layer-LayerNorm--forward-1 =
    y = γ ⊙ x̂ + β：`normalise_rows(x, self.eps).x_hat * &self.gamma + &self.beta`（(d_model,) 向量会沿各行广播）。用这一层自己的 `self.eps`，而不是常量 `LAYER_NORM_EPS`；γ 是乘上去的，β 是加上去的，两者都在归一化之后。

# en: 483fec4e8351a635
hint-05-encoder-layer-LayerNorm--backward-1 =
    用 `normalise_rows(x, self.eps)` 重新算出 `x_hat` 和 `inv_std`：反向传播拿到的是前向传播的输入 x，而不是 x̂。γ 和 β 由所有行共享，所以它们的梯度是对各行求和（`Axis(0)`）：dβ = Σ_rows dY，dγ = Σ_rows dY ⊙ x̂（是 x̂，不是 x）。
# en: c04aabcb7ba30665
hint-05-encoder-layer-LayerNorm--backward-2 =
    至于 d_x：一行中的每个 x̂_j 都依赖该行的每一个 x_k，不只是直接依赖 x_j，还要经过 μ 和 σ。记 g = dY ⊙ γ（到达 x̂ 的梯度），r = 该行的 inv_std：d_x = r · (g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))，两个平均都沿每一行计算（`Axis(1)`）。漏掉后两项，仿佛 μ 和 σ 是常数，是典型错误。检验：γ = 1、d_y 全为 1 时，d_x 必须为 0。
# en: f7bc97858402d023
hint-05-encoder-layer-LayerNorm--backward-3 =
    `let g = d_y * &self.gamma;`，然后是两个 (n, 1) 的列：`mean_g = g.sum_axis(Axis(1)).insert_axis(Axis(1)) / d_model`，以及对 `&g * &x_hat` 做同样计算得到的 `mean_gx`；然后 `d_x = (g - &mean_g - &x_hat * &mean_gx) * &inv_std.insert_axis(Axis(1))`。

# en: 58606ebece2e7065
hint-05-encoder-layer-FeedForward--forward-1 =
    `let hidden = self.w_1.forward(x).mapv(|v| v.max(0.0));`，然后 `let output = self.w_2.forward(&hidden);`。作为 `hidden` 保存的是 ReLU 的输出，而不是激活前的值：它是 w_2 的输入，反向传播还要从中读出哪些单元处于激活状态。只有隐藏层有 ReLU；输出没有。

# en: 0345a0b077613c88
hint-05-encoder-layer-FeedForward--backward-1 =
    夹着一个 ReLU 的两次 `Linear` 反向传播，按相反的顺序进行：先 w_2（它的输入是 `forward.hidden`），再 ReLU，然后 w_1（它的输入是 `x`）。ReLU 的导数在单元激活处为 1，其他地方为 0，`hidden > 0` 恰好指明了这些位置。把它作用在从 w_2 出来的梯度（它的 `d_x`）上，而不是 `d_output` 上。
# en: 5cdfc9fb5345ff78
hint-05-encoder-layer-FeedForward--backward-2 =
    `w_2` 是以 `&forward.hidden` 和 `d_output` 调用 `self.w_2.backward` 的结果；把 `w_2.d_x` 乘以一个 0/1 矩阵，它在 `hidden > 0` 处为 1（`forward.hidden.mapv(..)`），再把结果送入 `self.w_1.backward(x, ..)`；`d_x` 是 w_1 的 `d_x`，两个 `LinearGrads` 都放进 `FeedForwardGrads`。

# en: c024b8ed81a6bdc2
hint-05-encoder-layer-EncoderLayer--parameter_count-1 =
    把各部分自己的 `parameter_count()` 加起来：`self_attention`、`ffn`、`norm_1` 和 `norm_2`。两个 LayerNorm 也要算上：每个都有 γ 和 β，共 2·d_model 个参数。

# en: d40266ffe3da1ed1
hint-05-encoder-layer-EncoderLayer--forward-1 =
    用 `match self.norm_position` 分别写出契约中的两个公式。Post-LN（论文的做法）在每次残差相加之后归一化：h = norm_1(x + SA(x))，out = norm_2(h + FFN(h))。Pre-LN 只归一化子层的输入，残差通路上保留未经归一化的 x：h = x + SA(norm_1(x))，out = h + FFN(norm_2(h))。SA(a) 是 `self.self_attention.forward(&a, &a, mask)`：查询、键和值用同一个输入，掩码也传给它。
# en: 5e6d632184d5e792
hint-05-encoder-layer-EncoderLayer--forward-2 =
    Post：`let sa = self.self_attention.forward(x, x, mask);`，`norm_1_input = x + &sa.output`，`h = self.norm_1.forward(&norm_1_input)`，`ffn = self.ffn.forward(&h)`，`norm_2_input = &h + &ffn.output`，输出 `self.norm_2.forward(&norm_2_input)`。Pre：`a = self.norm_1.forward(x)`，对 (a, a) 做注意力，`h = x + &sa.output`，`b = self.norm_2.forward(&h)`，对 b 做 FFN，输出 `&h + &ffn.output`。
# en: e52322014589684a
hint-05-encoder-layer-EncoderLayer--forward-3 =
    按 `EncoderLayerForward` 各字段的注释，保存每个部分接收到的输入。Post：`self_attention_input` 是 x，`norm_1_input` 是 x + 注意力输出，`ffn_input` 是 h，`norm_2_input` 是 h + FFN 输出。Pre：`self_attention_input` 是 a，`norm_1_input` 是 x，`ffn_input` 是 b，`norm_2_input` 是 h。再加上两次前向传播的结果 `sa` 和 `ffn`，以及输出；字段本身就是 x 时，用 `x.clone()`。

# en: 2ca248102135c972
hint-05-encoder-layer-EncoderLayer--backward-1 =
    从 `d_output` 开始倒着走过各个块，在每个残差连接 y = x + F(..) 处都遵循同一条规则：x 的梯度是 dy 加上经 F 传回的部分。每个部分的反向传播都要用它当初接收到的输入，这些输入保存在 `forward` 中：`norm_1_input`、`ffn_input`、`norm_2_input`、`self_attention_input`。注意力的那一个输入同时供给了查询、键和值，所以它的梯度是 `d_query_input + d_key_value_input`。
# en: d7015cbb2a03eb03
hint-05-encoder-layer-EncoderLayer--backward-2 =
    Post-LN：`n2 = self.norm_2.backward(&f.norm_2_input, d_output)`；`ffn = self.ffn.backward(&f.ffn_input, &f.ffn, &n2.d_x)`；`d_h = &n2.d_x + &ffn.d_x`（跳跃连接那条路径把梯度加回来）；`n1 = self.norm_1.backward(&f.norm_1_input, &d_h)`；注意力的反向传播，两个输入都用 `&f.self_attention_input`，再加上 `&f.self_attention` 和 `&n1.d_x`；d_x = n1.d_x + 它的 d_query_input + 它的 d_key_value_input。
# en: 634662b47eff6cdf
hint-05-encoder-layer-EncoderLayer--backward-3 =
    Pre-LN 先处理 FFN：`ffn = self.ffn.backward(&f.ffn_input, &f.ffn, d_output)`；`n2 = self.norm_2.backward(&f.norm_2_input, &ffn.d_x)`；`d_h = d_output + &n2.d_x`；以 `&d_h` 做注意力的反向传播；以 `x` 和注意力的 `&d_query_input + &d_key_value_input` 做 norm_1 的反向传播；d_x = d_h + norm_1 的 d_x。保留每个部分的梯度，放进 `EncoderLayerGrads`。

# en: 4f6a6c0d0de8ce0b
hint-05-encoder-layer-DecoderLayer--parameter_count-1 =
    与编码器层的一样，只是有两个注意力和三个 LayerNorm：对 `self_attention`、`cross_attention`、`ffn`、`norm_1`、`norm_2` 和 `norm_3` 的 `parameter_count()` 求和。

# en: 6a41515dcbdef6f0
hint-05-encoder-layer-DecoderLayer--forward-1 =
    就是编码器层的前向传播，中间多了第三个块。自注意力使用 `self_mask`。交叉注意力的查询来自解码器的残差流，键和值来自 `memory`，使用 `memory_mask`：`self.cross_attention.forward(&q, memory, memory_mask)`，其中 q 是 h_1（post）或 norm_2(h_1)（pre）。这里从不对 memory 做归一化。
# en: 68048d35f37b9dd7
hint-05-encoder-layer-DecoderLayer--forward-2 =
    Post：h_1 = norm_1(x + SA(x))，h_2 = norm_2(h_1 + CA(h_1))，out = norm_3(h_2 + FFN(h_2))。Pre：a_1 = norm_1(x)，h_1 = x + SA(a_1)，a_2 = norm_2(h_1)，h_2 = h_1 + CA(a_2)，a_3 = norm_3(h_2)，out = h_2 + FFN(a_3)。按字段注释，保存每个部分接收到的输入：`cross_attention_input` 是 h_1（post）或 a_2（pre），`norm_2_input` 是 h_1 + CA（post）或 h_1（pre），其余依此类推。

# en: d0aaeef2f1fa765c
hint-05-encoder-layer-DecoderLayer--backward-1 =
    就是编码器层的反向传播，中间多了交叉注意力块：倒着走过三个块。交叉注意力的两个输入是不同的矩阵，所以用 `&f.cross_attention_input` 和 `memory` 调用它的反向传播；只有它的 `d_query_input` 回到解码器的残差流，它的 `d_key_value_input` 就是 `d_memory`，形状为 (n_src, d_model)。自注意力的梯度仍然是 d_query + d_key_value。
# en: 3080c6c234e8d6f7
hint-05-encoder-layer-DecoderLayer--backward-2 =
    Post：由 `f.norm_3_input` 和 `d_output` 得到 `n3`；以 `&n3.d_x` 做 FFN 的反向传播；`d_h_2 = &n3.d_x + &ffn.d_x`；由 `f.norm_2_input` 和 `d_h_2` 得到 `n2`；以 `&n2.d_x` 做交叉注意力的反向传播；`d_h_1 = &n2.d_x + &ca.d_query_input`；然后 norm_1 和自注意力的处理与编码器层中相同。Pre：以 `d_output` 做 FFN 的反向传播，以它的 `d_x` 得到 `n3`，`d_h_2 = d_output + &n3.d_x`；以 `&d_h_2` 做交叉注意力的反向传播，以它的 `d_query_input` 得到 `n2`，`d_h_1 = &d_h_2 + &n2.d_x`；然后自注意力块的处理与 pre-LN 编码器层中相同。`d_memory` 是 `ca.d_key_value_input.clone()`。

## 06-full-model: The full model

# en: 8076e411f8c2f738
lesson-06-full-model-title = 完整模型

# en: 9736364306abbc6f
hint-06-full-model-days_in_month-1 =
    对月份做 `match`：1、3、5、7、8、10、12 月有 31 天；4、6、9、11 月有 30 天；2 月闰年 29 天，否则 28 天；其他月份一律 panic。陷阱在于整百年的规则：能被 4 整除的年份是闰年，但整百年例外，整百年只有能被 400 整除时才是闰年（2000 年是，1900 年和 2100 年不是）。
# en: 205da7003ebb8867
hint-06-full-model-days_in_month-2 =
    一个 `bool` 值 `leap`：`year.is_multiple_of(4)` 成立且 `year.is_multiple_of(100)` 不成立，或者 `year.is_multiple_of(400)` 成立。然后用或模式（or-pattern）写 `match month`：分支 `1 | 3 | 5 | 7 | 8 | 10 | 12` 得 31，分支 `4 | 6 | 9 | 11` 得 30，接着 `2 if leap` 得 29，单独的 `2` 得 28，`_` 则带着信息 panic。

# en: 52d3a5e5af35f221
hint-06-full-model-day_of_week-1 =
    从一个已知星期几的日期开始数天数，再对 7 取模，星期一为 0（不是星期日）。最简单的参照是公元 1 年 1 月 1 日，在前推格里高利历中是星期一：所有日期都在它之后，所以天数不会是负的，`% 7` 就是星期几。（如果用契约中的 2000 年 1 月 1 日，那天是星期六，即 5，2000 年之前的日期会得到负的天数：要对有符号数用 `rem_euclid(7)`。）
# en: b17cda319aae0c6a
hint-06-full-model-day_of_week-2 =
    设 `y = year − 1`，`year` 年 1 月 1 日之前的天数是 `365·y + y/4 − y/100 + y/400`（整数除法；后三项合起来是此前各年的闰日数）。再对每个 `m in 1..month` 加上 `days_in_month(year, m)`，然后加上 `day − 1`；总数对 7 取模，再 `as usize`，就是星期几。

# en: cfa5857088af1d08
hint-06-full-model-Batch--new-1 =
    教师强制：对目标序列 `y_1 … y_n`，解码器读入 `BOS y_1 … y_n`，必须预测出 `y_1 … y_n EOS`，两者都比目标序列长 1。所以 `S` 是最长源序列的长度，`T` 是最长目标序列的长度加 1，每一行都用 `PAD` 填充到所在字段的长度。按契约，`pairs` 为空时要 panic：用 `assert!` 检查。
# en: f6ba5bf343bf447b
hint-06-full-model-Batch--new-2 =
    `let s = pairs.iter().map(|(src, _)| src.len()).max().unwrap_or(0)`（`t` 同理，再加 1）。对每个句对：源序列克隆后 `resize(s, PAD)`；`tgt_in` 是把 `std::iter::once(BOS).chain(tgt.iter().copied())` 收集成 `Vec`，再 `resize(t, PAD)`；`tgt_out` 是 `tgt.iter().copied().chain(std::iter::once(EOS))`，收集后调整到长度 `t`。把它们分别推入 `Batch` 的三个 `Vec`。

# en: 5a493b82ad3e226b
hint-06-full-model-xavier_uniform-1 =
    Xavier 均匀分布：`U(−a, a)`，其中 `a = √(6 / (fan_in + fan_out))`。权重按 (d_out, d_in) 存储，所以 `fan_out = rows`，`fan_in = cols`；即使反过来对应，和也一样，都是 `rows + cols`。于是方差为 a²/3 = 2/(fan_in + fan_out)。常见错误：只用扇入或扇出之一来算 `a`，或者漏了 6。
# en: 28e2a7f5531cae1b
hint-06-full-model-xavier_uniform-2 =
    `a` 是 `6.0` 除以 `rows + cols`（除法之前先转换成 `Float`）的平方根；然后以形状 (rows, cols) 调用 `Matrix::from_shape_fn`，闭包忽略下标，抽取 `rng.random_range(-a..a)`。

# en: acded129904f6c2c
hint-06-full-model-embedding_init-1 =
    元素服从正态分布，均值 0，标准差 `1/√d_model`：第 04 课的 `Embedding` 会把每一行乘以 `√d_model`，所以第一层看到的元素标准差为 1，与位置编码的大小相当。不是 PyTorch 的 `N(0, 1)`（那样嵌入会淹没位置信息），也不是均匀分布的抽样：使用给定的 `standard_normal(rng)`。
# en: 777cf25a67e8f9bd
hint-06-full-model-embedding_init-2 =
    `std` 是 1 除以 `d_model`（转换为 `Float`）的平方根；然后以形状 (vocab, d_model) 调用 `Matrix::from_shape_fn`，闭包忽略下标，返回 `std` 乘以 `standard_normal(rng)`。

# en: 2a9b76f3f4d5058e
hint-06-full-model-key_padding_mask-1 =
    键 `j` 是真实词元时，`mask[[i, j]]` 为 `true`，`n_queries` 行中的每一行都一样：要回答的是，哪些键不是 `PAD`？其余的交给第 02 课的 `padding_mask(n_queries, &is_token)`。形状为 (n_queries, keys.len())：行数来自 `n_queries`，而不是来自键（交叉注意力的掩码是 (T, S)）。
# en: e140cba2967ccf7e
hint-06-full-model-key_padding_mask-2 =
    `is_token` 是一个 `Vec<bool>`：遍历 `keys`，把每个词元 `t` 映射为 `t != PAD`，然后 `.collect()`；最后返回 `padding_mask(n_queries, &is_token)`。

# en: ce441f455c7a9cf0
hint-06-full-model-target_mask-1 =
    同时满足两个条件：`j <= i`（第 02 课的 `causal_mask`：下三角，包括对角线，所以每个位置能看到自己）和 `tgt_in[j] != PAD`（本课的 `key_padding_mask`）。两者都是 (T, T)，其中 `T = tgt_in.len()`；对两个布尔数组做 `&`，会逐元素地把它们组合起来。只用填充掩码的话，位置 i 就能看到它必须预测的词元。
# en: ed436dc64d958b3b
hint-06-full-model-target_mask-2 =
    `let n = tgt_in.len();`，然后 `&causal_mask(n) & &key_padding_mask(n, tgt_in)`。

# en: a40a932a6e420b1d
hint-06-full-model-Transformer--encode-1 =
    三步：输入 `√d_model · E_src[src] + PE`（第 04 课的 `embed_with_positions` 既做缩放，也加位置编码），所有层共用一个掩码 `key_padding_mask(S, src)`，然后依次经过各层，每层读取上一层的输出，而不是嵌入。保留每一层前向传播的结果：反向传播需要知道每一层看到了什么、算出了什么。
# en: 945e221f03dd4ef8
hint-06-full-model-Transformer--encode-2 =
    `input` 是以 `&self.src_embedding`、`src` 和 `&self.positions` 调用 `embed_with_positions` 的结果；`mask` 是 `key_padding_mask(src.len(), src)`；可变的 `x` 初始为 `input` 的克隆。然后对 `self.encoder` 中的每一层：以 `&x` 和 `Some(&mask)` 调用它的 `forward`；`x` 变为这次前向传播的 `output` 的克隆，再把这次前向传播的结果推入 `layers`。返回一个包含 `input`、`layers` 和 `output: x` 的 `EncoderForward`。

# en: c6be80830c4cb3f1
hint-06-full-model-Transformer--decode-1 =
    与 `encode` 相同，只有三处不同：对 `tgt_in` 用目标端的嵌入 `self.tgt_embedding`；两个掩码，自注意力用 `target_mask(tgt_in)` (T, T)，交叉注意力用 `key_padding_mask(T, src)` (T, S)（查询来自目标序列，键来自源序列）；并且每一层读取的都是同一个 `memory`，即编码器最后的输出。
# en: f65306fbdf0dce36
hint-06-full-model-Transformer--decode-2 =
    `let self_mask = target_mask(tgt_in);`、`let memory_mask = key_padding_mask(tgt_in.len(), src);`，在遍历 `self.decoder` 的循环中：`let f = layer.forward(&x, memory, Some(&self_mask), Some(&memory_mask));`、`x = f.output.clone();`、`layers.push(f);`。返回一个 `DecoderForward`。

# en: 60ca9d4cab1b8689
hint-06-full-model-Transformer--forward-1 =
    遍历各个句对：编码 `batch.src[b]`，再以得到的 memory 解码 `batch.tgt_in[b]`，两次前向传播的结果都保留下来，每个句对一份，按批次中的顺序排列。然后把 `B` 个解码器输出（每个为 (T, d_model)）上下堆叠成 (B·T, d_model)，使第 `b·T + t` 行对应第 b 个句对的位置 t（与 `batch.targets()` 的顺序一致），再用 `self.output` 一次投影所有行：得到 logits，形状为 (B·T, vocab)。
# en: dc23d462e1df4faa
hint-06-full-model-Transformer--forward-2 =
    遍历 `batch.src.iter()` 与 `&batch.tgt_in` zip 后的结果：`enc` 是 `self.encode(src)`；把以 `tgt_in`、`src` 和 `&enc.output` 调用 `self.decode` 的结果推入 `decoder`，再把 `enc` 推入 `encoder`。然后收集一个由视图组成的 `Vec`，`decoder` 中每次前向传播对应一个 `d.output.view()`；`concatenate(Axis(0), &views)`（它返回 `Result`：接 `.expect(..)`）就是 `decoder_output`，logits 则是 `self.output.forward(&decoder_output)`。

# en: ed71e927e4b4a5f3
hint-06-full-model-Transformer--encode_backward-1 =
    把前向传播倒过来：从最后一层走到第一层，携带 `d_x`，它的初始值是 `d_memory`。第 i 层的 `backward` 需要它当初看到的输入：i = 0 时是 `forward.input`，否则是 `forward.layers[i - 1].output`。它返回的 `d_x` 就是下面一层的上游梯度。把它的参数梯度累加进 `grads.encoder[i]`，绝不能赋值：`grads` 是对整个批次求和的。
# en: 7435245a9bd54375
hint-06-full-model-Transformer--encode_backward-2 =
    `for (i, layer) in self.encoder.iter().enumerate().rev()`：选出 `input`，`let g = layer.backward(input, &forward.layers[i], &d_x);`，`add_encoder_layer_grads(&mut grads.encoder[i], &g);`，`d_x = g.d_x;`。循环之后，`grads.src_embedding.weight += &self.src_embedding.backward(src, &d_x);`（位置编码表是常量，不接收梯度）。

# en: 16a00e4f5a8fb3c8
hint-06-full-model-Transformer--decode_backward-1 =
    与 `encode_backward` 一样，只是遍历的是 `self.decoder`，从 `d_output` 开始，调用 `layer.backward(input, memory, &forward.layers[i], &d_x)`，并用 `add_decoder_layer_grads` 累加进 `grads.decoder[i]`；最后的 `d_x` 进入 `grads.tgt_embedding.weight`。新的是返回值：每一层读取的都是同一个 memory，所以它的梯度是每一层的 `d_memory` 之和，而不能只取最后一层的。
# en: 5dd01ac4ada54174
hint-06-full-model-Transformer--decode_backward-2 =
    循环之前 `let mut d_memory = Matrix::zeros(memory.dim());`；循环之中，在 `d_x = g.d_x;` 旁边加上 `d_memory += &g.d_memory;`；循环之后 `grads.tgt_embedding.weight += &self.tgt_embedding.backward(tgt_in, &d_x);`，并返回形状为 (S, d_model) 的 `d_memory`。

# en: e942ee0970be0488
hint-06-full-model-Transformer--backward-1 =
    梯度本身就是一个模型：从 `self.zeros_like()` 开始，往里面累加。先处理输出投影：它的输入是堆叠起来的解码器输出，所以 `self.output.backward(&forward.decoder_output, d_logits)` 给出它的权重和偏置的梯度，以及 `d_x`，形状为 (B·T, d_model)。然后逐个句对，把这个 `d_x` 的第 `b·T .. (b+1)·T` 行反向传回解码器，解码器返回的 `d_memory` 再反向传回同一句对的编码器。
# en: 453069137ab38e74
hint-06-full-model-Transformer--backward-2 =
    `out` 是以 `&forward.decoder_output` 和 `d_logits` 调用 `self.output.backward` 的结果；用 `add_linear_grads` 把它累加进 `grads.output`。记 `t` 为该批次的 `target_len()`，对每个 `b in 0..batch.len()`：`d_output` 是 `out.d_x` 从第 `b * t` 行起、到第 `(b + 1) * t` 行之前的各行（用 `s![..]` 做 `slice`，取所有列），再 `.to_owned()`；`d_memory` 是以 `&batch.tgt_in[b]`、memory `&forward.encoder[b].output`、`&forward.decoder[b]`、`&d_output` 和 `&mut grads` 调用 `self.decode_backward` 的结果；然后以 `&batch.src[b]`、`&forward.encoder[b]`、`&d_memory` 和 `&mut grads` 调用 `self.encode_backward`。

# en: dbfc88b3a2262b71
hint-06-full-model-smoothed_targets-1 =
    采用 PyTorch 的定义：第 r 行是 `(1 − ε)·onehot(targets[r]) + ε/V`，分布在全部 `V = vocab` 个类别上，包括 `PAD` 和 `BOS`：正确类别得到 `1 − ε + ε/V`，其他每个类别得到 `ε/V`。目标为 `PAD` 的行保持全零。不是 Annotated Transformer 的平滑方式（正确类别 1 − ε，其他类别 ε/(V − 2)，填充列为 0）。如果某个目标不小于 `vocab`，就 panic。
# en: b5fd323d29a5cccf
hint-06-full-model-smoothed_targets-2 =
    可变的 `q`，即形状为 (targets.len(), vocab) 的 `Matrix::zeros`；然后把它的各行与目标 zip 起来循环（`q.rows_mut().into_iter().zip(targets)`，绑定 `mut row` 和 `&target`）：`assert!(target < vocab, ..)`，用 `continue` 跳过 `PAD`，用 `smoothing / vocab as Float` 做 `row.fill`，再给 `row[target]` 加上 `1.0 - smoothing`。

# en: b2034cd39c4c8294
hint-06-full-model-log_softmax_rows-1 =
    逐行计算（每个目标位置一个分布）：`log p_c = z_c − m − ln Σ_c' exp(z_c' − m)`，其中 `m` 是该行的最大值。减去最大值可以防止 `exp` 溢出（测试中有值为 1000 的 logits）；如果改为对第 02 课的 softmax 取 `ln`，极小的概率会得到 `ln 0 = −∞`。
# en: 14e931a22e4110be
hint-06-full-model-log_softmax_rows-2 =
    把 `logits` 克隆成可变的 `out`，然后 `for mut row in out.rows_mut()`：`max` 是从 `Float::NEG_INFINITY` 开始的 `row.fold`，每次保留当前最大值 `m` 与元素 `x` 中较大的那个（`m.max(x)`）；`log_sum` 是该行各元素的 `(x - max).exp()` 之和（`.sum::<Float>()`）的 `ln`；然后用 `row.mapv_inplace` 从每个元素中减去 `max` 和 `log_sum` 两者。返回 `out`。

# en: 0cc011741a23f4a1
hint-06-full-model-cross_entropy_loss-1 =
    记 `q = smoothed_targets(targets, V, ε)`，`log_p = log_softmax_rows(logits)`：`value = −Σ q ⊙ log p / N`，其中 N 是不为 `PAD` 的目标个数，而不是行数（填充不能改变损失）。softmax 后接交叉熵，其梯度逐行来看就是 `(p − q)/N`，其中 `p = exp(log p)`：不需要雅可比矩阵。
# en: 4a39d62e77be14b4
hint-06-full-model-cross_entropy_loss-2 =
    两个陷阱。`d_logits` 中填充对应的行必须为 0：那里 `q` 为 0，`p` 却不为 0，所以在减去 `q` 之前，先把 `p` 乘以一个 (n, 1) 的列，词元处为 1，`PAD` 处为 0。另外，如果所有目标都是 `PAD`，N 就是 0：除以 `N.max(1)`，这样损失为 0、梯度为零，而不是 NaN。`Loss` 的 `tokens` 就是 N。
# en: 81e350163f0246b4
hint-06-full-model-cross_entropy_loss-3 =
    `tokens` 是不为 `PAD` 的目标个数（`targets.iter()`、`.filter`、`.count()`）；`n` 是转换为 `Float` 的 `tokens.max(1)`；`value` 是 `&q * &log_p` 的 `.sum()` 取负，再除以 `n`。`is_token` 是把各目标映射为 `1.0` 或 `0.0`，收集成 `Vector`，再 `.insert_axis(Axis(1))`；`d_logits` 是 `log_p.mapv(Float::exp)` 乘以 `&is_token`，减去 `&q`，整体除以 `n`。

# en: ed041fb7f645ce4b
hint-06-full-model-noam_rate-1 =
    `factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)`：第二项是一条在预热期间上升的直线，第一项是 1/√step 的衰减；两者在 step = warmup 处相交，也就是峰值。第 0 步按第 1 步算（0^−0.5 是 ∞）。检验：d_model 为 512、warmup 为 4000、factor 为 1 时，第 1 步得 1.747e-7，第 4000 步得 6.988e-4。
# en: 726d48bec096f8cc
hint-06-full-model-noam_rate-2 =
    用转换为 `Float` 的 `step.max(1)` 遮蔽（shadow）`step`；结果是 `factor` 乘以 `(d_model as Float).powf(-0.5)`，再乘以 `step.powf(-0.5)` 与 `step` 乘 `(warmup as Float).powf(-1.5)` 两者中较小的那个（`.min`）。

# en: 2a60376f1620bbb3
hint-06-full-model-clip_global_norm-1 =
    整个梯度只有一个范数：`‖g‖ = √(Σ g²)`，对所有张量的所有元素一起计算。逐个张量分别裁剪会改变梯度的方向：`max_norm` = 1 时，[3, 4] 和 [12] 必须变成 [3, 4, 12]/13，而不是 [0.6, 0.8] 和 [1]。范数大于 `max_norm` 时，把每个元素乘以 `max_norm / norm`；小于或等于时，什么都不改。返回裁剪之前的范数。
# en: cffdcc6bafe23980
hint-06-full-model-clip_global_norm-2 =
    `norm` 是所有元素平方和的平方根（`.sqrt()`）：`grads.iter()`，用 `.flat_map` 展开成各张量的元素，用 `.map` 把每个元素映射为它的平方，再 `.sum::<Float>()`。然后，如果 `norm > max_norm`，`scale` 就是 `max_norm` 除以 `norm`，把 `grads.iter_mut()` 中每个 `tensor` 的每个 `g` 就地乘以它（`*g *= scale`）。返回 `norm`。

# en: c362978363f6c6f0
hint-06-full-model-Adam--update-1 =
    先把 `self.step` 加 1，使第一次更新时 t = 1。然后，对每个张量 k 的每个元素 i 及其梯度 g：`m = β₁m + (1−β₁)g`，`v = β₂v + (1−β₂)g²`（存入 `self.m[k][i]` 和 `self.v[k][i]`，不做修正），以及 `θ −= lr · m̂ / (√v̂ + ε)`，其中 `m̂ = m/(1 − β₁ᵗ)`，`v̂ = v/(1 − β₂ᵗ)`。常见错误：没有偏差修正（在 β₁ = 0.9、β₂ = 0.98 时，第一步的步长就成了 0.71·lr），t 从 0 开始计数（会除以 0），把 ε 放进平方根里，用 `+=` 代替 `-=`。
# en: bef3dae5152e6881
hint-06-full-model-Adam--update-2 =
    给 `self.step` 加 1，然后 `t` 是转换为 `i32` 的 `self.step`（供 `powi` 使用）；`c1` 是 `1.0` 减 `self.beta1.powi(t)`，`c2` 同理，用 `beta2`。然后遍历 `params.iter_mut().zip(grads).enumerate()`，绑定 `(k, (param, grad))`，再遍历 `i in 0..param.len()`：更新 `self.m[k][i]` 和 `self.v[k][i]`，然后从 `param[i]` 中减去：`lr` 乘以 `m / c1`，再除以 `v / c2` 的平方根与 `self.eps` 之和。断言各尺寸相符：按契约，不相符时要 panic。

# en: f047324c18b5ea15
hint-06-full-model-train_step-1 =
    五次调用，按契约中的顺序：前向传播、损失、反向传播、裁剪、更新。损失把 logits 与 `batch.targets()` 比较（即 `tgt_out` 的各行首尾相接，与 logits 各行的顺序相同）；裁剪返回的是裁剪之前的范数；Adam 用裁剪后梯度的张量（`parameters()`）更新模型的张量（`parameters_mut()`），两者顺序相同。报告的是更新之前的损失。
# en: 463b2f28ea3f4b88
hint-06-full-model-train_step-2 =
    `forward` 是 `model.forward(batch)`；`loss` 是以 `&forward.logits`、`&batch.targets()` 和 `smoothing` 调用 `cross_entropy_loss` 的结果；可变的 `grads` 是以 `batch`、`&forward` 和 `&loss.d_logits` 调用 `model.backward` 的结果；`grad_norm` 是以 `&mut grads.parameters_mut()` 和 `clip_norm` 调用 `clip_global_norm` 的结果；然后以 `&mut model.parameters_mut()`、`&grads.parameters()` 和 `lr` 调用 `adam.update`；最后是一个 `StepReport`，其中 `step: adam.step as usize`，`tokens: loss.tokens`。

# en: 4d9275aad5a45209
hint-06-full-model-cached_attention-1 =
    就是去掉了键和值投影的第 03 课 `MultiHeadAttention::forward`：`keys` 和 `values` 已经是 `x W_kᵀ + b_k` 和 `x W_vᵀ + b_v`，所以要避免的错误就是对它们再用一次 `w_k` 或 `w_v`。只有查询要投影，用 `mha.w_q`；然后拆成 `mha.n_heads` 个宽为 d_k 的头，每个头用第 02 课的注意力（它会除以 √d_k，并在 softmax 之前施加掩码），再合并各头，最后经过 `mha.w_o`。
# en: 8817c17cfd32e0fd
hint-06-full-model-cached_attention-2 =
    `let q = split_heads(&mha.w_q.forward(query_input), mha.n_heads);`，`let k = split_heads(keys, mha.n_heads);`，`v` 同理；各头的输出是把 `(0..mha.n_heads).map(|h| scaled_dot_product_attention(&q[h], &k[h], &v[h], mask).output)` 收集成的 `Vec<Matrix>`；结果是 `mha.w_o.forward(&merge_heads(&heads))`。

# en: 956a6dd151c3fe7e
hint-06-full-model-Transformer--start_decoding-1 =
    源序列只编码一次：`self.encode(src).output` 就是 memory，形状为 (S, d_model)。交叉注意力由 memory 得到的键和值在解码过程中从不改变，所以现在就为每个解码器层算好，用的是 `layer.cross_attention` 的 `w_k` 和 `w_v`（不是自注意力的）。自注意力的缓存一开始是空的，形状为 (0, d_model)；memory 的掩码是 `key_padding_mask(1, src)`，只有一行，对应每一步唯一的那个查询；`position` 为 0。
# en: badcf8aa7f22fa20
hint-06-full-model-Transformer--start_decoding-2 =
    `memory` 是 `self.encode(src).output`；然后把 `self.decoder.iter()` 的每一层映射为一个 `LayerCache`：`keys` 和 `values` 都是 `Matrix::zeros((0, self.config.d_model))`，`memory_keys` 是 memory 经过 `layer.cross_attention.w_k.forward` 的结果，`memory_values` 同理，用 `w_v`；把它们收集到 `layers` 中，返回一个 `DecoderCache`，包含 `layers`、设为 `key_padding_mask(1, src)` 的 `memory_mask`，以及 `position: 0`。

# en: 1bdb976a21c8009a
hint-06-full-model-Transformer--decode_step-1 =
    让一行穿过解码器，计算方式与完整的前向传播计算第 `cache.position` 行时完全相同。这一行是 `self.tgt_embedding.forward(&[token])`（已乘以 √d_model）加上位置 `cache.position` 的位置编码，而不是位置 0 的：`add_positional_encoding(&embedded, &self.positions, cache.position)`（`embed_with_positions` 总是从 0 开始）。最后，对最后一层输出的这一行调用 `self.output`，再 `.row(0).to_owned()`，就是形状为 (vocab,) 的 logits；然后 `cache.position += 1`。
# en: 9c1196fe023a224a
hint-06-full-model-Transformer--decode_step-2 =
    在每一层中（把 `self.decoder` 与 `cache.layers.iter_mut()` zip 起来），根据该层的 `norm_position`，按第 05 课 `DecoderLayer::forward` 的做法来算。自注意力的输入 `a`：post-LN 时就是这一行 `x`，pre-LN 时是 `layer.norm_1.forward(&x)`；用 `push_row` 把 `sa.w_k.forward(&a)` 的那一行追加到缓存的 `keys` 上，把 `sa.w_v.forward(&a)` 的那一行追加到它的 `values` 上（只追加，绝不替换；对返回的 `Result` 调用 `.expect(..)`），然后 `cached_attention(sa, &a, &kv.keys, &kv.values, None)`：不需要掩码，因为缓存里只有过去和现在。
# en: 801aa6d073d3d83c
hint-06-full-model-Transformer--decode_step-3 =
    然后对这一行完成该层的其余部分。Post-LN：`h1 = norm_1(x + self_out)`，`cross = cached_attention(ca, &h1, &kv.memory_keys, &kv.memory_values, Some(&cache.memory_mask))`，`h2 = norm_2(h1 + cross)`，`x = norm_3(h2 + ffn(h2).output)`。Pre-LN：`h1 = x + self_out`，交叉注意力的查询是 `norm_2(h1)`，`h2 = h1 + cross`，`x = h2 + ffn(norm_3(h2)).output`。

# en: 764d020f2cbf5ad0
hint-06-full-model-greedy_decode-1 =
    故意用慢的办法：源序列只编码一次；解码器的输入从 `[BOS]` 开始（绝不是 `PAD`：模型训练时第一个词元是 `BOS`）；每一步都对整个前缀运行 `model.decode`，只用最后一行的 logits 给下一个词元打分（其他行都不用），由给定的 `next_token` 选出（它从不选 `PAD` 或 `BOS`）。选到 `EOS` 时，或已生成 `max_len` 个词元后停止；返回生成的词元，不含 `BOS` 和 `EOS`。
# en: 1687c00619ee1e93
hint-06-full-model-greedy_decode-2 =
    `memory` 是 `model.encode(src).output`，可变的 `tokens` 初始为只含 `BOS` 的向量。然后，当 `tokens.len() <= max_len` 时：`decoded` 是以 `&tokens`、`src` 和 `&memory` 调用 `model.decode` 所得的 `.output`；`last` 是它的最后一行，作为 (1, d_model) 矩阵，即转为自有数据的 `decoded.slice(s![decoded.nrows() - 1.., ..])`；`next` 是对 `model.output.forward(&last)` 的第 0 行调用 `next_token` 的结果；遇到 `EOS` 就 `break`，否则把它推入 `tokens`。返回 `tokens.split_off(1)`。

# en: b39291be7565e23d
hint-06-full-model-greedy_decode_cached-1 =
    同样的循环，加上缓存：先 `model.start_decoding(src)`，然后每个词元调用一次 `decode_step`，第一次喂入 `BOS`，之后每次喂入由上一步的 logits（`logits.view()`）经 `next_token` 选出的词元。每个词元只喂一次：`decode_step` 会把它追加到缓存中并推进位置。停止规则和结果都与 `greedy_decode` 相同：遇到 `EOS`，或已生成 `max_len` 个词元时停止。
# en: 0adae6d082b39d03
hint-06-full-model-greedy_decode_cached-2 =
    由 `model.start_decoding(src)` 得到可变的 `cache`，可变的 `token` 初始为 `BOS`，再建一个空的 `tokens`；`while tokens.len() < max_len`：`logits` 是以 `&mut cache` 和 `token` 调用 `model.decode_step` 的结果；`token` 变为对 `logits.view()` 调用 `next_token` 的结果；遇到 `EOS` 就 `break`，否则 `tokens.push(token)`。返回 `tokens`。
