//! The fast path: a prompt, a command or a failure answered from the memory's recall view (`project::recall_cache`) without loading the memory.

use std::path::Path;

use super::{limits_for, recall_once, Call, Event};
use crate::recall::inject;

/// What the recall view did for an event.
pub(super) enum Fast {
    /// Not asked (no text to rank): load the memory.
    Skipped,
    /// No view of the memory's present state: load it, and keep a view.
    Absent,
    /// A section was not as the view says, or a short prompt found no letters
    /// file written with the view: load the memory, and keep a new view.
    Stale,
    /// The answer, as from the loaded memory.
    Answered(Option<String>),
    /// The view cannot answer this event: its files may recall a decision
    /// (a scope, `[recall] file-words`), or a prompt is ranked by meaning too
    /// (the semantic tier): load the memory; the view stays.
    Load,
}

/// What the recall view does for the event of `call`, ranked by `text`
/// (None: a file tool's event, or a moment without text), with the `files` it names.
pub(super) fn answer(call: &Call<'_>, text: Option<&str>, files: &[String]) -> Fast {
    match (&call.ask.event, text) {
        (Event::UserPromptSubmit { .. } | Event::PreToolUse { .. } | Event::PostToolUseFailure { .. }, Some(t)) => {
            from_view(call, t, files)
        }
        (Event::PreToolUse { .. }, None) if !files.is_empty() => files_only(call.root),
        _ => Fast::Skipped,
    }
}

/// A file tool's event (no text of its own) on a memory whose view says no
/// file recalls anything: silence, without loading the memory.
fn files_only(root: &Path) -> Fast {
    match crate::project::recall_cache::open_view(root) {
        None => Fast::Absent,
        Some(view) if view.settings.files_recall => Fast::Load,
        Some(_) => Fast::Answered(None),
    }
}

/// The text of a prompt, a command or a failure (as `text_of` builds it)
/// answered from the memory's recall view (`project::recall_cache`) as the
/// loaded memory would answer it: the same settings, ranking, blocks and
/// session state.
/// With `files` (the paths a command reads), only when the view says no file
/// recalls anything ([`Fast::Load`] otherwise).
fn from_view(call: &Call<'_>, whole: &str, files: &[String]) -> Fast {
    let (input, root) = (call.ask, call.root);
    let Some((view, bm)) = crate::project::recall_cache::open(root) else { return Fast::Absent };
    let s = view.settings;
    if !files.is_empty() && s.files_recall {
        return Fast::Load;
    }
    if matches!(input.event, Event::UserPromptSubmit { .. }) && ranks_by_meaning(&s, root) {
        return Fast::Load;
    }
    let text = crate::text::cut(whole, inject::MAX_TEXT_BYTES);
    // As the loaded memory's answer does, first (the session's room counts it).
    if let (Event::UserPromptSubmit { prompt }, true) = (&input.event, s.capture_stop) {
        super::stop::note_settled(prompt, input.session_id.as_deref(), call.state_dir, call.notes);
    }
    let r = crate::model::config::Recall {
        prompt: s.prompt,
        command: s.command,
        error: s.error,
        prompt_pointer: s.prompt_pointer,
        command_pointer: s.command_pointer,
        error_pointer: s.error_pointer,
        max_pointers: s.max_pointers,
        max_decisions: s.max_decisions,
        max_chars: s.max_chars,
        ..Default::default()
    };
    let limits = limits_for(&r, input.agent, &input.event);
    let found = recall_once(call, &|seen| {
        let want = inject::wanted(limits);
        let ranked = if limits.shell {
            crate::search::recall::recall_command_from(&view, &bm, &|t| view.code_score(t), text, want)
        } else {
            crate::search::recall::recall_from(&view, || view.letters().map(|v| v as _), &bm, text, want)
                .ok_or(inject::Stale)?
        };
        inject::render(&view, ranked, limits, seen)
    });
    match found {
        Ok(context) => Fast::Answered(context),
        Err(inject::Stale) => Fast::Stale,
    }
}

/// Whether a prompt is ranked by meaning too under the view's settings: as
/// `[recall] semantic` says, else (unset) when the model is in its folder
/// now (a few `stat`s: a model fetched after the view was written counts).
fn ranks_by_meaning(s: &crate::recall::view::Settings, root: &Path) -> bool {
    match s.semantic {
        Some(b) => b,
        // A folder `[recall] model` names: the loaded memory says (rare; never wrong).
        None if s.model_named => true,
        None => crate::project::semantic::model_dir(None, root)
            .is_some_and(|d| crate::project::semantic::fetch::complete(&d)),
    }
}
