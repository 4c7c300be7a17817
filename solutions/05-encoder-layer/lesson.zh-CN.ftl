### Simplified Chinese (zh-CN) text of lesson 05-encoder-layer's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-05-encoder-layer-title
###   hint-05-encoder-layer-<function, every :: written as -->-<the hint step's name>
### Each hint step is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po). Each message
### carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: d96066dd5fcadd91
lesson-05-encoder-layer-title = 编码器层

# en: 011becc9d35336d8
hint-05-encoder-layer-normalise_rows-idea =
    每行（每个词元）一个均值 μ 和一个方差 σ²，在该行的 d_model 个特征上计算：沿 `Axis(1)` 归约，绝不能沿列方向（那是 BatchNorm 的轴，会把不同词元混在一起）。方差用有偏方差，即偏差平方的平均（÷ d_model，不是 d_model − 1），ε 加在平方根里面：inv_std = 1/√(σ² + ε)，不是 1/(σ + ε)。`inv_std` 的形状是 (n,)，每行一个数。`x` 没有列时 panic。
# en: 95ee417954be618d
hint-05-encoder-layer-normalise_rows-code =
    把 `d_model` 转换成 Float 后：`let mean = x.sum_axis(Axis(1)) / d_model;`、`let centred = x - &mean.insert_axis(Axis(1));`（(n, 1) 的列会沿每一行广播）、`let var = centred.mapv(|v| v * v).sum_axis(Axis(1)) / d_model;`、`inv_std = var.mapv(|v| 1.0 / (v + eps).sqrt())`，以及 `x_hat = centred * inv_std.view().insert_axis(Axis(1))`。

# en: bf1e2ccccc81b5fd
hint-05-encoder-layer-LayerNorm--forward-idea =
    y = γ ⊙ x̂ + β：`normalise_rows(x, self.eps).x_hat * &self.gamma + &self.beta`（(d_model,) 向量会沿各行广播）。用这一层自己的 `self.eps`，而不是常量 `LAYER_NORM_EPS`；γ 是乘上去的，β 是加上去的，两者都在归一化之后。

# en: 483fec4e8351a635
hint-05-encoder-layer-LayerNorm--backward-idea =
    用 `normalise_rows(x, self.eps)` 重新算出 `x_hat` 和 `inv_std`：反向传播拿到的是前向传播的输入 x，而不是 x̂。γ 和 β 由所有行共享，所以它们的梯度是对各行求和（`Axis(0)`）：dβ = Σ_rows dY，dγ = Σ_rows dY ⊙ x̂（是 x̂，不是 x）。
# en: c04aabcb7ba30665
hint-05-encoder-layer-LayerNorm--backward-details =
    至于 d_x：一行中的每个 x̂_j 都依赖该行的每一个 x_k，不只是直接依赖 x_j，还要经过 μ 和 σ。记 g = dY ⊙ γ（到达 x̂ 的梯度），r = 该行的 inv_std：d_x = r · (g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))，两个平均都沿每一行计算（`Axis(1)`）。漏掉后两项，仿佛 μ 和 σ 是常数，是典型错误。检验：γ = 1、d_y 全为 1 时，d_x 必须为 0。
# en: f7bc97858402d023
hint-05-encoder-layer-LayerNorm--backward-code =
    `let g = d_y * &self.gamma;`，然后是两个 (n, 1) 的列：`mean_g = g.sum_axis(Axis(1)).insert_axis(Axis(1)) / d_model`，以及对 `&g * &x_hat` 做同样计算得到的 `mean_gx`；然后 `d_x = (g - &mean_g - &x_hat * &mean_gx) * &inv_std.insert_axis(Axis(1))`。

# en: 58606ebece2e7065
hint-05-encoder-layer-FeedForward--forward-idea =
    `let hidden = self.w_1.forward(x).mapv(|v| v.max(0.0));`，然后 `let output = self.w_2.forward(&hidden);`。作为 `hidden` 保存的是 ReLU 的输出，而不是激活前的值：它是 w_2 的输入，反向传播还要从中读出哪些单元处于激活状态。只有隐藏层有 ReLU；输出没有。

# en: 0345a0b077613c88
hint-05-encoder-layer-FeedForward--backward-idea =
    夹着一个 ReLU 的两次 `Linear` 反向传播，按相反的顺序进行：先 w_2（它的输入是 `forward.hidden`），再 ReLU，然后 w_1（它的输入是 `x`）。ReLU 的导数在单元激活处为 1，其他地方为 0，`hidden > 0` 恰好指明了这些位置。把它作用在从 w_2 出来的梯度（它的 `d_x`）上，而不是 `d_output` 上。
# en: 5cdfc9fb5345ff78
hint-05-encoder-layer-FeedForward--backward-code =
    `w_2` 是以 `&forward.hidden` 和 `d_output` 调用 `self.w_2.backward` 的结果；把 `w_2.d_x` 乘以一个 0/1 矩阵，它在 `hidden > 0` 处为 1（`forward.hidden.mapv(..)`），再把结果送入 `self.w_1.backward(x, ..)`；`d_x` 是 w_1 的 `d_x`，两个 `LinearGrads` 都放进 `FeedForwardGrads`。

# en: c024b8ed81a6bdc2
hint-05-encoder-layer-EncoderLayer--parameter_count-idea =
    把各部分自己的 `parameter_count()` 加起来：`self_attention`、`ffn`、`norm_1` 和 `norm_2`。两个 LayerNorm 也要算上：每个都有 γ 和 β，共 2·d_model 个参数。

# en: d40266ffe3da1ed1
hint-05-encoder-layer-EncoderLayer--forward-idea =
    用 `match self.norm_position` 分别写出契约中的两个公式。Post-LN（论文的做法）在每次残差相加之后归一化：h = norm_1(x + SA(x))，out = norm_2(h + FFN(h))。Pre-LN 只归一化子层的输入，残差通路上保留未经归一化的 x：h = x + SA(norm_1(x))，out = h + FFN(norm_2(h))。SA(a) 是 `self.self_attention.forward(&a, &a, mask)`：查询、键和值用同一个输入，掩码也传给它。
# en: 5e6d632184d5e792
hint-05-encoder-layer-EncoderLayer--forward-details =
    Post：`let sa = self.self_attention.forward(x, x, mask);`，`norm_1_input = x + &sa.output`，`h = self.norm_1.forward(&norm_1_input)`，`ffn = self.ffn.forward(&h)`，`norm_2_input = &h + &ffn.output`，输出 `self.norm_2.forward(&norm_2_input)`。Pre：`a = self.norm_1.forward(x)`，对 (a, a) 做注意力，`h = x + &sa.output`，`b = self.norm_2.forward(&h)`，对 b 做 FFN，输出 `&h + &ffn.output`。
# en: e52322014589684a
hint-05-encoder-layer-EncoderLayer--forward-code =
    按 `EncoderLayerForward` 各字段的注释，保存每个部分接收到的输入。Post：`self_attention_input` 是 x，`norm_1_input` 是 x + 注意力输出，`ffn_input` 是 h，`norm_2_input` 是 h + FFN 输出。Pre：`self_attention_input` 是 a，`norm_1_input` 是 x，`ffn_input` 是 b，`norm_2_input` 是 h。再加上两次前向传播的结果 `sa` 和 `ffn`，以及输出；字段本身就是 x 时，用 `x.clone()`。

# en: 2ca248102135c972
hint-05-encoder-layer-EncoderLayer--backward-idea =
    从 `d_output` 开始倒着走过各个块，在每个残差连接 y = x + F(..) 处都遵循同一条规则：x 的梯度是 dy 加上经 F 传回的部分。每个部分的反向传播都要用它当初接收到的输入，这些输入保存在 `forward` 中：`norm_1_input`、`ffn_input`、`norm_2_input`、`self_attention_input`。注意力的那一个输入同时供给了查询、键和值，所以它的梯度是 `d_query_input + d_key_value_input`。
# en: d7015cbb2a03eb03
hint-05-encoder-layer-EncoderLayer--backward-details =
    Post-LN：`n2 = self.norm_2.backward(&f.norm_2_input, d_output)`；`ffn = self.ffn.backward(&f.ffn_input, &f.ffn, &n2.d_x)`；`d_h = &n2.d_x + &ffn.d_x`（跳跃连接那条路径把梯度加回来）；`n1 = self.norm_1.backward(&f.norm_1_input, &d_h)`；注意力的反向传播，两个输入都用 `&f.self_attention_input`，再加上 `&f.self_attention` 和 `&n1.d_x`；d_x = n1.d_x + 它的 d_query_input + 它的 d_key_value_input。
# en: 634662b47eff6cdf
hint-05-encoder-layer-EncoderLayer--backward-code =
    Pre-LN 先处理 FFN：`ffn = self.ffn.backward(&f.ffn_input, &f.ffn, d_output)`；`n2 = self.norm_2.backward(&f.norm_2_input, &ffn.d_x)`；`d_h = d_output + &n2.d_x`；以 `&d_h` 做注意力的反向传播；以 `x` 和注意力的 `&d_query_input + &d_key_value_input` 做 norm_1 的反向传播；d_x = d_h + norm_1 的 d_x。保留每个部分的梯度，放进 `EncoderLayerGrads`。

# en: 4f6a6c0d0de8ce0b
hint-05-encoder-layer-DecoderLayer--parameter_count-idea =
    与编码器层的一样，只是有两个注意力和三个 LayerNorm：对 `self_attention`、`cross_attention`、`ffn`、`norm_1`、`norm_2` 和 `norm_3` 的 `parameter_count()` 求和。

# en: 6a41515dcbdef6f0
hint-05-encoder-layer-DecoderLayer--forward-idea =
    就是编码器层的前向传播，中间多了第三个块。自注意力使用 `self_mask`。交叉注意力的查询来自解码器的残差流，键和值来自 `memory`，使用 `memory_mask`：`self.cross_attention.forward(&q, memory, memory_mask)`，其中 q 是 h_1（post）或 norm_2(h_1)（pre）。这里从不对 memory 做归一化。
# en: 68048d35f37b9dd7
hint-05-encoder-layer-DecoderLayer--forward-code =
    Post：h_1 = norm_1(x + SA(x))，h_2 = norm_2(h_1 + CA(h_1))，out = norm_3(h_2 + FFN(h_2))。Pre：a_1 = norm_1(x)，h_1 = x + SA(a_1)，a_2 = norm_2(h_1)，h_2 = h_1 + CA(a_2)，a_3 = norm_3(h_2)，out = h_2 + FFN(a_3)。按字段注释，保存每个部分接收到的输入：`cross_attention_input` 是 h_1（post）或 a_2（pre），`norm_2_input` 是 h_1 + CA（post）或 h_1（pre），其余依此类推。

# en: d0aaeef2f1fa765c
hint-05-encoder-layer-DecoderLayer--backward-idea =
    就是编码器层的反向传播，中间多了交叉注意力块：倒着走过三个块。交叉注意力的两个输入是不同的矩阵，所以用 `&f.cross_attention_input` 和 `memory` 调用它的反向传播；只有它的 `d_query_input` 回到解码器的残差流，它的 `d_key_value_input` 就是 `d_memory`，形状为 (n_src, d_model)。自注意力的梯度仍然是 d_query + d_key_value。
# en: 3080c6c234e8d6f7
hint-05-encoder-layer-DecoderLayer--backward-code =
    Post：由 `f.norm_3_input` 和 `d_output` 得到 `n3`；以 `&n3.d_x` 做 FFN 的反向传播；`d_h_2 = &n3.d_x + &ffn.d_x`；由 `f.norm_2_input` 和 `d_h_2` 得到 `n2`；以 `&n2.d_x` 做交叉注意力的反向传播；`d_h_1 = &n2.d_x + &ca.d_query_input`；然后 norm_1 和自注意力的处理与编码器层中相同。Pre：以 `d_output` 做 FFN 的反向传播，以它的 `d_x` 得到 `n3`，`d_h_2 = d_output + &n3.d_x`；以 `&d_h_2` 做交叉注意力的反向传播，以它的 `d_query_input` 得到 `n2`，`d_h_1 = &d_h_2 + &n2.d_x`；然后自注意力块的处理与 pre-LN 编码器层中相同。`d_memory` 是 `ca.d_key_value_input.clone()`。
