//! The configuration reference: every key of `memory-index.toml`, its default and what it does, from which docs/guide/configuration.md is generated (a test checks the defaults against `Config::default`).

/// One key of `memory-index.toml`.
pub struct Setting {
    /// The table it sits in (`""` for the top level).
    pub table: &'static str,
    pub key: &'static str,
    /// Its default as TOML (`"unset"` when it has none).
    pub default: &'static str,
    pub doc: &'static str,
}

/// Every key, in the order the reference lists them.
pub const SETTINGS: &[Setting] = &[
    Setting { table: "", key: "index", default: "\"agents/memory-index.md\"", doc: "The index, relative to the project's folder." },
    Setting { table: "", key: "decisions", default: "\"agents/decisions\"", doc: "The folder of decision files (`*.md`, not its sub-folders)." },
    Setting { table: "", key: "max-file-bytes", default: "67108864", doc: "A larger index or decision file is an `unreadable-file` finding, never read whole." },
    Setting { table: "", key: "min-version", default: "unset", doc: "The oldest memory-index-lsp the memory is meant for (`\"0.2.0\"`): an older one says so at a session's start and in `check`, and goes on." },
    Setting { table: "recall", key: "prompt", default: "0.5", doc: "The hook injects a decision for a prompt at this confidence or more (higher: less often, wrong less often)." },
    Setting { table: "recall", key: "command", default: "0.6", doc: "The same before a shell command runs." },
    Setting { table: "recall", key: "error", default: "0.7", doc: "The same after a failed tool call." },
    Setting { table: "recall", key: "resolve", default: "0.1", doc: "`resolve` and `search` answer \"No match\" below this." },
    Setting { table: "recall", key: "duplicate", default: "0.9", doc: "`remember` reports an existing decision on the same subject at this or more." },
    Setting { table: "recall", key: "prompt-pointer", default: "0.2", doc: "Below `prompt`, a likely decision is named in one `[memory-index?]` line for the model to read if it applies (at or above `prompt`: off)." },
    Setting { table: "recall", key: "command-pointer", default: "1.0", doc: "The same before a command (1: never; every lower floor put a line on everyday commands)." },
    Setting { table: "recall", key: "error-pointer", default: "0.65", doc: "The same after a failure." },
    Setting { table: "recall", key: "max-pointers", default: "2", doc: "Most decisions named in one call (0: no pointer)." },
    Setting { table: "recall", key: "meaning-pointer", default: "0.5", doc: "With the semantic tier, also name the decisions this near a prompt in meaning (1: never)." },
    Setting { table: "recall", key: "file-words", default: "1.0", doc: "A file the agent reads or edits: its path's words inject a decision this sure (1: never; a decision whose scope holds the file always comes)." },
    Setting { table: "recall", key: "hook", default: "true", doc: "false: the hook prints nothing (the skills, `resolve` and the MCP server still work)." },
    Setting { table: "recall", key: "max-decisions", default: "2", doc: "Most decisions one hook call injects." },
    Setting { table: "recall", key: "max-chars", default: "6000", doc: "Most characters one hook call injects." },
    Setting { table: "recall", key: "semantic", default: "unset", doc: "Unset: prompts are ranked by meaning too once the model's files are there (`memory-index-lsp embed` fetches them); true: the hook also fetches a missing model in the background; false: words only." },
    Setting { table: "recall", key: "model", default: "unset", doc: "The semantic model's folder (relative to the project or absolute); unset: `$MEMORY_INDEX_LSP_MODEL`, else `~/.cache/memory-index-lsp/models/all-MiniLM-L6-v2`." },
    Setting { table: "capture", key: "stop", default: "true", doc: "false: the hook never asks, at a turn's end, to record what the person settled." },
];

/// The reference as Markdown: one table per TOML table.
pub fn markdown() -> String {
    let mut out = String::new();
    for table in ["", "recall", "capture"] {
        out.push_str(&if table.is_empty() { "## Top level\n\n".to_string() } else { format!("## [{table}]\n\n") });
        out.push_str("| key | default | what it does |\n| --- | --- | --- |\n");
        for s in SETTINGS.iter().filter(|s| s.table == table) {
            out.push_str(&format!("| `{}` | `{}` | {} |\n", s.key, s.default, s.doc));
        }
        out.push('\n');
    }
    out
}

/// The defaults as a `memory-index.toml` (keys without one left out): read, it changes nothing.
pub fn defaults_toml() -> String {
    let mut out = String::new();
    for table in ["", "recall", "capture"] {
        if !table.is_empty() {
            out.push_str(&format!("[{table}]\n"));
        }
        for s in SETTINGS.iter().filter(|s| s.table == table && s.default != "unset") {
            out.push_str(&format!("{} = {}\n", s.key, s.default));
        }
    }
    out
}
