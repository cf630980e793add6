//! What import does with a decision it imported before: the section as it is against what import would write now (unchanged, the person's, edited, retitled, or rewritten).

use super::mark;
use crate::syntax::normalize;
use crate::syntax::source_mark::without_marks;

/// What becomes of a decision imported before.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// As import would write it now, or edited from a source that has not changed since.
    Unchanged,
    /// No import mark and not what the source gives: the person's, left alone.
    Yours,
    /// Edited here, and what import would write changed too: kept, never overwritten.
    Edited,
    /// The source's title changed: the heading is the person's to rename.
    Retitled,
    /// Rewritten with this text (the source changed, the section did not).
    Write(String),
}

/// The section to write instead of `current` (a section import wrote before,
/// under the heading `title`), given `wanted`, what import would write now
/// under the heading it makes of the record (`heading`). `render` writes
/// the section under another heading (marked, with `current`'s ending);
/// `originals` are the headings import may have written it under first.
///
/// A heading renamed by hand (its entry too, so that the index checks
/// clean) is not an edit: the fingerprint it holds is that of the section
/// under import's heading, and the rest is as import wrote it; the source's
/// changes come in under the person's heading (found by review: after such
/// a rename every change of the source was refused as an edit), marked with
/// the fingerprint of the same text under import's heading, so that the
/// next run finds it unchanged and the one after takes the next change
/// (found by review: it held its own text's fingerprint, and every later
/// run called the person's heading a title changed in the source).
pub(super) fn verdict(
    current: &str,
    wanted: String,
    title: &str,
    heading: &str,
    originals: &[String],
    render: &dyn Fn(&str) -> Option<String>,
) -> Verdict {
    let want = mark::of(&wanted);
    let was = mark::held(current);
    if current == wanted || was == Some(want.as_str()) {
        return Verdict::Unchanged;
    }
    let now = mark::of(current);
    if was.is_none() && now != want {
        return Verdict::Yours;
    }
    if let Some(was) = was.filter(|w| *w != now) {
        let first = originals
            .iter()
            .filter(|o| normalize(o) != normalize(title))
            .find(|o| with_title(current, o).is_some_and(|s| mark::of(&s) == was));
        if first.is_some() {
            return match render(title) {
                Some(mine) if without_marks(&mine) == without_marks(current) => Verdict::Unchanged,
                Some(mine) => Verdict::Write(mark::marked_with(&mine, &want)),
                None => Verdict::Edited,
            };
        }
        if now != want {
            return Verdict::Edited;
        }
    }
    if normalize(title) != normalize(heading) {
        return Verdict::Retitled;
    }
    Verdict::Write(wanted)
}

/// Why a decision imported before is kept as it is (`Edited` or `Retitled`),
/// and what the person can do about it.
pub(super) fn why_kept(v: &Verdict, title: &str, path: &str, id: &str, heading: &str) -> String {
    if *v == Verdict::Retitled {
        return format!(
            "its title changed (`{title}` in {path} has its `{id}` line, the source now says `{heading}`); rename the \
             heading and its entry, then import again"
        );
    }
    format!(
        "`{title}` in {path} was edited since it was imported, and what import would write changed too (its \
         source, or the file's room): kept as it is; bring the change in by hand and delete the `<!-- import … -->` \
         mark on its `Source:` line (import then leaves the section to you), or delete the section and its entry and \
         import again"
    )
}

/// `section` with the title of its heading line (its first line) replaced.
fn with_title(section: &str, title: &str) -> Option<String> {
    let end = section.find('\n').unwrap_or(section.len());
    let line = section[..end].trim_end_matches('\r');
    let hashes = line.len() - line.trim_start_matches('#').len();
    (hashes > 0).then(|| format!("{} {title}{}", &line[..hashes], &section[line.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_renamed_by_hand_is_not_an_edit() {
        let render = |t: &str, body: &str| mark::marked(&format!("## {t}\n\n{body}\n\nSource: A.md § T\n"));
        let originals = ["When Testing".to_string()];
        // What import makes of the source, as it says `body`, under its own heading and the person's.
        let run = |current: &str, body: &'static str| {
            let wanted = render("When Testing", body);
            verdict(current, wanted, "When Running The Suite", "When Testing", &originals, &|t| Some(render(t, body)))
        };
        let renamed = render("When Testing", "Run it.").replacen("## When Testing", "## When Running The Suite", 1);
        // The source did not change: nothing to write (the mark it holds still tells).
        assert_eq!(run(&renamed, "Run it."), Verdict::Unchanged);
        // It changed: it comes in under the person's heading, marked as import's text of it.
        let Verdict::Write(second) = run(&renamed, "Run it twice.") else { panic!("written") };
        assert_eq!(without_marks(&second), without_marks(&render("When Running The Suite", "Run it twice.")));
        assert_eq!(mark::held(&second), Some(mark::of(&render("When Testing", "Run it twice.")).as_str()));
        // The next run, the source as it was: unchanged (found by review: "its title changed", every run);
        // and the next change of the source comes in again.
        assert_eq!(run(&second, "Run it twice."), Verdict::Unchanged);
        let Verdict::Write(third) = run(&second, "Run it thrice.") else { panic!("written again") };
        assert!(third.starts_with("## When Running The Suite\n\nRun it thrice."), "{third}");
        // The body edited too: kept.
        assert_eq!(run(&renamed.replace("Run it.", "Run it, please."), "Run it twice."), Verdict::Edited);
        // The source's own title changed, the section untouched: the person's to rename.
        let v = verdict(
            &render("When Testing", "Run it."),
            render("When Checking", "Run it."),
            "When Testing",
            "When Checking",
            &["When Checking".to_string()],
            &|t| Some(render(t, "Run it.")),
        );
        assert_eq!(v, Verdict::Retitled);
        assert_eq!(with_title("## A\r\nx\n", "B").as_deref(), Some("## B\r\nx\n"));
        assert_eq!(with_title("text\n", "B"), None);
    }
}
