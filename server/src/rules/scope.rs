//! `invalid-scope`, `unmatched-scope`: a decision's scope line (`Applies to files matching `src/**/*.ts`.`) that names no file it could apply to.

use super::{Ctx, Finding, Rule};
use crate::syntax::scope::find;
use crate::text::TextRange;

pub(crate) const DOC: &str = "A decision's scope line (``Applies to files matching `src/**/*.ts`.``, \
the decision's files for the agent hook) that cannot work (the two rules share this page). \
`invalid-scope`: a glob that cannot be read (an unclosed `[` or `{`, a `!` negation, a `..` out of the \
project), or a scope line with no glob in backticks: the hook never injects the decision for a file; \
fix the glob as the message says. `unmatched-scope`: a glob that matches no file of the project (listed \
with git when the project is a repository, else by walking it): a typo, or files that moved; correct \
the glob, or ignore the warning when the files are yet to be written. docs/rules.md (\"Scopes\") says \
how a glob reads.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (file, src, d) in ctx.ws.decisions() {
        if !ctx.covers_file(file) {
            continue;
        }
        for h in &d.headings {
            if !h.is_semantic() {
                continue;
            }
            let Some(scope) = find(&src.text, TextRange::new(h.range.end, h.section.end)) else { continue };
            if scope.globs.is_empty() {
                out.push(Finding::new(
                    Rule::InvalidScope,
                    file,
                    scope.line,
                    format!("the scope of `{}` names no glob: write each in backticks (Applies to files matching `src/**/*.ts`.)", h.name()),
                ));
            }
            for g in &scope.globs {
                match &g.parsed {
                    Err(why) => out.push(Finding::new(
                        Rule::InvalidScope,
                        file,
                        g.range,
                        format!(
                            "the scope of `{}` cannot be read: {why}; it matches no file until it is fixed",
                            h.name()
                        ),
                    )),
                    Ok(glob) => {
                        let Some(files) = ctx.ws.project_files() else { continue };
                        if !files.iter().any(|f| glob.matches(f)) {
                            out.push(Finding::new(
                                Rule::UnmatchedScope,
                                file,
                                g.range,
                                format!(
                                    "`{}` in the scope of `{}` matches no file of the project ({} listed): a typo, or files that moved?",
                                    g.text,
                                    h.name(),
                                    files.len()
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
}
