# checker 的错误信息，以及教师和维护者所用命令（class、成绩册、gradescope、export-student、
# verify）的输出；其中一些学习者也会遇到（找不到的课、无法评分的作业）。机器格式保留英文
# 键名；其中给人读的文字随语言而变。

## 查找课程、课和文件（course.rs、files.rs、cli.rs、hint.rs）

# 名称列表（课、文件、学生）中各项之间的分隔符。
# en: 472c0a0c5d9fe1a8
list-comma = 、
# 说明或失败列表中各项之间的分隔符。
# en: 7f0206f1f2cf431d
list-semicolon = ；
# en: 80046e92082b27be
course-no-manifest = { $dir } 中没有 { $file }：--course-dir 必须指向课程的根文件夹
# en: b494a41196f36655
course-could-not-resolve = 无法解析课程文件夹 { $dir }
# en: 3d6785364efdb342
course-no-current-dir = 无法读取当前目录
# en: 4dfebacba0d08015
course-not-found = 这里和上级各文件夹中都没有 { $file }：请在课程内部（你克隆下来的文件夹）运行 checker，或者加上 --course-dir
# en: 786bf567d62d593d
course-no-lesson = 没有 `{ $name }` 这一课；请用文件夹名、编号或 crate 名指明，例如 `02-attention`、`02` 或 `attention`。现有的课：{ $lessons }
# en: 334b915d73f28ecc
course-could-not-read-suite = 无法读取评分测试套件 { $path }
# en: 16435b3b7ef068c2
file-could-not-read = 无法读取 { $path }
# en: 31803e937fb22f8a
file-could-not-create = 无法创建 { $path }
# en: 90a82b84c417f0e4
file-could-not-copy = 无法复制 { $path }
# en: bb4c71b05a086829
lang-unknown = 课程支持 `en` 和 `zh-CN`（简体中文），不支持 `{ $lang }`
# en: ef9095c1daf8af56
hint-progress-not-saved = 无法把提示进度保存到 { $path }

## 构建和运行作业（compile.rs、judge.rs、process.rs、run.rs、sandbox.rs、scratch.rs）

# en: d70dec26e3d71194
file-could-not-write = 无法写入 { $path }
# en: 9340b7033a3df431
file-not-toml = { $path } 不是有效的 TOML
# en: 8ccd32319b96ca6e
compile-no-rustc = 无法运行 rustc 来查找工具链：Rust 安装了吗？
# en: 871a20971fca9095
compile-no-home = 找不到主目录（用来查找 cargo 的 registry）
# en: 5a84e6d010062f4d
compile-could-not-run-cargo = 无法运行 cargo
# en: 5b25bc451bdafde0
compile-fetch-failed =
    无法下载各课所依赖的 crate（在从未构建过本课程的机器上，评分需要下载一次）：
    { $errors }
    请联网一次，然后再运行这条命令，或者在 { $course } 中运行 `cargo fetch`；此后评分无需联网。
# en: 14f402a240376c38
compile-warm-failed =
    无法为评分构建课程的依赖：
    { $errors }
# en: e168abe288fbe0d5
compile-warm-timeout = 构建课程的依赖用时超过了 { $seconds } 秒
# en: 483f3a567daec715
compile-timeout = 构建用时超过了 { $seconds } 秒
# en: efe329cb9515db02
compile-could-not-lock =
    无法解析评分工作区 { $workspace } 的依赖：
    { $errors }
# en: 3bc14dbd5d81904e
compile-library-rebuilt = 测试可见时，这一课的库又被编译了一次（这是评分器的缺陷，不是你的代码的问题）：请报告这个问题
# en: c96d504a081755ad
compile-step-library = 库
# en: a4bc186c23b78e21
compile-step-tests = 测试
# en: 2e1b1cb573d18666
compile-step-timeout = 构建{ $what }用时超过 { $seconds } 秒，已被停止（--build-timeout）。可能的原因：某个常量的求值永远不会结束，或者 `include_bytes!` 引入了非常大的文件。
# en: 7bb0c57e0e3654c3
compile-out-of-memory = 编译器耗尽了内存（上限是 { $mib } MiB，--build-memory）。可能的原因：巨大的 `include_bytes!` 或常量。
# 与编译器的错误一样以 `error` 开头：进度表会显示第一条这样的行。
# en: d03ca5d2b0a1da30
compile-heldout-does-not-compile = error: 留出测试无法针对你的这一课编译：请检查每个公开项是否保持着它的 /// 契约所给的名称和签名。
# en: c26398fe7ffd647a
judge-could-not-build = 无法构建裁判程序
# en: 72efb5d9ad3c21b0
process-could-not-look-up-user = 无法查找用户 `{ $user }`
# en: 536872c513a3a6d3
process-no-such-user = 没有用户 `{ $user }`：请创建它，或者去掉 --run-as
# en: 42d6a5b1c75d7041
fallback-account-is-root = --run-as 指定的是 root：没有沙箱时，被测代码必须以一个专用、不拥有任何文件的账户运行（例如 `adduser --disabled-password student`）
# en: 0cafdd72784522ba
fallback-account-is-shared = --run-as 指定的是 `nobody`，系统服务共用这个账户：每次运行之后，这个账户的所有进程都会被结束，它们的也不例外。请用一个专用账户（例如 `useradd --system --no-create-home course-grader`）
# en: 3da3c4932e27f7de
fallback-answers-readable = --run-as 指定的账户能读取或进入 { $path }：没有沙箱时，它能接触到的任何东西都不可以含有答案。请让它接触不到参考解、测试套件、课程的 .git 和构建文件夹（例如 `chmod -R o-rwx { $course }/solutions` 和 `chmod o-rwx { $course }/.git { $course }/target`，Gradescope 包的 setup 就是这样做的），或者在能运行 bubblewrap 的地方评分
# en: abfe0003d190f437
process-run-as-needs-unix = --run-as { $user }：以另一个用户身份运行测试需要 Unix 系统
# en: 39636246e7688d7d
process-could-not-hand-folder = 无法把 { $path } 的所有权交给测试账户
# en: 459f490fb4853ed4
process-could-not-start = 无法启动 { $program }
# en: 77c8aebc49756202
process-could-not-create-pipe = 无法创建管道
# en: 0181f033242c3218
process-could-not-hand-pipe = 无法把结果管道的所有权交给测试账户
# en: 9dd20fb5acd91957
process-needs-unix = 评分需要 Unix 系统（Linux 或 macOS），在 Windows 上请使用 WSL
# en: c41c02ad312a5b8f
process-could-not-wait = 无法等待子进程
# en: 7dd9b6f56e7199f8
process-exit-code = 退出码 { $code }
# en: b8aec5811b29bf44
process-signal = 信号 { $signal }（{ $name }）
# en: a2fd7378501dc351
process-unknown-signal = 未知
# en: 882d8387d778e6f4
process-unknown-status = 未知的状态
# en: 2db3812d76406702
run-timeout = 测试没有在 { $seconds } 秒内结束，已被停止。可能的原因：死循环、非常慢的算法，或者代码在等待输入。
# en: 660c96d7ac2305fb
run-tape-too-large = 测试进程写出了超过 { $mib } MiB 的结果，远远多于任何测试的需要：它没有被评分。
# en: 4526588a458b8943
run-no-verdict = 评分器的裁判程序无法判定这个测试（这是课程的缺陷，不是你的代码的问题）：请报告这个问题。
# en: 39b82bcbebd71ba1
run-ended-badly = 检查都通过了，但测试进程随后以 { $how } 结束；只有进程正常结束，测试才算通过。
# en: 1dc0d55a4530fbbb
run-tape-mismatch = 你的代码所在进程记录的值与测试发出的调用对不上（{ $message }）。测试进程不得写入评分器的通道（文件描述符 { $fd }）。
# en: a1c250257e8ae261
sandbox-not-installed = 没有安装 bubblewrap（bwrap）：在 Debian 或 Ubuntu 上运行 `apt-get install bubblewrap`
# en: 84285b91da1d0e76
sandbox-cannot-start = bubblewrap 无法在这里启动沙箱（{ $error }）；用户命名空间可能被禁用了，默认的 Docker 容器就是这样
# en: 4ac3a2ec4c90a5b0
sandbox-did-not-start = bubblewrap 没有启动：{ $error }
# en: 069fc7959e03e9ed
sandbox-active = 在沙箱中（bubblewrap）
# en: fbd4504412c7d222
sandbox-inactive = 不在沙箱中：{ $why }
# en: 817c088c1513eee8
sandbox-missing-bind = 无法让沙箱看到 { $path }：它不存在
# en: 18add294c6a2c0d5
scratch-could-not-lock = 无法锁定 checker 的临时工作文件夹
# en: 1a03fac6583af010
scratch-symlink = { $path } 是符号链接。评分只使用你的作业自身的文件：请把这个链接换成存放你代码的文件夹（或文件）。
# en: 36f7d86ff41cc7cf
scratch-too-many-files = src/ 中有超过 { $count } 个文件；一课的源代码只是几个代码文件
# en: 5d74f97700cfcfbb
scratch-too-large = src/ 超过了 { $mib } MiB；一课的源代码只是几个代码文件
# en: 8a587961871b8b69
scratch-not-utf8 = src/{ $file } 不是 UTF-8 文本。
# en: e0d3baea543ea78b
scratch-not-rust = src/{ $file } 不是有效的 Rust 代码（{ $error }）；请修正后重新评分。
# en: 44d6bf1033bab77c
scratch-unsafe = src/{ $file } 使用了 `unsafe`。课程的各课不需要任何 unsafe 代码，评分也拒绝一切 unsafe 代码：请删掉它（以及所有 `#[unsafe(...)]` 属性）。
# en: 3e4716c8c4f20781
scratch-odd-name = src/{ $file } 的名称不被评分接受：src/ 下文件和文件夹的名称只能包含字母、数字、空格、`_`、`-` 和 `.`（不能有换行、`#`、`:` 或其他符号，它们可能让某个文件躲过编译器对所读文件的记录）。请改名，然后再评分。
# en: 6afe83b9c4948e6c
compile-unrecorded = 你的库没有编译通过，而且编译器在记录它读过哪些文件之前就停止了，所以这里不显示它的信息：这些信息的文字可能引用它打开过的任何文件。它停在：{ $locations }。请在你自己的副本上运行 `cargo build -p { $krate }` 查看这些信息，改正后再提交。
# en: 906fb514735366fe
compile-foreign-input = 编译器为构建你的库读取了 { $file }：评分只使用你这一课 src/ 文件夹中的文件（`include!`、`include_str!`、`include_bytes!` 或 `#[path]` 读到它之外的文件，都会被拒绝）。请把库所需的一切都放在 src/ 中。

## 为全班评分与成绩册（class.rs、gradebook.rs）

# en: 7c7a6770df7c476a
class-no-folder = 没有文件夹 { $folder }：`checker class` 需要一个每位学生占一项的文件夹（一个文件夹，或一个 .zip 或 .tar.gz 压缩包）
# en: e48b9a495617834a
class-same-student = 有 { $count } 项都属于学生 `{ $student }`（{ $entries }）：请只保留一项后重新评分；它们都没有被评分
# en: 44777a6bcc423471
class-archive-too-large = 这个压缩包解开后超过 { $mib } MiB：一份作业只有几个源文件；请只提交各课的 src/ 文件夹
# en: 6f1bf1bbb817408a
class-tar-header-too-large = 这个压缩包有一个 { $bytes } 字节的头（长文件名或扩展记录；最多接受 { $kib } KiB）：请用普通的 `tar czf` 重新打包各课
# en: 2cb34d2fa89a8d43
class-no-lessons = 这份作业中找不到任何课：应当在它的顶层或往下一层有一个 lessons/ 文件夹，或者有 02-attention/src/lib.rs 这样的课程文件夹
# en: c6a41eb963028e3e
class-could-not-open-archive = 无法打开压缩包 { $path }
# en: c617780b4cf1546a
class-too-many-files = 压缩包中有超过 { $count } 个文件
# en: abb84b9eb5004a90
class-too-large = 压缩包解压后超过 { $mib } MiB
# en: 8a301cc445d19965
class-not-zip = 不是有效的 .zip 压缩包
# en: 98d7c29f7fe817f4
class-damaged-zip-entry = .zip 中有一个损坏的条目
# en: aabe284463d842c7
class-not-tar = 不是有效的 tar 压缩包
# en: 42322ca845eed52e
class-damaged-tar-entry = tar 压缩包中有一个损坏的条目
# en: e3093c59b83a7a76
class-not-an-archive = 既不是文件夹，也不是 .zip、.tar 或 .tar.gz 压缩包
# en: dc5e5c675ffe9af4
gradebook-not-graded = 未评分
# CSV 成绩册 `notes` 列中的一条说明；$what 是一课的状态（checker.ftl 的 state-*）或下面的计数之一。
# en: 0c9bf9bffd3fd28a
gradebook-note = { $id }：{ $what }
# en: bd56d8c5d7f44023
gradebook-timed-out = { $count } 个测试超时
# en: 73a55e02c26e7f5e
gradebook-crashed = { $count } 个测试崩溃

## 学生版与 Gradescope 评分包（export.rs、gradescope.rs）

# en: 7fe1291ee4bbe93f
export-not-empty = { $out } 不是空的：export-student 只写入新的文件夹，不覆盖任何东西
# en: 0235ad7bb7901da9
gradescope-not-empty = { $out } 不是空的：评分包要写入一个新的文件夹
# en: 2cc3b040fba20cc5
gradescope-could-not-write-zip = 无法写入 autograder.zip
# results.json 的摘要：每课一行。
# en: d848497e6a62122b
gradescope-summary = { $id } { $title }：{ $passed }/{ $total } 个测试

## checker verify（verify.rs）

# en: 14deada6f6e23782
verify-needs-solutions = verify 需要课程的 solutions/，而这个版本没有：请在教师版（完整的仓库）中运行它
# en: 2bfbf9a7d0aa6b67
verify-solution-fails = { $id } 的参考答案得分 { $passed }/{ $total }：{ $failures }
# en: f74dd5bec7e6776f
verify-solution-fails-on-stubs = 裁判程序基于练习框架构建时，{ $id } 的参考答案得分 { $passed }/{ $total }：某个测试套件在 `observe` 之外调用了这一课（请把调用包起来）：{ $failures }
# verify-solution-fails 中的一个失败测试：测试名及其消息的第一行。
# en: 102e94d8f01cecfc
verify-failure = { $test }（{ $message }）
# en: 08fc89c9e9d4dbe1
verify-stub-passes = { $id } 的练习框架通过了本应失败的评分测试：{ $tests }
# en: e76f9f1c65716f15
verify-stub-does-not-build = { $id } 的练习框架无法构建：{ $message }

## 班级报告、它的历史记录与相似的作业（class_report/）

# en: 234bf0ad639bdfd9
history-could-not-open = 无法打开历史数据库 { $path }（一个 SQLite 文件）：请给 --history 一个可以创建文件的路径，或一个已有的历史记录
# en: 7fa0d6aa09c9c304
history-not-ours = { $path } 是一个 SQLite 数据库，但不是班级历史记录（其中有别的表）：请给 --history 一个新文件
# en: f350f9141f81daed
history-newer-schema = { $path } 是结构版本 { $found } 的班级历史记录，比这个 checker 的版本（{ $known }）新：文件未做任何改动；请用写下它的 checker 记录，或给 --history 一个新文件
# en: 2d1ea56bbd2e6561
similarity-unavailable = 没有比较各份作业：{ $python } 没有 copydetect。请安装它（`{ $python } -m pip install copydetect`，或装在虚拟环境里），或用 --python 指定装有它的解释器，然后再运行一次。
# en: 651908330cb1e24c
similarity-could-not-run = 无法运行 { $python } 来比较各份作业
# en: 4eacc247b5b3724c
similarity-timed-out = 比较各份作业用了超过 { $seconds } 秒，已被停止
# en: cb7fcf83e4e727cd
similarity-failed = 用 { $python } 比较各份作业失败：{ $error }
# en: 395faee55feffaa7
report-title = 班级报告
# en: 1850d5b415d7a2fc
report-summary = { $students } 名学生（其中 { $graded } 名可以评分），{ $lessons } 课。
# en: 594e84f46e801685
report-lessons = 各课
# en: 75ec27c00311c4a7
report-misconceptions = 常见误解
# en: 42e234b9c7c11a84
report-unexplained = 未被解释的失败
# en: 57954569b9643055
report-stuck = 卡住的学生
# en: 4521bcf12c0dabd4
report-similar = 相似的作业
# en: f8ea3d72b7b8c9e7
report-students = 学生
# en: 6b2556e6fc046a47
report-misconceptions-note = 检查点出名字的错误，以及犯了这些错误的学生（每名学生每个错误只算一次）。每条都说明错在哪里、应当怎么做；提示是 checker 对该函数给出的提示，章节是书中讲解它的地方。
# en: 7ec53ada621c6e07
report-none = 没有。
# en: a53f4cffcf997cf1
report-students-count = 学生数
# en: 78129e431b2d2b21
report-mistake = 错误
# en: d45f1672f6244a5d
report-who = 哪些学生
# en: f7ff17f30ae1b789
report-hint = 提示
# en: ed349216d56bb91a
report-chapter = 书中章节：{ $chapter }
# en: 54ea171d3dd36d51
report-gone = 以前的运行中出现过、现在已没有人再犯的错误：
# en: 8eda7ed759343e80
report-unexplained-note = 没有任何已命名错误能解释的失败测试，按测试和消息的第一行分组（数字写作 #）。这里很大的一组，就是检查还不认识的一种错误。
# en: febcae8c57bdf429
report-failure = 测试与第一条消息
# en: 522982625858f095
report-student = 学生
# en: f5d2eba3bd632bed
report-why = 原因
# en: d44bae8397c22263
report-lesson = 课
# en: fc77032ebdb0b335
report-detail = 详情
# en: 5a5eee1eee0ab0b0
report-similar-note = 同一课中比全班通常情况相似得多的成对作业；比较时去掉了该课练习框架和参考解答中的代码。这只是请人去看一看两份作业的理由，不是结论：任何成绩都不取决于它。
# en: 6c553f93016c1537
report-similar-none = 没有哪一对特别突出。
# en: debf216e8c66ae53
report-pair = 学生
# en: c648d4820ffb9906
report-similarity = 相似度
# en: 889755af9b0a66a6
report-class-median = 全班中位数
# en: b84729beddcdae41
report-student-trend = 各次记录的运行中的分数：{ $scores }
# en: f99d5351a74abd11
report-score = 通过
# en: 896ad3e3bc094700
report-first-failure = 第一个失败
# en: 5f26153ce8907830
report-histogram-title = { $lesson } 的分数
# en: 4f3450a239a8b5c7
report-histogram-description = 分数从 0 到 1、以 0.1 为一档的学生人数：{ $counts }
# en: d9dc93051071034b
report-histogram-axis = 分数（每档 0.1；最后一档含 1）
# en: 552dc0b5141227a1
report-median = 中位数 { $median }，平均 { $mean }。
# en: 90a7c989375a7cf7
report-test = 测试（最难的在前）
# en: 57e80ef2f4c42ac5
report-passing = 通过人数
# en: 3dd586c0fe1b91cd
report-all-tests = 全部 { $count } 个测试
# en: 71aa768bfc388b2e
report-held-out = 留出测试
# en: 7942f3494386107b
report-stuck-not-submitted = 无法评分
# en: 82f2d5d3d0288a71
report-stuck-not-started = 尚未开始
# en: 63e73bdf445bdc20
report-stuck-does-not-compile = 无法编译
# en: aa7dcbac63a77178
report-stuck-crashing = 崩溃
# en: a33b50455cde603f
report-stuck-timing-out = 超时
# en: ca16e81c732555f4
report-stuck-blocked = 被前面的课挡住
# en: 5030a3b036bd85cb
report-blocked-by = { $earlier } 也没有通过，而这一课建立在它之上：请先修好 { $earlier }
# en: bb796e55ad00572d
summary-class = 全班：{ $students } 名学生，{ $graded } 名已评分。
# en: 5fcee4beed707e59
summary-no-mistakes = 没有点出名字的错误。
# en: 33e1fc6990e2c965
summary-mistakes = 最常见的错误：
# 每个错误一行：学生人数、它的键、有历史记录时以前各次运行的人数、它的说明。
# en: f5000163bc95f1e1
summary-mistake = {"  "}{ $count } × { $key }{ $trend }：{ $text }
# en: 1b00068c85d086a1
summary-more = {"，"}另有 { $count } 名
# en: 68dc8659c877eaa7
summary-stuck = { $kind }：{ $count }（{ $names }）
# en: b5b2c860132fc0a2
summary-report = 报告：{ $page }
# en: 505de3f261416afc
report-similar-truncated = 只比较了一部分（源代码超出了比较所读取的长度）：{ $who }
# en: c2e83dc4abc69efd
summary-similar = 相似的作业（请人去看一看）：{ $count } 对{ $pairs }
# 摘要中一行里列表之前的符号。
# en: 0f03477a09cf3230
summary-colon = ：
