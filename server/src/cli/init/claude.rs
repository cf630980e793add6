//! What `init` writes for Claude Code without the plugin: the skills, the hooks in `.claude/settings.json` and the MCP server in `.mcp.json`.

use std::io::Write;

use super::{mcp_json, settings, Files, HOOKS_JSON, HOW_SKILL, PLUGIN_LAUNCHER, REMEMBER_SKILL, WHEN_SKILL};

/// Claude Code without the plugin: the skills (naming the memory's own
/// index: found by review, a memory kept in `docs/memory.md` was described
/// as `agents/memory-index.md`), the hooks in `.claude/settings.json` and
/// the MCP server in `.mcp.json`.
pub(super) fn claude(files: &mut Files, index_rel: &str) -> Result<(), String> {
    for (rel, shipped) in [
        (".claude/skills/when/SKILL.md", WHEN_SKILL),
        (".claude/skills/how/SKILL.md", HOW_SKILL),
        (".claude/skills/remember/SKILL.md", REMEMBER_SKILL),
    ] {
        let text = shipped.replace("agents/memory-index.md", index_rel);
        match files.current(rel)? {
            None => files.set(rel, text, "the skill")?,
            Some(old) if old != text => {
                let _ = writeln!(
                    std::io::stderr(),
                    "kept {rel}, which differs from the shipped skill (delete it and run init again to replace it)"
                );
            }
            Some(_) => {}
        }
    }
    let mut hooks: serde_json::Value = serde_json::from_str(&HOOKS_JSON.replace(PLUGIN_LAUNCHER, "memory-index-lsp"))
        .map_err(|e| format!("internal: hooks.json: {e}"))?;
    // Outside the plugin (whose launcher says what to install), the command itself does
    // (`Agent::hook_command`): silent without the program, one line at a session's start.
    if let Some(events) = hooks.get_mut("hooks").and_then(|h| h.as_object_mut()) {
        for (event, groups) in events.iter_mut() {
            let command = crate::project::agents::Agent::Claude.hook_command(event == "SessionStart");
            for group in groups.as_array_mut().into_iter().flatten() {
                for h in group.get_mut("hooks").and_then(|h| h.as_array_mut()).into_iter().flatten() {
                    h["command"] = serde_json::Value::String(command.clone());
                }
            }
        }
    }
    let wanted = hooks.get("hooks").and_then(|h| h.as_object()).ok_or("internal: hooks.json has no hooks object")?;
    let settings_rel = ".claude/settings.json";
    let old = files.current(settings_rel)?;
    let (new, added) = settings::merge(old.as_deref(), wanted).map_err(|e| format!("{settings_rel}: {e}"))?;
    if !added.is_empty() {
        files.set(settings_rel, new, &format!("hooks for {}", added.join(", ")))?;
    }
    mcp_json(files)
}
