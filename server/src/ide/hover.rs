//! Hover: the resolver's preview for entries and invocations; indexing status for headings and sections.

use super::target::{self, Target};
use super::{compress, resolve};
use crate::model::{FileId, HeadingId, Workspace};
use crate::search::triggers;
use crate::text::TextRange;

/// Most lines of a section shown in a hover before it is cut.
pub const MAX_LINES: usize = 30;

/// Markdown for the thing at `offset`, with the range it applies to.
pub fn hover(ws: &Workspace, file: FileId, offset: usize) -> Option<(TextRange, String)> {
    if let Some(found) = scope_glob(ws, file, offset) {
        return Some(found);
    }
    match target::at(ws, file, offset)? {
        Target::Entry(id, range) => {
            let e = ws.bindings().entry(id);
            let h = triggers::entry_target(ws, e)?;
            let shown = preview(ws, h)?;
            if e.heading.is_some() {
                return Some((range, shown));
            }
            // An orphan: the resolver's answer is a look-alike, and says so.
            let title = format!("{}{}", e.op.title_prefix(), e.trigger);
            let note = format!(
                "*A guess:* no heading matches `{title}`; the resolver answers with the closest \
                 heading of this section's file:\n\n---\n\n"
            );
            Some((range, note + &shown))
        }
        Target::Invocation(inv) => {
            let f = ws.file(file)?;
            let query = format!("{} {}", inv.op.word(), inv.query.slice(&f.text));
            let range = TextRange::new(inv.op_range.start, inv.query.end);
            match resolve::resolve(ws, &query, false) {
                Ok(r) => match r.heading {
                    Some(h) => Some((range, preview(ws, h)?)),
                    None => Some((range, cut(&r.text))),
                },
                Err(e) => Some((range, e)),
            }
        }
        Target::Heading(h, range) => {
            let b = ws.bindings();
            let index = &ws.config().index;
            let text = match b.entries_of(h).first() {
                Some(&e) => {
                    let e = b.entry(e);
                    format!("Indexed by `{} {}` ({index}:{})", e.op.token(), e.trigger, e.line + 1)
                }
                None => match compress::compress_heading(ws, h) {
                    Some((op, key)) => {
                        format!("Not indexed in {index}. Suggested trigger: `{} {key}` (`compress-key`)", op.token())
                    }
                    None => "Not indexable: the title starts with neither `When ` nor `How to `".to_string(),
                },
            };
            Some((range, text))
        }
        Target::Section(name, range) => {
            let path = crate::syntax::index::section_path(&name);
            let id = ws.file_id(path);
            let title = id.and_then(|id| {
                ws.file(id)?.decision()?.headings.iter().find(|h| h.level == 1).map(|h| h.title.clone())
            });
            let count =
                ws.bindings().entries.iter().filter(|e| e.section_file.is_some() && e.section_file == id).count();
            let text = match (id, title) {
                (Some(_), Some(t)) => format!(
                    "**{t}** ({path}): {count} {} in this section",
                    if count == 1 { "entry" } else { "entries" }
                ),
                (Some(_), None) => {
                    format!("{path}: {count} {} in this section", if count == 1 { "entry" } else { "entries" })
                }
                (None, _) => format!("{path} is not a decision file"),
            };
            let text = format!("{text}{}", section_cost(ws, range.start));
            Some((range, text))
        }
    }
}

/// What the index section at `offset` costs an agent, of the whole index:
/// `; about 340 of the index's 5,186 tokens`.
fn section_cost(ws: &Workspace, offset: usize) -> String {
    let Some((_, src, index)) = ws.index() else { return String::new() };
    let Some(s) = index.section_of(src.line_index.line_of(offset)).map(|s| &index.sections[s]) else {
        return String::new();
    };
    let cost = crate::rules::cost::IndexCost::of(ws);
    let (part, total) = (cost.lines(s.heading_line..s.end_line), cost.total());
    format!("; about {} of the index's {} tokens", crate::text::thousands(part), crate::text::thousands(total))
}

/// The resolver's output for a heading, cut to [`MAX_LINES`]: its title in
/// bold (not a Markdown heading, which editors render large enough to push
/// the body out of a hover), then the body, then `Source: path:line`.
pub fn preview(ws: &Workspace, h: HeadingId) -> Option<String> {
    let heading = ws.heading(h)?;
    let path = &ws.file(h.file)?.path;
    let body = resolve::body_of(ws, h);
    let text = format!("**{}**\n\n{}", heading.title.replace('*', "\\*"), body);
    Some(format!("{}\n\nSource: {path}:{}", cut(&text), heading.line + 1))
}

fn cut(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_LINES {
        return text.trim_end().to_string();
    }
    let mut out = lines[..MAX_LINES].join("\n");
    // Close an open code fence so the rest of the hover renders.
    if out.matches("```").count() % 2 == 1 {
        out.push_str("\n```");
    }
    out.push_str(&format!("\n\n… {} more lines", lines.len() - MAX_LINES));
    out
}

/// Most files a scope's hover names.
pub const SCOPE_FILES: usize = 20;

/// On a glob of a decision's scope line: the project's files it matches
/// (the first [`SCOPE_FILES`]), or why it matches none.
fn scope_glob(ws: &Workspace, file: FileId, offset: usize) -> Option<(TextRange, String)> {
    let d = ws.file(file)?.decision()?;
    let i = d.headings.iter().rposition(|h| h.range.end <= offset && offset <= h.section.end)?;
    let scope = super::scope::of(ws, HeadingId { file, idx: i as u32 })?;
    let g = scope.globs.iter().find(|g| g.range.start <= offset && offset <= g.range.end)?;
    let text = match (&g.parsed, ws.project_files()) {
        (Err(why), _) => format!("`{}` cannot be read: {why}", g.text),
        (Ok(_), None) => {
            format!("`{}`: the project's files were not listed (no scope was found when it loaded)", g.text)
        }
        (Ok(glob), Some(files)) => {
            let hits: Vec<&String> = files.iter().filter(|f| glob.matches(f)).collect();
            match hits.len() {
                0 => format!("`{}` matches no file of the project ({} listed)", g.text, files.len()),
                n => {
                    let mut out =
                        format!("`{}` matches {n} file{} of the project:\n", g.text, if n == 1 { "" } else { "s" });
                    for f in hits.iter().take(SCOPE_FILES) {
                        out.push_str(&format!("\n- `{f}`"));
                    }
                    if n > SCOPE_FILES {
                        out.push_str(&format!("\n- … and {} more", n - SCOPE_FILES));
                    }
                    out
                }
            }
        }
    };
    Some((g.range, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hover_on_a_scope_names_the_files_it_matches() {
        let web = "# Web\n\n## When Writing TypeScript\n\nApplies to files matching `src/**/*.ts`, `web/**`, `[x`.\n";
        let mut ws = Workspace::of_files(&[
            ("agents/memory-index.md", "# Memory Index\n\n## agents/decisions/web.md\n\n/when writing typescript\n"),
            ("agents/decisions/web.md", web),
        ]);
        let file = ws.file_id("agents/decisions/web.md").unwrap();
        let at = |g: &str| web.find(g).unwrap() + 1;
        let on = |ws: &Workspace, g: &str| hover(ws, file, at(g)).map(|(_, t)| t);
        assert!(on(&ws, "src/**").unwrap().contains("were not listed"));
        ws.set_project_files(vec!["README.md".into(), "src/a.ts".into(), "src/b/c.ts".into()]);
        let got = on(&ws, "src/**").unwrap();
        assert!(
            got.starts_with("`src/**/*.ts` matches 2 files of the project:") && got.contains("- `src/b/c.ts`"),
            "{got}"
        );
        assert!(on(&ws, "web/**").unwrap().contains("matches no file of the project (3 listed)"));
        assert!(on(&ws, "[x").unwrap().contains("cannot be read"));
        // Elsewhere on the line: the heading's own hover, or none.
        assert!(!hover(&ws, file, at("Applies")).is_some_and(|(_, t)| t.contains("matches")));
    }
}
