# 第 06 课评分测试（graded.rs）的消息。参数已经格式化好（数字、日期、词元列表、矩阵）；
# 指出错误的可能原因来自 course_harness::mistakes::full_model，以 `cause` 或 `hint` 传入。

## 共用


## 微型模型

# en: b866200767cf37e0
parameter-order = Transformer::parameters_mut 列出了 { $got } 个张量，而文档规定的顺序有 { $expected } 个

## 数据：历法、样例、批次

# en: 57b75640a9455cde
days-thirty = 四月、六月、九月和十一月有 30 天
# en: e9de1a0cdb21d42b
days-not-divisible-by-4 = { $year } 不能被 4 整除：不是闰年
# en: 0ca6bf788a570d2b
days-divisible-by-4 = { $year } 能被 4 整除：是闰年
# en: 1be4380f36daa3ac
days-century = { $year } 是整百年，不能被 400 整除：不是闰年
# en: 4a6dd06baf3841bb
days-divisible-by-400 = { $year } 能被 400 整除：是闰年
# en: b3c3805a113a6f6c
days-july-august = 七月和八月都有 31 天
# en: 3bffb0d73a127c27
days-in-month-mismatch = days_in_month({ $year }, { $month })：期望 { $expected }，实际得到 { $got }。{ $why }
# en: e522354973a45669
months-sum = { $year } 年各月的天数加起来是 { $total } 天，而不是 { $days } 天
# en: 0b0b42c7a711e0e1
weekday-mismatch = day_of_week({ $date })：期望 { $expected }（{ $name }），实际得到 { $got }。可能的原因：{ $cause }
# en: eec84182ba204a71
weekday-cause-sunday = 从星期日 = 0 而不是星期一 = 0 开始数，或者差了一天
# en: 9d9147e8e135ece4
weekday-cause-before-2000 = 参考日期之前的日期：要往回数（注意余数的符号），并且用上闰年的整百年规则
# en: 364f5ddf8bcb5da6
weekday-cause-leap-day = 闰日算进了错误的年份（整百年规则，或者日期还没到三月，就把当年二月的闰日算了进去）
# en: 9be73874d3784eb1
weekday-not-consecutive = day_of_week({ $date }) 是 { $weekday }，但前一天是 { $previous }：相邻两天的星期数必须相邻（模 7）
# en: 40f988e07e1561b6
sample-date-impossible = sample_date 给出了 { $date }，这个日期不存在。可能的原因：days_in_month
# en: 3a0ea441ad698bd5
sample-never-31st = 抽取的 20000 个日期里从来没有 31 日：days_in_month 给出的天数太少
# en: 84c7b1765649b071
sample-never-feb-29 = 抽取的 20000 个日期里从来没有 2 月 29 日：days_in_month 给出的天数太少
# en: 3a1330e4cddf91cd
month-field = { $source }：月份字段 { $month } 不是 { $number } 月
# en: 45434a8cb97cb207
weekday-format = { $date } 的 { $format } 格式：期望 { $expected }，实际得到 { $got }。可能的原因：day_of_week（0 必须是星期一）
# en: 4185413bde85fe60
vocab-size = 日期词表有 44 个词元，包括 3 个特殊词元
# en: a5fd7664ccf5f70f
vocab-specials-empty = 只有特殊词元的词表是空的
# en: 5d5b7caed1aedb98
heldout-in-training = 一个训练批次里有留出年份 { $year }：模型会见到评估它时所用的年份
# en: 179ee596c429ca13
heldout-batch-year = 一个留出批次里有 { $year }，它不是留出年份（或者批次的 tgt_out 不是以目标序列开头）
# en: 04ee1b579cf3f047
batch-lengths = 一个含 2 个句对、最长目标序列有 3 个词元的批次：len() 为 2，target_len() 为 4
# en: 9bd52c5e84b92812
batch-empty = 没有句对的批次是空的
# en: 8409a04e97cb8b25
batch-src = Batch::new 的 src：期望 { $expected }，实际得到 { $got }。每个源序列都要用 PAD（词元 0）填充到最长源序列的长度。
# en: 60a1f3694a58060a
batch-tgt-in = Batch::new 的 tgt_in：期望 { $expected }，实际得到 { $got }。解码器的输入是 BOS 后接目标序列（即目标序列右移一位），填充到最长目标序列的长度加一。从 PAD 而不是 BOS 开始，正是 Annotated Transformer 的 issue #127。
# en: a816bdf96a2fd91f
batch-tgt-out = Batch::new 的 tgt_out：期望 { $expected }，实际得到 { $got }。解码器要预测的是目标序列后接 EOS，再做填充：位置 t 预测 tgt_in[..=t] 之后的那个词元。

## 掩码

# en: 54fb94433ce6d159
key-padding-mask-mismatch =
    key_padding_mask(2, [5, 3, PAD, 4, PAD]) 应为
    { $expected }
    实际得到
    { $got }
    可能的原因：每个查询一行，每个键一列，恰好在键是 PAD（词元 0）的位置为 false。
# en: 73361cc8507a623f
target-mask-mismatch =
    target_mask([BOS, 4, 5, PAD, PAD]) 应为
    { $expected }
    实际得到
    { $got }
    可能的原因：{ $hint }。
# en: fd6aad2f93814402
target-mask-only-padding = 这只是填充掩码：没有因果部分，位置 i 会看到它要预测的词元
# en: b6fe450729956fd9
target-mask-upper = 掩码是上三角的，或者排除了对角线：位置 i 必须看到位置 0..=i，包括它自己
# en: 85a6590e8d61248f
target-mask-combine = 用 & 把第 02 课的 causal_mask(T) 和 key_padding_mask(T, tgt_in) 组合起来

## 初始化

# en: 0ddfe63c60bdb5bb
xavier-range = xavier_uniform(200, 300)：有一个元素是 { $largest }，超出了 (−a, a)，其中 a = √(6 / (fan_in + fan_out)) = √(6/500) = { $a }。可能的原因：a 只用一个 fan 算出，或者漏了 6。
# en: ea6379762e1e2042
xavier-mean = xavier_uniform：60000 个元素的均值是 { $mean }；它应当接近 0（在 −a 到 a 之间抽取，而不是 0 到 a）
# en: eece78eed3c5351b
xavier-std = xavier_uniform：标准差是 { $std }，而 (−a, a) 上的均匀分布应为 a/√3 = { $expected }
# en: aac06af81de4f766
xavier-rows-equal = xavier_uniform：第 0 行和第 1 行相同：每个元素都要抽取
# en: 712979a0c3434435
embedding-std = embedding_init(500, 64)：标准差是 { $std }，期望 1/√64 = 0.125。{ $cause }
# en: 38085af5c95c7a3a
embedding-std-cause = 可能的原因：用了 N(0, 1)，即 PyTorch 中 nn.Embedding 的默认值；乘上 √d_model 之后，嵌入会是位置编码的 8 倍，把它淹没（第 04 课）
# en: 2d3681f14f72c01e
embedding-mean = embedding_init：均值是 { $mean }，期望 0
# en: 3d804641a6d4e4c7
embedding-within = embedding_init：有 { $percent }% 的元素落在一个标准差以内；正态分布是 68.3 %（均匀分布是 57.7 %）：请用 standard_normal

## 前向传播

# en: 78379c03486fdf87
label-tiny-logits = 微型模型的 logits (B·T, vocab)
# en: 974c77852c5dbf0e
parameter-count = 微型模型有 883 个可学习的数（PyTorch 数出来也一样），parameter_count 却说是 { $count }
# en: a7a51966db2b281d
passes-per-pair = ModelForward 要为批次中的每个句对保存一次编码器传播和一次解码器传播
# en: 7acb6587ed2141c1
label-pair-alone = 批次 logits 的第 { $start }..{ $end } 行（句对 { $pair } 单独计算时）
# en: d1f7556bed2cf8ad
label-future = 位置 2 到 4 的输入改变时，位置 0 和 1 的 logits
# en: 5133af18ede8abea
future-own-input = 位置 2 自己的输入改变了，它的 logits 却没有变
# en: 9a1d1c3995ace676
label-padding = [5 3] → [6] 在有填充和没有填充时的 logits
# en: 4b4053992e1aed57
initial-loss = 刚初始化的模型（种子 { $seed }）的损失是 { $loss }，但 ln V = { $ln_v }：一个什么都不知道的模型会把概率摊到 V 个词元上，所以损失应当在 ln V 的 ±0.7 以内。可能的原因：权重初始化得太大（xavier_uniform），或者损失对词元求了和，而不是求平均

## 损失

# en: 08c90ec82626cdbe
tokens-one = 有一个不是填充的目标：tokens 应为 1
# en: 1785bf57c5c7ff56
loss-over-every-row = 损失是 { $value }，即全部 4 行的平均：应除以不是填充的目标个数（3），而不是行数
# en: 1d8ec89ec70eedb9
label-loss-padding-row = 含一个填充行的损失
# en: 9fee4c715b25a6d3
tokens-three = tokens 应为 3（不是 PAD 的行数），实际得到 { $tokens }
# en: ef61750da5a4f293
label-loss-gradient-padding = 含一个填充行时的 d loss / d logits
# en: d4ccacb3bfa31389
loss-gradient-hint = softmax 之上的交叉熵的梯度是 (p − q)/N：预测概率减去平滑后的目标，除以真实词元的个数，在填充行上为 0
# en: 2d69b9bd758cdda4
loss-not-finite = 接近 ±1000 的 logits 的损失是 { $value }：{ $cause }
# en: f84d1aa7d92e35f0
label-huge-loss = 极大 logits 的损失
# en: 29ee9d1450754d95
label-huge-d-logits = 极大 logits 的 d_logits
# en: 5cd2e8bd3dbb7a77
huge-logits-hint = 减去每行的最大值

## 反向传播

# en: 7d6d0b070cbd0173
label-tensor-gradient = { $what }：{ $name } 的梯度（元素 { $entries }）
# en: 0f66be33685e4a6a
label-memory-gradient = decode_backward 算出的 memory 的梯度
# en: f5ebb1edb05d004c
label-tiny-loss = 微型模型的损失（ε = 0.1）
# en: 0a8792ff00e5cb63
label-flattened-gradient = 展平后的 { $name } 的梯度{ $note }
# en: 9039c5fb7be41d17
note-no-gradient-rows = （PAD、BOS 和 EOS 所在的行没有梯度：填充被屏蔽了，而 BOS 和 EOS 不出现在源序列中）

## 优化器

# en: a89a3d19bb562eed
noam-step-1 = 第 1 步
# en: 8997421d3f2c6222
noam-peak = 峰值，step = warmup
# en: 2633e438741e7874
noam-decay = 第 20000 步，按 1/√step 衰减
# en: 5cb0b39070348671
noam-step-0 = 第 0 步按第 1 步处理
# en: 4d7475b5f85e0d5c
noam-half-warmup = 预热进行到一半
# en: a85485b2a6368d3c
noam-factor = factor 0.5，预热 400 步
# en: dab124d94fc1c89b
noam-mismatch = noam_rate({ $step }, { $d_model }, { $warmup }, { $factor })（{ $what }）：期望 { $expected }，实际得到 { $got }。可能的原因：{ $cause }
# en: 39c33495d45df4bf
noam-date-peak = noam_rate(100, 32, 100, noam_factor(3e-3, 32, 100)) 应为峰值 3e-3，实际得到 { $peak }
# en: b68d577c72d2a5e7
learning-rate-mismatch = TrainConfig::dates().learning_rate({ $step }, 32)：期望 { $expected }，实际得到 { $got }
# en: 3ddf495cfde279b6
label-clip-norm = clip_global_norm 返回的范数
# en: 0ec9c7c98279ab0b
label-clipped = 把 [3, 4] 和 [12] 裁剪到全局范数 1 之后
# en: cf43cdf128dd47b4
label-small-norm = [0.3, −0.4], [0] 的范数
# en: ffb6c08f8de018a9
clip-below-max = 范数（0.5）低于 max_norm（1）的梯度不能改变，实际得到 { $c }, { $d }
# en: 1a79e006a90204b5
label-adam-step = Adam 第 { $step } 步之后的参数
# en: d2b23fb2a263e673
adam-step-count = Adam::step 应当数出更新的次数：3，实际得到 { $step }
# en: 60d1a62e6f27ae52
label-adam-first-step = 梯度为 [1000, −0.001, 5, 0] 时，Adam 走一步之后的参数

## 训练

# en: 3e32c8de69a21c3d
label-step-loss = 这一步的损失（更新之前）
# en: 4fdcd09d57e455cc
label-grad-norm = 裁剪之前的梯度范数
# en: 768e6c20ed41851c
step-tokens = 这个批次有 6 个目标词元，报告却说是 { $tokens }
# en: 86f5eae3f9d73142
step-adam-unclipped = 交给 Adam 的是裁剪之前的梯度：一步之后它的一阶矩是 (1 − β₁) × 一个范数为 { $norm } 的梯度，那是裁剪前的范数，而裁剪后的梯度范数是 1。先裁剪（契约的第 4 步），再用裁剪后的梯度更新（第 5 步）。
# en: a0680552e662cfb4
step-adam-moment = 一步之后 Adam 的一阶矩 m 应当是 (1 − β₁) × 裁剪后的梯度，范数为 (1 − β₁) × 1；你的是 (1 − β₁) × { $norm }。m 是否按 β₁ m + (1 − β₁) g 更新，且 g 是裁剪后的梯度？
# en: a2ec60cbd7619c1f
label-after-step = 训练一步之后的 { $name }
# en: af6c845bc0dae93a
train-steps = train 应当运行并报告 60 步
# en: 571a1f26533deb04
learned-by-heart = 在同样的 4 个句对上训练 60 步之后，损失是 { $last }（开始时是 { $first }）；一个能正常工作的模型会把它们背下来，损失低于 0.1。可能的原因：更新的方向反了（θ −= lr · m̂/(√v̂ + ε)），梯度被赋值而不是累加，或者学习率没有用上

## 解码

# en: 5dd274a30900d190
label-cached-attention = keys = w_k(memory)、values = w_v(memory) 时的 cached_attention
# en: dc5b860c270ea388
cache-layers = 每个解码器层一个 LayerCache
# en: 593b467bc599cf6a
cache-position = 解码从位置 0 开始
# en: 131b7192df9651fe
cache-memory-mask = 缓存的 memory_mask 应为 key_padding_mask(1, src)
# en: 1840a1fff2f93a33
label-memory-keys = 第 { $layer } 层的 memory_keys
# en: 4db025b05a15bae7
label-memory-values = 第 { $layer } 层的 memory_values
# en: 50a791b713be045e
label-keys-before = 第 { $layer } 层在第一步之前的 keys
# en: edcaf2c4aebbee33
step-hint-first = 在位置 0，缓存里只有新的一行：检查嵌入（×√d_model，再加上位置 cache.position 处的 PE）、层内各步是否按第 05 课 DecoderLayer::forward 在这种归一化位置下的顺序，以及输出投影
# en: c07e3fa5d94fac0e
step-hint-later = 位置 0 是对的，所以问题出在这一步本身：{ $cause }
# en: 8c38451d925243ba
label-decode-step = { $norm }-LN：decode_step 在位置 { $t } 的 logits 对照完整前向传播的第 { $t } 行（如果不同，可能的原因：{ $hint }）
# en: e6135b6abc0fabd6
decode-step-position = decode_step 必须推进 cache.position：{ $steps } 步之后它是 { $position }
# en: fc077e3621054624
label-cache-keys = 缓存中自注意力的键
# en: ffbf6dbb21d98629
greedy-cached-wrong = greedy_decode_cached 的词元不是对 [BOS, 它的词元] 做前向传播所预测的（greedy_decode 的是）
# en: d72e5c4f3ecd0e50
greedy-full-wrong = greedy_decode 的词元不是对 [BOS, 它的词元] 做前向传播所预测的（greedy_decode_cached 的是）
# en: 841987dadc6a8f2b
greedy-neither-right = 两者都不是对 [BOS, 各自的词元] 做前向传播所预测的
# en: 5444b2f1212e903b
greedy-disagree-cause = 可能的原因：{ $wrong }：解码必须从 BOS 开始，绝不能从 PAD 开始（Annotated Transformer 的 issue #127：从 PAD 开始），把每一步选出的词元送回输入，在缓存中保留之前每个位置的键和值，并在遇到 EOS 或生成 max_len 个词元之后停止。
# en: 7322213178bd8a14
greedy-disagree = { $src } 的贪心解码：重新运行解码器得到 { $full }，使用缓存得到 { $cached }；两者必须相同。{ $hint }
# en: 84a95778905d6417
greedy-special-tokens = { $name } 返回了 { $tokens }：结果只包含生成的词元，绝不包含 PAD、BOS 或 EOS
# en: 2326cbad8021d661
greedy-forward-disagree = { $name } 生成了 { $tokens }，但对 [BOS, ...] 做前向传播表明第 { $t } 个词元应为 { $expected }。可能的原因：解码没有从 BOS 开始（Annotated Transformer 的 issue #127：从 PAD 开始），或者用的不是解码器的最后一行
# en: ccf6a63f04472bf7
greedy-stopped-early = { $name } 在 { $count } 个词元之后就停了，但下一个词元是 { $stop }，不是 EOS
# en: 07ee6b8915ff2066
successor-from-pad = 解码从 PAD 而不是 BOS 开始（Annotated Transformer 的 issue #127）：第一个输入是 BOS，和训练时一样
# en: 6cf8e0ed4589391b
successor-first-row = 每一步读的都是第一行的 logits，而不是最后一行（新词元那一行）的
# en: efda3fd0401ec8c9
successor-no-stop = 生成没有在 EOS 处停止
# en: b456880a19d6c228
successor-feed-back = 每一步都用 next_token 从最后一行的 logits 中选出一个词元，把它追加到结果中并送回输入
# en: b1bbc9a4f806c8a9
successor-mismatch = 手工构造的“后继”模型（每个词元预测下一个编号）的 { $name }：期望 [3, 4, 5, 6]（BOS → 3 → 4 → 5 → 6 → EOS），实际得到 { $tokens }。可能的原因：{ $hint }。
# en: 78a2b15a8826504c
exact-match = 后继模型在两个正确目标和一个错误（太短）目标上的 exact_match：期望 2/3，实际得到 { $score }
# en: d2365278fb5d030a
next-token-tie = next_token([9, 9, 1, 2, 2, 0, −1]) 应为 3：绝不选 PAD 或 BOS，分数相同时选第一个；实际得到 { $tie }
# en: 618b7b0f6db85198
max-len-stop = greedy_decode_cached(.., max_len = 2) 应在 2 个词元之后停止，实际得到 { $tokens }
# en: 5d67901575d7661b
eos-first = { $name }：第一个词元就是 EOS，所以什么都不生成；实际得到 { $tokens }
# en: 63ac20e5e80bed41
never-eos = { $name }(.., max_len = 5) 永远遇不到 EOS，所以必须返回 5 个词元；实际得到 { $tokens }
