//! The workspace model: files by id, their parses, and the entry ↔ heading binding. No IO.
//!
//! A [`Workspace`] is built from `(path, text)` pairs and updated one file at a
//! time ([`Workspace::set_file`], [`Workspace::remove_file`]); only the changed
//! file is re-parsed. Which file is the index and which are decision files
//! follows the [`Config`]. The binding (spec §3) and what later layers
//! derive are computed on demand and cached until a file they depend on
//! changes ([`Depends`]): editing the index keeps everything derived from the
//! decision files alone, editing a skill file keeps the binding and findings.
//! An index edit that keeps every line's role (typing inside entries) is a
//! [`splice`]: only the changed lines are re-parsed and re-bound, and the
//! previous state's derived values stay available for an incremental update.

pub mod bind;
mod cache;
pub mod config;
mod derived;
mod parallel;
pub mod splice;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

pub use bind::{Bindings, EntryId, HeadingId};
pub use cache::Depends;
pub use config::{Config, ConfigError, Level};
pub use splice::IndexSplice;

use crate::syntax::{decision, index};
use crate::text::{LineIndex, TextRange};

/// An opaque handle for a file of one workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// Why a file's text is not exactly what is on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// Bytes that are not UTF-8; the text holds a lossy copy (U+FFFD) and the
    /// file is never written back. `offset` is the first bad byte.
    InvalidUtf8 { offset: usize },
    /// The file exists but could not be read; the text is empty.
    Unreadable(String),
}

/// A file's content as the loader or the editor provides it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileText {
    pub text: String,
    pub problem: Option<FileProblem>,
}

impl FileText {
    /// Decodes bytes, keeping a lossy copy of invalid UTF-8 and noting where it broke.
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(text) => Self { text, problem: None },
            Err(e) => {
                let offset = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                Self { text, problem: Some(FileProblem::InvalidUtf8 { offset }) }
            }
        }
    }
}

impl From<String> for FileText {
    fn from(text: String) -> Self {
        Self { text, problem: None }
    }
}

impl From<&str> for FileText {
    fn from(text: &str) -> Self {
        Self { text: text.to_string(), problem: None }
    }
}

/// What role a file plays in the workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    Index(index::IndexFile),
    Decision(decision::DecisionFile),
    Config,
    /// Any other Markdown file (skills, CLAUDE.md): searched for invocations only.
    Other,
}

/// One file of the workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Path relative to the root, `/`-separated.
    pub path: String,
    pub text: String,
    pub line_index: LineIndex,
    pub problem: Option<FileProblem>,
    pub parsed: Parsed,
}

impl SourceFile {
    fn parse(path: String, content: FileText, role: Role) -> Self {
        let line_index = LineIndex::new(&content.text);
        let parsed = match role {
            Role::Index => Parsed::Index(index::parse(&content.text)),
            Role::Decision => Parsed::Decision(decision::parse_with(&content.text, &line_index)),
            Role::Config => Parsed::Config,
            Role::Other => Parsed::Other,
        };
        SourceFile { path, line_index, text: content.text, problem: content.problem, parsed }
    }

    pub fn index(&self) -> Option<&index::IndexFile> {
        match &self.parsed {
            Parsed::Index(i) => Some(i),
            _ => None,
        }
    }
    pub fn decision(&self) -> Option<&decision::DecisionFile> {
        match &self.parsed {
            Parsed::Decision(d) => Some(d),
            _ => None,
        }
    }
    /// 1-based line and 1-based UTF-8 column of `offset`, as the CLI prints them.
    pub fn line_col_1(&self, offset: usize) -> (u32, u32) {
        let p = self.line_index.position(&self.text, offset, crate::text::Encoding::Utf8);
        (p.line + 1, p.col + 1)
    }
}

/// All files of one workspace root, and the configuration that classifies them.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    config: Config,
    /// Path of the configuration file the errors refer to (default `memory-index.toml`).
    config_path: Option<String>,
    config_errors: Vec<ConfigError>,
    /// Shared between clones (a request's snapshot): a change copies only the file it changes.
    files: Vec<Option<Arc<SourceFile>>>,
    by_path: BTreeMap<String, FileId>,
    bindings: OnceLock<Arc<Bindings>>,
    /// Derived data by dependency, indexed by [`Depends`] (see `cache_mut`).
    caches: [cache::Cache; 3],
    /// How the index changed since the last checked state, when the update was a splice.
    splice: Option<Box<IndexSplice>>,
    /// Most threads parsing, binding and checking may use (None: one per core).
    threads: Option<usize>,
    /// What later layers keep to rebuild from after a change (see
    /// [`Workspace::carried`]): one value per type, shared by every clone.
    carry: Arc<cache::Cache>,
    /// The project's files (root-relative, `/`-separated), when the service
    /// layer listed them: what a decision's scope is checked against.
    project_files: Option<Arc<[String]>>,
}

impl Workspace {
    pub fn new(config: Config) -> Self {
        Self { config, ..Self::default() }
    }

    /// A workspace of `files` (path, text) with the default configuration: the engine's unit tests' fixture.
    #[cfg(test)]
    pub(crate) fn of_files(files: &[(&str, &str)]) -> Self {
        let mut ws = Self::new(Config::default());
        for (path, text) in files {
            ws.set_file(path, FileText::from(*text));
        }
        ws
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Limits the threads that parsing, binding and a full check use (at least one).
    /// The results never depend on it; by default there is one per core, at most 8.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = Some(threads.max(1));
    }

    /// The threads parsing, binding and a full check may use.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(parallel::cores).min(8)
    }

    /// Problems found in the configuration sources (reported on the config file).
    pub fn config_errors(&self) -> &[ConfigError] {
        &self.config_errors
    }

    /// The project's files as the service layer listed them (None: not listed;
    /// whatever needs them says nothing then).
    pub fn project_files(&self) -> Option<&[String]> {
        self.project_files.as_deref()
    }

    /// Sets the project's files (root-relative, `/`-separated, sorted).
    pub fn set_project_files(&mut self, files: Vec<String>) {
        self.project_files = Some(files.into());
    }

    /// The configuration file's path, relative to the root (or as given when outside it).
    pub fn config_path(&self) -> &str {
        self.config_path.as_deref().unwrap_or(config::CONFIG_FILE)
    }

    /// Names the configuration file (for `check --config FILE`).
    pub fn set_config_path(&mut self, path: &str) {
        self.config_path = Some(path.to_string());
    }

    /// Replaces the configuration; every file is re-classified and re-parsed.
    pub fn set_config(&mut self, config: Config, errors: Vec<ConfigError>) {
        let changed = config != self.config;
        self.config = config;
        self.config_errors = errors;
        if changed {
            let files: Vec<SourceFile> = self.files.drain(..).flatten().map(Arc::unwrap_or_clone).collect();
            self.by_path.clear();
            for f in files {
                self.set_file(&f.path, FileText { text: f.text, problem: f.problem });
            }
        }
        self.invalidate(Role::Decision);
    }

    /// Adds or replaces the file at `path` (relative, `/`-separated). Returns its id.
    ///
    /// The same text as the file has (an editor opening a file as it is on
    /// disk) changes nothing: nothing is parsed again, nothing derived dropped.
    pub fn set_file(&mut self, path: &str, content: FileText) -> FileId {
        if let Some(id) = self.unchanged(path, &content) {
            return id;
        }
        let role = self.classify(path);
        if matches!(role, Role::Index) && content.problem.is_none() {
            if let Some(id) = self.file_id(path).filter(|&id| self.spliceable(id)) {
                if let Some(file) = self.files[id.0 as usize].as_mut().map(Arc::make_mut) {
                    let kept = splice::kept_ends(&file.text, &content.text);
                    let old_len = file.text.len();
                    file.text = content.text;
                    self.splice_or_parse(id, role, old_len, kept);
                    return id;
                }
            }
        }
        let file = SourceFile::parse(path.to_string(), content, role);
        self.insert(file, role)
    }

    /// The file at `path`, when `content` is what it already holds.
    pub fn unchanged(&self, path: &str, content: &FileText) -> Option<FileId> {
        let id = self.file_id(path)?;
        let file = self.file(id)?;
        (file.text == content.text && file.problem == content.problem).then_some(id)
    }

    /// Applies `edits` to the file at `path` in order, each range in the text
    /// the previous ones left (as an editor's content changes are), without
    /// copying the text: what a language server does on every keystroke. On
    /// the index, the changed lines follow from the ranges, so no comparison
    /// of old and new text is needed to find a splice. Ranges are clamped to
    /// the text and to character boundaries. The file's decoding problem, if
    /// any, is dropped: its text is now the editor's. Returns None when no
    /// file is at `path`.
    pub fn edit_file(&mut self, path: &str, edits: &[(TextRange, &str)]) -> Option<FileId> {
        let id = self.file_id(path)?;
        let role = self.classify(path);
        let spliceable = matches!(role, Role::Index) && self.spliceable(id);
        let file = self.files[id.0 as usize].as_mut().map(Arc::make_mut)?;
        let old_len = file.text.len();
        let (mut prefix, mut suffix) = (old_len, old_len);
        for (range, new) in edits {
            let text = &mut file.text;
            let floor = |mut i: usize| {
                i = i.min(text.len());
                while !text.is_char_boundary(i) {
                    i -= 1;
                }
                i
            };
            let end = floor(range.end);
            let start = floor(range.start.min(end));
            prefix = prefix.min(start);
            suffix = suffix.min(text.len() - end);
            text.replace_range(start..end, new);
        }
        file.problem = None;
        if spliceable {
            self.splice_or_parse(id, role, old_len, (prefix, suffix));
        } else {
            let before = derived::heading_shape(self.files[id.0 as usize].as_deref());
            if let Some(old) = self.files[id.0 as usize].take().map(Arc::unwrap_or_clone) {
                let file = SourceFile::parse(old.path, FileText { text: old.text, problem: None }, role);
                self.insert_after(file, role, before);
            }
        }
        Some(id)
    }

    /// Adds or replaces many files at once (loading a root), parsing them on
    /// every core: parsing is most of the cost of a cold check. Threads take
    /// the largest files first from one queue, so the index (often the
    /// largest file by far) never leaves one thread with most of the work.
    pub fn set_files(&mut self, files: Vec<(String, FileText)>) {
        let jobs: Vec<(String, FileText, Role)> =
            files.into_iter().map(|(p, c)| (p.clone(), c, self.classify(&p))).collect();
        let bytes = jobs.iter().map(|j| j.1.text.len()).sum();
        let threads = if Work::Parse.split(self, bytes) { self.threads() } else { 1 };
        let parse = |(p, t, r): (String, FileText, Role)| (SourceFile::parse(p, t, r), r);
        for (file, role) in parallel::map_largest_first(jobs, threads, |j| j.1.text.len(), parse) {
            self.insert(file, role);
        }
    }

    fn insert(&mut self, file: SourceFile, role: Role) -> FileId {
        let before = derived::heading_shape(self.file_id(&file.path).and_then(|id| self.file(id)));
        self.insert_after(file, role, before)
    }

    /// Inserts `file`, which replaces a file whose headings had the shape
    /// `before`. A decision file whose headings keep their shape (an edit of
    /// a body, of a title's case or spacing) keeps the binding: it depends on
    /// the decision files only through that shape (see `derived::heading_shape`).
    fn insert_after(&mut self, file: SourceFile, role: Role, before: Option<Vec<(String, bool, bool)>>) -> FileId {
        let same = matches!(role, Role::Decision) && before.is_some() && before == derived::heading_shape(Some(&file));
        if same {
            self.invalidate_bodies();
        } else {
            self.invalidate(role);
        }
        match self.by_path.get(&file.path) {
            Some(&id) => {
                self.files[id.0 as usize] = Some(Arc::new(file));
                id
            }
            None => {
                let id = FileId(self.files.len() as u32);
                self.by_path.insert(file.path.clone(), id);
                self.files.push(Some(Arc::new(file)));
                id
            }
        }
    }

    /// Whether an update of file `id` (the index) may be a splice: it parsed
    /// cleanly and was bound, so there is a state to update from.
    fn spliceable(&self, id: FileId) -> bool {
        let ready = self.file(id).is_some_and(|f| f.index().is_some() && f.problem.is_none());
        ready && self.bindings.get().is_some()
    }

    /// The index `id` holds its new text, which kept `kept` bytes at both ends
    /// of the previous one (`old_len` bytes; its line index and parse are
    /// still the old ones). Updates it in place when the edit is a splice
    /// (see [`splice`]): re-parses and re-binds only the changed lines and
    /// records the splice. Otherwise parses it afresh.
    fn splice_or_parse(&mut self, id: FileId, role: Role, old_len: usize, kept: (usize, usize)) {
        let Some(mut file) = self.files[id.0 as usize].take().map(Arc::unwrap_or_clone) else { return };
        let window = (file.line_index.text_len() == old_len)
            .then(|| splice::window(&file.line_index, &file.text, kept))
            .flatten();
        let spliced = window.and_then(|(lines, new_lines)| {
            let delta = file.text.len() as isize - old_len as isize;
            let Parsed::Index(index) = &mut file.parsed else { return None };
            index.splice(&file.text, &new_lines, lines.clone(), delta).then_some((lines, new_lines))
        });
        let Some((lines, new_lines)) = spliced else {
            let file = SourceFile::parse(file.path, FileText { text: file.text, problem: file.problem }, role);
            self.insert(file, role);
            return;
        };
        let old_lines = std::mem::replace(&mut file.line_index, new_lines);
        self.files[id.0 as usize] = Some(Arc::new(file));
        let new = self.files[id.0 as usize].as_deref();
        let bindings = self.bindings.take().map(Arc::unwrap_or_clone);
        let (Some(mut bindings), Some((new, index))) = (bindings, new.and_then(|f| Some((f, f.index()?)))) else {
            self.invalidate(Role::Index);
            return;
        };
        let current = std::mem::take(&mut self.caches[Depends::IndexAndDecisions as usize]);
        self.caches[Depends::AllFiles as usize].clear();
        let record = splice::record(self.splice.take(), current, old_lines, &bindings, lines.clone(), index);
        bindings.rebind(self, new, &splice::entries_on(index, &lines));
        self.splice = record;
        let _ = self.bindings.set(Arc::new(bindings));
    }

    /// How the index changed since the last state whose derived values were
    /// built, when every update since was a splice (see [`splice`]).
    pub fn index_splice(&self) -> Option<&IndexSplice> {
        self.splice.as_deref()
    }

    /// Removes the file at `path`; returns whether it was there.
    pub fn remove_file(&mut self, path: &str) -> bool {
        match self.by_path.remove(path) {
            Some(id) => {
                self.files[id.0 as usize] = None;
                self.invalidate(self.classify(path));
                true
            }
            None => false,
        }
    }

    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)?.as_deref()
    }

    pub fn file_id(&self, path: &str) -> Option<FileId> {
        self.by_path.get(path).copied()
    }

    /// The decision file an index section names (`## agents/decisions/a.md`,
    /// `./` prefixes dropped), when it is one of this workspace's.
    pub fn section_file(&self, name: &str) -> Option<FileId> {
        let id = self.file_id(crate::syntax::index::section_path(name))?;
        self.file(id)?.decision().is_some().then_some(id)
    }

    /// Every file, in path order.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.by_path.values().filter_map(move |&id| Some((id, self.file(id)?)))
    }

    /// The index file, when present.
    pub fn index(&self) -> Option<(FileId, &SourceFile, &index::IndexFile)> {
        let id = self.file_id(&self.config.index)?;
        let f = self.file(id)?;
        Some((id, f, f.index()?))
    }

    /// Decision files in path order.
    pub fn decisions(&self) -> impl Iterator<Item = (FileId, &SourceFile, &decision::DecisionFile)> {
        self.files().filter_map(|(id, f)| Some((id, f, f.decision()?)))
    }

    /// The decision file's path for a directory-relative name (`testing.md`).
    pub fn decision_path(&self, name: &str) -> String {
        if self.config.decisions.is_empty() {
            name.to_string()
        } else {
            format!("{}/{}", self.config.decisions, name)
        }
    }

    fn classify(&self, path: &str) -> Role {
        if path == self.config.index {
            return Role::Index;
        }
        if path == self.config_path() {
            return Role::Config;
        }
        let dir = &self.config.decisions;
        let name =
            if dir.is_empty() { Some(path) } else { path.strip_prefix(dir.as_str()).and_then(|r| r.strip_prefix('/')) };
        match name {
            Some(n) if n.ends_with(".md") && !n.contains('/') => Role::Decision,
            _ => Role::Other,
        }
    }
}

#[derive(Clone, Copy)]
enum Role {
    Index,
    Decision,
    Config,
    Other,
}

pub(crate) use parallel::{cores, join, Work};

/// A location in a workspace file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileRange {
    pub file: FileId,
    pub range: TextRange,
}

#[cfg(test)]
mod tests;
