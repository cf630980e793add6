//! `missing-file`: a section names a decision file that does not exist.

use super::{q, Ctx, Finding, Rule, Severity};
use crate::edit::{Applicability, Fix, TextEdit};

pub(crate) const DOC: &str = "An index section (`## path`) names a decision file that does not \
exist (paths are relative to the workspace root). A section with entries is an error; an empty \
one is a warning, and its fix deletes the empty section.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    let text = src.text.as_str();
    for sec in &index.sections {
        let path = sec.path();
        if ctx.ws.file_id(path).and_then(|f| ctx.ws.file(f)).is_some_and(|f| f.decision().is_some()) {
            continue;
        }
        let body = sec.heading_line + 1..sec.end_line;
        let empty = body.clone().all(|l| index.range(l).slice(text).trim().is_empty());
        let heading = index.range(sec.heading_line);
        let range = if sec.name.is_empty() { heading } else { sec.name };
        let what = if path.is_empty() { "no file".to_string() } else { q(path) };
        let dir = &ctx.ws.config().decisions;
        let mut f = Finding::new(
            Rule::MissingFile,
            id,
            range,
            format!("section names {what}, which is not a decision file in {}", q(dir)),
        );
        if empty {
            f.severity = Severity::Warning;
            f.set_message(format!("{} (the section is empty)", f.text()));
            f = f.fix(Fix::new(
                "Delete the empty section",
                Applicability::Safe,
                &src.path,
                vec![TextEdit::delete(index.whole_section(text, sec.heading_line, sec.end_line))],
            ));
        }
        out.push(f);
    }
}
