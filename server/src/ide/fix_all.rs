//! Fix-all: applies every safe fix until none is left; what `fix` and `source.fixAll` share.
//!
//! Rounds: check, take the safe fixes whose edits do not conflict with one
//! already taken this round (and that touch no file with a
//! [`FileProblem`](crate::model::FileProblem), which is never rewritten),
//! apply them, re-check. Stops when a round applies nothing (at most
//! [`MAX_ROUNDS`]). Each fix touches only its own finding's lines, so the
//! result is lossless; running it again changes nothing.

use std::collections::BTreeMap;

use crate::edit::{self, SourceChange, TextEdit};
use crate::model::Workspace;
use crate::rules::{self, Rule};

/// Upper bound on re-check rounds (each round applies at least one fix).
pub const MAX_ROUNDS: usize = 16;

/// What fix-all did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixAllResult {
    /// The change from the texts before fix-all to the texts after, one
    /// minimal edit per changed file.
    pub change: SourceChange,
    /// (rule, fix title) of every applied fix, in order.
    pub applied: Vec<(Rule, String)>,
}

/// Applies every safe fix to `ws` in place and returns the change (made from
/// `ws` as it was before).
pub fn fix_all(ws: &mut Workspace) -> FixAllResult {
    let mut result = FixAllResult::default();
    let mut originals: BTreeMap<String, String> = BTreeMap::new();
    for _ in 0..MAX_ROUNDS {
        // Only rules with safe fixes: the others' findings are never applied.
        let findings = rules::check_fixable(ws);
        let mut taken: BTreeMap<String, Vec<TextEdit>> = BTreeMap::new();
        let mut applied_now = 0;
        for f in &findings {
            let Some(fix) = f.safe_fix() else { continue };
            let writable = fix
                .change
                .edits
                .iter()
                .all(|c| ws.file_id(&c.path).and_then(|id| ws.file(id)).is_some_and(|file| file.problem.is_none()));
            let clashes = fix.change.edits.iter().any(|c| {
                let prior = taken.get(&c.path).map_or(&[][..], Vec::as_slice);
                c.edits.iter().any(|e| prior.iter().any(|p| edit::conflicts(e, p)))
            });
            if !writable || clashes {
                continue;
            }
            for c in &fix.change.edits {
                taken.entry(c.path.clone()).or_default().extend(c.edits.iter().cloned());
            }
            result.applied.push((f.rule, fix.title.clone()));
            applied_now += 1;
        }
        if applied_now == 0 {
            break;
        }
        for (path, edits) in taken {
            let Some(file) = ws.file_id(&path).and_then(|id| ws.file(id)) else {
                continue;
            };
            let (new_text, _) = edit::apply(&file.text, &edits);
            originals.entry(path.clone()).or_insert_with(|| file.text.clone());
            ws.set_file(&path, new_text.into());
        }
    }
    for (path, old) in originals {
        if let Some(file) = ws.file_id(&path).and_then(|id| ws.file(id)) {
            result.change.replace_text(&path, &old, &file.text);
        }
    }
    result
}
