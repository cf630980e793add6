//! A rules file's records: its sections at the rule level (a long one split into its sub-sections), a headless Cursor or Copilot rule as one, each scoped as its front matter or its folder says.

use super::title::{humane_stem, is_contents};
use super::Section;
use super::{clean_title, scope, Kind, Record, Refused, NOTHING, SPLIT_LINES};

/// The sections that can be rules (a single `# ` heading is the file's
/// title, not a rule, unless nothing else is headed), and the rule level:
/// the shallowest of theirs.
pub(super) fn rule_level(sections: &[Section]) -> (Vec<&Section>, Option<usize>) {
    let h1s = sections.iter().filter(|s| s.level == 1).count();
    let ruled: Vec<&Section> = sections.iter().filter(|s| !(s.level == 1 && h1s == 1)).collect();
    let level = ruled.iter().map(|s| s.level).min();
    (ruled, level)
}

/// The records of a rules file (see the module docs, **Sections**).
pub(super) fn rules(
    path: &str,
    name: &str,
    front: &[(String, String)],
    body: &str,
    sections: &[Section],
    split_before: &dyn Fn(&str) -> bool,
) -> Result<Vec<Record>, Refused> {
    let h1s = sections.iter().filter(|s| s.level == 1).count();
    let (ruled, level) = rule_level(sections);
    let mut picked: Vec<&Section> = match level {
        Some(l) => ruled.into_iter().filter(|s| s.level == l).collect(),
        None => sections.iter().filter(|s| s.level == 1).collect(),
    };
    // A long section with sub-sections: its own text first, then each sub-section.
    let file_title = sections
        .iter()
        .find(|s| s.level == 1 && h1s == 1)
        .map(|s| s.title.clone())
        .or_else(|| front.iter().find(|(k, _)| k == "description").map(|(_, v)| v.clone()))
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| humane_stem(name));
    let mut split: Vec<(String, String, String, bool)> = Vec::new(); // (title, text, context, split from it)
    for s in picked.drain(..) {
        let subs: Vec<&Section> =
            sections.iter().filter(|c| c.level == s.level + 1 && c.from > s.from && c.from < s.until).collect();
        let long = s.text.lines().filter(|l| !l.trim().is_empty()).count() > SPLIT_LINES
            || split_before(&clean_title(&s.title));
        if long && !subs.is_empty() {
            // Its own text runs to its first sub-section, deeper headings before it included
            // (`#### Note` under `## A` before `### Sub`: found by review, it was lost).
            let own: String = s.text.lines().take(subs[0].from - s.from - s.lines).map(|l| format!("{l}\n")).collect();
            if !own.trim().is_empty() {
                split.push((s.title.clone(), own, file_title.clone(), false));
            }
            for c in subs {
                split.push((c.title.clone(), c.text.clone(), s.title.clone(), true));
            }
        } else {
            split.push((s.title.clone(), s.text.clone(), file_title.clone(), false));
        }
    }
    let mut records: Vec<Record> = split
        .into_iter()
        .filter(|(title, text, _, _)| !text.trim().is_empty() && !is_contents(title))
        .map(|(title, text, context, sub)| (clean_title(&title), text, clean_title(&context), sub))
        .filter(|(title, _, _, _)| !title.is_empty())
        .enumerate()
        .map(|(i, (title, text, context, sub))| Record {
            source: path.into(),
            part: i,
            kind: Kind::Sections,
            title,
            status: None,
            date: None,
            parent: Some(context.clone()).filter(|c| sub && !c.is_empty()),
            context: Some(context).filter(|c| !c.is_empty()),
            decision: text.trim().to_string(),
            more: vec![],
        })
        .collect();
    if records.is_empty() && sections.is_empty() {
        records.extend(headless_rule(path, name, front, body));
    }
    scope_records(path, front, &mut records);
    if records.is_empty() {
        return Err(Refused::empty(if !sections.is_empty() {
            format!("its headed sections hold no text (only headings or a table of contents): {NOTHING}")
        } else {
            format!("no title and no headed section: {NOTHING} (an ADR starts with `# Title`, a rules file has headed sections)")
        }));
    }
    Ok(records)
}

/// A rules file without headings (a Cursor, Windsurf, Cline or Copilot rule): one record, named by its description or its file name.
fn headless_rule(path: &str, name: &str, front: &[(String, String)], body: &str) -> Option<Record> {
    // Cursor's, Windsurf's, Cline's and Copilot's rules files (found by review: a Copilot
    // `*.instructions.md` without a heading was refused).
    let plain_rules = name.ends_with(".mdc")
        || name.starts_with('.') && name.ends_with("rules")
        || name.ends_with("instructions.md")
        || [".cursor/rules", ".clinerules/"].iter().any(|d| path.contains(d));
    if !plain_rules || body.trim().is_empty() {
        return None;
    }
    let title = front
        .iter()
        .find(|(k, _)| k == "description")
        .map(|(_, v)| clean_title(v))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| humane_stem(name));
    Some(Record {
        source: path.into(),
        part: 0,
        kind: Kind::Sections,
        title,
        status: None,
        date: None,
        context: None,
        parent: None,
        decision: body.trim().to_string(),
        more: vec![],
    })
}

/// Records of a rule scoped to some files start with the scope line: a Cursor rule's `globs`, a Copilot file's `applyTo`, a nested AGENTS.md's or CLAUDE.md's folder.
fn scope_records(path: &str, front: &[(String, String)], records: &mut [Record]) {
    // A Cursor rule scoped to some files says so first: imported, it would read as global
    // (found by review: `globs: src/**/*.ts` was dropped).
    // (Cursor applies a rule with `alwaysApply: true` everywhere, whatever its globs say.)
    let always = front.iter().any(|(k, v)| k == "alwaysapply" && v.trim() == "true");
    // Copilot's `applyTo` says the same (`**` is every file).
    let globs = front
        .iter()
        .find(|(k, _)| k == "globs" || k == "applyto")
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty() && !always && !matches!(v.as_str(), "**" | "**/*" | "*"));
    // A nested AGENTS.md or CLAUDE.md governs its folder (the agents read it there only).
    if let Some(g) = globs.or_else(|| scope::of_folder(path)) {
        for r in records.iter_mut() {
            r.decision = format!("Applies to files matching `{g}`.\n\n{}", r.decision);
        }
    }
}
