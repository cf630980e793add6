//! One unified diff routine for every front end that shows a change instead of writing it.

/// A unified diff of one file (`--- a/PATH` / `+++ b/PATH`, 3 lines of context).
pub fn unified(path: &str, old: &str, new: &str) -> String {
    between(&format!("a/{path}"), &format!("b/{path}"), old, new)
}

/// A unified diff of two texts under the names given (3 lines of context).
pub fn between(old_name: &str, new_name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(old_name, new_name).to_string()
}

/// The unified diff of a whole change made from `base`: created files against nothing, edited files against their text in `base`.
pub fn change(base: &crate::model::Workspace, change: &crate::edit::SourceChange) -> String {
    let mut out = String::new();
    for c in &change.creates {
        out.push_str(&unified(&c.path, "", &c.text));
    }
    for e in &change.edits {
        let Some(old) = base.file_id(&e.path).and_then(|id| base.file(id)).map(|f| f.text.to_string()) else {
            continue;
        };
        let (new, _) = crate::edit::apply(&old, &e.edits);
        out.push_str(&unified(&e.path, &old, &new));
    }
    out
}
