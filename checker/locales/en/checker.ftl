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
hint-done = Every graded test of lesson { $id } passes: no hint needed. `checker hint { $id } --all` shows every hint anyway.
hint-does-not-compile = The lesson does not compile yet: the compiler's first error names the line to fix. Meanwhile, the lesson's next hint.
hint-points-at = The first failing test, `{ $test }`, points at `{ $function }`.
hint-first-failing = The first failing test is `{ $test }`.
hint-heading = Hints for `{ $function }` (lesson { $id }, { $title }):
hint-more-command = Run the same command again for the next hint for `{ $function }` ({ $count } more).
hint-more-key = Press h again for the next hint for `{ $function }` ({ $count } more).
hint-last = That was the last hint for `{ $function }`. The chapter (book/src/{ $chapter }) works through every step.
hint-all-heading = Every hint of lesson { $id } ({ $title }):
