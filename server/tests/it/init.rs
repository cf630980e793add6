//! `memory-index-lsp init`: skills, merged hooks and the recall note, idempotent, refusing malformed settings.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use support::*;

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-index-lsp")).args(args).current_dir(cwd).output().expect("run")
}

fn stderr(o: &Output) -> String {
    said(o)
}

const INDEX: &str = "# Memory Index\n\nDecisions of the project.\n\n## agents/decisions/testing.md\n\n/when writing mock tests | mock patch\n";
const TESTING: &str = "# Testing\n\n## When Writing Mock Tests\n\nPatch where the name is used.\n";

fn clean_workspace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tmp");
    fs::create_dir_all(tmp.path().join("agents/decisions")).expect("mkdir");
    fs::write(tmp.path().join("agents/memory-index.md"), INDEX).expect("index");
    fs::write(tmp.path().join("agents/decisions/testing.md"), TESTING).expect("decision");
    tmp
}

#[test]
fn init_writes_skills_hooks_and_the_note_and_a_second_run_changes_nothing() {
    let ws = clean_workspace();
    let root = ws.path();
    assert_eq!(run(&["check"], root).status.code(), Some(0));
    let o = run(&["init"], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for skill in ["when", "how"] {
        let shipped =
            fs::read_to_string(repo().join(format!("editors/claude-code/skills/{skill}/SKILL.md"))).expect("shipped");
        let written = fs::read_to_string(root.join(format!(".claude/skills/{skill}/SKILL.md"))).expect("written");
        assert_eq!(written, shipped);
    }
    let settings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root.join(".claude/settings.json")).expect("settings")).expect("json");
    for event in ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUseFailure"] {
        // Silent without the program; a session's start says what to install (`Agent::hook_command`).
        let want = memory_index_lsp::project::agents::Agent::Claude.hook_command(event == "SessionStart");
        assert_eq!(settings["hooks"][event][0]["hooks"][0]["command"], want.as_str(), "{event}");
    }
    assert_eq!(settings["hooks"]["PreToolUse"][0]["matcher"], "Bash");
    let index = fs::read_to_string(root.join("agents/memory-index.md")).expect("index");
    assert!(
        index.starts_with("# Memory Index\n\nDecisions of the project.\n\nRecall a decision with `/when <situation>`"),
        "{index}"
    );
    assert!(index.contains("to read only if it does).\n\n## agents/decisions/testing.md\n"), "{index}");
    assert_eq!(run(&["check"], root).status.code(), Some(0), "the note adds no finding");

    let before = snapshot(root);
    let again = run(&["init", "."], root);
    assert_eq!(again.status.code(), Some(0));
    assert!(stderr(&again).contains("already set up"), "{}", stderr(&again));
    assert_eq!(snapshot(root), before);
}

#[test]
fn existing_settings_keep_their_hooks_and_permissions_byte_for_byte() {
    let ws = clean_workspace();
    let root = ws.path();
    fs::create_dir_all(root.join(".claude")).expect("mkdir");
    let original = "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test:*)\"],\n    \"deny\": [\"Read(./.env)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Edit|Write\",\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"./scripts/guard.sh\" }]\n      }\n    ],\n    \"Stop\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"say done\" }] }]\n  },\n  \"env\": { \"FOO\": \"1\" }\n}\n";
    fs::write(root.join(".claude/settings.json"), original).expect("settings");
    let o = run(&["init"], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let merged = fs::read_to_string(root.join(".claude/settings.json")).expect("settings");
    // Removing what init inserted gives the original back.
    let v: serde_json::Value = serde_json::from_str(&merged).expect("json");
    assert_eq!(v["permissions"]["deny"][0], "Read(./.env)");
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./scripts/guard.sh");
    assert_eq!(v["hooks"]["PreToolUse"][1]["matcher"], "Bash");
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "say done");
    // Every byte of the original is kept, in order: the merge only inserts.
    let diff = similar::TextDiff::from_chars(original, merged.as_str());
    let deleted: String = diff
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Delete)
        .map(|c| c.value().to_string())
        .collect();
    assert!(deleted.is_empty(), "lost {deleted:?} in\n{merged}");
    let added: usize = merged.lines().count() - original.lines().count();
    assert!(added > 10, "{merged}");
    let before = fs::read(root.join(".claude/settings.json")).expect("read");
    assert_eq!(run(&["init"], root).status.code(), Some(0));
    assert_eq!(fs::read(root.join(".claude/settings.json")).expect("read"), before, "second run");
}

#[test]
fn a_malformed_settings_file_is_refused_with_its_line_and_nothing_is_written() {
    let ws = clean_workspace();
    let root = ws.path();
    fs::create_dir_all(root.join(".claude")).expect("mkdir");
    fs::write(root.join(".claude/settings.json"), "{\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}\n").expect("w");
    let before = snapshot(root);
    let o = run(&["init"], root);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains(".claude/settings.json: line 3, column"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(snapshot(root), before);
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let ws = clean_workspace();
    let root = ws.path();
    let before = snapshot(root);
    let o = run(&["init", "--dry-run"], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    for want in [
        "+++ b/.claude/skills/when/SKILL.md",
        "+++ b/.claude/skills/how/SKILL.md",
        "+++ b/.claude/settings.json",
        "+++ b/agents/memory-index.md",
        "+Recall a decision with `/when <situation>`",
        "+    \"PreToolUse\": [",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    assert_eq!(snapshot(root), before);
}

#[test]
fn the_demo_index_already_says_how_to_recall_and_an_empty_folder_gets_a_memory() {
    let tmp = tempfile::tempdir().expect("tmp");
    let index = repo().join("fixtures/demo/agents/memory-index.md");
    fs::create_dir_all(tmp.path().join("agents")).expect("mkdir");
    fs::copy(&index, tmp.path().join("agents/memory-index.md")).expect("copy");
    assert_eq!(run(&["init"], tmp.path()).status.code(), Some(0));
    assert_eq!(fs::read(tmp.path().join("agents/memory-index.md")).expect("read"), fs::read(&index).expect("read"));
    let empty = tempfile::tempdir().expect("tmp");
    let o = run(&["init"], empty.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("a new memory index"), "{}", stderr(&o));
    let index = fs::read_to_string(empty.path().join("agents/memory-index.md")).expect("a new index");
    assert!(index.starts_with("# Memory Index\n") && index.contains("/when <situation>"), "{index}");
    // A memory kept elsewhere is named as it is, in the index and the skills (found by review).
    let custom = tempfile::tempdir().expect("tmp");
    fs::write(custom.path().join("memory-index.toml"), "index = \"docs/memory.md\"\ndecisions = \"docs/decisions\"\n")
        .expect("config");
    assert_eq!(run(&["init"], custom.path()).status.code(), Some(0));
    let index = fs::read_to_string(custom.path().join("docs/memory.md")).expect("the index");
    assert!(index.contains("the decision file in docs/decisions/") && !index.contains("agents/"), "{index}");
    let skill = fs::read_to_string(custom.path().join(".claude/skills/when/SKILL.md")).expect("skill");
    assert!(skill.contains("(docs/memory.md)") && !skill.contains("agents/memory-index.md"), "{skill}");
    assert!(stderr(&run(&["init"], custom.path())).contains("already set up"), "a second run changes nothing");
    // An MCP server kept from another project is said (found by review).
    fs::write(
        custom.path().join(".mcp.json"),
        "{\"mcpServers\": {\"memory-index\": {\"command\": \"memory-index-lsp\", \"args\": [\"mcp\", \"--root\", \"/old/proj\"]}}}\n",
    )
    .expect("mcp");
    assert!(stderr(&run(&["init"], custom.path()))
        .contains("runs the MCP server with `--root /old/proj`, not this project"));
    // A root that is no folder is named as such, not as a lock it cannot take (found by review).
    let gone = custom.path().join("no/such/folder");
    let o = run(&["init", gone.to_str().expect("utf-8")], custom.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not a folder: create it first"), "{}", stderr(&o));
}

/// Found by review: what init writes runs `memory-index-lsp` by name, and
/// init said nothing when that name found nothing; `init --agent all`
/// suggested importing the instructions file it had just written.
#[test]
fn init_says_when_its_program_is_not_on_path_and_never_suggests_its_own_files() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
    let with_path = |path: &std::ffi::OsStr| {
        Command::new(bin).args(["init", "--agent", "all"]).current_dir(root).env("PATH", path).output().expect("run")
    };
    let o = with_path(std::ffi::OsStr::new("/nonexistent"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("`memory-index-lsp` is not on PATH"), "{err}");
    assert!(!err.contains("bring them in"), "its own files are not decisions to import: {err}");
    // In a second project, with the program's folder on PATH: no note.
    let other = tempfile::tempdir().expect("tmp");
    let o = Command::new(bin)
        .arg("init")
        .current_dir(other.path())
        .env("PATH", bin.parent().expect("folder"))
        .output()
        .expect("run");
    assert!(!stderr(&o).contains("not on PATH"), "{}", stderr(&o));
}

/// What a command printed, as a terminal shows it: its results (stdout), then its notes (stderr).
fn said(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}
