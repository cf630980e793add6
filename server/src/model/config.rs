//! The workspace configuration (`memory-index.toml`, spec §8): paths, limits, rule levels.
//!
//! The same keys come from `memory-index.toml`, LSP `initializationOptions` and
//! `workspace/configuration` (section `memoryIndex`); later sources override
//! earlier ones key by key. A malformed source yields errors and leaves the
//! defaults (or the previous values) in place: it never stops the checker.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::text::TextRange;

/// A rule's configured level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Info,
    Off,
}

/// The effective configuration of one workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Path of the index, relative to the root, `/`-separated.
    pub index: String,
    /// Directory of the decision files, relative to the root (not recursive).
    pub decisions: String,
    /// `file-too-long` limit.
    pub max_lines: u32,
    /// Largest file read, in bytes: a larger index or decision file is an
    /// `unreadable-file` finding, not a read of unbounded size.
    pub max_file_bytes: u64,
    /// Rule code → level overrides.
    pub rules: BTreeMap<String, Level>,
    /// When recall speaks (`[recall]`).
    pub recall: Recall,
}

/// Default `max-file-bytes`: 64 MiB, far above any real index or decision file.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

impl Default for Config {
    fn default() -> Self {
        Self {
            index: "agents/memory-index.md".into(),
            decisions: "agents/decisions".into(),
            max_lines: 400,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            rules: BTreeMap::new(),
            recall: Recall::default(),
        }
    }
}

/// The `[recall]` table: confidence thresholds (see `search::recall`) per
/// consumer, and the agent hook's limits. A threshold is a confidence in
/// [0, 1]; a higher one speaks less often and is wrong less often. The
/// defaults come from `eval` on the development sets (docs/resolver.md):
/// `resolve` 0.1 answers 98% of the resolver set right and every off-topic
/// query with "No match" (an agent that asked can judge a near miss);
/// `prompt` 0.5 answers three quarters of the prompts a decision applies to,
/// all of them right, and none of the off-topic or generic ones (a wrong
/// injection costs more than a missing one); `command` and `error` are
/// stricter still, as commands and error logs share words with many
/// decisions and nothing labelled measures them yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Recall {
    /// The hook speaks on a prompt (UserPromptSubmit) at or above this.
    pub prompt: f64,
    /// The hook speaks before a Bash command (PreToolUse) at or above this.
    pub command: f64,
    /// The hook speaks after a failed tool call (PostToolUseFailure) at or above this.
    pub error: f64,
    /// `resolve` and `search` answer "No match" below this.
    pub resolve: f64,
    /// `remember` reports an existing decision on the same subject at or above this.
    pub duplicate: f64,
    /// False turns the agent hook off (it prints nothing).
    pub hook: bool,
    /// Most decisions the hook injects at once.
    pub max_decisions: u32,
    /// Most characters the hook injects at once.
    pub max_chars: u32,
}

impl Default for Recall {
    fn default() -> Self {
        Self {
            prompt: 0.5,
            command: 0.6,
            error: 0.7,
            resolve: 0.1,
            duplicate: 0.8,
            hook: true,
            max_decisions: 2,
            max_chars: 6000,
        }
    }
}

// Thresholds are checked to be finite when applied, so equality is total.
impl Eq for Recall {}

/// The `[recall]` keys one source sets.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RecallPatch {
    pub prompt: Option<f64>,
    pub command: Option<f64>,
    pub error: Option<f64>,
    pub resolve: Option<f64>,
    pub duplicate: Option<f64>,
    pub hook: Option<bool>,
    #[serde(alias = "maxDecisions")]
    pub max_decisions: Option<u32>,
    #[serde(alias = "maxChars")]
    pub max_chars: Option<u32>,
}

impl Eq for RecallPatch {}

/// The file name looked for at the workspace root.
pub const CONFIG_FILE: &str = "memory-index.toml";

/// A problem in a configuration source, with the span it concerns when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub range: TextRange,
    pub message: String,
}

/// Every key, all optional: what one source (file or client) says.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ConfigPatch {
    pub index: Option<String>,
    pub decisions: Option<String>,
    #[serde(rename = "max-lines", alias = "maxLines")]
    pub max_lines: Option<u32>,
    #[serde(rename = "max-file-bytes", alias = "maxFileBytes")]
    pub max_file_bytes: Option<u64>,
    pub rules: Option<BTreeMap<String, Level>>,
    pub recall: Option<RecallPatch>,
}

impl Config {
    /// Applies a source's keys over this configuration. Unknown rule codes and
    /// paths that leave the root are reported and ignored.
    pub fn apply(&mut self, patch: ConfigPatch, known_rules: &[&str]) -> Vec<String> {
        let mut problems = Vec::new();
        let mut path = |value: Option<String>, what: &str, slot: &mut String| {
            if let Some(v) = value {
                match clean_relative(&v) {
                    Some(p) => *slot = p,
                    None => problems.push(format!(
                        "`{what}` must be a relative path inside the workspace, got `{v}`; using `{slot}`"
                    )),
                }
            }
        };
        path(patch.index, "index", &mut self.index);
        path(patch.decisions, "decisions", &mut self.decisions);
        if let Some(n) = patch.max_lines {
            self.max_lines = n;
        }
        match patch.max_file_bytes {
            Some(0) => problems.push(format!("`max-file-bytes` must be above 0; using {}", self.max_file_bytes)),
            Some(n) => self.max_file_bytes = n,
            None => {}
        }
        if let Some(r) = patch.recall {
            let mut threshold = |value: Option<f64>, what: &str, slot: &mut f64| match value {
                Some(v) if (0.0..=1.0).contains(&v) => *slot = v,
                Some(v) => problems
                    .push(format!("`recall.{what}` must be a confidence between 0 and 1, got {v}; using {slot}")),
                None => {}
            };
            threshold(r.prompt, "prompt", &mut self.recall.prompt);
            threshold(r.command, "command", &mut self.recall.command);
            threshold(r.error, "error", &mut self.recall.error);
            threshold(r.resolve, "resolve", &mut self.recall.resolve);
            threshold(r.duplicate, "duplicate", &mut self.recall.duplicate);
            if let Some(h) = r.hook {
                self.recall.hook = h;
            }
            if let Some(n) = r.max_decisions {
                self.recall.max_decisions = n;
            }
            if let Some(n) = r.max_chars {
                self.recall.max_chars = n;
            }
        }
        for (code, level) in patch.rules.unwrap_or_default() {
            if known_rules.contains(&code.as_str()) {
                self.rules.insert(code, level);
            } else {
                problems.push(format!("unknown rule `{code}` (known rules: {})", known_rules.join(", ")));
            }
        }
        problems
    }
}

/// Parses `memory-index.toml` text into a patch, or the errors that make it unusable.
pub fn parse_toml(text: &str) -> Result<ConfigPatch, ConfigError> {
    toml::from_str::<ConfigPatch>(text).map_err(|e| ConfigError {
        range: e.span().map(TextRange::from).unwrap_or_default(),
        message: format!("invalid {CONFIG_FILE}: {}; defaults apply", e.message()),
    })
}

/// Normalises a configured relative path: `/`-separated, no `.` parts, no
/// trailing slash. Returns None for absolute paths and paths with `..`.
pub fn clean_relative(p: &str) -> Option<String> {
    let p = p.replace('\\', "/");
    if p.starts_with('/') || p.contains(':') {
        return None;
    }
    let mut parts = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        return Some(String::new());
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_keys() {
        let patch = parse_toml(
            "index = \"x/idx.md\"\ndecisions = \"./d/\"\nmax-lines = 10\n[rules]\nfile-too-long = \"off\"\n",
        )
        .unwrap();
        let mut c = Config::default();
        assert!(c.apply(patch, &["file-too-long"]).is_empty());
        assert_eq!(c.index, "x/idx.md");
        assert_eq!(c.decisions, "d");
        assert_eq!(c.max_lines, 10);
        assert_eq!(c.rules.get("file-too-long"), Some(&Level::Off));
    }

    #[test]
    fn recall_thresholds_are_read_and_checked() {
        let patch = parse_toml("[recall]\nprompt = 0.9\nhook = false\nmax-decisions = 1\nerror = 7\n").unwrap();
        let mut c = Config::default();
        let problems = c.apply(patch, &[]);
        assert_eq!((c.recall.prompt, c.recall.hook, c.recall.max_decisions), (0.9, false, 1));
        assert_eq!(c.recall.error, Recall::default().error);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("recall.error"), "{problems:?}");
    }

    #[test]
    fn malformed_toml_reports_a_span() {
        let err = parse_toml("index = 3\n").unwrap_err();
        assert!(err.message.contains("invalid memory-index.toml"), "{}", err.message);
        assert_eq!(err.range.start, 8);
        assert!(parse_toml("bogus = 1").is_err());
        assert!(parse_toml("[rules]\nx = \"loud\"").is_err());
    }

    #[test]
    fn unknown_rules_and_escaping_paths_are_reported_not_applied() {
        let mut c = Config::default();
        let patch = ConfigPatch {
            index: Some("../etc/x.md".into()),
            rules: Some([("nope".to_string(), Level::Off)].into()),
            ..Default::default()
        };
        let problems = c.apply(patch, &["file-too-long"]);
        assert_eq!(problems.len(), 2);
        assert_eq!(c, Config::default());
    }
}
