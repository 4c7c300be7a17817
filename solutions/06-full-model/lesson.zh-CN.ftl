### Simplified Chinese (zh-CN) text of lesson 06-full-model's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-06-full-model-title
###   hint-06-full-model-<function, every :: written as -->-<the hint step's name>
### Each hint step is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po). Each message
### carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: 8076e411f8c2f738
lesson-06-full-model-title = 完整模型

# en: 9736364306abbc6f
hint-06-full-model-days_in_month-idea =
    对月份做 `match`：1、3、5、7、8、10、12 月有 31 天；4、6、9、11 月有 30 天；2 月闰年 29 天，否则 28 天；其他月份一律 panic。陷阱在于整百年的规则：能被 4 整除的年份是闰年，但整百年例外，整百年只有能被 400 整除时才是闰年（2000 年是，1900 年和 2100 年不是）。
# en: 205da7003ebb8867
hint-06-full-model-days_in_month-code =
    一个 `bool` 值 `leap`：`year.is_multiple_of(4)` 成立且 `year.is_multiple_of(100)` 不成立，或者 `year.is_multiple_of(400)` 成立。然后用或模式（or-pattern）写 `match month`：分支 `1 | 3 | 5 | 7 | 8 | 10 | 12` 得 31，分支 `4 | 6 | 9 | 11` 得 30，接着 `2 if leap` 得 29，单独的 `2` 得 28，`_` 则带着信息 panic。

# en: 52d3a5e5af35f221
hint-06-full-model-day_of_week-idea =
    从一个已知星期几的日期开始数天数，再对 7 取模，星期一为 0（不是星期日）。最简单的参照是公元 1 年 1 月 1 日，在前推格里高利历中是星期一：所有日期都在它之后，所以天数不会是负的，`% 7` 就是星期几。（如果用契约中的 2000 年 1 月 1 日，那天是星期六，即 5，2000 年之前的日期会得到负的天数：要对有符号数用 `rem_euclid(7)`。）
# en: b17cda319aae0c6a
hint-06-full-model-day_of_week-code =
    设 `y = year − 1`，`year` 年 1 月 1 日之前的天数是 `365·y + y/4 − y/100 + y/400`（整数除法；后三项合起来是此前各年的闰日数）。再对每个 `m in 1..month` 加上 `days_in_month(year, m)`，然后加上 `day − 1`；总数对 7 取模，再 `as usize`，就是星期几。

# en: cfa5857088af1d08
hint-06-full-model-Batch--new-idea =
    教师强制：对目标序列 `y_1 … y_n`，解码器读入 `BOS y_1 … y_n`，必须预测出 `y_1 … y_n EOS`，两者都比目标序列长 1。所以 `S` 是最长源序列的长度，`T` 是最长目标序列的长度加 1，每一行都用 `PAD` 填充到所在字段的长度。按契约，`pairs` 为空时要 panic：用 `assert!` 检查。
# en: f6ba5bf343bf447b
hint-06-full-model-Batch--new-code =
    `let s = pairs.iter().map(|(src, _)| src.len()).max().unwrap_or(0)`（`t` 同理，再加 1）。对每个句对：源序列克隆后 `resize(s, PAD)`；`tgt_in` 是把 `std::iter::once(BOS).chain(tgt.iter().copied())` 收集成 `Vec`，再 `resize(t, PAD)`；`tgt_out` 是 `tgt.iter().copied().chain(std::iter::once(EOS))`，收集后调整到长度 `t`。把它们分别推入 `Batch` 的三个 `Vec`。

# en: 5a493b82ad3e226b
hint-06-full-model-xavier_uniform-idea =
    Xavier 均匀分布：`U(−a, a)`，其中 `a = √(6 / (fan_in + fan_out))`。权重按 (d_out, d_in) 存储，所以 `fan_out = rows`，`fan_in = cols`；即使反过来对应，和也一样，都是 `rows + cols`。于是方差为 a²/3 = 2/(fan_in + fan_out)。常见错误：只用扇入或扇出之一来算 `a`，或者漏了 6。
# en: 28e2a7f5531cae1b
hint-06-full-model-xavier_uniform-code =
    `a` 是 `6.0` 除以 `rows + cols`（除法之前先转换成 `Float`）的平方根；然后以形状 (rows, cols) 调用 `Matrix::from_shape_fn`，闭包忽略下标，抽取 `rng.random_range(-a..a)`。

# en: acded129904f6c2c
hint-06-full-model-embedding_init-idea =
    元素服从正态分布，均值 0，标准差 `1/√d_model`：第 04 课的 `Embedding` 会把每一行乘以 `√d_model`，所以第一层看到的元素标准差为 1，与位置编码的大小相当。不是 PyTorch 的 `N(0, 1)`（那样嵌入会淹没位置信息），也不是均匀分布的抽样：使用给定的 `standard_normal(rng)`。
# en: 777cf25a67e8f9bd
hint-06-full-model-embedding_init-code =
    `std` 是 1 除以 `d_model`（转换为 `Float`）的平方根；然后以形状 (vocab, d_model) 调用 `Matrix::from_shape_fn`，闭包忽略下标，返回 `std` 乘以 `standard_normal(rng)`。

# en: 2a9b76f3f4d5058e
hint-06-full-model-key_padding_mask-idea =
    键 `j` 是真实词元时，`mask[[i, j]]` 为 `true`，`n_queries` 行中的每一行都一样：要回答的是，哪些键不是 `PAD`？其余的交给第 02 课的 `padding_mask(n_queries, &is_token)`。形状为 (n_queries, keys.len())：行数来自 `n_queries`，而不是来自键（交叉注意力的掩码是 (T, S)）。
# en: e140cba2967ccf7e
hint-06-full-model-key_padding_mask-code =
    `is_token` 是一个 `Vec<bool>`：遍历 `keys`，把每个词元 `t` 映射为 `t != PAD`，然后 `.collect()`；最后返回 `padding_mask(n_queries, &is_token)`。

# en: ce441f455c7a9cf0
hint-06-full-model-target_mask-idea =
    同时满足两个条件：`j <= i`（第 02 课的 `causal_mask`：下三角，包括对角线，所以每个位置能看到自己）和 `tgt_in[j] != PAD`（本课的 `key_padding_mask`）。两者都是 (T, T)，其中 `T = tgt_in.len()`；对两个布尔数组做 `&`，会逐元素地把它们组合起来。只用填充掩码的话，位置 i 就能看到它必须预测的词元。
# en: ed436dc64d958b3b
hint-06-full-model-target_mask-code =
    `let n = tgt_in.len();`，然后 `&causal_mask(n) & &key_padding_mask(n, tgt_in)`。

# en: a40a932a6e420b1d
hint-06-full-model-Transformer--encode-idea =
    三步：输入 `√d_model · E_src[src] + PE`（第 04 课的 `embed_with_positions` 既做缩放，也加位置编码），所有层共用一个掩码 `key_padding_mask(S, src)`，然后依次经过各层，每层读取上一层的输出，而不是嵌入。保留每一层前向传播的结果：反向传播需要知道每一层看到了什么、算出了什么。
# en: 945e221f03dd4ef8
hint-06-full-model-Transformer--encode-code =
    `input` 是以 `&self.src_embedding`、`src` 和 `&self.positions` 调用 `embed_with_positions` 的结果；`mask` 是 `key_padding_mask(src.len(), src)`；可变的 `x` 初始为 `input` 的克隆。然后对 `self.encoder` 中的每一层：以 `&x` 和 `Some(&mask)` 调用它的 `forward`；`x` 变为这次前向传播的 `output` 的克隆，再把这次前向传播的结果推入 `layers`。返回一个包含 `input`、`layers` 和 `output: x` 的 `EncoderForward`。

# en: c6be80830c4cb3f1
hint-06-full-model-Transformer--decode-idea =
    与 `encode` 相同，只有三处不同：对 `tgt_in` 用目标端的嵌入 `self.tgt_embedding`；两个掩码，自注意力用 `target_mask(tgt_in)` (T, T)，交叉注意力用 `key_padding_mask(T, src)` (T, S)（查询来自目标序列，键来自源序列）；并且每一层读取的都是同一个 `memory`，即编码器最后的输出。
# en: f65306fbdf0dce36
hint-06-full-model-Transformer--decode-code =
    `let self_mask = target_mask(tgt_in);`、`let memory_mask = key_padding_mask(tgt_in.len(), src);`，在遍历 `self.decoder` 的循环中：`let f = layer.forward(&x, memory, Some(&self_mask), Some(&memory_mask));`、`x = f.output.clone();`、`layers.push(f);`。返回一个 `DecoderForward`。

# en: 60ca9d4cab1b8689
hint-06-full-model-Transformer--forward-idea =
    遍历各个句对：编码 `batch.src[b]`，再以得到的 memory 解码 `batch.tgt_in[b]`，两次前向传播的结果都保留下来，每个句对一份，按批次中的顺序排列。然后把 `B` 个解码器输出（每个为 (T, d_model)）上下堆叠成 (B·T, d_model)，使第 `b·T + t` 行对应第 b 个句对的位置 t（与 `batch.targets()` 的顺序一致），再用 `self.output` 一次投影所有行：得到 logits，形状为 (B·T, vocab)。
# en: dc23d462e1df4faa
hint-06-full-model-Transformer--forward-code =
    遍历 `batch.src.iter()` 与 `&batch.tgt_in` zip 后的结果：`enc` 是 `self.encode(src)`；把以 `tgt_in`、`src` 和 `&enc.output` 调用 `self.decode` 的结果推入 `decoder`，再把 `enc` 推入 `encoder`。然后收集一个由视图组成的 `Vec`，`decoder` 中每次前向传播对应一个 `d.output.view()`；`concatenate(Axis(0), &views)`（它返回 `Result`：接 `.expect(..)`）就是 `decoder_output`，logits 则是 `self.output.forward(&decoder_output)`。

# en: ed71e927e4b4a5f3
hint-06-full-model-Transformer--encode_backward-idea =
    把前向传播倒过来：从最后一层走到第一层，携带 `d_x`，它的初始值是 `d_memory`。第 i 层的 `backward` 需要它当初看到的输入：i = 0 时是 `forward.input`，否则是 `forward.layers[i - 1].output`。它返回的 `d_x` 就是下面一层的上游梯度。把它的参数梯度累加进 `grads.encoder[i]`，绝不能赋值：`grads` 是对整个批次求和的。
# en: 7435245a9bd54375
hint-06-full-model-Transformer--encode_backward-code =
    `for (i, layer) in self.encoder.iter().enumerate().rev()`：选出 `input`，`let g = layer.backward(input, &forward.layers[i], &d_x);`，`add_encoder_layer_grads(&mut grads.encoder[i], &g);`，`d_x = g.d_x;`。循环之后，`grads.src_embedding.weight += &self.src_embedding.backward(src, &d_x);`（位置编码表是常量，不接收梯度）。

# en: 16a00e4f5a8fb3c8
hint-06-full-model-Transformer--decode_backward-idea =
    与 `encode_backward` 一样，只是遍历的是 `self.decoder`，从 `d_output` 开始，调用 `layer.backward(input, memory, &forward.layers[i], &d_x)`，并用 `add_decoder_layer_grads` 累加进 `grads.decoder[i]`；最后的 `d_x` 进入 `grads.tgt_embedding.weight`。新的是返回值：每一层读取的都是同一个 memory，所以它的梯度是每一层的 `d_memory` 之和，而不能只取最后一层的。
# en: 5dd01ac4ada54174
hint-06-full-model-Transformer--decode_backward-code =
    循环之前 `let mut d_memory = Matrix::zeros(memory.dim());`；循环之中，在 `d_x = g.d_x;` 旁边加上 `d_memory += &g.d_memory;`；循环之后 `grads.tgt_embedding.weight += &self.tgt_embedding.backward(tgt_in, &d_x);`，并返回形状为 (S, d_model) 的 `d_memory`。

# en: e942ee0970be0488
hint-06-full-model-Transformer--backward-idea =
    梯度本身就是一个模型：从 `self.zeros_like()` 开始，往里面累加。先处理输出投影：它的输入是堆叠起来的解码器输出，所以 `self.output.backward(&forward.decoder_output, d_logits)` 给出它的权重和偏置的梯度，以及 `d_x`，形状为 (B·T, d_model)。然后逐个句对，把这个 `d_x` 的第 `b·T .. (b+1)·T` 行反向传回解码器，解码器返回的 `d_memory` 再反向传回同一句对的编码器。
# en: 453069137ab38e74
hint-06-full-model-Transformer--backward-code =
    `out` 是以 `&forward.decoder_output` 和 `d_logits` 调用 `self.output.backward` 的结果；用 `add_linear_grads` 把它累加进 `grads.output`。记 `t` 为该批次的 `target_len()`，对每个 `b in 0..batch.len()`：`d_output` 是 `out.d_x` 从第 `b * t` 行起、到第 `(b + 1) * t` 行之前的各行（用 `s![..]` 做 `slice`，取所有列），再 `.to_owned()`；`d_memory` 是以 `&batch.tgt_in[b]`、memory `&forward.encoder[b].output`、`&forward.decoder[b]`、`&d_output` 和 `&mut grads` 调用 `self.decode_backward` 的结果；然后以 `&batch.src[b]`、`&forward.encoder[b]`、`&d_memory` 和 `&mut grads` 调用 `self.encode_backward`。

# en: dbfc88b3a2262b71
hint-06-full-model-smoothed_targets-idea =
    采用 PyTorch 的定义：第 r 行是 `(1 − ε)·onehot(targets[r]) + ε/V`，分布在全部 `V = vocab` 个类别上，包括 `PAD` 和 `BOS`：正确类别得到 `1 − ε + ε/V`，其他每个类别得到 `ε/V`。目标为 `PAD` 的行保持全零。不是 Annotated Transformer 的平滑方式（正确类别 1 − ε，其他类别 ε/(V − 2)，填充列为 0）。如果某个目标不小于 `vocab`，就 panic。
# en: b5fd323d29a5cccf
hint-06-full-model-smoothed_targets-code =
    可变的 `q`，即形状为 (targets.len(), vocab) 的 `Matrix::zeros`；然后把它的各行与目标 zip 起来循环（`q.rows_mut().into_iter().zip(targets)`，绑定 `mut row` 和 `&target`）：`assert!(target < vocab, ..)`，用 `continue` 跳过 `PAD`，用 `smoothing / vocab as Float` 做 `row.fill`，再给 `row[target]` 加上 `1.0 - smoothing`。

# en: b2034cd39c4c8294
hint-06-full-model-log_softmax_rows-idea =
    逐行计算（每个目标位置一个分布）：`log p_c = z_c − m − ln Σ_c' exp(z_c' − m)`，其中 `m` 是该行的最大值。减去最大值可以防止 `exp` 溢出（测试中有值为 1000 的 logits）；如果改为对第 02 课的 softmax 取 `ln`，极小的概率会得到 `ln 0 = −∞`。
# en: 14e931a22e4110be
hint-06-full-model-log_softmax_rows-code =
    把 `logits` 克隆成可变的 `out`，然后 `for mut row in out.rows_mut()`：`max` 是从 `Float::NEG_INFINITY` 开始的 `row.fold`，每次保留当前最大值 `m` 与元素 `x` 中较大的那个（`m.max(x)`）；`log_sum` 是该行各元素的 `(x - max).exp()` 之和（`.sum::<Float>()`）的 `ln`；然后用 `row.mapv_inplace` 从每个元素中减去 `max` 和 `log_sum` 两者。返回 `out`。

# en: 0cc011741a23f4a1
hint-06-full-model-cross_entropy_loss-idea =
    记 `q = smoothed_targets(targets, V, ε)`，`log_p = log_softmax_rows(logits)`：`value = −Σ q ⊙ log p / N`，其中 N 是不为 `PAD` 的目标个数，而不是行数（填充不能改变损失）。softmax 后接交叉熵，其梯度逐行来看就是 `(p − q)/N`，其中 `p = exp(log p)`：不需要雅可比矩阵。
# en: 4a39d62e77be14b4
hint-06-full-model-cross_entropy_loss-details =
    两个陷阱。`d_logits` 中填充对应的行必须为 0：那里 `q` 为 0，`p` 却不为 0，所以在减去 `q` 之前，先把 `p` 乘以一个 (n, 1) 的列，词元处为 1，`PAD` 处为 0。另外，如果所有目标都是 `PAD`，N 就是 0：除以 `N.max(1)`，这样损失为 0、梯度为零，而不是 NaN。`Loss` 的 `tokens` 就是 N。
# en: 81e350163f0246b4
hint-06-full-model-cross_entropy_loss-code =
    `tokens` 是不为 `PAD` 的目标个数（`targets.iter()`、`.filter`、`.count()`）；`n` 是转换为 `Float` 的 `tokens.max(1)`；`value` 是 `&q * &log_p` 的 `.sum()` 取负，再除以 `n`。`is_token` 是把各目标映射为 `1.0` 或 `0.0`，收集成 `Vector`，再 `.insert_axis(Axis(1))`；`d_logits` 是 `log_p.mapv(Float::exp)` 乘以 `&is_token`，减去 `&q`，整体除以 `n`。

# en: ed041fb7f645ce4b
hint-06-full-model-noam_rate-idea =
    `factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)`：第二项是一条在预热期间上升的直线，第一项是 1/√step 的衰减；两者在 step = warmup 处相交，也就是峰值。第 0 步按第 1 步算（0^−0.5 是 ∞）。检验：d_model 为 512、warmup 为 4000、factor 为 1 时，第 1 步得 1.747e-7，第 4000 步得 6.988e-4。
# en: 726d48bec096f8cc
hint-06-full-model-noam_rate-code =
    用转换为 `Float` 的 `step.max(1)` 遮蔽（shadow）`step`；结果是 `factor` 乘以 `(d_model as Float).powf(-0.5)`，再乘以 `step.powf(-0.5)` 与 `step` 乘 `(warmup as Float).powf(-1.5)` 两者中较小的那个（`.min`）。

# en: 2a60376f1620bbb3
hint-06-full-model-clip_global_norm-idea =
    整个梯度只有一个范数：`‖g‖ = √(Σ g²)`，对所有张量的所有元素一起计算。逐个张量分别裁剪会改变梯度的方向：`max_norm` = 1 时，[3, 4] 和 [12] 必须变成 [3, 4, 12]/13，而不是 [0.6, 0.8] 和 [1]。范数大于 `max_norm` 时，把每个元素乘以 `max_norm / norm`；小于或等于时，什么都不改。返回裁剪之前的范数。
# en: cffdcc6bafe23980
hint-06-full-model-clip_global_norm-code =
    `norm` 是所有元素平方和的平方根（`.sqrt()`）：`grads.iter()`，用 `.flat_map` 展开成各张量的元素，用 `.map` 把每个元素映射为它的平方，再 `.sum::<Float>()`。然后，如果 `norm > max_norm`，`scale` 就是 `max_norm` 除以 `norm`，把 `grads.iter_mut()` 中每个 `tensor` 的每个 `g` 就地乘以它（`*g *= scale`）。返回 `norm`。

# en: c362978363f6c6f0
hint-06-full-model-Adam--update-idea =
    先把 `self.step` 加 1，使第一次更新时 t = 1。然后，对每个张量 k 的每个元素 i 及其梯度 g：`m = β₁m + (1−β₁)g`，`v = β₂v + (1−β₂)g²`（存入 `self.m[k][i]` 和 `self.v[k][i]`，不做修正），以及 `θ −= lr · m̂ / (√v̂ + ε)`，其中 `m̂ = m/(1 − β₁ᵗ)`，`v̂ = v/(1 − β₂ᵗ)`。常见错误：没有偏差修正（在 β₁ = 0.9、β₂ = 0.98 时，第一步的步长就成了 0.71·lr），t 从 0 开始计数（会除以 0），把 ε 放进平方根里，用 `+=` 代替 `-=`。
# en: bef3dae5152e6881
hint-06-full-model-Adam--update-code =
    给 `self.step` 加 1，然后 `t` 是转换为 `i32` 的 `self.step`（供 `powi` 使用）；`c1` 是 `1.0` 减 `self.beta1.powi(t)`，`c2` 同理，用 `beta2`。然后遍历 `params.iter_mut().zip(grads).enumerate()`，绑定 `(k, (param, grad))`，再遍历 `i in 0..param.len()`：更新 `self.m[k][i]` 和 `self.v[k][i]`，然后从 `param[i]` 中减去：`lr` 乘以 `m / c1`，再除以 `v / c2` 的平方根与 `self.eps` 之和。断言各尺寸相符：按契约，不相符时要 panic。

# en: f047324c18b5ea15
hint-06-full-model-train_step-idea =
    五次调用，按契约中的顺序：前向传播、损失、反向传播、裁剪、更新。损失把 logits 与 `batch.targets()` 比较（即 `tgt_out` 的各行首尾相接，与 logits 各行的顺序相同）；裁剪返回的是裁剪之前的范数；Adam 用裁剪后梯度的张量（`parameters()`）更新模型的张量（`parameters_mut()`），两者顺序相同。报告的是更新之前的损失。
# en: 463b2f28ea3f4b88
hint-06-full-model-train_step-code =
    `forward` 是 `model.forward(batch)`；`loss` 是以 `&forward.logits`、`&batch.targets()` 和 `smoothing` 调用 `cross_entropy_loss` 的结果；可变的 `grads` 是以 `batch`、`&forward` 和 `&loss.d_logits` 调用 `model.backward` 的结果；`grad_norm` 是以 `&mut grads.parameters_mut()` 和 `clip_norm` 调用 `clip_global_norm` 的结果；然后以 `&mut model.parameters_mut()`、`&grads.parameters()` 和 `lr` 调用 `adam.update`；最后是一个 `StepReport`，其中 `step: adam.step as usize`，`tokens: loss.tokens`。

# en: 4d9275aad5a45209
hint-06-full-model-cached_attention-idea =
    就是去掉了键和值投影的第 03 课 `MultiHeadAttention::forward`：`keys` 和 `values` 已经是 `x W_kᵀ + b_k` 和 `x W_vᵀ + b_v`，所以要避免的错误就是对它们再用一次 `w_k` 或 `w_v`。只有查询要投影，用 `mha.w_q`；然后拆成 `mha.n_heads` 个宽为 d_k 的头，每个头用第 02 课的注意力（它会除以 √d_k，并在 softmax 之前施加掩码），再合并各头，最后经过 `mha.w_o`。
# en: 8817c17cfd32e0fd
hint-06-full-model-cached_attention-code =
    `let q = split_heads(&mha.w_q.forward(query_input), mha.n_heads);`，`let k = split_heads(keys, mha.n_heads);`，`v` 同理；各头的输出是把 `(0..mha.n_heads).map(|h| scaled_dot_product_attention(&q[h], &k[h], &v[h], mask).output)` 收集成的 `Vec<Matrix>`；结果是 `mha.w_o.forward(&merge_heads(&heads))`。

# en: 956a6dd151c3fe7e
hint-06-full-model-Transformer--start_decoding-idea =
    源序列只编码一次：`self.encode(src).output` 就是 memory，形状为 (S, d_model)。交叉注意力由 memory 得到的键和值在解码过程中从不改变，所以现在就为每个解码器层算好，用的是 `layer.cross_attention` 的 `w_k` 和 `w_v`（不是自注意力的）。自注意力的缓存一开始是空的，形状为 (0, d_model)；memory 的掩码是 `key_padding_mask(1, src)`，只有一行，对应每一步唯一的那个查询；`position` 为 0。
# en: badcf8aa7f22fa20
hint-06-full-model-Transformer--start_decoding-code =
    `memory` 是 `self.encode(src).output`；然后把 `self.decoder.iter()` 的每一层映射为一个 `LayerCache`：`keys` 和 `values` 都是 `Matrix::zeros((0, self.config.d_model))`，`memory_keys` 是 memory 经过 `layer.cross_attention.w_k.forward` 的结果，`memory_values` 同理，用 `w_v`；把它们收集到 `layers` 中，返回一个 `DecoderCache`，包含 `layers`、设为 `key_padding_mask(1, src)` 的 `memory_mask`，以及 `position: 0`。

# en: 1bdb976a21c8009a
hint-06-full-model-Transformer--decode_step-idea =
    让一行穿过解码器，计算方式与完整的前向传播计算第 `cache.position` 行时完全相同。这一行是 `self.tgt_embedding.forward(&[token])`（已乘以 √d_model）加上位置 `cache.position` 的位置编码，而不是位置 0 的：`add_positional_encoding(&embedded, &self.positions, cache.position)`（`embed_with_positions` 总是从 0 开始）。最后，对最后一层输出的这一行调用 `self.output`，再 `.row(0).to_owned()`，就是形状为 (vocab,) 的 logits；然后 `cache.position += 1`。
# en: 9c1196fe023a224a
hint-06-full-model-Transformer--decode_step-details =
    在每一层中（把 `self.decoder` 与 `cache.layers.iter_mut()` zip 起来），根据该层的 `norm_position`，按第 05 课 `DecoderLayer::forward` 的做法来算。自注意力的输入 `a`：post-LN 时就是这一行 `x`，pre-LN 时是 `layer.norm_1.forward(&x)`；用 `push_row` 把 `sa.w_k.forward(&a)` 的那一行追加到缓存的 `keys` 上，把 `sa.w_v.forward(&a)` 的那一行追加到它的 `values` 上（只追加，绝不替换；对返回的 `Result` 调用 `.expect(..)`），然后 `cached_attention(sa, &a, &kv.keys, &kv.values, None)`：不需要掩码，因为缓存里只有过去和现在。
# en: 801aa6d073d3d83c
hint-06-full-model-Transformer--decode_step-code =
    然后对这一行完成该层的其余部分。Post-LN：`h1 = norm_1(x + self_out)`，`cross = cached_attention(ca, &h1, &kv.memory_keys, &kv.memory_values, Some(&cache.memory_mask))`，`h2 = norm_2(h1 + cross)`，`x = norm_3(h2 + ffn(h2).output)`。Pre-LN：`h1 = x + self_out`，交叉注意力的查询是 `norm_2(h1)`，`h2 = h1 + cross`，`x = h2 + ffn(norm_3(h2)).output`。

# en: 764d020f2cbf5ad0
hint-06-full-model-greedy_decode-idea =
    故意用慢的办法：源序列只编码一次；解码器的输入从 `[BOS]` 开始（绝不是 `PAD`：模型训练时第一个词元是 `BOS`）；每一步都对整个前缀运行 `model.decode`，只用最后一行的 logits 给下一个词元打分（其他行都不用），由给定的 `next_token` 选出（它从不选 `PAD` 或 `BOS`）。选到 `EOS` 时，或已生成 `max_len` 个词元后停止；返回生成的词元，不含 `BOS` 和 `EOS`。
# en: 1687c00619ee1e93
hint-06-full-model-greedy_decode-code =
    `memory` 是 `model.encode(src).output`，可变的 `tokens` 初始为只含 `BOS` 的向量。然后，当 `tokens.len() <= max_len` 时：`decoded` 是以 `&tokens`、`src` 和 `&memory` 调用 `model.decode` 所得的 `.output`；`last` 是它的最后一行，作为 (1, d_model) 矩阵，即转为自有数据的 `decoded.slice(s![decoded.nrows() - 1.., ..])`；`next` 是对 `model.output.forward(&last)` 的第 0 行调用 `next_token` 的结果；遇到 `EOS` 就 `break`，否则把它推入 `tokens`。返回 `tokens.split_off(1)`。

# en: b39291be7565e23d
hint-06-full-model-greedy_decode_cached-idea =
    同样的循环，加上缓存：先 `model.start_decoding(src)`，然后每个词元调用一次 `decode_step`，第一次喂入 `BOS`，之后每次喂入由上一步的 logits（`logits.view()`）经 `next_token` 选出的词元。每个词元只喂一次：`decode_step` 会把它追加到缓存中并推进位置。停止规则和结果都与 `greedy_decode` 相同：遇到 `EOS`，或已生成 `max_len` 个词元时停止。
# en: 0adae6d082b39d03
hint-06-full-model-greedy_decode_cached-code =
    由 `model.start_decoding(src)` 得到可变的 `cache`，可变的 `token` 初始为 `BOS`，再建一个空的 `tokens`；`while tokens.len() < max_len`：`logits` 是以 `&mut cache` 和 `token` 调用 `model.decode_step` 的结果；`token` 变为对 `logits.view()` 调用 `next_token` 的结果；遇到 `EOS` 就 `break`，否则 `tokens.push(token)`。返回 `tokens`。
