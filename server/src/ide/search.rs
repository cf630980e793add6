//! `search`: the ranked list of decisions for free text, one line each (progressive disclosure for agents).

use super::resolve::{body_of, written};
use crate::model::Workspace;
use crate::search::recall::recall;
use crate::search::semantic::{rescore, Cosines};

/// Results under this confidence are not listed (noise, not candidates)
/// unless none reaches it: then the [`CLOSEST`] best are, marked weak.
pub const FLOOR: f64 = crate::search::recall::LISTED;
/// How many weak results are listed when none reaches [`FLOOR`]: the
/// ranking's first answer is often right where its confidence does not
/// dare ("where do secrets go" on an imported ADR folder: 0.03, right), and
/// a search that answers nothing leaves the agent nothing to judge.
pub const CLOSEST: usize = 3;
/// Most characters of the excerpt line.
pub const EXCERPT_CHARS: usize = 160;

/// One listed decision.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Found {
    /// `/when trigger` as written in the index: what to type for the whole section.
    pub entry: String,
    /// The heading title.
    pub heading: String,
    /// The decision file, relative to the root.
    pub file: String,
    /// 1-based line of the heading.
    pub line: usize,
    /// Written with two decimals (`0.48`): more digits say nothing and cost an agent tokens.
    #[serde(serialize_with = "two_decimals")]
    pub confidence: f64,
    /// `exact-trigger`, `exact-extra`, `letters` or `words`.
    pub evidence: &'static str,
    /// The section's first line of text, shortened.
    pub excerpt: String,
    /// Under [`FLOOR`]: listed only because nothing reached it.
    pub weak: bool,
}

fn two_decimals<S: serde::Serializer>(c: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((c * 100.0).round() / 100.0)
}

/// The ranked decisions for `text`, best first, at most `limit`, each at or
/// above [`FLOOR`] (none reaching it: the [`CLOSEST`] best the text shares
/// words with, within half the first's confidence, `weak`); with `semantic`, re-scored by meaning too, as the
/// hook ranks a prompt (`search::semantic`).
pub fn search(ws: &Workspace, text: &str, limit: usize, semantic: Option<&dyn Cosines>) -> Vec<Found> {
    let ranked = match semantic {
        Some(s) => {
            let mut r = rescore(ws, text, recall(ws, text, limit + 10), s);
            r.truncate(limit);
            r
        }
        None => recall(ws, text, limit),
    };
    let best = ranked.first().map_or(0.0, |r| r.confidence);
    let weak = best < FLOOR;
    let keep = if weak { limit.min(CLOSEST) } else { limit };
    ranked
        .into_iter()
        // Weak ones within half the best's confidence: a runner-up far behind is not close.
        .filter(|r| r.confidence >= FLOOR || weak && r.confidence > 0.0 && r.confidence >= best / 2.0)
        .take(keep)
        .filter_map(|r| {
            let f = ws.file(r.heading.file)?;
            let h = ws.heading(r.heading)?;
            Some(Found {
                entry: written(ws, r.entry),
                heading: h.title.clone(),
                file: f.path.clone(),
                line: h.line as usize + 1,
                confidence: r.confidence,
                evidence: r.evidence.name(),
                excerpt: excerpt(body_of(ws, r.heading)),
                weak,
            })
        })
        .collect()
}

/// The decision's first substantive line (not blank, not a comment, fence or
/// heading, not a metadata line such as `**Decision Date:** …`, `Status:` or
/// `Source:`), at most [`EXCERPT_CHARS`].
pub fn excerpt(body: &str) -> String {
    let text = |l: &&str| !l.is_empty() && !l.starts_with("<!--") && !l.starts_with("```") && !l.starts_with('#');
    let lines: Vec<&str> = body.lines().map(str::trim).filter(text).collect();
    let line = lines.iter().find(|l| !is_metadata(l)).or(lines.first()).copied().unwrap_or("");
    let line = line.trim_start_matches(['-', '*', '>', ' ']);
    match line.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", line[..cut].trim_end()),
        None => line.to_string(),
    }
}

/// `**Decision Date:** 2026-02-18`, `Date: …`, `Status: …`, `Source: …`: a label and a short value, not the decision;
/// and the scope line import writes first for a rule scoped to some files (`Applies to files matching …`).
fn is_metadata(line: &str) -> bool {
    let plain = line.trim_start_matches(['-', '*', ' ']);
    if plain.starts_with("Applies to files matching `") {
        return true;
    }
    let Some((label, value)) = plain.split_once(':') else { return false };
    let label = label.trim_end_matches('*').trim();
    let words = label.split_whitespace().count();
    let known = ["date", "status", "source", "decided", "author", "authors", "owner", "deciders", "tags", "updated"];
    (1..=3).contains(&words)
        && known.iter().any(|k| label.to_lowercase().split_whitespace().any(|w| w == *k))
        && value.split_whitespace().count() <= 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_skips_blank_and_comment_lines_and_shortens() {
        assert_eq!(excerpt("\n<!-- x -->\n- Patch where it is looked up.\nmore"), "Patch where it is looked up.");
        let long = "é".repeat(200);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
        assert_eq!(excerpt(""), "");
    }

    #[test]
    fn excerpt_is_the_decision_not_its_metadata() {
        assert_eq!(
            excerpt("**Decision Date:** 2026-02-18\n\nErrors name the command and what to do.\n"),
            "Errors name the command and what to do."
        );
        assert_eq!(
            excerpt("Status: Accepted\nSource: docs/adr/1.md\n"),
            "Status: Accepted",
            "only metadata: the first line"
        );
        assert_eq!(
            excerpt("Note: prefer fakes over mocks when the fake is small and the real thing is slow.\n"),
            "Note: prefer fakes over mocks when the fake is small and the real thing is slow."
        );
        assert_eq!(
            excerpt("Applies to files matching `tests/**/*.py`.\n\nUse pytest fixtures.\n"),
            "Use pytest fixtures.",
            "a Cursor rule's scope, as import writes it"
        );
    }
}
