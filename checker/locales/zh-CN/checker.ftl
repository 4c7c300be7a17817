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
    下一步：{ $id }（{ $title }）。先读这一章（{ $chapter }）。
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

hint-reset = { $id } 的提示从头开始；`checker hint { $id }` 会显示第一条。
hint-done = { $id } 的所有评分测试都已通过，不需要提示。`checker hint { $id } --all` 仍会显示全部提示。
hint-does-not-compile = 这一课还无法编译：编译器的第一个错误指出了要修改的那一行。先看这一课的下一条提示。
hint-points-at = 第一个失败的测试 `{ $test }` 指向 `{ $function }`。
hint-first-failing = 第一个失败的测试是 `{ $test }`。
hint-heading = `{ $function }` 的提示（{ $id }，{ $title }）：
hint-more-command = 再运行一次同样的命令，查看 `{ $function }` 的下一条提示（还有 { $count } 条）。
hint-more-key = 再按一次 h，查看 `{ $function }` 的下一条提示（还有 { $count } 条）。
hint-last = 这是 `{ $function }` 的最后一条提示。这一章（book/src/{ $chapter }）会一步步讲完整个过程。
hint-all-heading = { $id }（{ $title }）的全部提示：

## watch 模式（watch.rs）与进度显示（ui.rs）

watch-raw-mode = 无法把终端切换到原始模式
watch-needs-terminal = watch 模式需要交互式终端；在脚本和 CI 中请改用 `cargo run -p checker -- grade`
watch-grading = 正在为 { $id }（{ $title }）评分……
watch-could-not-grade = checker 无法评分：{ $error }
watch-lost-events = watch 循环失去了事件来源
watch-finding-where = 正在为每一课评分，以找到你做到了哪里……
watch-lesson-done = 这一课已完成：所有评分测试都已通过。按 n 进入下一课。
watch-edit = 编辑 { $file }；对应的章节是 book/src/{ $chapter }。
watch-keys = 保存文件即可重新评分。   h 提示 · n 下一课 · r 重新运行 · q 退出
watch-polling = 这里收不到文件事件（{ $error }）；改为每秒检查一次。
ui-preparing = 正在准备评分程序（第一次运行要编译课程的依赖，需要一两分钟）
ui-compiling = 正在编译你的课程代码
ui-running-tests = 正在运行评分测试
ui-grading-class = 正在为全班评分

## 各命令自己的输出（main.rs）

exported-student = 已把学生版写入 { $out }。其中没有参考答案，也没有保留测试；在那里运行 `cargo run -p checker` 会显示学习者的进度。
verify-consistent = verify：课程前后一致；每个参考答案得 100%，每个桩代码得 0%。
verify-problems = verify：发现 { $count } 个问题。
gradebook-not-written = 无法把成绩册写入 { $path }
wrote-gradescope = 已把 Gradescope 自动评分程序写入 { $out }；请上传 { $out }/autograder.zip。可以先用 { $out }/run_autograder 在本地试运行（它的开头说明了用法）。
instructors-only = 这个 checker 属于学生版，构建时没有包含教师的命令：请在课程的完整仓库中为全班评分或写出 Gradescope 评分包
hint-name-the-lesson = 请指明哪一课：`checker hint 02-attention --all`（或 `--reset`）
no-lessons = 课程中没有任何课
