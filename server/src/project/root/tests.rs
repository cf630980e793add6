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

#[test]
fn a_workspace_folder_finds_the_memory_in_it_above_it_or_below_it() {
    let tmp = tempfile::tempdir().unwrap();
    let t = std::fs::canonicalize(tmp.path()).unwrap();
    let memory = |d: &Path| {
        std::fs::create_dir_all(d.join("agents")).unwrap();
        std::fs::write(d.join("agents/memory-index.md"), "").unwrap();
    };
    memory(&t.join("mono/pkg/a"));
    memory(&t.join("mono/pkg/b"));
    memory(&t.join("mono/node_modules/dep"));
    std::fs::create_dir_all(t.join("mono/.git/x/agents")).unwrap();
    std::fs::write(t.join("mono/.git/x/agents/memory-index.md"), "").unwrap();
    // Below: each package's memory, none in dependencies or hidden folders.
    assert_eq!(memory_roots(&t.join("mono")), [t.join("mono/pkg/a"), t.join("mono/pkg/b")]);
    // The folder itself; a folder inside a project (Emacs takes `agents/` for one).
    assert_eq!(memory_roots(&t.join("mono/pkg/a")), [t.join("mono/pkg/a")]);
    assert_eq!(memory_roots(&t.join("mono/pkg/a/agents")), [t.join("mono/pkg/a")]);
    // A dependency's or a hidden folder's memory is never a project of its own.
    assert!(in_skipped(Path::new("node_modules/dep")) && in_skipped(Path::new("libs/.venv/x")));
    assert!(!in_skipped(Path::new("pkg/a")));
    // No memory anywhere: the folder, as before.
    std::fs::create_dir_all(t.join("empty/deep")).unwrap();
    assert_eq!(memory_roots(&t.join("empty")), [t.join("empty")]);
}

/// Found by review (issue 52): a memory in a shared, world-writable
/// ancestor folder, or in one another user owns, was adopted by a project
/// that has none below it. The search stops there and says why; the folder
/// itself, started in, is still its own project.
#[cfg(unix)]
#[test]
fn the_search_never_crosses_into_a_shared_or_another_users_folder() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let t = std::fs::canonicalize(tmp.path()).unwrap();
    let shared = t.join("shared");
    let deep = shared.join("me/proj");
    std::fs::create_dir_all(shared.join("agents")).unwrap();
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(shared.join("agents/memory-index.md"), "").unwrap();
    assert_eq!(find_root(&deep), Some(shared.clone()), "a folder of one's own is searched");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    assert_eq!(find_root(&deep), None);
    let why = passed_over(&deep).expect("said");
    assert!(why.contains(&shared.display().to_string()) && why.contains("every user can write to"), "{why}");
    assert_eq!(find_root(&shared), Some(shared.clone()), "started in, it is the project");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Another user's folder (only root can give a folder away; otherwise this half is not run).
    if std::os::unix::fs::chown(&shared, Some(65534), None).is_ok() {
        assert_eq!(find_root(&deep), None);
        assert!(passed_over(&deep).is_some_and(|w| w.contains("another user owns")), "{:?}", passed_over(&deep));
    }
    assert_eq!(passed_over(&t.join("elsewhere")), None, "no memory passed over: nothing to say");
}
