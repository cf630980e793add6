//! Tests of the server's state: snapshots and edits, no path resolved per keystroke.

use super::*;
use crate::text::TextRange;

/// A request's snapshot is not changed by an edit that comes while it is
/// read, the edit does not wait for it, and what was derived before is
/// shared, not rebuilt.
#[test]
fn an_edit_goes_on_while_a_snapshot_is_read() {
    let mut st = State::default();
    let mut ws = Workspace::default();
    ws.set_file("agents/memory-index.md", FileText::from("## agents/decisions/a.md\n/when alpha\n"));
    ws.set_file("agents/decisions/a.md", FileText::from("## When Alpha\nOne sentence says why.\n"));
    let before = rules::findings(&ws);
    st.roots.push(Root {
        path: "/r".into(),
        canon: "/r".into(),
        ws: Arc::new(ws),
        published: HashMap::new(),
        dirty: false,
    });
    let snap = st.snapshot();
    assert!(Arc::ptr_eq(&snap.roots[0].ws, &st.roots[0].ws), "a snapshot copies nothing");
    // The edit: under the state's lock only (the snapshot holds none).
    let ws = st.roots[0].ws_mut();
    assert!(Arc::ptr_eq(&rules::findings(ws), &before), "the copy shares what was derived");
    ws.edit_file("agents/memory-index.md", &[(TextRange::new(36, 36), "x")]);
    let text = |w: &Workspace| w.file(w.file_id("agents/memory-index.md").expect("index")).expect("file").text.clone();
    assert_eq!(text(&st.roots[0].ws), "## agents/decisions/a.md\n/when alphax\n");
    assert_eq!(text(&snap.roots[0].ws), "## agents/decisions/a.md\n/when alpha\n", "the snapshot is as it was");
    assert!(rules::findings(&snap.roots[0].ws).is_empty());
    assert_eq!(rules::findings(&st.roots[0].ws).len(), 2, "the edit's orphan and the heading it unbound");
}

/// Typing in an open document resolves no path on the file system: the
/// document is found under its root by comparing paths, and a path met
/// through a link is resolved once, when first seen.
#[test]
fn a_keystroke_resolves_no_path() {
    use std::sync::atomic::Ordering;
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().canonicalize().expect("canon");
    std::fs::create_dir_all(root.join("agents/decisions")).expect("dirs");
    std::fs::write(root.join("agents/memory-index.md"), "## agents/decisions/a.md\n/when alpha\n").expect("index");
    std::fs::write(root.join("agents/decisions/a.md"), "## When Alpha\nOne sentence says why.\n").expect("a");
    let mut st = State::default();
    st.load_root(root.clone()).expect("load");
    let uri: Uri = format!("file://{}", root.join("agents/memory-index.md").display()).parse().expect("uri");
    st.docs.insert(uri.clone(), Doc { version: 1, own: None });
    let before = RESOLVED_PATHS.load(Ordering::Relaxed);
    for i in 0..100u32 {
        let change = TextDocumentContentChangeEvent {
            range: Some(tower_lsp_server::ls_types::Range::new(
                tower_lsp_server::ls_types::Position::new(1, 11 + i),
                tower_lsp_server::ls_types::Position::new(1, 11 + i),
            )),
            range_length: None,
            text: "x".into(),
        };
        st.apply_changes(&uri, vec![change]);
        assert!(st.locate_uri(&uri).is_some());
        assert!(st.snapshot().locate_uri(&uri).is_some());
    }
    assert_eq!(RESOLVED_PATHS.load(Ordering::Relaxed), before, "no path resolved while typing");
    let text =
        st.roots[0].ws.file(st.roots[0].ws.file_id("agents/memory-index.md").expect("id")).expect("f").text.clone();
    assert!(text.contains(&format!("/when alpha{}", "x".repeat(100))), "{text}");
}
