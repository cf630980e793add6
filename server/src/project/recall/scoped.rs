//! What is injected for the files a tool reads or edits (`files`): the decisions scoped to them, in the room a command's own decisions left.

use std::path::Path;

use super::{Call, Event};
use crate::model::Workspace;

/// What is injected for the `files` of `ask` (as the agent names
/// them) in the project at `root`: the decisions scoped to them, and with
/// `words` what their words find at `[recall] file-words`; at most
/// `[recall] max-chars` less `used`, each decision once a session.
pub(super) fn recall(ws: &Workspace, call: &Call<'_>, files: &[String], words: bool, used: usize) -> Option<String> {
    let (root, ask) = (call.root, call.ask);
    if files.is_empty() {
        return None;
    }
    let paths: Vec<String> = files.iter().filter_map(|f| relative(root, ask.cwd.as_deref(), f)).collect();
    if paths.is_empty() {
        return None;
    }
    let prose = Event::UserPromptSubmit { prompt: String::new() };
    let mut limits = super::limits_for(&ws.config().recall, ask.agent, &prose);
    limits.max_chars = limits.max_chars.saturating_sub(used);
    // The paths' words speak at `[recall] file-words` (1: never).
    let file_words = ws.config().recall.file_words;
    let words = words && file_words < 1.0;
    limits.threshold = file_words.min(1.0);
    super::recall_once(call, &|seen| Ok(crate::recall::inject::files::for_files(ws, &paths, words, limits, seen)))
        .unwrap_or_default()
}

/// `path` relative to the project `root` (`ide::scope::relative`), read
/// through symbolic links when the names alone do not place it inside
/// (`/tmp` that is `/private/tmp`; a project reached through a link).
pub fn relative(root: &Path, cwd: Option<&str>, path: &str) -> Option<String> {
    let plain = crate::ide::scope::relative(&root.to_string_lossy(), cwd, path);
    if plain.is_some() {
        return plain;
    }
    let root = root.canonicalize().ok()?;
    let whole = Path::new(cwd.unwrap_or("/")).join(path);
    // A file about to be written may not exist yet: its folder does.
    let real = whole.canonicalize().ok().or_else(|| {
        let parent = whole.parent()?.canonicalize().ok()?;
        Some(parent.join(whole.file_name()?))
    })?;
    crate::ide::scope::relative(&root.to_string_lossy(), None, &real.to_string_lossy())
}
