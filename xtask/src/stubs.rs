//! `cargo xtask stubs`: keeps course.toml's record of each lesson's stub current.
//!
//! The checker recognises a lesson a learner has not touched by the fingerprint of its
//! `src/` (`course_manifest::stub_fingerprint`), recorded as `stub` in course.toml, and
//! reports it as not started without building it. This task writes those fingerprints
//! after a stub changed; with `--check` it only says which are stale (`checker verify`
//! fails on a stale one too).

use anyhow::{Context, Result, bail};
use course_manifest::{Manifest, stub_fingerprint};
use std::path::Path;

pub fn run(root: &Path, check: bool) -> Result<()> {
    let path = root.join("course.toml");
    let manifest = Manifest::load(&path)?;
    let text = std::fs::read_to_string(&path)?;
    let mut document: toml_edit::DocumentMut =
        text.parse().context("course.toml is not valid TOML")?;
    let lessons = document["lessons"]
        .as_array_of_tables_mut()
        .context("course.toml has no [[lessons]]")?;
    let mut stale = Vec::new();
    for (lesson, table) in manifest.lessons.iter().zip(lessons.iter_mut()) {
        let current =
            stub_fingerprint(&root.join("lessons").join(&lesson.id).join("src"))?;
        if lesson.stub.as_deref() != Some(current.as_str()) {
            stale.push(lesson.id.clone());
            table.insert("stub", toml_edit::value(current));
        }
    }
    if stale.is_empty() {
        println!("Every lesson's stub fingerprint in course.toml is current.");
        return Ok(());
    }
    if check {
        bail!(
            "course.toml's stub fingerprint is stale for {}: run `cargo xtask stubs`",
            stale.join(", ")
        );
    }
    std::fs::write(&path, document.to_string())?;
    println!("Recorded the stub fingerprint of {}.", stale.join(", "));
    Ok(())
}
