//! The end of a turn: what a prompt settled, kept for the `Stop` that asks the agent once a session to record what the memory does not hold (`recall::capture`).

use std::path::Path;

use super::Notes;
use crate::model::Workspace;

/// The session key prefix of a statement the person settled in a prompt.
const SETTLED_KEY: &str = "\tsettled\t";

/// Keeps the rules a prompt settles in the session's state, for the `Stop`
/// that ends the session (the transcript may not hold the prompt yet when
/// Claude Code runs the Stop hook: it writes it asynchronously).
pub(super) fn note_settled(prompt: &str, session_id: Option<&str>, state_dir: Option<&Path>, notes: &Notes) {
    let found = crate::recall::capture::settled(&[prompt]);
    let (Some(id), Some(dir)) = (session_id, state_dir) else { return };
    if found.is_empty() {
        return;
    }
    let keys: Vec<String> = found
        .iter()
        .map(|s| {
            format!("{SETTLED_KEY}{}", s.chars().take(2 * crate::recall::capture::QUOTE_CHARS).collect::<String>())
        })
        .collect();
    if let Ok(mut session) = crate::project::session::Session::open(dir, id) {
        let new: Vec<String> = keys.into_iter().filter(|k| !session.seen(k)).collect();
        if let Err(e) = session.record(&new) {
            notes.add(format!("cannot keep what the prompt settled ({e})"));
        }
    }
}

/// The session key that says the stop was blocked once already.
const STOP_KEY: &str = "\tstop-capture";

/// Claude Code's `Stop`: when the person settled something in this session
/// that the memory does not hold (kept by the prompt hook, or read from the
/// transcript's last 8 MiB when the payload names one: found by review, a
/// stop without one was silent though the prompts had been kept), block the stop once with a reason (returned) that
/// quotes it and asks the agent to record it (`recall::capture`); silent
/// otherwise, when `[capture] stop = false`, without a session to remember
/// that it asked (it would ask at every turn's end), and after asking once.
pub(super) fn capture_once(
    ws: &Workspace,
    transcript: Option<&Path>,
    session_id: Option<&str>,
    state_dir: Option<&Path>,
    notes: &Notes,
) -> Option<String> {
    if !ws.config().capture.stop {
        return None;
    }
    let (id, dir) = (session_id?, state_dir?);
    let mut session = match crate::project::session::Session::open(dir, id) {
        Ok(s) => s,
        Err(e) => {
            notes.add(format!("no session state ({e}); not asking to record anything"));
            return None;
        }
    };
    if session.seen(STOP_KEY) {
        return None;
    }
    // What the prompts settled, as the prompt hook kept it, and the transcript's prompts.
    let mut prompts: Vec<String> = session.keys_with(SETTLED_KEY).map(str::to_string).collect();
    match transcript.map(crate::project::transcript::prompts_of) {
        Some(Ok(p)) => prompts.extend(p),
        Some(Err(e)) => notes.add(format!("cannot read the transcript ({e})")),
        None => {}
    }
    let prompts: Vec<&str> = prompts.iter().map(String::as_str).collect();
    let reason = crate::recall::capture::reason(&crate::recall::capture::unrecorded(ws, &prompts))?;
    if let Err(e) = session.record(&[STOP_KEY.to_string()]) {
        notes.add(format!("cannot remember that it asked ({e}); not asking"));
        return None;
    }
    Some(reason)
}
