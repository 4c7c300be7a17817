### Simplified Chinese (zh-CN) text of lesson 01-rnn-bottleneck's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-01-rnn-bottleneck-title
###   hint-01-rnn-bottleneck-<function, every :: written as -->-<the hint step's name>
### Each hint step is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po). Each message
### carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: 94895167f883ce89
lesson-01-rnn-bottleneck-title = RNN 的瓶颈

# en: 6fb019a404b778dc
hint-01-rnn-bottleneck-Rnn--step-idea =
    一步就是 h' = tanh(x W_xhᵀ + h W_hhᵀ + b)，一次处理 n 行：x 是 (n, d_in)，h 是 (n, d_hidden)，h' 是 (n, d_hidden)。权重按 (d_out, d_in) 存储，每个隐藏单元占一行，所以两个乘积中的权重都要转置。W_hh 是方阵，所以忘了转置它照样能编译、能运行，算出来的却是另一回事：在本章手算的例子中，z 必须是 [0.5, 0.5]；不转置 W_hh，得到的是 [0.5, −1.5]。
# en: 1498b18448262671
hint-01-rnn-bottleneck-Rnn--step-code =
    `let z = x.dot(&self.w_xh.t()) + h.dot(&self.w_hh.t()) + &self.b;`（把 `Vector` 加到 `Matrix` 上，会加到每一行），然后返回 `z.mapv(Float::tanh)`。漏了偏置、漏了 tanh、漏了 `h` 项，评分器都会明确指出。

# en: 07ed170eac8d2db5
hint-01-rnn-bottleneck-Rnn--step_backward-idea =
    把这一步倒着走一遍：先过 tanh，再过两个线性映射。tanh'(z) = 1 − tanh²(z) = 1 − h'²，所以导数由这一步的输出 `h_next` 求得（它已经作为参数给了你），而不是由 z 求得（1 − z²），也不是由上一个状态 `h` 求得。逐元素地，dz = dh' ⊙ (1 − h'²)，形状为 (n, d_hidden)。
# en: e48e773877d80a4e
hint-01-rnn-bottleneck-Rnn--step_backward-details =
    乘积部分按 Y = A B 的规则来（dA = dY Bᵀ，dB = Aᵀ dY）：前向传播乘的是 W_xhᵀ 和 W_hhᵀ，所以反向传播乘的是 W_xh 和 W_hh 本身：dx = dz W_xh (n, d_in)，dh = dz W_hh (n, d_hidden)。每个权重的梯度都与该权重形状相同：dW_xh = dzᵀ x (d_hidden, d_in)，dW_hh = dzᵀ h (d_hidden, d_hidden)，其中 h 是上一个状态，不是 h'。hᵀ dz 形状相同，却是它的转置：W_hh 是方阵，所以除了评分器，谁也发现不了。db = Σ_rows dz。
# en: 35c50aa4447df3af
hint-01-rnn-bottleneck-Rnn--step_backward-code =
    `let d_z = d_h_next * &h_next.mapv(|v| 1.0 - v * v);`，然后 `StepGrads {"{"} d_x: d_z.dot(&self.w_xh), d_h: d_z.dot(&self.w_hh), d_w_xh: d_z.t().dot(x), d_w_hh: d_z.t().dot(h), d_b: d_z.sum_axis(Axis(0)) {"}"}`。

# en: 210dd4fddbb4589c
hint-01-rnn-bottleneck-Rnn--forward-idea =
    `forward` 是一个遍历 `xs` 各行、一路携带状态的循环：每一步都从上一步返回的状态出发，而不是每次都从 h0 出发。结果的形状为 (T, d_hidden)，第 t 行是读入词元 t 之后的状态：h0 不是其中的一行，所以各个状态不能错开一位。空序列得到 (0, d_hidden)：先建一个这个形状的零矩阵，循环一次也不执行，结果自然就对了。
# en: fc7f79afab9f5f00
hint-01-rnn-bottleneck-Rnn--forward-code =
    先建一个可变的 `states`，即形状为 (`xs.nrows()`, `self.d_hidden()`) 的 `Matrix::zeros`，再建一个可变的 `h`，即 `as_row(h0)`，一个 (1, d_hidden) 矩阵。然后对 `t in 0..xs.nrows()`：把 `h` 换成以 `row(xs, t)` 和当前的 `h` 调用 `self.step` 的结果，再把新状态复制到 `states` 的第 t 行：先 `states.row_mut(t)`，再用 `h` 唯一的一行 `h.row(0)` 调用 `.assign`。返回 `states`。

# en: e5f2dfc826193583
hint-01-rnn-bottleneck-Rnn--backward-idea =
    随时间反向传播让 t 从 T − 1 一路走到 0（`for t in (0..len).rev()`），携带一个形状为 (1, d_hidden)、初始为零的梯度 `d_h`。每一步先把 `d_states` 的第 t 行加到它上面：到达状态 t 的梯度，是它自己的上游梯度加上后面各步传回来的梯度。要累加，不要替换；并且要用到 `d_states` 的每一行，而不只是最后一行：损失可以读取任何一个状态。
# en: 1aaddc2b98fdbc33
hint-01-rnn-bottleneck-Rnn--backward-details =
    第 t 步读入的是词元 t 和上一个状态：t = 0 时上一个状态是 `as_row(h0)`，否则是 `row(states, t - 1)`；这一步的输出是 `row(states, t)`。所以调用 `self.step_backward(&row(xs, t), &h_prev, &row(states, t), &d_h)`。每一步用的都是同一组权重，所以它们的梯度是各步之和：从零开始（形状与各权重相同），把每一步的那一份累加（`+=`）上去。如果用覆盖，就只剩下第 0 步的那一份，也就是最后访问的那一步。
# en: a083d14abc71db49
hint-01-rnn-bottleneck-Rnn--backward-code =
    循环之前，建一个全零的可变 `RnnGrads`：`Matrix::zeros(xs.dim())`、`Matrix::zeros(self.w_xh.dim())`、`Vector::zeros(d_hidden)`……循环之中：用 `+=` 把 `row(d_states, t)` 加进 `d_h`，调用 `step_backward`，把 `step.d_x.row(0)` 复制到 `grads.d_xs` 的第 t 行（先 `row_mut(t)`，再 `.assign`），用 `+=` 把 `step.d_w_xh` 加进 `grads.d_w_xh`（`d_w_hh` 和 `d_b` 同理），然后把 `step.d_h` 移入 `d_h`。循环之后，`grads.d_h0` 是 `d_h` 唯一的一行 `.row(0)`，再用 `.to_owned()` 转成自有的数据。

# en: 7ca0f067a795f651
hint-01-rnn-bottleneck-Rnn--encode-idea =
    上下文向量是编码器的最后一个状态 h_T：`forward` 所返回状态的最后一行，不是第一行，也不是各行的平均。没有词元时就一行也没有，这时上下文就是第一个词元之前的状态 h0。
# en: 09dacfc0a2d0e236
hint-01-rnn-bottleneck-Rnn--encode-code =
    `let states = self.forward(xs, h0);`，然后 `match states.nrows() {"{"} 0 => h0.clone(), len => states.row(len - 1).to_owned() {"}"}`。
