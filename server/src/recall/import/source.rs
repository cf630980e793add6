//! Reading decisions a project already wrote: architecture decision records (Nygard's template, MADR) and Markdown files of headed rules (`CLAUDE.md`, `AGENTS.md`, `.cursor/rules/*.mdc`, a learnings file), detected per file.
//!
//! - **Nygard** (`# 2. Use X`, `## Status`, `## Context`, `## Decision`,
//!   `## Consequences`): one record; its status is the first line of
//!   `## Status`.
//! - **MADR** (front matter with `status:`, or a `## Decision Outcome`
//!   section; older MADR's `* Status: accepted` line): one record; the
//!   decision is `## Decision Outcome`, followed by the considered options,
//!   the context, the decision drivers and the consequences.
//! - **Sections** (anything else): one record per section at the rule
//!   level, the shallowest heading level once a file's single `# ` title is
//!   left out (`# Guide` + `## Testing` → `Testing`; several `# ` sections →
//!   each of them; only `### ` → those), its text the decision (a deeper
//!   section before the first of them, `### Packages` above the first `## `,
//!   is text under no rule, which `import` names as left out). A section of
//!   more than [`SPLIT_LINES`] lines with
//!   sub-sections gives its own text and one record per sub-section
//!   (identity `§ Parent › Title`): its sub-sections are separate rules.
//!   A table of contents is not a rule. A Cursor rule (`.mdc`,
//!   `.cursorrules`) without headings is one record named by its
//!   `description:` or its file name.
//!
//! A file with neither a title nor a headed section is refused with a
//! message, as are a template (a file named `*template*`) and a folder's
//! `README.md` or `index.md` (an introduction or a list of records).

use super::outline::{split, Section};

/// One decision read from a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The source file, relative to the project root: the record's identity.
    pub source: String,
    /// Which of a file's sections (0 for an ADR): part of the identity for section files.
    pub part: usize,
    pub kind: Kind,
    /// The title as written, without a record number or formatting.
    pub title: String,
    /// The status as written (`Accepted`, `Superseded by 0007`), when the source has one.
    pub status: Option<String>,
    pub date: Option<String>,
    /// Where it sits, to tell two records of the same title apart: for a
    /// rule section, its parent section's or its file's title.
    pub context: Option<String>,
    /// The section a rule was split from (a long section's sub-section): part of its identity.
    pub parent: Option<String>,
    /// What was decided (an ADR's Decision section, a rule section's text).
    pub decision: String,
    /// The rest, in order of use: (label, text), e.g. ("Context", …), ("Consequences", …).
    pub more: Vec<(String, String)>,
}

/// How a source file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Nygard,
    Madr,
    Sections,
}

use rules::{rule_level, rules};
pub use status::{inactive, left_out_sections};
use status::{last_state, CONSEQUENCES, CONTEXT, DECIDED, STATUS};
pub use title::clean_title;
pub(super) use title::worded;

mod rules;
mod scope;
mod status;
mod title;

/// The records of one source file (`path` relative to the root), or why there are none.
pub fn parse(path: &str, text: &str) -> Result<Vec<Record>, Refused> {
    parse_with(path, text, &|_| false)
}

/// An ADR's one record (the file is the decision).
fn adr(
    path: &str,
    kind: Kind,
    title: &str,
    status: Option<String>,
    date: Option<String>,
    decision: String,
    more: Vec<(String, String)>,
) -> Record {
    Record {
        source: path.into(),
        part: 0,
        kind,
        title: clean_title(title),
        status,
        date,
        context: None,
        parent: None,
        decision,
        more,
    }
}

/// Files that are no decision by their name: a template, an ADR folder's README or index.
fn no_decision_by_name(name: &str) -> Result<(), Refused> {
    if name.contains("template") {
        return Err("a template, not a decision".into());
    }
    let stem = name.split('.').next().unwrap_or("");
    if stem == "readme" || stem == "index" {
        // An ADR folder's README or index introduces or lists the records.
        return Err(format!(
            "a folder's {stem} (an introduction or a list of records), not a decision; \
             move a rule it holds into a file of its own to import it"
        )
        .into());
    }
    Ok(())
}

/// An agent's instructions file, by its (lower-case) name: `CLAUDE.md`, `AGENTS.md`, a Copilot or Cursor rules file.
fn is_instructions(name: &str) -> bool {
    matches!(name, "claude.md" | "claude.local.md" | "agents.md" | "gemini.md")
        || name.ends_with("instructions.md")
        || name.ends_with(".mdc")
        || name.starts_with('.') && name.ends_with("rules")
}

/// An ADR's date: front matter's `date`, or a `Date: …` line (MADR 2's and log4brains' `* Date: …`; found by review: dropped).
fn date_of(front: &[(String, String)], body: &str) -> Option<String> {
    front.iter().find(|(k, _)| k == "date").map(|(_, v)| v.clone()).or_else(|| {
        body.lines().find_map(|l| {
            l.trim().trim_start_matches(['*', '-']).trim().strip_prefix("Date:").map(|d| d.trim().to_string())
        })
    })
}

/// An ADR without a Decision section: its sections other than status, context and consequences.
fn undecided_rest(sections: &[Section]) -> Option<String> {
    let rest: Vec<String> = sections
        .iter()
        .filter(|s| s.level == 2)
        .filter(|s| ![STATUS, CONTEXT, CONSEQUENCES].concat().iter().any(|n| s.title.eq_ignore_ascii_case(n)))
        .map(|s| format!("**{}**\n{}", s.title, s.text.trim()))
        .collect();
    (!rest.is_empty()).then(|| rest.join("\n\n"))
}

/// [`parse`], told which sections of the file were split before (`split_before`:
/// the memory holds decisions imported from their sub-sections, see
/// [`super::split_parents`]): such a section stays split when it becomes
/// shorter than [`SPLIT_LINES`], so that a sub-section deleted does not
/// turn its siblings' decisions stale (found by review: `--prune` then
/// removed them, still in the source, as gone).
pub fn parse_with(path: &str, text: &str, split_before: &dyn Fn(&str) -> bool) -> Result<Vec<Record>, Refused> {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    no_decision_by_name(&name)?;
    // An agent's instructions file is rules, whatever its sections are called (found by review:
    // a CLAUDE.md with a `## Status` section was read as one ADR).
    let instructions = is_instructions(&name);
    let own = without_own_block(text);
    let (front, body) = front_matter(&own);
    let sections = split(body);
    let title_line = sections.iter().find(|s| s.level == 1).map(|s| s.title.clone());
    let has =
        |names: &[&str]| sections.iter().any(|s| s.level == 2 && names.iter().any(|n| s.title.eq_ignore_ascii_case(n)));
    let section = |names: &[&str]| {
        sections
            .iter()
            .find(|s| s.level >= 2 && names.iter().any(|n| s.title.eq_ignore_ascii_case(n)))
            .map(|s| s.text.trim().to_string())
            .filter(|t| !t.is_empty())
    };
    // Context or consequences, unless written inside the decision's own section (MADR's
    // `### Consequences` under `## Decision Outcome`), which already holds them.
    let beside = |names: &[&str], decided: &[&str]| {
        let found = |names: &[&str]| {
            sections.iter().find(|s| s.level >= 2 && names.iter().any(|n| s.title.eq_ignore_ascii_case(n)))
        };
        let s = found(names)?;
        if found(decided).is_some_and(|d| s.from > d.from && s.from < d.until) {
            return None;
        }
        Some(s.text.trim().to_string()).filter(|t| !t.is_empty())
    };
    let front_status = front.iter().find(|(k, _)| k == "status").map(|(_, v)| v.clone());
    let list_status = body.lines().find_map(|l| {
        let l = l.trim().trim_start_matches(['*', '-']).trim();
        l.strip_prefix("Status:").and_then(|s| last_state(s.trim()))
    });
    let date = date_of(&front, body);
    // A `* Status:` line with a Decision section is an ADR too (log4brains' MADR variant).
    let listed_adr = list_status.is_some() && title_line.is_some() && has(DECIDED);
    if instructions {
        return rules(path, &name, &front, body, &sections, split_before);
    }
    if (has(STATUS) && (has(DECIDED) || title_line.is_some()) || listed_adr) && !has(&["Decision Outcome"]) {
        let title = title_line.ok_or("an ADR without a `# ` title")?;
        let status = section(STATUS).and_then(|s| last_state(&s)).or_else(|| list_status.clone());
        let decision =
            section(DECIDED).or_else(|| undecided_rest(&sections)).ok_or("an ADR without a Decision section")?;
        let more = [("Context", CONTEXT), ("Consequences", CONSEQUENCES)]
            .iter()
            .filter_map(|(label, names)| beside(names, DECIDED).map(|t| (label.to_string(), t)))
            .collect();
        return Ok(vec![adr(path, Kind::Nygard, &title, status, date, decision, more)]);
    }
    if has(&["Decision Outcome"]) || front_status.is_some() {
        let title = title_line
            .or_else(|| front.iter().find(|(k, _)| k == "title").map(|(_, v)| v.clone()))
            .ok_or("an ADR without a `# ` title")?;
        let decision = section(&["Decision Outcome", "Decision"]).ok_or("no Decision Outcome section")?;
        // The options weighed (the ones not chosen are what an agent would otherwise propose
        // again) and what drove the choice, then the context (found by review: MADR's
        // Considered Options were dropped).
        let more = [
            ("Considered options", &["Considered Options"][..]),
            ("Context", &["Context and Problem Statement", "Context"][..]),
            ("Consequences", &["Consequences"][..]),
        ]
        .iter()
        .filter_map(|(label, names)| beside(names, &["Decision Outcome", "Decision"]).map(|t| (label.to_string(), t)))
        .collect();
        let status = front_status.or(list_status);
        return Ok(vec![adr(path, Kind::Madr, &title, status, date, decision, more)]);
    }
    rules(path, &name, &front, body, &sections, split_before)
}

/// Lines of a rules file's text that no record holds, which `import` names
/// rather than drops in silence: text before its first section at the rule
/// level, under its one `# ` title ("Always answer in English.") or in
/// deeper sections above it (`### Packages` before the first `## `). 0 for
/// an ADR, and for a file whose title is its only heading.
pub fn unheaded(path: &str, text: &str) -> usize {
    if parse(path, text).is_ok_and(|r| r.iter().any(|r| r.kind != Kind::Sections)) {
        return 0;
    }
    let own = without_own_block(text);
    let (_, body) = front_matter(&own);
    let sections = split(body);
    // Before the first section at the rule level (deeper sections there are under no rule).
    let (ruled, level) = rule_level(&sections);
    let Some(first) = ruled.iter().find(|s| Some(s.level) == level) else { return 0 };
    let solid = |t: &str| t.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("<!--")).count();
    let before = solid(&body.lines().take(first.from).collect::<Vec<_>>().join("\n"));
    let titles: Vec<&Section> = sections.iter().filter(|s| s.level == 1).collect();
    match titles[..] {
        // The title's line is not text; its own text is counted once.
        [title] if title.from < first.from => before - title.lines,
        [title] if sections.len() > 1 => before + solid(&title.own),
        _ => before,
    }
}

/// Lines of a rule section past which it is split into its sub-sections (when it has them).
pub const SPLIT_LINES: usize = 24;

/// What [`parse`]'s refusal of a file that holds no decision says.
pub const NOTHING: &str = "nothing to import";

/// Why [`parse`] imports nothing from a file, said for the person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The reason, a phrase (`a template, not a decision`).
    pub why: String,
    /// The file holds no decision (not: it is a template, a folder's index,
    /// a broken ADR): its decisions imported before are stale.
    pub empty: bool,
}

impl Refused {
    /// A file that holds no decision.
    fn empty(why: String) -> Refused {
        Refused { why, empty: true }
    }
}

impl From<&str> for Refused {
    fn from(why: &str) -> Refused {
        Refused { why: why.into(), empty: false }
    }
}

impl From<String> for Refused {
    fn from(why: String) -> Refused {
        Refused { why, empty: false }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

/// How the block `init` keeps in an agent's instructions file starts (the
/// rest of its first line says who wrote it) and ends.
pub const OWN_BLOCK_START: &str = "<!-- memory-index:start";
pub const OWN_BLOCK_END: &str = "<!-- memory-index:end -->";

/// The byte ranges of the blocks `init` wrote in `text`, each from its
/// start line to the end of its end line: a start is a whole line (at most
/// three spaces before it) that begins with [`OWN_BLOCK_START`] and ends
/// with `-->`, an end a whole line [`OWN_BLOCK_END`], both outside code (a
/// fenced or indented block, an inline span: found by review, a file that
/// only mentioned the marker in an example lost the text after it when
/// `init` updated "its" block, and `import` dropped the example's lines).
/// Err with the start's byte offset when a start has no end.
pub fn own_blocks(text: &str) -> Result<Vec<std::ops::Range<usize>>, usize> {
    // A fence never closed (a typo) would hide every block after it, and `init` would add one
    // more on every run (found by review): such a fence is read as no fence, and the scan repeats.
    let mut unclosed: Vec<usize> = Vec::new();
    loop {
        match scan_blocks(text, &unclosed) {
            Scan::Done(r) => return r,
            Scan::Unclosed(at) => unclosed.push(at),
        }
    }
}

/// What one scan of [`own_blocks`] found.
enum Scan {
    Done(Result<Vec<std::ops::Range<usize>>, usize>),
    /// A fence opened at this byte and never closed.
    Unclosed(usize),
}

/// [`own_blocks`]' scan, reading the fences opened at `ignored` as text. A
/// start is a line that begins with the marker at its first column (where
/// `init` writes it: an indented one belongs to a list or an example).
fn scan_blocks(text: &str, ignored: &[usize]) -> Scan {
    let (mut out, mut at, mut open) = (Vec::new(), 0, None);
    // The open fence: its character, length and where its line starts.
    let mut fence: Option<(u8, usize, usize)> = None;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim_end_matches(['\n', '\r']);
        let indent = t.len() - t.trim_start_matches(' ').len();
        // A list item's or a quote's fence opens after its marker (`- ```md`).
        let body = t.trim_start_matches(' ').trim_start_matches(['-', '*', '+', '>', ' ']);
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(['.', ')', ' ']);
        if let Some(from) = open {
            if t.trim() == OWN_BLOCK_END {
                out.push(from..at);
                open = None;
            }
            continue;
        }
        if let Some((ch, len, _)) = fence {
            let run = body.bytes().take_while(|&c| c == ch).count();
            if indent < 4 && run >= len && body[run..].trim().is_empty() {
                fence = None;
            }
            continue;
        }
        if indent >= 4 || t.starts_with('\t') {
            continue;
        }
        if let Some((ch, len)) = crate::syntax::fence_marker(body.as_bytes()).filter(|_| !ignored.contains(&start)) {
            fence = Some((ch, len, start));
        } else if t.starts_with(OWN_BLOCK_START) && t.trim_end().ends_with("-->") {
            open = Some(start);
        }
    }
    match (fence, open) {
        (Some((_, _, at)), _) => Scan::Unclosed(at),
        (None, Some(from)) => Scan::Done(Err(from)),
        (None, None) => Scan::Done(Ok(out)),
    }
}

/// `text` without the blocks `init` wrote (they tell the agent about the
/// memory; they are not the project's rules; [`own_blocks`]).
pub fn without_own_block(text: &str) -> std::borrow::Cow<'_, str> {
    // A block that never ends is not one init wrote whole: the text stays (found by review).
    let blocks = match own_blocks(text) {
        Ok(b) if !b.is_empty() => b,
        _ => return text.into(),
    };
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for b in blocks {
        out.push_str(&text[from..b.start]);
        from = b.end;
    }
    out.push_str(&text[from..]);
    out.into()
}

/// YAML-ish front matter (`---` … `---`) as lowercase keys and unquoted values, and the text after it.
fn front_matter(text: &str) -> (Vec<(String, String)>, &str) {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = t.strip_prefix("---\n").or_else(|| t.strip_prefix("---\r\n")) else { return (vec![], t) };
    let Some(end) = rest.find("\n---") else { return (vec![], t) };
    let body = rest[end + 4..].trim_start_matches(['\r']).strip_prefix('\n').unwrap_or(&rest[end + 4..]);
    let mut pairs: Vec<(String, String)> = Vec::new();
    // Whether the last key had no value of its own: a YAML list may follow (`globs:` then `  - src/**`).
    let mut listing = false;
    for l in rest[..end].lines() {
        if let (Some(item), Some(last), true) = (l.trim_start().strip_prefix("- "), pairs.last_mut(), listing) {
            let item = item.trim().trim_matches(['"', '\'']);
            last.1 = if last.1.is_empty() { item.to_string() } else { format!("{}, {item}", last.1) };
            continue;
        }
        if let Some((k, v)) = l.split_once(':') {
            let v = v.trim().trim_matches(['"', '\'']).to_string();
            listing = v.is_empty();
            pairs.push((k.trim().to_lowercase(), v));
        }
    }
    (pairs, body)
}
