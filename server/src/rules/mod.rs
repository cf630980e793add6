//! Every rule of spec §5 (one file each), the finding type, and the run-all entry point.
//!
//! A rule reads the [`Workspace`] and its [`Bindings`] and pushes [`Finding`]s,
//! each with its default severity, a message naming real paths and titles as
//! written, a primary range, related locations and fixes as data. The
//! configuration then drops rules set to `off` and overrides severities.

mod collision;
mod duplicate_entry;
mod duplicate_heading;
mod empty_extra;
mod empty_trigger;
mod file_problems;
mod file_too_long;
mod heading_prefix;
mod incremental;
mod misplaced_entry;
mod missing_file;
mod missing_operator;
mod no_direct_content;
mod orphan_entry;
pub mod placement;
mod shadowed_trigger;
mod structural_entry;
mod unindexed_heading;
mod unknown_operator;
mod unordered_section;

use crate::edit::Fix;
use crate::model::{Bindings, Depends, FileId, Level, SourceFile, Workspace};
use crate::syntax::index::IndexFile;
use crate::text::TextRange;

/// How bad a finding is. `check` fails on any `Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

macro_rules! rules {
    ($($variant:ident => $code:literal, $sev:ident, $module:ident;)*) => {
        /// A rule, identified by its stable code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule { $($variant,)* }

        impl Rule {
            /// Every rule, in documentation order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];
            /// The stable code, e.g. `orphan-entry`.
            pub fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code,)* }
            }
            pub fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$sev,)* }
            }
            /// One paragraph: what the rule finds and how to fix it (hover text, docs).
            pub fn doc(self) -> &'static str {
                match self { $(Rule::$variant => $module::DOC,)* }
            }
            pub fn from_code(code: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|r| r.code() == code)
            }
        }
    };
}

rules! {
    UnknownOperator => "unknown-operator", Error, unknown_operator;
    MissingOperator => "missing-operator", Error, missing_operator;
    EmptyTrigger => "empty-trigger", Error, empty_trigger;
    EmptyExtra => "empty-extra", Warning, empty_extra;
    DuplicateEntry => "duplicate-entry", Error, duplicate_entry;
    OrphanEntry => "orphan-entry", Error, orphan_entry;
    StructuralEntry => "structural-entry", Error, structural_entry;
    MisplacedEntry => "misplaced-entry", Error, misplaced_entry;
    UnorderedSection => "unordered-section", Error, unordered_section;
    Collision => "collision", Error, collision;
    ShadowedTrigger => "shadowed-trigger", Warning, shadowed_trigger;
    MissingFile => "missing-file", Error, missing_file;
    UnindexedHeading => "unindexed-heading", Error, unindexed_heading;
    HeadingPrefix => "heading-prefix", Warning, heading_prefix;
    DuplicateHeading => "duplicate-heading", Error, duplicate_heading;
    NoDirectContent => "no-direct-content", Error, no_direct_content;
    FileTooLong => "file-too-long", Warning, file_too_long;
    InvalidUtf8 => "invalid-utf8", Error, file_problems;
    UnreadableFile => "unreadable-file", Error, file_problems;
    InvalidConfig => "invalid-config", Error, file_problems;
}

/// Every rule code, for configuration validation.
pub fn codes() -> Vec<&'static str> {
    Rule::ALL.iter().map(|r| r.code()).collect()
}

/// Another location that explains a finding (the other side of a pair).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub file: FileId,
    pub range: TextRange,
    pub message: String,
}

/// One problem found by one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    pub file: FileId,
    pub range: TextRange,
    pub message: String,
    pub related: Vec<Related>,
    /// Fixes, best first. At most one is safe.
    pub fixes: Vec<Fix>,
}

impl Finding {
    pub fn new(rule: Rule, file: FileId, range: TextRange, message: impl Into<String>) -> Self {
        Self {
            rule,
            severity: rule.default_severity(),
            file,
            range,
            message: crate::text::elide_owned(message.into(), MESSAGE_CHARS),
            related: vec![],
            fixes: vec![],
        }
    }
    pub fn related(mut self, file: FileId, range: TextRange, message: impl Into<String>) -> Self {
        let message = crate::text::elide_owned(message.into(), MESSAGE_CHARS);
        self.related.push(Related { file, range, message });
        self
    }
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }
    /// The safe fix, if any: what `fix` and fix-all apply.
    pub fn safe_fix(&self) -> Option<&Fix> {
        self.fixes.iter().find(|f| f.is_safe())
    }
}

/// What every rule reads.
pub(crate) struct Ctx<'a> {
    pub ws: &'a Workspace,
    pub index: Option<(FileId, &'a SourceFile, &'a IndexFile)>,
    /// When set, rules report only what this part of the workspace owns (an incremental re-check).
    pub scope: Option<&'a incremental::Scope>,
    kept_copies: std::sync::OnceLock<Vec<u32>>,
}

impl<'a> Ctx<'a> {
    fn new(ws: &'a Workspace, scope: Option<&'a incremental::Scope>) -> Self {
        Ctx { ws, index: ws.index(), scope, kept_copies: Default::default() }
    }

    /// The binding, computed on first use (the decision-only checks never need it).
    pub fn b(&self) -> &'a Bindings {
        self.ws.bindings()
    }

    /// The entries this check covers, in index order: all, or the scope's.
    pub fn entries(&self) -> Box<dyn Iterator<Item = (usize, &'a crate::model::bind::EntryInfo)> + '_> {
        let b = self.b();
        match self.scope {
            None => Box::new(b.entries.iter().enumerate()),
            Some(s) => Box::new(s.entries.iter().map(move |&i| (i as usize, &b.entries[i as usize]))),
        }
    }

    /// The index lines whose line-level findings this check covers.
    pub fn lines(&self) -> std::ops::Range<usize> {
        let n = self.index.map_or(0, |(_, _, i)| i.line_count());
        match self.scope {
            None => 0..n,
            Some(s) => s.lines.start.min(n)..s.lines.end.min(n),
        }
    }

    /// Whether this check covers the headings of decision file `f`.
    pub fn covers_file(&self, f: FileId) -> bool {
        self.scope.is_none_or(|sc| sc.files.contains(&f))
    }

    /// The copy kept among the entries with entry `i`'s operator and trigger
    /// (see [`crate::model::bind::Bindings::kept_with`]), when `i` is not it.
    pub fn kept_copy(&self, i: usize) -> Option<usize> {
        let e = &self.b().entries[i];
        if e.trigger.is_empty() {
            return None;
        }
        let kept = match self.scope {
            None => self.kept_copies.get_or_init(|| duplicate_entry::kept_copies(self))[i] as usize,
            Some(_) => self.b().kept_with(e.op, &e.trigger).map_or(i, |f| f.0 as usize),
        };
        (kept != i).then_some(kept)
    }

    /// Whether entry `i` repeats another that is kept (`duplicate-entry`).
    pub fn is_duplicate(&self, i: usize) -> bool {
        self.kept_copy(i).is_some()
    }

    pub fn path(&self, file: FileId) -> &str {
        self.ws.file(file).map_or("", |f| f.path.as_str())
    }
    /// `path:line` (1-based) of an offset, for messages.
    pub fn loc(&self, file: FileId, offset: usize) -> String {
        let line = self.ws.file(file).map_or(0, |f| f.line_col_1(offset).0);
        format!("{}:{line}", self.path(file))
    }
}

/// The findings of `ws` ([`check`]), computed once per state of its index and
/// decision files (what the language server's handlers share).
///
/// After an index edit that kept the index's line structure (a splice, see
/// [`crate::model::splice`]) the previous findings are updated instead: only
/// what the changed entries can affect is re-checked ([`incremental`]).
pub fn findings(ws: &Workspace) -> std::sync::Arc<Vec<Finding>> {
    ws.cached(Depends::IndexAndDecisions, |ws| {
        let found = incremental::update(ws).unwrap_or_else(|| check(ws));
        // What the next splice's re-check starts from.
        let _ = incremental::EntryClasses::of(ws);
        found
    })
}

/// A rule's check and the rules whose findings it produces.
type Check = (&'static [Rule], fn(&Ctx, &mut Vec<Finding>));

/// Index checks whose findings a splice cannot change (file problems, section names).
const UNSPLICED_CHECKS: &[Check] = &[
    (&[Rule::InvalidUtf8, Rule::UnreadableFile, Rule::InvalidConfig], file_problems::check),
    (&[Rule::MissingFile], missing_file::check),
];

/// Checks that read the index (and the decision files), per entry, line,
/// section or heading, in two lanes of about equal cost that a full check runs
/// on two threads (`orphan-entry` ranks candidates; the other lane binds keys).
const INDEX_CHECKS: [&[Check]; 2] = [
    &[
        (&[Rule::UnknownOperator], unknown_operator::check),
        (&[Rule::MissingOperator], missing_operator::check),
        (&[Rule::EmptyTrigger], empty_trigger::check),
        (&[Rule::EmptyExtra], empty_extra::check),
        (&[Rule::OrphanEntry], orphan_entry::check),
        (&[Rule::StructuralEntry], structural_entry::check),
        (&[Rule::MisplacedEntry], misplaced_entry::check),
        (&[Rule::UnorderedSection], unordered_section::check),
    ],
    &[
        (&[Rule::DuplicateEntry], duplicate_entry::check),
        (&[Rule::Collision], collision::check),
        (&[Rule::ShadowedTrigger], shadowed_trigger::check),
        (&[Rule::UnindexedHeading], unindexed_heading::check),
    ],
];

/// Checks that read only the decision files (and the configuration).
const DECISION_CHECKS: &[Check] = &[
    (&[Rule::HeadingPrefix], heading_prefix::check),
    (&[Rule::DuplicateHeading], duplicate_heading::check),
    (&[Rule::NoDirectContent], no_direct_content::check),
    (&[Rule::FileTooLong], file_too_long::check),
];

/// The findings of [`DECISION_CHECKS`] for one state of the decision files.
struct DecisionFindings(Vec<Finding>);

/// Runs every rule and applies the configured levels. Findings come sorted by
/// file path, position and code.
///
/// On a machine with more than one core and a workspace worth it, a second
/// thread runs the decision-only checks while this one binds the index, then
/// the second lane of index checks while this one runs the first: the
/// findings are the same, sorted the same, as a sequential run.
pub fn check(ws: &Workspace) -> Vec<Finding> {
    let ctx = Ctx::new(ws, None);
    let mut out = Vec::new();
    let entries = ctx.index.map_or(0, |(_, _, i)| i.entries.len());
    let parallel = entries >= PARALLEL_ENTRIES && ws.threads() > 1;
    let decision_only = if parallel {
        let ((), (decision_only, other_lane)) = crate::model::join(
            || {
                run(&ctx, UNSPLICED_CHECKS, &mut out);
                run(&ctx, INDEX_CHECKS[0], &mut out);
            },
            || {
                let mut v = Vec::new();
                let decision_only = decision_findings(&ctx);
                run(&ctx, INDEX_CHECKS[1], &mut v);
                (decision_only, v)
            },
        );
        out.extend(other_lane);
        decision_only
    } else {
        run(&ctx, UNSPLICED_CHECKS, &mut out);
        for lane in INDEX_CHECKS {
            run(&ctx, lane, &mut out);
        }
        decision_findings(&ctx)
    };
    out.extend(decision_only.0.iter().cloned());
    finish(ws, &mut out);
    out
}

/// Below this many entries a full check runs on one thread (spawning costs more than it saves).
const PARALLEL_ENTRIES: usize = 2_000;

/// The findings of the decision-only checks: kept across index edits.
fn decision_findings(ctx: &Ctx) -> std::sync::Arc<DecisionFindings> {
    ctx.ws.cached(Depends::Decisions, |_| {
        let mut v = Vec::new();
        run(ctx, DECISION_CHECKS, &mut v);
        DecisionFindings(v)
    })
}

/// Runs the checks whose rules are not all off.
fn run(ctx: &Ctx, checks: &[Check], out: &mut Vec<Finding>) {
    let levels = &ctx.ws.config().rules;
    for (rules, check) in checks {
        if rules.iter().any(|&r| levels.get(r.code()) != Some(&Level::Off)) {
            check(ctx, out);
        }
    }
}

/// Applies the configured levels to fresh findings (dropping rules set to `off`).
fn apply_levels(ws: &Workspace, out: &mut Vec<Finding>) {
    let levels = &ws.config().rules;
    out.retain_mut(|f| match levels.get(f.rule.code()) {
        Some(Level::Off) => false,
        Some(Level::Error) => {
            f.severity = Severity::Error;
            true
        }
        Some(Level::Warning) => {
            f.severity = Severity::Warning;
            true
        }
        Some(Level::Info) => {
            f.severity = Severity::Info;
            true
        }
        None => true,
    });
}

/// Levels, then the order findings are reported in: file path, position, code.
fn finish(ws: &Workspace, out: &mut Vec<Finding>) {
    apply_levels(ws, out);
    sort(ws, out);
}

fn sort(ws: &Workspace, out: &mut [Finding]) {
    out.sort_by(|a, b| order(ws, a, b));
}

/// The report order: file path, position, code. A total order, so a
/// re-check that builds the list differently reports it identically.
fn order(ws: &Workspace, a: &Finding, b: &Finding) -> std::cmp::Ordering {
    let path = |f: FileId| ws.file(f).map_or("", |f| f.path.as_str());
    let rest = |f: &Finding| (f.range.start, f.rule, f.range.end);
    let by_file = if a.file == b.file { std::cmp::Ordering::Equal } else { path(a.file).cmp(path(b.file)) };
    by_file.then_with(|| rest(a).cmp(&rest(b))).then_with(|| a.message.cmp(&b.message))
}

/// Quotes `s` for a message: `` `s` ``.
/// User text quoted in a message, elided past [`QUOTE_CHARS`] characters.
pub(crate) fn q(s: &str) -> String {
    format!("`{}`", crate::text::elide(s, QUOTE_CHARS))
}

/// Most characters of user text a message quotes at once.
pub const QUOTE_CHARS: usize = 80;
/// Most characters of a whole message or fix title (a safety net over every
/// piece of user text a message may carry).
pub const MESSAGE_CHARS: usize = 400;

#[cfg(test)]
mod tests;

/// The title an entry asks for, in the case style of an existing title (see `orphan-entry`).
pub fn orphan_title_like(existing: &str, op: crate::syntax::index::Op, trigger: &str) -> String {
    orphan_entry::title_like(existing, op, trigger)
}

/// "Mark structural": insert `.` before a heading's title (a choice, never applied by fix-all).
pub(crate) fn mark_structural(path: &str, h: &crate::syntax::decision::Heading) -> Fix {
    Fix::new(
        format!("Mark {} structural", q(&h.title)),
        crate::edit::Applicability::Suggestion,
        path,
        vec![crate::edit::TextEdit::insert(h.title_range.start, ".")],
    )
}
