//! The checker's integration tests: they run the real `checker` binary.

// Helpers: the binary, and submissions built in temporary folders.
mod util;

// Grading a class of folders and archives into gradebooks.
mod class;
// The command line: exit statuses, output shapes, hints.
mod cli;
// The student edition: it builds, grades, and holds no solutions or held-out tests.
mod export;
// What a learner reads when their code is wrong.
mod feedback;
// The Gradescope bundle, run against a fake /autograder.
mod gradescope;
// The class report and its history: counts, trends, an interrupted run.
mod report;
// Submissions named by outcome, from full marks to hostile code; each must be graded
// right, within its time limit, without touching the submission.
mod hostile;
