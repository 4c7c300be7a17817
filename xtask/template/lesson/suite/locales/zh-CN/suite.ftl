# 第 {{number}} 课（{{title_zh}}）的评分测试：测试失败时的说明。

# en: {{stamp}}
scale-doubled = 2 × 2 矩阵的 scale(x, 2)：每个元素都翻倍
