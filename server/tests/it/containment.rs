//! Nothing outside the root: go to definition, document links, rename, file renames and `fix`
//! never lead to, read or write a path outside the workspace (after `..` and symlinks).

#![cfg(unix)]

use crate::lsp_support;

use std::fs;
use std::path::Path;
use std::process::Command;

use lsp_support::*;
use serde_json::{json, Value};

const INDEX: &str = "# Memory Index\n\n## agents/decisions/a.md\n\n/when alpha\n/when leaked\n\n\
## ../outside/secret.md\n\n/when secret\n";
const DECISION: &str =
    "# A\n\n## When Alpha\n\nAlpha body. See `/when ..leak.md` and `/when ..../outside/secret.md`.\n";
const SECRET: &str = "# Secret\n\n## When Secret\n\nsecret body\n\n## When Leaked\n\nleaked body\n";

/// A workspace `root/` next to `outside/`, whose `secret.md` the root's
/// `agents/decisions/leak.md` links to.
fn setup() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = tmp.path().canonicalize().expect("canon");
    let (root, outside) = (base.join("root"), base.join("outside"));
    fs::create_dir_all(root.join("agents/decisions")).expect("mkdir");
    fs::create_dir_all(&outside).expect("mkdir");
    fs::write(root.join("agents/memory-index.md"), INDEX).expect("write");
    fs::write(root.join("agents/decisions/a.md"), DECISION).expect("write");
    fs::write(outside.join("secret.md"), SECRET).expect("write");
    std::os::unix::fs::symlink(outside.join("secret.md"), root.join("agents/decisions/leak.md")).expect("symlink");
    (tmp, root, outside)
}

/// Every `file://` URI in a JSON value.
fn uris(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.starts_with("file://") => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| uris(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                if k.starts_with("file://") {
                    out.push(k.clone());
                }
                uris(x, out);
            }
        }
        _ => {}
    }
}

fn assert_inside(root: &Path, what: &str, v: &Value) {
    let mut found = Vec::new();
    uris(v, &mut found);
    let prefix = format!("{}/", uri(root));
    for u in found {
        assert!(u.starts_with(&prefix), "{what} leads outside the root: {u}\n{v:#}");
    }
}

fn at(line: u32, character: u32, u: &str) -> Value {
    json!({"textDocument": {"uri": u}, "position": {"line": line, "character": character}})
}

#[test]
fn navigation_and_edits_stay_inside_the_root() {
    let (_tmp, root, outside) = setup();
    let index = uri(&root.join("agents/memory-index.md"));
    let a = uri(&root.join("agents/decisions/a.md"));
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({"workspace": {"workspaceEdit": {"documentChanges": true}}}));
    c.diagnostics(&index, |d| !d.is_empty());

    // Go to definition: the section naming `../outside/secret.md`, the entry bound
    // only by the outside file, and file-mode invocations of the link and of `..`.
    for (what, params) in [
        ("section ../outside", at(7, 5, &index)),
        ("entry /when leaked", at(5, 8, &index)),
        ("entry /when secret", at(9, 8, &index)),
        ("invocation ..leak.md", at(4, 30, &a)),
        ("invocation ..../outside", at(4, 55, &a)),
    ] {
        let r = c.request("textDocument/definition", params);
        assert!(r.get("error").is_none(), "{what}: {r}");
        assert_inside(&root, what, &r["result"]);
    }
    // Document links of both files.
    for u in [&index, &a] {
        let r = c.request("textDocument/documentLink", json!({"textDocument": {"uri": u}}));
        assert_inside(&root, "documentLink", &r["result"]);
    }
    // Rename a trigger (its heading and invocations follow): only files inside the root.
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": index}, "position": {"line": 4, "character": 8}, "newName": "alphas"}),
    );
    assert!(r["result"].is_object(), "{r}");
    assert_inside(&root, "rename", &r["result"]);
    // Renaming a decision file to a path outside the root edits nothing outside it.
    let r =
        c.request("workspace/willRenameFiles", json!({"files": [{"oldUri": a, "newUri": uri(&outside.join("a.md"))}]}));
    assert_inside(&root, "willRenameFiles", &r["result"]);
    // Requests about a file outside every workspace folder answer nothing, and the server lives on.
    let secret = uri(&outside.join("secret.md"));
    for m in ["textDocument/definition", "textDocument/hover", "textDocument/references"] {
        let mut p = at(2, 5, &secret);
        p["context"] = json!({"includeDeclaration": true});
        let r = c.request(m, p);
        assert!(r["result"].is_null() || r["result"] == json!([]), "{m} on an outside file: {r}");
    }
    assert_eq!(c.shutdown(), Some(0));
    assert_eq!(fs::read_to_string(outside.join("secret.md")).expect("read"), SECRET, "the outside file is untouched");
}

#[test]
fn fix_and_resolve_never_touch_the_outside_file() {
    let (_tmp, root, outside) = setup();
    let bin = env!("CARGO_BIN_EXE_memory-index-lsp");
    let fix = Command::new(bin).arg("fix").arg(&root).output().expect("run fix");
    assert_eq!(fix.status.code(), Some(1), "findings remain: {}", String::from_utf8_lossy(&fix.stdout));
    assert_eq!(fs::read_to_string(outside.join("secret.md")).expect("read"), SECRET);
    for q in ["when ..leak.md", "when ..../outside/secret.md", "when leaked"] {
        let r = Command::new(bin).args(["resolve", "--root"]).arg(&root).arg(q).output().expect("resolve");
        let out = String::from_utf8_lossy(&r.stdout);
        assert_eq!(r.status.code(), Some(1), "{q}: {out}");
        assert!(!out.contains("secret body") && !out.contains("leaked body"), "{q} printed the outside file: {out}");
    }
}
