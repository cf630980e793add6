//! Decisions scoped to files (`syntax::scope`): which decisions carry a scope, which apply to a path, which of the project's files a scope matches, and an agent's path made project-relative.

use std::sync::Arc;

use crate::model::{Depends, EntryId, HeadingId, Workspace};
use crate::syntax::scope::{find, Scope};
use crate::text::TextRange;

/// A decision with a scope line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoped {
    pub heading: HeadingId,
    /// The first entry bound to it (None: not indexed, never injected).
    pub entry: Option<EntryId>,
    pub scope: Scope,
}

/// The scope line of the decision `id`, if it has one.
pub fn of(ws: &Workspace, id: HeadingId) -> Option<Scope> {
    let h = ws.heading(id)?;
    let f = ws.file(id.file)?;
    find(&f.text, TextRange { start: h.range.end, end: h.section.end })
}

/// Every semantic decision with a scope line, in file order; built once per state.
pub fn all(ws: &Workspace) -> Arc<Vec<Scoped>> {
    ws.cached(Depends::IndexAndDecisions, |ws| {
        let mut out = Vec::new();
        for (file, f, d) in ws.decisions() {
            if !crate::syntax::scope::mentions(&f.text) {
                continue;
            }
            for (i, h) in d.headings.iter().enumerate() {
                let id = HeadingId { file, idx: i as u32 };
                if !h.is_semantic() {
                    continue;
                }
                if let Some(scope) = find(&f.text, TextRange { start: h.range.end, end: h.section.end }) {
                    let entry = ws.bindings().entries_of(id).first().copied();
                    out.push(Scoped { heading: id, entry, scope });
                }
            }
        }
        out
    })
}

/// The indexed decisions whose scope holds the project-relative `path`, in file order.
pub fn applying(ws: &Workspace, path: &str) -> Vec<(EntryId, HeadingId)> {
    all(ws).iter().filter(|s| s.scope.matches(path)).filter_map(|s| Some((s.entry?, s.heading))).collect()
}

/// The files of `files` (project-relative) in `scope`.
pub fn matched<'a>(scope: &'a Scope, files: &'a [String]) -> impl Iterator<Item = &'a String> + 'a {
    files.iter().filter(|f| scope.matches(f))
}

/// `path` as an agent names it (absolute, or relative to `cwd`), relative to
/// the project folder `root` (absolute), with `.` and `..` resolved by name
/// (no file is read); None when it is outside the project or empty. A
/// Windows path is read with `\` as `/` and its drive letter in any case.
pub fn relative(root: &str, cwd: Option<&str>, path: &str) -> Option<String> {
    let slash = |p: &str| {
        let p = p.replace('\\', "/");
        // `C:/x` and `c:/x` are one place.
        match p.as_bytes() {
            [d, b':', ..] if d.is_ascii_alphabetic() => format!("{}{}", (*d as char).to_ascii_lowercase(), &p[1..]),
            _ => p,
        }
    };
    let (root, path) = (slash(root), slash(path));
    let absolute = |p: &str| p.starts_with('/') || p.as_bytes().get(1) == Some(&b':');
    let joined =
        if absolute(&path) { path } else { format!("{}/{path}", cwd.map(slash).unwrap_or_else(|| root.clone())) };
    let mut comps: Vec<&str> = Vec::new();
    for c in joined.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                comps.pop()?;
            }
            c => comps.push(c),
        }
    }
    let root: Vec<&str> = root.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
    if comps.len() <= root.len() || comps[..root.len()] != root[..] {
        return None;
    }
    Some(comps[root.len()..].join("/"))
}

/// The words of a project-relative path that may name what a decision is
/// about (`server/src/hook/dialect.rs` gives `hook dialect`): its folder and
/// file names split at punctuation and case changes, without the extension
/// and the words every project's paths hold (`src`, `lib`, `index`, …).
pub fn path_words(path: &str) -> String {
    const COMMON: [&str; 23] = [
        "src", "lib", "libs", "app", "apps", "pkg", "packages", "internal", "cmd", "index", "main", "mod", "init",
        "server", "core", "common", "utils", "util", "dist", "build", "out", "tmp", "vendor",
    ];
    let stemless = match path.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/{}", name.split('.').next().unwrap_or(name)),
        None => path.split('.').next().unwrap_or(path).to_string(),
    };
    let mut words: Vec<String> = Vec::new();
    for part in stemless.split(|c: char| !c.is_alphanumeric()) {
        let mut word = String::new();
        let mut prev_lower = false;
        for c in part.chars() {
            if c.is_uppercase() && prev_lower {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        }
        words.push(word);
    }
    words.retain(|w| w.len() > 1 && !COMMON.contains(&w.as_str()) && !w.chars().all(|c| c.is_ascii_digit()));
    words.dedup();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_as_agents_name_them() {
        let root = "/home/me/proj";
        assert_eq!(relative(root, None, "/home/me/proj/src/app.ts").as_deref(), Some("src/app.ts"));
        assert_eq!(relative(root, Some("/home/me/proj/src"), "./app.ts").as_deref(), Some("src/app.ts"));
        assert_eq!(relative(root, Some("/home/me/proj"), "src/../lib/x.rs").as_deref(), Some("lib/x.rs"));
        assert_eq!(relative(root, None, "/home/me/other/app.ts"), None);
        assert_eq!(relative(root, None, "/home/me/projector/app.ts"), None, "a sibling sharing a prefix");
        assert_eq!(relative(root, None, "/home/me/proj"), None);
        assert_eq!(relative(root, Some("/"), "../../x"), None);
        assert_eq!(relative("/", None, "/etc/hosts").as_deref(), Some("etc/hosts"));
        // Windows: backslashes, and a drive letter in either case.
        assert_eq!(relative("C:\\proj", Some("C:\\proj"), "c:\\proj\\src\\a.ts").as_deref(), Some("src/a.ts"));
        assert_eq!(relative("C:\\proj", Some("C:\\proj\\src"), "a.ts").as_deref(), Some("src/a.ts"));
        assert_eq!(relative("C:\\proj", None, "D:\\proj\\a.ts"), None);
    }

    #[test]
    fn the_words_of_a_path() {
        assert_eq!(path_words("server/src/hook/dialect.rs"), "hook dialect");
        assert_eq!(path_words("src/components/BookingClient.test.tsx"), "components booking client");
        assert_eq!(path_words("migrations/0042_add_prices.py"), "migrations add prices");
        assert_eq!(path_words("index.ts"), "");
    }

    #[test]
    fn decisions_apply_to_the_files_their_scope_names() {
        let ws = Workspace::of_files(&[
            (
                "agents/memory-index.md",
                "# Memory Index\n\n## agents/decisions/web.md\n\n/when writing typescript | strict mode\n/when styling pages\n",
            ),
            (
                "agents/decisions/web.md",
                "# Web\n\n## When Writing TypeScript\n\nApplies to files matching `src/**/*.ts`.\n\nUse strict mode.\n\n## When Styling Pages\n\nUse tokens.\n",
            ),
        ]);
        let got = applying(&ws, "src/a/b.ts");
        assert_eq!(got.len(), 1);
        assert_eq!(ws.heading(got[0].1).unwrap().title, "When Writing TypeScript");
        assert!(applying(&ws, "src/a/b.css").is_empty());
        assert!(applying(&ws, "lib/b.ts").is_empty());
        let files = vec!["README.md".to_string(), "src/x.ts".to_string(), "src/y/z.ts".to_string()];
        assert_eq!(matched(&all(&ws)[0].scope, &files).count(), 2);
    }
}
