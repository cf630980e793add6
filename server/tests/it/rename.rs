//! Rename from either side keeps trigger, heading and invocations in sync; refusals say why.

use crate::support;

use memory_index_lsp::edit;
use memory_index_lsp::ide::rename;
use memory_index_lsp::model::Workspace;
use support::*;

/// Applies `rename` at the first occurrence of `at` (+ `delta`) in `path`; returns changed files.
fn renamed(ws: &Workspace, path: &str, at: &str, new: &str) -> Result<Vec<(String, String)>, String> {
    let id = ws.file_id(path).expect("file");
    let f = ws.file(id).expect("file");
    let offset = f.text.find(at).expect("anchor") + 1;
    let edits = rename::rename(ws, id, offset, new)?;
    Ok(edits
        .edits
        .into_iter()
        .map(|fe| {
            let text = &ws.file(ws.file_id(&fe.path).expect("id")).expect("file").text;
            (fe.path.clone(), edit::apply(text, &fe.edits).0)
        })
        .collect())
}

const FIX: &str = "//- agents/memory-index.md\r\n# Index\r\n/when writing mock tests\r\n## agents/decisions/t.md\r\n/when writing mock tests | mock patch\r\n/how split modules\r\n//- agents/decisions/t.md\r\n# T\n## .Group\n### When Writing Mock Tests\nbody\n#### How to Split Modules\nx\n//- CLAUDE.md\nSee `/when writing mock tests` and /when mock patch.\n";

#[test]
fn rename_a_trigger_renames_its_heading_and_invocations_only() {
    let ws = workspace(FIX);
    let out =
        renamed(&ws, "agents/memory-index.md", "writing mock tests | mock", "writing fake tests").expect("renames");
    let get = |p: &str| out.iter().find(|x| x.0 == p).map(|x| x.1.clone()).unwrap_or_default();
    assert!(
        get("agents/memory-index.md").contains("## agents/decisions/t.md\r\n/when writing fake tests | mock patch\r\n")
    );
    assert!(
        get("agents/memory-index.md").contains("# Index\r\n/when writing mock tests\r\n"),
        "the preamble example is untouched"
    );
    assert!(get("agents/decisions/t.md").contains("### When Writing Fake Tests\n"), "level and Title Case kept");
    assert_eq!(get("CLAUDE.md"), "See `/when writing fake tests` and /when mock patch.\n", "extras keep their words");
}

#[test]
fn rename_a_heading_moves_the_trigger_and_operator() {
    let ws = workspace(FIX);
    let out = renamed(&ws, "agents/decisions/t.md", "How to Split Modules", "When Splitting Modules").expect("renames");
    let get = |p: &str| out.iter().find(|x| x.0 == p).map(|x| x.1.clone()).unwrap_or_default();
    assert!(get("agents/decisions/t.md").contains("#### When Splitting Modules\n"));
    assert!(get("agents/memory-index.md").contains("/when splitting modules\r\n"), "{}", get("agents/memory-index.md"));
    let ws = workspace(&FIX.replace("When Writing Mock Tests", "When Écrire Des Tests Über"));
    let ok = renamed(&ws, "agents/decisions/t.md", "When Écrire", "When Écrire Des Tests Überall");
    assert!(ok.is_ok(), "non-ASCII titles: {ok:?}");
}

/// Found by review: a heading renamed with a code span wrote its backticks into the
/// trigger (an orphan entry), and a trigger renamed dropped the heading's code span.
#[test]
fn code_spans_stay_in_the_heading_and_out_of_the_trigger() {
    let fix = "//- agents/memory-index.md\n# Index\n## agents/decisions/ops.md\n/when using kubectl against prod\n\
               //- agents/decisions/ops.md\n# Ops\n## When Using `kubectl` Against Prod\nAsk first.\n";
    let ws = workspace(fix);
    let get =
        |out: &[(String, String)], p: &str| out.iter().find(|x| x.0 == p).map(|x| x.1.clone()).unwrap_or_default();
    let out = renamed(&ws, "agents/decisions/ops.md", "When Using", "When Using `kubectl` Against Production")
        .expect("renames");
    assert!(get(&out, "agents/decisions/ops.md").contains("## When Using `kubectl` Against Production\n"));
    assert!(get(&out, "agents/memory-index.md").contains("/when using kubectl against production\n"), "{out:?}");
    let out =
        renamed(&ws, "agents/memory-index.md", "using kubectl", "using kubectl against staging").expect("renames");
    assert!(get(&out, "agents/decisions/ops.md").contains("## When Using `kubectl` Against Staging\n"), "{out:?}");
    // A span of several words, a word the title has twice, a span with a backtick (found by review).
    for (heading, trigger, new, want) in [
        (
            "When Running `cargo test`",
            "running cargo test",
            "running cargo test quickly",
            "## When Running `cargo test` Quickly\n",
        ),
        (
            "When Using `make` To Make Releases",
            "using make to make releases",
            "using make to make builds",
            "## When Using `make` To Make Builds\n",
        ),
        ("When Quoting ``a`b`` Names", "quoting a`b names", "quoting a`b labels", "## When Quoting `` a`b `` Labels\n"),
        (
            "When Running go-task Before `go`",
            "running go-task before go",
            "running go-task before go quickly",
            "## When running go-task before `go` quickly\n",
        ),
    ] {
        let fix = format!(
            "//- agents/memory-index.md\n# Index\n## agents/decisions/ops.md\n/when {trigger}\n//- agents/decisions/ops.md\n# Ops\n## {heading}\nAsk first.\n"
        );
        let ws = workspace(&fix);
        let out = renamed(&ws, "agents/memory-index.md", &trigger[..4], new).expect("renames");
        assert!(get(&out, "agents/decisions/ops.md").contains(want), "{heading}: {out:?}");
    }
}

#[test]
fn refusals() {
    let ws = workspace(FIX);
    let dup = renamed(&ws, "agents/memory-index.md", "split modules", "writing mock tests");
    assert!(
        dup.as_ref().is_err_and(|e| e.contains("`/how writing mock tests`") || e.contains("already exists")),
        "{dup:?}"
    );
    let extra = renamed(&ws, "agents/memory-index.md", "split modules", "mock patch");
    assert!(extra.as_ref().is_err_and(|e| e.contains("is an extra of `writing mock tests`")), "{extra:?}");
    let extra = renamed(&ws, "agents/decisions/t.md", "How to Split Modules", "When Mock Patch");
    assert!(extra.as_ref().is_err_and(|e| e.contains("is an extra of `writing mock tests`")), "{extra:?}");
    let bad = renamed(&ws, "agents/decisions/t.md", "How to Split Modules", "Splitting Modules");
    assert!(bad.as_ref().is_err_and(|e| e.contains("neither `When ` nor `How to `")), "{bad:?}");
    let same = renamed(&ws, "agents/decisions/t.md", "How to Split Modules", "When Writing Mock Tests");
    assert!(same.as_ref().is_err_and(|e| e.contains("already exists")), "{same:?}");
    let id = ws.file_id("agents/decisions/t.md").expect("id");
    assert!(rename::prepare(&ws, id, 3).is_err(), "the H1 is not renamed this way");
}

#[test]
fn corpus_choosing_name_to_choosing_names() {
    let Some(head) = corpus("head") else { return };
    let ws = memory_index_lsp::project::load::load(&head).expect("load");
    let before = memory_index_lsp::rules::check(&ws).len();
    let out =
        renamed(&ws, "agents/decisions/operational-tooling.md", "### When Choosing Name\n", "When Choosing Names")
            .expect("renames");
    let mut changed: Vec<&str> = out.iter().map(|x| x.0.as_str()).collect();
    changed.sort();
    assert_eq!(
        changed,
        ["agents/decisions/operational-tooling.md", "agents/decisions/workflow-advanced.md", "agents/memory-index.md"]
    );
    let mut after = ws.clone();
    for (p, t) in &out {
        let old = &ws.file(ws.file_id(p).expect("id")).expect("file").text;
        let diff: Vec<_> = old.lines().zip(t.lines()).filter(|(a, b)| a != b).collect();
        assert_eq!(diff.len(), 1, "exactly one line changes in {p}: {diff:?}");
        after.set_file(p, memory_index_lsp::model::FileText::from(t.as_str()));
    }
    assert_eq!(memory_index_lsp::rules::check(&after).len(), before, "check is as clean as before");
}

#[test]
fn rename_on_h2_headings_and_how_entries() {
    let ws = workspace("//- agents/memory-index.md\n## agents/decisions/a.md\n/how encode paths\n//- agents/decisions/a.md\n## How to Encode Paths\nbody\n");
    let out = renamed(&ws, "agents/decisions/a.md", "How to Encode", "How to Encode File Paths").expect("renames");
    let get = |p: &str| out.iter().find(|x| x.0 == p).map(|x| x.1.clone()).unwrap_or_default();
    assert_eq!(get("agents/decisions/a.md"), "## How to Encode File Paths\nbody\n");
    assert_eq!(get("agents/memory-index.md"), "## agents/decisions/a.md\n/how encode file paths\n");
}
