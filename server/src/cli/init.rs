//! `memory-index-lsp init [ROOT] [--dry-run]`: starts a memory when there is none and sets the project up for Claude Code without the plugin (skills, hooks, the MCP server, a recall note).
//!
//! In a project without a memory it creates the index (`agents/memory-index.md`
//! with its preamble and the recall note) and the decisions folder. Then it writes `.claude/skills/{when,how,remember}/SKILL.md`
//! (the plugin's own files, compiled in), merges the plugin's hooks into
//! `.claude/settings.json` ([`settings::merge`]: every other byte kept),
//! adds the MCP server to `.mcp.json` ([`settings::merge_mcp`]), and adds
//! [`NOTE`] above the index's first `## ` section when the index does not
//! say how to recall yet. Everything is computed before anything is
//! written: a malformed settings file stops the command with its line
//! named and nothing changed. Files are written atomically; a second run
//! changes nothing. `--dry-run` prints the unified diff instead.

mod settings;

use std::io::Write;
use std::path::Path;

use super::args::InitArgs;
use crate::project::read::{self, ReadError};
use crate::project::{diff, load, lock, write};

/// Largest settings or skill file read (bytes).
const MAX_READ: u64 = 1 << 20;

/// The plugin's skills and hooks, one copy in the repository.
const WHEN_SKILL: &str = include_str!("../../../editors/claude-code/skills/when/SKILL.md");
const HOW_SKILL: &str = include_str!("../../../editors/claude-code/skills/how/SKILL.md");
const REMEMBER_SKILL: &str = include_str!("../../../editors/claude-code/skills/remember/SKILL.md");
const HOOKS_JSON: &str = include_str!("../../../editors/claude-code/hooks/hooks.json");
/// How the plugin's hooks start the server (its launcher finds the binary);
/// a project set up by `init` runs `memory-index-lsp` from PATH instead.
const PLUGIN_LAUNCHER: &str = "\\\"${CLAUDE_PLUGIN_ROOT}/bin/memory-index-lsp\\\"";

/// The recall note added to the index (when its preamble never mentions `/when`).
pub const NOTE: &str = "Recall a decision with `/when <situation>` or `/how <task>` (`/when .Section Title`, \
`/when ..file.md`); matching decisions are also injected on their own, headed `[memory-index]`.";

/// One file `init` writes: its path relative to the root, old text (None: new) and new text.
struct Change {
    rel: String,
    old: Option<String>,
    new: String,
    what: String,
}

/// Runs `init`; returns the exit code.
pub fn run(a: InitArgs) -> i32 {
    let (root, dry_run) = (super::project_root(a.root), a.dry_run);
    let _lock = if dry_run {
        None
    } else {
        match lock::acquire(&root) {
            Ok(l) => Some(l),
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "memory-index-lsp init: {e}; nothing was written");
                return 2;
            }
        }
    };
    let (changes, folder) = match plan(&root) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "memory-index-lsp init: {e}; nothing was written");
            return 2;
        }
    };
    let mut stderr = std::io::stderr();
    if changes.is_empty() && folder.is_none() {
        let _ = writeln!(
            stderr,
            "already set up: the memory, the skills, the hooks, the MCP server and the recall note are in place"
        );
        return 0;
    }
    if let Some(dir) = &folder {
        let canon = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        if !dry_run {
            if let Err(e) = write::ensure_dir_inside(&canon, &root.join(dir)) {
                let _ = writeln!(stderr, "memory-index-lsp init: cannot create {dir}: {e}");
                return 2;
            }
        }
        let _ = writeln!(stderr, "{} {dir}/: the decisions folder", if dry_run { "would create" } else { "created" });
    }
    for c in &changes {
        if dry_run {
            print!("{}", diff::unified(&c.rel, c.old.as_deref().unwrap_or(""), &c.new));
            continue;
        }
        let path = root.join(&c.rel);
        let canon = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        if let Err(e) = path.parent().map_or(Ok(()), |d| write::ensure_dir_inside(&canon, d)) {
            let _ = writeln!(stderr, "memory-index-lsp init: cannot create the folder of {}: {e}", c.rel);
            return 2;
        }
        let written = match &c.old {
            Some(old) => write::replace(&path, old, &c.new),
            None => write::create(&path, &c.new),
        };
        if let Err(e) = written {
            let _ = writeln!(
                stderr,
                "memory-index-lsp init: cannot write {}: {e}; run init again (it only adds what is missing)",
                c.rel
            );
            return 2;
        }
    }
    let verb = if dry_run { "would change" } else { "changed" };
    for c in &changes {
        let _ = writeln!(stderr, "{verb} {}: {}", c.rel, c.what);
    }
    0
}

/// Every file to write under `root` and the decisions folder to create (a
/// new memory), or why `init` cannot run.
fn plan(root: &Path) -> Result<(Vec<Change>, Option<String>), String> {
    let ws = load::load(root).map_err(|e| e.to_string())?;
    let index_rel = ws.config().index.clone();
    let canon = std::fs::canonicalize(root).map_err(|e| format!("cannot resolve {}: {e}", root.display()))?;
    let read = |rel: &str| read_inside(&canon, &root.join(rel), rel);
    let mut changes = Vec::new();
    let decisions = ws.config().decisions.clone();
    let folder = (!decisions.is_empty() && !root.join(&decisions).is_dir()).then_some(decisions);
    if ws.index().is_none() {
        if read(&index_rel)?.is_some() {
            return Err(format!("{index_rel} exists but is not read as an index; check its path in memory-index.toml"));
        }
        // From zero: a new memory (the decisions folder comes with the first decision).
        changes.push(Change {
            rel: index_rel.clone(),
            old: None,
            new: starter_index(),
            what: "a new memory index".into(),
        });
    }
    for (rel, text) in [
        (".claude/skills/when/SKILL.md", WHEN_SKILL),
        (".claude/skills/how/SKILL.md", HOW_SKILL),
        (".claude/skills/remember/SKILL.md", REMEMBER_SKILL),
    ] {
        match read(rel)? {
            None => changes.push(Change { rel: rel.into(), old: None, new: text.into(), what: "the skill".into() }),
            Some(old) if old != text => {
                let _ = writeln!(
                    std::io::stderr(),
                    "kept {rel}, which differs from the shipped skill (delete it and run init again to replace it)"
                );
            }
            Some(_) => {}
        }
    }
    let hooks: serde_json::Value = serde_json::from_str(&HOOKS_JSON.replace(PLUGIN_LAUNCHER, "memory-index-lsp"))
        .map_err(|e| format!("internal: hooks.json: {e}"))?;
    let wanted = hooks.get("hooks").and_then(|h| h.as_object()).ok_or("internal: hooks.json has no hooks object")?;
    let settings_rel = ".claude/settings.json";
    let old = read(settings_rel)?;
    let (new, added) = settings::merge(old.as_deref(), wanted).map_err(|e| format!("{settings_rel}: {e}"))?;
    if !added.is_empty() {
        changes.push(Change { rel: settings_rel.into(), old, new, what: format!("hooks for {}", added.join(", ")) });
    }
    let mcp_rel = ".mcp.json";
    let server = serde_json::json!({ "command": "memory-index-lsp", "args": ["mcp"] });
    let old = read(mcp_rel)?;
    let (new, added) = settings::merge_mcp(old.as_deref(), &server).map_err(|e| format!("{mcp_rel}: {e}"))?;
    if added {
        changes.push(Change { rel: mcp_rel.into(), old, new, what: "the MCP server `memory-index`".into() });
    }
    let Some((_, index_file, index)) = ws.index() else { return Ok((changes, folder)) };
    let text = &index_file.text;
    let first_section = index.sections.first().map(|s| index.range(s.heading_line).start);
    let preamble = &text[..first_section.unwrap_or(text.len())];
    if index_file.problem.is_none() && !preamble.contains("/when") {
        let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let at = first_section.unwrap_or(text.len());
        let before = if preamble.is_empty() || preamble.ends_with(&format!("{nl}{nl}")) {
            ""
        } else if preamble.ends_with(nl) {
            nl
        } else {
            "\n\n"
        };
        let new = format!("{}{before}{NOTE}{nl}{nl}{}", &text[..at], &text[at..]);
        changes.push(Change { rel: index_rel, old: Some(text.clone()), new, what: "the recall note".into() });
    }
    Ok((changes, folder))
}

/// The index of a new memory: a title, what it is, and the recall note.
fn starter_index() -> String {
    format!(
        "# Memory Index\n\nThis project's decisions, one line each: `/when <situation>` or `/how <task>` names a \
section of a decision file in agents/decisions/. Add one with `memory-index-lsp remember`, or bring existing \
ones in with `memory-index-lsp import`.\n\n{NOTE}\n"
    )
}

/// A file's text through the guarded reader: None when it does not exist;
/// an error naming `rel` when it is a link out of the project, a FIFO, a
/// device, over [`MAX_READ`] or not UTF-8 (nothing is written then).
fn read_inside(canon_root: &Path, path: &Path, rel: &str) -> Result<Option<String>, String> {
    match read::read_text(Some(canon_root), path, MAX_READ) {
        Ok(t) => Ok(Some(t)),
        Err(ReadError::NotFound) => Ok(None),
        Err(e) => Err(format!("cannot read {rel}: {e}")),
    }
}
