//! A memory's recall view: what the hook's ranking and its blocks read besides BM25 (the exact table, each entry's target heading, what a block shows, the code terms, the hook's settings; the triggers for the letters-in-order tier in a file of their own), as bytes written from a workspace and read in place, so a hook answers a prompt, a command or a failure without reading or parsing the memory.
//!
//! Written by [`encode`] from a workspace (the service layer keeps it with
//! the files' identities, `project::recall_cache`); read by [`View::open`],
//! which checks every number once, allocating nothing. A [`View`] is a
//! [`Ranked`] source for [`crate::search::recall::recall_from`] (with its
//! letters file, [`letters`], read only for a short prompt, as the
//! [`crate::search::triggers::Vocabulary`]) and a
//! [`Shown`] for [`super::inject::render`]: the same ranking and the same
//! blocks as from the workspace, by construction. A section is read from
//! its file only when it is injected, and only if its bytes hash as they
//! did ([`Shown::body`] says None otherwise, and the caller ranks from the
//! files instead).
//!
//! Layout (little-endian): `MIVIEW04`, a checksum of the rest (u64); the
//! BM25 snapshot's key for the same state (u64); the settings (`prompt`
//! f64, `max-decisions` and `max-chars` u32, flags u32: bit 0 `[capture]
//! stop`, bit 1 a file read or edited may recall something (a decision has
//! a scope, or `[recall] file-words` is under 1), bit 2 `[recall] semantic =
//! true`, bit 3 `semantic` unset (on when the model is there), bit 4 `[recall]
//! model` set; `max-file-bytes` u64; `command` and `error` f64; the pointer
//! floors `prompt-pointer`, `command-pointer`, `error-pointer` f64 and
//! `max-pointers` u32); the code
//! index's decisions (u32); counts (entries, targets, exact rows, code
//! terms, code entries, string bytes; u32 each); per entry (target u32 or
//! none, operator u32, number of extras u32, written form as a string); per
//! exact row (text, entry u32, slot u32), sorted by text; per target, sorted
//! by heading (file u32, heading u32, session key, path, title, line u32,
//! body start and end u32, body hash u64); per code term, sorted (the term,
//! its entries' start and count u32); the code entries (u32 each); the
//! strings (UTF-8). A string is (offset u32, length u32)
//! into the strings.

use std::borrow::Cow;
use std::hash::Hasher;
use std::sync::Arc;

use super::inject::Shown;
use crate::model::bind::pick_exact;
use crate::model::{EntryId, FileId, HeadingId};
use crate::search::le::{find, lower_bound, u32_at, u64_at};
use crate::search::recall::Ranked;
use crate::syntax::index::Op;

const MAGIC: &[u8; 8] = b"MIVIEW04";
const HEAD: usize = 124;
const CODE: usize = 16;
const ENTRY: usize = 20;
const ROW: usize = 16;
const TARGET: usize = 52;

/// The bytes a [`View`] reads: a memory map or a buffer, shared.
pub type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Reads a decision file's text by its path relative to the root, at most
/// so many bytes (the service layer's guarded reader; None for a file it
/// cannot read whole as UTF-8).
pub type Reader = Box<dyn Fn(&str, u64) -> Option<String> + Send + Sync>;

/// The settings a view was written with (its configuration file is among
/// the files it was built from): the prompt hook's, and the largest file read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub prompt: f64,
    pub command: f64,
    pub error: f64,
    pub prompt_pointer: f64,
    pub command_pointer: f64,
    pub error_pointer: f64,
    pub max_pointers: u32,
    pub max_decisions: u32,
    pub max_chars: u32,
    pub capture_stop: bool,
    /// Whether a file the agent reads or edits may recall a decision (see
    /// `recall::inject::files`): when not, the hook answers a file event, and
    /// a command's files, from the view.
    pub files_recall: bool,
    /// `[recall] semantic` as set (None: unset, on when the model is there),
    /// and whether `[recall] model` names the model's folder: a prompt is
    /// ranked by meaning from the loaded memory, never from the view.
    pub semantic: Option<bool>,
    pub model_named: bool,
    pub max_file_bytes: u64,
}

/// A recall view read in place.
pub struct View {
    bytes: Bytes,
    at: usize,
    read: Reader,
    /// The BM25 snapshot key of the state the view is of.
    pub bm25_key: u64,
    pub settings: Settings,
    n: usize,
    t: usize,
    x: usize,
    entry_at: usize,
    row_at: usize,
    target_at: usize,
    c: usize,
    code_at: usize,
    code_entries_at: usize,
    code_docs: u32,
    blob: usize,
    /// Reads the letters file written with this view, and its tables once checked ([`View::letters`]).
    letters_from: Option<LettersFrom>,
    letters: std::sync::OnceLock<Option<letters::Letters>>,
}

/// Reads the bytes of the letters file written with a view (None: there is none).
pub type LettersFrom = Box<dyn Fn() -> Option<Bytes> + Send + Sync>;

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View").field("entries", &self.n).field("targets", &self.t).finish_non_exhaustive()
    }
}

/// Whether the (offset, length) at `at` of `b` is a whole string of `strings`.
fn string_ok(b: &[u8], at: usize, strings: &str) -> bool {
    let (off, len) = (u32_at(b, at) as usize, u32_at(b, at + 4) as usize);
    off.checked_add(len)
        .is_some_and(|end| end <= strings.len() && strings.is_char_boundary(off) && strings.is_char_boundary(end))
}

/// The string whose (offset, length) is at `at` of `b`, in the strings
/// starting at `blob` ("" when out of range).
fn string_at(b: &[u8], blob: usize, at: usize) -> &str {
    let (off, len) = (u32_at(b, at) as usize, u32_at(b, at + 4) as usize);
    let start = blob + off;
    b.get(start..start + len).and_then(|s| std::str::from_utf8(s).ok()).unwrap_or("")
}

/// `magic`, the checksum of `p`, then `p`: a view or its letters file, whole.
fn sealed(magic: &[u8; 8], p: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + p.len());
    out.extend_from_slice(magic);
    out.extend_from_slice(&checksum(p).to_le_bytes());
    out.extend_from_slice(p);
    out
}

fn checksum(bytes: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.write_usize(bytes.len());
    h.finish()
}

impl Settings {
    /// The settings a view's bytes `b` hold (as [`settings`] wrote them).
    fn at(b: &[u8]) -> Settings {
        let flags = u32_at(b, 40);
        Settings {
            prompt: f64::from_bits(u64_at(b, 24)),
            command: f64::from_bits(u64_at(b, 52)),
            error: f64::from_bits(u64_at(b, 60)),
            prompt_pointer: f64::from_bits(u64_at(b, 68)),
            command_pointer: f64::from_bits(u64_at(b, 76)),
            error_pointer: f64::from_bits(u64_at(b, 84)),
            max_pointers: u32_at(b, 92),
            max_decisions: u32_at(b, 32),
            max_chars: u32_at(b, 36),
            capture_stop: flags & 1 != 0,
            files_recall: flags & 2 != 0,
            semantic: if flags & 8 != 0 { None } else { Some(flags & 4 != 0) },
            model_named: flags & 16 != 0,
            max_file_bytes: u64_at(b, 44),
        }
    }
}

impl View {
    /// The view in `bytes` from `at` to their end; None unless it is whole
    /// and every number fits (see the module docs). `read` reads a decision
    /// file when one of its sections is injected.
    pub fn open(bytes: Bytes, at: usize, read: Reader) -> Option<View> {
        let all = (*bytes).as_ref();
        let b = all.get(at..)?;
        if b.len() < HEAD || &b[..8] != MAGIC || u64_at(b, 8) != checksum(&b[16..]) {
            return None;
        }
        let settings = Settings::at(b);
        let code_docs = u32_at(b, 96);
        let [n, t, x, c, code_total, blob_len] = [100, 104, 108, 112, 116, 120].map(|o| u32_at(b, o) as usize);
        let entries = HEAD;
        let rows = entries.checked_add(n.checked_mul(ENTRY)?)?;
        let targets = rows.checked_add(x.checked_mul(ROW)?)?;
        let code = targets.checked_add(t.checked_mul(TARGET)?)?;
        let code_entries = code.checked_add(c.checked_mul(CODE)?)?;
        let blob = code_entries.checked_add(code_total.checked_mul(4)?)?;
        let threshold = |v: f64| (0.0..=1.0).contains(&v);
        if blob.checked_add(blob_len)? != b.len()
            || ![settings.prompt, settings.command, settings.error].into_iter().all(threshold)
            || ![settings.prompt_pointer, settings.command_pointer, settings.error_pointer].into_iter().all(threshold)
        {
            return None;
        }
        let strings = std::str::from_utf8(&b[blob..]).ok()?;
        let v = View {
            bytes: bytes.clone(),
            at,
            read,
            bm25_key: u64_at(b, 16),
            settings,
            n,
            t,
            x,
            c,
            entry_at: entries,
            row_at: rows,
            target_at: targets,
            code_at: code,
            code_entries_at: code_entries,
            code_docs,
            blob,
            letters_from: None,
            letters: std::sync::OnceLock::new(),
        };
        let string_ok = |at: usize| string_ok(b, at, strings);
        for i in 0..n {
            let e = entries + ENTRY * i;
            let target = u32_at(b, e);
            if (target != u32::MAX && target as usize >= t) || u32_at(b, e + 4) > 1 || !string_ok(e + 12) {
                return None;
            }
        }
        let mut prev: Option<(&str, u32, u32)> = None;
        for i in 0..x {
            let r = rows + ROW * i;
            if !string_ok(r) || u32_at(b, r + 8) as usize >= n {
                return None;
            }
            let row = (v.string_in(b, r), u32_at(b, r + 8), u32_at(b, r + 12));
            if prev.is_some_and(|p| p > row) {
                return None;
            }
            prev = Some(row);
        }
        let mut prev: Option<(u32, u32)> = None;
        for i in 0..t {
            let g = targets + TARGET * i;
            let id = (u32_at(b, g), u32_at(b, g + 4));
            if prev.is_some_and(|p| p >= id)
                || ![8, 16, 24].iter().all(|&o| string_ok(g + o))
                || u32_at(b, g + 36) > u32_at(b, g + 40)
            {
                return None;
            }
            prev = Some(id);
        }
        let mut prev: Option<&str> = None;
        for i in 0..c {
            let g = code + CODE * i;
            let (start, len) = (u32_at(b, g + 8) as usize, u32_at(b, g + 12) as usize);
            let term = v.string_in(b, g);
            if !string_ok(g) || prev.is_some_and(|p| p >= term) || len == 0 || start.checked_add(len)? > code_total {
                return None;
            }
            prev = Some(term);
        }
        if (0..code_total).any(|i| u32_at(b, code_entries + 4 * i) as usize >= n) {
            return None;
        }
        Some(v)
    }

    /// The code evidence for a command or a failure ([`crate::search::commands::CodeIndex::score`], from the view).
    pub fn code_score(&self, text: &str) -> Vec<crate::search::commands::Scored> {
        crate::search::commands::score(text, self.code_docs, &|term| {
            let g = self.code_at + CODE * find(0, self.c, &term, |i| self.string(self.code_at + CODE * i))?;
            let (start, len) = (u32_at(self.b(), g + 8) as usize, u32_at(self.b(), g + 12) as usize);
            Some((start..start + len).map(|i| u32_at(self.b(), self.code_entries_at + 4 * i)).collect())
        })
    }

    fn b(&self) -> &[u8] {
        (*self.bytes).as_ref().get(self.at..).unwrap_or(&[])
    }

    /// This view, whose letters file `from` reads.
    pub fn with_letters(mut self, from: LettersFrom) -> View {
        self.letters_from = Some(from);
        self
    }

    /// The view as the letters-in-order tiers read it
    /// ([`crate::search::triggers::Vocabulary`]): its letters file, read and
    /// checked the first time (only a short prompt needs it); None when
    /// there is none, or it was not written with this view, or it does not hold.
    pub fn letters(&self) -> Option<&letters::Letters> {
        self.letters
            .get_or_init(|| {
                let bytes = (self.letters_from.as_ref()?)()?;
                letters::Letters::open(bytes, self.n, u64_at(self.b(), 8))
            })
            .as_ref()
    }

    /// The string whose (offset, length) is at `at` of `b` ("" when out of range).
    fn string_in<'b>(&self, b: &'b [u8], at: usize) -> &'b str {
        string_at(b, self.blob, at)
    }

    fn string(&self, at: usize) -> &str {
        self.string_in(self.b(), at)
    }

    /// How many entries the state had (the BM25 snapshot has as many).
    pub fn entries(&self) -> usize {
        self.n
    }

    fn op(&self, e: usize) -> Op {
        if u32_at(self.b(), self.entry_at + ENTRY * e + 4) == 0 {
            Op::When
        } else {
            Op::How
        }
    }

    /// The target of a heading id, by binary search.
    fn target_of(&self, id: HeadingId) -> Option<usize> {
        let key = (id.file.0, id.idx);
        let at = |i: usize| self.target_at + TARGET * i;
        find(0, self.t, &key, |i| (u32_at(self.b(), at(i)), u32_at(self.b(), at(i) + 4))).map(at)
    }
}

impl Ranked for View {
    fn exact(&self, op: Option<Op>, normalized: &str) -> Option<(EntryId, bool)> {
        // The first row whose text is not less than `normalized`.
        let lo = lower_bound(0, self.x, |i| self.string(self.row_at + ROW * i) < normalized);
        let hits = (lo..self.x).map(|i| self.row_at + ROW * i).take_while(|&r| self.string(r) == normalized).map(|r| {
            let e = u32_at(self.b(), r + 8) as usize;
            let extras = u32_at(self.b(), self.entry_at + ENTRY * e + 8) as usize;
            (EntryId(e as u32), u32_at(self.b(), r + 12), self.op(e), extras)
        });
        pick_exact(op, hits)
    }

    fn target(&self, entry: EntryId) -> Option<HeadingId> {
        if entry.0 as usize >= self.n {
            return None;
        }
        let t = u32_at(self.b(), self.entry_at + ENTRY * entry.0 as usize) as usize;
        // Checked by `open`: none, or a target.
        if t >= self.t {
            return None;
        }
        let g = self.target_at + TARGET * t;
        Some(HeadingId { file: FileId(u32_at(self.b(), g)), idx: u32_at(self.b(), g + 4) })
    }
}

impl Shown for View {
    fn key(&self, id: HeadingId) -> Option<String> {
        Some(self.string(self.target_of(id)? + 8).to_string())
    }

    fn written(&self, entry: EntryId) -> String {
        if entry.0 as usize >= self.n {
            return String::new();
        }
        self.string(self.entry_at + ENTRY * entry.0 as usize + 12).to_string()
    }

    fn place(&self, id: HeadingId) -> Option<(&str, &str, u32)> {
        let g = self.target_of(id)?;
        Some((self.string(g + 16), self.string(g + 24), u32_at(self.b(), g + 32)))
    }

    fn body(&self, id: HeadingId) -> Option<Cow<'_, str>> {
        let g = self.target_of(id)?;
        let text = (self.read)(self.string(g + 16), self.settings.max_file_bytes)?;
        let (start, end) = (u32_at(self.b(), g + 36) as usize, u32_at(self.b(), g + 40) as usize);
        let body = text.get(start..end)?;
        (checksum(body.as_bytes()) == u64_at(self.b(), g + 44)).then(|| Cow::Owned(body.to_string()))
    }
}

mod encode;
mod letters;
pub use encode::encode;
pub use letters::encode as encode_letters;

#[cfg(test)]
mod tests;
