//! One unified diff routine for every front end that shows a change instead of writing it.

/// A unified diff of one file (`--- a/PATH` / `+++ b/PATH`, 3 lines of context).
pub fn unified(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}
