//! The recall service: an agent's event in, what its model should read out (or why nothing could be said); the hook calls it for every agent, and `resolve`, `search` and MCP read decisions through its [`Loaded`] memory.
//!
//! The moments ([`Event`], named as Claude Code names them; `hook::dialect`
//! maps the other agents' events to them):
//! - `SessionStart`: how to recall, and the index's size; once a session,
//!   and again after a clear or a compaction ([`start`]).
//! - `UserPromptSubmit`: decisions for the prompt at `[recall] prompt`
//!   confidence or more (not for slash commands: `/when …` is the skill's);
//!   when none reaches it, one line naming each likely one at
//!   `prompt-pointer` or more, for the model to read only if it applies
//!   (`recall::inject::pointer`);
//!   while the memory's files are as the last call saw them, a prompt, a
//!   command and a failure are answered from its recall view without
//!   reading them ([`fast`], `project::recall_cache`).
//! - `PreToolUse`: for a shell command, decisions for it at `[recall]
//!   command`; for the files a tool reads or edits, the decisions scoped to
//!   them ([`scoped`]); never a permission decision.
//! - `PostToolUseFailure`: decisions for the error and the command at
//!   `[recall] error` (not when the person interrupted the call).
//! - `Stop`: once per session, when the person settled something the
//!   memory does not hold, a block asking the agent to record it
//!   ([`stop`], `recall::capture`; `[capture] stop = false` turns it off;
//!   never when `active`).
//!
//! At most `[recall] max-decisions` per call and `max-chars` in all; never the
//! same decision twice in a session (`project::session`); a decision read on
//! purpose ([`read`]) counts as shown; `[recall] hook = false` silences
//! everything. Each call finds the project once and loads it at most once.

mod fast;
mod loaded;
mod ranked;
mod read;
mod scoped;
mod start;
mod stop;

use std::cell::RefCell;
use std::path::{Path, PathBuf};

pub use loaded::Loaded;
pub use scoped::relative;

use crate::project::agents::Agent;
use crate::project::load;
use crate::recall::inject::{self, Limits};

/// What an agent's event asks, with the text each moment is ranked by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A session starts (or resumes, clears, compacts): `source` as the
    /// agent names why (`startup`, `resume`, `clear`, `compact`; Copilot's `new`).
    SessionStart { source: Option<String> },
    /// The person sent a prompt.
    UserPromptSubmit { prompt: String },
    /// A tool is about to run; `command` is a shell call's command line;
    /// `files` the paths it reads or edits, as the agent names them.
    PreToolUse { tool_name: String, command: Option<String>, files: Vec<String> },
    /// A tool call failed with `error`; `command` as for [`Event::PreToolUse`];
    /// `interrupted` when the person stopped it (not a failure to explain).
    PostToolUseFailure { tool_name: String, error: String, command: Option<String>, interrupted: bool },
    /// The agent is about to end its turn; `active` when this stop follows a
    /// block of ours (never block again then).
    Stop { transcript_path: Option<String>, active: bool },
    /// The agent's model reads decisions on purpose with a tool of the agent
    /// (Claude Code's Skill tool running `/when` or `/how`): `query` is what it
    /// reads (`when writing mock tests`). Nothing is said; the decisions count
    /// as shown for the session.
    Read { query: String },
    /// Any other event: nothing is said.
    Other(String),
}

impl Event {
    /// The event's name as Claude Code spells it.
    pub fn name(&self) -> &str {
        match self {
            Event::SessionStart { .. } => "SessionStart",
            Event::UserPromptSubmit { .. } => "UserPromptSubmit",
            Event::PreToolUse { .. } | Event::Read { .. } => "PreToolUse",
            Event::PostToolUseFailure { .. } => "PostToolUseFailure",
            Event::Stop { .. } => "Stop",
            Event::Other(name) => name,
        }
    }
}

/// One event, from one agent, in one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    pub event: Event,
    /// The session's id; None when absent or empty (then nothing is remembered).
    pub session_id: Option<String>,
    /// The session's working directory, when given.
    pub cwd: Option<String>,
    /// The agent that asks (its skills and its context's size shape the answer).
    pub agent: Agent,
}

/// Where a call finds things: the agent's project folder (`$CLAUDE_PROJECT_DIR`,
/// before the event's `cwd`) and the state folder of sessions (None: nothing is remembered).
#[derive(Clone, Copy, Debug, Default)]
pub struct Places<'a> {
    pub project_dir: Option<&'a Path>,
    pub state_dir: Option<&'a Path>,
}

/// What the agent's model is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing.
    Silent,
    /// Context for the model: decisions, pointers, the session's note.
    Context(String),
    /// The turn's end is refused once, with the reason (the model reads it).
    Block(String),
}

/// Why nothing could be said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No memory at or above `start`; `passed` names one passed over on the way.
    NoMemory { start: PathBuf, passed: Option<String> },
    /// The project could not be loaded.
    Unloadable(String),
    /// The project has no index file at `index`.
    NoIndex { root: PathBuf, index: String },
    /// The folder holds neither an index nor a decision file (what to do, said).
    Empty(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NoMemory { start, passed } => {
                let passed = passed.as_ref().map(|w| format!("; {w}")).unwrap_or_default();
                write!(
                    f,
                    "no memory index at or above {} (looked for memory-index.toml or agents/memory-index.md); nothing to recall{passed}",
                    start.display()
                )
            }
            Failure::Unloadable(why) | Failure::Empty(why) => f.write_str(why),
            Failure::NoIndex { root, index } => write!(f, "{} has no index {index}; nothing to recall", root.display()),
        }
    }
}

/// What went wrong on the way without stopping the answer (a setting left
/// out, state that could not be kept): one line each, for the front end to
/// show where the agent logs its hooks. Kept for [`Notes::into_lines`], or
/// written as they come ([`Notes::writing`]: a hook killed at its timeout,
/// or one that panics, has said them already).
#[derive(Default)]
pub struct Notes {
    lines: RefCell<Vec<String>>,
    sink: Option<Sink>,
}

/// Where [`Notes::writing`] hands each line.
type Sink = Box<dyn Fn(&str)>;

impl Notes {
    /// Notes handed to `sink` as they come.
    pub fn writing(sink: impl Fn(&str) + 'static) -> Notes {
        Notes { lines: RefCell::default(), sink: Some(Box::new(sink)) }
    }
    /// Adds one line.
    pub fn add(&self, line: impl Into<String>) {
        match &self.sink {
            Some(sink) => sink(&line.into()),
            None => self.lines.borrow_mut().push(line.into()),
        }
    }
    /// The lines kept, in order (none when they were written).
    pub fn into_lines(self) -> Vec<String> {
        self.lines.into_inner()
    }
}

/// The answer to `ask`. The project is found by `project::root`'s rule:
/// from `places.project_dir`, else the event's `cwd`, upward.
pub fn answer(ask: &Ask, places: Places<'_>, notes: &Notes) -> Result<Answer, Failure> {
    // A decision read on purpose: nothing to add, and shown for the session (`read`).
    let reads = read::reads(ask);
    let cwd = ask.cwd.as_ref().map(PathBuf::from);
    let locate = || crate::project::root::locate(None, places.project_dir, cwd.as_deref());
    if !reads.is_empty() {
        if let Some(ws) = locate().ok().and_then(|root| load::load(&root).ok()) {
            read::record(&ws, &reads, ask.session_id.as_deref(), places.state_dir);
        }
        return Ok(Answer::Silent);
    }
    let Some(text) = text_of(ask) else { return Ok(Answer::Silent) };
    let root = locate().map_err(|start| {
        let passed = crate::project::root::passed_over(&start);
        Failure::NoMemory { start, passed }
    })?;
    let files = files_of(&ask.event);
    // A file tool on files outside the project: nothing of its memory applies.
    if text.is_none() && !files.is_empty() && files.iter().all(|f| relative(&root, ask.cwd.as_deref(), f).is_none()) {
        return Ok(Answer::Silent);
    }
    let call = Call { ask, root: &root, state_dir: places.state_dir, notes };
    let fast = fast::answer(&call, text.as_deref(), files);
    if let fast::Fast::Answered(context) = fast {
        return Ok(context.map_or(Answer::Silent, Answer::Context));
    }
    let loaded_at = std::time::SystemTime::now();
    let ws = load::load(&root).map_err(|e| Failure::Unloadable(e.to_string()))?;
    // A wrong key is left out and the others apply; say so where the hook's output is logged.
    if let Some(e) = ws.config_errors().first() {
        let more = ws.config_errors().len() - 1;
        let more = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        notes.add(format!("{}{more}; `memory-index-lsp check` lists them", e.message));
    }
    if !ws.config().recall.hook {
        return Ok(Answer::Silent);
    }
    if ws.index().is_none() {
        return Err(Failure::NoIndex { root: root.clone(), index: ws.config().index.clone() });
    }
    if let Event::Stop { transcript_path, .. } = &ask.event {
        let transcript = transcript_path.as_deref().map(Path::new);
        let reason = stop::capture_once(&ws, transcript, ask.session_id.as_deref(), places.state_dir, notes);
        return Ok(reason.map_or(Answer::Silent, Answer::Block));
    }
    if let (Event::UserPromptSubmit { prompt }, true) = (&ask.event, ws.config().capture.stop) {
        stop::note_settled(prompt, ask.session_id.as_deref(), places.state_dir, notes);
    }
    let context = match text {
        None if !files.is_empty() => scoped::recall(&ws, &call, files, true, 0),
        None => start::note(&ws, &call),
        Some(text) => ranked::recall(&Loaded::new(root.clone(), ws), &call, &text, files, &fast, loaded_at),
    };
    Ok(context.map_or(Answer::Silent, Answer::Context))
}

/// One call, once its project is found.
struct Call<'a> {
    ask: &'a Ask,
    root: &'a Path,
    state_dir: Option<&'a Path>,
    notes: &'a Notes,
}

/// The text `ask` is ranked by: Some(None) for a moment answered without
/// one (a session's start, a stop, a file tool), None for silence.
fn text_of(ask: &Ask) -> Option<Option<String>> {
    match &ask.event {
        Event::UserPromptSubmit { prompt } if !is_slash_command(prompt) => Some(Some(prompt.clone())),
        Event::PreToolUse { tool_name, command: Some(command), .. } if tool_name == "Bash" => {
            Some(Some(command.clone()))
        }
        Event::PreToolUse { files, .. } if !files.is_empty() => Some(None),
        Event::PostToolUseFailure { error, command, interrupted: false, .. } => {
            Some(Some(command.as_ref().map_or_else(|| error.clone(), |c| format!("{error}\n{c}"))))
        }
        // A stop is asked about only in a session it can remember asking in (`stop::capture_once`).
        Event::Stop { active: false, .. } if ask.session_id.is_none() => None,
        Event::SessionStart { .. } | Event::Stop { active: false, .. } => Some(None),
        _ => None,
    }
}

/// The files a tool reads or edits: a file tool's only text, a shell command's too.
fn files_of(event: &Event) -> &[String] {
    match event {
        Event::PreToolUse { files, .. } => files,
        _ => &[],
    }
}

/// What may be said on `event` under `r` (the `[recall]` settings) to `agent`.
fn limits_for(r: &crate::model::config::Recall, agent: Agent, event: &Event) -> Limits {
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
fn recall_once(call: &Call<'_>, find: &Find<'_>) -> Result<Option<String>, inject::Stale> {
    let notes = call.notes;
    let mut session = match (call.ask.session_id.as_deref(), call.state_dir) {
        (Some(id), Some(dir)) => match crate::project::session::Session::open(dir, id) {
            Ok(s) => Some(s),
            Err(e) => {
                notes.add(format!("no session state ({e}); decisions may be injected again"));
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
            notes.add(format!("cannot remember what was injected ({e}); it may be injected again"));
        }
    }
    Ok(Some(found.text))
}

/// `/when …`, `/how …`, `/compact`: a prompt that is a slash command (not a path such as `/usr/bin …`).
pub(crate) fn is_slash_command(prompt: &str) -> bool {
    let Some(rest) = prompt.trim_start().strip_prefix('/') else { return false };
    let word = rest.split(char::is_whitespace).next().unwrap_or("");
    !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
}
