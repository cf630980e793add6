//! Session continuity: the fingerprints of a project's decisions kept from one session start to the next, to name what changed in between (`recall::inject::since`).

use std::path::Path;

use super::session::{fnv1a, write_cache_file};
use crate::model::Workspace;
use crate::recall::inject::since;

/// Most bytes read of the fingerprints kept (a 100,000-decision memory's are about 8 MB).
const MAX_BYTES: u64 = 16 << 20;

/// The session note's line naming the decisions of `ws` (the memory at
/// `root`) added or changed since the last session started on it, if any;
/// keeps today's fingerprints for the next. The first session of a project
/// names nothing (every decision would be new). The fingerprints go beside
/// the hook's session state (`sessions`: its `projects` sibling). Best
/// effort: without a state folder, or when it cannot be written, nothing is named.
pub fn since_last(ws: &Workspace, root: &Path, sessions: Option<&Path>) -> Option<String> {
    let canon = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let path = sessions?
        .parent()?
        .join("projects")
        .join(format!("{:016x}.decisions", fnv1a(canon.as_os_str().as_encoded_bytes())));
    let before = super::read::read_text(None, &path, MAX_BYTES).ok();
    let now = since::fingerprints(ws);
    let text = since::encode(&now);
    if before.as_deref() != Some(text.as_str()) && !write_cache_file(&path, text.as_bytes()) {
        return None;
    }
    since::note(&since::changed(&before?, &now))
}
