//! A prompt, a command or a failure ranked on the loaded memory: the semantic tier set up for prompts, the session's share injected, the recall view kept for the next call, and the decisions scoped to a command's files after its own.

use std::time::SystemTime;

use super::fast::Fast;
use super::{limits_for, recall_once, scoped, Call, Event, Loaded};
use crate::project::semantic;
use crate::recall::inject;

/// What `text` (of the event of `call`; `files` the paths a command reads)
/// injects from `memory`, loaded at `loaded_at`; `fast` is what the recall
/// view did (a view absent or stale is written anew).
pub(super) fn recall(
    memory: &Loaded,
    call: &Call<'_>,
    text: &str,
    files: &[String],
    fast: &Fast,
    loaded_at: SystemTime,
) -> Option<String> {
    let (ws, root, ask) = (memory.workspace(), call.root, call.ask);
    let prose = matches!(ask.event, Event::UserPromptSubmit { .. });
    let lazy = if prose { meaning(memory, call) } else { None };
    let limits = limits_for(&ws.config().recall, ask.agent, &ask.event);
    let semantic = lazy.as_ref().map(|l| l as &dyn crate::search::semantic::Cosines);
    let found = recall_once(call, &|seen| Ok(inject::recalled(ws, text, limits, seen, semantic))).unwrap_or_default();
    memory.keep();
    if matches!(fast, Fast::Absent | Fast::Stale) {
        // The letters file only when a short prompt asked for it (writing it costs
        // about 30 ms at 10,000 entries, which long prompts and commands never repay).
        let letters = prose && crate::search::recall::reads_letters(crate::text::cut(text, inject::MAX_TEXT_BYTES));
        let key = crate::search::snapshot::key(ws);
        crate::project::recall_cache::keep(ws, root, key, loaded_at, letters);
    }
    if let Some(l) = &lazy {
        if let Some(e) = l.error() {
            call.notes.add(format!("{e}; ranking by words only"));
        }
        // Sections without a vector were ranked by words; `embed` fills them in for the next prompt.
        if l.tier().is_some_and(|t| t.missing() > 0) {
            semantic::embed_in_background(root);
        }
    }
    // A command that reads files: the decisions scoped to them too, in the room left.
    let used = found.as_deref().map_or(0, |f| f.chars().count() + 2);
    match (found, scoped::recall(ws, call, files, false, used)) {
        (Some(a), Some(b)) => Some(format!("{a}\n\n{b}")),
        (a, b) => a.or(b),
    }
}

/// The semantic tier for a prompt: unset, on when the model is there
/// (`semantic::enabled`); asked for and missing, fetched in the background
/// (never while a prompt waits) and None meanwhile, with a note saying why.
fn meaning<'a>(memory: &'a Loaded, call: &Call<'_>) -> Option<semantic::Lazy<'a>> {
    let (ws, root) = (memory.workspace(), memory.root());
    if !semantic::enabled(ws, root) {
        return None;
    }
    let Some(dir) = semantic::model_missing(ws, root) else { return Some(semantic::Lazy::new(root, false)) };
    let why = if !semantic::fetches_into(&dir) {
        format!(
            "no semantic model in {} (named by [recall] model or ${}; only the default folder is fetched into); ranking by words only",
            dir.display(),
            semantic::MODEL_ENV
        )
    } else if semantic::fetch::recently_failed(&dir) {
        format!(
            "no semantic model in {}: the last fetch failed (see {}/.fetch-failed; `memory-index-lsp embed` tries again); ranking by words only",
            dir.display(),
            dir.display()
        )
    } else {
        semantic::embed_in_background(root);
        format!(
            "no semantic model in {} yet: fetching it in the background (87 MB); ranking by words meanwhile",
            dir.display()
        )
    };
    call.notes.add(why);
    None
}
