# 第 01 课评分测试套件（graded.rs）的消息。参数已经格式化好（数字、向量）。

## 梯度检查

# 与已知错误相同的梯度：{ $cause } 是该错误，{ $hint } 是梯度一般应有的样子。
# en: 89116646a355db31
gradient-known-mistake = 你的梯度与一个已知错误的结果相同：{ $cause }。（一般而言：{ $hint }）

## 单步

# en: 82c3e5564bb82964
label-step-cs231n = CS231n 测试数据上的 step
# en: 47f07ccfca5220a0
neither-weight-transposed = 两个权重都没有转置（x W_xh + h W_hh）：本课程的权重是 (d_out, d_in)，每个隐藏单元占一行，所以这一步是 x W_xhᵀ + h W_hhᵀ + b
# en: 1854592c4e930b9f
w-xh-not-transposed = W_xh 没有转置（x W_xh）：它是 (d_hidden, d_in)，每个隐藏单元占一行，所以这一步要用 x W_xhᵀ
# step_backward 的梯度：{ $name } 是 d_x、d_h、d_w_xh、d_w_hh 或 d_b。
# en: c9802de6e251f605
label-step-gradient = step 的 { $name }
# en: b0f283c3e4abcded
hint-step-d-x = dx = dz W_xh，其中 dz = dh' ⊙ (1 − h'²)
# en: 78db926d74e92117
hint-step-d-w-xh = dW_xh = dzᵀ x，形状为 (d_hidden, d_in)，与 W_xh 相同
# en: e8c16166f7fe000a
hint-step-d-w-hh = dW_hh = dzᵀ h，其中 h 是前一个状态
# en: 8617eb9f4e244d58
hint-step-d-b = 偏置加到了每一行上，所以 db 是 dz 在所有行上的和

## 整个序列

# en: d7642a36dd905820
label-forward-states = forward 的状态
# en: 3c4306d72ffc5b41
label-forward-states-shape = forward 的状态（T = { $len }，d_hidden = { $hidden }）
# en: dbff7a4283630217
label-state-against-step = 状态 { $t } 与 step(x_{ $t }, 它之前的状态) 的对照
# en: 7104ac79d5af8af7
label-forward-empty = 空序列的 forward
# en: 40c19e359b634781
encode-empty-not-h0 = 空序列的 encode 应为 h0 = { $h0 }，实际得到 { $context }。可能的原因：没有词元就没有最后一个状态；上下文是第一个词元之前的状态，即 h0
# { $name } 是 d_xs、d_h0、d_w_xh、d_w_hh 或 d_b。
# en: a5c052f47134a9f6
label-gradient-of-empty = 空序列的 { $name }
# en: 33b31bcd8fa2254a
label-forward-one-token = 一个词元的 forward
# en: ca2b9e4a518764de
label-encode-one-token = 一个词元的 encode
# en: 06c72847eb7a069f
label-backward-one-token = 一个词元的 backward：{ $name }（应等于一步的梯度）
# en: ef69dc795ccba0d8
hint-backward-one-token = 只有一个词元的序列就是一步：它的 BPTT 必须给出这一步的梯度，之前的状态是 h0
# en: e097c6f8f98a3508
label-encode-first-tokens = 前 { $len } 个词元的 encode

## 时间反向传播

# en: d737acd104af12dc
hint-check-every-step = 检查每一步的梯度
# en: ab2c5c447786cba4
hint-bptt-d-xs = 从最后一步走到第一步，用到达每个状态的梯度调用 step_backward；d_xs 的第 t 行就是那一步的 d_x
# en: 6c3ae413387a287f
hint-bptt-d-h0 = d_h0 是第一步（t = 0）传回的 d_h
# en: d0ba0a6e9d40373f
hint-bptt-d-w-xh = 把每一步的 dW_xh = dzᵀ x_t 加起来
# en: fed9cfd3b9059adb
hint-bptt-d-w-hh = 把每一步的 dW_hh = dzᵀ h_(t-1) 加起来；第 0 步的前一个状态是 h0
# en: cc37921c11bdb0c1
hint-bptt-d-b = 把每一步的 db 加起来

## 梯度为什么会消失或爆炸

# en: 8afd3578026a0ee3
d-h0-length = d_h0 必须有 d_hidden 个元素
# en: 479afaf394435f0c
label-origin-jacobian = 原点处的 ∂h_6/∂h_0（应为 W_hh⁶）
# en: fb509170955df6a5
origin-singular-value = 原点处 ∂h_6/∂h_0 的最大奇异值应为 σ_max(W_hh)⁶ = 0.5⁶ = { $bound }，实际得到 { $norm }。可能的原因：循环的梯度是 dh = dz W_hh，其中 dz = dh' ⊙ (1 − h'²)，而这里 1 − 0² = 1
# en: a26d8540e8f8e082
label-jacobian-rows = ∂h_{ $len }/∂h_{ $t }，第 k 行是最后一个状态的上游梯度为 e_k 时的 d_h0
# en: e0374d281a080212
hint-jacobian = 经过剩下的每一步做反向传播；每一步都先把梯度乘以 diag(1 − h'²)，再乘以 W_hh
# en: 2520a1cdba2049dc
jacobian-exceeds-bound = ‖∂h_{ $len }/∂h_{ $t }‖ = { $norm } 超过了 σ_max(W_hh)^{ $power } = { $bound }；由于 |tanh'| ≤ 1，正确的反向传播不可能出现这种情况
# en: 25874bbc4499e806
last-token-gradient-zero = Σ h_20 对最后一个词元的梯度应明显不为零，实际得到 { $last }。可能的原因：backward 必须从 d_states 的最后一行开始
# en: 0a6a67028d9f533f
first-token-gradient-too-large = Σ h_20 对第一个词元的梯度最多应为 0.5¹⁹ · σ_max(W_xh) · √6 = { $bound }，实际得到 { $first }（最后一个词元的梯度为 { $last }）。可能的原因：每往回一步都必须乘以 diag(1 − h'²) 和 W_hh，而 W_hh 的最大奇异值是 0.5
# en: fc64569a857eda2e
first-states-too-close = 两个序列的第一个状态应当明显不同（它们的第一个词元不同），但只相距 { $start }。可能的原因：step 必须读取它的词元，x W_xhᵀ
# en: 8c3f6f2db1366530
states-not-converging = 读完 { $tokens } 个词元后，两个状态相距 { $distance }，超过了上界 0.5^{ $t } × { $start } = { $bound }。可能的原因：每个状态都必须是 W_hh 乘以前一个状态（再加上输入）之后的 tanh，而 tanh 从不增大距离
# en: 3041d78c7901cfed
contexts-differ = 两个上下文向量应当几乎相等，但相差 { $difference }
