//! `memory-index-lsp hook [--agent claude|codex|copilot|gemini] [--event NAME]`: an agent's command hooks, from the hook JSON on stdin to the context its model receives on stdout.
//!
//! Contract (Claude Code blocks a prompt on exit 2 and shows a "hook error"
//! on any other non-zero exit; the other agents likewise): always exit 0;
//! stdout is empty or one JSON object in the agent's shape ([`dialect`]:
//! `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`,
//! Copilot's top-level `{"additionalContext":…}`; for Claude Code's `Stop`,
//! `{"decision":"block","reason":…}`); the agent is `--agent` or detected
//! from the payload, its events mapped to the moments below;
//! anything that goes wrong (empty or malformed input, input over
//! [`MAX_INPUT`] bytes, no workspace, a panic) is one line on stderr.
//!
//! - `SessionStart`: how to recall, and the index's size; once a session,
//!   and again after a clear or a compaction ([`note_once`]).
//! - `UserPromptSubmit`: decisions for the prompt at `[recall] prompt`
//!   confidence or more (not for slash commands: `/when …` is the skill's);
//!   when none reaches it, one line naming each likely one at
//!   `prompt-pointer` or more, for the model to read only if it applies
//!   (`recall::inject::pointer`);
//!   while the memory's files are as the last hook saw them, a prompt of
//!   more than eight words, a command and a failure are answered from its
//!   recall view without reading them (`project::recall_cache`).
//! - `PreToolUse` (Bash): decisions for the command at `[recall] command`;
//!   never a permission decision.
//! - `PostToolUseFailure`: decisions for the error and the command at
//!   `[recall] error` (not when the person interrupted the call).
//! - `Stop`: once per session, when the person settled something the
//!   memory does not hold, `{"decision":"block","reason":…}` asking the
//!   agent to record it (`recall::capture`; `[capture] stop = false` turns it
//!   off; never when `stop_hook_active`).
//!
//! At most `[recall] max-decisions` per call and `max-chars` in all; never the
//! same decision twice in a session (`project::session`); `[recall] hook = false`
//! silences everything.

pub mod dialect;
pub mod event;
mod fast;
mod files;
mod read;
mod scoped;
mod shell;
mod stop;

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use crate::recall::inject::{self, Limits};
use event::{Event, Input};

use crate::project::agents::Agent;
use crate::project::load;
use crate::project::semantic;

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

/// The JSON to print for `input`, None for silence, or why nothing could be said.
/// The workspace is found by `project::root`'s rule: from `project_dir`
/// (`$CLAUDE_PROJECT_DIR`), else the input's `cwd`, upward; session
/// state lives in `state_dir` (none: nothing is remembered).
pub fn respond(input: &Input, project_dir: Option<&Path>, state_dir: Option<&Path>) -> Result<Option<String>, String> {
    // A decision read on purpose: nothing to add, and shown for the session (`read`).
    if read::answered(input, project_dir, state_dir) {
        return Ok(None);
    }
    // The files a tool reads or edits (`files`): a file tool's only text, a shell command's too.
    let files: &[String] = match &input.event {
        Event::PreToolUse { files, .. } => files,
        _ => &[],
    };
    let text = match &input.event {
        Event::UserPromptSubmit { prompt } if !is_slash_command(prompt) => Some(prompt.clone()),
        Event::PreToolUse { tool_name, command: Some(command), .. } if tool_name == "Bash" => Some(command.clone()),
        Event::PreToolUse { .. } if !files.is_empty() => None,
        Event::PostToolUseFailure { error, command, interrupted: false, .. } => {
            Some(command.as_ref().map_or_else(|| error.clone(), |c| format!("{error}\n{c}")))
        }
        // A stop is asked about only in a session it can remember asking in (`capture_once`).
        Event::Stop { active: false, .. } if input.session_id.is_none() => return Ok(None),
        Event::SessionStart { .. } | Event::Stop { active: false, .. } => None,
        _ => return Ok(None),
    };
    // The project is the agent's ($CLAUDE_PROJECT_DIR), not wherever it `cd`ed to.
    let cwd = input.cwd.as_ref().map(PathBuf::from);
    let root = match crate::project::root::locate(None, project_dir, cwd.as_deref()) {
        Ok(root) => root,
        Err(start) => {
            let passed = crate::project::root::passed_over(&start).map(|w| format!("; {w}")).unwrap_or_default();
            return Err(format!(
                "no memory index at or above {} (looked for memory-index.toml or agents/memory-index.md); nothing to recall{passed}",
                start.display()
            ));
        }
    };
    // A prompt, a command or a failure on a memory whose files are as the
    // last hook saw them: answered from its recall view, unread (a short
    // prompt's letters-in-order tier reads the triggers the view keeps).
    // A file tool on files outside the project: nothing of its memory applies.
    if text.is_none() && files.iter().all(|f| scoped::relative(&root, input.cwd.as_deref(), f).is_none()) {
        if let Event::PreToolUse { .. } = input.event {
            return Ok(None);
        }
    }
    // The view holds no scopes: where one may apply to the event's files, the memory is loaded.
    let fast = match (&input.event, &text) {
        (Event::UserPromptSubmit { .. } | Event::PreToolUse { .. } | Event::PostToolUseFailure { .. }, Some(t)) => {
            fast::from_view(input, t, files, &root, state_dir)
        }
        (Event::PreToolUse { .. }, None) if !files.is_empty() => fast::files_only(&root),
        _ => fast::Fast::Skipped,
    };
    if let fast::Fast::Answered(context) = fast {
        return Ok(context.map(|c| dialect::render(input.agent, &input.agent_event, &c)));
    }
    let loaded_at = std::time::SystemTime::now();
    let ws = load::load(&root).map_err(|e| e.to_string())?;
    // A wrong key is left out and the others apply; say so where the hook's output is logged.
    if let Some(e) = ws.config_errors().first() {
        let more = ws.config_errors().len() - 1;
        let more = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        note(&format!("{}{more}; `memory-index-lsp check` lists them", e.message));
    }
    if !ws.config().recall.hook {
        return Ok(None);
    }
    if ws.index().is_none() {
        return Err(format!("{} has no index {}; nothing to recall", root.display(), ws.config().index));
    }
    if let Event::Stop { transcript_path, .. } = &input.event {
        let transcript = transcript_path.as_deref().map(Path::new);
        return Ok(stop::capture_once(&ws, transcript, input.session_id.as_deref(), state_dir));
    }
    if let (Event::UserPromptSubmit { prompt }, true) = (&input.event, ws.config().capture.stop) {
        stop::note_settled(prompt, input.session_id.as_deref(), state_dir);
    }
    let context = match text {
        None if !files.is_empty() => scoped::recall(&ws, &root, input, files, true, state_dir, 0),
        None => note_once(&input.event, input.session_id.as_deref(), state_dir).then(|| {
            let mut note = inject::session_note(&ws, input.agent == Agent::Claude);
            // A memory meant for a newer program: said once a session, at its start.
            if let Some(old) =
                crate::model::config::too_old(env!("CARGO_PKG_VERSION"), ws.config().min_version.as_deref())
            {
                note = format!("memory-index: {old}.\n{note}");
            }
            // What changed since the project's last session (issue 50).
            crate::project::continuity::since_last(&ws, &root, state_dir)
                .map_or(note.clone(), |c| format!("{note}\n{c}"))
        }),
        Some(text) => {
            // The ranking's index from the snapshot of this very memory, or built and kept for the next hook.
            let warm = crate::project::search_cache::warm(&ws, &root);
            // The semantic tier (`[recall] semantic`), for prompts: loaded only when a candidate needs it.
            let prose = matches!(input.event, Event::UserPromptSubmit { .. });
            // Unset, on when the model is there (`semantic::enabled`); asked for, fetched when missing.
            let mut lazy = (prose && semantic::enabled(&ws, &root)).then(|| semantic::Lazy::new(&root, false));
            // No model yet: `embed` fetches it in the background (never while a prompt waits).
            if let (Some(_), Some(dir)) = (&lazy, semantic::model_missing(&ws, &root)) {
                lazy = None;
                if !semantic::fetches_into(&dir) {
                    note(&format!(
                        "no semantic model in {} (named by [recall] model or ${}; only the default folder is fetched into); ranking by words only",
                        dir.display(),
                        semantic::MODEL_ENV
                    ));
                } else if semantic::fetch::recently_failed(&dir) {
                    note(&format!(
                        "no semantic model in {}: the last fetch failed (see {}/.fetch-failed; `memory-index-lsp embed` tries again); ranking by words only",
                        dir.display(),
                        dir.display()
                    ));
                } else {
                    semantic::embed_in_background(&root);
                    note(&format!(
                        "no semantic model in {} yet: fetching it in the background (87 MB); ranking by words meanwhile",
                        dir.display()
                    ));
                }
            }
            let limits = limits_for(&ws.config().recall, input.agent, &input.event);
            let semantic = lazy.as_ref().map(|l| l as &dyn crate::search::semantic::Cosines);
            let found = recall_once(input.session_id.as_deref(), state_dir, &|seen| {
                Ok(inject::recalled(&ws, &text, limits, seen, semantic))
            })
            .unwrap_or_default();
            if let Some(w) = &warm {
                crate::project::search_cache::keep(&ws, w);
            }
            if matches!(fast, fast::Fast::Absent | fast::Fast::Stale) {
                // The letters file only when a short prompt asked for it (writing it costs
                // about 30 ms at 10,000 entries, which long prompts and commands never repay).
                let letters =
                    prose && crate::search::recall::reads_letters(crate::text::cut(&text, inject::MAX_TEXT_BYTES));
                let key = crate::search::snapshot::key(&ws);
                crate::project::recall_cache::keep(&ws, &root, key, loaded_at, letters);
            }
            if let Some(l) = &lazy {
                if let Some(e) = l.error() {
                    note(&format!("{e}; ranking by words only"));
                }
                // Sections without a vector were ranked by words; `embed` fills them in for the next prompt.
                if l.tier().is_some_and(|t| t.missing() > 0) {
                    semantic::embed_in_background(&root);
                }
            }
            // A command that reads files: the decisions scoped to them too, in the room left.
            let used = found.as_deref().map_or(0, |f| f.chars().count() + 2);
            match (found, scoped::recall(&ws, &root, input, files, false, state_dir, used)) {
                (Some(a), Some(b)) => Some(format!("{a}\n\n{b}")),
                (a, b) => a.or(b),
            }
        }
    };
    Ok(context.map(|c| dialect::render(input.agent, &input.agent_event, &c)))
}

/// What the hook may say on `event` under `r` (the `[recall]` settings) to `agent`.
pub(super) fn limits_for(r: &crate::model::config::Recall, agent: Agent, event: &Event) -> Limits {
    let (threshold, pointer) = match event {
        Event::PreToolUse { .. } => (r.command, r.command_pointer),
        Event::PostToolUseFailure { .. } => (r.error, r.error_pointer),
        _ => (r.prompt, r.prompt_pointer),
    };
    let max_chars = (r.max_chars as usize).min(agent.max_context_chars().unwrap_or(usize::MAX));
    let shell = matches!(event, Event::PreToolUse { .. } | Event::PostToolUseFailure { .. });
    Limits {
        threshold,
        max_decisions: r.max_decisions as usize,
        max_chars,
        shell,
        skills: agent == Agent::Claude,
        pointer,
        max_pointers: r.max_pointers as usize,
        meaning: if shell { f64::INFINITY } else { r.meaning_pointer },
    }
}

/// Finds the decisions to inject, told which this session has seen.
type Find<'a> = dyn Fn(&dyn Fn(&str) -> bool) -> Result<Option<inject::Injection>, inject::Stale> + 'a;

/// The decisions `find` gives (told which this session has seen), not yet
/// injected in this session; records them. Err when `find` could not read a
/// section as it was (nothing is recorded then).
pub(super) fn recall_once(
    session_id: Option<&str>,
    state_dir: Option<&Path>,
    find: &Find<'_>,
) -> Result<Option<String>, inject::Stale> {
    let mut session = match (session_id, state_dir) {
        (Some(id), Some(dir)) => match crate::project::session::Session::open(dir, id) {
            Ok(s) => Some(s),
            Err(e) => {
                note(&format!("no session state ({e}); decisions may be injected again"));
                None
            }
        },
        _ => None,
    };
    if session.as_ref().is_some_and(crate::project::session::Session::full) {
        return Ok(None);
    }
    let seen = |key: &str| session.as_ref().is_some_and(|s| s.seen(key));
    let Some(found) = find(&seen)? else { return Ok(None) };
    if let Some(s) = &mut session {
        if let Err(e) = s.record(&[found.keys, found.pointed].concat()) {
            note(&format!("cannot remember what was injected ({e}); it may be injected again"));
        }
    }
    Ok(Some(found.text))
}

/// The session key that says the session's note was given.
const NOTE_KEY: &str = "\tsession-note";

/// Whether a session start gives its note: once per session for a start or
/// a resume (the note is in the context already), every time after a clear
/// or a compaction (the context lost it). An agent that runs the same hook
/// twice gives it once: Copilot CLI runs the hooks of `.github/hooks/` and
/// those of `.claude/settings.json`, both written by `init --agent all`
/// (found by review: two notes at every start). Without a session to
/// remember it by, the note is given. After a clear or a compaction the
/// session's decisions may be injected again ([`Session::context_lost`]).
///
/// [`Session::context_lost`]: crate::project::session::Session::context_lost
fn note_once(event: &Event, session_id: Option<&str>, state_dir: Option<&Path>) -> bool {
    let Event::SessionStart { source } = event else { return true };
    let lost = matches!(source.as_deref(), Some("clear" | "compact"));
    let (Some(id), Some(dir)) = (session_id, state_dir) else { return true };
    let mut session = match crate::project::session::Session::open(dir, id) {
        Ok(s) => s,
        Err(_) => return true,
    };
    if lost {
        if let Err(e) = session.context_lost() {
            note(&format!("cannot record that the context was compacted ({e}); its decisions stay given"));
        }
        return true;
    }
    if session.seen(NOTE_KEY) {
        return false;
    }
    if let Err(e) = session.record(&[NOTE_KEY.to_string()]) {
        note(&format!("cannot remember that the session's note was given ({e}); it may be given again"));
    }
    true
}

/// `/when …`, `/how …`, `/compact`: a prompt that is a slash command (not a path such as `/usr/bin …`).
fn is_slash_command(prompt: &str) -> bool {
    let Some(rest) = prompt.trim_start().strip_prefix('/') else { return false };
    let word = rest.split(char::is_whitespace).next().unwrap_or("");
    !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
}

#[cfg(test)]
mod tests;
