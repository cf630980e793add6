//! Every rule of spec §5 (one file each), the finding type, and the run-all entry point.
//!
//! A rule reads the [`Workspace`] and its [`Bindings`] and pushes [`Finding`]s,
//! each with its default severity, a message naming real paths and titles as
//! written, a primary range, related locations and fixes as data. The
//! configuration then drops rules set to `off` and overrides severities.

mod collision;
pub mod compress;
pub mod cost;
mod duplicate_entry;
mod duplicate_heading;
mod empty_extra;
mod empty_trigger;
mod file_problems;
mod file_too_long;
mod finding;
mod heading_prefix;
mod incremental;
mod index_token_budget;
mod misplaced_entry;
mod missing_file;
mod missing_operator;
mod no_direct_content;
mod orphan_entry;
pub mod placement;
mod promote_to_fragment;
mod scope;
mod shadowed_trigger;
mod state;
mod structural_entry;
mod unindexed_heading;
mod unknown_operator;
mod unordered_section;

pub(crate) use finding::q;
pub use finding::{fixes, Finding, Related, Severity, MESSAGE_CHARS, QUOTE_CHARS};
pub(crate) use incremental::EntryClasses;

use crate::edit::Fix;
use crate::model::{Bindings, Depends, EntryId, FileId, Level, SourceFile, Workspace};
use crate::syntax::index::IndexFile;

mod kinds;
pub use kinds::{Fixes, Lane, Made, Owner, Reads};
pub use state::{findings, findings_cheap};

/// Dispatches to a `Shown` rule's module; `Found` rules build nothing.
macro_rules! shown {
    (Found, $module:ident, message, $ws:expr, $f:expr) => {
        None
    };
    (Shown, $module:ident, message, $ws:expr, $f:expr) => {
        $module::message($ws, $f)
    };
    (Found, $module:ident, fixes, $ws:expr, $f:expr) => {
        None
    };
    (Shown, $module:ident, fixes, $ws:expr, $f:expr) => {
        Some($module::fixes($ws, $f))
    };
}

macro_rules! rules {
    ($($variant:ident => $code:literal, $sev:ident, $module:ident, $lane:ident, $owner:ident, $fixes:ident,
        $made:ident, $reads:ident $(, $option:literal = $default:literal)*;)*) => {
        /// A rule, identified by its stable code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule { $($variant,)* }

        impl Rule {
            /// Every rule, in documentation order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];
            /// The stable code, as the registry line gives it.
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
            /// The lane that runs the rule's check.
            pub fn lane(self) -> Lane {
                match self { $(Rule::$variant => Lane::$lane,)* }
            }
            /// What owns the rule's findings after an index splice.
            pub fn owner(self) -> Owner {
                match self { $(Rule::$variant => Owner::$owner,)* }
            }
            /// What the rule's fixes may be.
            pub fn fixes(self) -> Fixes {
                match self { $(Rule::$variant => Fixes::$fixes,)* }
            }
            /// When the rule's message and fixes are made.
            pub fn made(self) -> Made {
                match self { $(Rule::$variant => Made::$made,)* }
            }
            /// What the rule reads besides the parsed workspace.
            pub fn reads(self) -> Reads {
                match self { $(Rule::$variant => Reads::$reads,)* }
            }
            /// A `Shown` rule's message for `f` (None: the one it carries).
            pub(crate) fn shown_message(self, ws: &Workspace, f: &Finding) -> Option<String> {
                match self { $(Rule::$variant => shown!($made, $module, message, ws, f),)* }
            }
            /// A `Shown` rule's fixes for `f` (None: the ones it carries).
            pub(crate) fn shown_fixes(self, ws: &Workspace, f: &Finding) -> Option<Vec<crate::edit::Fix>> {
                match self { $(Rule::$variant => shown!($made, $module, fixes, ws, f),)* }
            }
            /// The options the rule reads from the configuration, with their defaults.
            pub fn options(self) -> &'static [(&'static str, u64)] {
                match self { $(Rule::$variant => &[$(($option, $default),)*],)* }
            }
            pub fn from_code(code: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|r| r.code() == code)
            }
            /// The module that implements the rule, and its check (rules of
            /// one module share one check, run once).
            fn implementation(self) -> (&'static str, CheckFn) {
                match self { $(Rule::$variant => (stringify!($module), $module::check),)* }
            }
        }
    };
}

// The registry: one line per rule. Code, default severity, module, lane,
// owner of its findings after an index splice, fixes, when its message and
// fixes are made, what it reads besides the parsed workspace, then the
// options it reads from the configuration (`"name" = default`), if any.
rules! {
    UnknownOperator => "unknown-operator", Error, unknown_operator, Entries, Line, Safe, Found, Plain;
    MissingOperator => "missing-operator", Error, missing_operator, Entries, Line, None, Found, Plain;
    EmptyTrigger => "empty-trigger", Error, empty_trigger, Entries, Entry, None, Found, Plain;
    EmptyExtra => "empty-extra", Warning, empty_extra, Entries, Entry, Safe, Found, Plain;
    DuplicateEntry => "duplicate-entry", Error, duplicate_entry, Keys, Entry, Safe, Found, Plain;
    OrphanEntry => "orphan-entry", Error, orphan_entry, Entries, Entry, Suggestions, Shown, Plain;
    StructuralEntry => "structural-entry", Error, structural_entry, Entries, Entry, Safe, Found, Plain;
    MisplacedEntry => "misplaced-entry", Error, misplaced_entry, Entries, Entry, Safe, Found, Plain;
    UnorderedSection => "unordered-section", Error, unordered_section, Entries, Section, Safe, Found, Plain;
    Collision => "collision", Error, collision, Keys, Entry, None, Found, Plain;
    ShadowedTrigger => "shadowed-trigger", Warning, shadowed_trigger, Keys, Entry, None, Found, Plain;
    MissingFile => "missing-file", Error, missing_file, Files, Nothing, Safe, Found, Plain;
    UnindexedHeading => "unindexed-heading", Error, unindexed_heading, Keys, File, Suggestions, Shown, Plain;
    HeadingPrefix => "heading-prefix", Warning, heading_prefix, Decisions, Nothing, Suggestions, Found, Plain;
    DuplicateHeading => "duplicate-heading", Error, duplicate_heading, Decisions, Nothing, None, Found, Plain;
    NoDirectContent => "no-direct-content", Error, no_direct_content, Decisions, Nothing, Suggestions, Found, Plain;
    InvalidScope => "invalid-scope", Error, scope, Decisions, Nothing, None, Found, Plain;
    UnmatchedScope => "unmatched-scope", Warning, scope, Decisions, Nothing, None, Found, Plain;
    FileTooLong => "file-too-long", Warning, file_too_long, Decisions, Nothing, None, Found, Plain, "max-lines" = 400;
    IndexTokenBudget => "index-token-budget", Warning, index_token_budget, Entries, Index, None, Found, Tokens, "token-budget" = 5000;
    PromoteToFragment => "promote-to-fragment", Info, promote_to_fragment, Entries, Entry, None, Found, Tokens;
    InvalidUtf8 => "invalid-utf8", Error, file_problems, Files, Nothing, None, Found, Plain;
    UnreadableFile => "unreadable-file", Error, file_problems, Files, Nothing, None, Found, Plain;
    InvalidConfig => "invalid-config", Error, file_problems, Files, Nothing, None, Found, Plain;
}

/// Every rule code, for configuration validation.
pub fn codes() -> Vec<&'static str> {
    Rule::ALL.iter().map(|r| r.code()).collect()
}

/// Every rule code and option, for configuration validation.
pub fn known() -> crate::model::config::Known<'static> {
    type Options = Vec<(&'static str, u64)>;
    static KNOWN: std::sync::OnceLock<(Vec<&str>, Options)> = std::sync::OnceLock::new();
    let (rules, options) =
        KNOWN.get_or_init(|| (codes(), Rule::ALL.iter().flat_map(|r| r.options().iter().copied()).collect()));
    crate::model::config::Known { rules, options }
}

/// Parses configuration text into the effective config and its errors (each wrong key left out, every other applied).
pub fn config_from_text(text: &str) -> (crate::model::config::Config, Vec<crate::model::config::ConfigError>) {
    let mut cfg = crate::model::config::Config::default();
    let errors = cfg.apply_toml(text, known());
    (cfg, errors)
}

/// What every rule reads.
pub(crate) struct Ctx<'a> {
    pub ws: &'a Workspace,
    pub index: Option<(FileId, &'a SourceFile, &'a IndexFile)>,
    /// When set, rules report only what this part of the workspace owns (an incremental re-check).
    pub scope: Option<&'a incremental::Scope>,
    kept_copies: std::sync::OnceLock<Vec<EntryId>>,
    /// Runs only the rules whose fixes can be safe ([`check_fixable`]).
    fixable_only: bool,
}

impl<'a> Ctx<'a> {
    fn new(ws: &'a Workspace, scope: Option<&'a incremental::Scope>) -> Self {
        Ctx { ws, index: ws.index(), scope, kept_copies: Default::default(), fixable_only: false }
    }

    /// The binding, computed on first use (the decision-only checks never need it).
    pub fn b(&self) -> &'a Bindings {
        self.ws.bindings()
    }

    /// The entries this check covers, in index order: all, or the scope's.
    pub fn entries(&self) -> Box<dyn Iterator<Item = (EntryId, &'a crate::model::bind::EntryInfo)> + '_> {
        let b = self.b();
        match self.scope {
            None => Box::new(b.entries.iter().enumerate().map(|(i, e)| (EntryId(i as u32), e))),
            Some(s) => Box::new(s.entries.iter().map(move |&id| (id, b.entry(id)))),
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

    /// The copy kept among the entries with entry `id`'s operator and trigger
    /// (see [`crate::model::bind::Bindings::kept_with`]), when `id` is not it.
    pub fn kept_copy(&self, id: EntryId) -> Option<EntryId> {
        let e = self.b().entry(id);
        if e.trigger.is_empty() {
            return None;
        }
        let kept = match self.scope {
            None => self.kept_copies.get_or_init(|| self.b().kept_copies())[id.0 as usize],
            Some(_) => self.b().kept_with(e.op, &e.trigger).unwrap_or(id),
        };
        (kept != id).then_some(kept)
    }

    /// Whether entry `id` repeats another that is kept (`duplicate-entry`).
    pub fn is_duplicate(&self, id: EntryId) -> bool {
        self.kept_copy(id).is_some()
    }

    /// The configured value of a rule option the registry declares (its default when unset).
    pub fn option(&self, name: &str) -> u64 {
        let default = Rule::ALL.iter().flat_map(|r| r.options()).find(|o| o.0 == name).map_or(0, |o| o.1);
        self.ws.config().option(name, default)
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

/// A rule module's check: reads the context, pushes findings.
type CheckFn = fn(&Ctx, &mut Vec<Finding>);

/// A check and the rules whose findings it produces.
struct Check {
    rules: Vec<Rule>,
    run: CheckFn,
}

/// The checks of a lane, derived from the registry: one per rule module, in
/// registry order.
fn lane(lane: Lane) -> &'static [Check] {
    static LANES: std::sync::OnceLock<[Vec<Check>; 4]> = std::sync::OnceLock::new();
    let lanes = LANES.get_or_init(|| {
        let mut lanes: [Vec<(&str, Check)>; 4] = Default::default();
        for &r in Rule::ALL {
            let (module, run) = r.implementation();
            let checks = &mut lanes[r.lane() as usize];
            match checks.iter_mut().find(|(m, _)| *m == module) {
                Some((_, c)) => c.rules.push(r),
                None => checks.push((module, Check { rules: vec![r], run })),
            }
        }
        lanes.map(|l| l.into_iter().map(|(_, c)| c).collect())
    });
    &lanes[lane as usize]
}

/// The lanes that read the index per line, entry, section or heading: the two
/// a full check runs on two threads (`Entries` ranks orphans' candidates,
/// `Keys` binds keys), and what a splice re-checks.
const INDEX_LANES: [Lane; 2] = [Lane::Entries, Lane::Keys];

/// The findings of the [`Lane::Decisions`] checks for one state of the decision files.
struct DecisionFindings(Vec<Finding>);

/// Runs every rule and applies the configured levels. Findings come sorted by
/// file path, position and code.
///
/// On a machine with more than one core and a workspace worth it, a second
/// thread runs the decision-only checks while this one binds the index, then
/// the second lane of index checks while this one runs the first: the
/// findings are the same, sorted the same, as a sequential run.
pub fn check(ws: &Workspace) -> Vec<Finding> {
    check_with(Ctx::new(ws, None))
}

/// The findings of the rules whose fixes can be safe ([`Fixes::Safe`]):
/// what fix-all needs each round. The other rules (orphan ranking, token
/// counts, the decision-only checks) are not run.
pub fn check_fixable(ws: &Workspace) -> Vec<Finding> {
    check_with(Ctx { fixable_only: true, ..Ctx::new(ws, None) })
}

fn check_with(ctx: Ctx) -> Vec<Finding> {
    let ws = ctx.ws;
    let mut out = Vec::new();
    let entries = ctx.index.map_or(0, |(_, _, i)| i.entries.len());
    let parallel = crate::model::Work::Check.split(ws, entries);
    let decision_only = if parallel {
        let ((), (decision_only, other_lane)) = crate::model::join(
            || {
                run(&ctx, Lane::Files, &mut out);
                run(&ctx, Lane::Entries, &mut out);
            },
            || {
                let mut v = Vec::new();
                let decision_only = decision_findings(&ctx);
                run(&ctx, Lane::Keys, &mut v);
                (decision_only, v)
            },
        );
        // Exactly: a doubling of a million findings to add a few is 100 MB.
        out.reserve_exact(other_lane.len() + decision_only.0.len());
        out.extend(other_lane);
        decision_only
    } else if counts_tokens_aside(&ctx) {
        // The token rules need the index counted: a second thread counts it
        // while this one runs the other rules, then this one runs them.
        let (decision_only, _) = crate::model::join(
            || {
                run(&ctx, Lane::Files, &mut out);
                for lane in INDEX_LANES {
                    run_where(&ctx, lane, &mut out, |r| r.reads() != Reads::Tokens);
                }
                decision_findings(&ctx)
            },
            || cost::IndexCost::of(ws),
        );
        for lane in INDEX_LANES {
            run_where(&ctx, lane, &mut out, |r| r.reads() == Reads::Tokens);
        }
        decision_only
    } else {
        run(&ctx, Lane::Files, &mut out);
        for lane in INDEX_LANES {
            run(&ctx, lane, &mut out);
        }
        decision_findings(&ctx)
    };
    out.extend(decision_only.0.iter().cloned());
    finish(ws, &mut out);
    out
}

/// Whether a check too small to split its lanes should count the index's
/// tokens on a second thread: the token rules are on and the index is
/// long enough to be worth it.
fn counts_tokens_aside(ctx: &Ctx) -> bool {
    let levels = &ctx.ws.config().rules;
    let bytes = ctx.index.map_or(0, |(_, src, _)| src.text.len());
    !ctx.fixable_only
        && Rule::ALL.iter().any(|r| r.reads() == Reads::Tokens && levels.get(r.code()) != Some(&Level::Off))
        && crate::model::Work::Tokens.split(ctx.ws, bytes)
}

/// The findings of the decision-only checks: kept across index edits.
fn decision_findings(ctx: &Ctx) -> std::sync::Arc<DecisionFindings> {
    if ctx.fixable_only {
        return std::sync::Arc::new(DecisionFindings(Vec::new()));
    }
    ctx.ws.cached(Depends::Decisions, |_| {
        let mut v = Vec::new();
        run(ctx, Lane::Decisions, &mut v);
        DecisionFindings(v)
    })
}

/// Runs the lane's checks whose rules are not all off (and, for
/// [`check_fixable`], that have a rule whose fixes can be safe).
fn run(ctx: &Ctx, lane: Lane, out: &mut Vec<Finding>) {
    run_where(ctx, lane, out, |_| true);
}

/// [`run`], for the checks of rules `pick` picks only.
fn run_where(ctx: &Ctx, lane: Lane, out: &mut Vec<Finding>, pick: impl Fn(Rule) -> bool) {
    let levels = &ctx.ws.config().rules;
    for check in self::lane(lane) {
        let wanted = |r: Rule| {
            pick(r) && levels.get(r.code()) != Some(&Level::Off) && (!ctx.fixable_only || r.fixes() == Fixes::Safe)
        };
        if check.rules.iter().any(|&r| wanted(r)) {
            (check.run)(ctx, out);
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

/// Unstable (no buffer of half the findings beside them): the order is
/// total, so only findings alike in everything it compares (their fixes
/// aside) could swap.
fn sort(ws: &Workspace, out: &mut [Finding]) {
    out.sort_unstable_by(|a, b| order(ws, a, b));
}

/// The report order: file path, position, code. A total order, so a
/// re-check that builds the list differently reports it identically.
fn order(ws: &Workspace, a: &Finding, b: &Finding) -> std::cmp::Ordering {
    let path = |f: FileId| ws.file(f).map_or("", |f| f.path.as_str());
    let rest = |f: &Finding| (f.range.start, f.rule, f.range.end);
    let by_file = if a.file == b.file { std::cmp::Ordering::Equal } else { path(a.file).cmp(path(b.file)) };
    fn related(f: &Finding) -> impl Iterator<Item = (FileId, crate::text::TextRange)> + '_ {
        f.related.iter().map(|r| (r.file, r.range))
    }
    by_file
        .then_with(|| rest(a).cmp(&rest(b)))
        .then_with(|| a.text().cmp(b.text()))
        .then_with(|| related(a).cmp(related(b)))
}

#[cfg(test)]
mod tests;

/// "Mark structural": insert `.` before a heading's title (a choice, never applied by fix-all).
pub(crate) fn mark_structural(path: &str, h: &crate::syntax::decision::Heading) -> Fix {
    Fix::new(
        format!("Mark {} structural", q(&h.title)),
        crate::edit::Applicability::Suggestion,
        path,
        vec![crate::edit::TextEdit::insert(h.title_range.start, ".")],
    )
}
