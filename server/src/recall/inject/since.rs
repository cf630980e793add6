//! What changed in the memory since the project's last session (pure): each decision's key and content hash, compared with those kept then, and the line the session note names them in.
//!
//! A decision added or rewritten between two sessions (by a teammate's
//! pull, an import, a hand edit) is what the agent is least likely to know
//! and most likely to need: the session note names at most [`MOST`] by
//! title, new ones first (issue 50, session continuity). The service layer
//! keeps the fingerprints between sessions (`project::continuity`).

use crate::model::{HeadingId, Workspace};

/// Most decisions named; the rest are counted.
pub const MOST: usize = 5;

/// Each indexed decision of `ws`: its key ([`super::key`]), title, and a hash of its section's text.
pub fn fingerprints(ws: &Workspace) -> Vec<(String, String, u64)> {
    let mut out = Vec::new();
    for (file, _, d) in ws.decisions() {
        for (idx, h) in d.headings.iter().enumerate() {
            let id = HeadingId { file, idx: idx as u32 };
            if !h.is_semantic() || ws.bindings().entries_of(id).is_empty() {
                continue;
            }
            let Some(key) = super::key(ws, id) else { continue };
            // Its body without the blank lines around it: a section added after it changes nothing of it.
            let body = crate::ide::resolve::body_of(ws, id);
            out.push((key, h.title.to_string(), crate::text::fnv1a(body.trim().as_bytes())));
        }
    }
    out
}

/// The fingerprints as kept between sessions: `hash<TAB>key` a line.
pub fn encode(now: &[(String, String, u64)]) -> String {
    now.iter().map(|(k, _, h)| format!("{h:016x}\t{k}\n")).collect()
}

/// The decisions of `now` new or changed since `before` (as [`encode`]
/// wrote it): (title, new?), new ones first, each group in file order.
pub fn changed(before: &str, now: &[(String, String, u64)]) -> Vec<(String, bool)> {
    let kept: rustc_hash::FxHashMap<&str, &str> =
        before.lines().filter_map(|l| l.split_once('\t')).map(|(h, k)| (k, h)).collect();
    let (mut new, mut edited) = (Vec::new(), Vec::new());
    for (key, title, hash) in now {
        match kept.get(key.as_str()) {
            None => new.push((title.clone(), true)),
            Some(h) if *h != format!("{hash:016x}") => edited.push((title.clone(), false)),
            Some(_) => {}
        }
    }
    new.extend(edited);
    new
}

/// The session note's line naming `changes` (at most [`MOST`]); None when there are none.
pub fn note(changes: &[(String, bool)]) -> Option<String> {
    if changes.is_empty() {
        return None;
    }
    let named: Vec<String> = changes
        .iter()
        .take(MOST)
        .map(|(t, new)| format!("{} ({})", super::defang(t), if *new { "new" } else { "changed" }))
        .collect();
    let more = changes.len().saturating_sub(MOST);
    let more = if more > 0 { format!("; and {more} more") } else { String::new() };
    Some(format!(
        "Decisions added or changed since this project's last session (recall one before work it touches): {}{more}.",
        named.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_and_changed_decisions_are_named_new_first_and_counted_past_five() {
        let now = |v: &[(&str, u64)]| -> Vec<(String, String, u64)> {
            v.iter().map(|(k, h)| (format!("a.md\t{k}"), format!("When {k}"), *h)).collect()
        };
        let before = encode(&now(&[("x", 1), ("y", 2)]));
        assert!(changed(&before, &now(&[("x", 1), ("y", 2)])).is_empty());
        let got = changed(&before, &now(&[("x", 1), ("y", 3), ("z", 4)]));
        assert_eq!(got, [("When z".to_string(), true), ("When y".to_string(), false)]);
        assert_eq!(note(&got).as_deref().map(|n| n.ends_with("When z (new), When y (changed).")), Some(true));
        let many: Vec<(String, bool)> = (0..8).map(|i| (format!("T{i}"), true)).collect();
        assert!(note(&many).is_some_and(|n| n.contains("T4 (new); and 3 more.") && !n.contains("T5")));
        assert_eq!(note(&[]), None);
    }
}
