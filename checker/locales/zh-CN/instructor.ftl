# checker 的错误信息，以及教师和维护者所用命令（class、成绩册、gradescope、export-student、
# verify）的输出；其中一些学习者也会遇到（找不到的课、无法评分的作业）。机器格式保留英文
# 键名；其中给人读的文字随语言而变。

## 查找课程、课和文件（course.rs、files.rs、cli.rs、hint.rs）

# 名称列表（课、文件、学生）中各项之间的分隔符。
list-comma = 、
course-no-manifest = { $dir } 中没有 { $file }：--course-dir 必须指向课程的根文件夹
course-could-not-resolve = 无法解析课程文件夹 { $dir }
course-no-current-dir = 无法读取当前目录
course-not-found = 这里和上级各文件夹中都没有 { $file }：请在课程内部（你克隆下来的文件夹）运行 checker，或者加上 --course-dir
course-no-lesson = 没有 `{ $name }` 这一课；请用文件夹名、编号或 crate 名指明，例如 `02-attention`、`02` 或 `attention`。现有的课：{ $lessons }
course-could-not-read-suite = 无法读取评分测试套件 { $path }
file-could-not-read = 无法读取 { $path }
file-could-not-create = 无法创建 { $path }
file-could-not-copy = 无法复制 { $path }
lang-unknown = 课程支持 `en` 和 `zh-CN`（简体中文），不支持 `{ $lang }`
hint-progress-not-saved = 无法把提示进度保存到 { $path }
