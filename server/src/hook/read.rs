//! A decision the agent or the person reads on purpose (`memory-index-lsp resolve "when …"` in a shell, a typed `/when …`): not injected again beside it, and counted as shown for the session.
//!
//! A pointer names a decision for the agent's model to read when it
//! applies (`ide::inject::pointer`). When it does, the command that reads
//! it passes the pre-command hook: ranking that command would inject the
//! same decision a second time beside resolve's own answer (found by the
//! Codex end-to-end test), and a later prompt would inject it a third time,
//! though the context holds it. So the hook answers such a command with
//! nothing and records the decision it reads, as it records an injected one.

use std::path::Path;

use crate::model::Workspace;

/// The query of a `memory-index-lsp resolve` (or `search`) the shell
/// `command` runs, the program named by name or path, flags left out
/// (`memory-index-lsp resolve --no-nav "when writing mock tests" && ls` →
/// `when writing mock tests`); None for any other command.
pub fn resolve_query(command: &str) -> Option<String> {
    for part in command.split(['\n', ';', '|', '&']) {
        let words = shell_words(part);
        // The command word: the first, after any `VAR=value` assignments.
        let at = words.iter().take_while(|w| w.contains('=') && !w.starts_with('=')).count();
        if words.get(at).and_then(|w| w.rsplit('/').next()) != Some("memory-index-lsp") {
            continue;
        }
        if !matches!(words.get(at + 1).map(String::as_str), Some("resolve" | "search")) {
            continue;
        }
        let mut query: Vec<&str> = Vec::new();
        let mut rest = words[at + 2..].iter();
        while let Some(w) = rest.next() {
            match w.as_str() {
                "--root" | "--limit" | "--threshold" => {
                    rest.next();
                }
                w if w.starts_with('-') => {}
                w => query.push(w),
            }
        }
        let query = query.join(" ");
        return (!query.trim().is_empty()).then_some(query);
    }
    None
}

/// The query of a prompt that recalls a decision by itself (`/when writing
/// mock tests`, `/memory-index:how migrate the schema`): `when …` or `how …`.
pub fn slash_query(prompt: &str) -> Option<String> {
    let rest = prompt.trim_start().strip_prefix('/')?;
    let (word, query) = rest.split_once(char::is_whitespace)?;
    let op = word.rsplit(':').next()?;
    (matches!(op, "when" | "how") && !query.trim().is_empty()).then(|| format!("{op} {}", query.trim()))
}

/// Records the decision `query` reads (at `resolve`'s confidence or more) as shown in the session.
pub fn record(ws: &Workspace, query: &str, session_id: Option<&str>, state_dir: Option<&Path>) {
    let (Some(id), Some(dir)) = (session_id, state_dir) else { return };
    let found = crate::search::recall::recall(ws, query, 1);
    let Some(r) = found.first().filter(|r| r.confidence >= ws.config().recall.resolve) else { return };
    let Some(key) = crate::ide::inject::key(ws, r.heading) else { return };
    if let Ok(mut session) = crate::project::session::Session::open(dir, id) {
        if !session.seen(&key) {
            let _ = session.record(&[key]);
        }
    }
}

/// `text` split into words as a POSIX shell reads them (single and double
/// quotes, backslash escapes; no expansion).
fn shell_words(text: &str) -> Vec<String> {
    let (mut out, mut word, mut any) = (Vec::new(), String::new(), false);
    let mut chars = text.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => word.extend(chars.next()),
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, '\\') => {
                word.extend(chars.next());
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_of_a_resolve_is_read_as_the_shell_reads_it() {
        let q = |c: &str| resolve_query(c);
        assert_eq!(
            q(r#"memory-index-lsp resolve "when writing mock tests""#).as_deref(),
            Some("when writing mock tests")
        );
        assert_eq!(
            q(r#"cd x && /opt/bin/memory-index-lsp resolve --no-nav --root . 'how migrate the schema' | head"#)
                .as_deref(),
            Some("how migrate the schema")
        );
        assert_eq!(q("memory-index-lsp search mock patch").as_deref(), Some("mock patch"));
        assert_eq!(q("memory-index-lsp check"), None);
        assert_eq!(q("memory-index-lsp resolve"), None);
        assert_eq!(q("cargo test mock"), None);
        assert_eq!(q("echo memory-index-lsp resolve x"), None, "the program run, not a word of its arguments");
        assert_eq!(q("NO_COLOR=1 memory-index-lsp resolve x").as_deref(), Some("x"));
    }

    #[test]
    fn a_typed_when_or_how_is_a_read() {
        assert_eq!(slash_query("/when writing mock tests").as_deref(), Some("when writing mock tests"));
        assert_eq!(slash_query("/memory-index:how migrate it ").as_deref(), Some("how migrate it"));
        assert_eq!(slash_query("/clear"), None);
        assert_eq!(slash_query("/when "), None);
        assert_eq!(slash_query("/review when writing"), None);
    }
}
