//! A finding: what one rule found, where, why, what else explains it, and its fixes as data.

use super::Rule;
use crate::edit::Fix;
use crate::model::{FileId, Workspace};
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

/// Another location that explains a finding (the other side of a pair).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub file: FileId,
    pub range: TextRange,
    /// Most are fixed words ("the heading this entry binds"): not allocated per finding.
    pub message: std::borrow::Cow<'static, str>,
}

/// One problem found by one rule.
///
/// An index of a million orphan entries holds a million of these, so a
/// finding is kept small: its lists are boxed slices (most have one related
/// location or none, and no fix), and a rule may build its message when it
/// is shown ([`Finding::message`]) from what the finding holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    pub file: FileId,
    pub range: TextRange,
    /// The message as found; empty for one built when shown.
    text: Box<str>,
    pub related: Box<[Related]>,
    /// Fixes, best first. At most one is safe.
    pub fixes: Box<[Fix]>,
}

impl Finding {
    pub fn new(rule: Rule, file: FileId, range: TextRange, message: impl Into<String>) -> Self {
        Self {
            rule,
            severity: rule.default_severity(),
            file,
            range,
            text: crate::text::elide_owned(message.into(), MESSAGE_CHARS).into_boxed_str(),
            related: Box::default(),
            fixes: Box::default(),
        }
    }
    /// What the finding says, for `ws`, the workspace it was found in (a
    /// rule whose messages are made when shown builds it now).
    pub fn message<'f>(&'f self, ws: &Workspace) -> std::borrow::Cow<'f, str> {
        if self.text.is_empty() {
            if let Some(m) = self.rule.shown_message(ws, self) {
                return std::borrow::Cow::Owned(m);
            }
        }
        std::borrow::Cow::Borrowed(&self.text)
    }
    /// The message as found (empty for one built when shown): a cheap sort key.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }
    /// Replaces the message.
    pub(crate) fn set_message(&mut self, message: String) {
        self.text = crate::text::elide_owned(message, MESSAGE_CHARS).into_boxed_str();
    }
    pub fn related(
        mut self,
        file: FileId,
        range: TextRange,
        message: impl Into<std::borrow::Cow<'static, str>>,
    ) -> Self {
        let message = match message.into() {
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(crate::text::elide_owned(s, MESSAGE_CHARS)),
            fixed => fixed,
        };
        let mut related = std::mem::take(&mut self.related).into_vec();
        related.push(Related { file, range, message });
        self.related = related.into_boxed_slice();
        self
    }
    pub fn fix(mut self, fix: Fix) -> Self {
        let mut fixes = std::mem::take(&mut self.fixes).into_vec();
        fixes.push(fix);
        self.fixes = fixes.into_boxed_slice();
        self
    }
    /// The safe fix, if any: what `fix` and fix-all apply.
    pub fn safe_fix(&self) -> Option<&Fix> {
        self.fixes.iter().find(|f| f.is_safe())
    }
}

/// Every fix of `f`, best first: those it carries, or, for a rule whose
/// fixes are made when shown ([`super::Made::Shown`]: suggestions an editor
/// shows one finding at a time), built now from the finding and the
/// workspace it came from. A million findings then cost their findings, not
/// six million fixes.
pub fn fixes<'f>(ws: &Workspace, f: &'f Finding) -> std::borrow::Cow<'f, [Fix]> {
    match f.rule.shown_fixes(ws, f) {
        Some(made) => std::borrow::Cow::Owned(made),
        None => std::borrow::Cow::Borrowed(&f.fixes),
    }
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
