//! Reading decisions a project already wrote: architecture decision records (Nygard's template, MADR) and Markdown files of headed rules (`CLAUDE.md`, `AGENTS.md`, `.cursor/rules/*.mdc`, a learnings file), detected per file.
//!
//! - **Nygard** (`# 2. Use X`, `## Status`, `## Context`, `## Decision`,
//!   `## Consequences`): one record; its status is the first line of
//!   `## Status`.
//! - **MADR** (front matter with `status:`, or a `## Decision Outcome`
//!   section; older MADR's `* Status: accepted` line): one record; the
//!   decision is `## Decision Outcome`.
//! - **Sections** (anything else with `## ` headings, or `# ` headings when
//!   there is no `## `): one record per section, its text the decision.
//!
//! A file with neither a title nor a headed section is refused with a
//! message, as is a template (a file named `*template*`).

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

/// Whether a status says the decision is not (or no longer) in force, and in words why.
pub fn inactive(status: &str) -> Option<&'static str> {
    let s = status.to_lowercase();
    // The status word itself first: `Deprecated (no superseding ADR)` is deprecated.
    let first: String = s.chars().take_while(|c| c.is_alphabetic()).collect();
    let table = [
        ("supersed", "superseded"),
        ("revert", "reverted"),
        ("reject", "rejected"),
        ("deprecat", "deprecated"),
        ("obsolete", "obsolete"),
        ("withdrawn", "withdrawn"),
        ("propos", "only proposed"),
        ("pending", "pending"),
        ("draft", "a draft"),
    ];
    let by = |text: &str| table.iter().find(|(k, _)| text.contains(k)).map(|(_, why)| *why);
    by(&first).or_else(|| if first == "accepted" || first == "approved" { None } else { by(&s) })
}

/// The records of one source file (`path` relative to the root), or why there are none.
pub fn parse(path: &str, text: &str) -> Result<Vec<Record>, String> {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    if name.contains("template") {
        return Err("a template, not a decision".into());
    }
    let stem = name.split('.').next().unwrap_or("");
    if stem == "readme" || stem == "index" {
        // An ADR folder's README or index introduces or lists the records.
        return Err(format!(
            "a folder's {stem} (an introduction or a list of records), not a decision; \
             move a rule it holds into a file of its own to import it"
        ));
    }
    let (front, body) = front_matter(text);
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
    let front_status = front.iter().find(|(k, _)| k == "status").map(|(_, v)| v.clone());
    let list_status = body.lines().find_map(|l| {
        let l = l.trim().trim_start_matches(['*', '-']).trim();
        l.strip_prefix("Status:").map(|s| s.trim().to_string())
    });
    let date = front
        .iter()
        .find(|(k, _)| k == "date")
        .map(|(_, v)| v.clone())
        .or_else(|| body.lines().find_map(|l| l.trim().strip_prefix("Date:").map(|d| d.trim().to_string())));
    const DECIDED: &[&str] = &["Decision", "Decisions", "Proposal", "Proposed Solution", "Solution", "Outcome"];
    // A `* Status:` line with a Decision section is an ADR too (log4brains' MADR variant).
    let listed_adr = list_status.is_some() && title_line.is_some() && has(DECIDED);
    if (has(&["Status"]) && (has(DECIDED) || title_line.is_some()) || listed_adr) && !has(&["Decision Outcome"]) {
        let title = title_line.ok_or("an ADR without a `# ` title")?;
        let status = section(&["Status"])
            .and_then(|s| s.lines().find(|l| !l.trim().is_empty()).map(|l| l.trim().to_string()))
            .or_else(|| list_status.clone());
        let decision = section(DECIDED)
            .or_else(|| {
                // No Decision section: the sections other than status, context and consequences.
                let rest: Vec<String> = sections
                    .iter()
                    .filter(|s| s.level == 2)
                    .filter(|s| !["Status", "Context", "Consequences"].iter().any(|n| s.title.eq_ignore_ascii_case(n)))
                    .map(|s| format!("**{}**\n{}", s.title, s.text.trim()))
                    .collect();
                (!rest.is_empty()).then(|| rest.join("\n\n"))
            })
            .ok_or("an ADR without a Decision section")?;
        let more = [("Context", &["Context"][..]), ("Consequences", &["Consequences"][..])]
            .iter()
            .filter_map(|(label, names)| section(names).map(|t| (label.to_string(), t)))
            .collect();
        return Ok(vec![Record {
            source: path.into(),
            part: 0,
            kind: Kind::Nygard,
            title: clean_title(&title),
            status,
            date,
            decision,
            more,
        }]);
    }
    if has(&["Decision Outcome"]) || front_status.is_some() {
        let title = title_line
            .or_else(|| front.iter().find(|(k, _)| k == "title").map(|(_, v)| v.clone()))
            .ok_or("an ADR without a `# ` title")?;
        let decision = section(&["Decision Outcome", "Decision"]).ok_or("no Decision Outcome section")?;
        let more =
            [("Context", &["Context and Problem Statement", "Context"][..]), ("Consequences", &["Consequences"][..])]
                .iter()
                .filter_map(|(label, names)| section(names).map(|t| (label.to_string(), t)))
                .collect();
        let status = front_status.or(list_status);
        return Ok(vec![Record {
            source: path.into(),
            part: 0,
            kind: Kind::Madr,
            title: clean_title(&title),
            status,
            date,
            decision,
            more,
        }]);
    }
    // Headed rules: the `## ` sections, or the `# ` ones when there is no `## `.
    let level = if sections.iter().any(|s| s.level == 2) { 2 } else { 1 };
    let records: Vec<Record> = sections
        .iter()
        .filter(|s| s.level == level && !s.text.trim().is_empty())
        .enumerate()
        .map(|(i, s)| Record {
            source: path.into(),
            part: i,
            kind: Kind::Sections,
            title: clean_title(&s.title),
            status: None,
            date: None,
            decision: s.text.trim().to_string(),
            more: vec![],
        })
        .filter(|r| !r.title.is_empty())
        .collect();
    if records.is_empty() {
        return Err("no title and no headed section: nothing to import (an ADR starts with `# Title`, a rules file has `## ` sections)".into());
    }
    Ok(records)
}

/// A heading's section: level, title and the text up to the next heading of the same or a higher level
/// (deeper headings kept inside, as text).
struct Section {
    level: usize,
    title: String,
    text: String,
}

/// Splits Markdown into headed sections, outside code fences.
fn split(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut open: Vec<usize> = Vec::new(); // indexes of sections still collecting text
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        let t = line.trim_start();
        let fence_mark =
            t.chars().next().filter(|c| *c == '`' || *c == '~').map(|c| (c, t.chars().take_while(|x| *x == c).count()));
        match (fence, fence_mark) {
            (None, Some((c, n))) if n >= 3 => fence = Some((c, n)),
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && t.trim_end().chars().all(|x| x == c) => {
                fence = None
            }
            _ => {}
        }
        let heading = if fence.is_none() && fence_mark.is_none() { atx(t) } else { None };
        if let Some((level, title)) = heading {
            open.retain(|&i| out[i].level < level);
            for &i in &open {
                out[i].text.push_str(line);
                out[i].text.push('\n');
            }
            out.push(Section { level, title, text: String::new() });
            open.push(out.len() - 1);
            continue;
        }
        for &i in &open {
            out[i].text.push_str(line);
            out[i].text.push('\n');
        }
    }
    out
}

/// `## Title` → (2, "Title").
fn atx(line: &str) -> Option<(usize, String)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    // Without HTML comments (MADR's `## Links <!-- optional -->`).
    let mut title = rest.to_string();
    while let Some(open) = title.find("<!--") {
        let close = title[open..].find("-->").map_or(title.len(), |c| open + c + 3);
        title.replace_range(open..close, "");
    }
    Some((level, title.trim().trim_end_matches('#').trim().to_string()))
}

/// YAML-ish front matter (`---` … `---`) as lowercase keys and unquoted values, and the text after it.
fn front_matter(text: &str) -> (Vec<(String, String)>, &str) {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = t.strip_prefix("---\n").or_else(|| t.strip_prefix("---\r\n")) else { return (vec![], t) };
    let Some(end) = rest.find("\n---") else { return (vec![], t) };
    let body = rest[end + 4..].trim_start_matches(['\r']).strip_prefix('\n').unwrap_or(&rest[end + 4..]);
    let pairs = rest[..end]
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().trim_matches(['"', '\'']).to_string()))
        .collect();
    (pairs, body)
}

/// A title as plain words: without a record number (`2.`, `ADR-0002:`), Markdown marks, links or a `|`.
pub fn clean_title(raw: &str) -> String {
    let mut t = raw.trim();
    // The label some teams put before every title (`Architecture Decision Record: Configuration`).
    const LABELS: &[&str] = &[
        "architecture decision record",
        "architectural decision record",
        "architecture decision",
        "architectural decision",
        "decision record",
        "adr",
    ];
    let lower = t.to_ascii_lowercase();
    if let Some(label) = LABELS.iter().find(|l| lower.starts_with(*l)) {
        let rest = t[label.len()..].trim_start_matches(['-', ' ', '_', ':']);
        if rest.chars().any(char::is_alphabetic) && !t[label.len()..].starts_with(char::is_alphabetic) {
            t = rest;
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        let after = &t[digits..];
        if let Some(rest) = after.strip_prefix(['.', ':', ')', '-']).or(after.strip_prefix(' ').filter(|_| true)) {
            t = rest;
        }
    }
    // [text](url) → text; drop `*`, `_` emphasis marks at word edges and backticks.
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '*' => {}
            '[' => {}
            ']' if chars.peek() == Some(&'(') => {
                for x in chars.by_ref() {
                    if x == ')' {
                        break;
                    }
                }
            }
            ']' => {}
            '|' => out.push('-'),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    words.join(" ").trim_start_matches(['/', '.', '#', '-', ':']).trim().to_string()
}
