//! The files a tool call reads or edits, from each agent's payload (recorded from the real CLIs in `server/tests/data/agent-payloads/`); `scoped` says what the hook injects for them.
//!
//! | agent | tools | where the path is |
//! | --- | --- | --- |
//! | Claude Code | `Read`, `Edit`, `MultiEdit`, `Write`, `NotebookEdit` | `tool_input.file_path` (`notebook_path`) |
//! | Codex | `apply_patch`; reading is a shell command (`cat src/a.ts`) | the patch's `*** Update File:`, `*** Add File:`, `*** Delete File:`, `*** Move to:` lines; a reading command's path words |
//! | Copilot | `view`, `edit`, `create` (Claude-style hooks: `Read`, `Edit`, `Write`) | `tool_input.path` |
//! | Gemini | `read_file`, `replace`, `write_file` (its `AfterTool`) | `tool_input.file_path` |
//!
//! The decisions whose scope holds one of the paths come whole, once a
//! session; the paths' words are ranked at `[recall] file-words`, off by
//! default (`scoped`, `recall::inject::files`). A shell command's paths bring only scoped
//! decisions (its words are ranked as a command already).

use serde_json::Value;

/// The fields that name a file tool's path, in the order tried.
const PATH_KEYS: [&str; 4] = ["file_path", "notebook_path", "path", "absolute_path"];

/// The tools that read or edit one file, as each agent names them (a search
/// tool's `path` is a folder to search, not a file worked on: Copilot's
/// `grep` and `glob` are not among them).
const FILE_TOOLS: [&str; 12] = [
    "Read",
    "Edit",
    "MultiEdit",
    "Write",
    "NotebookEdit",
    "view",
    "edit",
    "create",
    "read_file",
    "write_file",
    "replace",
    "apply_patch",
];

/// The paths a file tool's call names: its input's path field, or for
/// Codex's `apply_patch`, the files its patch touches; none for any other tool.
pub fn of_tool(tool_name: &str, input: &Value) -> Vec<String> {
    if !FILE_TOOLS.contains(&tool_name) {
        return Vec::new();
    }
    if tool_name == "apply_patch" {
        let patch = input.get("command").or_else(|| input.get("input")).or_else(|| input.get("patch"));
        return patch.and_then(Value::as_str).map(of_patch).unwrap_or_default();
    }
    PATH_KEYS
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .filter(|p| !p.trim().is_empty())
        .map(|p| vec![p.to_string()])
        .unwrap_or_default()
}

/// The files an `apply_patch` patch adds, updates, deletes or moves to.
pub fn of_patch(patch: &str) -> Vec<String> {
    const MARKS: [&str; 4] = ["*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "];
    let mut out: Vec<String> = Vec::new();
    for line in patch.lines() {
        if let Some(path) = MARKS.iter().find_map(|m| line.strip_prefix(m)).map(str::trim) {
            if !path.is_empty() && !out.iter().any(|p| p == path) {
                out.push(path.to_string());
            }
        }
    }
    out
}

/// Programs that read or edit the files they are given.
const READERS: [&str; 15] =
    ["cat", "head", "tail", "less", "more", "nl", "bat", "sed", "vim", "vi", "nvim", "nano", "emacs", "code", "view"];

/// The paths a shell command reads or edits: the arguments of a program in
/// [`READERS`] (not a flag, a redirection or a URL; for `sed`, only words
/// that look like files, a `/` or an extension, and not its script), as the
/// shell reads its words.
pub fn of_command(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for words in crate::syntax::shell::commands(command) {
        let at = words.iter().take_while(|w| w.contains('=') && !w.starts_with('=')).count();
        let Some(program) = words.get(at).and_then(|w| w.rsplit('/').next()) else { continue };
        if !READERS.contains(&program) {
            continue;
        }
        for w in &words[at + 1..] {
            let redirect = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&').starts_with(['>', '<']);
            let name = w.rsplit('/').next().unwrap_or(w);
            let file_like = name.contains('.') && !name.ends_with('.') || w.contains('/') && !w.ends_with('/');
            let script =
                program == "sed" && (!file_like || w.starts_with("s/") || w.starts_with("s|") || w.contains(';'));
            if w.is_empty() || w.starts_with('-') || redirect || w.contains("://") || script || out.contains(w) {
                continue;
            }
            out.push(w.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_agents_file_tools() {
        assert_eq!(of_tool("Read", &json!({"file_path": "/p/src/a.ts"})), ["/p/src/a.ts"]);
        assert_eq!(of_tool("NotebookEdit", &json!({"notebook_path": "nb.ipynb"})), ["nb.ipynb"]);
        assert_eq!(of_tool("view", &json!({"path": "/p/src/a.ts"})), ["/p/src/a.ts"]);
        assert_eq!(of_tool("read_file", &json!({"file_path": "src/a.ts", "start_line": 3})), ["src/a.ts"]);
        assert!(of_tool("Read", &json!({"file_path": 3})).is_empty());
        assert!(of_tool("Grep", &json!({"pattern": "x"})).is_empty());
        assert!(of_tool("grep", &json!({"pattern": "x", "path": "src/api"})).is_empty(), "a folder searched");
        assert!(of_tool("glob", &json!({"pattern": "*.ts", "path": "src"})).is_empty());
        let patch = "*** Begin Patch\n*** Update File: ./src/app.ts\n@@\n-a\n+b\n*** Add File: src/new.ts\n+x\n\
*** Update File: src/old.ts\n*** Move to: src/moved.ts\n*** End Patch\n";
        assert_eq!(
            of_tool("apply_patch", &json!({"command": patch})),
            ["./src/app.ts", "src/new.ts", "src/old.ts", "src/moved.ts"]
        );
        assert!(of_tool("apply_patch", &json!({"command": 1})).is_empty());
    }

    #[test]
    fn the_files_a_shell_command_reads() {
        assert_eq!(of_command("cat ./src/app.ts"), ["./src/app.ts"]);
        assert_eq!(of_command("sed -n 1,40p src/app.ts && head -5 README.md"), ["src/app.ts", "README.md"]);
        assert_eq!(of_command("sed -i 's/a/b/' lib/x.py"), ["lib/x.py"]);
        assert_eq!(of_command("LC_ALL=C /usr/bin/cat 'my dir/notes.md' 2>/dev/null"), ["my dir/notes.md"]);
        assert!(of_command("cargo test --workspace").is_empty(), "not a reader");
        assert_eq!(of_command("cat Makefile"), ["Makefile"]);
        assert!(of_command("sed -n 1,40p").is_empty(), "a sed script is not a file");
        assert!(of_command("curl https://x.org/a.js").is_empty());
        assert!(of_command("echo cat src/a.ts").is_empty());
    }
}
