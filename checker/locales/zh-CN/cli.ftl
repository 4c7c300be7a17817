# `checker --help` 的中文。英文原文是 src/cli.rs 里的文档注释；这里按命令和参数查找：
# cli-<命令>-about、cli-<命令>-arg-<参数>，没有时用 cli-arg-<参数>。

## 版式

cli-template =
    {"{"}about-with-newline{"}"}
    用法：{"{"}usage{"}"}

    {"{"}all-args{"}"}{"{"}after-help{"}"}
cli-heading-commands = 命令
cli-heading-options = 选项
cli-heading-limits = 限制
cli-heading-instructors = 供教师使用

## 命令

# en: 67f6e228df28e6f8
cli-checker-about = 为“用 Rust 构建 Transformer”的各课评分，显示你的进度，给出提示。
cli-checker-long-about =
    为“用 Rust 构建 Transformer”的各课评分，显示你的进度，给出提示。

    不带命令时，为 ./lessons 中的每一课评分，并显示进度表和下一步要做的事。
# en: a3c9e93f5f22bc15
cli-grade-about = 为各课评分，显示每个测试的结果，以及要修改什么。
# en: 98bb19ff682375ed
cli-watch-about = 每次保存都重新为一课评分；按键：h 提示，n 下一课，r 重新运行，q 退出。
# en: 84f96d3d479580e6
cli-hint-about = 为一课中第一个失败的函数显示下一条提示（每调用一次多显示一条）。
# en: 5c10c5e0711ad5cb
cli-class-about = 供教师使用：为 DIR 中的每份作业（每名学生一个文件夹或压缩包）评分，并写出成绩册。
# en: 3bdc8e5db1f78da1
cli-export-student-about = 供教师使用：把课程的学生版写入 OUT（各课、带评分测试的 checker、书；没有参考答案，没有留出测试）。
# en: b6dff5b99619383f
cli-gradescope-about = 供教师使用：把 Gradescope 自动评分包写入 OUT（setup.sh、run_autograder、课程，以及装着它们的 autograder.zip）。
# en: c37d9ea918b293c2
cli-verify-about = 供维护者使用：每个参考答案得 100%，每个练习框架得 0%，清单、文件夹和书彼此一致。
# en: faa77675ab411513
cli-verify-arg-lessons = 要作为参考答案和练习框架来评分的课（例如正在编写的那一课），按文件夹、编号或 crate 指定。默认：全部。无论如何，清单、文件夹和书都会整体检查。
# en: d4311cccccec41a0
cli-help-about = 显示这条消息，或给定子命令的帮助。

## 参数

# en: 4db4287de4659e2d
cli-arg-course-dir = 课程的根文件夹（含 course.toml 的那个）。默认：从当前目录向上查找。
# en: ea8ce916f0068595
cli-arg-lang = checker 的消息和测试的教学消息所用的语言：`en` 或 `zh-CN`。默认：环境的区域设置（LC_ALL、LC_MESSAGES、LANG），否则为英文。
# en: 10bbe6e4b9512db5
cli-arg-lessons-dir = 为 DIR 下的课程源码评分（布局与 lessons/ 相同），而不是 ./lessons。
# en: ccc0222dc7de3992
cli-arg-test-timeout = 每个测试在被停止之前可以运行的秒数。
# en: 46bae6bb4f4d07cf
cli-arg-memory-limit = 每个测试可以使用的内存，单位 MiB（它的地址空间）。
# en: f4ed1af062ae2745
cli-arg-lesson-timeouts = 一课中有这么多个测试超时之后，它的其余测试不再运行（以同样的原因判为失败）：代码陷入死循环的课不会长时间拖住评分。
# en: 73fe4a5f866d81a3
cli-arg-submission-timeouts = 一份作业中有这么多个测试超时之后，其余测试都不再运行。
# en: 05fa0a1d41b2dadb
cli-arg-build-timeout = 构建一课的每一步（先是它的库，再是它的测试）可以用的秒数。
# en: 212d049f221badc8
cli-arg-build-memory = 构建一课时每个进程可以使用的内存，单位 MiB（它的地址空间）。
# en: 4757ac16ff171dea
cli-arg-unsandboxed = 不用沙箱（bubblewrap）运行学习者的代码。自学评分在没有沙箱的地方会自动这样做；教师的命令（`class`、Gradescope 和 Classroom 格式）除非给出这个选项，否则拒绝这样做，因为被测代码会以你的权限运行：它能读取和修改你的文件。
# en: c0e394900e305488
cli-arg-jobs = 同时运行多少个测试。默认：每个 CPU 一个。
# en: e2d50681cadfab8b
cli-arg-whole-stack = 在你自己之前各课的代码之上构建每一课，而不是在课程的参考版本之上：就像训练时那样，用你自己的整套实现。这样一课的成绩取决于它之前的各课；可能由前面某课引起的失败会指出是哪一课。（学生版没有参考版本，总是这样做。）
# en: fab315a7b66ef9ea
cli-arg-run-as = 以这个（无特权的）用户身份运行被测代码，使它无法写入评分器的文件。checker 必须以 root 身份运行才能切换用户。
# en: 51ebdd4bdd6dc358
cli-arg-format = 结果的打印方式：text（给人读），json（给程序读），gradescope（Gradescope 的 results.json），classroom（GitHub Classroom 的评分报告器读取的格式）。
# en: 7ba22c91975d72a5
cli-arg-help = 显示帮助。
# en: ffd0d63f0effe104
cli-arg-version = 显示版本。
cli-default = （默认：{ $value }）
# en: cb9b9c150efba2f5
cli-arg-lessons = 要评分的课，按文件夹、编号或 crate 指定：`02-attention`、`02` 或 `attention`。默认：全部。
# en: cd47bfae64b87d66
cli-arg-lesson = 哪一课（`02-attention`、`02` 或 `attention`）。默认：你正在做的那一课，即你最近编辑过的未完成的课。
# en: 4f931aa98fe44a06
cli-arg-poll = 每秒检查一次改动，而不依赖文件系统事件（用于网络驱动器和某些虚拟机，那里收不到事件）。
# en: 2cb1e678de85e39f
cli-arg-all = 一次显示这一课的全部提示，逐个函数列出。
# en: 7c7e1d6d09f379a7
cli-arg-reset = 让这一课的提示从头开始。
# en: 58873098436f50ff
cli-class-arg-dir = 作业所在的文件夹：每一项是一名学生，一个文件夹（学生版的副本，或只是它的 lessons/）或它的 .zip / .tar.gz 压缩包。
# en: 667b3922cbade993
cli-class-arg-format = 成绩册的格式：csv（每名学生一行，每课得分一列，0 到 1，外加总分和备注），json（全部内容，按测试列出），junit（JUnit XML，每名学生每课一个测试套件）。
# en: 1320d83484b950a1
cli-class-arg-out = 把成绩册写入 FILE，而不是标准输出。
# en: 50cfc3c45c808ab3
cli-arg-out = 一个尚不存在（或为空）的文件夹。
# en: 667168a345b81088
cli-class-arg-report = 另把班级报告写入文件夹 OUT：index.html（一个自成一体的网页：分数、全班按名字列出的错误、谁卡住了、相似的作业、每名学生一节）和 report.json，即网页所依据的数据。
# en: 27dd10fec5fecb18
cli-class-arg-history = 把这次运行记入 SQLite 数据库 FILE（需要时创建），每名学生、每课、每个测试一行；报告随后显示其中记录的各次运行的趋势。
# en: 06976af71bf921a3
cli-class-arg-run-label = 这次运行在历史记录中的名字（默认：日期）。
# en: 6e202a2086141cfb
cli-class-arg-python = 装有 copydetect（`pip install copydetect`）的 Python，用来为报告中“相似的作业”一节比较各份作业。
