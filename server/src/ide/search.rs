//! `search`: the ranked list of decisions for free text, one line each (progressive disclosure for agents).

use super::resolve::{body_of, written};
use crate::model::Workspace;
use crate::search::recall::{recall, Evidence};

/// Results under this confidence are not listed (noise, not candidates).
pub const FLOOR: f64 = 0.05;
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
    pub confidence: f64,
    /// `exact-trigger`, `exact-extra`, `letters` or `words`.
    pub evidence: &'static str,
    /// The section's first line of text, shortened.
    pub excerpt: String,
}

/// The ranked decisions for `text`, best first, at most `limit`, each at or above [`FLOOR`].
pub fn search(ws: &Workspace, text: &str, limit: usize) -> Vec<Found> {
    recall(ws, text, limit)
        .into_iter()
        .filter(|r| r.confidence >= FLOOR)
        .filter_map(|r| {
            let f = ws.file(r.heading.file)?;
            let h = ws.heading(r.heading)?;
            Some(Found {
                entry: written(ws, r.entry),
                heading: h.title.clone(),
                file: f.path.clone(),
                line: h.line as usize + 1,
                confidence: r.confidence,
                evidence: match r.evidence {
                    Evidence::ExactTrigger => "exact-trigger",
                    Evidence::ExactExtra => "exact-extra",
                    Evidence::Letters => "letters",
                    Evidence::Words => "words",
                },
                excerpt: excerpt(body_of(ws, r.heading)),
            })
        })
        .collect()
}

/// The first line of `body` that is text (not blank, not a comment or fence), at most [`EXCERPT_CHARS`].
pub fn excerpt(body: &str) -> String {
    let line = body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("<!--") && !l.starts_with("```") && !l.starts_with('#'))
        .unwrap_or("");
    let line = line.trim_start_matches(['-', '*', '>', ' ']);
    match line.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", line[..cut].trim_end()),
        None => line.to_string(),
    }
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
}
