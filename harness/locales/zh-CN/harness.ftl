# 测试工具（harness）的消息：无论在哪一课，每个失败的检查都这样说。
# 参数已经格式化好（数字、形状、矩阵）；`what` 用调用者的语言说出被检查的值。

## 多条消息共用的词

label-expected = 期望值
label-got = 实际值

## 浮点数与形状（check.rs）

close-mismatch = { $what }：期望 { $expected }，实际得到 { $got }（容差 { $abs } + { $rel } × |期望值|）。
shape-likely-cause = 某个矩阵乘积、求和或转置用错了轴：照着 /// 约定写下每个操作数的（行，列），一步步跟下去
shape-rows = { $got } 行而不是 { $expected } 行
shape-cols = { $got } 列而不是 { $expected } 列
shape-rows-and-cols = { $rows }，且 { $cols }
shape-transposed = （恰好是正确形状的转置）
shape-mismatch =
    { $what }：期望形状 { $expected }（行，列），实际得到 { $got }：{ $differs }{ $transposed }。
    可能的原因：{ $hint }
not-finite =
    { $what }：元素 [{ $row }, { $col }] 是 { $value }；每个元素都必须是有限数。
    可能的原因：{ $hint }
rows-sum-to-one =
    { $what }：第 { $row } 行的和是 { $sum }，但 softmax 的每一行之和都是 1。
    可能的原因：{ $hint }
matrix-entry = { $what }：元素 [{ $row }, { $col }] 应为 { $expected }，实际得到 { $got }（|差| { $diff }，容差 { $abs } + { $rel } × |期望值|）。
known-mistake = 你的结果与一个已知错误的结果相同。可能的原因：{ $cause }。
mask-shape =
    { $what }：期望形状 { $expected }（查询，键），实际得到 { $got }。
    可能的原因：{ $hint }
mask-entry =
    { $what }：元素 [{ $row }, { $col }] 应为 { $expected }，实际得到 { $got }。
    可能的原因：{ $hint }
