//! How one record is written as a section: its heading from the title, its body cut to a line budget, its `Source:` line, the decision file it goes to.

pub use super::heading::heading_title;
use super::links::relink;
use super::source::{Kind, Record};
use super::Options;
use crate::model::{HeadingId, Workspace};

/// The record's identity line.
pub(super) fn source_line(r: &Record) -> String {
    match r.kind {
        Kind::Sections => match &r.parent {
            Some(parent) => format!("Source: {} § {parent} › {}", r.source, r.title),
            None => format!("Source: {} § {}", r.source, r.title),
        },
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

/// A record's body: its lines, and how many lines of the source's text
/// were left out to keep within the budget (0 when whole).
pub(super) struct Body {
    pub lines: Vec<String>,
    pub cut: usize,
}

/// The body lines of a record, at most `budget` of them before the status and source lines.
///
/// A body over its budget is cut at the last break (a blank line, a list
/// item, a sentence's end) in its last third (else at the last line outside
/// a code block), never inside a code block, and says so: `(N more lines in
/// the source)`.
///
/// Relative links are rewritten to point where they pointed from the source
/// (`up` leads from the decision file's folder back to the root).
pub(super) fn body(r: &Record, budget: usize, status_note: Option<&str>, strip_code: bool, up: &str) -> Body {
    // Every line, and the code block open after it (its fence).
    let mut all: Vec<(String, Option<String>)> = Vec::new();
    let mut fence: Option<String> = None;
    let relink = |line: &str| relink(line, &r.source, up);
    push_text(&mut all, &mut fence, &r.decision, None, strip_code, &relink);
    for (label, text) in &r.more {
        all.push((String::new(), fence.clone()));
        push_text(&mut all, &mut fence, text, Some(label), strip_code, &relink);
    }
    let content = |l: &(String, Option<String>)| !l.0.trim().is_empty();
    // A long table gives its rows first, so that the rules after it stay (found by review: a
    // 90-row table cut the one rule that followed it).
    let rows = if all.len() > budget { shorten_tables(&mut all, budget) } else { 0 };
    let mut cut = 0;
    if all.len() > budget {
        let room = budget.clamp(1, all.len() - 1);
        // Keeping lines [..k] is safe when no code block is open after line k - 1.
        let safe = |k: usize| k == 0 || all[k - 1].1.is_none();
        // A break: before a blank line or a list item, or after a sentence.
        let brk = |k: usize| {
            let (this, prev) = (all[k].0.trim_start(), all[k - 1].0.trim_end());
            this.is_empty()
                || this.starts_with(['-', '*', '+'])
                || this.split_once(". ").is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
                || prev.ends_with(['.', '!', '?', ':'])
        };
        let k = (room * 2 / 3..=room)
            .rev()
            .find(|&k| k > 0 && safe(k) && brk(k))
            .or_else(|| (1..=room).rev().find(|&k| safe(k)))
            .unwrap_or(room);
        let total = all.iter().filter(|l| content(l)).count();
        all.truncate(k);
        cut = total - all.iter().filter(|l| content(l)).count();
        // Closed below when no safe place was found (one long code block).
        fence = all.last().and_then(|l| l.1.clone());
    }
    let mut lines: Vec<String> = all.into_iter().map(|l| l.0).collect();
    if let Some(open) = fence {
        lines.push(open);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if cut > 0 {
        lines.push(String::new());
        lines.push(format!("({cut} more line{} in the source)", if cut == 1 { "" } else { "s" }));
    }
    lines.push(String::new());
    // A record that is no longer in force says so first: an injected
    // decision may show only its first lines. Its links (`Superseded by
    // [7](0007-x.md)`) lead where they led from the source.
    if let Some(s) = status_note {
        lines.splice(0..0, [format!("**Status: {}**", relink(s)), String::new()]);
    }
    if let Some(d) = &r.date {
        lines.push(format!("Date: {d}"));
    }
    lines.push(source_line(r));
    Body { lines, cut: cut + rows }
}

/// Rows of a table (three or more kept: its header, its rule and a row)
/// left out, last first, while `all` is over `budget`, with a row that says
/// how many: the count left out.
fn shorten_tables(all: &mut Vec<(String, Option<String>)>, budget: usize) -> usize {
    let row = |l: &(String, Option<String>)| l.1.is_none() && l.0.trim_start().starts_with('|');
    let mut left_out = 0;
    let mut end = all.len();
    while all.len() > budget && end > 0 {
        // The last table before `end`: its rows [start, stop).
        let Some(last) = all[..end].iter().rposition(row) else { break };
        let stop = last + 1;
        let start = all[..stop].iter().rposition(|l| !row(l)).map_or(0, |i| i + 1);
        let keep = 3;
        let removable = (stop - start).saturating_sub(keep + 1);
        let over = all.len() - budget + 1;
        let n = removable.min(over);
        if n > 1 {
            all.drain(stop - n..stop);
            all.insert(stop - n, (format!("| … ({n} more rows in the source) |"), None));
            left_out += n;
        }
        end = start;
    }
    left_out
}

/// Appends `text`'s lines to `all` (see [`body`]): HTML comments dropped,
/// sub-headings outside code made bold lines, code left out when `strip_code`.
fn push_text(
    all: &mut Vec<(String, Option<String>)>,
    fence: &mut Option<String>,
    text: &str,
    label: Option<&str>,
    strip_code: bool,
    relink: &dyn Fn(&str) -> String,
) {
    let mut first = true;
    for raw in text.trim().lines() {
        let line = raw.trim_end();
        let t = line.trim_start();
        if t.starts_with("<!--") {
            continue;
        }
        let marker: String = t.chars().take_while(|c| *c == '`' || *c == '~').collect();
        let indent = &line[..line.len() - t.len()];
        let was_open = fence.is_some();
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
        let line = if !was_open && fence.is_none() && t.starts_with('#') {
            // Without an HTML comment (log4brains' `### Positive Consequences <!-- optional -->`: found by review).
            let title = t.trim_start_matches('#').split("<!--").next().unwrap_or("").trim();
            if title.is_empty() {
                continue;
            }
            format!("**{}**", relink(title))
        } else if was_open || fence.is_some() {
            line.to_string()
        } else {
            relink(line)
        };
        let open = fence.clone();
        match (first, label) {
            // A list keeps its first item on a line of its own (`Considered options:`, then `- …`).
            (true, Some(l)) if list_item(t) => {
                all.push((format!("{l}:"), None));
                all.push((line, open));
            }
            (true, Some(l)) => all.push((format!("{l}: {}", line.trim_start()), open)),
            _ => all.push((line, open)),
        }
        first = false;
    }
}

/// Whether a line (without its indent) starts a list item: `- `, `* `, `+ `, `1. `, `1) `.
fn list_item(t: &str) -> bool {
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    t.starts_with(['-', '*', '+']) && t[1..].starts_with(' ')
        || (1..=9).contains(&digits) && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "))
}

/// The section import writes for `r` under `heading` at `level`, and its
/// body: with its code when that keeps the decision file's structure, else
/// without it (a fence inside a list item cannot be cut cleanly); None when
/// neither does.
pub(super) fn written(
    r: &Record,
    budget: usize,
    status: Option<&str>,
    up: &str,
    level: usize,
    heading: &str,
    nl: &str,
) -> Option<(String, Body)> {
    [false, true].into_iter().find_map(|strip| {
        let b = body(r, budget, status, strip, up);
        let section = format!("{} {heading}{nl}{nl}{}{nl}", "#".repeat(level), b.lines.join(nl));
        keeps_structure(&section, level, nl).then_some((section, b))
    })
}

/// Whether `section` (one heading of `level` and its body) is read as exactly that
/// heading and ends closed: a probe heading after it is read as a heading.
pub(super) fn keeps_structure(section: &str, level: usize, nl: &str) -> bool {
    let probe = format!("{section}{nl}{} Probe{nl}", "#".repeat(level));
    let d = crate::syntax::decision::parse(&probe);
    let top: Vec<_> = d.headings.iter().filter(|h| usize::from(h.level) <= level).collect();
    top.len() == 2 && top[1].title == "Probe"
}

/// The text of heading `h`'s section in the file at `path` (None when either is gone).
pub(super) fn section_text<'a>(ws: &'a Workspace, path: &str, h: HeadingId) -> Option<&'a str> {
    let hd = ws.heading(h)?;
    ws.file_id(path).and_then(|id| ws.file(id))?.text.get(hd.section.start..hd.section.end)
}

/// Why `heading` cannot head a decision import writes: `taken` by another
/// decision, holding a character `remember` refuses in a title (zero-width,
/// bidirectional: unseen in the index, or reordering what is shown; found
/// by review: import took them in as they were), or not read back as written.
pub(super) fn unfit(heading: &str, taken: bool) -> Option<String> {
    let shown = crate::recall::remember::shown(heading);
    if let Err(why) = crate::recall::remember::plain_text("its title", heading) {
        return Some(format!("`{shown}`: {why} in the source"));
    }
    if !reads_back(heading) {
        return Some(format!("`{shown}` would not be read back as written"));
    }
    // A trigger the index reads as a lookup (`.Title`, `..file.md`) or as nothing binds no heading.
    match crate::rules::placement::trigger_from_title(heading) {
        Some((_, t)) if !t.trim().is_empty() && !t.starts_with('.') => {}
        _ => return Some(format!("`{shown}` gives no trigger that could find it (one starting with `.` is a lookup)")),
    }
    taken.then(|| format!("`{shown}` is the heading of another decision"))
}

/// Whether a decision file reads `## heading` back as a heading of that
/// very title (a title made of markup reads back as other words, and the
/// run would stop at its entry: found by review).
pub(super) fn reads_back(heading: &str) -> bool {
    crate::syntax::decision::parse(&format!("## {heading}\n")).headings.first().is_some_and(|h| h.title == heading)
}
