//! What `init --agent` writes for Codex, Copilot and Gemini (project-level files only, merged into what is there) and the trust each needs from the person, which it says and never writes.
//!
//! Verified with the real CLIs (`tests/agents/NOTES.md`, end-to-end in
//! `tests/agents/e2e.py`):
//! - Codex: `.codex/hooks.json` in Claude Code's format (SessionStart,
//!   UserPromptSubmit, PreToolUse on `Bash` and on `apply_patch`, PostToolUse
//!   on `Bash`, Stop);
//!   `[mcp_servers.memory-index]` and `[features] hooks = true` in
//!   `.codex/config.toml`; the instructions block in `AGENTS.md`.
//! - Copilot: `.github/hooks/memory-index.json` (its own file, Claude-style
//!   event names, whose payloads and outputs Copilot honours for prompts);
//!   the server in `.mcp.json`; the block in `AGENTS.md`, which Copilot CLI
//!   reads (or `.github/copilot-instructions.md` where an older init put it).
//! - Gemini: hooks (SessionStart, BeforeAgent, AfterTool on
//!   `run_shell_command` and on its file tools) and `mcpServers` in
//!   `.gemini/settings.json`; the block in `AGENTS.md`, which Gemini CLI
//!   reads once `context.fileName` names it beside `GEMINI.md` (init adds
//!   that where the settings name no file; else, or where an older init put
//!   it, the block goes to `GEMINI.md`).
//!
//! One shared `AGENTS.md` rather than three copies of the same block: each
//! agent reads it (verified with the real CLIs), and a person edits one.
//!
//! The file tools each have a group of their own beside the shell's, so a
//! memory set up before they were hooked gets that group added by a second
//! `init`, and nothing else changes (`settings::merge`).

use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use super::{instructions, mcp_json, mcp_server, settings, Files};
use crate::project::agents::Agent;

/// Plans `agent`'s files (not Claude Code's: see `init::claude`).
pub(super) fn plan(agent: Agent, files: &mut Files, index: &str) -> Result<(), String> {
    let (start, command) = (agent.hook_command(true), agent.hook_command(false));
    let hook = |timeout: u64| json!([{ "hooks": [{ "type": "command", "command": command, "timeout": timeout }] }]);
    let at_start = |timeout: u64| json!([{ "hooks": [{ "type": "command", "command": start, "timeout": timeout }] }]);
    let on = |matcher: &str, timeout: u64| json!([{ "matcher": matcher, "hooks": [{ "type": "command", "command": command, "timeout": timeout }] }]);
    match agent {
        Agent::Claude => Ok(()),
        Agent::Codex => {
            let wanted = json!({
                "SessionStart": at_start(10), "UserPromptSubmit": hook(10),
                "PreToolUse": [on("Bash", 10)[0], on("apply_patch", 10)[0]], "PostToolUse": on("Bash", 10),
                "Stop": hook(10),
            });
            merge_hooks(files, ".codex/hooks.json", &wanted)?;
            super::codex::config(files)?;
            instructions_in(files, "AGENTS.md", index)
        }
        Agent::Copilot => {
            copilot_hooks(files, agent)?;
            mcp_json(files)?;
            shared_instructions(files, ".github/copilot-instructions.md", index)
        }
        Agent::Gemini => {
            // Gemini's timeouts are milliseconds.
            let wanted = json!({
                "SessionStart": at_start(10_000), "BeforeAgent": hook(10_000),
                "AfterTool": [on("run_shell_command", 10_000)[0], on("read_file|replace|write_file", 10_000)[0]],
            });
            let rel = ".gemini/settings.json";
            merge_hooks(files, rel, &wanted)?;
            let old = files.current(rel)?;
            let (new, added) = settings::merge_mcp(old.as_deref(), &mcp_server()).map_err(|e| format!("{rel}: {e}"))?;
            if added {
                files.set(rel, new, "the MCP server `memory-index`")?;
            }
            let old = files.current(rel)?;
            match super::context::merge_context(old.as_deref()).map_err(|e| format!("{rel}: {e}"))? {
                Some((new, changed)) => {
                    if changed {
                        files.set(rel, new, "`context.fileName`: AGENTS.md and GEMINI.md")?;
                    }
                    shared_instructions(files, "GEMINI.md", index)
                }
                None => instructions_in(files, "GEMINI.md", index),
            }
        }
    }
}

/// Claude Code's hook format (Codex and Gemini read it): the events of `wanted` merged into `rel`.
fn merge_hooks(files: &mut Files, rel: &str, wanted: &Value) -> Result<(), String> {
    let wanted = wanted.as_object().ok_or("internal: hooks are an object")?;
    let old = files.current(rel)?;
    let (new, added) = settings::merge(old.as_deref(), wanted).map_err(|e| format!("{rel}: {e}"))?;
    if !added.is_empty() {
        files.set(rel, new, &format!("hooks for {}", added.join(", ")))?;
    }
    Ok(())
}

/// Copilot's hook file: ours alone, written whole; one that differs is kept and said.
fn copilot_hooks(files: &mut Files, agent: Agent) -> Result<(), String> {
    let rel = ".github/hooks/memory-index.json";
    // PowerShell runs the plain command (the guard is a POSIX shell's).
    let plain = agent.plain_hook_command();
    let entry = |bash: String| json!([{ "type": "command", "bash": bash, "powershell": plain, "timeoutSec": 10 }]);
    let (start, other) = (entry(agent.hook_command(true)), entry(agent.hook_command(false)));
    let v = json!({ "version": 1, "hooks": {
        "SessionStart": start, "UserPromptSubmit": other, "PreToolUse": other, "PostToolUse": other,
    }});
    // What an older init wrote (the plain command everywhere) is ours to replace.
    let older = {
        let e = json!([{ "type": "command", "bash": plain, "powershell": plain, "timeoutSec": 10 }]);
        let v = json!({ "version": 1, "hooks": { "SessionStart": e, "UserPromptSubmit": e, "PreToolUse": e, "PostToolUse": e }});
        format!("{}\n", serde_json::to_string_pretty(&v).map_err(|e| format!("internal: {e}"))?)
    };
    let text = format!("{}\n", serde_json::to_string_pretty(&v).map_err(|e| format!("internal: {e}"))?);
    match files.current(rel)? {
        None => files.set(rel, text, "Copilot's hooks"),
        Some(old) if old == older => {
            files.set(rel, text, "Copilot's hooks, which now say what to install when the program is missing")
        }
        Some(old) if old != text => {
            let _ = writeln!(
                std::io::stderr(),
                "kept {rel}, which differs from what init writes (delete it and run init again to replace it)"
            );
            Ok(())
        }
        Some(_) => Ok(()),
    }
}

/// The recall instructions block in `rel`.
/// The instructions block in `AGENTS.md`, shared by the agents that read it;
/// in `own` instead when an older init put the block there (one block per
/// agent, never two).
fn shared_instructions(files: &mut Files, own: &str, index: &str) -> Result<(), String> {
    let has_block = |t: &str| crate::recall::import::source::own_blocks(t).is_ok_and(|b| !b.is_empty());
    if files.current(own)?.is_some_and(|t| has_block(&t)) {
        instructions_in(files, own, index)
    } else {
        instructions_in(files, "AGENTS.md", index)
    }
}

fn instructions_in(files: &mut Files, rel: &str, index: &str) -> Result<(), String> {
    let old = files.current(rel)?;
    let new = instructions::upsert(old.as_deref(), &instructions::block(index)).map_err(|e| format!("{rel}: {e}"))?;
    if old.as_deref() != Some(new.as_str()) {
        files.set(rel, new, "the recall instructions")?;
    }
    Ok(())
}

/// What the person must do for each agent to run the project's hooks and
/// MCP server: trust given in the agent itself, outside the project.
pub(super) fn say_trust(agents: &[Agent], root: &Path) {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let root = root.display();
    let mut err = std::io::stderr();
    for agent in agents {
        let text = match agent {
            Agent::Claude => continue,
            Agent::Codex => format!(
                "codex: Codex runs .codex/ hooks and its MCP server only in a trusted project, and hooks only once \
                 reviewed: run `codex` in {root}, trust the folder when asked, then approve the memory-index hooks \
                 it lists for review (until then they are skipped without a word)"
            ),
            Agent::Copilot => format!(
                "copilot: Copilot CLI loads .github/hooks/ and .mcp.json only in a trusted folder: run `copilot` in \
                 {root} and trust the folder when asked"
            ),
            Agent::Gemini => format!(
                "gemini: Gemini CLI runs .gemini/settings.json's hooks and MCP server only in a trusted folder: run \
                 `gemini` in {root} and trust the folder when asked"
            ),
        };
        let _ = writeln!(err, "{text}");
    }
}
