//! The scope an imported rule carries from where its file sits: a nested `AGENTS.md` or `CLAUDE.md` governs its folder.

/// The scope of a nested `AGENTS.md` or `CLAUDE.md` (`packages/api/AGENTS.md`:
/// `packages/api/**`); None at the root, in a hidden folder (`.claude/CLAUDE.md`
/// is the project's), and for a folder name a glob cannot hold as it is.
pub(super) fn of_folder(path: &str) -> Option<String> {
    let (dir, name) = path.rsplit_once('/')?;
    if !matches!(name, "AGENTS.md" | "CLAUDE.md" | "AGENTS.override.md") || dir.is_empty() {
        return None;
    }
    if dir.split('/').any(|c| c.starts_with('.') || c.is_empty()) || dir.contains([',', '`']) {
        return None;
    }
    let mut out = String::with_capacity(dir.len() + 3);
    for c in dir.chars() {
        if "*?[]{}\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    Some(format!("{out}/**"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nested_agents_file_governs_its_folder() {
        assert_eq!(of_folder("packages/api/AGENTS.md").as_deref(), Some("packages/api/**"));
        assert_eq!(of_folder("web/CLAUDE.md").as_deref(), Some("web/**"));
        assert_eq!(of_folder("AGENTS.md"), None, "the root's governs everything");
        assert_eq!(of_folder(".claude/CLAUDE.md"), None, "the project's own");
        assert_eq!(of_folder("docs/guide.md"), None);
        assert_eq!(of_folder("a[1]/AGENTS.md").as_deref(), Some("a\\[1\\]/**"));
        assert!(crate::text::glob::Glob::parse("a\\[1\\]/**").unwrap().matches("a[1]/x.rs"));
        assert_eq!(of_folder("a,b/AGENTS.md"), None);
    }
}
