//! Every `/when` invocation in the workspace's Markdown files and where it leads, cached per workspace state.
//!
//! Index entries and preamble lines are not invocations here: entries are
//! the index itself, and the preamble's `/when …` lines are examples. What
//! each invocation leads to is computed once per state, on first use, so
//! repeated references requests cost a lookup.

use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::resolve::{self, Located};
use crate::model::{Depends, FileId, SourceFile, Workspace};
use crate::syntax::index::LineKind;
use crate::syntax::invocation::{self, Invocation};

/// One invocation and the file it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub file: FileId,
    pub inv: Invocation,
}

/// The invocations of one workspace state.
#[derive(Debug, Default)]
pub struct Invocations {
    pub all: Vec<Found>,
    /// Positions in `all` by what they resolve to (built on first use).
    by_target: OnceLock<FxHashMap<Located, Vec<usize>>>,
}

impl Invocations {
    /// The invocations that resolve to `target`, in path and text order.
    pub fn resolving_to(&self, ws: &Workspace, target: Located) -> impl Iterator<Item = &Found> {
        let by = self.by_target.get_or_init(|| {
            let mut by: FxHashMap<Located, Vec<usize>> = FxHashMap::default();
            for (i, found) in self.all.iter().enumerate() {
                if let Some(t) = locate(ws, found) {
                    by.entry(t).or_default().push(i);
                }
            }
            by
        });
        by.get(&target).into_iter().flatten().map(|&i| &self.all[i])
    }
}

/// The cached invocations of `ws`. Each file's are found again only when
/// it changed since the last state of this workspace that listed them (a
/// 100,000-entry index is some 50 ms to scan; an edit elsewhere rescans
/// nothing but the edited file).
pub fn of(ws: &Workspace) -> Arc<Invocations> {
    ws.cached(Depends::AllFiles, |ws| {
        let before = ws.carried::<Scans>();
        let mut scans = Scans::default();
        let mut all = Vec::new();
        for (file, f) in ws.files() {
            if f.index().is_none() && f.decision().is_none() && !f.path.ends_with(".md") {
                continue; // the configuration file is not Markdown
            }
            let kept = before.as_ref().and_then(|b| b.0.get(&file)).filter(|(v, _)| ws.is_version(file, v));
            let found: Arc<[Invocation]> = match kept {
                Some((_, found)) => found.clone(),
                None => scan(f).into(),
            };
            all.extend(found.iter().map(|inv| Found { file, inv: inv.clone() }));
            if let Some(v) = ws.file_arc(file) {
                scans.0.insert(file, (Arc::downgrade(v), found));
            }
        }
        ws.carry(Arc::new(scans));
        Invocations { all, by_target: OnceLock::new() }
    })
}

/// Each file's invocations, by the version of the file they were found in
/// (held weakly: see [`Workspace::is_version`]): what one state leaves for
/// the next (see [`Workspace::carried`]).
#[derive(Default)]
struct Scans(FxHashMap<FileId, (std::sync::Weak<SourceFile>, Arc<[Invocation]>)>);

/// The invocations of one file, without the index's entries and preamble lines.
fn scan(f: &SourceFile) -> Vec<Invocation> {
    let index = f.index();
    invocation::scan(&f.text)
        .into_iter()
        .filter(|inv| {
            !index.is_some_and(|i| {
                let line = f.line_index.line_of(inv.op_range.start);
                i.line(line).is_some_and(|l| matches!(l.kind, LineKind::Entry(_) | LineKind::Preamble))
            })
        })
        .collect()
}

/// Where one invocation leads (what the resolver would print).
pub fn locate(ws: &Workspace, found: &Found) -> Option<Located> {
    let f = ws.file(found.file)?;
    resolve::locate(ws, &format!("{} {}", found.inv.op.word(), found.inv.query.slice(&f.text)))
}
