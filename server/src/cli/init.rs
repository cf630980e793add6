//! `memory-index-lsp init [ROOT] [--agent claude|codex|copilot|gemini|all] [--dry-run] [--quiet]`: starts a memory when there is none and sets the project up for each agent named (Claude Code by default): hooks, the MCP server, skills or instructions, a recall note.
//!
//! Output: each file created or changed on stdout (with `--dry-run`, the
//! diff; the list on stderr); the trust each agent needs and notes on
//! stderr; `--quiet` drops the notes, never the trust.
//!
//! In a project without a memory it creates the index (`agents/memory-index.md`
//! with its preamble and the recall note) and the decisions folder. For
//! Codex, Copilot and Gemini see [`agents`]. For Claude Code (without the
//! plugin) it writes `.claude/skills/{when,how,remember}/SKILL.md`
//! (the plugin's own files, compiled in), merges the plugin's hooks into
//! `.claude/settings.json` ([`settings::merge`]: every other byte kept),
//! adds the MCP server to `.mcp.json` ([`settings::merge_mcp`]), and adds
//! [`NOTE`] above the index's first `## ` section when the index does not
//! say how to recall yet. Everything is computed before anything is
//! written: a malformed settings file stops the command with its line
//! named and nothing changed. Files are written atomically; a second run
//! changes nothing. `--dry-run` prints the unified diff instead. Trust the
//! person must give an agent (outside the project) is said, never written.

mod agents;
mod claude;
mod codex;
mod context;
mod instructions;
mod jsonc;
mod report;
mod settings;

use std::io::Write;
use std::path::Path;

use super::args::InitArgs;
use crate::project::agents::Agent;
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
/// It names how every agent recalls, not only Claude Code's skills (found by review: a
/// Codex-only project was told of a `/when` command Codex does not have).
pub const NOTE: &str = "Recall a decision with `/when <situation>` or `/how <task>` (`/when .Section Title`, \
`/when ..file.md`): a skill in Claude Code; in any agent `memory-index-lsp resolve \"when <situation>\"` or the MCP \
tool `resolve`. Matching decisions are also injected on their own, headed `[memory-index]` (a line headed \
`[memory-index?]` names one that may apply, to read only if it does).";

/// One file `init` writes: its path relative to the root, old text (None: new) and new text.
struct Change {
    rel: String,
    /// The file it is, links resolved: AGENTS.md, GEMINI.md and the Copilot instructions are
    /// often links to CLAUDE.md, one file planned once (found by review: init wrote it through
    /// the first link, then refused the second as changed since it was read).
    real: std::path::PathBuf,
    old: Option<String>,
    new: String,
    what: String,
}

/// The files `init` plans to write: a file changed twice (`.mcp.json` for
/// Claude Code and Copilot, Gemini's settings for hooks and its MCP server)
/// is one change from what is on disk to the last text.
struct Files {
    canon: std::path::PathBuf,
    root: std::path::PathBuf,
    changes: Vec<Change>,
}

impl Files {
    /// The file `rel` is, links resolved (as it will be, when it is not there yet).
    fn real(&self, rel: &str) -> std::path::PathBuf {
        let path = self.root.join(rel);
        std::fs::canonicalize(&path).unwrap_or(path)
    }

    /// The file's text as planned so far: the last planned text, else what is on disk (None: absent).
    fn current(&self, rel: &str) -> Result<Option<String>, String> {
        let real = self.real(rel);
        match self.changes.iter().find(|c| c.real == real) {
            Some(c) => Ok(Some(c.new.clone())),
            None => read_inside(&self.canon, &self.root.join(rel), rel),
        }
    }

    /// Plans `new` as the file's text, saying `what` it adds.
    /// A folder out of the project (a `.claude` linked elsewhere) stops the plan, before anything
    /// is written (found by review: the index was written, then init stopped there).
    fn set(&mut self, rel: &str, new: String, what: &str) -> Result<(), String> {
        let real = self.real(rel);
        if let Some(c) = self.changes.iter_mut().find(|c| c.real == real) {
            if c.new != new {
                c.new = new;
                c.what = format!("{}, {what}", c.what);
            }
            return Ok(());
        }
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            write::dir_inside(&self.canon, dir).map_err(|e| format!("cannot write {rel}: {e}"))?;
        }
        let old = read_inside(&self.canon, &path, rel)?;
        if old.as_deref() != Some(new.as_str()) {
            self.changes.push(Change { rel: rel.into(), real, old, new, what: what.into() });
        }
        Ok(())
    }
}

/// What `init` says of the index it creates.
const NEW_INDEX: &str = "a new memory index";

/// Runs `init`; returns the exit code.
pub fn run(a: InitArgs) -> i32 {
    let (root, dry_run) = (super::project_root(a.root), a.dry_run);
    let agents = match agents_named(&a.agent) {
        Ok(agents) => agents,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "memory-index-lsp init: {e}");
            return 2;
        }
    };
    if !root.is_dir() {
        let _ = writeln!(
            std::io::stderr(),
            "memory-index-lsp init: {} is not a folder: create it first (`mkdir -p {}`), or run init in the project",
            root.display(),
            root.display()
        );
        return 2;
    }
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
    let (changes, folder) = match plan(&root, &agents) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "memory-index-lsp init: {e}; nothing was written");
            return 2;
        }
    };
    // Results (what was written) to stdout; notes to stderr, none with `--quiet`; errors to stderr.
    let mut stdout = std::io::stdout();
    let mut notes: Box<dyn Write> = if a.quiet { Box::new(std::io::sink()) } else { Box::new(std::io::stderr()) };
    if changes.is_empty() && folder.is_none() {
        let names: Vec<&str> = agents.iter().map(|a| a.name()).collect();
        let _ = writeln!(
            stdout,
            "already set up for {}: the memory, the hooks, the MCP server and the skills or instructions are in place",
            names.join(", ")
        );
        agents::say_trust(&agents, &root);
        if !dry_run {
            report::not_on_path(&mut notes, "init sets up");
        }
        return 0;
    }
    if let Err(code) = write_all(&root, &changes, folder.as_deref(), dry_run) {
        return code;
    }
    report::after(&root, &agents, &changes, folder.is_some(), dry_run, &mut notes);
    0
}

/// Creates the decisions `folder` and writes each change (or, with
/// `dry_run`, shows them as diffs), saying each as it is written; Err with
/// the exit code at the first that fails.
fn write_all(root: &Path, changes: &[Change], folder: Option<&str>, dry_run: bool) -> Result<(), i32> {
    let (mut stdout, mut stderr) = (std::io::stdout(), std::io::stderr());
    if let Some(dir) = folder {
        let canon = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        if !dry_run {
            if let Err(e) = write::ensure_dir_inside(&canon, &root.join(dir)) {
                let _ = writeln!(stderr, "memory-index-lsp init: cannot create {dir}: {e}");
                return Err(2);
            }
        }
        let to: &mut dyn Write = if dry_run { &mut stderr } else { &mut stdout };
        let _ = writeln!(to, "{} {dir}/: the decisions folder", if dry_run { "would create" } else { "created" });
    }
    for c in changes {
        if dry_run {
            if let Some(code) = super::emit(&diff::unified(&c.rel, c.old.as_deref().unwrap_or(""), &c.new)) {
                return Err(code);
            }
            continue;
        }
        let path = root.join(&c.rel);
        let canon = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        if let Err(e) = path.parent().map_or(Ok(()), |d| write::ensure_dir_inside(&canon, d)) {
            let _ = writeln!(stderr, "memory-index-lsp init: cannot create the folder of {}: {e}", c.rel);
            return Err(2);
        }
        let written = match &c.old {
            Some(old) => write::replace(&path, old, &c.new),
            None => write::create(&path, &c.new),
        };
        if let Err(e) = written {
            let _ = writeln!(
                stderr,
                "memory-index-lsp init: cannot write {}: {e}; what is listed above was written, run init again (it \
                 only adds what is missing)",
                c.rel
            );
            return Err(2);
        }
        // Said as it is written: a run stopped halfway lists what it wrote (found by review).
        let link = std::fs::read_link(&path).ok().map(|to| format!(" (a link to {})", to.display()));
        let _ = writeln!(
            stdout,
            "{} {}{}: {}",
            if c.old.is_none() { "created" } else { "changed" },
            c.rel,
            link.unwrap_or_default(),
            c.what
        );
    }
    for c in changes.iter().filter(|_| dry_run) {
        let _ =
            writeln!(stderr, "{} {}: {}", if c.old.is_none() { "would create" } else { "would change" }, c.rel, c.what);
    }
    Ok(())
}

/// The top of the git work tree `root` is inside, when that is above `root`
/// (a `.git` in a parent folder and none in `root`).
fn git_top_above(root: &Path) -> Option<std::path::PathBuf> {
    let root = std::fs::canonicalize(root).ok()?;
    if root.join(".git").exists() {
        return None;
    }
    root.ancestors().skip(1).find(|d| d.join(".git").exists()).map(Path::to_path_buf)
}

/// The agents `--agent` names (several, comma-separated or repeated, or
/// `all`); Claude Code when none is named.
fn agents_named(names: &[String]) -> Result<Vec<Agent>, String> {
    let mut out = Vec::new();
    for name in names.iter().flat_map(|n| n.split(',')).map(str::trim).filter(|n| !n.is_empty()) {
        if name.eq_ignore_ascii_case("all") {
            out.extend(Agent::ALL);
            continue;
        }
        out.push(Agent::from_name(name).ok_or_else(|| {
            format!("unknown agent `{name}`: name claude, codex, copilot, gemini or all (several with commas)")
        })?);
    }
    // `--agent ""` names none: said, not read as the default (found by review).
    if out.is_empty() && !names.is_empty() {
        return Err("--agent names no agent: name claude, codex, copilot, gemini or all (several with commas)".into());
    }
    if out.is_empty() {
        out.push(Agent::Claude);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Every file to write under `root` for `agents` and the decisions folder
/// to create (a new memory), or why `init` cannot run.
fn plan(root: &Path, agents: &[Agent]) -> Result<(Vec<Change>, Option<String>), String> {
    let ws = load::load(root).map_err(|e| e.to_string())?;
    let index_rel = ws.config().index.clone();
    let canon = std::fs::canonicalize(root).map_err(|e| format!("cannot resolve {}: {e}", root.display()))?;
    let mut files = Files { canon, root: root.to_path_buf(), changes: Vec::new() };
    let decisions = ws.config().decisions.clone();
    let folder = (!decisions.is_empty() && !root.join(&decisions).is_dir()).then_some(decisions);
    if ws.index().is_none() {
        if files.current(&index_rel)?.is_some() {
            return Err(format!("{index_rel} exists but is not read as an index; check its path in memory-index.toml"));
        }
        // From zero: a new memory (the decisions folder comes with the first decision).
        files.set(&index_rel, starter_index(&ws.config().decisions), NEW_INDEX)?;
    }
    for &agent in agents {
        match agent {
            Agent::Claude => claude::claude(&mut files, &index_rel)?,
            other => agents::plan(other, &mut files, &index_rel)?,
        }
    }
    let Some((_, index_file, index)) = ws.index() else { return Ok((files.changes, folder)) };
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
        files.set(&index_rel, new, "the recall note")?;
    }
    Ok((files.changes, folder))
}

/// The MCP server in `.mcp.json` (read by Claude Code and Copilot).
fn mcp_json(files: &mut Files) -> Result<(), String> {
    let rel = ".mcp.json";
    let old = files.current(rel)?;
    let (new, added) = settings::merge_mcp(old.as_deref(), &mcp_server()).map_err(|e| format!("{rel}: {e}"))?;
    if added {
        files.set(rel, new, "the MCP server `memory-index`")?;
    } else if let Some(other) = old.as_deref().and_then(|t| elsewhere(t, &files.canon)) {
        // Kept as the person wrote it, but said (found by review: a copied project's server
        // answered from the project it was copied from).
        let _ = writeln!(
            std::io::stderr(),
            "note: {rel} runs the MCP server with `--root {other}`, not this project: remove that argument to \
             serve this one"
        );
    }
    Ok(())
}

/// The `--root` of a `memory-index-lsp mcp` server in `text` (an `.mcp.json`) when it names a
/// folder other than `canon` (the project, its links resolved).
fn elsewhere(text: &str, canon: &Path) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).ok()?;
    v.get("mcpServers")?.as_object()?.values().find_map(|s| {
        let args: Vec<&str> = s.get("args")?.as_array()?.iter().filter_map(|a| a.as_str()).collect();
        let root = args.iter().position(|a| *a == "--root").and_then(|i| args.get(i + 1))?;
        let ours = s.get("command")?.as_str()?.ends_with("memory-index-lsp") && args.contains(&"mcp");
        let same = std::fs::canonicalize(canon.join(root)).is_ok_and(|r| r == canon);
        (ours && !same).then(|| root.to_string())
    })
}

/// How an agent starts our MCP server.
fn mcp_server() -> serde_json::Value {
    serde_json::json!({ "command": "memory-index-lsp", "args": ["mcp"] })
}

/// The index of a new memory: a title, what it is (its decision files in
/// `decisions`), and the recall note.
fn starter_index(decisions: &str) -> String {
    format!(
        "# Memory Index\n\nThis project's decisions, one line each, under the decision file in {decisions}/ that \
holds it. Add one with `memory-index-lsp remember`, or bring existing \
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

/// Whether `name` is an executable file in a folder of `$PATH`.
fn on_path(name: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else { return false };
    std::env::split_paths(&path).any(|dir| {
        let f = dir.join(name);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(&f).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            f.with_extension("exe").is_file() || f.is_file()
        }
    })
}
