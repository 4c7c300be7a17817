# 第 02 课（注意力）留出测试的消息：失败的测试这样说（只在教师版中）。
# 参数已经格式化好。

## Softmax 与注意力

# en: ae79613ce1637357
label-weights = 权重
# en: d24d705d7e4ec53b
label-output = 输出
# en: 6ce70cd9c82a658b
fully-masked-gradient-hint = 被完全掩码的查询，其权重和梯度都是零
# en: 7af01ae1629141c8
backward-hint = 在 n_q ≠ n_k 的情形下重新核对第 02 章的反向传播公式

## 单个位置

# en: c7a84378b740edf1
causal-mask-one = causal_mask(1) 应该是 [[true]]，实际得到 { $got }
# en: 01163d15749c75fb
single-position-label-weights = 单个位置的权重
# en: 560d1665548b4e93
single-position-label-output = 单个位置的输出
