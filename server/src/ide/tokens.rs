//! Semantic tokens: operators, triggers, separators, extras and section paths in the index, invocations elsewhere.

use crate::model::{FileId, Workspace};
use crate::rules::Finding;
use crate::syntax::index::LineKind;
use crate::syntax::invocation;
use crate::text::TextRange;

/// Token types, in the order the server declares them in its legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TokenType {
    Operator,
    Trigger,
    Separator,
    Extra,
    SectionPath,
}

pub const LEGEND: &[&str] = &["keyword", "function", "operator", "string", "namespace"];

/// Modifier bit set on tokens of entries that have findings.
pub const MODIFIER_PROBLEM: u32 = 1;
pub const MODIFIERS: &[&str] = &["deprecated"];

impl TokenType {
    pub fn index(self) -> u32 {
        match self {
            TokenType::Operator => 0,
            TokenType::Trigger => 1,
            TokenType::Separator => 2,
            TokenType::Extra => 3,
            TokenType::SectionPath => 4,
        }
    }
}

/// Tokens of `file` in order (single-line ranges), with their modifier bits.
pub fn tokens(ws: &Workspace, file: FileId, findings: &[Finding]) -> Vec<(TextRange, TokenType, u32)> {
    let Some(f) = ws.file(file) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(index) = f.index() {
        for l in index.lines() {
            match &l.kind {
                LineKind::SectionHeading(s) => out.push((index.sections[*s].name, TokenType::SectionPath, 0)),
                LineKind::Entry(e) => {
                    let bad = findings
                        .iter()
                        .any(|x| x.file == file && l.range.start <= x.range.start && x.range.start <= l.range.end);
                    let m = if bad { MODIFIER_PROBLEM } else { 0 };
                    out.push((e.op_range, TokenType::Operator, m));
                    if !e.trigger.is_empty() {
                        out.push((e.trigger, TokenType::Trigger, m));
                    }
                    if let Some(bar) = e.bar {
                        out.push((TextRange::new(bar, bar + 1), TokenType::Separator, m));
                    }
                    out.extend(e.extras.iter().filter(|x| !x.is_empty()).map(|&x| (x, TokenType::Extra, m)));
                }
                _ => {}
            }
        }
        return out;
    }
    for inv in invocation::scan(&f.text) {
        out.push((inv.op_range, TokenType::Operator, 0));
        out.push((inv.query, TokenType::Trigger, 0));
    }
    out
}
