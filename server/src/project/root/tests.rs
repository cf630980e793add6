//! Tests of the project root rule.

use super::*;

#[test]
fn explicit_wins_then_the_agents_project_then_the_start() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b/deep");
    std::fs::create_dir_all(a.join("agents")).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(a.join("agents/memory-index.md"), "").unwrap();
    std::fs::write(tmp.path().join("b/memory-index.toml"), "").unwrap();
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap();
    assert_eq!(root_from(Some(&b), Some(&a), Some(&b)), b);
    assert_eq!(root_from(None, Some(&a.join("agents")), Some(&b)), canon(&a));
    assert_eq!(root_from(None, None, Some(&b)), canon(&tmp.path().join("b")));
    let nowhere = tmp.path().join("c");
    assert_eq!(root_from(None, Some(&nowhere), None), nowhere);
}
