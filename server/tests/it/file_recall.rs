//! Recall for the files an agent reads and edits: a decision scoped to `src/**/*.ts` reaches every agent's file tool on a matching file (payloads recorded from the real CLIs), once a session, and nothing reaches it on another file, outside the project or from a hostile payload; and a decision the model reads with a tool (Claude Code's Skill) is not injected again.

use crate::support::*;

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

const SCOPED: &str = "# Web\n\n## When Writing TypeScript\n\nApplies to files matching `src/**/*.ts`.\n\n\
Compile with strict mode on; never widen a type to `any` to silence the checker.\n";
const HEADER: &str =
    "[memory-index] /when writing typescript \u{2192} When Writing TypeScript (agents/decisions/web.md:3";

/// The demo with a decision scoped to `src/**/*.ts` and the default thresholds.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo().join("fixtures/demo"), tmp.path());
    fs::write(tmp.path().join("agents/decisions/web.md"), SCOPED).expect("decision");
    let index = tmp.path().join("agents/memory-index.md");
    let text = fs::read_to_string(&index).expect("index");
    fs::write(&index, format!("{text}\n## agents/decisions/web.md\n\n/when writing typescript | strict mode\n"))
        .expect("index");
    fs::create_dir_all(tmp.path().join("src")).expect("src");
    fs::write(tmp.path().join("src/app.ts"), "let a = 1;\n").expect("file");
    tmp
}

fn hook(stdin: &[u8], state: &Path, cwd: &Path) -> Output {
    let mut c = bin_in(cwd);
    c.arg("hook").env("MEMORY_INDEX_LSP_CACHE_DIR", state);
    for var in ["COPILOT_CLI", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"] {
        c.env_remove(var);
    }
    run_with_stdin(c, stdin)
}

/// A recorded payload with the recording's project folder replaced by `root`, the session by `session`.
fn recorded(file: &str, root: &Path, session: &str) -> Vec<u8> {
    let path = repo().join("server/tests/data/agent-payloads").join(file);
    let text = fs::read_to_string(path).expect("recorded payload").replace("/tmp/PROJECT", &root.display().to_string());
    let mut v: Value = serde_json::from_str(&text).expect("JSON");
    for key in ["session_id", "sessionId"] {
        if v.get(key).is_some() {
            v[key] = Value::String(session.into());
        }
    }
    v.to_string().into_bytes()
}

/// The context of an answer, whatever the agent's shape.
fn context(o: &Output) -> Option<String> {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", said(o));
    if o.stdout.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let text = v.pointer("/hookSpecificOutput/additionalContext").or_else(|| v.get("additionalContext"));
    Some(text.and_then(Value::as_str).expect("context").to_string())
}

/// Every agent's file tool, as recorded: (payload, what it does).
const FILE_EVENTS: [&str; 12] = [
    "codex/PreToolUse-apply_patch.json",
    "codex/PreToolUse-cat.json",
    "copilot/preToolUse-view.json",
    "copilot/preToolUse-edit.json",
    "copilot/preToolUse-create.json",
    "copilot/pascal/PreToolUse-Read.json",
    "copilot/pascal/PreToolUse-Edit.json",
    "copilot/pascal/PreToolUse-Write.json",
    "gemini/AfterTool-read_file.json",
    "gemini/AfterTool-replace.json",
    "gemini/AfterTool-write_file.json",
    "claude",
];

/// Claude Code's `Read` (its payload shape is documented and used by the Claude Code e2e test).
fn claude(root: &Path, session: &str, path: &str) -> Vec<u8> {
    serde_json::json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
        "tool_name": "Read", "tool_input": {"file_path": path}, "tool_use_id": "t1"})
    .to_string()
    .into_bytes()
}

#[test]
fn a_scoped_decision_reaches_every_agents_file_tools_once_a_session() {
    let ws = project();
    let state = tempfile::tempdir().expect("state");
    for (i, file) in FILE_EVENTS.iter().enumerate() {
        let session = format!("s{i}");
        let stdin = if *file == "claude" {
            claude(ws.path(), &session, &ws.path().join("src/app.ts").display().to_string())
        } else {
            recorded(file, ws.path(), &session)
        };
        let got = context(&hook(&stdin, state.path(), ws.path())).unwrap_or_else(|| panic!("{file}: nothing injected"));
        assert!(got.starts_with(HEADER), "{file}: {got}");
        assert!(got.contains("never widen a type to `any`"), "{file}: the body: {got}");
        // The same file again in the session: already in the context.
        let again = context(&hook(&stdin, state.path(), ws.path()));
        assert_eq!(again, None, "{file}: once a session");
    }
}

#[test]
fn nothing_reaches_other_files_or_paths_outside_the_project() {
    let ws = project();
    let state = tempfile::tempdir().expect("state");
    let root = ws.path().display().to_string();
    let outside = tempfile::tempdir().expect("outside");
    fs::create_dir_all(outside.path().join("src")).expect("src");
    for (i, path) in [
        format!("{root}/src/app.css"),
        format!("{root}/lib/app.ts"),
        format!("{root}/src/../docs/app.ts"),
        format!("{}/src/app.ts", outside.path().display()),
        "/etc/passwd".to_string(),
        String::new(),
    ]
    .iter()
    .enumerate()
    {
        let o = hook(&claude(ws.path(), &format!("o{i}"), path), state.path(), ws.path());
        assert_eq!(context(&o), None, "{path}");
    }
    // A relative path, from the agent's working folder.
    let o = hook(&claude(&ws.path().join("src"), "rel", "./app.ts"), state.path(), ws.path());
    assert!(context(&o).is_some_and(|c| c.starts_with(HEADER)));
}

#[test]
fn hostile_file_payloads_keep_the_hook_contract() {
    let ws = project();
    let state = tempfile::tempdir().expect("state");
    let huge_patch = format!("*** Begin Patch\n{}*** End Patch\n", "*** Update File: src/x.ts\n".repeat(200_000));
    for (name, payload) in [
        ("a path that is not a string", serde_json::json!({"file_path": 3})),
        ("an array", serde_json::json!({"file_path": ["src/app.ts"]})),
        ("no path", serde_json::json!({})),
        ("control characters", serde_json::json!({"file_path": "src/\u{1b}[31mapp.ts"})),
        ("a path past any length", serde_json::json!({"file_path": format!("src/{}.ts", "a/".repeat(100_000))})),
    ] {
        let v = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": name, "cwd": ws.path(),
            "tool_name": "Edit", "tool_input": payload});
        let o = hook(v.to_string().as_bytes(), state.path(), ws.path());
        assert_eq!(o.status.code(), Some(0), "{name}");
        assert!(o.stdout.is_empty() || context(&o).is_some_and(|c| c.starts_with(HEADER)), "{name}");
    }
    let v = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "patch", "cwd": ws.path(),
        "tool_name": "apply_patch", "tool_input": {"command": huge_patch}, "turn_id": "t"});
    let o = hook(v.to_string().as_bytes(), state.path(), ws.path());
    assert!(context(&o).is_some_and(|c| c.starts_with(HEADER)), "a patch touching one file 200,000 times");
}

/// `import` of a folder tree reads its nested AGENTS.md and CLAUDE.md files
/// as decisions scoped to their folders: one reaches an agent editing a file
/// there, and not one editing a file elsewhere; a second import changes nothing.
#[test]
fn nested_agents_files_import_as_decisions_scoped_to_their_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    for (path, text) in [
        ("packages/api/AGENTS.md", "# API\n\n## Error Responses\n\nReturn problem+json for every error.\n"),
        ("packages/web/CLAUDE.md", "# Web\n\n## Components\n\nOne component per file.\n"),
        ("packages/web/src/App.tsx", "export {};\n"),
        ("packages/api/src/errors.ts", "export {};\n"),
    ] {
        fs::create_dir_all(root.join(path).parent().expect("parent")).expect("dir");
        fs::write(root.join(path), text).expect("file");
    }
    fs::create_dir_all(root.join("agents")).expect("agents");
    fs::write(root.join("agents/memory-index.md"), "# Memory Index\n").expect("index");
    let import = || {
        let mut c = bin_in(root);
        c.args(["import", "packages"]);
        c.output().expect("import")
    };
    let o = import();
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let before = fs::read_to_string(root.join("agents/memory-index.md")).expect("index");
    assert!(said(&import()).contains("0 new, 0 updated, 2 unchanged"));
    assert_eq!(fs::read_to_string(root.join("agents/memory-index.md")).expect("index"), before);
    let state = tempfile::tempdir().expect("state");
    let edit = |session: &str, path: &str| {
        let v = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
            "tool_name": "Edit", "tool_input": {"file_path": root.join(path)}});
        context(&hook(v.to_string().as_bytes(), state.path(), root))
    };
    let api = edit("a", "packages/api/src/errors.ts").expect("the API's rule");
    assert!(api.contains("Return problem+json") && !api.contains("One component per file"), "{api}");
    let web = edit("b", "packages/web/src/App.tsx").expect("the web's rule");
    assert!(web.contains("One component per file") && !web.contains("problem+json"), "{web}");
    assert_eq!(edit("c", "README.md"), None);
    let check = bin_in(root).arg("check").output().expect("check");
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stdout));
}

/// The recall view a prompt leaves behind answers a file event without
/// loading the memory only while no decision has a scope: once one has,
/// the file's decision comes, as it does without a view.
#[test]
fn the_recall_view_never_hides_a_scoped_decision() {
    let ws = project();
    let state = tempfile::tempdir().expect("state");
    let web = ws.path().join("agents/decisions/web.md");
    let unscoped = SCOPED.replace("Applies to files matching `src/**/*.ts`.\n\n", "");
    fs::write(&web, &unscoped).expect("unscoped");
    let prompt = |session: &str| {
        let v = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": ws.path(),
            "prompt": "what does this regex do: ^a+$"});
        hook(v.to_string().as_bytes(), state.path(), ws.path())
    };
    let read = |session: &str| {
        let path = ws.path().join("src/app.ts").display().to_string();
        context(&hook(&claude(ws.path(), session, &path), state.path(), ws.path()))
    };
    // A prompt keeps a view; a Read is then answered from it: nothing is scoped.
    assert_eq!(context(&prompt("p1")), None);
    assert_eq!(read("r1"), None);
    // The scope written: the view is of files that changed, and the decision comes.
    fs::write(&web, SCOPED).expect("scoped");
    assert_eq!(context(&prompt("p2")), None);
    assert!(read("r2").is_some_and(|c| c.starts_with(HEADER)), "a view kept with the scope must not hide it");
}

/// What a command printed, as a terminal shows it: its results (stdout), then its notes (stderr).
/// Issue 50: a decision the model reads with Claude Code's Skill tool (`/when`,
/// the payload recorded from the real CLI) counts as shown: a prompt of the
/// same session does not inject it again; another session's prompt does.
#[test]
fn a_decision_read_through_the_skill_tool_is_not_injected_again() {
    let tmp = project();
    let (root, state) = (tmp.path(), tempfile::tempdir().expect("state"));
    let prompt = |session: &str| {
        serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": root,
            "prompt": "We are writing mock tests for the booking client; where should the mock patch go?"})
        .to_string()
        .into_bytes()
    };
    let read = hook(&recorded("claude/PreToolUse-Skill.json", root, "s1"), state.path(), root);
    assert_eq!(context(&read), None, "a read says nothing: {}", said(&read));
    let same = context(&hook(&prompt("s1"), state.path(), root));
    assert!(same.as_deref().is_none_or(|c| !c.contains("When Writing Mock Tests")), "{same:?}");
    let other = context(&hook(&prompt("s2"), state.path(), root)).expect("another session is told");
    assert!(other.contains("[memory-index] /when writing mock tests"), "{other}");
}

fn said(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}
