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
    /// Largest file read, in bytes: a larger index or decision file is an
    /// `unreadable-file` finding, not a read of unbounded size.
    pub max_file_bytes: u64,
    /// Rule code → level overrides.
    pub rules: BTreeMap<String, Level>,
    /// Options the rules declare (`token-budget = 6000`), as set; a rule
    /// reads its default when unset (see `rules::Rule::options`).
    pub options: BTreeMap<String, u64>,
    /// When recall speaks (`[recall]`).
    pub recall: Recall,
    /// When the hook asks the agent to write a decision down (`[capture]`).
    pub capture: Capture,
}

/// Default `max-file-bytes`: 64 MiB, far above any real index or decision file.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

impl Default for Config {
    fn default() -> Self {
        Self {
            index: "agents/memory-index.md".into(),
            decisions: "agents/decisions".into(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            rules: BTreeMap::new(),
            options: BTreeMap::new(),
            recall: Recall::default(),
            capture: Capture::default(),
        }
    }
}

mod tables;
pub use tables::{Capture, CapturePatch, Recall, RecallPatch};

/// The file name looked for at the workspace root.
pub const CONFIG_FILE: &str = "memory-index.toml";

/// A problem in a configuration source, with the span it concerns when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub range: TextRange,
    pub message: String,
}

/// Every key, all optional: what one source (file or client) says.
///
/// Keys other than the fixed ones are rule options (`token-budget`), kept as
/// written and checked against the options the rules declare by
/// [`Config::apply`] (and by [`parse_toml`], which reports an unknown key at
/// its place in the file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigPatch {
    pub index: Option<String>,
    pub decisions: Option<String>,
    pub max_file_bytes: Option<u64>,
    pub rules: Option<BTreeMap<String, Level>>,
    pub recall: Option<RecallPatch>,
    pub capture: Option<CapturePatch>,
    /// Other keys: a whole number, or None for any other value.
    pub options: BTreeMap<String, Option<u64>>,
}

/// The fixed keys, as a message lists them.
const KEYS: &str = "index, decisions, max-file-bytes, rules, recall, capture";

impl<'de> Deserialize<'de> for ConfigPatch {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = ConfigPatch;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table of memory-index settings")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<ConfigPatch, A::Error> {
                let mut p = ConfigPatch::default();
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        "index" => p.index = Some(m.next_value()?),
                        "decisions" => p.decisions = Some(m.next_value()?),
                        "max-file-bytes" | "maxFileBytes" => p.max_file_bytes = Some(m.next_value()?),
                        "rules" => p.rules = Some(m.next_value()?),
                        "recall" => p.recall = Some(m.next_value()?),
                        "capture" => p.capture = Some(m.next_value()?),
                        _ => {
                            let OptionValue(v) = m.next_value()?;
                            p.options.insert(kebab(&key), v);
                        }
                    }
                }
                Ok(p)
            }
        }
        d.deserialize_map(Keys)
    }
}

/// A rule option's value: a whole number, or None for anything else.
struct OptionValue(Option<u64>);

impl<'de> Deserialize<'de> for OptionValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> serde::de::Visitor<'de> for Any {
            type Value = OptionValue;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a value")
            }
            fn visit_u64<E>(self, v: u64) -> Result<OptionValue, E> {
                Ok(OptionValue(Some(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<OptionValue, E> {
                Ok(OptionValue(u64::try_from(v).ok()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<OptionValue, E> {
                Ok(OptionValue(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<OptionValue, E> {
                Ok(OptionValue(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<OptionValue, E> {
                Ok(OptionValue(None))
            }
            fn visit_unit<E>(self) -> Result<OptionValue, E> {
                Ok(OptionValue(None))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<OptionValue, A::Error> {
                while s.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(OptionValue(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<OptionValue, A::Error> {
                while m.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
                Ok(OptionValue(None))
            }
        }
        d.deserialize_any(Any)
    }
}

/// `tokenBudget` → `token-budget` (client settings are camelCase).
fn kebab(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// What the rules declare: their codes, and their options with defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Known<'a> {
    pub rules: &'a [&'a str],
    pub options: &'a [(&'a str, u64)],
}

impl Config {
    /// Applies a source's keys over this configuration. Unknown rule codes and
    /// paths that leave the root are reported and ignored.
    pub fn apply(&mut self, patch: ConfigPatch, known: Known) -> Vec<String> {
        let known_rules = known.rules;
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
            if let Some(b) = r.semantic {
                self.recall.semantic = b;
            }
            if let Some(m) = r.model {
                self.recall.model = Some(m);
            }
            if let Some(n) = r.max_chars {
                self.recall.max_chars = n;
            }
        }
        if let Some(stop) = patch.capture.and_then(|c| c.stop) {
            self.capture.stop = stop;
        }
        for (code, level) in patch.rules.unwrap_or_default() {
            if known_rules.contains(&code.as_str()) {
                self.rules.insert(code, level);
            } else {
                problems.push(format!("unknown rule `{code}` (known rules: {})", known_rules.join(", ")));
            }
        }
        for (key, value) in patch.options {
            match (known.options.iter().find(|o| o.0 == key), value) {
                (Some(_), Some(n)) => {
                    self.options.insert(key, n);
                }
                (Some(&(_, default)), None) => problems.push(format!(
                    "`{key}` must be a whole number; using {}",
                    self.options.get(&key).copied().unwrap_or(default)
                )),
                (None, _) => problems.push(unknown_key(&key, known)),
            }
        }
        problems
    }

    /// The value of rule option `name`: as configured, else `default`.
    pub fn option(&self, name: &str, default: u64) -> u64 {
        self.options.get(name).copied().unwrap_or(default)
    }
}

fn unknown_key(key: &str, known: Known) -> String {
    let options: Vec<&str> = known.options.iter().map(|o| o.0).collect();
    let all = if options.is_empty() { KEYS.to_string() } else { format!("{KEYS}, {}", options.join(", ")) };
    format!("unknown key `{key}` (known keys: {all})")
}

/// Parses `memory-index.toml` text into a patch, or the errors that make it
/// unusable: malformed TOML, a wrong type, or a key that is neither fixed
/// nor an option of `known` rules (reported at the key).
pub fn parse_toml(text: &str, known: Known) -> Result<ConfigPatch, ConfigError> {
    let patch = toml::from_str::<ConfigPatch>(text).map_err(|e| ConfigError {
        range: e.span().map(TextRange::from).unwrap_or_default(),
        message: format!("invalid {CONFIG_FILE}: {}; defaults apply", e.message()),
    })?;
    for (key, value) in &patch.options {
        let known_key = known.options.iter().any(|o| o.0 == key.as_str());
        if known_key && value.is_some() {
            continue;
        }
        let (at, message) = match known_key {
            true => (value_range(text, key), format!("`{key}` must be a whole number")),
            false => (key_range(text, key), unknown_key(key, known)),
        };
        return Err(ConfigError { range: at, message: format!("invalid {CONFIG_FILE}: {message}; defaults apply") });
    }
    Ok(patch)
}

/// The value of top-level `key` in `text` (after its `=`), or the start.
fn value_range(text: &str, key: &str) -> TextRange {
    let k = key_range(text, key);
    let line_end = text[k.end..].find('\n').map_or(text.len(), |i| k.end + i);
    let rest = &text[k.end..line_end];
    let Some(eq) = rest.find('=') else { return k };
    let value = rest[eq + 1..].trim();
    let start = k.end + eq + 1 + (rest[eq + 1..].len() - rest[eq + 1..].trim_start().len());
    TextRange::new(start, start + value.len())
}

/// Where top-level `key` is set in `text` (its first line `key =`), or the start.
fn key_range(text: &str, key: &str) -> TextRange {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') {
            break;
        }
        let trimmed = line.trim_start();
        let quoted = || trimmed.strip_prefix('"')?.strip_prefix(key)?.strip_prefix('"');
        let rest = trimmed.strip_prefix(key).or_else(quoted);
        if rest.is_some_and(|r| r.trim_start().starts_with('=')) {
            let at = start + line.len() - trimmed.len();
            return TextRange::new(at, at + key.len());
        }
        start += line.len();
    }
    TextRange::default()
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
            Known { rules: &[], options: &[("max-lines", 400)] },
        )
        .unwrap();
        let mut c = Config::default();
        assert!(c.apply(patch, Known { rules: &["file-too-long"], options: &[("max-lines", 400)] }).is_empty());
        assert_eq!(c.index, "x/idx.md");
        assert_eq!(c.decisions, "d");
        assert_eq!(c.option("max-lines", 400), 10);
        assert_eq!(c.rules.get("file-too-long"), Some(&Level::Off));
    }

    #[test]
    fn recall_thresholds_are_read_and_checked() {
        let patch =
            parse_toml("[recall]\nprompt = 0.9\nhook = false\nmax-decisions = 1\nerror = 7\n", Known::default())
                .unwrap();
        let mut c = Config::default();
        let problems = c.apply(patch, Known::default());
        assert_eq!((c.recall.prompt, c.recall.hook, c.recall.max_decisions), (0.9, false, 1));
        assert_eq!(c.recall.error, Recall::default().error);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("recall.error"), "{problems:?}");
    }

    #[test]
    fn the_semantic_tier_is_off_unless_asked_for() {
        assert!(!Config::default().recall.semantic);
        let patch = parse_toml("[recall]\nsemantic = true\nmodel = \"models/mini\"\n", Known::default()).unwrap();
        let mut c = Config::default();
        assert!(c.apply(patch, Known::default()).is_empty());
        assert_eq!((c.recall.semantic, c.recall.model.as_deref()), (true, Some("models/mini")));
        assert!(parse_toml("[recall]\nsemantic = \"yes\"\n", Known::default()).is_err());
    }

    #[test]
    fn malformed_toml_reports_a_span() {
        let err = parse_toml("index = 3\n", Known::default()).unwrap_err();
        assert!(err.message.contains("invalid memory-index.toml"), "{}", err.message);
        assert_eq!(err.range.start, 8);
        assert!(parse_toml("bogus = 1", Known::default()).is_err());
        assert!(parse_toml("[rules]\nx = \"loud\"", Known::default()).is_err());
    }

    #[test]
    fn unknown_rules_and_escaping_paths_are_reported_not_applied() {
        let mut c = Config::default();
        let patch = ConfigPatch {
            index: Some("../etc/x.md".into()),
            rules: Some([("nope".to_string(), Level::Off)].into()),
            ..Default::default()
        };
        let problems = c.apply(patch, Known { rules: &["file-too-long"], options: &[] });
        assert_eq!(problems.len(), 2);
        assert_eq!(c, Config::default());
    }

    #[test]
    fn rule_options_are_read_checked_and_placed() {
        let known = Known { rules: &[], options: &[("token-budget", 5000)] };
        let patch = parse_toml("token-budget = 6000\n", known).unwrap();
        let mut c = Config::default();
        assert!(c.apply(patch, known).is_empty());
        assert_eq!(c.option("token-budget", 5000), 6000);
        assert_eq!(Config::default().option("token-budget", 5000), 5000);
        let err = parse_toml("index = \"a.md\"\n  token-budgt = 1\n", known).unwrap_err();
        assert!(err.message.contains("unknown key `token-budgt`"), "{}", err.message);
        assert!(err.message.contains("token-budget"), "lists the known options: {}", err.message);
        assert_eq!((err.range.start, err.range.end), (17, 28));
        let err = parse_toml("token-budget = \"lots\"\n", known).unwrap_err();
        assert!(err.message.contains("`token-budget` must be a whole number"), "{}", err.message);
        assert_eq!((err.range.start, err.range.end), (15, 21), "the value");
        // From a client, a wrong value keeps the previous one.
        let patch: ConfigPatch = serde_json::from_str(r#"{"tokenBudget": "lots"}"#).unwrap();
        assert_eq!(c.apply(patch, known), ["`token-budget` must be a whole number; using 6000"]);
        // Client settings are camelCase.
        let patch: ConfigPatch = serde_json::from_str(r#"{"tokenBudget": 7000}"#).unwrap();
        assert!(c.apply(patch, known).is_empty());
        assert_eq!(c.option("token-budget", 5000), 7000);
    }
}
