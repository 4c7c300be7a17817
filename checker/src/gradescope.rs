//! Gradescope: the autograder bundle (`checker gradescope OUT`) and the results format
//! (`checker grade --format gradescope`).
//!
//! The bundle is the zip Gradescope asks for: `setup.sh` (install Rust, build the checker,
//! warm its cache, create the unprivileged `student` user) and `run_autograder` (grade
//! `/autograder/submission` into `/autograder/results/results.json`), plus the course
//! itself under `course/`, solutions and held-out tests included: grading a lesson uses the
//! reference versions of the lessons it builds on, and the held-out tier counts.
//!
//! Every lesson is worth 10 points, shared equally among its tests. Graded tests are
//! visible to students at once; held-out tests after the grades are published.

use crate::course::Tier;
use crate::messages::{self, INSTRUCTOR};
use crate::report::CourseReport;
use course_i18n::tr;
use serde::Serialize;
// Writing the bundle is for instructors only (see the `instructor` feature).
#[cfg(feature = "instructor")]
use {
    crate::course::Course,
    anyhow::{Context, Result, bail},
    std::io::Write as _,
    std::path::Path,
};

#[cfg(feature = "instructor")]
const SETUP: &str = include_str!("gradescope/setup.sh");
#[cfg(feature = "instructor")]
const RUN_AUTOGRADER: &str = include_str!("gradescope/run_autograder");

/// Folders and files of the course the bundle carries (no build output, no book).
#[cfg(feature = "instructor")]
const COURSE_PARTS: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "course.toml",
    "rustfmt.toml",
    "common",
    "checkpoint",
    "figures",
    "harness",
    "i18n",
    "manifest",
    "lessons",
    "solutions",
    "mistakes",
    "measurements",
    "checker/Cargo.toml",
    "checker/src",
    "checker/locales",
    "xtask",
];

#[derive(Serialize)]
struct Results {
    score: f64,
    output: String,
    stdout_visibility: &'static str,
    tests: Vec<TestEntry>,
}

#[derive(Serialize)]
struct TestEntry {
    name: String,
    number: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    visibility: &'static str,
}

/// The report in Gradescope's `results.json` format.
pub fn results(report: &CourseReport) -> String {
    let mut tests = Vec::new();
    for (lesson_index, lesson) in report.lessons.iter().enumerate() {
        let max_score = lesson.points_per_test();
        for (test_index, test) in lesson.tests.iter().enumerate() {
            let output = lesson.message_for(test);
            tests.push(TestEntry {
                name: format!("{}: {}", lesson.id, test.name),
                number: format!("{}.{}", lesson_index + 1, test_index + 1),
                score: if test.passed { max_score } else { 0.0 },
                max_score,
                status: if test.passed { "passed" } else { "failed" },
                output,
                visibility: match test.tier {
                    Tier::Graded => "visible",
                    Tier::HeldOut => "after_published",
                },
            });
        }
    }
    // Rounded, so that ten tests of a third of a point make 10, not 9.999999999999996.
    let score = (tests.iter().map(|t| t.score).sum::<f64>() * 1e6).round() / 1e6;
    let summary = report
        .lessons
        .iter()
        .map(|l| {
            tr!(
                INSTRUCTOR,
                "gradescope-summary",
                id = &l.id,
                title = messages::title(&l.id, &l.title),
                passed = l.passed,
                total = l.total
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let results = Results {
        score,
        output: summary,
        stdout_visibility: "hidden",
        tests,
    };
    serde_json::to_string_pretty(&results).expect("results always serialise")
}

/// Writes the autograder bundle into `out` (which must not exist or be empty): its files,
/// and `autograder.zip` holding them, ready to upload.
#[cfg(feature = "instructor")]
pub fn write_bundle(course: &Course, out: &Path) -> Result<()> {
    if out.exists() && std::fs::read_dir(out)?.next().is_some() {
        let out = out.display().to_string();
        bail!(tr!(INSTRUCTOR, "gradescope-not-empty", out = out));
    }
    std::fs::create_dir_all(out)?;
    write_executable(&out.join("setup.sh"), SETUP)?;
    write_executable(&out.join("run_autograder"), RUN_AUTOGRADER)?;
    let mut files = vec![
        ("setup.sh".to_owned(), out.join("setup.sh")),
        ("run_autograder".to_owned(), out.join("run_autograder")),
    ];
    for part in COURSE_PARTS {
        for copy in crate::files::copy_tree(
            &course.root.join(part),
            &out.join("course").join(part),
        )? {
            let name = copy.strip_prefix(out)?.display().to_string();
            files.push((name, copy));
        }
    }
    let zip_path = out.join("autograder.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path)?);
    for (name, path) in files {
        let mode = if name == "setup.sh" || name == "run_autograder" {
            0o755
        } else {
            0o644
        };
        let options = zip::write::SimpleFileOptions::default().unix_permissions(mode);
        zip.start_file(name, options)?;
        zip.write_all(&std::fs::read(&path)?)?;
    }
    zip.finish()
        .with_context(|| tr!(INSTRUCTOR, "gradescope-could-not-write-zip"))?;
    Ok(())
}

#[cfg(feature = "instructor")]
fn write_executable(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}
