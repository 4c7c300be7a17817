### Simplified Chinese (zh-CN) text of lesson 07-gpt's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-07-gpt-title
###   hint-07-gpt-<function, every :: written as -->-<the hint step's name>
### Each message carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: 9f227ee4d318ca8d
lesson-07-gpt-title = 你自己的 GPT

# en: f85eced476691979
hint-07-gpt-count_pairs-idea =
    用宽度为二的窗口滑过 `ids`：每个位置 i < len − 1 给出一对 (ids[i], ids[i + 1])，每次让这一对的计数加一。窗口是重叠的：[a, a, a] 含有两次 (a, a)。少于两个 id：没有相邻的一对，返回空表。
# en: 5aa4e1b6fab9a38e
hint-07-gpt-count_pairs-code =
    先 `let mut counts = BTreeMap::new();`，再 `for w in ids.windows(2) {"{"} *counts.entry((w[0], w[1])).or_insert(0) += 1; {"}"}`。
# en: 12171004d3098317
hint-07-gpt-merge_pair-idea =
    用下标 i 从左往右走。如果 ids[i] 和 ids[i + 1] 正是这一对，就放入 `new_id` 并跳过这两个（i += 2）；否则复制 ids[i] 并前进一步（i += 1）。跳过两个，才使 [a, a, a] 变成 [new, a] 而不是 [new, new]。
# en: 3af5c65f33f38591
hint-07-gpt-merge_pair-code =
    `while i < ids.len() {"{"} if i + 1 < ids.len() && (ids[i], ids[i + 1]) == pair {"{"} out.push(new_id); i += 2 {"}"} else {"{"} out.push(ids[i]); i += 1 {"}"} {"}"}`：先检查 `i + 1 < ids.len()`，否则最后一个 id 会越界。
# en: 9f55c2eb63e73971
hint-07-gpt-Bpe--encode_piece-idea =
    先把文本的字节当作 id。然后反复：在当前 id 的相邻对中，找出学过的、秩最低的那一对（`self.rank(pair)`，最先学到的合并），把它在各处合并成 256 + rank。没有任何相邻对是学过的，就停。不是最左边的已学对，也不是出现最多的：按秩的顺序才能重现训练时的切分。
# en: 0a831fd4df1f0b4d
hint-07-gpt-Bpe--encode_piece-code =
    `let mut ids: Vec<usize> = text.bytes().map(usize::from).collect();`，然后 `loop {"{"} let best = ids.windows(2).filter_map(|w| self.rank((w[0], w[1]))).min(); let Some(rank) = best else {"{"} return ids {"}"}; ids = merge_pair(&ids, self.merges()[rank], 256 + rank); {"}"}`。
# en: 689bff3c86b3a2b2
hint-07-gpt-Bpe--encode-idea =
    文本结束符从不由字节组成：先在每个 `END_OF_TEXT` 处把文本切开，用 `encode_piece` 分别编码每一段，并在相邻两段之间放一个 id `self.end_of_text()`（256 + 合并次数，最后一个 id）。
# en: d16ef289e04fd7ec
hint-07-gpt-Bpe--encode-code =
    `for (i, piece) in text.split(END_OF_TEXT).enumerate() {"{"} if i > 0 {"{"} ids.push(self.end_of_text()); {"}"} ids.extend(self.encode_piece(piece)); {"}"}`：以结束符结尾的文本最后会切出一段空文本，它什么也不添加。
# en: 3f17a00b6d7cf9e8
hint-07-gpt-Bpe--decode_bytes-idea =
    每个 id 代表一串固定的字节（`self.token_bytes(id)`：256 以下是一个字节，合并出的 token 是它两部分的字节，最后一个 id 是文字 `<|endoftext|>`）。解码就是按顺序把它们接起来，别无其他。
# en: a166b949dda42de6
hint-07-gpt-Bpe--decode_bytes-code =
    `ids.iter().flat_map(|&id| self.token_bytes(id).iter().copied()).collect()`。
# en: 64901181a39a4eef
hint-07-gpt-train_bpe-idea =
    在 `END_OF_TEXT` 处把文本切成若干文档，每篇是一串字节 id。每一轮：把每篇文档的 `count_pairs` 加起来；取次数最多的一对，次数相同时取最小的一对（先比第一个 id，再比第二个）；在每篇文档中把它合并成 256 + 轮次；记下它。没有相邻对了就提前停止。最后 `Bpe::from_merges(merges)`。
# en: e618d04946c4759f
hint-07-gpt-train_bpe-tie-break =
    决胜规则是各种训练器最常不同的地方。`BTreeMap` 从最小的一对开始遍历，所以只在次数严格大于当前最佳时才替换，保留第一个。`iter().max_by_key(|(_, c)| *c)` 在相等的最大值中返回*最后*一个，也就是最大的一对：这里是错的。各对在文本中出现的先后与此无关。
# en: 87d2495d92e4e805
hint-07-gpt-RmsNorm--forward-idea =
    对每一行：它 d_model 个特征的平方的平均（除以 d_model），加上 ε，再开平方：r = 1/√(mean(x²) + ε)。然后 y = x · r · g。不减均值，也没有平移：这正是 RMSNorm 与 LayerNorm 的区别。
# en: 9a6f2912dcd883b7
hint-07-gpt-RmsNorm--forward-code =
    `let ms = x.mapv(|v| v * v).sum_axis(Axis(1)) / d_model as Float;` `let r = ms.mapv(|m| 1.0 / (m + self.eps).sqrt());` 然后 `x * &r.insert_axis(Axis(1)) * &self.gain`。
# en: 7480a9b42d8d9f7f
hint-07-gpt-RmsNorm--backward-idea =
    r 依赖于 x，所以梯度有两部分：直接的一部分 r·h，其中 h = dY ⊙ g；以及经过 r 的一部分，它从 h 中去掉沿 x̂ 方向的分量：dx = r·(h − x̂ ⊙ mean_row(h ⊙ x̂))。这就是 LayerNorm 的公式去掉 − mean_row(h) 那一项。dg = Σ_rows dY ⊙ x̂。
# en: 3eec85aa803dc6c2
hint-07-gpt-RmsNorm--backward-code =
    `let r = (1/√(ms + eps)).insert_axis(Axis(1));` `let x_hat = x * &r;` `let d_gain = (d_y * &x_hat).sum_axis(Axis(0));` `let h = d_y * &self.gain;` `let m = (&h * &x_hat).sum_axis(Axis(1)).insert_axis(Axis(1)) / d_model as Float;` `let d_x = (h - &x_hat * &m) * &r;`。
# en: e9449d12a186f661
hint-07-gpt-apply_rope-idea =
    第 t 行在位置 p = start + t。它的特征按相邻的两个配对 (2i, 2i + 1)，第 i 对转过角度 p·ω_i，其中 ω = 第 04 课的 `frequencies(d_head)`（宽度为奇数时它也会 panic）。把 (a, b) 转 θ 得到 (a·cos θ − b·sin θ, a·sin θ + b·cos θ)。位置 0 保持不变。
# en: 39ceb9208590a6e2
hint-07-gpt-apply_rope-code =
    `let omega = frequencies(x.ncols()); let mut y = x.clone();`，然后对每个 t 和 i：`let (sin, cos) = ((start + t) as Float * omega[i]).sin_cos(); let (a, b) = (x[[t, 2 * i]], x[[t, 2 * i + 1]]); y[[t, 2 * i]] = a * cos - b * sin; y[[t, 2 * i + 1]] = a * sin + b * cos;`。
# en: 6d24ad7e6d4d8ac3
hint-07-gpt-rope_backward-idea =
    apply_rope 把每一对乘以一个旋转矩阵 R(θ)，所以梯度是 R(θ)ᵀ·dY，而 R(θ)ᵀ = R(−θ)：把 dY 的每一对按同样的角度反方向转回去。位置仍是前向时的 start + t。
# en: ffe414ce831fc5bf
hint-07-gpt-rope_backward-code =
    就是 `apply_rope` 的代码把正弦的符号反过来：`y[[t, 2 * i]] = a * cos + b * sin; y[[t, 2 * i + 1]] = -a * sin + b * cos;`。
# en: 6d7bd78b20b95829
hint-07-gpt-silu-idea =
    SiLU(a) = a·σ(a)，其中 logistic sigmoid σ(a) = 1/(1 + e^(−a))：所以就是 a/(1 + e^(−a))。不是单独的 σ(a)。
# en: 8d1f9156fffd78dd
hint-07-gpt-silu-code =
    `a / (1.0 + (-a).exp())`。
# en: a9801c99786e85d7
hint-07-gpt-SwiGlu--forward-idea =
    同一个 x 的两个投影，`a = x W_gateᵀ` 和 `b = x W_upᵀ`，形状都是 (n, d_ff)。门是 a 的 SiLU（是 W_gate 输出的，不是 W_up 的）；它与 b 逐元素相乘：h = SiLU(a) ⊙ b。再投影回 d_model：y = h W_downᵀ。保留 a、b 和 h：反向传播要用。
# en: 46f122f74a630f81
hint-07-gpt-SwiGlu--forward-code =
    `let gate = x.dot(&self.w_gate.t()); let up = x.dot(&self.w_up.t()); let hidden = gate.mapv(silu) * &up; let output = hidden.dot(&self.w_down.t());`。
# en: a5322736e24ee44f
hint-07-gpt-SwiGlu--backward-idea =
    沿 y = h W_downᵀ 反向：dW_down = dYᵀ h，dh = dY W_down。沿 h = SiLU(a) ⊙ b：db = dh ⊙ SiLU(a)，da = dh ⊙ b ⊙ SiLU'(a)，其中 SiLU'(a) = σ(a)·(1 + a·(1 − σ(a)))（不是 σ(a)）。再经过两个投影：dW_gate = daᵀ x，dW_up = dbᵀ x；x 同时进入两者，所以 dx = da W_gate + db W_up。
# en: 92878c28d01482ff
hint-07-gpt-SwiGlu--backward-code =
    `let f = self.forward(x); let d_w_down = d_y.t().dot(&f.hidden); let d_h = d_y.dot(&self.w_down); let d_b = &d_h * &f.gate.mapv(silu); let slope = f.gate.mapv(|a| {"{"} let s = 1.0 / (1.0 + (-a).exp()); s * (1.0 + a * (1.0 - s)) {"}"}); let d_a = d_h * &f.up * &slope;`，再算三个乘积。
# en: c23a1933f5bc3cc6
hint-07-gpt-cosine_rate-idea =
    三种情况，步数从 0 数起。预热期间（step < warmup）学习率沿直线上升，max_lr · (step + 1) / warmup，这样第 0 步就已经在更新，第 warmup − 1 步到达 max_lr。从 warmup 到 total 沿半个余弦下降：progress = (step − warmup)/(total − warmup) 从 0 走到 1，学习率为 min_lr + (max_lr − min_lr) · (1 + cos(π · progress))/2。total 之后保持 min_lr。
# en: 1a9b881f2104d856
hint-07-gpt-cosine_rate-code =
    先 `assert!(warmup < total)`，然后 `if step < warmup {"{"} return max_lr * (step + 1) as Float / warmup as Float; {"}"} if step > total {"{"} return min_lr; {"}"} let progress = (step - warmup) as Float / (total - warmup) as Float; min_lr + (max_lr - min_lr) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())`。
# en: 487abd59ddaadacd
hint-07-gpt-AdamW--update-idea =
    就是第 06 课的 Adam，再在它之前为需要衰减的张量加一行：θ ← θ − lr·λ·θ（θ 乘以 1 − lr·λ）。衰减从不进入梯度：m 和 v 只看到 g。把 λθ 加到 g 上是带 L2 的 Adam，那样衰减会再被 √v̂ 除掉。`self.decays` 中标记为 false 的张量（增益）只走 Adam 的一步。
# en: b70798d51e11a244
hint-07-gpt-AdamW--update-code =
    `self.step += 1; let t = self.step as i32;`，然后对每个张量 k：`let decay = if self.decays[k] {"{"} lr * self.weight_decay {"}"} else {"{"} 0.0 {"}"};`，对每个元素：`param[i] -= decay * param[i];`，再接第 06 课更新 m、v、m̂、v̂ 和参数的四行。
# en: 8aa0cdf7c9f638b9
hint-07-gpt-bits_per_byte-idea =
    total_nats 是各 token 的 −ln p 之和。把奈特换成比特（除以 ln 2），再平摊到文本的字节数上（除以 n_bytes），而不是 token 数上：这样两种分词器才能比较。
# en: 166028c595a4002a
hint-07-gpt-bits_per_byte-code =
    `total_nats / (n_bytes as Float * std::f64::consts::LN_2)`。
# en: 63a2791424565407
hint-07-gpt-unigram_bits_per_byte-idea =
    数出 train 中 256 种字节各出现几次。用加一平滑，P(b) = (count(b) + 1)/(len(train) + 256)：每个字节（即使没见过）都有概率。答案是 test 中各字节 −log₂ P(b) 的平均（用 log₂ 而不是 ln：单位是比特）。
# en: 3de3de6e342ff1d2
hint-07-gpt-unigram_bits_per_byte-code =
    `let mut counts = [0usize; 256]; for &b in train {"{"} counts[usize::from(b)] += 1; {"}"}`，然后 `test.iter().map(|&b| -((counts[usize::from(b)] + 1) as Float / (train.len() + 256) as Float).log2()).sum::<Float>() / test.len() as Float`。
# en: a1362169a8653adf
hint-07-gpt-bigram_bits_per_byte-idea =
    数出 train 中相邻字节对 (a, b) 的次数，以及以每个 a 开头的对有多少。P(b | a) = (count(a, b) + 1)/(count(a, ·) + 256)。test 的第一个字节前面没有字节：用一元模型给它打分。之后每个字节都以前一个字节为条件；平均是对 test 的全部字节（包括第一个）求的。
# en: 52f1832d84f678a1
hint-07-gpt-bigram_bits_per_byte-code =
    用 `train.windows(2)` 填好 `let mut pairs = vec![[0usize; 256]; 256]; let mut starts = [0usize; 256];`；`let mut bits = unigram_bits_per_byte(train, &test[..1]);`，然后对 `test.windows(2)` 中的每个 `w`：`bits -= ((pairs[a][b] + 1) as Float / (starts[a] + 256) as Float).log2();`，最后 `bits / test.len() as Float`。
# en: 518dbd686acc9452
hint-07-gpt-softmax_with_temperature-idea =
    把每个 logit 除以 T（不是乘：T < 1 必须让分布更尖锐），减去最大值使 exp 不会溢出，取指数，再除以总和。T 不为正时 panic：温度 0 是贪心解码，由 sample_next 处理，不做除法。
# en: db8555fe1c38242d
hint-07-gpt-softmax_with_temperature-code =
    `let max = logits.iter().copied().fold(Float::NEG_INFINITY, Float::max); let exps: Vec<Float> = logits.iter().map(|&l| ((l - max) / temperature).exp()).collect(); let sum: Float = exps.iter().sum(); exps.iter().map(|e| e / sum).collect()`。
# en: 5f89c703905702c3
hint-07-gpt-top_k_filter-idea =
    把 id 按概率从大到小排序，概率相等时 id 小的在前；保留前 k 个，其余设为 0，再把保留的除以它们的和，使它们重新加起来为 1。k = 0 或 k ≥ token 数时全部保留。
# en: df84b9fa241ae781
hint-07-gpt-top_k_filter-code =
    `let mut order: Vec<usize> = (0..probs.len()).collect(); order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));`，然后把 `order[..k]` 中各 id 的 `probs[id]` 拷到一个全零向量里，再重新归一化。
# en: d6c06f2e968f92fb
hint-07-gpt-top_p_filter-idea =
    按概率从大到小（相等时 id 小的在前）遍历 id，把每个都留下，并把它的概率加到累计和上；在使累计和达到或超过 p 的那个 token 之后立刻停止：它属于核。然后重新归一化。第一个 token 总会保留。
# en: cd85aa176722b79c
hint-07-gpt-top_p_filter-code =
    `let mut cumulative = 0.0; for id in order {"{"} kept[id] = probs[id]; cumulative += probs[id]; if cumulative >= p {"{"} break; {"}"} {"}"}`，其中 `kept` 是全零向量，`order` 与 top_k_filter 中相同；然后除以保留部分的和。
# en: 0a7ad37fe93f577b
hint-07-gpt-sample_next-idea =
    温度为 0 时：返回 argmax（相等的最大值中 id 最小的），不看 u。否则：先用温度得到概率，再做 top-k，再做 top-p；然后依次累加各 id 的概率，返回累计和第一次超过 u 的那个 id。若舍入误差使 u 高于总和，就返回最后一个概率非零的 id。
# en: 9d02e11198d64063
hint-07-gpt-sample_next-code =
    `let probs = top_p_filter(&top_k_filter(&softmax_with_temperature(logits, sampling.temperature), sampling.top_k), sampling.top_p); let mut cumulative = 0.0; let mut last = 0; for (id, &q) in probs.iter().enumerate() {"{"} if q > 0.0 {"{"} cumulative += q; last = id; if cumulative > u {"{"} return id; {"}"} {"}"} {"}"} last`。
# en: 54d766c01f843724
hint-07-gpt-CausalSelfAttention--forward-idea =
    第 03 课的多头注意力，改两处。把 x 投影三次（x W_qᵀ、x W_kᵀ、x W_vᵀ，没有偏置），再用 `split_heads` 分头。对每个头的查询和键做 `apply_rope(head, 0)`：在头内部、用 d_head 的频率、在投影之后；值永远不旋转。然后对每个头用第 02 课的 `scaled_dot_product_attention`，配 `causal_mask(n)`，用 `merge_heads` 合并输出，再用 W_o 投影。
# en: f654707cab9adf60
hint-07-gpt-CausalSelfAttention--forward-code =
    对 W_q 和 W_k 用 `let rotated = |w: &Matrix| split_heads(&x.dot(&w.t()), self.n_heads).iter().map(|h| apply_rope(h, 0)).collect::<Vec<_>>();`；值用 `split_heads(&x.dot(&self.w_v.t()), self.n_heads)`；把每个头的 `weights` 和合并后的输出存进返回的结构体。
# en: 6603f62ea2d4d511
hint-07-gpt-CausalSelfAttention--backward-idea =
    沿前向传播倒着走。dW_o = dYᵀ merged，d_merged = dY W_o，再分头。对每个头，第 02 课的 `scaled_dot_product_attention_backward` 给出旋转后的查询、键以及值的梯度；前向时旋转过查询和键，所以要用 `rope_backward(·, 0)` 把它们的梯度转回来。合并各头；然后 dW_q = dQᵀ x（K、V 同理），dx = dQ W_q + dK W_k + dV W_v：x 同时进入这三者。
# en: 5ec7e55301a7f724
hint-07-gpt-CausalSelfAttention--backward-code =
    `let f = self.forward(x); let d_out = split_heads(&d_y.dot(&self.w_o), self.n_heads);`，然后对每个头 i：`let g = scaled_dot_product_attention_backward(&f.q_heads[i], &f.k_heads[i], &f.v_heads[i], &f.weights[i], &d_out[i]);`，依次放入 `rope_backward(&g.d_q, 0)`、`rope_backward(&g.d_k, 0)`、`g.d_v`；每个列表用 `merge_heads` 合并。
# en: 01641008e373f503
hint-07-gpt-Block--forward-idea =
    两个子层，各自读取一份归一化后的副本，再把结果加回残差流本身：`a = norm_1(x)`，`h = x + attention(a)`，`b = norm_2(h)`，`y = h + feed_forward(b)`。残差加在 x 和 h 上，不是加在 a 和 b 上；y 不做归一化（模型最后的 RMSNorm 会在输出头之前做一次）。把 a、注意力的记录、h、b 和 y 存进返回的结构体。
# en: 3fba5509fbe33cad
hint-07-gpt-Block--forward-code =
    `let normed_1 = self.norm_1.forward(x); let attention = self.attention.forward(&normed_1); let residual = x + &attention.output; let normed_2 = self.norm_2.forward(&residual); let output = &residual + &self.feed_forward.forward(&normed_2).output;`
# en: 5e859f931a7d29e6
hint-07-gpt-Block--backward-idea =
    从上往下反向。第二个残差把 d_y 分两路送出：一路直接到 h，一路经过前馈层（在 b 处）和 norm_2（在 h 处）。所以 d_h = d_y + norm_2 的 d_x。第一个残差对 d_h 做同样的事：d_x = d_h + norm_1 对注意力的 d_x 求出的 d_x（注意力在 a 处，上游梯度是 d_h，不是 d_y）。每个子层的反向传播也给出它自己参数的梯度：把它们收进一个形状相同的 Block。
# en: 011c23fbd1adf6fd
hint-07-gpt-Block--backward-code =
    `let ff = self.feed_forward.backward(&f.normed_2, d_y); let n2 = self.norm_2.backward(&f.residual, &ff.d_x); let d_h = d_y + &n2.d_x; let at = self.attention.backward(&f.normed_1, &d_h); let n1 = self.norm_1.backward(x, &at.d_x); let d_x = &d_h + &n1.d_x;`，然后 `Block {"{"} norm_1: RmsNorm::from_gain(n1.d_gain), attention: CausalSelfAttention {"{"} n_heads: self.attention.n_heads, w_q: at.d_w_q, … {"}"}, … {"}"}`。
# en: d4be61dd68aaca4b
hint-07-gpt-Gpt--forward-idea =
    残差流从 token 在嵌入矩阵中的行开始（不加位置：RoPE 把位置放进了注意力里面）。每个块的输出是下一个块的输入；保留每一级残差流 x_0 … x_L 和每个块的记录。然后是最后的 RMSNorm 和输出头：乘以嵌入矩阵的转置，和查表用的是同一个矩阵（权重共享），所以 logits 是 (n, vocab)。
# en: 55904a6eb60cc2f3
hint-07-gpt-Gpt--forward-code =
    `let mut stream = vec![self.embedding.select(Axis(0), tokens)];`，然后对每个块 `let f = block.forward(stream.last().unwrap()); stream.push(f.output.clone()); blocks.push(f);`，最后 `let normed = self.norm_final.forward(stream.last().unwrap()); let logits = normed.dot(&self.embedding.t());`。
# en: e964cb02cd36cfff
hint-07-gpt-next_token_loss-idea =
    logits 的第 t 行预测 targets[t]。用 log p = log_softmax_rows(logits)（第 06 课，数值稳定），损失是 n 行上 −log p[t, targets[t]] 的平均值，单位是奈特。交叉熵平均值的梯度是 softmax 减去 one-hot 目标，再除以 n：每一行的每个位置都有梯度，不只是目标那一项。
# en: 7537ab4cf0f6b5dc
hint-07-gpt-next_token_loss-code =
    `let log_p = log_softmax_rows(logits); let mut d = log_p.mapv(Float::exp); let mut total = 0.0; for (t, &y) in targets.iter().enumerate() {"{"} total -= log_p[[t, y]]; d[[t, y]] -= 1.0; {"}"} let n = targets.len() as Float; Loss {"{"} value: total / n, d_logits: d / n, tokens: targets.len() {"}"}`。
# en: 089451cfdb237a87
hint-07-gpt-Gpt--backward-idea =
    把前向传播倒过来。输出头 logits = normed Eᵀ 给出两个梯度：d_normed = d_logits E，以及输出头对 dE 的那一份 d_logitsᵀ normed。然后在 x_L 处做最后 RMSNorm 的反向，再从最后一个块到第一个块依次反向，每个块用它自己的输入 x_l 和记录。最后是查表：d_x_0 的第 t 行加到 dE 的第 tokens[t] 行上，叠加在输出头那一份之上。出现两次的 token 会加上两行。
# en: bda260cc930a1b94
hint-07-gpt-Gpt--backward-code =
    `let mut d_e = d_logits.t().dot(&f.normed); let nf = self.norm_final.backward(&f.stream[l], &d_logits.dot(&self.embedding)); let mut d_x = nf.d_x;`，然后对 l in (0..l).rev() `let g = self.blocks[l].backward(&f.stream[l], &f.blocks[l], &d_x); d_x = g.d_x; grads.push(g.params);`（之后把列表反转），以及 `for (t, &tok) in tokens.iter().enumerate() {"{"} let mut r = d_e.row_mut(tok); r += &d_x.row(t); {"}"}`。
# en: 6564e6715354a4ea
hint-07-gpt-CausalSelfAttention--step-idea =
    新 token 位于位置 p = cache.len()。和 forward 一样，把 x 投影三次再分头。用位置 p 的 RoPE 旋转每个头的查询和键（不是 0：新 token 不是第一个），把旋转后的键和值压入缓存（在计算注意力之前：token 会关注它自己），然后用查询对缓存里所有的键和值做注意力，不加掩码：缓存里的都是过去。合并各头，再用 W_o 投影。
# en: ef9443f4430dce7e
hint-07-gpt-CausalSelfAttention--step-code =
    `let p = cache.len();` 对每个头 i：`let q = apply_rope(&q_heads[i], p); let k = apply_rope(&k_heads[i], p); cache.keys[i].push_row(k.row(0)).unwrap(); cache.values[i].push_row(v_heads[i].row(0)).unwrap(); outputs.push(scaled_dot_product_attention(&q, &cache.keys[i], &cache.values[i], None).output);`，然后 `merge_heads(&outputs).dot(&self.w_o.t())`。
# en: 3b494810a530a522
hint-07-gpt-Gpt--generate-idea =
    每个块建一个缓存（`new_caches`），把提示逐个 token 送进 `step`：最后一个提示 token 之后的 logits 预测第一个新 token。然后对每个新 token：从带种子的生成器抽取 u，用 sample_next 选出 id，压入结果，再把它送进 step 得到下一组 logits。无论温度多少，每个 token 都抽一次，这样抽样序列不依赖于温度。
# en: 8f3750524389891f
hint-07-gpt-Gpt--generate-code =
    `let mut rng = seeded_rng(seed); let mut caches = self.new_caches(); let mut logits = Vector::zeros(0); for &t in prompt {"{"} logits = self.step(t, &mut caches); {"}"} let mut tokens = prompt.to_vec(); for _ in 0..max_new_tokens {"{"} let u: Float = rng.random(); let next = sample_next(logits.as_slice().unwrap(), sampling, u); tokens.push(next); logits = self.step(next, &mut caches); {"}"} tokens`。
