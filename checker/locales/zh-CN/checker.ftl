# checker 对学习者和教师说的话。机器格式（JSON、CSV、JUnit、各平台的结果）保留英文键名；
# 其中给人读的文字随语言而变。

## 进度表、详细结果和 watch 界面（render.rs）

state-missing = 缺失
state-does-not-compile = 无法编译
state-build-failed = 构建失败
state-done = 已完成
state-not-started = 未开始
state-in-progress = 进行中
progress-title = 用 Rust 构建 Transformer：你的进度
progress-overall = 总进度 { $percent }
all-done = 所有评分的课都已通过。干得好！
next-open-not-started = 打开 { $file }：{ $gist }
next-open-failing =
    打开 { $file }；第一个失败的测试是 `{ $test }`：
    { $gist }
next-not-graded = 这一课无法评分。
next-step =
    下一步：第 { $id } 课（{ $title }）。先读这一章（{ $chapter }）。
    { $detail }
commands = 运行 `cargo run -p checker -- watch`，每次保存都会重新评分；或运行 `cargo run -p checker -- hint { $id }` 获取提示。
gist-likely-cause = 可能的原因
gist-known-mistake = 你的结果与
watch-tests-pass = { $passed }/{ $total } 个测试通过
watch-still-to-pass = 尚未通过（{ $count } 个）：
watch-and-more = ……还有 { $count } 个
details-tests = { $passed }/{ $total } 个测试，{ $percent }
details-overall = 总分：{ $percent }
test-not-started = （未开始）
test-timed-out = （超时）
test-crashed = （崩溃）
test-held-out = {" "}[保留测试]

## 提示（hint.rs）

hint-reset = 第 { $id } 课的提示从头开始；`checker hint { $id }` 会显示第一条。
hint-done = 第 { $id } 课的所有评分测试都已通过，不需要提示。`checker hint { $id } --all` 仍会显示全部提示。
hint-does-not-compile = 这一课还无法编译：编译器的第一个错误指出了要修改的那一行。先看这一课的下一条提示。
hint-points-at = 第一个失败的测试 `{ $test }` 指向 `{ $function }`。
hint-first-failing = 第一个失败的测试是 `{ $test }`。
hint-heading = `{ $function }` 的提示（第 { $id } 课，{ $title }）：
hint-more-command = 再运行一次同样的命令，查看 `{ $function }` 的下一条提示（还有 { $count } 条）。
hint-more-key = 再按一次 h，查看 `{ $function }` 的下一条提示（还有 { $count } 条）。
hint-last = 这是 `{ $function }` 的最后一条提示。这一章（book/src/{ $chapter }）会一步步讲完整个过程。
hint-all-heading = 第 { $id } 课（{ $title }）的全部提示：
