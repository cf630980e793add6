//! Writing a recall view: a memory's entries, exact keys, targets, code terms and settings laid out as the bytes [`super::View`] reads in place.

use super::{checksum, sealed, Shown, CODE, ENTRY, MAGIC, ROW, TARGET};
use crate::model::{EntryId, HeadingId, Workspace};
use crate::search::recall::Ranked;
use crate::syntax::index::Op;

/// Appends `v`, little-endian.
fn put(p: &mut Vec<u8>, v: u32) {
    p.extend_from_slice(&v.to_le_bytes());
}

/// The view's settings (what the hook reads of `[recall]` and `[capture]`,
/// and which events may need the memory loaded), after `bm25_key`.
fn settings(ws: &Workspace, bm25_key: u64, p: &mut Vec<u8>) {
    let r = &ws.config().recall;
    p.extend_from_slice(&bm25_key.to_le_bytes());
    p.extend_from_slice(&r.prompt.to_bits().to_le_bytes());
    put(p, r.max_decisions);
    put(p, r.max_chars);
    let files_recall = !crate::ide::scope::all(ws).is_empty() || ws.config().recall.file_words < 1.0;
    let semantic = match r.semantic {
        Some(true) => 4,
        Some(false) => 0,
        None => 8,
    };
    put(
        p,
        u32::from(ws.config().capture.stop)
            | u32::from(files_recall) << 1
            | semantic
            | u32::from(r.model.is_some()) << 4,
    );
    p.extend_from_slice(&ws.config().max_file_bytes.to_le_bytes());
    p.extend_from_slice(&r.command.to_bits().to_le_bytes());
    p.extend_from_slice(&r.error.to_bits().to_le_bytes());
    for floor in [r.prompt_pointer, r.command_pointer, r.error_pointer] {
        p.extend_from_slice(&floor.to_bits().to_le_bytes());
    }
    put(p, r.max_pointers);
}

/// The view of `ws` (which has an index), for the BM25 snapshot with `bm25_key`; None without an index.
pub fn encode(ws: &Workspace, bm25_key: u64) -> Option<Vec<u8>> {
    ws.index()?;
    let b = ws.bindings();
    let mut blob = String::new();
    let mut string = |s: &str| -> (u32, u32) {
        let off = blob.len() as u32;
        blob.push_str(s);
        (off, s.len() as u32)
    };
    // Targets, sorted by heading; each entry's index among them.
    let targets_of: Vec<Option<HeadingId>> =
        (0..b.entries.len() as u32).map(|i| Ranked::target(ws, EntryId(i))).collect();
    let mut ids: Vec<HeadingId> = targets_of.iter().flatten().copied().collect();
    ids.sort_by_key(|h| (h.file.0, h.idx));
    ids.dedup();
    let mut p: Vec<u8> = Vec::new();
    let mut entries = Vec::with_capacity(b.entries.len() * ENTRY);
    for (i, e) in b.entries.iter().enumerate() {
        let t = targets_of[i].map_or(u32::MAX, |h| {
            ids.binary_search_by_key(&(h.file.0, h.idx), |g| (g.file.0, g.idx)).unwrap_or(0) as u32
        });
        put(&mut entries, t);
        put(&mut entries, u32::from(e.op == Op::How));
        put(&mut entries, e.extras.len() as u32);
        let (off, len) = string(&Shown::written(ws, EntryId(i as u32)));
        put(&mut entries, off);
        put(&mut entries, len);
    }
    let mut rows: Vec<(&str, u32, u32)> = Vec::new();
    for (i, e) in b.entries.iter().enumerate() {
        for (slot, text) in crate::model::bind::exact_keys(e).enumerate() {
            rows.push((text, i as u32, slot as u32));
        }
    }
    rows.sort();
    let mut row_bytes = Vec::with_capacity(rows.len() * ROW);
    for &(text, entry, slot) in &rows {
        let (off, len) = string(text);
        for v in [off, len, entry, slot] {
            put(&mut row_bytes, v);
        }
    }
    let mut target_bytes = Vec::with_capacity(ids.len() * TARGET);
    for &id in &ids {
        let (path, name, line) = Shown::place(ws, id)?;
        let text = ws.file(id.file)?.text.as_str();
        let body = crate::ide::resolve::body_of(ws, id);
        let start =
            (body.as_ptr() as usize).checked_sub(text.as_ptr() as usize).filter(|s| s + body.len() <= text.len())?;
        put(&mut target_bytes, id.file.0);
        put(&mut target_bytes, id.idx);
        for s in [Shown::key(ws, id)?.as_str(), path, name] {
            let (off, len) = string(s);
            put(&mut target_bytes, off);
            put(&mut target_bytes, len);
        }
        put(&mut target_bytes, line);
        put(&mut target_bytes, start as u32);
        put(&mut target_bytes, (start + body.len()) as u32);
        target_bytes.extend_from_slice(&checksum(body.as_bytes()).to_le_bytes());
    }
    let code_index = crate::search::index::of(ws);
    let code_index = code_index.code(ws);
    let mut terms: Vec<(&str, &[u32])> = code_index.terms().collect();
    terms.sort();
    let (mut code_bytes, mut code_entries) = (Vec::with_capacity(terms.len() * CODE), Vec::new());
    let mut start = 0u32;
    for (term, list) in &terms {
        let (off, len) = string(term);
        for v in [off, len, start, list.len() as u32] {
            put(&mut code_bytes, v);
        }
        start += list.len() as u32;
        for &e in *list {
            put(&mut code_entries, e);
        }
    }
    settings(ws, bm25_key, &mut p);
    put(&mut p, code_index.docs());
    for v in [b.entries.len(), ids.len(), rows.len(), terms.len(), start as usize, blob.len()] {
        put(&mut p, u32::try_from(v).ok()?);
    }
    p.extend_from_slice(&entries);
    p.extend_from_slice(&row_bytes);
    p.extend_from_slice(&target_bytes);
    p.extend_from_slice(&code_bytes);
    p.extend_from_slice(&code_entries);
    p.extend_from_slice(blob.as_bytes());
    Some(sealed(MAGIC, &p))
}
