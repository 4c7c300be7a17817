//! Lists every lesson's builders for the crate: `solutions/<id>/mistakes.rs` of each lesson
//! of course.toml that has one, as a module named after the lesson's crate.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let index = root.join("course.toml");
    println!("cargo:rerun-if-changed={}", index.display());
    println!(
        "cargo:rerun-if-changed={}",
        root.join("solutions").display()
    );
    let manifest = course_manifest::Manifest::load(&index)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let mut modules = String::new();
    for lesson in &manifest.lessons {
        let builders = root.join("solutions").join(&lesson.id).join("mistakes.rs");
        println!("cargo:rerun-if-changed={}", builders.display());
        if !builders.is_file() {
            continue;
        }
        let path = std::fs::canonicalize(&builders).expect("the builders' path");
        let _ = writeln!(
            modules,
            "#[path = {:?}]\npub mod {};",
            path.display().to_string(),
            lesson.crate_name.replace('-', "_")
        );
    }
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("lessons.rs");
    std::fs::write(out, modules).expect("the list of lessons' builders is written");
}
