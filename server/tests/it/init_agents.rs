//! `memory-index-lsp init --agent codex|copilot|gemini|all`: each agent's project files merged into what is there, every foreign key kept, a second run a no-op, malformed files refused with their line, the trust each agent needs said.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use crate::support::snapshot;

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-index-lsp")).args(args).current_dir(cwd).output().expect("run")
}

fn stderr(o: &Output) -> String {
    said(o)
}

/// Existing configuration of every agent, each with keys of its own.
const EXISTING: [(&str, &str); 8] = [
    (".codex/config.toml", "# my Codex settings\nmodel = \"o4\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n"),
    (".codex/hooks.json", "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}\n    ]\n  }\n}\n"),
    (".github/hooks/audit.json", "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"./audit.sh\"}]}}\n"),
    (".github/copilot-instructions.md", "Use TypeScript strict mode.\n"),
    (".mcp.json", "{\n  \"mcpServers\": {\n    \"docs\": {\"command\": \"docs-mcp\"}\n  }\n}\n"),
    (".gemini/settings.json", "{\n  \"theme\": \"GitHub\",\n  \"hooks\": {\n    \"AfterTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"./fmt.sh\"}]}]\n  }\n}\n"),
    ("AGENTS.md", "# Agents\n\nRun `make test` before every commit.\n"),
    ("GEMINI.md", "Answer in British English.\r\n"),
];

fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    crate::support::copy_dir(&crate::support::repo().join("fixtures/demo"), tmp.path());
    for (rel, text) in EXISTING {
        let path = tmp.path().join(rel);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    }
    tmp
}

#[test]
fn init_agent_all_keeps_every_foreign_key_and_a_second_run_changes_nothing() {
    let tmp = project();
    let root = tmp.path();
    let o = run(&["init", "--agent", "all", root.to_str().expect("utf-8")], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let read = |rel: &str| fs::read_to_string(root.join(rel)).expect(rel);
    // Text files: what was there is still there, untouched, before the additions.
    for (rel, text) in EXISTING {
        let now = read(rel);
        match rel {
            ".github/hooks/audit.json" => assert_eq!(now, text, "another tool's hook file is never touched"),
            r if r.ends_with(".md") || r.ends_with(".toml") => assert!(now.starts_with(text), "{rel}:\n{now}"),
            _ => {}
        }
    }
    let json = |rel: &str| serde_json::from_str::<serde_json::Value>(&read(rel)).expect(rel);
    let codex_hooks = json(".codex/hooks.json");
    assert_eq!(codex_hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "./lint.sh");
    for event in ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] {
        assert!(
            codex_hooks["hooks"][event].to_string().contains("memory-index-lsp hook --agent codex"),
            "{event}: {codex_hooks}"
        );
    }
    let config: toml::Table = read(".codex/config.toml").parse().expect("valid TOML");
    assert_eq!(config["model"].as_str(), Some("o4"));
    assert_eq!(config["mcp_servers"]["docs"]["command"].as_str(), Some("docs-mcp"));
    assert_eq!(config["mcp_servers"]["memory-index"]["command"].as_str(), Some("memory-index-lsp"));
    assert_eq!(config["features"]["hooks"].as_bool(), Some(true));
    let mcp = json(".mcp.json");
    assert_eq!(mcp["mcpServers"]["docs"]["command"], "docs-mcp");
    assert_eq!(mcp["mcpServers"]["memory-index"]["args"][0], "mcp");
    let copilot = json(".github/hooks/memory-index.json");
    assert_eq!(copilot["version"], 1);
    for event in ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"] {
        let want = memory_index_lsp::project::agents::Agent::Copilot.hook_command(event == "SessionStart");
        assert_eq!(copilot["hooks"][event][0]["bash"], want.as_str(), "{event}");
        assert_eq!(copilot["hooks"][event][0]["powershell"], "memory-index-lsp hook --agent copilot", "{event}");
    }
    let gemini = json(".gemini/settings.json");
    assert_eq!(gemini["theme"], "GitHub");
    assert_eq!(gemini["hooks"]["AfterTool"][0]["hooks"][0]["command"], "./fmt.sh");
    assert!(gemini["hooks"]["AfterTool"].to_string().contains("memory-index-lsp hook --agent gemini"));
    assert!(gemini["hooks"]["BeforeAgent"].to_string().contains("memory-index-lsp hook --agent gemini"));
    assert_eq!(gemini["mcpServers"]["memory-index"]["command"], "memory-index-lsp");
    // One shared AGENTS.md, which Codex and Copilot read, and Gemini once its settings name it.
    assert_eq!(gemini["context"]["fileName"], serde_json::json!(["AGENTS.md", "GEMINI.md"]));
    let agents_md = read("AGENTS.md");
    assert_eq!(agents_md.matches("<!-- memory-index:start").count(), 1, "{agents_md}");
    assert!(agents_md.contains("memory-index-lsp resolve \"when <situation>\""), "{agents_md}");
    assert_eq!(read("GEMINI.md"), "Answer in British English.\r\n", "no copy of the block");
    assert_eq!(read(".github/copilot-instructions.md"), "Use TypeScript strict mode.\n", "no copy of the block");
    let err = stderr(&o);
    for want in ["run `codex` in", "approve the memory-index hooks", "run `copilot` in", "run `gemini` in"] {
        assert!(err.contains(want), "init says what trust each agent needs: {want}\n{err}");
    }
    // A second run, and one naming the agents one by one, change no byte.
    let before = snapshot(root);
    for args in
        [vec!["init", "--agent", "all", "."], vec!["init", "--agent", "codex,gemini", "--agent", "copilot", "."]]
    {
        let o = run(&args, root);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).contains("already set up for"), "{}", stderr(&o));
        assert_eq!(snapshot(root), before, "{args:?} changed a file");
    }
}

#[test]
fn an_older_instructions_block_is_updated_in_place() {
    let tmp = project();
    let root = tmp.path();
    let old = "# Agents\n\n<!-- memory-index:start -->\nan older text\n<!-- memory-index:end -->\n\n## Release\n\nTag from main.\n";
    fs::write(root.join("AGENTS.md"), old).expect("write");
    let o = run(&["init", "--agent", "codex", "."], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let now = fs::read_to_string(root.join("AGENTS.md")).expect("AGENTS.md");
    assert!(
        now.starts_with("# Agents\n\n<!-- memory-index:start (written by")
            && now.ends_with("\n\n## Release\n\nTag from main.\n"),
        "{now}"
    );
    assert!(!now.contains("an older text"));
    assert!(!root.join(".claude/settings.json").exists(), "--agent codex sets up Codex alone");
}

#[test]
fn malformed_agent_files_are_refused_with_their_line_and_nothing_is_written() {
    for (rel, text, agent, want) in [
        (".codex/config.toml", "model = \"o4\"\n[mcp_servers\n", "codex", "line 2, column"),
        (".gemini/settings.json", "{\n  \"theme\": \"GitHub\",\n}\n", "gemini", "line 2, column 20"),
        (".mcp.json", "{\"mcpServers\": []}", "copilot", "`mcpServers` is not an object"),
        ("AGENTS.md", "x\n<!-- memory-index:start -->\nhalf a block\n", "codex", "without `<!-- memory-index:end -->`"),
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        crate::support::copy_dir(&crate::support::repo().join("fixtures/demo"), tmp.path());
        let path = tmp.path().join(rel);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, text).expect("write");
        let before = snapshot(tmp.path());
        let o = run(&["init", "--agent", agent, "."], tmp.path());
        assert_eq!(o.status.code(), Some(2), "{rel}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(rel) && err.contains(want) && err.contains("nothing was written"), "{rel}: {err}");
        assert_eq!(snapshot(tmp.path()), before, "{rel}: nothing written");
    }
}

#[test]
fn dry_run_shows_every_agents_diff_and_an_unknown_agent_is_refused() {
    let tmp = project();
    let root = tmp.path();
    let before = snapshot(root);
    let o = run(&["init", "--agent", "all", "--dry-run", "."], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let diff = String::from_utf8_lossy(&o.stdout);
    for file in [
        ".codex/config.toml",
        ".codex/hooks.json",
        ".github/hooks/memory-index.json",
        ".gemini/settings.json",
        "AGENTS.md",
    ] {
        assert!(diff.contains(&format!("+++ b/{file}")), "{file}:\n{diff}");
    }
    assert_eq!(snapshot(root), before);
    let o = run(&["init", "--agent", "cursor", "."], root);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown agent `cursor`"), "{}", stderr(&o));
    // Found by review: `--agent ""` was read as the default, Claude Code.
    let o = run(&["init", "--agent", "", "."], root);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--agent names no agent"), "{}", stderr(&o));
    assert_eq!(snapshot(root), before);
}

/// Found by review: with AGENTS.md, GEMINI.md and the Copilot instructions as links to CLAUDE.md
/// (a common layout), init wrote the block through the first link, then stopped at the second as
/// "changed since it was read", listing none of the ten files it had written; a `.claude` linked
/// out of the project stopped it after the index was written.
#[cfg(unix)]
#[test]
fn instructions_linked_to_one_file_get_one_block_and_a_folder_out_of_the_project_writes_nothing() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    fs::write(root.join("CLAUDE.md"), "# Guide\n\n## Testing\n\nRun pnpm test.\n").expect("write");
    symlink("CLAUDE.md", root.join("AGENTS.md")).expect("link");
    symlink("CLAUDE.md", root.join("GEMINI.md")).expect("link");
    fs::create_dir(root.join(".github")).expect("mkdir");
    symlink("../CLAUDE.md", root.join(".github/copilot-instructions.md")).expect("link");
    let o = run(&["init", "--agent", "all", "."], root);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let claude = fs::read_to_string(root.join("CLAUDE.md")).expect("read");
    assert_eq!(claude.matches("<!-- memory-index:start").count(), 1, "{claude}");
    assert!(err.contains("changed AGENTS.md (a link to CLAUDE.md): the recall instructions"), "{err}");
    assert!(fs::symlink_metadata(root.join("GEMINI.md")).expect("meta").file_type().is_symlink(), "links kept");
    let before = snapshot(root);
    let again = run(&["init", "--agent", "all", "."], root);
    assert!(stderr(&again).contains("already set up"), "{}", stderr(&again));
    assert_eq!(snapshot(root), before, "a second run changes nothing");

    let out = tempfile::tempdir().expect("tempdir");
    let other = tempfile::tempdir().expect("tempdir");
    symlink(out.path(), other.path().join(".claude")).expect("link");
    let o = run(&["init", "."], other.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("outside the project") && err.contains("nothing was written"), "{err}");
    assert!(!other.path().join("agents").exists(), "no index, no folder: {err}");
    assert_eq!(fs::read_dir(out.path()).expect("read").count(), 0, "nothing through the link");
}

/// Found by review: a `[features]` table of one's own got only a note (Codex then skips the
/// hooks), and a commented `.gemini/settings.json` (Gemini reads comments) stopped every agent.
#[test]
fn an_own_features_table_gets_the_key_and_gemini_settings_keep_their_comments() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    fs::create_dir_all(root.join(".codex")).expect("mkdir");
    fs::create_dir_all(root.join(".gemini")).expect("mkdir");
    fs::write(root.join(".codex/config.toml"), "model = \"o4\"\n\n[features] # ours\nweb_search = true\n").expect("w");
    fs::write(root.join(".gemini/settings.json"), "{\n  // team settings\n  \"theme\": \"GitHub\"\n}\n").expect("w");
    let o = run(&["init", "--agent", "codex,gemini", "."], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let codex = fs::read_to_string(root.join(".codex/config.toml")).expect("read");
    assert!(codex.starts_with("model = \"o4\"\n\n[features] # ours\nweb_search = true\nhooks = true\n"), "{codex}");
    let config: toml::Table = codex.parse().expect("valid TOML");
    assert!(config["mcp_servers"]["memory-index"]["command"].as_str() == Some("memory-index-lsp"), "{codex}");
    let gemini = fs::read_to_string(root.join(".gemini/settings.json")).expect("read");
    assert!(gemini.starts_with("{\n  // team settings\n  \"theme\": \"GitHub\",\n  \"hooks\": {\n"), "{gemini}");
    let again = run(&["init", "--agent", "codex,gemini", "."], root);
    assert!(stderr(&again).contains("already set up"), "{}", stderr(&again));
    assert_eq!(fs::read_to_string(root.join(".codex/config.toml")).expect("read"), codex);
    assert_eq!(fs::read_to_string(root.join(".gemini/settings.json")).expect("read"), gemini);
}

/// Every hook command `init --agent all` wrote, by file and event, as the JSON holds it.
fn hook_commands(root: &Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for rel in
        [".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json", ".github/hooks/memory-index.json"]
    {
        let v: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(root.join(rel)).expect("file")).expect("json");
        for (event, groups) in v["hooks"].as_object().expect("hooks") {
            for g in groups.as_array().expect("groups") {
                let hooks = g.get("hooks").and_then(|h| h.as_array()).cloned().unwrap_or_else(|| vec![g.clone()]);
                for h in hooks {
                    if let Some(c) = h.get("command").or_else(|| h.get("bash")).and_then(|c| c.as_str()) {
                        if c.contains("memory-index-lsp hook") {
                            out.push((rel.to_string(), event.clone(), c.to_string()));
                        }
                    }
                }
            }
        }
    }
    out
}

/// A teammate without the program: every hook command `init` wrote exits 0
/// through a POSIX shell; a session's start prints one line naming what to
/// install (in the shape its agent reads), every other event nothing.
#[test]
fn without_the_program_every_hook_exits_0_and_only_a_start_says_what_to_install() {
    let tmp = project();
    let o = run(&["init", "--agent", "all"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let commands = hook_commands(tmp.path());
    assert!(commands.len() >= 14, "{commands:?}");
    let empty = tempfile::tempdir().expect("PATH without the program");
    for (rel, event, command) in &commands {
        let o = Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .env("PATH", format!("{}:/usr/bin:/bin", empty.path().display()))
            .stdin(std::process::Stdio::null())
            .current_dir(tmp.path())
            .output()
            .expect("sh");
        assert_eq!(o.status.code(), Some(0), "{rel} {event}: {command}: {}", stderr(&o));
        assert!(o.stderr.is_empty(), "{rel} {event}: no shell error: {}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        if event.eq_ignore_ascii_case("SessionStart") {
            assert_eq!(out.lines().count(), 1, "{rel}: one line: {out}");
            assert!(out.contains("memory-index-lsp, which is not installed here"), "{rel}: {out}");
            if out.starts_with('{') {
                serde_json::from_str::<serde_json::Value>(&out).unwrap_or_else(|e| panic!("{rel}: JSON ({e}): {out}"));
            }
        } else {
            assert!(out.is_empty(), "{rel} {event}: silent: {out}");
        }
    }
}

/// What an older `init` wrote (the plain command at every event) is brought
/// up to the guarded command by a second `init`, and nothing else changes.
#[test]
fn an_older_setup_gets_the_guarded_commands() {
    let tmp = project();
    assert_eq!(run(&["init", "--agent", "all"], tmp.path()).status.code(), Some(0));
    let now = hook_commands(tmp.path());
    // Back to what an older init wrote.
    for rel in
        [".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json", ".github/hooks/memory-index.json"]
    {
        let path = tmp.path().join(rel);
        let mut text = fs::read_to_string(&path).expect("file");
        for agent in memory_index_lsp::project::agents::Agent::ALL {
            for start in [true, false] {
                let lit = |s: &str| serde_json::to_string(s).expect("json");
                text = text.replace(&lit(&agent.hook_command(start)), &lit(&agent.plain_hook_command()));
            }
        }
        fs::write(&path, text).expect("write");
    }
    assert!(hook_commands(tmp.path()).iter().all(|(_, _, c)| !c.contains("command -v")), "the older setup");
    let o = run(&["init", "--agent", "all"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(hook_commands(tmp.path()), now, "{}", stderr(&o));
    let before = snapshot(tmp.path());
    assert_eq!(run(&["init", "--agent", "all"], tmp.path()).status.code(), Some(0));
    assert_eq!(snapshot(tmp.path()), before, "a third run changes nothing");
}

/// `min-version` in memory-index.toml: an older program says so once a
/// session, at its start (and in `check`), and goes on; a version it cannot
/// read is an `invalid-config` finding.
#[test]
fn a_memory_meant_for_a_newer_program_says_so_at_a_sessions_start() {
    let tmp = project();
    fs::write(tmp.path().join("memory-index.toml"), "min-version = \"99.0.0\"\n").expect("config");
    let state = tempfile::tempdir().expect("state");
    let start = serde_json::json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": tmp.path(), "source": "startup"});
    let mut c = crate::support::bin_in(tmp.path());
    c.arg("hook").env("MEMORY_INDEX_LSP_CACHE_DIR", state.path()).env_remove("CLAUDE_PROJECT_DIR");
    let o = crate::support::run_with_stdin(c, start.to_string().as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let context = v["hookSpecificOutput"]["additionalContext"].as_str().expect("context");
    let current = env!("CARGO_PKG_VERSION");
    assert!(
        context.starts_with(&format!("memory-index: this project's memory asks for memory-index-lsp 99.0.0 or later (`min-version` in memory-index.toml), and this is {current}")),
        "{context}"
    );
    assert!(context.contains("this project records its decisions in"), "the note goes on: {context}");
    let check = run(&["check"], tmp.path());
    assert!(stderr(&check).contains("asks for memory-index-lsp 99.0.0 or later"), "{}", stderr(&check));
    fs::write(tmp.path().join("memory-index.toml"), format!("min-version = \"{current}\"\n")).expect("config");
    assert!(!stderr(&run(&["check"], tmp.path())).contains("or later"));
    fs::write(tmp.path().join("memory-index.toml"), "min-version = \"latest\"\n").expect("config");
    let bad = run(&["check"], tmp.path());
    assert!(
        String::from_utf8_lossy(&bad.stdout).contains("`min-version` must be a version such as \"0.2.0\""),
        "{bad:?}"
    );
}

/// Where an older init put the block in GEMINI.md or the Copilot
/// instructions, it stays there (never a second copy in AGENTS.md); a
/// Gemini settings file that names its own files is left alone and the
/// block goes to GEMINI.md, which it reads.
#[test]
fn an_older_block_stays_where_it_is_and_gemini_files_of_ones_own_are_kept() {
    let tmp = project();
    let root = tmp.path();
    let block = "<!-- memory-index:start (written by `memory-index-lsp init`; it updates what lies between these lines) -->\nold\n<!-- memory-index:end -->\n";
    fs::write(root.join(".github/copilot-instructions.md"), format!("Use TypeScript strict mode.\n\n{block}"))
        .expect("w");
    fs::write(root.join(".gemini/settings.json"), "{\"context\": {\"fileName\": \"CONTEXT.md\"}}\n").expect("w");
    let o = run(&["init", "--agent", "copilot,gemini", "."], root);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let read = |rel: &str| fs::read_to_string(root.join(rel)).expect(rel);
    let copilot = read(".github/copilot-instructions.md");
    assert!(
        copilot.contains("memory-index-lsp resolve") && !copilot.contains("\nold\n"),
        "updated in place: {copilot}"
    );
    assert!(read("GEMINI.md").contains("<!-- memory-index:start"), "Gemini reads its own files: the block goes there");
    assert_eq!(read("AGENTS.md"), "# Agents\n\nRun `make test` before every commit.\n", "no second copy");
    assert!(read(".gemini/settings.json").contains("\"fileName\": \"CONTEXT.md\""), "its files kept");
}

/// What a command printed, as a terminal shows it: its results (stdout), then its notes (stderr).
fn said(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}
