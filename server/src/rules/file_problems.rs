//! `invalid-utf8`, `unreadable-file`, `invalid-config`: files the checker could not take as they are.

use super::{Ctx, Finding, Rule};
use crate::model::FileProblem;
use crate::text::TextRange;

pub(crate) const DOC: &str = "A file the checker could not take as it is (the three rules share this \
page). `invalid-utf8`: the file is not valid UTF-8; the rest is checked from a lossy copy and the file \
is never rewritten: re-save it as UTF-8. `unreadable-file`: the file could not be read (check its \
permissions, or whether it is a file at all) or is larger than `max-file-bytes`. `invalid-config`: a \
key of `memory-index.toml` is unknown or its value is of the wrong type or out of range; that key is \
ignored, every other key applies, and the finding sits at the key. Text that is not TOML at all \
leaves every default in place until it is fixed.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (id, f) in ctx.ws.files() {
        match &f.problem {
            Some(FileProblem::InvalidUtf8 { offset }) => out.push(Finding::new(
                Rule::InvalidUtf8,
                id,
                TextRange::new(*offset, (*offset + 3).min(f.text.len())),
                format!("{} is not valid UTF-8 (first bad byte at offset {offset}); it is checked from a lossy copy and never rewritten: re-save it as UTF-8", f.path),
            )),
            Some(FileProblem::Unreadable(why)) => out.push(Finding::new(
                Rule::UnreadableFile,
                id,
                TextRange::empty(0),
                format!("cannot read {}: {why}", f.path),
            )),
            None => {}
        }
    }
    if let Some(id) = ctx.ws.file_id(ctx.ws.config_path()) {
        for e in ctx.ws.config_errors() {
            out.push(Finding::new(Rule::InvalidConfig, id, e.range, e.message.clone()));
        }
    }
}
