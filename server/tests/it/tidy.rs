//! Tidy: the architecture rules of the crate, checked on its source.
//!
//! - no `.unwrap()` / `.expect(` outside test code (tests sit after `#[cfg(test)]`
//!   at the bottom of a file, or in `tests.rs` files): data from files or the
//!   client must never be able to panic the server;
//! - every module starts with a `//!` line saying what it owns;
//! - protocol types appear only in `src/lsp/`; file IO only in the service layer `project/` and the front ends `cli/`, `lsp/`, `mcp/`, `hook/`;
//! - no source file is longer than 500 lines (a module that grows past it is split by concern);
//! - no import cycles between modules, at any level (`lsp::server` → `lsp::state`
//!   → `lsp::server` is one), and the engine's layers point one way:
//!   text → {edit, syntax} → model → search → rules → ide → project (the
//!   service layer) → the front ends {cli, lsp, mcp, hook}, none of which uses
//!   another.

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
        if rel.ends_with("tests.rs") {
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
            if (line.contains("ls_types") || line.contains("tower_lsp_server")) && !rel.starts_with("lsp/") {
                problems.push(format!("{rel}:{}: protocol types outside src/lsp/", n + 1));
            }
            let io = line.contains("std::fs") || line.contains("fs::read") || line.contains("fs::write");
            let edge = ["project/", "cli/", "lsp/", "mcp/", "hook/"].iter().any(|d| rel.starts_with(d));
            if io && !edge {
                problems.push(format!("{rel}:{}: file IO outside project/, cli/, lsp/, mcp/ and hook/", n + 1));
            }
        }
    }
    assert!(files.len() > 40, "found the sources");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// A module path of the crate (`["lsp", "state"]`; the crate root is `[]`).
type Module = Vec<String>;

/// Every module's file: `lsp/state.rs` and `lsp/state/mod.rs` are `lsp::state`.
/// Test-only files (`tests.rs`, `tests/`) are left out.
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
        if parts.iter().any(|p| p == "tests") {
            continue;
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
    let mut edges = Vec::new();
    for (m, p) in &mods {
        let text = std::fs::read_to_string(p).expect("read");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
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
                // The longest prefix that is a module.
                while !target.is_empty() && !known.contains(&target) {
                    target.pop();
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

/// The engine's layers, lowest first; a module may use only lower layers,
/// never one beside it (the front ends, the last layer, share through `project`).
const LAYERS: &[&[&str]] = &[
    &["text"],
    &["edit", "syntax"],
    &["model"],
    &["search"],
    &["rules"],
    &["ide"],
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
