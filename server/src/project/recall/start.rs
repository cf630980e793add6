//! A session's start: how to recall and the index's size, once a session (again after a clear or a compaction), with what changed since the project's last session.

use super::{Call, Event};
use crate::model::Workspace;
use crate::project::agents::Agent;
use crate::project::session::Session;

/// The session key that says the session's note was given.
const NOTE_KEY: &str = "\tsession-note";

/// The note for the session's start of `call` (None when it was given already).
pub(super) fn note(ws: &Workspace, call: &Call<'_>) -> Option<String> {
    if !note_once(call) {
        return None;
    }
    let mut note = crate::recall::inject::session_note(ws, call.ask.agent == Agent::Claude);
    // A memory meant for a newer program: said once a session, at its start.
    if let Some(old) = crate::model::config::too_old(env!("CARGO_PKG_VERSION"), ws.config().min_version.as_deref()) {
        note = format!("memory-index: {old}.\n{note}");
    }
    // What changed since the project's last session (issue 50).
    Some(match crate::project::continuity::since_last(ws, call.root, call.state_dir) {
        Some(changed) => format!("{note}\n{changed}"),
        None => note,
    })
}

/// Whether a session start gives its note: once per session for a start or
/// a resume (the note is in the context already), every time after a clear
/// or a compaction (the context lost it). An agent that runs the same hook
/// twice gives it once: Copilot CLI runs the hooks of `.github/hooks/` and
/// those of `.claude/settings.json`, both written by `init --agent all`
/// (found by review: two notes at every start). Without a session to
/// remember it by, the note is given. After a clear or a compaction the
/// session's decisions may be injected again ([`Session::context_lost`]).
fn note_once(call: &Call<'_>) -> bool {
    let Event::SessionStart { source } = &call.ask.event else { return true };
    let lost = matches!(source.as_deref(), Some("clear" | "compact"));
    let (Some(id), Some(dir)) = (call.ask.session_id.as_deref(), call.state_dir) else { return true };
    let mut session = match Session::open(dir, id) {
        Ok(s) => s,
        Err(_) => return true,
    };
    if lost {
        if let Err(e) = session.context_lost() {
            call.notes.add(format!("cannot record that the context was compacted ({e}); its decisions stay given"));
        }
        return true;
    }
    if session.seen(NOTE_KEY) {
        return false;
    }
    if let Err(e) = session.record(&[NOTE_KEY.to_string()]) {
        call.notes.add(format!("cannot remember that the session's note was given ({e}); it may be given again"));
    }
    true
}
