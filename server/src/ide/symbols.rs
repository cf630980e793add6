//! Document symbols (index sections and entries; the decision heading tree) and folding ranges.

use crate::model::{Depends, FileId, Workspace};
use crate::text::TextRange;

/// What a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// An index section (a decision file).
    File,
    /// An index entry.
    Entry,
    /// A semantic heading.
    Heading,
    /// A structural heading (a container).
    Namespace,
}

/// One symbol with its children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// A short note shown beside the name (an index section's entry count).
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub range: TextRange,
    pub selection: TextRange,
    pub children: Vec<Symbol>,
}

/// Most symbols listed for the index: every section (up to this many), then
/// entries in document order until the total reaches it. A section whose
/// entries are not all listed says so in its detail. Editors show an
/// outline, not a copy of a 100,000-line file: the reply stays small and
/// fast whatever the index's size.
pub const MAX_INDEX_SYMBOLS: usize = 2_000;

/// The index's symbols, built once per index state.
struct IndexSymbols(Vec<Symbol>);

impl IndexSymbols {
    fn of(ws: &Workspace) -> Self {
        let Some((_, f, index)) = ws.index() else { return Self(Vec::new()) };
        let sections = &index.sections[..index.sections.len().min(MAX_INDEX_SYMBOLS)];
        let mut budget = MAX_INDEX_SYMBOLS - sections.len();
        let out = sections
            .iter()
            .map(|s| {
                let end = index.line(s.end_line.saturating_sub(1)).map_or(f.text.len(), |l| l.range.end);
                let head = index.range(s.heading_line);
                let lines = s.heading_line + 1..s.end_line;
                let total = lines.clone().filter(|&l| index.is_entry(l)).count();
                let children: Vec<Symbol> = lines
                    .filter(|&l| index.is_entry(l))
                    .take(budget)
                    .map(|l| {
                        let r = index.range(l);
                        Symbol {
                            name: crate::text::elide(r.slice(&f.text).trim(), 120).into_owned(),
                            detail: None,
                            kind: SymbolKind::Entry,
                            range: r,
                            selection: r,
                            children: vec![],
                        }
                    })
                    .collect();
                budget -= children.len();
                let detail = if children.len() == total {
                    entries(total)
                } else {
                    format!("{}, {} listed (outline capped at {MAX_INDEX_SYMBOLS})", entries(total), children.len())
                };
                Symbol {
                    name: crate::text::elide(&s.name_text, 120).into_owned(),
                    detail: Some(detail),
                    kind: SymbolKind::File,
                    range: TextRange::new(head.start, end.max(head.end)),
                    selection: s.name,
                    children,
                }
            })
            .collect();
        Self(out)
    }
}

/// `1 entry`, `N entries`.
fn entries(n: usize) -> String {
    if n == 1 {
        "1 entry".into()
    } else {
        format!("{n} entries")
    }
}

/// The symbols of one file: the index's sections and entries (capped at
/// [`MAX_INDEX_SYMBOLS`]), or a decision file's heading tree.
pub fn document_symbols(ws: &Workspace, file: FileId) -> Vec<Symbol> {
    let Some(f) = ws.file(file) else { return Vec::new() };
    if f.index().is_some() {
        return ws.cached(Depends::IndexAndDecisions, IndexSymbols::of).0.clone();
    }
    let Some(d) = f.decision() else { return Vec::new() };
    // Build the tree from parent links, deepest first.
    let mut nodes: Vec<Option<Symbol>> = d
        .headings
        .iter()
        .map(|h| {
            let kind = if h.structural { SymbolKind::Namespace } else { SymbolKind::Heading };
            let section_end = f.text[..h.section.end].trim_end().len().max(h.range.end);
            Some(Symbol {
                name: h.title.clone(),
                detail: None,
                kind,
                range: TextRange::new(h.range.start, section_end),
                selection: h.title_range,
                children: vec![],
            })
        })
        .collect();
    for i in (0..d.headings.len()).rev() {
        if let Some(p) = d.headings[i].parent {
            if let Some(child) = nodes[i].take() {
                if let Some(parent) = nodes[p].as_mut() {
                    parent.children.insert(0, child);
                }
            }
        }
    }
    nodes.into_iter().flatten().collect()
}

/// Folding ranges as (first line, last line), zero-based: index sections and decision sections.
pub fn folding_ranges(ws: &Workspace, file: FileId) -> Vec<(u32, u32)> {
    fn walk(s: &[Symbol], f: &crate::model::SourceFile, out: &mut Vec<(u32, u32)>) {
        for sym in s {
            let a = f.line_index.line_of(sym.range.start) as u32;
            let b = f.line_index.line_of(sym.range.end) as u32;
            if b > a {
                out.push((a, b));
            }
            walk(&sym.children, f, out);
        }
    }
    let Some(f) = ws.file(file) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(index) = f.index() {
        // Every section folds, whether or not the outline lists it.
        for s in &index.sections {
            let last = s.end_line.saturating_sub(1);
            let last = (s.heading_line..=last).rev().find(|&l| index.line(l).is_some_and(|x| !x.range.is_empty()));
            if let Some(b) = last.filter(|&b| b > s.heading_line) {
                out.push((s.heading_line as u32, b as u32));
            }
        }
        return out;
    }
    walk(&document_symbols(ws, file), f, &mut out);
    out
}

/// A workspace symbol: a trigger, an extra or a heading, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub location: crate::model::FileRange,
}

/// Every trigger, extra and semantic heading matching `query`, fuzzy-ranked (at most `limit`).
pub fn workspace_symbols(ws: &Workspace, query: &str, limit: usize) -> Vec<WorkspaceSymbol> {
    let mut all: Vec<WorkspaceSymbol> = Vec::new();
    if let Some((id, _, index)) = ws.index() {
        for e in &ws.bindings().entries {
            let range = index.range(e.line);
            for w in std::iter::once(&e.trigger).chain(&e.extras).filter(|w| !w.is_empty()) {
                all.push(WorkspaceSymbol {
                    name: format!("{} {w}", e.op.token()),
                    kind: SymbolKind::Entry,
                    location: crate::model::FileRange { file: id, range },
                });
            }
        }
    }
    for (id, _, d) in ws.decisions() {
        for h in d.headings.iter().filter(|h| h.level >= 2) {
            let kind = if h.structural { SymbolKind::Namespace } else { SymbolKind::Heading };
            all.push(WorkspaceSymbol {
                name: h.title.clone(),
                kind,
                location: crate::model::FileRange { file: id, range: h.range },
            });
        }
    }
    if query.trim().is_empty() {
        all.truncate(limit);
        return all;
    }
    let ranked = crate::search::fuzzy::rank(query, all.iter().enumerate().map(|(i, s)| (i, s.name.as_str())), limit);
    ranked.into_iter().map(|(i, _)| all[i].clone()).collect()
}
