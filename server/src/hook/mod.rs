//! `memory-index-lsp hook [--agent claude|codex|copilot|gemini] [--event NAME]`: an agent's command hooks, from the hook JSON on stdin to the context its model receives on stdout.
//!
//! Contract (Claude Code blocks a prompt on exit 2 and shows a "hook error"
//! on any other non-zero exit; the other agents likewise): always exit 0;
//! stdout is empty or one JSON object in the agent's shape ([`dialect`]:
//! `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`,
//! Copilot's top-level `{"additionalContext":…}`; for a `Stop` refused,
//! `{"decision":"block","reason":…}`); the agent is `--agent` or detected
//! from the payload, its events mapped to the moments of the recall
//! service (`project::recall`), which says what to answer; anything that
//! goes wrong (empty or malformed input, input over [`MAX_INPUT`] bytes, no
//! workspace, a panic) and the service's notes are one line each on stderr.
//! This module only maps: payloads to the service's events ([`event`],
//! [`dialect`], [`files`]), its answers to each agent's output.

pub mod dialect;
pub mod event;
mod files;

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use event::Input;

use crate::project::agents::Agent;
use crate::project::recall::{self, Answer, Notes, Places};

/// Larger input is ignored. A hook's JSON is a few kilobytes, but a
/// failure's payload carries the tool's whole output (a test run's log) and
/// a prompt may hold a pasted file: those are answered (the ranking reads
/// their first 16 KiB). At 1 MiB such a failure was ignored whole (found by
/// review); reading and parsing 16 MiB costs tens of milliseconds.
pub const MAX_INPUT: usize = 16 << 20;

/// Runs the hook with its command-line words (`--agent NAME`, `--event
/// NAME`; anything else is named on stderr and ignored); always returns exit code 0.
pub fn run(args: &[String]) -> i32 {
    if std::io::stdin().is_terminal() {
        note("reads an agent's hook JSON on stdin; the agent runs it (see editors/claude-code or `memory-index-lsp init --agent`)");
        return 0;
    }
    let (agent, event_name) = hook_args(args);
    let agent = agent.or_else(|| Agent::from_env(|k| std::env::var(k).ok()));
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(|| {
        let input = read_input(&mut std::io::stdin().lock())?;
        let input = event::parse(&input, agent, event_name.as_deref())?;
        let project_dir = std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from);
        respond(&input, project_dir.as_deref(), crate::project::session::dir().as_deref())
    });
    let _ = std::panic::take_hook();
    match outcome {
        Ok(Ok(Some(json))) => {
            let mut out = std::io::stdout().lock();
            if writeln!(out, "{json}").and_then(|()| out.flush()).is_err() {
                note("cannot write to stdout");
            }
        }
        Ok(Ok(None)) => {}
        Ok(Err(why)) => note(&why),
        Err(_) => note("internal error (a bug: please report it); nothing was injected"),
    }
    0
}

/// `--agent NAME` and `--event NAME` (or `--agent=NAME`) from the hook's
/// words; an unknown agent or word is noted and ignored (the hook never fails).
fn hook_args(args: &[String]) -> (Option<Agent>, Option<String>) {
    let (mut agent, mut event) = (None, None);
    let mut words = args.iter();
    while let Some(w) = words.next() {
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (w.as_str(), None),
        };
        match flag {
            "--agent" | "--event" => {
                let Some(value) = inline.or_else(|| words.next().cloned()) else {
                    note(&format!("{flag} needs a value; ignored"));
                    continue;
                };
                if flag == "--event" {
                    event = Some(value);
                } else if let Some(a) = Agent::from_name(&value) {
                    agent = Some(a);
                } else {
                    note(&format!(
                        "unknown agent `{value}` (claude, codex, copilot, gemini); detecting it from the payload"
                    ));
                }
            }
            other => note(&format!("unknown argument `{other}` ignored")),
        }
    }
    (agent, event)
}

/// One line on stderr.
fn note(why: &str) {
    let line = why.replace('\n', " ");
    let _ = writeln!(std::io::stderr(), "memory-index-lsp hook: {line}");
}

/// Reads at most [`MAX_INPUT`] bytes; larger input is drained (so the writer never sees a broken pipe) and refused.
fn read_input(r: &mut impl Read) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    r.take(MAX_INPUT as u64 + 1).read_to_end(&mut buf).map_err(|e| format!("cannot read stdin: {e}"))?;
    if buf.len() > MAX_INPUT {
        let _ = std::io::copy(&mut r.take(256 * MAX_INPUT as u64), &mut std::io::sink());
        return Err(format!("input larger than {} MiB ignored", MAX_INPUT >> 20));
    }
    Ok(buf)
}

/// The JSON to print for `input`, None for silence, or why nothing could be
/// said; the service's notes go to stderr as they come. The workspace is found by
/// `project::root`'s rule: from `project_dir` (`$CLAUDE_PROJECT_DIR`), else
/// the input's `cwd`, upward; session state lives in `state_dir` (none:
/// nothing is remembered).
pub fn respond(input: &Input, project_dir: Option<&Path>, state_dir: Option<&Path>) -> Result<Option<String>, String> {
    // Said as they come: a hook the agent kills at its timeout has said them.
    let notes = Notes::writing(note);
    let answer = recall::answer(&input.ask, Places { project_dir, state_dir }, &notes);
    Ok(match answer.map_err(|e| e.to_string())? {
        Answer::Silent => None,
        Answer::Context(c) => Some(dialect::render(input.ask.agent, &input.agent_event, &c)),
        Answer::Block(reason) => Some(serde_json::json!({ "decision": "block", "reason": reason }).to_string()),
    })
}

#[cfg(test)]
mod tests;
