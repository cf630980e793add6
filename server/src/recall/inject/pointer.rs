//! The pointer tier: below the body threshold, one line per likely decision (its entry, heading, file and confidence) for the agent's model to read only if it applies.
//!
//! The ranking's first candidate is right far more often than it is sure
//! (docs/resolver.md): a body injected at 0.3 would often be wrong, and a
//! wrong body costs the person more than a missing one. A pointer costs one
//! line, and the agent's own model, which reads the whole task, judges it:
//! it runs the entry (`/when …`, or `resolve` in agents without skills)
//! when the decision applies and passes over it when not (progressive
//! disclosure). A pointer line starts with [`POINTER_MARKER`], never with
//! the block marker: it is not a decision shown (`recall-stats` and the
//! session tell the two apart), and a decision's text can pass for neither
//! ([`super::defang`]).

use super::{how_to_read, Header, Injection, Limits, Shown};
use crate::model::{EntryId, HeadingId, Workspace};
use crate::search::recall::Recalled;

/// A pointer line's marker: only the hook writes a line that starts with it.
pub const POINTER_MARKER: &str = "[memory-index?]";

/// A pointer line: `[memory-index?] /when trigger → Title (path:line,
/// confidence 0.34)`, or `meaning 0.52` for a decision found by meaning
/// alone (its cosine with the text: it shares no word the ranking weighs,
/// so it has no confidence of its own).
#[derive(Clone, Debug, PartialEq)]
pub struct Pointer {
    pub header: Header,
    pub by_meaning: bool,
}

impl Pointer {
    /// The pointer line.
    pub fn line(&self) -> String {
        let Header { written, title, path, line, confidence } = &self.header;
        let what = if self.by_meaning { "meaning" } else { "confidence" };
        format!("{POINTER_MARKER} {written} \u{2192} {title} ({path}:{line}, {what} {confidence:.2})")
    }

    /// Reads a pointer line back (None for any other line).
    pub fn parse(line: &str) -> Option<Pointer> {
        let rest = line.strip_prefix(POINTER_MARKER)?;
        // The score is the line's last words: a title may hold ", confidence " itself.
        let (head, score) = rest.rsplit_once(", ")?;
        let (by_meaning, value) = match score.split_once(' ')? {
            ("meaning", v) => (true, v),
            ("confidence", v) => (false, v),
            _ => return None,
        };
        let header = Header::parse(&format!("{}{head}, confidence {value}", super::MARKER))?;
        Some(Pointer { header, by_meaning })
    }
}

/// A decision near the text in meaning: an entry that binds it, its heading, the cosine.
pub type Near = (EntryId, HeadingId, f64);

/// Of `nearest` (headings and cosines, best first), those at `floor` or
/// more, each with the first entry that binds it.
pub fn nearest(ws: &Workspace, nearest: Vec<(HeadingId, f64)>, floor: f64) -> Vec<Near> {
    nearest
        .into_iter()
        .filter(|(_, cos)| *cos >= floor)
        .filter_map(|(h, cos)| Some((*ws.bindings().entries_of(h).first()?, h, cos)))
        .collect()
}

/// The session key a pointer at the decision `key` is recorded under: not a
/// tab (the hook's own keys, kept across a compaction) and never a
/// decision's key (a path), so the decision's body is still injected later.
pub fn key(key: &str) -> String {
    format!("?{key}")
}

/// Points at the first of `ranked` (best first) at or above the pointer
/// floor, then at those of `near` (found by meaning), at most
/// `limits.max_pointers`, each decision once, into `out`; nothing when the
/// best of them is already in the session (its body injected, or pointed
/// at): the session has it in view, and the next is less likely still.
pub(super) fn point(
    shown: &dyn Shown,
    ranked: &[Recalled],
    near: &[Near],
    limits: Limits,
    seen: &dyn Fn(&str) -> bool,
    out: &mut Injection,
) {
    if limits.max_pointers == 0 || limits.pointer >= limits.threshold {
        return;
    }
    let by_words =
        ranked.iter().take_while(|r| r.confidence >= limits.pointer).map(|r| (r.entry, r.heading, r.confidence, false));
    let by_meaning = near.iter().map(|&(e, h, cos)| (e, h, cos, true));
    let mut lines: Vec<Line> = Vec::new();
    for (entry, heading, score, by_meaning) in by_words.chain(by_meaning) {
        if lines.len() >= limits.max_pointers {
            break;
        }
        let Some(k) = shown.key(heading) else { continue };
        if out.pointed.contains(&key(&k)) {
            continue;
        }
        if seen(&k) || seen(&key(&k)) {
            break;
        }
        let Some((path, title, line)) = shown.place(heading) else { continue };
        let written = shown.written(entry);
        let header =
            Header { written: written.clone(), title: title.into(), path: path.into(), line, confidence: score };
        lines.push(Line {
            text: Pointer { header, by_meaning }.line(),
            written,
            path: path.to_string(),
            line,
            by_meaning,
        });
        out.pointed.push(key(&k));
    }
    // As many as fit `max_chars`, the last dropped first (found by review: two that did not
    // fit gave nothing, though one did).
    while !lines.is_empty() {
        let text = pointer_text(&lines, limits.skills);
        if text.chars().count() <= limits.max_chars {
            out.text = text;
            return;
        }
        lines.pop();
        out.pointed.pop();
    }
}

/// One pointer line, and what its closing line says of it.
struct Line {
    text: String,
    /// The entry as written (`/when x`).
    written: String,
    path: String,
    line: u32,
    by_meaning: bool,
}

/// The pointer lines, then how to read them (a meaning score explained).
fn pointer_text(lines: &[Line], skills: bool) -> String {
    let mut text = String::new();
    for l in lines {
        text.push_str(&l.text);
        text.push('\n');
    }
    let read = match lines {
        [Line { written, path, line, .. }] => format!(
            "{POINTER_MARKER} A recorded decision that may apply, not shown: read it with {} only if it applies to \
             this task; otherwise ignore it.",
            how_to_read(written, skills, path, *line)
        ),
        _ => format!(
            "{POINTER_MARKER} Recorded decisions that may apply, not shown: read one with {} only if it applies to \
             this task; otherwise ignore them.",
            lines.iter().map(|l| how_to_read(&l.written, skills, &l.path, l.line)).collect::<Vec<_>>().join(" or ")
        ),
    };
    text.push_str(&read);
    if lines.iter().any(|l| l.by_meaning) {
        text.push_str(" (`meaning`: how alike in meaning the decision and the prompt are, from 0 to 1.)");
    }
    text
}
