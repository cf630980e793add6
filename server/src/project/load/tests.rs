//! Tests of the loader: the root finder.

use super::*;
use crate::project::find_root;

#[test]
fn find_root_walks_up_to_the_index_or_the_config() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let deep = root.join("a/b/c");
    fs::create_dir_all(&deep).unwrap();
    assert_eq!(find_root(&deep), None);
    fs::create_dir_all(root.join("a/agents")).unwrap();
    fs::write(root.join("a/agents/memory-index.md"), "# Memory Index\n").unwrap();
    assert_eq!(find_root(&deep), Some(root.join("a")));
    assert_eq!(find_root(&root.join("a")), Some(root.join("a")));
    fs::write(root.join("a/b/memory-index.toml"), "").unwrap();
    assert_eq!(find_root(&deep), Some(root.join("a/b")));
    assert_eq!(find_root(&root), None);
}

#[test]
fn find_root_ignores_a_folder_named_like_the_index() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    fs::create_dir_all(root.join("agents/memory-index.md")).unwrap();
    assert_eq!(find_root(&root), None);
    assert_eq!(find_root(&root.join("missing/dir")), None);
}
