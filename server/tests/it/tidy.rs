//! Tidy: the architecture rules of the crate, checked on its source.
//!
//! - no `.unwrap()` / `.expect(` outside test code (tests sit after `#[cfg(test)]`
//!   at the bottom of a file, or in `tests.rs` files): data from files or the
//!   client must never be able to panic the server;
//! - every module starts with a `//!` line saying what it owns;
//! - protocol types appear only in `src/lsp/`; file IO only in `load.rs` (and `load/`), `cli/`, `lsp/`, `hook/`;
//! - no source file is longer than 500 lines (a module that grows past it is split by concern).

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
            let edge = rel == "load.rs" || ["load/", "cli/", "lsp/", "hook/"].iter().any(|d| rel.starts_with(d));
            if io && !edge {
                problems.push(format!("{rel}:{}: file IO outside load.rs, load/, cli/, lsp/ and hook/", n + 1));
            }
        }
    }
    assert!(files.len() > 40, "found the sources");
    assert!(problems.is_empty(), "{problems:#?}");
}
