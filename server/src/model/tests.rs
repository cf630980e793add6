//! Tests of the workspace model: classification, updates and the exact binding.

use super::*;

pub(crate) fn ws(files: &[(&str, &str)]) -> Workspace {
    let mut ws = Workspace::new(Config::default());
    for (p, t) in files {
        ws.set_file(p, (*t).into());
    }
    ws
}

#[test]
fn binds_exactly_case_and_whitespace_insensitive() {
    let ws = ws(&[
        (
            "agents/memory-index.md",
            "# I\n## agents/decisions/a.md\n/when Writing  MOCK tests\n/how encode paths\n/when nothing\n/when group\n",
        ),
        ("agents/decisions/a.md", "# A\n## When writing mock tests\nx\n## How to Encode Paths\ny\n## .Group\n"),
        ("agents/decisions/sub/b.md", "## When nothing\n"),
        ("notes.md", "## When nothing\n"),
    ]);
    let b = ws.bindings();
    assert_eq!(b.entries.len(), 4);
    let a = ws.file_id("agents/decisions/a.md").unwrap();
    assert_eq!(b.entries[0].heading, Some(HeadingId { file: a, idx: 1 }));
    assert_eq!(b.entries[1].heading, Some(HeadingId { file: a, idx: 2 }));
    assert_eq!(b.entries[2].heading, None, "nested and non-decision files are not decision files");
    assert_eq!(b.entries[3].structural, Some(HeadingId { file: a, idx: 3 }));
    assert_eq!(b.entries[0].section_file, Some(a));
}

#[test]
fn duplicate_titles_prefer_the_sections_file() {
    let ws = ws(&[
        ("agents/memory-index.md", "## agents/decisions/b.md\n/when x\n"),
        ("agents/decisions/a.md", "## When X\n"),
        ("agents/decisions/b.md", "## When X\n"),
    ]);
    let b_id = ws.file_id("agents/decisions/b.md").unwrap();
    assert_eq!(ws.bindings().entries[0].heading.map(|h| h.file), Some(b_id));
}

#[test]
fn updates_one_file_and_rebinds() {
    let mut ws = ws(&[
        ("agents/memory-index.md", "## agents/decisions/a.md\n/when x\n"),
        ("agents/decisions/a.md", "## When Y\n"),
    ]);
    assert_eq!(ws.bindings().entries[0].heading, None);
    ws.set_file("agents/decisions/a.md", "## When X\n".into());
    assert!(ws.bindings().entries[0].heading.is_some());
    assert!(ws.remove_file("agents/decisions/a.md"));
    assert_eq!(ws.bindings().entries[0].heading, None);
    assert_eq!(ws.bindings().entries[0].section_file, None);
}

#[test]
fn config_change_reclassifies_files() {
    let mut ws = ws(&[("docs/idx.md", "## docs/d/a.md\n/when x\n"), ("docs/d/a.md", "## When X\n")]);
    assert!(ws.index().is_none());
    let config = Config { index: "docs/idx.md".into(), decisions: "docs/d".into(), ..Config::default() };
    ws.set_config(config, vec![]);
    assert!(ws.bindings().entries[0].heading.is_some());
}

#[test]
fn invalid_utf8_is_kept_lossy_with_its_offset() {
    let t = FileText::from_bytes(b"ab\xffcd".to_vec());
    assert_eq!(t.text, "ab\u{fffd}cd");
    assert_eq!(t.problem, Some(FileProblem::InvalidUtf8 { offset: 2 }));
}

#[test]
fn retyping_an_entry_is_a_splice_and_adding_a_line_is_not() {
    let index = "# Index\n\n## agents/decisions/a.md\n\n/when alpha\n/when beta | b\n";
    let mut ws = Workspace::default();
    ws.set_file("agents/memory-index.md", FileText::from(index));
    ws.set_file("agents/decisions/a.md", FileText::from("# A\n\n## When Alpha\n\nx\n\n## When Beta\n\ny\n"));
    assert!(ws.index_splice().is_none());
    let _ = ws.bindings();
    // Never checked: no base to update from yet, so no splice.
    ws.set_file("agents/memory-index.md", FileText::from(index.replace("alpha", "alpah")));
    assert!(ws.index_splice().is_none());
    let _ = ws.cached(Depends::IndexAndDecisions, |_| 1u8);
    ws.set_file("agents/memory-index.md", FileText::from(index.replace("alpha", "alpha ")));
    let sp = ws.index_splice().expect("a retyped entry is a splice");
    assert_eq!(sp.lines, 4..5);
    assert_eq!(sp.base_entries.len(), 1);
    assert_eq!(&*sp.base_entries[0].1.trigger, "alpah", "the base is the last state with derived values");
    assert_eq!(ws.bindings().entries[0].heading.map(|h| h.idx), Some(1), "re-bound: `When Alpha` again");
    // Not built since: the next splice composes with this one.
    ws.set_file("agents/memory-index.md", FileText::from(index.replace("beta", "bet")));
    assert_eq!(ws.index_splice().map(|s| s.lines.clone()), Some(4..6));
    assert_eq!(ws.bindings().entries[1].heading, None);
    for changed in [index.replace("/when beta", "\n/when beta"), index.replace("/when beta", "## x")] {
        let _ = ws.cached(Depends::IndexAndDecisions, |_| 1u8);
        ws.set_file("agents/memory-index.md", FileText::from(changed));
        assert!(ws.index_splice().is_none(), "a new line or a section heading changes the structure");
    }
}

/// An editor opening a file as it is on disk sends the same text: nothing
/// is parsed again and nothing derived is dropped (a decision file would
/// otherwise cost a full re-check). A different text, or the same text
/// without the disk's decoding problem, replaces it.
#[test]
fn setting_a_file_to_the_text_it_has_changes_nothing() {
    #[derive(Debug)]
    struct Derived;
    let mut ws = Workspace::default();
    let decision = "# A\n\n## When Alpha\n\nx\n";
    ws.set_file("agents/decisions/a.md", FileText::from(decision));
    let first = ws.cached(Depends::Decisions, |_| Derived);
    let id = ws.set_file("agents/decisions/a.md", FileText::from(decision));
    assert_eq!(ws.file_id("agents/decisions/a.md"), Some(id));
    assert!(Arc::ptr_eq(&first, &ws.cached(Depends::Decisions, |_| Derived)), "kept");
    ws.set_file("agents/decisions/a.md", FileText::from("# A\n\n## When Beta\n\nx\n"));
    assert!(!Arc::ptr_eq(&first, &ws.cached(Depends::Decisions, |_| Derived)), "another text: rebuilt");
    let bad = FileText::from_bytes(b"# A\n\xff\n".to_vec());
    ws.set_file("agents/decisions/a.md", bad.clone());
    let with_problem = ws.cached(Depends::Decisions, |_| Derived);
    ws.set_file("agents/decisions/a.md", FileText::from(bad.text.as_str()));
    assert!(ws.file(id).is_some_and(|f| f.problem.is_none()), "the editor's text has no decoding problem");
    assert!(!Arc::ptr_eq(&with_problem, &ws.cached(Depends::Decisions, |_| Derived)));
}

#[test]
fn an_edit_of_a_body_keeps_the_binding_and_one_of_a_heading_does_not() {
    let a = "# A\n\n## When Writing Mock Tests\n\nPatch where looked up.\n\n## How to Encode Paths\n\nUTF-8.\n";
    let mut ws = ws(&[
        ("agents/memory-index.md", "## agents/decisions/a.md\n/when writing mock tests\n/how encode paths\n"),
        ("agents/decisions/a.md", a),
    ]);
    let before = ws.bindings_arc().clone();
    let table = bind::HeadingTable::of(&ws);
    let end = a.len();
    ws.edit_file("agents/decisions/a.md", &[(TextRange::new(end, end), "Never concatenate.\n")]);
    assert!(Arc::ptr_eq(&before, ws.bindings_arc()), "a body edit keeps the binding");
    assert!(Arc::ptr_eq(&table, &bind::HeadingTable::of(&ws)), "and the heading table");
    ws.set_file("agents/decisions/a.md", FileText::from(a.replace("When Writing Mock", "When WRITING  mock").as_str()));
    assert!(Arc::ptr_eq(&before, ws.bindings_arc()), "a title that normalizes the same keeps it too");
    ws.set_file("agents/decisions/a.md", FileText::from(a.replace("Writing Mock Tests", "Writing Fakes").as_str()));
    assert!(!Arc::ptr_eq(&before, ws.bindings_arc()), "a renamed heading is bound again");
    assert_eq!(ws.bindings().entries[0].heading, None, "the old trigger binds nothing now");
    ws.set_file("agents/decisions/a.md", FileText::from(a.replace("## How to", "## .How to").as_str()));
    assert_eq!(ws.bindings().entries[1].heading, None, "a heading made structural is bound again");
}
