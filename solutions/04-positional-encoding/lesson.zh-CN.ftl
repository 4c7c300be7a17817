### Simplified Chinese (zh-CN) text of lesson 04-positional-encoding's title and hints, whose English
### is in lesson.toml beside this file. `cargo xtask stubs` gathers every lesson's file
### into the checker's checker/locales/zh-CN/course.ftl.
###
### Message ids:
###   lesson-04-positional-encoding-title
###   hint-04-positional-encoding-<function, every :: written as -->-<the hint step's name>
### Each hint step is one paragraph on one line (the checker wraps it). Code in
### backticks, formulas, shapes and numbers are as in the English; the terms follow the
### book's glossary (book/src/glossary.md, in Chinese in book/po/zh-CN.po). Each message
### carries the stamp of the English it translates (`# en:`); see CONTRIBUTING.md.

# en: 4b2c388b8bfb1450
lesson-04-positional-encoding-title = 位置编码

# en: 0c1f9a72b3a84653
hint-04-positional-encoding-frequencies-idea =
    ω_i = 10000^(−2i/d_model)，i = 0, 1, ..., d_model/2 − 1：每个 (sin, cos) 对一个频率，共 d_model/2 个，从 ω_0 = 1 开始，每个都比前一个小。i 数的是对，不是列：指数是 −2i/d_model（不是 −i/d_model，也不是 −col/d_model，而且是负的）。先用 `assert!` 检查 `d_model` 是偶数，信息中要说明 d_model 必须是偶数。
# en: 52433674f2f1d926
hint-04-positional-encoding-frequencies-code =
    `Vector::from_shape_fn(d_model / 2, |i| PE_BASE.powf(-((2 * i) as Float) / d_model as Float))`。除法之前先转换成 `Float`：`(2 * i / d_model) as Float` 先做两个整数的除法，对每个 i 都得到 0，于是每个频率都会是 1。

# en: 6764b513767a3d2a
hint-04-positional-encoding-sinusoidal_table-idea =
    第 2i 列是 sin(pos·ω_i)，第 2i + 1 列是同一频率的余弦：交错排列，正弦在前，位置从 0 开始计数。所以第 `col` 列所属的对的序号是 `col / 2`。不是先放全部正弦、再放全部余弦（那是另一张表），也不是 cos 在 sin 之前。频率取自 `frequencies(d_model)`：它还会拒绝奇数的 d_model，并给出正确的信息。
# en: 3cf21b88786605fa
hint-04-positional-encoding-sinusoidal_table-code =
    `Matrix::from_shape_fn((max_len, d_model), |(pos, col)| ...)`：角度是 `pos as Float * omega[col / 2]`，`col` 为偶数时元素取它的正弦，为奇数时取它的余弦。第 0 行必须是 [0, 1, 0, 1, ...]。

# en: 1cba4775f72db909
hint-04-positional-encoding-Embedding--forward-idea =
    查表：结果的第 t 行是权重的第 `tokens[t]` 行，乘以 `self.scale()` = √d_model（论文第 3.4 节；很容易忘）。形状为 (tokens.len(), d_model)。不小于 `self.vocab_size()` 的词元 id 不能拿去索引：先用 `assert!` 检查，信息中写明该词元和词表大小。
# en: b2bda96259b86201
hint-04-positional-encoding-Embedding--forward-code =
    建一个 `Matrix::zeros((tokens.len(), self.d_model()))`，然后连同对应的词元遍历它的各行，`for (mut row, &token) in out.rows_mut().into_iter().zip(tokens)`：检查词元，然后 `row.assign(&(&self.weight.row(token) * self.scale()))`。

# en: 4a7e7344da1a29eb
hint-04-positional-encoding-Embedding--backward-idea =
    查表的梯度是一次分散累加（scatter-add）：结果的第 v 行，等于词元 v 出现的每个位置上 `d_out` 的那些行之和，再乘以 `scale()`；没有出现的词元，对应的行为 0。它的形状与权重相同，为 (vocab, d_model)，而不是 d_out 的形状。要累加，绝不能赋值：出现两次的词元要把两行都收集起来。还要保留因子 √d_model：前向传播乘过它。
# en: 6d1e80d9c706cc08
hint-04-positional-encoding-Embedding--backward-code =
    从 `Matrix::zeros(self.weight.dim())` 开始；对 `d_out` 的每一行及其词元，`for (row, &token) in d_out.rows().into_iter().zip(tokens)`，执行 `d_weight.row_mut(token).scaled_add(self.scale(), &row)`。

# en: 547ef04f801b0430
hint-04-positional-encoding-add_positional_encoding-idea =
    第 t 行加上位置 start + t 的编码：`x` 加上表的第 start .. start + n 行，其中 n = `x.nrows()`（整个句子的 start 为 0；正在生成词元 p 的解码器传入 p）。先检查两件事：宽度相等，并且 start + n ≤ `table.nrows()`，信息中要说明需要多少行（start + n），而不是让切片自己 panic。
# en: 5361ba8eee201306
hint-04-positional-encoding-add_positional_encoding-code =
    用 `assert_eq!` 检查 `x.ncols()` 与 `table.ncols()` 相等，并附上信息；然后算出 `end`，即 `start` 加 `x.nrows()`，再 `assert!(end <= table.nrows(), ...)`，信息中写明 `end` 和表的行数；最后给 `x` 加上表的第 `start..end` 行（所有列）：`table.slice(s![start..end, ..])`。

# en: f13fdf0a35ddcdca
hint-04-positional-encoding-embed_with_positions-idea =
    调用你刚写好的两个函数：先用 `embedding.forward(tokens)` 查出各词元的嵌入（已经乘过 √d_model），再从位置 0 开始加上位置编码：`add_positional_encoding(&that, table, 0)`。位置编码是在缩放之后加上的，所以它本身不被缩放。

# en: ef35da6f08ad248d
hint-04-positional-encoding-embedding_to_encoding_ratio-idea =
    行范数的均方根之比：sqrt(‖scale · weight[v]‖² 在词表上的平均) 除以 sqrt(‖table[pos]‖² 在各位置上的平均)。比较的是模型看到的嵌入，即乘以 `scale()` 之后的；先对范数的平方取平均，再开平方（而不是对范数取平均）；每个和除以它自己的行数，因为词表和位置表的大小不同。宽度不同时 panic。
# en: 5bb447db81f7d8e4
hint-04-positional-encoding-embedding_to_encoding_ratio-code =
    写一个闭包 `rms(m) = sqrt(sum of m's squared entries / m.nrows())`，即 m 各元素平方之和除以行数再开方（平方和用 `m.iter().map(|v| v * v).sum::<Float>()`），分别作用于 `&embedding.weight * embedding.scale()` 和位置表；返回前者除以后者。元素为 ±1/√d_model 时，对任何 d_model，答案都是 √2。
