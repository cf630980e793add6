//! Tidy: the architecture rules of the crate, checked on its source.
//!
//! - no `.unwrap()` / `.expect(` outside test code (tests sit after `#[cfg(test)]`
//!   at the bottom of a file, or in `tests.rs` files): data from files or the
//!   client must never be able to panic the server;
//! - every module starts with a `//!` line saying what it owns;
//! - protocol types appear only in `src/lsp/`; a file's contents are read or
//!   written only in the service layer `project/` (the guarded reader, the
//!   safe writer), and the file system is touched at all only there and in
//!   the front ends `cli/`, `lsp/`, `mcp/`, `hook/` (test code may make its
//!   own fixtures);
//! - no source or test file is longer than 500 lines (a module that grows
//!   past it is split by concern), and no function outside test code longer
//!   than 100 (a long one is split into its steps);
//! - no import cycles between modules, at any level (`lsp::server` → `lsp::state`
//!   → `lsp::server` is one), read from whole files (test modules included),
//!   inline paths (`super::index::of(ws)`) and re-exports (`pub use`) seen
//!   through; and the layers point one way: text → {edit, syntax} → model →
//!   search → rules → ide → recall → project (the service layer) → the front ends
//!   {cli, lsp, mcp, hook}, none of which uses another.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Longest source file allowed.
const MAX_LINES: usize = 500;

/// Longest function allowed outside test code, from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 100;

/// The functions of `text` (code before its `#[cfg(test)]`) longer than
/// [`MAX_FN_LINES`], as (name, first line, lines): a `fn` line, its body to
/// the `}` at the `fn`'s indentation (a declaration ending in `;` has none).
fn long_functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let words: Vec<&str> = code.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "fn");
        let lead_ok = at.is_some_and(|at| {
            words[..at].iter().all(|w| w.starts_with("pub") || matches!(*w, "const" | "async" | "unsafe" | "extern"))
        });
        let (Some(at), true) = (at, lead_ok) else { continue };
        let name: String =
            words.get(at + 1).map_or("", |w| w).chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // The signature ends at the first line ending in `{` (a body) or `;` (a declaration).
        let Some(sig_end) =
            (i..lines.len()).find(|&j| lines[j].trim_end().ends_with(['{', ';']) || lines[j].trim_end().ends_with('}'))
        else {
            continue;
        };
        let last = lines[sig_end].trim_end();
        if last.ends_with(';') || (sig_end == i && last.ends_with('}')) {
            continue;
        }
        let close = format!("{indent}}}");
        let Some(end) = (sig_end + 1..lines.len()).find(|&j| lines[j].trim_end() == close) else { continue };
        let n = end - i + 1;
        if n > MAX_FN_LINES {
            out.push((name, i + 1, n));
        }
    }
    out
}

/// Reads the whole file, content IO patterns and any file-system use.
const CONTENT_IO: &[&str] =
    &["fs::read(", "fs::read_to_string", "fs::write(", "File::open", "File::create", "OpenOptions"];

#[test]
fn architecture_rules_hold() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut problems = Vec::new();
    for p in &files {
        let rel = p.strip_prefix(&src).expect("inside src").to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(p).expect("read");
        if !text.starts_with("//!") {
            problems.push(format!("{rel}: does not start with a `//!` line"));
        }
        let lines = text.lines().count();
        if lines > MAX_LINES {
            problems.push(format!("{rel}: {lines} lines, over {MAX_LINES}: split it by concern"));
        }
        let test_file = rel.ends_with("tests.rs") || rel.contains("/tests/");
        for (name, at, n) in long_functions(&text).into_iter().filter(|_| !test_file) {
            problems.push(format!("{rel}:{at}: `{name}` has {n} lines, over {MAX_FN_LINES}: split it into its steps"));
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if !code.starts_with("//")
                && (line.contains("ls_types") || line.contains("tower_lsp_server"))
                && !rel.starts_with("lsp/")
            {
                problems.push(format!("{rel}:{}: protocol types outside src/lsp/", n + 1));
            }
        }
        if rel.ends_with("tests.rs") || rel.contains("/tests/") {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            if line.contains(".unwrap()") || line.contains(".expect(") {
                problems.push(format!("{rel}:{}: unwrap/expect outside tests", n + 1));
            }
            let content = CONTENT_IO.iter().any(|pat| line.contains(pat));
            if content && !rel.starts_with("project/") {
                problems.push(format!(
                    "{rel}:{}: a file's contents read or written outside project/ (use project::read or project::write)",
                    n + 1
                ));
            }
            let io = line.contains("std::fs") || line.contains("fs::");
            let edge = ["project/", "cli/", "lsp/", "mcp/", "hook/"].iter().any(|d| rel.starts_with(d));
            if io && !edge {
                problems.push(format!("{rel}:{}: file IO outside project/ and the front ends", n + 1));
            }
        }
    }
    assert!(files.len() > 40, "found the sources");
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn test_files_are_capped_like_source() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    sources(&tests, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).expect("read").lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines, over {MAX_LINES}: split it by concern", p.display()))
        })
        .collect();
    assert!(files.len() > 20, "found the test files");
    assert!(long.is_empty(), "{long:#?}");
}

/// A module path of the crate (`["lsp", "state"]`; the crate root is `[]`).
type Module = Vec<String>;

/// Every module's file: `lsp/state.rs` and `lsp/state/mod.rs` are `lsp::state`;
/// test modules (`x/tests.rs`) are `x::tests`.
fn modules(src: &Path) -> Vec<(Module, PathBuf)> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut out = Vec::new();
    for p in files {
        let rel = p.strip_prefix(src).expect("inside src").with_extension("");
        let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            parts.pop();
        }
        out.push((parts, p));
    }
    out
}

/// The paths a line of code names from this crate: `crate::a::b`, `super::x`,
/// and each item of `crate::{a, b::c}` / `super::{x, y}`, as segments
/// (`super` kept, to be resolved against the referring module).
fn referenced_paths(line: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let segments = |s: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = s;
        loop {
            let end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            out.push(rest[..end].to_string());
            match rest[end..].strip_prefix("::") {
                Some(r) if r.starts_with(|c: char| ident(c)) => rest = r,
                _ => break,
            }
        }
        out
    };
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = line[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            if i > 0 && line[..i].ends_with(|c: char| ident(c) || c == ':') {
                continue; // `super::` inside `super::super::`, or a longer path
            }
            let head = if start == "crate::" { vec![] } else { vec!["super".to_string()] };
            // `super::super::x`: every leading `super`.
            let mut rest = &line[from..];
            let mut head = head;
            while let Some(r) = rest.strip_prefix("super::") {
                head.push("super".into());
                rest = r;
            }
            if let Some(group) = rest.strip_prefix('{') {
                let mut depth = 0;
                let mut item = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.push([head.clone(), segments(item.trim())].concat());
                            item.clear();
                            continue;
                        }
                        _ => {}
                    }
                    item.push(c);
                }
                out.push([head.clone(), segments(item.trim())].concat());
            } else {
                out.push([head, segments(rest)].concat());
            }
        }
    }
    out
}

/// Each module's references to other modules of the crate, with the line that makes them.
fn module_graph(src: &Path) -> Vec<(Module, Module, String)> {
    let mods = modules(src);
    let known: std::collections::HashSet<&Module> = mods.iter().map(|(m, _)| m).collect();
    let reexports = reexports(&mods, &known);
    let mut edges = Vec::new();
    for (m, p) in &mods {
        let text = std::fs::read_to_string(p).expect("read");
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for path in referenced_paths(line) {
                // Resolve `super` (the parent module, whether the file is `x.rs` or `x/mod.rs`).
                let mut target: Module = Vec::new();
                let supers = path.iter().take_while(|s| *s == "super").count();
                if supers > 0 {
                    target.extend(m[..m.len() - supers.min(m.len())].iter().cloned());
                }
                target.extend(path[supers..].iter().cloned());
                // The longest prefix that is a module, seen through a re-export.
                let full = target.clone();
                while !target.is_empty() && !known.contains(&target) {
                    target.pop();
                }
                if let Some(name) = full.get(target.len()) {
                    if let Some(real) = reexports.get(&(target.clone(), name.clone())) {
                        target = real.clone();
                    }
                }
                if !target.is_empty() && &target != m {
                    let at = format!("{}:{}", p.strip_prefix(src).unwrap_or(p).display(), n + 1);
                    edges.push((m.clone(), target, at));
                }
            }
        }
    }
    edges
}

/// `pub use a::b::{X, Y};` in module `m`: (m, X) → the module `a::b` names
/// (relative to `m`), for every re-exported item of another module.
fn reexports(
    mods: &[(Module, PathBuf)],
    known: &std::collections::HashSet<&Module>,
) -> std::collections::HashMap<(Module, String), Module> {
    let mut out = std::collections::HashMap::new();
    for (m, p) in mods {
        let text = std::fs::read_to_string(p).expect("read");
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("pub use ") else { continue };
            let rest = rest.trim_end_matches(';');
            let (path, items) = match rest.split_once("::{") {
                Some((path, items)) => {
                    (path, items.trim_end_matches('}').split(',').map(str::trim).collect::<Vec<_>>())
                }
                None => match rest.rsplit_once("::") {
                    Some((path, item)) => (path, vec![item]),
                    None => continue,
                },
            };
            let mut target: Module = match path.split("::").next() {
                Some("crate") => vec![],
                Some("super") => m[..m.len().saturating_sub(1)].to_vec(),
                Some("self") => m.clone(),
                _ => m.clone(),
            };
            for seg in path.split("::").filter(|s| !matches!(*s, "crate" | "super" | "self")) {
                target.push(seg.to_string());
            }
            if !known.contains(&target) {
                continue;
            }
            for item in items {
                let name = item.split(" as ").last().unwrap_or(item).trim();
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.insert((m.clone(), name.to_string()), target.clone());
                }
            }
        }
    }
    out
}

/// The engine's layers, lowest first; a module may use only lower layers,
/// never one beside it (the front ends, the last layer, share through `project`).
const LAYERS: &[&[&str]] = &[
    &["text"],
    &["edit", "syntax"],
    &["model"],
    &["search"],
    &["rules"],
    &["ide"],
    &["recall"],
    &["project"],
    &["cli", "lsp", "mcp", "hook"],
    &["testgen"],
];

#[test]
fn no_import_cycles_and_layers_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = module_graph(&src);
    assert!(edges.len() > 100, "found the references ({})", edges.len());
    let mut problems = Vec::new();
    // Between siblings: `lsp::server` → `lsp::state::Root` is server → state.
    let mut sibling: std::collections::BTreeMap<(Module, Module), String> = Default::default();
    for (a, b, at) in &edges {
        let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        if common == a.len() || common == b.len() {
            continue; // a module and its ancestor or descendant
        }
        sibling.entry((a[..=common].to_vec(), b[..=common].to_vec())).or_insert_with(|| at.clone());
    }
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    for ((a, b), at) in &sibling {
        if a.len() != 1 {
            continue;
        }
        match (layer(&a[0]), layer(&b[0])) {
            (Some(x), Some(y)) if x <= y => {
                problems.push(format!("{at}: `{}` uses `{}`, a layer above it or beside it", a[0], b[0]))
            }
            (None, _) | (_, None) => problems.push(format!("{at}: `{}` → `{}`: add the module to LAYERS", a[0], b[0])),
            _ => {}
        }
    }
    // Cycles: a path back to where it started, through sibling edges.
    let nodes: std::collections::BTreeSet<&Module> = sibling.keys().map(|(a, _)| a).collect();
    for start in nodes {
        let mut stack: Vec<(Module, Vec<String>)> = vec![(start.clone(), vec![])];
        let mut seen: std::collections::HashSet<Module> = Default::default();
        while let Some((node, trail)) = stack.pop() {
            for ((a, b), at) in sibling.range((node.clone(), Vec::new())..) {
                if a != &node {
                    break;
                }
                let mut trail = trail.clone();
                trail.push(format!("{} → {} ({at})", a.join("::"), b.join("::")));
                if b == start {
                    let cycle = trail.join(", ");
                    if !problems.iter().any(|p| p.contains(&trail[0])) {
                        problems.push(format!("import cycle: {cycle}"));
                    }
                } else if seen.insert(b.clone()) {
                    stack.push((b.clone(), trail));
                }
            }
        }
    }
    assert!(problems.is_empty(), "move the shared item down a layer or into its own module:\n{}", problems.join("\n"));
}

/// The agent's path (issue 53): the hook maps each agent's payload to the
/// recall service's event and its answer to the agent's output; it finds,
/// loads, ranks and keeps nothing itself (`project::recall` does, entering
/// each layer once). `resolve`, `search` and MCP read decisions through the
/// same service's `Loaded` memory, never the search snapshot or the
/// semantic tier themselves.
#[test]
fn agents_reach_the_memory_through_the_recall_service() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for (a, b, at) in module_graph(&src) {
        let to = |m: &[&str]| b.len() >= m.len() && b.iter().zip(m).all(|(x, y)| x == y);
        let hook_allowed =
            to(&["project", "recall"]) || to(&["project", "agents"]) || to(&["project", "session"]) || to(&["syntax"]);
        if a[0] == "hook" && b[0] != "hook" && !hook_allowed {
            problems.push(format!("{at}: the hook uses `{}`: ask `project::recall` instead", b.join("::")));
        }
        let reader = a == ["mcp"] || a == ["cli", "resolve"] || a == ["cli", "search"];
        if reader && (to(&["project", "search_cache"]) || to(&["project", "semantic"]) || to(&["search"])) {
            problems.push(format!(
                "{at}: `{}` uses `{}`: read through `project::recall::Loaded`",
                a.join("::"),
                b.join("::")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
