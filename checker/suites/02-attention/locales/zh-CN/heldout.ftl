# 第 02 课（注意力）留出测试的消息：失败的测试这样说（只在教师版中）。
# 参数已经格式化好。

## Softmax 与注意力

label-weights = 权重
label-output = 输出
fully-masked-gradient-hint = 被完全掩码的查询，其权重和梯度都是零
backward-hint = 在 n_q ≠ n_k 的情形下重新核对第 02 章的反向传播公式

## 单个位置

causal-mask-one = causal_mask(1) 应该是 [[true]]，实际得到 { $got }
single-position-label-weights = 单个位置的权重
single-position-label-output = 单个位置的输出
