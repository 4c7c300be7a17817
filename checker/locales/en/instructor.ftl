# The checker's errors and what the instructor's and maintainer's commands say (class, the
# gradebooks, gradescope, export-student, verify); a learner meets some of them too (a
# lesson that cannot be found, a submission that cannot be graded). Machine formats keep
# their English keys; the human-readable text in them follows the language.

## Finding the course, its lessons and its files (course.rs, files.rs, cli.rs, hint.rs)

# Between the names of a list (lessons, files, students).
list-comma = {", "}
# Between the items of a list of notes or failures.
list-semicolon = {"; "}
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

## Building and running a submission (compile.rs, judge.rs, process.rs, run.rs, sandbox.rs, scratch.rs)

file-could-not-write = could not write { $path }
file-not-toml = { $path } is not valid TOML
compile-no-rustc = could not run rustc to find the toolchain: is Rust installed?
compile-no-home = could not find the home folder (for cargo's registry)
compile-could-not-run-cargo = could not run cargo
compile-fetch-failed =
    could not download the crates the lessons build on (grading needs them once, on a machine that has never built the course):
    { $errors }
    Connect to the internet once and run this command again, or run `cargo fetch` in { $course }; after that, grading works offline.
compile-warm-failed =
    could not build the course's dependencies for grading:
    { $errors }
compile-warm-timeout = building the course's dependencies took longer than { $seconds } s
compile-timeout = the build took longer than { $seconds } s
compile-could-not-lock =
    could not resolve the dependencies of the grading workspace { $workspace }:
    { $errors }
compile-library-rebuilt = the lesson's library was compiled again while the tests were visible (a defect of the grader, not of your code): please report it
compile-step-library = library
compile-step-tests = tests
compile-step-timeout = building the { $what } took longer than { $seconds } s and was stopped (--build-timeout). Likely cause: a constant whose evaluation never ends, or a very large `include_bytes!`.
compile-out-of-memory = the compiler ran out of memory (the limit is { $mib } MiB, --build-memory). Likely cause: a huge `include_bytes!` or constant.
# Starts with `error` as the compiler's errors do: the progress table shows the first such line.
compile-heldout-does-not-compile = error: the held-out tests do not compile against your lesson: check that every public item keeps the name and signature its /// contract gives.
judge-could-not-build = could not build the judge
process-could-not-look-up-user = could not look up the user `{ $user }`
process-no-such-user = there is no user `{ $user }`: create it, or drop --run-as
fallback-account-is-root = --run-as names root: without a sandbox the code under test must run as an account of its own that owns nothing (for example `adduser --disabled-password student`)
fallback-account-is-shared = --run-as names `nobody`, which system services share: every process of the account is killed after each run, theirs too. Use an account of its own (for example `useradd --system --no-create-home course-grader`)
fallback-answers-readable = the account given with --run-as can read or enter { $path }: without a sandbox, nothing it can reach may hold an answer. Make the solutions, the suites, the course's .git and its build folder unreachable to it (for example `chmod -R o-rwx { $course }/solutions` and `chmod o-rwx { $course }/.git { $course }/target`, as the Gradescope bundle's setup does), or grade where bubblewrap runs
process-run-as-needs-unix = --run-as { $user }: running tests as another user needs a Unix system
process-could-not-hand-folder = could not hand { $path } to the test account
process-could-not-start = could not start { $program }
process-could-not-create-pipe = could not create a pipe
process-could-not-hand-pipe = could not hand the result pipe to the test account
process-needs-unix = grading needs a Unix system (Linux or macOS), or WSL on Windows
process-could-not-wait = could not wait for a child process
process-exit-code = exit code { $code }
process-signal = signal { $signal } ({ $name })
process-unknown-signal = unknown
process-unknown-status = an unknown status
run-timeout = The test did not finish within { $seconds } s and was stopped. Likely cause: an endless loop, a very slow algorithm, or code waiting for input.
run-tape-too-large = The test's process wrote more than { $mib } MiB of results, far more than any test asks for: it was not graded.
run-no-verdict = The grader's judge could not decide this test (a defect of the course, not of your code): please report it.
run-ended-badly = The checks passed, but the test's process then ended with { $how }; a test passes only when its process ends normally.
run-tape-mismatch = The values your code's process recorded do not match the calls the test makes ({ $message }). A test's process must not write to the grader's channel (file descriptor { $fd }).
sandbox-not-installed = bubblewrap (bwrap) is not installed: on Debian or Ubuntu, `apt-get install bubblewrap`
sandbox-cannot-start = bubblewrap cannot start a sandbox here ({ $error }); user namespaces may be disabled, as in a default Docker container
sandbox-did-not-start = bubblewrap did not start: { $error }
sandbox-active = sandboxed (bubblewrap)
sandbox-inactive = not sandboxed: { $why }
sandbox-missing-bind = cannot show { $path } to the sandbox: it does not exist
scratch-could-not-lock = could not lock the checker's scratch folder
scratch-symlink = { $path } is a symbolic link. Grading uses only the files of your submission itself: replace the link with a folder (or file) holding your code.
scratch-too-many-files = src/ holds more than { $count } files; a lesson's source is a few files of code
scratch-too-large = src/ holds more than { $mib } MiB; a lesson's source is a few files of code
scratch-not-utf8 = src/{ $file } is not UTF-8 text.
scratch-not-rust = src/{ $file } is not valid Rust ({ $error }); fix it, then grade again.
scratch-unsafe = src/{ $file } uses `unsafe`. The course's lessons need no unsafe code, and grading refuses any: remove it (and any `#[unsafe(...)]` attribute).
scratch-odd-name = src/{ $file } has a name grading does not accept: names of files and folders under src/ may hold letters, digits, spaces, `_`, `-` and `.` only (no line breaks, `#`, `:` or other symbols, which could hide a file from the compiler's record of what it read). Rename it, then grade again.
compile-unrecorded = your library did not compile, and the compiler stopped before it recorded which files it had read, so its messages are not shown here: their text could quote any file it opened. It stopped at: { $locations }. Run `cargo build -p { $krate }` on your own copy to see the messages, fix them, then submit again.
compile-foreign-input = the compiler read { $file } to build your library: grading uses only the files of your lesson's src/ folder (an `include!`, `include_str!`, `include_bytes!` or `#[path]` that reaches outside it is refused). Keep everything the library needs in src/.

## Grading a class and its gradebooks (class.rs, gradebook.rs)

class-no-folder = there is no folder { $folder }: `checker class` takes a folder with one entry per student (a folder, or a .zip or .tar.gz archive)
class-same-student = { $count } entries are all the student `{ $student }` ({ $entries }): keep one and grade again; none of them was graded
class-archive-too-large = the archive holds more than { $mib } MiB once unpacked: a submission is a few source files; send only the lessons' src/ folders
class-tar-header-too-large = the archive has a header of { $bytes } bytes (a long file name or an extended record; at most { $kib } KiB are accepted): pack the lessons again with a plain `tar czf`
class-no-lessons = found no lessons in this submission: expected a lessons/ folder, or lesson folders such as 02-attention/src/lib.rs, at its top or one folder down
class-could-not-open-archive = could not open the archive { $path }
class-too-many-files = the archive holds more than { $count } files
class-too-large = the archive unpacks to more than { $mib } MiB
class-not-zip = not a valid .zip archive
class-damaged-zip-entry = a damaged entry in the .zip
class-not-tar = not a valid tar archive
class-damaged-tar-entry = a damaged entry in the tar archive
class-not-an-archive = not a folder or a .zip, .tar or .tar.gz archive
gradebook-not-graded = not graded
# A note of the CSV gradebook's `notes` column; $what is a lesson's state (checker.ftl's
# state-*) or one of the counts below.
gradebook-note = { $id }: { $what }
gradebook-timed-out = { $count } test(s) timed out
gradebook-crashed = { $count } test(s) crashed

## The student edition and the Gradescope bundle (export.rs, gradescope.rs)

export-not-empty = { $out } is not empty: export-student writes a fresh folder, and overwrites nothing
gradescope-not-empty = { $out } is not empty: the bundle goes into a fresh folder
gradescope-could-not-write-zip = could not write autograder.zip
# The summary of results.json: one line per lesson.
gradescope-summary = { $id } { $title }: { $passed }/{ $total } tests

## checker verify (verify.rs)

verify-needs-solutions = verify needs the course's solutions/, which this edition does not have: run it in the instructor's edition (the full repository)
verify-solution-fails = solution of { $id } scores { $passed }/{ $total }: { $failures }
verify-solution-fails-on-stubs = with the judge built on the stubs, the solution of { $id } scores { $passed }/{ $total }: a suite calls the lesson outside `observe` (wrap the call): { $failures }
# A failing test of verify-solution-fails: its name and the first line of its message.
verify-failure = { $test } ({ $message })
verify-stub-passes = the stub of { $id } passes graded tests it should fail: { $tests }
verify-stub-does-not-build = the stub of { $id } does not build: { $message }

## The class report, its history and the similar submissions (class_report/)

history-could-not-open = could not open the history database { $path } (an SQLite file): give --history a path where a file can be created, or an existing history
history-not-ours = { $path } is an SQLite database, but not a class history (it has tables of its own): give --history a new file
history-newer-schema = { $path } is a class history of schema version { $found }, newer than this checker's ({ $known }): it was left as it is; record with the checker that wrote it, or give --history a new file
similarity-unavailable = The submissions were not compared: { $python } has no copydetect. Install it (`{ $python } -m pip install copydetect`, or in a virtual environment) or pass --python with an interpreter that has it, and run again.
similarity-could-not-run = could not run { $python } to compare the submissions
similarity-timed-out = comparing the submissions took more than { $seconds } s and was stopped
similarity-failed = the comparison of the submissions with { $python } failed: { $error }
report-title = Class report
report-summary = { $students } students ({ $graded } could be graded), { $lessons } lessons.
report-lessons = Lessons
report-misconceptions = Misconceptions
report-unexplained = Unexplained failures
report-stuck = Stuck
report-similar = Similar submissions
report-students = Students
report-misconceptions-note = Mistakes the checks named, by the students who made them (a student counts once per mistake). Each says what is wrong and what to do instead; the hint is the one the checker gives for the function, and the chapter explains it.
report-none = None.
report-students-count = Students
report-mistake = Mistake
report-who = Who
report-hint = Hint
report-chapter = Book: { $chapter }
report-gone = Named in an earlier run, made by nobody now:
report-unexplained-note = Failed tests that no named mistake explains, grouped by test and by the first line of their message (numbers written #). A large group here is a mistake the checks do not know yet.
report-failure = Test and first message
report-student = Student
report-why = Why
report-lesson = Lesson
report-detail = Detail
report-similar-note = Pairs of submissions of one lesson far more alike than the class's usual, with the code of the lesson's stub and of its reference solution left out. This is a reason for a person to look at both, not a finding: no grade depends on it.
report-similar-none = No pair stands out.
report-pair = Students
report-similarity = Alike
report-class-median = Class median
report-student-trend = Score across the recorded runs: { $scores }
report-score = Passed
report-first-failure = First failure
report-histogram-title = Scores in { $lesson }
report-histogram-description = How many students scored from 0 to 1 in steps of 0.1: { $counts }
report-histogram-axis = score (bins of 0.1; the last holds 1)
report-median = Median { $median }, mean { $mean }.
report-test = Test (hardest first)
report-passing = Passing
report-all-tests = All { $count } tests
report-held-out = held out
report-stuck-not-submitted = could not be graded
report-stuck-not-started = not started
report-stuck-does-not-compile = does not compile
report-stuck-crashing = crashes
report-stuck-timing-out = times out
report-stuck-blocked = blocked by an earlier lesson
report-blocked-by = { $earlier } fails too, and this lesson builds on it: fix { $earlier } first
summary-class = Class: { $students } students, { $graded } graded.
summary-no-mistakes = No mistake was named.
summary-mistakes = Most common mistakes:
# One line per mistake: how many students, its key, the counts of earlier runs when there is a history, its text.
summary-mistake = {"  "}{ $count } × { $key }{ $trend }: { $text }
summary-more = {", "}and { $count } more
summary-stuck = { $kind }: { $count } ({ $names })
summary-report = Report: { $page }
report-similar-truncated = Compared only in part (their sources are longer than the comparison reads): { $who }
summary-similar = Similar submissions (for a person to look at): { $count } pair(s){ $pairs }
# What comes before a list in a line of the summary.
summary-colon = {": "}
