//! `checker class DIR`: grading a whole class.
//!
//! Every entry of DIR is one student, named by the entry: a folder (a copy of the student
//! edition, a clone of the student's repository, or just its `lessons/` folder), or an
//! archive (`.zip`, `.tar`, `.tar.gz`, `.tgz`) of one. Archives are unpacked under
//! `target/checker/class/`, never next to the submissions. Students are graded a few at a
//! time, each in its own scratch workspace, all sharing one build cache so that the
//! dependencies compile once for the whole class. A submission that cannot be graded (no
//! lessons in it, a broken archive) gets a row that says so; nothing one student submits
//! can stop the run or touch another student's grade.

use crate::course::Course;
use crate::grade::{self, Options};
use crate::messages::INSTRUCTOR;
use crate::report::CourseReport;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use serde::Serialize;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The most bytes an archive may unpack to.
const MAX_UNPACKED_BYTES: u64 = 64 << 20;
/// The most files an archive may unpack to.
const MAX_UNPACKED_FILES: usize = 5000;

/// One student's result.
#[derive(Debug, Clone, Serialize)]
pub struct StudentResult {
    /// The student, named by their entry in the class folder (archive extension removed).
    pub student: String,
    /// The mean of their lesson scores, from 0 to 1 (0 if they could not be graded).
    pub score: f64,
    /// Why the submission could not be graded, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Their report, when they could be graded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<CourseReport>,
    /// Where their lessons were graded from (the folder, or where their archive was
    /// unpacked), for the class report's comparison of sources; never in a gradebook.
    #[serde(skip)]
    pub lessons_dir: Option<PathBuf>,
}

/// A class's results: the lessons graded and every student, sorted by name.
#[derive(Debug, Clone, Serialize)]
pub struct Gradebook {
    /// The ids of the lessons graded, in course order.
    pub lessons: Vec<String>,
    /// Every student, sorted by name.
    pub students: Vec<StudentResult>,
}

/// What grading reports as it goes through the class.
pub trait ClassProgress: Sync {
    /// The class has this many students.
    fn start(&self, students: usize);
    /// One student is done: called from the worker that graded them, as soon as they are.
    fn student_done(&self, result: &StudentResult);
}

/// Grades every submission in `dir`.
pub fn grade_class(
    course: &Course,
    dir: &Path,
    options: &Options,
    progress: &dyn ClassProgress,
) -> Result<Gradebook> {
    if !dir.is_dir() {
        let folder = dir.display().to_string();
        bail!(tr!(INSTRUCTOR, "class-no-folder", folder = folder));
    }
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .with_context(|| {
            let path = dir.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-read", path = path)
        })?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            (!name.starts_with('.')).then(|| (student_name(&name), entry.path()))
        })
        .collect();
    entries.sort();
    // Two entries that name the same student (carol/ and carol.zip) would be unpacked
    // into, and graded from, the same place: refuse both, and say so.
    let mut counts: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for (student, path) in &entries {
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        counts.entry(student.as_str()).or_default().push(file);
    }
    let clashes: std::collections::BTreeMap<String, String> = counts
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(student, files)| {
            (
                student.to_owned(),
                tr!(
                    INSTRUCTOR,
                    "class-same-student",
                    count = files.len(),
                    student = student,
                    entries = files.join(&tr!(INSTRUCTOR, "list-comma"))
                ),
            )
        })
        .collect();
    let lessons = course.select(&[])?;
    let unpacked = course.scratch_dir().join("class");
    progress.start(entries.len());

    // Each worker grades one student at a time with one test at a time: the build of one
    // student overlaps the tests of another.
    let workers = options.jobs.max(1);
    let per_student = Options {
        jobs: 1,
        ..options.clone()
    };
    let results: Mutex<Vec<Option<StudentResult>>> =
        Mutex::new(vec![None; entries.len()]);
    crate::pool::for_each(&entries, workers, |index, (student, path)| {
        let outcome = match clashes.get(student) {
            Some(clash) => Err(anyhow::anyhow!("{clash}")),
            None => Ok(()),
        }
        .and_then(|()| locate_lessons(path, &unpacked.join(student)))
        .and_then(|lessons_dir| {
            grade::grade(course, &lessons, &lessons_dir, &per_student, &|_| {})
                .map(|report| (report, lessons_dir))
        });
        let result = match outcome {
            Ok((report, lessons_dir)) => StudentResult {
                student: student.clone(),
                score: report.score,
                error: None,
                report: Some(report),
                lessons_dir: Some(lessons_dir),
            },
            Err(error) => StudentResult {
                student: student.clone(),
                score: 0.0,
                error: Some(crate::report::printable(&format!("{error:#}"))),
                report: None,
                lessons_dir: None,
            },
        };
        progress.student_done(&result);
        results.lock().expect("no worker panics")[index] = Some(result);
    });
    let students = results
        .into_inner()
        .expect("no worker panics")
        .into_iter()
        .flatten()
        .collect();
    Ok(Gradebook {
        lessons: lessons.iter().map(|l| l.id.clone()).collect(),
        students,
    })
}

/// A student's name from their entry: the file name without an archive extension, every
/// character that could pass for something else written as an escape ([`name_text`]).
fn student_name(entry: &str) -> String {
    let entry = name_text(entry);
    for extension in [".tar.gz", ".tgz", ".tar", ".zip"] {
        if let Some(stem) = entry.strip_suffix(extension) {
            return stem.to_owned();
        }
    }
    entry
}

/// `name` with every character that is not plainly visible, or that reads as another,
/// written `\u{..}`, and `\` written `\\` (so that no two names are written alike).
///
/// A student names their own entry, and the name lands in lists that the terminal summary
/// and the report join with `, ` and lines: a newline in a name would add a made-up line
/// to the summary ("does not compile: 2 (ann, ben)"), and an invisible character would make
/// `car\u{200b}ol` pass for `carol`. So control characters (newline and tab included), the
/// invisible and formatting characters of Unicode (zero-width spaces and joiners, direction
/// marks and overrides, the line and paragraph separators, the soft hyphen, the byte-order
/// mark, the invisible Hangul fillers) and noncharacters are escaped.
pub fn name_text(name: &str) -> String {
    let mut text = String::with_capacity(name.len());
    for c in name.chars() {
        let code = u32::from(c);
        let invisible = matches!(
            code,
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F
                | 0x1160
                | 0x17B4
                | 0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0xE0000..=0xE0FFF
        );
        let noncharacter = (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE;
        if c == '\\' {
            text.push_str("\\\\");
        } else if c.is_control()
            || c.is_whitespace() && c != ' '
            || invisible
            || noncharacter
        {
            text.push_str(&c.escape_unicode().to_string());
        } else {
            text.push(c);
        }
    }
    text
}

/// The folder laid out like `lessons/` inside a submission, unpacking it into `scratch`
/// first if it is an archive.
///
/// A folder reached through a symbolic link is refused, the entry itself included: a link
/// could point at the course's solutions or at another student's submission (archives
/// hold no links: [`unpack`] refuses them).
fn locate_lessons(entry: &Path, scratch: &Path) -> Result<PathBuf> {
    let root = if is_link(entry) || !entry.is_dir() {
        if is_link(entry) {
            let name = entry.file_name().unwrap_or_default().to_string_lossy();
            bail!(tr!(INSTRUCTOR, "scratch-symlink", path = name.into_owned()));
        }
        unpack(entry, scratch)?;
        scratch.to_path_buf()
    } else {
        entry.to_path_buf()
    };
    let lessons =
        find_lessons(&root).with_context(|| tr!(INSTRUCTOR, "class-no-lessons"))?;
    if let Some(link) = link_on_the_way(&root, &lessons) {
        bail!(tr!(INSTRUCTOR, "scratch-symlink", path = link));
    }
    Ok(lessons)
}

/// Whether `path` is itself a symbolic link (not followed).
fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The first folder below `root` on the way down to `path` that is a symbolic link, as a
/// path relative to `root`.
fn link_on_the_way(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let mut at = root.to_path_buf();
    for component in relative.components() {
        at.push(component);
        if is_link(&at) {
            return Some(at.strip_prefix(root).ok()?.display().to_string());
        }
    }
    None
}

/// `root/lessons`, `root` itself if it holds lesson folders, or the same one level down
/// (an archive of a repository usually wraps it in one folder).
fn find_lessons(root: &Path) -> Option<PathBuf> {
    let holds_lessons = |dir: &Path| {
        std::fs::read_dir(dir).ok().is_some_and(|entries| {
            entries
                .flatten()
                .any(|e| e.path().join("src").join("lib.rs").is_file())
        })
    };
    let candidates = |dir: &Path| [dir.join("lessons"), dir.to_path_buf()];
    for candidate in candidates(root) {
        if holds_lessons(&candidate) {
            return Some(candidate);
        }
    }
    let mut inner: Vec<PathBuf> = std::fs::read_dir(root)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    inner.sort();
    inner
        .iter()
        .flat_map(|dir| candidates(dir))
        .find(|c| holds_lessons(c))
}

/// The most of a tar stream read (after decompression), headers and skipped entries
/// included: the unpacked files' limit and as much again.
const MAX_TAR_STREAM_BYTES: u64 = 2 * MAX_UNPACKED_BYTES;

/// The largest extended header accepted in a tar archive (a GNU long name or a pax
/// record): far more than any real path needs.
const MAX_TAR_HEADER_BYTES: u64 = 64 << 10;

/// A reader that fails once it has given `left` bytes.
struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other(tr!(
                INSTRUCTOR,
                "class-archive-too-large",
                mib = MAX_TAR_STREAM_BYTES >> 20
            )));
        }
        let most = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buf[..most])?;
        self.left -= read as u64;
        Ok(read)
    }
}

/// Refuses a tar archive with an extended header larger than [`MAX_TAR_HEADER_BYTES`]:
/// the tar crate reads a GNU long name or a pax record into memory whole, before any
/// limit on the files sees it, so a 512 MiB "name" would take 512 MiB. Walks the raw
/// entries, whose data it skips without keeping.
fn refuse_large_tar_headers(stream: Box<dyn Read>) -> Result<()> {
    let mut tar = tar::Archive::new(stream);
    let entries = tar
        .entries()
        .with_context(|| tr!(INSTRUCTOR, "class-not-tar"))?
        .raw(true);
    for entry in entries {
        let entry = entry.with_context(|| tr!(INSTRUCTOR, "class-damaged-tar-entry"))?;
        let header = entry.header();
        let extended = matches!(
            header.entry_type(),
            tar::EntryType::GNULongName
                | tar::EntryType::GNULongLink
                | tar::EntryType::XHeader
                | tar::EntryType::XGlobalHeader
        );
        let size = header.size().unwrap_or(u64::MAX);
        if extended && size > MAX_TAR_HEADER_BYTES {
            bail!(tr!(
                INSTRUCTOR,
                "class-tar-header-too-large",
                bytes = size,
                kib = MAX_TAR_HEADER_BYTES >> 10
            ));
        }
    }
    Ok(())
}

/// Unpacks a `.zip` or `.tar[.gz]` archive into `into` (emptied first). Entries that would
/// land outside it, links, and anything past [`MAX_UNPACKED_BYTES`] are refused.
fn unpack(archive: &Path, into: &Path) -> Result<()> {
    if into.exists() {
        std::fs::remove_dir_all(into)?;
    }
    std::fs::create_dir_all(into)?;
    let name = archive
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_lowercase();
    let file = std::fs::File::open(archive).with_context(|| {
        let path = archive.display().to_string();
        tr!(INSTRUCTOR, "class-could-not-open-archive", path = path)
    })?;
    let mut total = 0u64;
    let mut files = 0usize;
    let mut write = |relative: &Path, reader: &mut dyn Read| -> Result<()> {
        files += 1;
        if files > MAX_UNPACKED_FILES {
            bail!(tr!(
                INSTRUCTOR,
                "class-too-many-files",
                count = MAX_UNPACKED_FILES
            ));
        }
        let destination = into.join(relative);
        if let Some(parent) = destination.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut limited = reader.take(MAX_UNPACKED_BYTES - total + 1);
        let mut out = std::fs::File::create(&destination)?;
        total += std::io::copy(&mut limited, &mut out)?;
        if total > MAX_UNPACKED_BYTES {
            bail!(tr!(
                INSTRUCTOR,
                "class-too-large",
                mib = MAX_UNPACKED_BYTES >> 20
            ));
        }
        Ok(())
    };
    if name.ends_with(".zip") {
        let mut zip = zip::ZipArchive::new(file)
            .with_context(|| tr!(INSTRUCTOR, "class-not-zip"))?;
        for index in 0..zip.len() {
            let mut entry = zip
                .by_index(index)
                .with_context(|| tr!(INSTRUCTOR, "class-damaged-zip-entry"))?;
            let Some(relative) = entry.enclosed_name() else {
                continue;
            };
            if entry.is_file() {
                write(&relative, &mut entry)?;
            }
        }
    } else if name.ends_with(".tar.gz")
        || name.ends_with(".tgz")
        || name.ends_with(".tar")
    {
        let open = |file: std::fs::File| -> Box<dyn Read> {
            let reader: Box<dyn Read> = if name.ends_with(".tar") {
                Box::new(file)
            } else {
                Box::new(flate2::read::GzDecoder::new(file))
            };
            // However the stream is made, no more of it is read than a whole
            // submission's worth: a small .tar.gz can inflate to gigabytes.
            Box::new(Capped {
                inner: reader,
                left: MAX_TAR_STREAM_BYTES,
            })
        };
        refuse_large_tar_headers(open(std::fs::File::open(archive)?))?;
        let mut tar = tar::Archive::new(open(file));
        let entries = tar
            .entries()
            .with_context(|| tr!(INSTRUCTOR, "class-not-tar"))?;
        for entry in entries {
            let mut entry =
                entry.with_context(|| tr!(INSTRUCTOR, "class-damaged-tar-entry"))?;
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let path = entry.path()?.into_owned();
            let safe = path
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if safe {
                write(&path, &mut entry)?;
            }
        }
    } else {
        bail!(tr!(INSTRUCTOR, "class-not-an-archive"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn students_are_named_by_their_entry() {
        assert_eq!(student_name("ada.tar.gz"), "ada");
        assert_eq!(student_name("grace.zip"), "grace");
        assert_eq!(student_name("alan"), "alan");
    }

    #[test]
    fn lessons_are_found_at_the_top_or_one_folder_down() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("repo-main/lessons/02-attention/src/lib.rs");
        std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
        std::fs::write(&lib, "").unwrap();
        assert_eq!(
            find_lessons(dir.path()),
            Some(dir.path().join("repo-main/lessons"))
        );
        assert_eq!(
            find_lessons(&dir.path().join("repo-main/lessons")),
            Some(dir.path().join("repo-main/lessons"))
        );
        assert_eq!(
            find_lessons(&dir.path().join("repo-main/lessons/02-attention/src")),
            None
        );
    }

    #[test]
    fn an_archive_of_too_many_files_is_refused() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("many.zip");
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
        for i in 0..=MAX_UNPACKED_FILES {
            zip.start_file(format!("f{i}.rs"), zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(b"").unwrap();
        }
        zip.finish().unwrap();
        let error = unpack(&archive, &dir.path().join("out")).unwrap_err();
        assert!(
            error.to_string().contains("more than 5000 files"),
            "{error:#}"
        );
    }

    #[test]
    fn control_characters_in_entry_names_are_escaped() {
        assert_eq!(student_name("eve\u{1b}[2J.zip"), "eve\\u{1b}[2J");
    }

    #[test]
    fn a_name_cannot_add_a_line_or_pass_for_another() {
        assert_eq!(
            name_text("a)\ndoes not compile"),
            "a)\\u{a}does not compile"
        );
        assert_eq!(name_text("car\u{200b}ol"), "car\\u{200b}ol");
        assert_eq!(name_text("\u{61c}frank\u{200d}"), "\\u{61c}frank\\u{200d}");
        assert_eq!(name_text("dave\u{2028}x\tz"), "dave\\u{2028}x\\u{9}z");
        // An escape written by the student stays apart from the character it names.
        assert_ne!(name_text("eve\u{1b}"), name_text("eve\\u{1b}"));
        assert_eq!(name_text("Zoë Li 李"), "Zoë Li 李");
    }
}
