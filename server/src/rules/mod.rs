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
            message: message.into(),
            related: vec![],
            fixes: vec![],
        }
    }
    pub fn related(mut self, file: FileId, range: TextRange, message: impl Into<String>) -> Self {
        self.related.push(Related { file, range, message: message.into() });
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
    pub b: &'a Bindings,
    pub index: Option<(FileId, &'a SourceFile, &'a IndexFile)>,
    duplicates: std::sync::OnceLock<Vec<bool>>,
}

impl Ctx<'_> {
    /// For each entry: whether it repeats an earlier one (computed once per check).
    pub fn duplicates(&self) -> &[bool] {
        self.duplicates.get_or_init(|| duplicate_entry::duplicates(self))
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
pub fn findings(ws: &Workspace) -> std::sync::Arc<Vec<Finding>> {
    ws.cached(Depends::IndexAndDecisions, check)
}

/// A rule's check and the rules whose findings it produces.
type Check = (&'static [Rule], fn(&Ctx, &mut Vec<Finding>));

/// Checks that read the index (and the decision files).
const INDEX_CHECKS: &[Check] = &[
    (&[Rule::InvalidUtf8, Rule::UnreadableFile, Rule::InvalidConfig], file_problems::check),
    (&[Rule::UnknownOperator], unknown_operator::check),
    (&[Rule::MissingOperator], missing_operator::check),
    (&[Rule::EmptyTrigger], empty_trigger::check),
    (&[Rule::EmptyExtra], empty_extra::check),
    (&[Rule::DuplicateEntry], duplicate_entry::check),
    (&[Rule::OrphanEntry], orphan_entry::check),
    (&[Rule::StructuralEntry], structural_entry::check),
    (&[Rule::MisplacedEntry], misplaced_entry::check),
    (&[Rule::UnorderedSection], unordered_section::check),
    (&[Rule::Collision], collision::check),
    (&[Rule::ShadowedTrigger], shadowed_trigger::check),
    (&[Rule::MissingFile], missing_file::check),
    (&[Rule::UnindexedHeading], unindexed_heading::check),
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
pub fn check(ws: &Workspace) -> Vec<Finding> {
    let ctx = Ctx { ws, b: ws.bindings(), index: ws.index(), duplicates: Default::default() };
    let mut out = Vec::new();
    let levels = &ws.config().rules;
    let on = |r: Rule| levels.get(r.code()) != Some(&Level::Off);
    let run = |checks: &[Check], out: &mut Vec<Finding>| {
        for (rules, check) in checks {
            if rules.iter().any(|&r| on(r)) {
                check(&ctx, out);
            }
        }
    };
    run(INDEX_CHECKS, &mut out);
    // Rules that read only the decision files: kept across index edits.
    let decision_only = ws.cached(Depends::Decisions, |_| {
        let mut v = Vec::new();
        run(DECISION_CHECKS, &mut v);
        DecisionFindings(v)
    });
    out.extend(decision_only.0.iter().cloned());
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
    out.sort_by(|a, b| (ctx.path(a.file), a.range.start, a.rule).cmp(&(ctx.path(b.file), b.range.start, b.rule)));
    out
}

/// The full range of index line `line` (content plus terminator), for deletions.
pub(crate) fn whole_line(index: &IndexFile, line: usize) -> TextRange {
    index.lines[line].full
}

/// Quotes `s` for a message: `` `s` ``.
pub(crate) fn q(s: &str) -> String {
    format!("`{s}`")
}

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
