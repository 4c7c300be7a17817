# The checker's errors and what the instructor's and maintainer's commands say (class, the
# gradebooks, gradescope, export-student, verify); a learner meets some of them too (a
# lesson that cannot be found, a submission that cannot be graded). Machine formats keep
# their English keys; the human-readable text in them follows the language.

## Finding the course, its lessons and its files (course.rs, files.rs, cli.rs, hint.rs)

# Between the names of a list (lessons, files, students).
list-comma = {", "}
course-no-manifest = { $dir } has no { $file }: --course-dir must name the course's root folder
course-could-not-resolve = could not resolve the course folder { $dir }
course-no-current-dir = could not read the current directory
course-not-found = no { $file } here or in any parent folder: run the checker from inside the course (the folder you cloned), or pass --course-dir
course-no-lesson = there is no lesson `{ $name }`; name one by its folder, number or crate, e.g. `02-attention`, `02` or `attention`. The lessons are: { $lessons }
course-could-not-read-suite = could not read the graded suite { $path }
file-could-not-read = could not read { $path }
file-could-not-create = could not create { $path }
file-could-not-copy = could not copy { $path }
lang-unknown = the course speaks `en` and `zh-CN` (Simplified Chinese), not `{ $lang }`
hint-progress-not-saved = could not save hint progress to { $path }
