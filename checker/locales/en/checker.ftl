# What the checker says to a learner or an instructor. Machine formats (JSON, CSV, JUnit,
# the platforms' results) keep their English keys; the human-readable text in them follows
# the language.

## The progress table, the detailed results and the watch screen (render.rs)

state-missing = missing
state-does-not-compile = does not compile
state-build-failed = build failed
state-done = done
state-not-started = not started
state-in-progress = in progress
progress-title = Build a Transformer in Rust: your progress
progress-overall = Overall { $percent }
all-done = Every graded lesson passes. Well done!
all-done-experiment = Every graded lesson passes. Well done! Now put what you built to work: `cargo run --release -p { $krate } --example { $example }` ({ $chapter } says what it does and what to expect).
next-open-not-started = Open { $file }: { $gist }
next-open-failing =
    Open { $file }; the first failing test is `{ $test }`:
    { $gist }
next-not-graded = The lesson could not be graded.
next-step =
    Next: lesson { $id } ({ $title }). Read the chapter ({ $chapter }).
    { $detail }
commands = Run `cargo run -p checker -- watch` to re-grade on every save, or `cargo run -p checker -- hint { $id }` for a hint.
# The first words of the lines a failure's gist keeps, as the judge writes them (harness.ftl).
gist-likely-cause = Likely cause
gist-known-mistake = Your result matches
watch-tests-pass = { $passed }/{ $total } tests pass
watch-still-to-pass = Still to pass ({ $count }):
watch-and-more = ... and { $count } more
details-tests = { $passed }/{ $total } tests, { $percent }
details-overall = Overall score: { $percent }
test-not-started = {" "}(not started)
test-timed-out = {" "}(timed out)
test-crashed = {" "}(crashed)
test-held-out = {" "}[held-out]

## Hints (hint.rs)

hint-reset = The hints of { $id } start over; `checker hint { $id }` shows the first.
hint-done = Every graded test of lesson { $id } passes: no hint needed. `cargo run -p checker -- hint { $id } --all` shows every hint anyway.
hint-does-not-compile = The lesson does not compile yet: the compiler's first error names the line to fix. Meanwhile, the lesson's next hint.
hint-points-at = The first failing test, `{ $test }`, points at `{ $function }`.
hint-first-failing = The first failing test is `{ $test }`.
hint-heading = Hints for `{ $function }` (lesson { $id }, { $title }):
hint-more-command = Run the same command again for the next hint for `{ $function }` ({ $count } more).
hint-more-key = Press h again for the next hint for `{ $function }` ({ $count } more).
hint-last = That was the last hint for `{ $function }`. The chapter (book/src/{ $chapter }) works through every step.
hint-all-heading = Every hint of lesson { $id } ({ $title }):

## Watch mode (watch.rs) and the progress display (ui.rs)

watch-raw-mode = could not switch the terminal to raw mode
watch-needs-terminal = watch mode needs an interactive terminal; in scripts and CI use `cargo run -p checker -- grade` instead
watch-grading = Grading { $id } ({ $title })...
watch-could-not-grade = The checker could not grade: { $error }
watch-lost-events = the watch loop lost its event sources
watch-finding-where = Grading every lesson to find where you are...
watch-lesson-done = This lesson is done: every graded test passes. Press n for the next lesson.
watch-edit = Edit { $file }; the chapter is book/src/{ $chapter }.
watch-keys = Save the file to re-grade.   h hint · n next lesson · r re-run · q quit
watch-polling = File events are not available here ({ $error }); checking every second instead.
ui-preparing = Preparing the grader (the first run compiles the course's dependencies, a minute or two)
ui-downloading = Downloading the crates the lessons build on (once): { $count }
ui-compiling = Compiling your lessons
ui-running-tests = Running graded tests
ui-grading-class = Grading the class

## The commands' own lines (main.rs)

exported-student = Wrote the student edition to { $out }. It holds no solutions and no held-out tests; `cargo run -p checker` there shows a learner's progress.
verify-consistent = verify: the course is consistent; every solution scores 100% and every stub 0%.
verify-problems = verify: { $count } problem(s) found.
gradebook-not-written = could not write the gradebook to { $path }
history-not-written = the gradebook is written, but this run could not be recorded in the history: run again, or give --history another file
wrote-gradescope = Wrote the Gradescope autograder to { $out }; upload { $out }/autograder.zip. Try it locally with { $out }/run_autograder (its header says how).
instructors-only = this checker is the student edition's, built without the instructor's commands: grade a class or write the Gradescope bundle from the course's full repository
hint-name-the-lesson = name the lesson: `cargo run -p checker -- hint 02-attention --all` (or `--reset`)
no-lessons = the course has no lessons

## Grading (grade.rs, report.rs, explain.rs, cascade.rs)

grade-no-lessons-folder = there is no folder { $folder }: --lessons-dir must name a folder laid out like lessons/ (one folder per lesson, such as 02-attention/src/lib.rs)
grade-could-not-resolve = could not resolve { $path }
grade-unsandboxed-given = --unsandboxed was given
grade-cannot-sandbox = learner code cannot be sandboxed here ({ $why }). Grading a class runs untrusted code: install bubblewrap, or grade in a machine or container that allows user namespaces. To grade anyway, pass --unsandboxed: the submissions' code then runs with your permissions and can read and change your files, see other submissions and use the network; verdicts still come from the judge, so a wrong answer still cannot pass.
grade-missing-folder = There is no folder { $id }/ in the submission.
grade-missing-lib = There is no { $id }/src/lib.rs in the submission.
grade-judge-missing = its executable is missing
grade-does-not-compile =
    The lesson does not compile:
    { $errors }
grade-build-failed =
    The build failed before reaching the lesson's code:
    { $errors }
grade-cargo-silent = (cargo said nothing)
grade-could-not-run-judge = could not run the judge
grade-could-not-run-test = could not run a graded test
grade-not-run = Not run: earlier tests timed out ({ $seconds } s each) { $lesson } times in this lesson or { $submission } in the whole submission (--lesson-timeouts, --submission-timeouts). Likely cause: code that loops or waits in a function many tests call; fix the first timeout.
grade-tapes-too-large = This lesson's tests, this one included, wrote more than { $mib } MiB of results in all, far more than they ask for: this one was not graded.
grade-no-sandbox-note = checker: note: your code runs without a sandbox ({ $why }). Grading still works; the code under test just runs with your own permissions.
grade-judge-not-built =
    The grader's judge for the { $suite } suite did not build (a defect of the course, not of your code):
    { $errors }
grade-suite-not-built = The { $suite } suite did not build.
grade-more-lines = ... ({ $count } more lines; `cargo build -p <lesson crate>` shows them all)
still-todo = { $what } is still a todo!(): implement it following its /// contract.
todo-unnamed = a function this test needs
lesson-not-started = Not started: the lesson is still its stub, every function a todo!(). Start with `{ $first }`, following its /// contract.
crash-stack-overflow = The test crashed with a stack overflow ({ $how }). Likely cause: a function that calls itself without ever stopping.
crash-limit-mib = { $mib } MiB
crash-limit-machine = the machine's
crash-out-of-memory = The test ran out of memory ({ $how }; the limit is { $limit }). Likely cause: a matrix or vector far larger than the shapes in the contract call for.
crash-exited = The test's process ended ({ $how }) before its checks finished: something called std::process::exit. A test passes only when its checks run to the end.
crash-ended = The test's process ended with { $how } before its checks finished.
crash-last-output = Its last output:
cascade-starting-with = , starting with `{ $function }`
cascade-not-started = This lesson runs on your lesson { $id }, which you have not started: its functions are still todo!()s. Write them first{ $start }; this failure may be their consequence.
cascade-fix-function = first fix `{ $function }` there
cascade-fix-test = first fix what its test `{ $test }` reports
cascade-make-it-compile = first make it compile
cascade-failing = This lesson runs on your lesson { $id }, which does not pass its own tests yet: { $what } (`cargo run -p checker -- grade { $id }`). This failure may be its consequence.
