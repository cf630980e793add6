//! A decision the agent or the person reads on purpose (`memory-index-lsp resolve "when …"` in a shell, a typed `/when …` in Claude Code): not injected again beside it, and counted as shown for the session.
//!
//! A pointer names a decision for the agent's model to read when it
//! applies (`recall::inject::pointer`). When it does, the command that reads
//! it passes the pre-command hook: ranking that command would inject the
//! same decision a second time beside resolve's own answer (found by the
//! Codex end-to-end test), and a later prompt would inject it a third time,
//! though the context holds it. So the service answers such a command with
//! nothing and records the decisions it reads, as it records injected ones.
//!
//! The `/when` skill the model runs through Claude Code's Skill tool is a
//! read too ([`Event::Read`]: the hook matches `Skill`, payload recorded
//! from the real CLI in `server/tests/data/agent-payloads/claude/`).

use std::path::Path;

use super::{Ask, Event};
use crate::model::Workspace;
use crate::project::agents::Agent;

/// The queries of the `memory-index-lsp resolve` the shell `command` runs,
/// the program named by name or path as the command word, flags left out,
/// read as `resolve` reads its arguments (one query of the words, or one a
/// quoted argument: `memory-index-lsp resolve --no-nav "when writing mock
/// tests" && ls` → `when writing mock tests`); none for any other command.
/// Words are read as a shell reads them before it splits at `;`, `|`, `&&`
/// and new lines outside quotes, and nothing after a here-document's `<<`
/// counts (found by review: a commit message quoting the command was read
/// as a read). `search` is no read: it shows a line, not the decision.
pub(super) fn resolve_queries(command: &str) -> Vec<String> {
    for words in crate::syntax::shell::commands(command) {
        // The command word: the first, after any `VAR=value` assignments.
        let at = words.iter().take_while(|w| w.contains('=') && !w.starts_with('=')).count();
        if words.get(at).and_then(|w| w.rsplit('/').next()) != Some("memory-index-lsp")
            || words.get(at + 1).map(String::as_str) != Some("resolve")
        {
            continue;
        }
        let mut queries: Vec<String> = Vec::new();
        let mut rest = words[at + 2..].iter();
        while let Some(w) = rest.next() {
            // A redirection (`2>&1`, `> out`): not a query, nor is the file it names.
            let redirect = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&').starts_with(['>', '<']);
            match w.as_str() {
                "--root" => {
                    rest.next();
                }
                w if redirect && w.ends_with(['>', '<']) => {
                    rest.next();
                }
                w if w.starts_with('-') || redirect => {}
                w => queries.push(w.to_string()),
            }
        }
        // As `resolve` reads them.
        let mut queries = crate::ide::resolve::queries_of(queries);
        queries.retain(|q| !q.trim().is_empty());
        return queries;
    }
    Vec::new()
}

/// The query of a prompt that recalls a decision by itself (`/when writing
/// mock tests`, `/memory-index:how migrate the schema`): `when …` or `how …`.
pub(super) fn slash_query(prompt: &str) -> Option<String> {
    let rest = prompt.trim_start().strip_prefix('/')?;
    let (word, query) = rest.split_once(char::is_whitespace)?;
    let op = word.rsplit(':').next()?;
    (matches!(op, "when" | "how") && !query.trim().is_empty()).then(|| format!("{op} {}", query.trim()))
}

/// The decisions `ask` reads on purpose (a `resolve` command, a typed
/// `/when` in Claude Code, the only agent with the skill), as queries; none
/// for any other event. When there are some, the service records them for
/// the session and says nothing more.
pub(super) fn reads(ask: &Ask) -> Vec<String> {
    match &ask.event {
        Event::UserPromptSubmit { prompt } if ask.agent == Agent::Claude => slash_query(prompt).into_iter().collect(),
        Event::PreToolUse { command: Some(c), .. } => resolve_queries(c),
        Event::Read { query } => vec![query.clone()],
        _ => Vec::new(),
    }
}

/// Records the decisions `queries` read (at `resolve`'s confidence or more) as shown in the session.
pub(super) fn record(ws: &Workspace, queries: &[String], session_id: Option<&str>, state_dir: Option<&Path>) {
    let (Some(id), Some(dir)) = (session_id, state_dir) else { return };
    let Ok(mut session) = crate::project::session::Session::open(dir, id) else { return };
    let mut keys: Vec<String> = Vec::new();
    for query in queries {
        let found = crate::search::recall::recall(ws, query, 1);
        let Some(r) = found.first().filter(|r| r.confidence >= ws.config().recall.resolve) else { continue };
        keys.extend(crate::recall::inject::key(ws, r.heading).filter(|k| !session.seen(k) && !keys.contains(k)));
    }
    let _ = session.record(&keys);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queries_of_a_resolve_are_read_as_the_shell_and_resolve_read_them() {
        let q = |c: &str| resolve_queries(c);
        assert_eq!(q(r#"memory-index-lsp resolve "when writing mock tests""#), ["when writing mock tests"]);
        assert_eq!(
            q(r#"cd x && /opt/bin/memory-index-lsp resolve --no-nav --root . 'how migrate the schema' 2>&1 | head"#),
            ["how migrate the schema"]
        );
        assert_eq!(q("memory-index-lsp resolve when writing mock tests"), ["when writing mock tests"]);
        assert_eq!(q(r#"memory-index-lsp resolve "when a b" "how c d""#), ["when a b", "how c d"]);
        assert!(q("memory-index-lsp search mock patch").is_empty(), "a list is no read");
        assert!(q("memory-index-lsp check").is_empty() && q("memory-index-lsp resolve").is_empty());
        assert!(q("echo memory-index-lsp resolve x").is_empty(), "the program run, not a word of its arguments");
        assert_eq!(q("NO_COLOR=1 memory-index-lsp resolve x > out.txt 2>/dev/null"), ["x"]);
        // Found by review: quoted or here-document text that mentions the command is data.
        assert!(q(r#"git commit -m "docs; memory-index-lsp resolve when writing mock tests""#).is_empty());
        assert!(q("cat <<'EOF' > notes.md\nmemory-index-lsp resolve when writing mock tests\nEOF").is_empty());
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
