//! How one record is written as a section: its heading from the title, its body cut to a line budget, its `Source:` line, the decision file it goes to.

use super::source::{Kind, Record};
use super::Options;
use crate::syntax::index::Op;

/// The heading for a record's title (see the module docs).
pub fn heading_title(kind: Kind, title: &str) -> String {
    if let Some((op, rest)) = Op::split_title(title) {
        return format!("{}{}", op.title_prefix(), rest);
    }
    let (first, rest) = title.split_once(' ').unwrap_or((title, ""));
    // `Use of admission policy` is a noun phrase, not an imperative.
    let noun_phrase = rest.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case("of"));
    if let Some(ing) = gerund(first).filter(|_| !noun_phrase) {
        return format!("When {ing}{}{rest}", if rest.is_empty() { "" } else { " " });
    }
    let lead = if kind == Kind::Sections { "When Working On" } else { "When Deciding" };
    format!("{lead} {title}")
}

/// `Use` → `Using`, `Split` → `Splitting`, for the verbs decisions start with; None for other words.
pub(super) fn gerund(word: &str) -> Option<String> {
    const VERBS: &[&str] = &[
        "add",
        "adopt",
        "allow",
        "apply",
        "archive",
        "automate",
        "avoid",
        "block",
        "build",
        "cache",
        "centralise",
        "centralize",
        "change",
        "choose",
        "consolidate",
        "create",
        "define",
        "decommission",
        "delete",
        "deploy",
        "deprecate",
        "disable",
        "distribute",
        "document",
        "drop",
        "enable",
        "encrypt",
        "enforce",
        "expose",
        "give",
        "handle",
        "host",
        "implement",
        "introduce",
        "keep",
        "limit",
        "log",
        "maintain",
        "make",
        "manage",
        "merge",
        "migrate",
        "monitor",
        "move",
        "name",
        "pin",
        "prefer",
        "publish",
        "put",
        "record",
        "reduce",
        "remove",
        "rename",
        "replace",
        "require",
        "restructure",
        "retire",
        "reuse",
        "rotate",
        "run",
        "separate",
        "serve",
        "set",
        "share",
        "split",
        "standardise",
        "standardize",
        "store",
        "switch",
        "support",
        "test",
        "track",
        "treat",
        "upgrade",
        "use",
        "validate",
        "verify",
        "version",
        "write",
    ];
    let lower = word.to_lowercase();
    if !VERBS.contains(&lower.as_str()) {
        return None;
    }
    let b = lower.as_bytes();
    let vowel = |c: u8| b"aeiou".contains(&c);
    let one_syllable = lower.bytes().filter(|&c| vowel(c)).count() == 1;
    let ing = if lower.ends_with("ie") {
        format!("{}ying", &lower[..lower.len() - 2])
    } else if lower.ends_with('e') && !lower.ends_with("ee") && lower.len() > 2 {
        format!("{}ing", &lower[..lower.len() - 1])
    } else if one_syllable
        && b.len() >= 3
        && !vowel(b[b.len() - 1])
        && !b"wxy".contains(&b[b.len() - 1])
        && vowel(b[b.len() - 2])
        && !vowel(b[b.len() - 3])
    {
        format!("{lower}{}ing", &lower[lower.len() - 1..])
    } else {
        format!("{lower}ing")
    };
    let mut c = ing.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect())
}

/// The record's identity line.
pub(super) fn source_line(r: &Record) -> String {
    match r.kind {
        Kind::Sections => format!("Source: {} § {}", r.source, r.title),
        _ => format!("Source: {}", r.source),
    }
}

/// The decision file a record goes to (a name inside the decisions directory).
pub(super) fn file_for(r: &Record, opts: &Options) -> String {
    if let Some(f) = &opts.file {
        let f = f.trim();
        return if f.ends_with(".md") { f.to_string() } else { format!("{f}.md") };
    }
    match r.kind {
        Kind::Nygard | Kind::Madr => "architecture-decisions.md".into(),
        Kind::Sections => {
            let name = r.source.rsplit('/').next().unwrap_or(&r.source);
            let stem = name.split('.').next().unwrap_or(name).to_lowercase();
            let stem: String = stem.chars().map(|c| if c.is_alphanumeric() || c == '-' { c } else { '-' }).collect();
            format!("{}.md", if stem.is_empty() { "rules" } else { &stem })
        }
    }
}

/// The body lines of a record, at most `budget` of them before the status and source lines.
pub(super) fn body(r: &Record, budget: usize, status_note: Option<&str>, strip_code: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<String> = None;
    let push_text = |out: &mut Vec<String>, text: &str, label: Option<&str>, fence: &mut Option<String>| -> bool {
        let mut first = true;
        for raw in text.trim().lines() {
            if out.len() >= budget {
                return false;
            }
            let line = raw.trim_end();
            let t = line.trim_start();
            if t.starts_with("<!--") {
                continue;
            }
            let marker: String = t.chars().take_while(|c| *c == '`' || *c == '~').collect();
            let indent = &line[..line.len() - t.len()];
            if marker.len() >= 3 {
                match fence.as_deref() {
                    None => *fence = Some(format!("{indent}{marker}")),
                    Some(open) if marker.starts_with(open.trim_start()) => *fence = None,
                    _ => {}
                }
                if strip_code {
                    continue;
                }
            } else if strip_code && fence.is_some() {
                continue;
            }
            let line = if fence.is_none() && t.starts_with('#') {
                let title = t.trim_start_matches('#').trim();
                if title.is_empty() {
                    continue;
                }
                format!("**{title}**")
            } else {
                line.to_string()
            };
            match (first, label) {
                (true, Some(l)) => out.push(format!("{l}: {}", line.trim_start())),
                _ => out.push(line),
            }
            first = false;
        }
        true
    };
    let mut whole = push_text(&mut out, &r.decision, None, &mut fence);
    for (label, text) in &r.more {
        if !whole || out.len() + 2 > budget {
            break;
        }
        out.push(String::new());
        whole = push_text(&mut out, text, Some(label), &mut fence);
    }
    if let Some(open) = fence {
        out.push(open);
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.push(String::new());
    if let Some(s) = status_note {
        out.push(format!("Status: {s}"));
    }
    if let Some(d) = &r.date {
        out.push(format!("Date: {d}"));
    }
    out.push(source_line(r));
    out
}

/// Whether `section` (one heading of `level` and its body) is read as exactly that
/// heading and ends closed: a probe heading after it is read as a heading.
pub(super) fn keeps_structure(section: &str, level: usize, nl: &str) -> bool {
    let probe = format!("{section}{nl}{} Probe{nl}", "#".repeat(level));
    let d = crate::syntax::decision::parse(&probe);
    let top: Vec<_> = d.headings.iter().filter(|h| usize::from(h.level) <= level).collect();
    top.len() == 2 && top[1].title == "Probe"
}
