### Simplified Chinese (zh-CN) text of lesson 03-multi-head-attention's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-03-multi-head-attention-title
###   hint-03-multi-head-attention-<function, every :: written as -->-<the hint step's name>
### Each hint step is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po). Each message
### carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: 767e1191da094735
lesson-03-multi-head-attention-title = 多头注意力

# en: 7a14dbb43d6cd842
hint-03-multi-head-attention-split_heads-idea =
    `split_heads` 只移动列：头 i 占有连续的一块列 i·d_k .. (i+1)·d_k，其中 d_k = d_model / n_heads（`x.ncols() / n_heads`）；行（每个词元一行）始终不变。不是交错的列 i, i + h, i + 2h, ...：那样往返测试照样能通过，但每个头拥有的会是 W_q 中错误的行。先用 `assert!` 检查 `n_heads > 0` 且它能整除 `x.ncols()`，并附上信息。
# en: a87e1e16651f705b
hint-03-multi-head-attention-split_heads-code =
    `(0..n_heads).map(|i| x.slice(s![.., i * d_k..(i + 1) * d_k]).to_owned())`，然后 `.collect()`：`..` 保留所有行，`.to_owned()` 把每个视图变成自有的 `Matrix`，头 0 在最前。

# en: 16342d39e9363824
hint-03-multi-head-attention-merge_heads-idea =
    `merge_heads` 是 `split_heads` 的逆操作，也就是论文中的 Concat：把各个头沿列方向并排拼在一起，头 0 在最前，得到 (n, n_heads·d_k)。如果改为沿行方向（`Axis(0)`）拼接，就会把各个头当成额外的词元堆叠起来，得到 (n_heads·n, d_k)。如果 `heads` 为空或各头形状不同，就带着信息 panic。
# en: c4074c83f6d614f8
hint-03-multi-head-attention-merge_heads-code =
    为每个头收集一个视图：`let views: Vec<_> = heads.iter().map(|h| h.view()).collect();`，然后 `concatenate(Axis(1), &views)`；Axis(1) 就是列。它返回一个 `Result`，所以在你自己检查过形状之后，用 `.expect(...)` 收尾。`merge_heads(&split_heads(&x, h))` 必须还原出 x。

# en: 9bc1dfc5647e7bb2
hint-03-multi-head-attention-MultiHeadAttention--forward-idea =
    四步，与契约中一致：投影，拆分成多个头，逐头计算注意力，合并后再用 `w_o` 投影。Q 由 `query_input` 经 `w_q` 得到；K 和 V 都来自 `key_value_input`，分别经过 `w_k` 和 `w_v`（正因如此，交叉注意力才能有 n_q ≠ n_k）。不要自己另加缩放：第 02 课的注意力已经把每个头的分数除以了 √d_k，这里的 d_k 是头的宽度，不是 d_model。
# en: 5eed982b66005c1b
hint-03-multi-head-attention-MultiHeadAttention--forward-details =
    `let q = split_heads(&self.w_q.forward(query_input), self.n_heads);`，k 和 v 也同样由 `key_value_input` 得到。然后对每个头 i 调用第 02 课的 `scaled_dot_product_attention(&q[i], &k[i], &v[i], mask)`，每个头用同一个 `mask`（`Option<&Mask>` 是 `Copy` 的：原样传入即可）；把它的 `output` 推入一个 Vec，把 `weights` 推入另一个。
# en: f1dbdcf952d0c165
hint-03-multi-head-attention-MultiHeadAttention--forward-code =
    `let concat = merge_heads(&outputs);` 和 `let output = self.w_o.forward(&concat);`，然后返回 `MultiHeadForward {"{"} output, weights, q, k, v, concat {"}"}`，其中 q、k 和 v 是按头存放的 Vec：反向传播需要每个头的 Q_i、K_i、V_i，以及 `w_o` 的输入 `concat`。

# en: 4663635d81bc156d
hint-03-multi-head-attention-MultiHeadAttention--parameter_count-idea =
    对四个投影 `w_q`、`w_k`、`w_v` 和 `w_o` 把 `weight.len() + bias.len()` 加起来（例如建一个指向这四者的引用数组，然后 `.iter()`，用 `.map(..)` 得到各自的参数个数，再 `.sum()`）：结果是 4·d_model² + 4·d_model，与头数无关。头越多，每个头越窄，权重并不会变多，所以没有哪一项要乘以 `n_heads`。

# en: 1175a29433183569
hint-03-multi-head-attention-MultiHeadAttention--backward-idea =
    把前向传播的各步倒过来执行；每一步的反向传播你都已经有了。拼接的反向是拆分，拆分的反向是拼接。`key_value_input` 供给两个投影 `w_k` 和 `w_v`，所以它的梯度是两条路径之和：漏掉其中一条（通常是值的那条）是典型错误。掩码不需要特殊处理：被屏蔽的权重为 0，不会传回任何梯度。
# en: 65ad8bc95a597c76
hint-03-multi-head-attention-MultiHeadAttention--backward-details =
    从输出往回走：`w_o` 是以 `&forward.concat`（w_o 的输入是 `concat`）和 `d_output` 调用 `self.w_o.backward` 的结果；用 `split_heads` 把 `w_o.d_x` 拆成 `self.n_heads` 个头，就得到每个头的上游梯度 dO_i，形状为 (n_q, d_k)。对头 i，用该头保存的 `forward.q[i]`、`forward.k[i]`、`forward.v[i]`、`forward.weights[i]` 以及它的 dO_i 调用第 02 课的 `scaled_dot_product_attention_backward`，得到它的 `d_q`、`d_k` 和 `d_v`：每一种各收集到自己的 Vec 中。
# en: 426ca3da50a0aaa0
hint-03-multi-head-attention-MultiHeadAttention--backward-code =
    用 `merge_heads` 把每一种合并回完整宽度，再连同相应投影的输入，送过它自己的投影：`self.w_q.backward(query_input, &dq)`、`self.w_k.backward(key_value_input, &dk)`、`self.w_v.backward(key_value_input, &dv)`。`d_query_input` 是 w_q 的 `d_x`；`d_key_value_input` 是 `&w_k.d_x + &w_v.d_x`；四个 `LinearGrads` 都要保留。w_k 的 `d_bias` 在舍入误差范围内为 0：这是对的。
