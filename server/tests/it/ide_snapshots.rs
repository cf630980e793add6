//! The editor features on one workspace, as a reader sees them: completion, hover, go to definition, references, rename and symbols, snapshotted in `fixtures/ide/features.snap` (review changes with `INSTA_UPDATE=always cargo test --test it ide_snapshots::`, then `git diff fixtures/ide`).

use crate::support;

use memory_index_lsp::edit;
use memory_index_lsp::ide::{completion, hover, navigate, rename, symbols};
use memory_index_lsp::model::{FileId, FileRange, Workspace};
use support::*;

/// The file and the byte offset just after `anchor`'s first `|` marker (the anchor without it is searched).
fn at(ws: &Workspace, path: &str, anchor: &str) -> (FileId, usize) {
    let id = ws.file_id(path).unwrap_or_else(|| panic!("no {path}"));
    let text = &ws.file(id).expect("file").text;
    let (before, after) = anchor.split_once('|').expect("a | marks the cursor");
    let start = text.find(&format!("{before}{after}")).unwrap_or_else(|| panic!("{anchor:?} not in {path}"));
    (id, start + before.len())
}

fn place(ws: &Workspace, r: FileRange) -> String {
    let f = ws.file(r.file).expect("file");
    let (l, c) = f.line_col_1(r.range.start);
    format!("{}:{l}:{c} `{}`", f.path, &f.text[r.range.start..r.range.end])
}

fn symbols_of(out: &mut String, s: &[symbols::Symbol], depth: usize) {
    for x in s {
        let detail = x.detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default();
        out.push_str(&format!("{}{:?} {}{detail}\n", "  ".repeat(depth + 1), x.kind, x.name));
        symbols_of(out, &x.children, depth + 1);
    }
}

fn render(ws: &Workspace) -> String {
    let mut out = String::new();
    for (path, anchor) in [
        ("agents/memory-index.md", "/when seed|\n"),
        ("agents/memory-index.md", "/wh|en deploying"),
        ("CLAUDE.md", "`/how split| slow"),
    ] {
        let (f, o) = at(ws, path, anchor);
        out.push_str(&format!("== completion in {path} at {anchor:?}\n"));
        for i in completion::complete(ws, f, o).iter().take(8) {
            let detail = i.detail.as_deref().unwrap_or("");
            out.push_str(&format!("  {:?} {} → {:?} {detail}\n", i.kind, i.label, i.insert));
        }
    }
    for (path, anchor) in [
        ("agents/memory-index.md", "/when wri|ting mock tests"),
        ("agents/memory-index.md", "agents/decisions/te|sting.md"),
        ("agents/memory-index.md", "agents/decisions/o|ps.md"),
        ("agents/decisions/testing.md", "### When Wri|ting Mock Tests"),
        ("CLAUDE.md", "/when deploy|ing on fridays"),
    ] {
        let (f, o) = at(ws, path, anchor);
        out.push_str(&format!("== hover in {path} at {anchor:?}\n"));
        match hover::hover(ws, f, o) {
            Some((_, text)) => out.extend(text.lines().map(|l| format!("  {l}\n"))),
            None => out.push_str("  (nothing)\n"),
        }
        out.push_str(&format!("== definition from {path} at {anchor:?}\n"));
        match navigate::definition(ws, f, o) {
            Some(r) => out.push_str(&format!("  {}\n", place(ws, r))),
            None => out.push_str("  (nothing)\n"),
        }
        out.push_str(&format!("== references from {path} at {anchor:?}\n"));
        for r in navigate::references(ws, f, o) {
            out.push_str(&format!("  {}\n", place(ws, r)));
        }
    }
    for (path, anchor, new) in [
        ("agents/memory-index.md", "/when wri|ting mock tests", "writing test doubles"),
        ("agents/decisions/ops.md", "## When Deploy|ing On Fridays", "When Releasing On Fridays"),
        ("agents/memory-index.md", "/how split| slow", "/when x"),
    ] {
        let (f, o) = at(ws, path, anchor);
        out.push_str(&format!("== rename in {path} at {anchor:?} to {new:?}\n"));
        match rename::rename(ws, f, o, new) {
            Ok(change) => {
                for e in &change.edits {
                    let text = &ws.file(ws.file_id(&e.path).expect("id")).expect("file").text;
                    let after = edit::apply(text, &e.edits).0;
                    let diff = similar::TextDiff::from_lines(text.as_str(), &after);
                    let unified = diff.unified_diff().context_radius(0).header(&e.path, &e.path).to_string();
                    out.extend(unified.lines().map(|l| format!("  {l}\n")));
                }
            }
            Err(why) => out.push_str(&format!("  refused: {why}\n")),
        }
    }
    for path in ["agents/memory-index.md", "agents/decisions/testing.md"] {
        out.push_str(&format!("== document symbols of {path}\n"));
        symbols_of(&mut out, &symbols::document_symbols(ws, ws.file_id(path).expect("id")), 0);
    }
    for query in ["mock", "fri"] {
        out.push_str(&format!("== workspace symbols {query:?}\n"));
        for s in symbols::workspace_symbols(ws, query, 10) {
            out.push_str(&format!("  {:?} {} at {}\n", s.kind, s.name, place(ws, s.location)));
        }
    }
    out
}

#[test]
fn editor_features_on_one_workspace() {
    let fixture = std::fs::read_to_string(repo().join("fixtures/ide/workspace.md")).expect("fixture");
    let text = render(&workspace(&fixture));
    insta::with_settings!({
        snapshot_path => repo().join("fixtures/ide"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
        input_file => "fixtures/ide/workspace.md",
    }, {
        insta::assert_snapshot!("features", text);
    });
}
