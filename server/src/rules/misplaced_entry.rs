//! `misplaced-entry`: an entry whose heading lives in another file than its section names.

use super::{placement, q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};

pub(crate) const DOC: &str = "An entry sits in the section of one decision file but its heading is \
in another. Fix: move the line into the right section, in heading order, creating the section in \
sorted position when it is missing.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    let placer = placement::Placer::new(ctx.ws);
    for (_, e) in ctx.entries() {
        let Some(h) = e.heading else { continue };
        if e.section_file == Some(h.file) {
            continue;
        }
        let Some(heading) = ctx.ws.heading(h) else {
            continue;
        };
        let l = index.range(e.line);
        let section = e.section.map_or(String::new(), |s| index.sections[s as usize].name_text.clone());
        let target = ctx.path(h.file).to_string();
        let mut f = Finding::new(
            Rule::MisplacedEntry,
            id,
            l,
            format!("entry is in section {} but its heading {} is in {}", q(&section), q(&heading.title), q(&target)),
        )
        .related(h.file, heading.range, "the heading this entry binds");
        if let Some(insert) = placer.as_ref().and_then(|p| p.insert_entry(h, l.slice(&src.text))) {
            f = f.fix(Fix::new(
                format!("Move to section {}", q(&target)),
                Applicability::Safe,
                &src.path,
                vec![TextEdit::delete(index.full(e.line)), insert],
            ));
        }
        out.push(f);
    }
}
