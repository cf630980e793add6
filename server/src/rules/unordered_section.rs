//! `unordered-section`: a section's bound entries are not in the order of their headings.

use super::{q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};

pub(crate) const DOC: &str = "The entries of a section are not in the order their headings appear \
in the decision file. Only entries bound to a heading of that file count; other lines keep their \
place. Fix: reorder those entry lines (nothing else moves, nothing is lost).";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    // Entries are in line order, so each section's entries are one contiguous run.
    let entries = &ctx.b().entries;
    let runs: Vec<(usize, std::ops::Range<usize>)> = match ctx.scope {
        Some(scope) => scope
            .sections
            .iter()
            .filter_map(|&s| {
                let sec = index.sections.get(s)?;
                let first = entries.partition_point(|e| e.line <= sec.heading_line);
                let last = entries.partition_point(|e| e.line < sec.end_line).max(first);
                Some((s, first..last))
            })
            .collect(),
        None => {
            let mut runs = Vec::new();
            let mut start = 0;
            while start < entries.len() {
                let section = entries[start].section;
                let end = start + entries[start..].iter().take_while(|e| e.section == section).count();
                if let Some(s) = section {
                    runs.push((s as usize, start..end));
                }
                start = end;
            }
            runs
        }
    };
    for (s, run) in runs {
        let run = &entries[run];
        let sec = &index.sections[s];
        // (line, heading idx) of the correctly placed, bound entries, in line order.
        let slots: Vec<(usize, u32)> = run
            .iter()
            .filter_map(|e| Some((e.line, e.heading.filter(|h| Some(h.file) == e.section_file)?.idx)))
            .collect();
        let mut sorted = slots.clone();
        sorted.sort_by_key(|&(_, h)| h); // stable: equal headings keep their order
        let Some(first) = (0..slots.len()).find(|&i| slots[i].0 != sorted[i].0) else {
            continue;
        };
        let edits: Vec<TextEdit> = (0..slots.len())
            .filter(|&i| slots[i].0 != sorted[i].0)
            .map(|i| TextEdit::replace(index.range(slots[i].0), index.range(sorted[i].0).slice(&src.text)))
            .collect();
        let l = index.range(slots[first].0);
        let should = index.range(sorted[first].0).slice(&src.text).trim();
        let file = run.first().and_then(|e| e.section_file);
        let mut f = Finding::new(
            Rule::UnorderedSection,
            id,
            l,
            format!(
                "entries of section {} are not in heading order: {} should come first here",
                q(&sec.name_text),
                q(should)
            ),
        )
        .fix(Fix::new("Sort the section's entries in heading order", Applicability::Safe, &src.path, edits));
        let heading =
            file.and_then(|file| Some((file, ctx.ws.heading(crate::model::HeadingId { file, idx: sorted[first].1 })?)));
        if let Some((file, h)) = heading {
            f = f.related(file, h.range, "the heading that comes first");
        }
        out.push(f);
    }
}
