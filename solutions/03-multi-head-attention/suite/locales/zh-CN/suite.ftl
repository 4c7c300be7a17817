# 第 03 课（多头注意力）评分测试的消息：失败的测试这样说。
# 参数已经格式化好（数字、矩阵）；标签说出被检查的值，提示给出可能的原因。

## 多个测试共用

# en: 59ace01a617abdd9
cross-attention-panic =
    MultiHeadAttention::forward 在 { $queries } 个查询对 { $keys } 个键和值的交叉注意力上发生了 panic：{ $text }
    可能的原因：如果某个形状对不上，{ $cause }；每个头的分数是 (n_q, n_k) = ({ $queries }, { $keys })，和掩码一样。
# en: 280be501363a1c2a
weights-of-head = 头 { $head } 的权重
# en: f054c237e31aa943
one-weight-matrix-per-head = { $heads } 个头应当给出 { $heads } 个权重矩阵，实际得到 { $got } 个。可能的原因：{ $cause }

## 拆分与合并

# en: ac0ac98353e9d802
split-count = 把一个 (3, 6) 矩阵 split_heads 成 3 个头：期望 3 个矩阵，实际得到 { $got } 个。可能的原因：每个头一个矩阵，共 n_heads 个。
# en: 84699f79e91a4797
split-label-head = split_heads(x, 3)：头 { $head }（每个词元一行，d_k = 2 列）
# en: 47a0d30b75d28c60
split-label-tall-head = split_heads((5, 4) 矩阵, 2) 的一个头：行是词元，保持不变；拆分的是列（特征）
# en: 326b2320af389d71
merge-label = 三个 (2, 2) 头的 merge_heads（各个头必须左右并排，而不是上下堆叠：词元仍然是行）
# en: b40de8d7294d4a2f
split-then-merge =
    merge_heads(split_heads(x, { $heads })) 应当恰好等于 x（纯粹的重排：没有任何数值改变），实际得到
    { $got }
    而 x =
    { $x }
    可能的原因：merge_heads 必须把头 i 放回 split_heads 取出它的那些列。
# en: bf7e5b30a70e5801
merge-then-split = split_heads(merge_heads(heads), 4) 应当恰好还原这 4 个头，实际得到 { $got }。可能的原因：拆分和合并对哪些列属于哪个头的理解不一致。

## 前向传播

# en: 27c0aa0c612d4495
one-head-weight-count = 一个头应当给出一个权重矩阵，实际得到 { $got } 个。可能的原因：{ $cause }
# en: 2e0641a7cd8c848c
one-head-label-weights = 唯一那个头的权重
# en: bd92a5626ecd1d1a
one-head-label-output = 投影为恒等映射的单头注意力（应当等于第 02 课的注意力）
# en: 6e1bff4e5fb018f9
heads-label-output = { $heads } 个头时的输出
# en: 7d78e1c6a4af7397
heads-weight-count = 有 { $heads } 个头时，forward 应当返回 { $heads } 个权重矩阵，实际得到 { $got } 个。可能的原因：{ $cause }
# en: 7dbcac3ad5b93198
heads-label-weights = { $heads } 个头中头 { $head } 的权重
# en: e1f2203f4e028c10
pytorch-label-output = { $what }：输出（PyTorch 的 nn.MultiheadAttention）
# en: 4ef8ef19ce17c1d0
pytorch-weight-count = { $what }：期望 { $expected } 个权重矩阵（每个头一个），实际得到 { $got } 个。可能的原因：{ $cause }
# en: bf974987cd2e7335
pytorch-label-weights = { $what }：头 { $head } 的权重（PyTorch 的 average_attn_weights=False）
# en: d411aa47b80bff05
pytorch-case-self-attention = 自注意力
# en: a320693236d180a9
pytorch-case-cross-attention = 交叉注意力
# en: 03917e6290d2c6ee
pytorch-case-padded-self-attention = 带填充的自注意力
# en: 4ceaea15654a2463
seed-code-cause = 各个头是按词元拆分的，却没有把头这一轴移到序列轴之前（原始笔记里的代码用了 `.view(-1, num_heads, d_k)`，后面没有 `.transpose(1, 2)`），于是每个词元的各个头在彼此之间做注意力，而不是在词元之间；注意力应当在每个头内对所有位置进行
# en: a8a12ea511a6b75c
cross-attention-label-output-shape = 交叉注意力的输出：每个查询一行（2 行），d_model 列（6 列）
# en: abf317e6e0a8b2a7
padded-key-weight = 头 { $head }：查询 { $row } 给填充键 { $col } 的权重是 { $weight }；它必须恰好是 0。可能的原因：掩码必须传到每个头的注意力（把它传给每个头的 scaled_dot_product_attention）。
# en: e37670f34b5ce716
padded-label-self-attention = 2 个填充词元改变之后，3 个真实词元的自注意力输出
# en: a447e945fae580d3
padded-label-cross-attention = 2 个填充的键和值改变之后的交叉注意力输出
# en: b3b16151c93381fd
causal-future-weight = 头 { $head }：位置 { $row } 给未来位置 { $col } 的权重是 { $weight }；在因果掩码下，每个头里它都必须恰好是 0。可能的原因：掩码没有传给每个头的注意力。
# en: f430ef45589b7f31
causal-label-weights = 头 { $head } 的因果权重
# en: cca4a4f4c8a392a2
causal-rows-hint = 每个头对键逐行做自己的 softmax
# en: 71b17a5e760affb4
sizes = d_model 应为 6，d_k 应为 2，实际得到 { $d_model } 和 { $d_k }
# en: 8eb4837d3926b6a4
shapes-label-output = 输出：每个查询一行，d_model 列
# en: 7a8b25657655238a
shapes-label-head-weights = 头 { $head } 的权重：每个查询一行（2 行），每个键一列（5 列：键和值来自 key_value_input）
# en: 1c4b1c919489b22a
shapes-rows-hint = 每个头的权重来自第 02 课的注意力，即逐行的 softmax
# en: 77f3cd701ea06b29
shapes-label-d-query-input = d_query_input（2 个查询的输入的梯度）
# en: 7cf604af86916660
shapes-label-d-key-value-input = d_key_value_input（5 个键和值的输入的梯度）
# en: b88daa8051c25120
shapes-bias-gradient = { $name } 的偏置的梯度应当有 6 个元素，实际有 { $got } 个
# en: db6cd4599bb0bafa
parameter-count = d_model = { $d_model }、{ $heads } 个头时的 parameter_count：期望 4·{ $d }² + 4·{ $d } = { $expected }，实际得到 { $got }。可能的原因：{ $cause }。

## 反向传播

# en: 3c00b177b5e59d92
d-query-input-hint = 查询输入只进入 W_q：d_query_input = dQ W_q，其中 dQ 是各个头的 d_q 左右并排合并的结果（而每个头的上游梯度是 d_output W_o 中属于它自己的那一片）
# en: 676f1e36b82c2706
d-key-value-input-value-path-hint = 你的 d_key_value_input 只有值路径：键/值输入还进入 W_k，所以要把 dK W_k 加到 dV W_v 上
# en: 6edd4c6288e4367f
d-key-value-input-key-path-hint = 你的 d_key_value_input 只有键路径：键/值输入还进入 W_v，所以要把 dV W_v 加到 dK W_k 上
# en: fdfa151c8abc69a7
d-key-value-input-hint = 键/值输入同时进入 W_k 和 W_v：d_key_value_input = dK W_k + dV W_v，其中 dK 和 dV 是各个头的梯度左右并排合并的结果
# en: 292c5cd6fb5ba8e7
d-w-q-hint = dW_q = dQᵀ query_input，其中 dQ 是各个头的 d_q 左右并排合并的结果
# en: 21188a869da8ea29
d-w-k-hint = dW_k = dKᵀ key_value_input（键来自键/值输入，而不是查询输入）
# en: 639dd4d8331e3593
d-w-v-hint = dW_v = dVᵀ key_value_input，其中 dV 是各个头的 d_v 左右并排合并的结果
# en: cae023d746a7b932
d-w-o-hint = W_o 的输入是各个头的输出左右并排（concat）：dW_o = d_outputᵀ concat，db_o = d_output 按行求和
# en: 30145fa0699eb621
label-d-weight = d_{ $name }（权重）
# en: 731a55816e65481d
label-d-bias = d_{ $name }（偏置）
# en: b616ca977fb513a6
key-bias-not-zero = 键偏置 b_k 的梯度应当为 0（在舍入误差以内），实际得到 { $got }。给每个键加上 b_k，会在每个头里给第 i 行的每个分数加上 q_i · b_k，而 softmax 不受一行整体加上一个常数的影响。可能的原因：db_k 必须是 dK 按行求和，其中 dK 来自第 02 课注意力的反向传播，并左右并排合并。
# en: c30f0171460ea9df
d-bias-hint = 一个投影的偏置梯度是它的上游梯度按行求和
# en: 9faadb756f3aaca6
self-attention-counted-twice-hint = 单是 d_key_value_input 就已经等于 x 的全部梯度，所以 d_query_input 被算了两次：d_query_input 必须只是查询路径（dQ W_q）
# en: 8e968006fb4aa1ad
self-attention-input-hint = x 进入 W_q（经由查询）以及 W_k、W_v（经由键和值）：d_query_input 必须是 dQ W_q，d_key_value_input 必须是 dK W_k + dV W_v，这样两者之和才是 x 的全部梯度
# en: 4897a12c46565186
self-attention-label-input-gradient = d_query_input + d_key_value_input（自注意力）
# en: ec68efeff7e4d064
independent-heads-label = 只改变头 1 在 W_q 和 W_k 中的行之后，头 { $head } 的权重
# en: 8e5ce416b4949612
independent-heads-unchanged = 头 1 自己在 W_q 和 W_k 中的行改变了，它的权重却没有变。可能的原因：头 i 必须使用 Q 和 K 的第 i·d_k .. (i+1)·d_k 列。
