# checker 对学习者和教师说的话。机器格式（JSON、CSV、JUnit、各平台的结果）保留英文键名；
# 其中给人读的文字随语言而变。

## 进度表、详细结果和 watch 界面（render.rs）

# en: bd474856304e3e54
state-missing = 缺失
# en: 20f8b11eeda4f230
state-does-not-compile = 无法编译
# en: 82f58a064e8e523d
state-build-failed = 构建失败
# en: a415c26938991fa2
state-done = 已完成
# en: 1c1e8b442ef482c1
state-not-started = 未开始
# en: 025c9f9d1912ea37
state-in-progress = 进行中
# en: a54e9d9f4a61a927
progress-title = 用 Rust 构建 Transformer：你的进度
# en: 6c698e9076a6d42d
progress-overall = 总进度 { $percent }
# en: 6ab63348d7e8d5cc
all-done = 所有评分的课都已通过。干得好！
# en: 1df3997b714d11bf
all-done-experiment = 所有评分的课都已通过。干得好！现在让你构建的东西派上用场：`cargo run --release -p { $krate } --example { $example }`（{ $chapter } 说明它做什么、可以期待什么结果）。
# en: 071f8ee23a409abf
next-open-not-started = 打开 { $file }：{ $gist }
# en: aea306503530bdf6
next-open-failing =
    打开 { $file }；第一个失败的测试是 `{ $test }`：
    { $gist }
# en: 8d08385c2a29e722
next-not-graded = 这一课无法评分。
# en: 9f7fa586230bfed2
next-step =
    下一步：{ $id }（{ $title }）。先读这一章（{ $chapter }）。
    { $detail }
# en: 65efd05d8efbe3c5
commands = 运行 `cargo run -p checker -- watch`，每次保存都会重新评分；或运行 `cargo run -p checker -- hint { $id }` 获取提示。
# en: c460c87c40975e13
gist-likely-cause = 可能的原因
# en: 5b9e841985002deb
gist-known-mistake = 你的结果与
# en: c4c2cf5dbb3871f8
watch-tests-pass = { $passed }/{ $total } 个测试通过
# en: dfbc3d69f2bf18a0
watch-still-to-pass = 尚未通过（{ $count } 个）：
# en: 0d8c8a3d10001262
watch-and-more = ……还有 { $count } 个
# en: 87336212695d509b
details-tests = { $passed }/{ $total } 个测试，{ $percent }
# en: aa55d727ac759172
details-overall = 总分：{ $percent }
# en: 071d90ea8a1b15e3
test-not-started = （未开始）
# en: 9ed9a169c9c0d5ff
test-timed-out = （超时）
# en: 0bbf0bc1dc8b2508
test-crashed = （崩溃）
# en: ae119b9e650f48e9
test-held-out = {" "}[留出测试]

## 提示（hint.rs）

# en: de782e2547999855
hint-reset = { $id } 的提示从头开始；`checker hint { $id }` 会显示第一条。
# en: 3c8292a8b6e6ff97
hint-done = { $id } 的所有评分测试都已通过，不需要提示。`cargo run -p checker -- hint { $id } --all` 仍会显示全部提示。
# en: 16ffd49c3d101237
hint-does-not-compile = 这一课还无法编译：编译器的第一个错误指出了要修改的那一行。先看这一课的下一条提示。
# en: c046b4f1caffa126
hint-points-at = 第一个失败的测试 `{ $test }` 指向 `{ $function }`。
# en: 8440d4168b396530
hint-first-failing = 第一个失败的测试是 `{ $test }`。
# en: b20cb23ae0f5ac19
hint-heading = `{ $function }` 的提示（{ $id }，{ $title }）：
# en: 0ee6010f0fce1a2c
hint-more-command = 再运行一次同样的命令，查看 `{ $function }` 的下一条提示（还有 { $count } 条）。
# en: 5d557d7395e1ac86
hint-more-key = 再按一次 h，查看 `{ $function }` 的下一条提示（还有 { $count } 条）。
# en: 6806df054d3cd406
hint-last = 这是 `{ $function }` 的最后一条提示。这一章（book/src/{ $chapter }）会一步步讲完整个过程。
# en: 76d442c104171643
hint-all-heading = { $id }（{ $title }）的全部提示：

## watch 模式（watch.rs）与进度显示（ui.rs）

# en: b722b7ce0fdff989
watch-raw-mode = 无法把终端切换到原始模式
# en: 657ed0d05cc481a2
watch-needs-terminal = watch 模式需要交互式终端；在脚本和 CI 中请改用 `cargo run -p checker -- grade`
# en: addcca4d8166f244
watch-grading = 正在为 { $id }（{ $title }）评分……
# en: d60ba9358783b5e6
watch-could-not-grade = checker 无法评分：{ $error }
# en: 5b30dfd8fbc33bd6
watch-lost-events = watch 循环失去了事件来源
# en: 9e9eded6c0b9013a
watch-finding-where = 正在为每一课评分，以找到你做到了哪里……
# en: d11aa5e543ba06e8
watch-lesson-done = 这一课已完成：所有评分测试都已通过。按 n 进入下一课。
# en: 2a279963ed0c1ab9
watch-edit = 编辑 { $file }；对应的章节是 book/src/{ $chapter }。
# en: f97d67b4e554f492
watch-keys = 保存文件即可重新评分。   h 提示 · n 下一课 · r 重新运行 · q 退出
# en: 231ca20f7de5f889
watch-polling = 这里收不到文件事件（{ $error }）；改为每秒检查一次。
# en: a69dd5cc1abe89db
ui-preparing = 正在准备评分器（第一次运行要编译课程的依赖，需要一两分钟）
# en: cea145f8ffd62e02
ui-downloading = 正在下载各课所依赖的 crate（只需一次）：{ $count } 个
# en: 331565a24662ca11
ui-compiling = 正在编译你的课程代码
# en: 42374e2ae035e70f
ui-running-tests = 正在运行评分测试
# en: 195243bc85e4a4df
ui-grading-class = 正在为全班评分

## 各命令自己的输出（main.rs）

# en: 25780d33599db739
exported-student = 已把学生版写入 { $out }。其中没有参考答案，也没有留出测试；在那里运行 `cargo run -p checker` 会显示学习者的进度。
# en: ea34ae60688d257a
verify-consistent = verify：课程前后一致；每个参考答案得 100%，每个练习框架得 0%。
# en: d7e45feb8849da0d
verify-problems = verify：发现 { $count } 个问题。
# en: ad9002aa32d0a7b6
gradebook-not-written = 无法把成绩册写入 { $path }
# en: 030de20d5420db49
history-not-written = 成绩册已写好，但这次运行没能记入历史记录：请再运行一次，或给 --history 另一个文件
# en: 0a1401a1bfa3f6f6
wrote-gradescope = 已把 Gradescope 自动评分器写入 { $out }；请上传 { $out }/autograder.zip。可以先用 { $out }/run_autograder 在本地试运行（它的开头说明了用法）。
# en: d236c6f3fdad0141
instructors-only = 这个 checker 属于学生版，构建时没有包含教师的命令：请在课程的完整仓库中为全班评分或写出 Gradescope 评分包
# en: 19b1f58c1fe9293b
hint-name-the-lesson = 请指明哪一课：`cargo run -p checker -- hint 02-attention --all`（或 `--reset`）
# en: fcf9d9af8640cb73
no-lessons = 课程中没有任何课

## 评分（grade.rs、report.rs、explain.rs、cascade.rs）

# en: b01b226d45b987f8
grade-no-lessons-folder = 没有文件夹 { $folder }：--lessons-dir 必须指向一个布局与 lessons/ 相同的文件夹（每课一个文件夹，例如 02-attention/src/lib.rs）
# en: dff53a5617320be7
grade-could-not-resolve = 无法解析路径 { $path }
# en: 6e5342fd8871de98
grade-unsandboxed-given = 给出了 --unsandboxed
# en: 72480d0ec9e88015
grade-cannot-sandbox = 这里无法把学习者的代码放进沙箱（{ $why }）。为全班评分要运行不受信任的代码：请安装 bubblewrap，或在允许用户命名空间的机器或容器中评分。如果仍要评分，请加上 --unsandboxed：这样作业的代码会以你的权限运行，能读取和修改你的文件、看到其他作业并使用网络；判定仍然来自裁判程序，所以错误的答案依然无法通过。
# en: d0d71b306bae989c
grade-missing-folder = 作业中没有文件夹 { $id }/。
# en: a2e17b022d33c9ae
grade-missing-lib = 作业中没有 { $id }/src/lib.rs。
# en: e65a34d13c9266e2
grade-judge-missing = 它的可执行文件不见了
# en: 4e71561ba8e925a6
grade-does-not-compile =
    这一课无法编译：
    { $errors }
# en: f81a96a64d813abd
grade-build-failed =
    构建在到达这一课的代码之前就失败了：
    { $errors }
# en: 5b55118079ad2fdd
grade-cargo-silent = （cargo 没有输出任何信息）
# en: 2a3009d380cae89c
grade-could-not-run-judge = 无法运行裁判程序
# en: b260df9a99205ff9
grade-could-not-run-test = 无法运行一个评分测试
# en: f94accc0f9039ea4
grade-not-run = 未运行：之前的测试已超时（每个 { $seconds } 秒）——这一课中 { $lesson } 次，或整份作业中 { $submission } 次（--lesson-timeouts、--submission-timeouts）。可能的原因：许多测试都会调用的某个函数陷入了循环或等待；先修好第一个超时。
# en: 08e602dcc988b245
grade-tapes-too-large = 这一课的测试（连同这一个）一共写出了超过 { $mib } MiB 的结果，远远多于它们的需要：这一个没有被评分。
# en: 1fa5f2ec14cd9ae8
grade-no-sandbox-note = checker：注意：你的代码在沙箱之外运行（{ $why }）。评分照常进行；只是被测代码以你自己的权限运行。
# en: 5e7ae9fa3bbfe0ce
grade-judge-not-built =
    评分器中 { $suite } 测试套件的裁判程序没有构建成功（这是课程的缺陷，不是你的代码的问题）：
    { $errors }
# en: e608ed8c8203bab2
grade-suite-not-built = { $suite } 测试套件没有构建成功。
# en: 7a02b9cc438ecc43
grade-more-lines = ……（还有 { $count } 行；`cargo build -p <本课的 crate 名>` 会全部显示）
# en: 3bae5aba557c661e
still-todo = { $what } 仍然是 todo!()：请按照它的 /// 契约实现它。
# en: 5c0949dbc31d4b1d
todo-unnamed = 这个测试需要的某个函数
# en: b601b166825833a5
lesson-not-started = 未开始：这一课还是原始的练习框架，每个函数都是 todo!()。从 `{ $first }` 开始，按照它的 /// 契约实现。
# en: b603b86ee24a8c9d
crash-stack-overflow = 测试因栈溢出而崩溃（{ $how }）。可能的原因：某个函数不停地调用自己，永不停止。
# en: ba9cbf8dfd9b0db0
crash-limit-mib = { $mib } MiB
# en: 5b96812e12b24cf9
crash-limit-machine = 整台机器的内存
# en: 004ddbc734e641ff
crash-out-of-memory = 测试耗尽了内存（{ $how }；上限是 { $limit }）。可能的原因：某个矩阵或向量远远大于契约中的形状所要求的大小。
# en: de3f00055a4fe32a
crash-exited = 测试进程在检查完成之前就结束了（{ $how }）：有代码调用了 std::process::exit。只有检查一直运行到最后，测试才算通过。
# en: 62fe708b4cf17ecc
crash-ended = 测试进程在检查完成之前就结束了（{ $how }）。
# en: 806f06b97a4f760f
crash-last-output = 它最后的输出：
# en: 3188373cb7291a8a
cascade-starting-with = ，从 `{ $function }` 开始
# en: fc47a634dc1ee644
cascade-not-started = 这一课建立在你的 { $id } 之上，而那一课你还没有开始：它的函数仍然是 todo!()。先把它们写出来{ $start }；这个失败可能是它们造成的。
# en: be0491a7c793bca0
cascade-fix-function = 先修好那里的 `{ $function }`
# en: 1b78885b0e7676d1
cascade-fix-test = 先修好它的测试 `{ $test }` 报告的问题
# en: b85bad2add6146e7
cascade-make-it-compile = 先让它通过编译
# en: 73d5a1a662245270
cascade-failing = 这一课建立在你的 { $id } 之上，而那一课还没有通过它自己的测试：{ $what }（`cargo run -p checker -- grade { $id }`）。这个失败可能是它造成的。
