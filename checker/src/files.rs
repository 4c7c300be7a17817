//! Walking and copying folders: the one way the checker lists a tree's files.
//!
//! Only regular files count. Symbolic links are neither followed nor listed, so a
//! submission's link cannot make the checker read or copy what lies outside it; entries
//! come in the order of their names, so whatever is built from them is deterministic.

use crate::messages::INSTRUCTOR;
use anyhow::{Context, Result};
use course_i18n::tr;
use std::path::{Path, PathBuf};

/// The regular files under `dir`, in the order of their paths. A missing `dir` has none.
pub fn regular_files(
    dir: &Path,
) -> impl Iterator<Item = Result<walkdir::DirEntry>> + use<> {
    let shown = dir.display().to_string();
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter(|entry| !matches!(entry, Err(error) if is_missing(error)))
        .map(move |entry| {
            entry.with_context(|| tr!(INSTRUCTOR, "file-could-not-read", path = &shown))
        })
        .filter(|entry| entry.as_ref().map_or(true, |e| e.file_type().is_file()))
}

fn is_missing(error: &walkdir::Error) -> bool {
    error.depth() == 0
        && error
            .io_error()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
}

/// Copies every regular file under `from` to the same place under `to`, creating folders
/// as needed; returns the copies' paths. A missing `from` copies nothing; a file `from` is
/// copied to `to`.
pub fn copy_tree(from: &Path, to: &Path) -> Result<Vec<PathBuf>> {
    if from.is_file() {
        copy_file(from, to)?;
        return Ok(vec![to.to_path_buf()]);
    }
    let mut copied = Vec::new();
    for entry in regular_files(from) {
        let entry = entry?;
        let copy = to.join(entry.path().strip_prefix(from)?);
        copy_file(entry.path(), &copy)?;
        copied.push(copy);
    }
    Ok(copied)
}

/// Copies one file, creating its folder.
pub fn copy_file(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).with_context(|| {
            let path = parent.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-create", path = path)
        })?;
    }
    std::fs::copy(from, to).with_context(|| {
        let path = from.display().to_string();
        tr!(INSTRUCTOR, "file-could-not-copy", path = path)
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_is_copied_file_by_file_in_order_without_its_links() {
        let from = tempfile::tempdir().unwrap();
        let to = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(from.path().join("b")).unwrap();
        std::fs::write(from.path().join("b/z.rs"), "z").unwrap();
        std::fs::write(from.path().join("a.rs"), "a").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/passwd", from.path().join("link")).unwrap();
        let out = to.path().join("out");
        let copied = copy_tree(from.path(), &out).unwrap();
        assert_eq!(copied, [out.join("a.rs"), out.join("b/z.rs")]);
        assert_eq!(
            std::fs::read_to_string(to.path().join("out/b/z.rs")).unwrap(),
            "z"
        );
        assert!(!to.path().join("out/link").exists());
        assert_eq!(regular_files(&from.path().join("missing")).count(), 0);
    }
}
