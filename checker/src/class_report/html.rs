//! The class report as one self-contained HTML page: its styles inline, its figures
//! inline SVG drawn by the course's figures crate, no script, nothing fetched. It opens
//! from a file and from any web server alike, and every student's section has an anchor
//! (`index.html#student-3`) to link from an office-hours list.
//!
//! Every text that came from a submission (names, messages) is escaped here: a student
//! named `<script>` is a name on the page.

use super::history::Trends;
use super::similarity::SimilarityStatus;
use super::{ClassReport, LessonSummary, StuckKind, first_line};
use crate::messages::INSTRUCTOR;
use course_figures::bars::{Bars, bar_chart};
use course_i18n::tr;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The page's styles: readable widths, tables that wrap long words instead of
/// overflowing, messages kept as written.
const STYLE: &str = "
body { font-family: Helvetica, Arial, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 4rem; color: #1a1a1a; line-height: 1.45; }
nav { position: sticky; top: 0; background: #fff; padding: .4rem 0; border-bottom: 1px solid #ddd; }
nav a { margin-right: 1rem; display: inline-block; }
[id] { scroll-margin-top: 5rem; }
h1 { margin-bottom: .2rem; }
h1, h2, h3 { overflow-wrap: anywhere; }
.name { display: inline-block; background: #eef3f8; border-radius: .25rem; padding: 0 .3rem; margin: .1rem 0; overflow-wrap: anywhere; max-width: 100%; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { border-bottom: 1px solid #eee; padding: .25rem .5rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
th { background: #f6f6f6; word-break: keep-all; }
td.n, th.n { text-align: right; }
td.n { white-space: nowrap; }
pre, code { font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: .4rem .6rem; margin: .2rem 0; font-size: .85rem; }
svg { max-width: 100%; height: auto; }
.lesson { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.lesson > div { flex: 1 1 28rem; min-width: 0; }
.lesson > div:first-child { flex: 0 1 auto; }
.share { display: inline-block; height: .7rem; background: #0072B2; vertical-align: middle; }
.note { color: #555; }
.kind { font-weight: bold; min-width: 4.5em; }
.student { min-width: 4em; }
.who { margin-top: .3rem; }
details { margin: .2rem 0; }
@media (max-width: 40rem) {
  body { padding: .5rem .6rem 3rem; }
  nav { position: static; }
  th, td { padding: .2rem .3rem; }
}
";

/// The book's CJK font (Noto Sans CJK SC cut down to the characters the book uses; SIL
/// Open Font License 1.1), relative to the course's root.
pub const CJK_FONT: &str = "book/src/fonts/cjk-subset.woff2";

/// The page of `report`, in the language it was drawn in, with `font` (WOFF2) embedded as
/// the face of Chinese text when given. A character the font lacks falls back to the
/// system's Chinese fonts.
pub fn page(report: &ClassReport, font: Option<&[u8]>) -> String {
    use base64::Engine as _;
    let mut html = String::new();
    let lang = &report.lang;
    let font_face = font
        .map(|bytes| {
            format!(
                "/* Noto Sans CJK SC (subset), SIL Open Font License 1.1 */\n@font-face {{ font-family: 'Noto Sans CJK SC'; src: url(data:font/woff2;base64,{}) format('woff2'); }}\n",
                base64::engine::general_purpose::STANDARD.encode(bytes)
            )
        })
        .unwrap_or_default();
    let title = tr!(INSTRUCTOR, "report-title");
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{font_face}{STYLE}</style>\n</head>\n<body>\n",
        esc(lang),
        esc(&title)
    );
    let graded = report
        .students_detail
        .iter()
        .filter(|s| s.error.is_none())
        .count();
    let _ = writeln!(
        html,
        "<h1>{}</h1>\n<p class=\"note\">{}</p>",
        esc(&title),
        esc(&tr!(
            INSTRUCTOR,
            "report-summary",
            students = report.students,
            graded = graded,
            lessons = report.lessons.len()
        ))
    );
    let sections = [
        ("lessons", tr!(INSTRUCTOR, "report-lessons")),
        ("misconceptions", tr!(INSTRUCTOR, "report-misconceptions")),
        ("unexplained", tr!(INSTRUCTOR, "report-unexplained")),
        ("stuck", tr!(INSTRUCTOR, "report-stuck")),
        ("similar", tr!(INSTRUCTOR, "report-similar")),
        ("students", tr!(INSTRUCTOR, "report-students")),
    ];
    html.push_str("<nav>");
    for (anchor, name) in &sections {
        let _ = write!(html, "<a href=\"#{anchor}\">{}</a>", esc(name));
    }
    html.push_str("</nav>\n");
    let student_anchor: BTreeMap<&str, usize> = report
        .students_detail
        .iter()
        .enumerate()
        .map(|(i, s)| (s.student.as_str(), i))
        .collect();
    // Each name is a box of its own: a student may be named `cat, dan`, which joined with
    // commas would read as two students.
    let link = |name: &str| match student_anchor.get(name) {
        Some(i) => format!("<a class=\"name\" href=\"#student-{i}\">{}</a>", esc(name)),
        None => format!("<span class=\"name\">{}</span>", esc(name)),
    };
    let links =
        |names: &[String]| names.iter().map(|n| link(n)).collect::<Vec<_>>().join(" ");

    // Lessons.
    let _ = writeln!(html, "<h2 id=\"lessons\">{}</h2>", esc(&sections[0].1));
    for lesson in &report.lessons {
        lesson_section(&mut html, lesson, figure_lang(lang));
    }

    // Misconceptions.
    let _ = writeln!(
        html,
        "<h2 id=\"misconceptions\">{}</h2>\n<p class=\"note\">{}</p>",
        esc(&sections[1].1),
        esc(&tr!(INSTRUCTOR, "report-misconceptions-note"))
    );
    if report.misconceptions.is_empty() {
        let _ = writeln!(html, "<p>{}</p>", esc(&tr!(INSTRUCTOR, "report-none")));
    } else {
        let trend_header = report
            .history
            .as_ref()
            .map(|h| format!("<th>{}</th>", esc(&runs_header(h))))
            .unwrap_or_default();
        let _ = writeln!(
            html,
            "<table><tr><th class=\"n\">{}</th><th>{}</th>{trend_header}</tr>",
            esc(&tr!(INSTRUCTOR, "report-students-count")),
            esc(&tr!(INSTRUCTOR, "report-mistake")),
        );
        for m in &report.misconceptions {
            let mut cell = format!(
                "<b>{}</b><br><code>{}</code> · {}",
                esc(&m.text),
                esc(&m.key),
                esc(&m.lesson)
            );
            if let Some(function) = &m.function {
                let _ = write!(cell, " · <code>{}</code>", esc(function));
            }
            if let Some(hint) = &m.hint {
                let _ = write!(
                    cell,
                    "<details><summary>{}</summary>{}</details>",
                    esc(&tr!(INSTRUCTOR, "report-hint")),
                    esc(hint)
                );
            }
            if !m.chapter.is_empty() {
                let _ = write!(
                    cell,
                    "<div class=\"note\">{}</div>",
                    esc(&tr!(
                        INSTRUCTOR,
                        "report-chapter",
                        chapter = m.chapter.as_str()
                    ))
                );
            }
            let trend = report
                .history
                .as_ref()
                .map(|h| {
                    let counts =
                        h.misconceptions.get(&m.key).cloned().unwrap_or_default();
                    format!("<td>{}</td>", esc(&arrows(&counts)))
                })
                .unwrap_or_default();
            // Who, inside the mistake's cell: a column of its own leaves a phone's
            // screen too narrow for the mistake.
            let _ = writeln!(
                html,
                "<tr><td class=\"n\">{}</td><td>{cell}<div class=\"who\">{}: {}</div></td>{trend}</tr>",
                m.students.len(),
                esc(&tr!(INSTRUCTOR, "report-who")),
                links(&m.students)
            );
        }
        html.push_str("</table>\n");
    }
    // Mistakes of earlier runs that nobody makes any more.
    if let Some(history) = &report.history {
        let gone: Vec<(&String, &Vec<usize>)> = history
            .misconceptions
            .iter()
            .filter(|(key, counts)| {
                counts.last() == Some(&0)
                    && !report.misconceptions.iter().any(|m| &m.key == *key)
            })
            .collect();
        if !gone.is_empty() {
            let _ = writeln!(
                html,
                "<p class=\"note\">{}</p><ul>",
                esc(&tr!(INSTRUCTOR, "report-gone"))
            );
            for (key, counts) in gone {
                let _ = writeln!(
                    html,
                    "<li><code>{}</code>: {}</li>",
                    esc(key),
                    esc(&arrows(counts))
                );
            }
            html.push_str("</ul>\n");
        }
    }

    // Unexplained failures.
    let _ = writeln!(
        html,
        "<h2 id=\"unexplained\">{}</h2>\n<p class=\"note\">{}</p>",
        esc(&sections[2].1),
        esc(&tr!(INSTRUCTOR, "report-unexplained-note"))
    );
    if report.unexplained.is_empty() {
        let _ = writeln!(html, "<p>{}</p>", esc(&tr!(INSTRUCTOR, "report-none")));
    } else {
        let _ = writeln!(
            html,
            "<table><tr><th class=\"n\">{}</th><th>{}</th></tr>",
            esc(&tr!(INSTRUCTOR, "report-students-count")),
            esc(&tr!(INSTRUCTOR, "report-failure")),
        );
        for group in &report.unexplained {
            let _ = writeln!(
                html,
                "<tr><td class=\"n\">{}</td><td>{} · <code>{}</code><pre>{}</pre><div class=\"who\">{}: {}</div></td></tr>",
                group.students.len(),
                esc(&group.lesson),
                esc(&group.test),
                esc(&group.message),
                esc(&tr!(INSTRUCTOR, "report-who")),
                links(&group.students)
            );
        }
        html.push_str("</table>\n");
    }

    // Stuck students.
    let _ = writeln!(html, "<h2 id=\"stuck\">{}</h2>", esc(&sections[3].1));
    if report.stuck.is_empty() {
        let _ = writeln!(html, "<p>{}</p>", esc(&tr!(INSTRUCTOR, "report-none")));
    } else {
        let _ = writeln!(
            html,
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            esc(&tr!(INSTRUCTOR, "report-student")),
            esc(&tr!(INSTRUCTOR, "report-why")),
            esc(&tr!(INSTRUCTOR, "report-lesson")),
            esc(&tr!(INSTRUCTOR, "report-detail")),
        );
        let mut stuck: Vec<&super::Stuck> = report.stuck.iter().collect();
        stuck.sort_by(|a, b| (a.kind, &a.student).cmp(&(b.kind, &b.student)));
        for entry in stuck {
            let detail = if entry.detail.is_empty() {
                String::new()
            } else {
                format!("<pre>{}</pre>", esc(&entry.detail))
            };
            let _ = writeln!(
                html,
                "<tr><td class=\"student\">{}</td><td class=\"kind\">{}</td><td>{}</td><td>{detail}</td></tr>",
                link(&entry.student),
                esc(&stuck_kind(entry.kind)),
                esc(entry.lesson.as_deref().unwrap_or("—"))
            );
        }
        html.push_str("</table>\n");
    }

    // Similar submissions.
    let _ = writeln!(
        html,
        "<h2 id=\"similar\">{}</h2>\n<p class=\"note\">{}</p>",
        esc(&sections[4].1),
        esc(&tr!(INSTRUCTOR, "report-similar-note"))
    );
    let similarity = &report.similarity;
    match similarity.status {
        SimilarityStatus::Done if similarity.pairs.is_empty() => {
            let _ = writeln!(
                html,
                "<p>{}</p><p class=\"note\">{}</p>",
                esc(&tr!(INSTRUCTOR, "report-similar-none")),
                esc(&similarity.detail)
            );
        }
        SimilarityStatus::Done => {
            let _ = writeln!(
                html,
                "<table><tr><th>{}</th><th>{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th></tr>",
                esc(&tr!(INSTRUCTOR, "report-lesson")),
                esc(&tr!(INSTRUCTOR, "report-pair")),
                esc(&tr!(INSTRUCTOR, "report-similarity")),
                esc(&tr!(INSTRUCTOR, "report-class-median")),
            );
            for pair in &similarity.pairs {
                let _ = writeln!(
                    html,
                    "<tr><td>{}</td><td>{} · {}</td><td class=\"n\">{:.0} %</td><td class=\"n\">{:.0} %</td></tr>",
                    esc(&pair.lesson),
                    link(&pair.a),
                    link(&pair.b),
                    pair.similarity * 100.0,
                    pair.class_median * 100.0
                );
            }
            let _ = writeln!(
                html,
                "</table>\n<p class=\"note\">{}</p>",
                esc(&similarity.detail)
            );
        }
        SimilarityStatus::NotAsked
        | SimilarityStatus::Unavailable
        | SimilarityStatus::Failed => {
            let _ = writeln!(html, "<p>{}</p>", esc(&similarity.detail));
        }
    }

    if !similarity.truncated.is_empty() {
        let _ = writeln!(
            html,
            "<p class=\"note\">{}</p>",
            esc(&tr!(
                INSTRUCTOR,
                "report-similar-truncated",
                who = similarity.truncated.join(&tr!(INSTRUCTOR, "list-comma"))
            ))
        );
    }

    // Students.
    let _ = writeln!(html, "<h2 id=\"students\">{}</h2>", esc(&sections[5].1));
    for (index, student) in report.students_detail.iter().enumerate() {
        let _ = writeln!(
            html,
            "<section id=\"student-{index}\"><h3>{} <span class=\"note\">{:.2}</span></h3>",
            esc(&student.student),
            student.score
        );
        if let Some(trend) = report
            .history
            .as_ref()
            .and_then(|h| h.students.get(&student.student))
        {
            let scores: Vec<String> = trend
                .iter()
                .map(|s| s.map_or("—".to_owned(), |s| format!("{s:.2}")))
                .collect();
            let _ = writeln!(
                html,
                "<p class=\"note\">{}</p>",
                esc(&tr!(
                    INSTRUCTOR,
                    "report-student-trend",
                    scores = scores.join(" → ")
                ))
            );
        }
        if let Some(error) = &student.error {
            let _ = writeln!(html, "<pre>{}</pre>", esc(error));
        }
        if !student.lessons.is_empty() {
            let _ = writeln!(
                html,
                "<table><tr><th>{}</th><th class=\"n\">{}</th><th>{}</th></tr>",
                esc(&tr!(INSTRUCTOR, "report-lesson")),
                esc(&tr!(INSTRUCTOR, "report-score")),
                esc(&tr!(INSTRUCTOR, "report-first-failure")),
            );
            for lesson in &student.lessons {
                // A message of one line is shown as it is; a longer one, by its first
                // line, the rest one click away.
                let failure = match &lesson.first_failure {
                    Some(f) if f.message.trim_end().contains('\n') => format!(
                        "<code>{}</code><details><summary>{}</summary><pre>{}</pre></details>",
                        esc(&f.test),
                        esc(&first_line(&f.message)),
                        esc(&f.message)
                    ),
                    Some(f) => format!(
                        "<code>{}</code><pre>{}</pre>",
                        esc(&f.test),
                        esc(f.message.trim_end())
                    ),
                    None => String::new(),
                };
                let named = if lesson.named.is_empty() {
                    String::new()
                } else {
                    format!(
                        "<div class=\"note\">{}</div>",
                        esc(&lesson.named.join(", "))
                    )
                };
                let _ = writeln!(
                    html,
                    "<tr><td>{}</td><td class=\"n\">{}/{}</td><td>{failure}{named}</td></tr>",
                    esc(&lesson.id),
                    lesson.passed,
                    lesson.total
                );
            }
            html.push_str("</table>\n");
        }
        html.push_str("</section>\n");
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// A lesson's histogram, median and hardest tests.
fn lesson_section(html: &mut String, lesson: &LessonSummary, lang: course_figures::Lang) {
    let labels: Vec<String> =
        (0..10).map(|i| format!("{:.1}", i as f64 / 10.0)).collect();
    let title = tr!(
        INSTRUCTOR,
        "report-histogram-title",
        lesson = lesson.id.as_str()
    );
    let description = tr!(
        INSTRUCTOR,
        "report-histogram-description",
        counts = lesson
            .histogram
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let x_label = tr!(INSTRUCTOR, "report-histogram-axis");
    let svg = course_figures::in_language(
        lang,
        &bar_chart(&Bars {
            title: &title,
            description: &description,
            labels: &labels,
            counts: &lesson.histogram,
            x_label: &x_label,
        }),
    );
    let _ = writeln!(
        html,
        "<h3>{} · {}</h3>\n<div class=\"lesson\"><div>{svg}<p>{}</p></div><div>",
        esc(&lesson.id),
        esc(&lesson.title),
        esc(&tr!(
            INSTRUCTOR,
            "report-median",
            median = format!("{:.2}", lesson.median),
            mean = format!("{:.2}", lesson.mean)
        ))
    );
    let _ = writeln!(
        html,
        "<table><tr><th>{}</th><th class=\"n\">{}</th><th></th></tr>",
        esc(&tr!(INSTRUCTOR, "report-test")),
        esc(&tr!(INSTRUCTOR, "report-passing")),
    );
    for (index, test) in lesson.tests.iter().enumerate() {
        // The hardest tests are what a lecture can address; the rest are one click away.
        if index == TESTS_SHOWN {
            let _ = writeln!(
                html,
                "</table><details><summary>{}</summary><table>",
                esc(&tr!(
                    INSTRUCTOR,
                    "report-all-tests",
                    count = lesson.tests.len()
                ))
            );
        }
        let tier = match test.tier {
            crate::course::Tier::HeldOut => {
                format!(
                    " <span class=\"note\">{}</span>",
                    esc(&tr!(INSTRUCTOR, "report-held-out"))
                )
            }
            crate::course::Tier::Graded => String::new(),
        };
        let _ = writeln!(
            html,
            "<tr><td><code>{}</code>{tier}</td><td class=\"n\">{}/{}</td><td><span class=\"share\" style=\"width:{:.1}px\"></span></td></tr>",
            esc(&test.name),
            test.passed,
            test.total,
            test.share * 80.0
        );
    }
    if lesson.tests.len() > TESTS_SHOWN {
        html.push_str("</table></details></div></div>\n");
    } else {
        html.push_str("</table></div></div>\n");
    }
}

/// How many of a lesson's tests are listed before the rest are folded away.
const TESTS_SHOWN: usize = 8;

/// The figures' language for the page's.
fn figure_lang(lang: &str) -> course_figures::Lang {
    if lang == "en" {
        course_figures::Lang::En
    } else {
        course_figures::Lang::ZhCn
    }
}

/// The header of the trend column: the runs' labels.
fn runs_header(history: &Trends) -> String {
    let labels: Vec<&str> = history.runs.iter().map(|r| r.label.as_str()).collect();
    labels.join(" → ")
}

/// `9 → 3`.
fn arrows(counts: &[usize]) -> String {
    counts
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// A stuck kind in words.
pub fn stuck_kind(kind: StuckKind) -> String {
    match kind {
        StuckKind::NotSubmitted => tr!(INSTRUCTOR, "report-stuck-not-submitted"),
        StuckKind::NotStarted => tr!(INSTRUCTOR, "report-stuck-not-started"),
        StuckKind::DoesNotCompile => tr!(INSTRUCTOR, "report-stuck-does-not-compile"),
        StuckKind::Crashing => tr!(INSTRUCTOR, "report-stuck-crashing"),
        StuckKind::TimingOut => tr!(INSTRUCTOR, "report-stuck-timing-out"),
        StuckKind::Blocked => tr!(INSTRUCTOR, "report-stuck-blocked"),
    }
}

/// `text` escaped for HTML text and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    /// A Chinese page embeds the book's font, which holds the characters the book uses: the
    /// report's own words must be among them, or they would show as boxes on a machine
    /// without a Chinese font (the lessons' hints and causes are the book's too).
    #[test]
    fn the_chinese_report_s_words_are_in_the_book_s_font() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let Ok(font) =
            std::fs::read_to_string(root.join("book/src/fonts/cjk-subset.txt"))
        else {
            return;
        };
        let source = crate::messages::INSTRUCTOR.source(course_i18n::Lang::ZhCn);
        let report = &source[source.find("## 班级报告").expect("the report's section")..];
        let missing: String = report
            .chars()
            .filter(|c| {
                ('\u{3000}'..='\u{9fff}').contains(c)
                    || ('\u{ff00}'..='\u{ffef}').contains(c)
            })
            .filter(|c| !font.contains(*c))
            .collect();
        assert!(
            missing.is_empty(),
            "not in the book's font: {missing} (book/fonts/subset.py)"
        );
    }

    #[test]
    fn text_from_a_submission_cannot_become_markup() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }
}
