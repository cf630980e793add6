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
    /// The oldest `memory-index-lsp` the project's memory is meant for
    /// (`min-version = "0.2.0"`): an older one says so at a session's start
    /// and in `check`, and goes on.
    pub min_version: Option<String>,
}

/// The index's path when `memory-index.toml` names none.
pub const DEFAULT_INDEX: &str = "agents/memory-index.md";

/// Default `max-file-bytes`: 64 MiB, far above any real index or decision file.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

impl Default for Config {
    fn default() -> Self {
        Self {
            index: DEFAULT_INDEX.into(),
            decisions: "agents/decisions".into(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            min_version: None,
            rules: BTreeMap::new(),
            options: BTreeMap::new(),
            recall: Recall::default(),
            capture: Capture::default(),
        }
    }
}

mod file;
pub mod reference;
mod tables;
mod version;
pub use file::{locate, read_toml};
pub use tables::{Capture, CapturePatch, Recall, RecallPatch};
pub use version::{too_old, version};

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
/// [`Config::apply`] (and by [`read_toml`], which reports an unknown key at
/// its place in the file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigPatch {
    pub index: Option<String>,
    pub decisions: Option<String>,
    pub max_file_bytes: Option<u64>,
    pub rules: Option<BTreeMap<String, Level>>,
    pub recall: Option<RecallPatch>,
    pub capture: Option<CapturePatch>,
    pub min_version: Option<String>,
    /// Other keys: a whole number, or None for any other value.
    pub options: BTreeMap<String, Option<u64>>,
}

/// The fixed keys, as a message lists them.
const KEYS: &str = "index, decisions, max-file-bytes, min-version, rules, recall, capture";

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
                        "min-version" | "minVersion" => p.min_version = Some(m.next_value()?),
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
        self.apply_keyed(patch, known).into_iter().map(|p| p.message).collect()
    }

    /// Applies `memory-index.toml` text over this configuration
    /// ([`read_toml`]): every key that reads applies, and each problem is
    /// placed at its key or value in `text`, in the file's order.
    pub fn apply_toml(&mut self, text: &str, known: Known) -> Vec<ConfigError> {
        let (patch, mut errors) = read_toml(text, known);
        for p in self.apply_keyed(patch, known) {
            let (table, key) = match p.key.split_once('.') {
                Some((t, k)) => (Some(t), k),
                None => (None, p.key.as_str()),
            };
            errors.push(ConfigError { range: locate(text, table, key, p.at_value), message: p.message });
        }
        // In the order of the file.
        errors.sort_by_key(|e| e.range.start);
        errors
    }

    /// [`Config::apply`], each problem with the key it concerns.
    fn apply_keyed(&mut self, patch: ConfigPatch, known: Known) -> Vec<Problem> {
        let known_rules = known.rules;
        let mut problems = Vec::new();
        let mut path = |value: Option<String>, what: &str, slot: &mut String| {
            if let Some(v) = value {
                match clean_relative(&v) {
                    Some(p) => *slot = p,
                    None => problems.push(Problem::at_value(
                        what,
                        format!("`{what}` must be a relative path inside the workspace, got `{v}`; using `{slot}`"),
                    )),
                }
            }
        };
        path(patch.index, "index", &mut self.index);
        path(patch.decisions, "decisions", &mut self.decisions);
        match patch.min_version {
            Some(v) if version(&v).is_some() => self.min_version = Some(v.trim().to_string()),
            Some(v) => problems.push(Problem::at_value(
                "min-version",
                format!("`min-version` must be a version such as \"0.2.0\", got `{v}`"),
            )),
            None => {}
        }
        match patch.max_file_bytes {
            Some(0) => problems.push(Problem::at_value(
                "max-file-bytes",
                format!("`max-file-bytes` must be above 0; using {}", self.max_file_bytes),
            )),
            Some(n) => self.max_file_bytes = n,
            None => {}
        }
        if let Some(r) = patch.recall {
            let mut threshold = |value: Option<f64>, what: &str, slot: &mut f64| match value {
                Some(v) if (0.0..=1.0).contains(&v) => *slot = v,
                Some(v) => problems.push(Problem::at_value(
                    &format!("recall.{what}"),
                    format!("`recall.{what}` must be a confidence between 0 and 1, got {v}; using {slot}"),
                )),
                None => {}
            };
            threshold(r.prompt, "prompt", &mut self.recall.prompt);
            threshold(r.command, "command", &mut self.recall.command);
            threshold(r.error, "error", &mut self.recall.error);
            threshold(r.resolve, "resolve", &mut self.recall.resolve);
            threshold(r.duplicate, "duplicate", &mut self.recall.duplicate);
            threshold(r.prompt_pointer, "prompt-pointer", &mut self.recall.prompt_pointer);
            threshold(r.command_pointer, "command-pointer", &mut self.recall.command_pointer);
            threshold(r.error_pointer, "error-pointer", &mut self.recall.error_pointer);
            threshold(r.meaning_pointer, "meaning-pointer", &mut self.recall.meaning_pointer);
            threshold(r.file_words, "file-words", &mut self.recall.file_words);
            if let Some(n) = r.max_pointers {
                self.recall.max_pointers = n;
            }
            if let Some(h) = r.hook {
                self.recall.hook = h;
            }
            if let Some(n) = r.max_decisions {
                self.recall.max_decisions = n;
            }
            if let Some(b) = r.semantic {
                self.recall.semantic = Some(b);
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
                let message = format!("unknown rule `{code}` (known rules: {})", known_rules.join(", "));
                problems.push(Problem { key: format!("rules.{code}"), at_value: false, message });
            }
        }
        for (key, value) in patch.options {
            match (known.options.iter().find(|o| o.0 == key), value) {
                (Some(_), Some(n)) => {
                    self.options.insert(key, n);
                }
                (Some(&(_, default)), None) => problems.push(Problem::at_value(
                    &key,
                    format!(
                        "`{key}` must be a whole number; using {}",
                        self.options.get(&key).copied().unwrap_or(default)
                    ),
                )),
                (None, _) => problems.push(Problem { message: unknown_key(&key, known), key, at_value: false }),
            }
        }
        problems
    }

    /// The value of rule option `name`: as configured, else `default`.
    pub fn option(&self, name: &str, default: u64) -> u64 {
        self.options.get(name).copied().unwrap_or(default)
    }
}

/// A problem [`Config::apply`] found, with the key it concerns (`recall.error`, `rules.nope`).
struct Problem {
    key: String,
    at_value: bool,
    message: String,
}

impl Problem {
    fn at_value(key: &str, message: String) -> Self {
        Self { key: key.to_string(), at_value: true, message }
    }
}

fn unknown_key(key: &str, known: Known) -> String {
    let options: Vec<&str> = known.options.iter().map(|o| o.0).collect();
    let all = if options.is_empty() { KEYS.to_string() } else { format!("{KEYS}, {}", options.join(", ")) };
    format!("unknown key `{key}` (known keys: {all})")
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

    /// `text` read and applied over the defaults: the configuration and its problems.
    fn read(text: &str, known: Known) -> (Config, Vec<ConfigError>) {
        let mut c = Config::default();
        let errors = c.apply_toml(text, known);
        (c, errors)
    }

    #[test]
    fn parses_all_keys() {
        let known = Known { rules: &["file-too-long"], options: &[("max-lines", 400)] };
        let (c, errors) = read(
            "index = \"x/idx.md\"\ndecisions = \"./d/\"\nmax-lines = 10\n[rules]\nfile-too-long = \"off\"\n",
            known,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(c.index, "x/idx.md");
        assert_eq!(c.decisions, "d");
        assert_eq!(c.option("max-lines", 400), 10);
        assert_eq!(c.rules.get("file-too-long"), Some(&Level::Off));
    }

    #[test]
    fn recall_thresholds_are_read_and_checked() {
        let text = "[recall]\nprompt = 0.9\nhook = false\nmax-decisions = 1\nerror = 7\n";
        let (c, errors) = read(text, Known::default());
        assert_eq!((c.recall.prompt, c.recall.hook, c.recall.max_decisions), (0.9, false, 1));
        assert_eq!(c.recall.error, Recall::default().error);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains("recall.error"), "{errors:?}");
        assert_eq!(&text[errors[0].range.start..errors[0].range.end], "7", "placed at the value");
    }

    #[test]
    fn the_semantic_tier_is_unset_unless_asked_for() {
        assert_eq!(Config::default().recall.semantic, None);
        let (c, errors) = read("[recall]\nsemantic = true\nmodel = \"models/mini\"\n", Known::default());
        assert!(errors.is_empty());
        assert_eq!((c.recall.semantic, c.recall.model.as_deref()), (Some(true), Some("models/mini")));
        let (c, errors) = read("[recall]\nsemantic = \"yes\"\n", Known::default());
        assert_eq!(c.recall.semantic, None);
        assert_eq!(errors.len(), 1, "{errors:?}");
    }

    #[test]
    fn text_that_is_not_toml_leaves_the_defaults_and_says_where() {
        let (c, errors) = read("index = \"a.md\"\n[recall\nhook = false\n", Known::default());
        assert_eq!(c, Config::default());
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].message.contains("invalid memory-index.toml") && errors[0].message.contains("defaults apply")
        );
    }

    /// A typo beside `hook = false` used to throw the whole file away and turn the hook back on.
    #[test]
    fn one_wrong_key_is_reported_at_its_place_and_every_other_key_applies() {
        let known = Known { rules: &["file-too-long"], options: &[("max-lines", 400)] };
        let text =
            "index = 3\nbogus = 1\nmax-lines = \"lots\"\n[recall]\nhook = false\nmax-decision = 1\nprompt = \"high\"\n\
                    [rules]\nfile-too-long = \"loud\"\nnope = \"off\"\n[capture]\nstop = false\n";
        let (c, errors) = read(text, known);
        assert!(!c.recall.hook, "hook = false applies");
        assert!(!c.capture.stop, "stop = false applies");
        assert_eq!((c.index.as_str(), c.recall.prompt), ("agents/memory-index.md", 0.5));
        let at: Vec<(&str, &str)> =
            errors.iter().map(|e| (&text[e.range.start..e.range.end], e.message.as_str())).collect();
        let spots: Vec<&str> = at.iter().map(|a| a.0).collect();
        assert_eq!(spots, ["3", "bogus", "\"lots\"", "max-decision", "\"high\"", "\"loud\"", "nope"], "{at:#?}");
        assert!(at[3].1.contains("unknown key `max-decision` in `[recall]`"), "{at:#?}");
        assert!(at[3].1.contains("max-decisions"), "names the keys it knows: {at:#?}");
        assert!(at[5].1.contains("\"error\", \"warning\", \"info\" or \"off\""), "{at:#?}");
    }

    /// Found by review: a key given both ways (`maxDecisions`, `max-decisions`) dropped the whole table.
    #[test]
    fn a_key_given_twice_is_reported_and_the_table_still_applies() {
        let known = Known { rules: &[], options: &[("max-lines", 400)] };
        let text = "maxLines = 300\n[recall]\nhook = false\nmax-decisions = 1\nmaxDecisions = 2\n";
        let (c, errors) = read(text, known);
        assert_eq!((c.recall.hook, c.recall.max_decisions, c.option("max-lines", 400)), (false, 1, 300));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains("`recall.max-decisions` is given twice"), "{errors:?}");
        assert_eq!(&text[errors[0].range.start..errors[0].range.end], "maxDecisions");
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
        let (mut c, errors) = read("token-budget = 6000\n", known);
        assert!(errors.is_empty());
        assert_eq!(c.option("token-budget", 5000), 6000);
        assert_eq!(Config::default().option("token-budget", 5000), 5000);
        let (_, errors) = read("index = \"a.md\"\n  token-budgt = 1\n", known);
        assert!(errors[0].message.contains("unknown key `token-budgt`"), "{}", errors[0].message);
        assert!(errors[0].message.contains("token-budget"), "lists the known options: {}", errors[0].message);
        assert_eq!((errors[0].range.start, errors[0].range.end), (17, 28));
        let (_, errors) = read("token-budget = \"lots\"\n", known);
        assert!(errors[0].message.contains("`token-budget` must be a whole number"), "{}", errors[0].message);
        assert_eq!((errors[0].range.start, errors[0].range.end), (15, 21), "the value");
        // From a client, a wrong value keeps the previous one.
        let patch: ConfigPatch = serde_json::from_str(r#"{"tokenBudget": "lots"}"#).unwrap();
        assert_eq!(c.apply(patch, known), ["`token-budget` must be a whole number; using 6000"]);
        // Client settings are camelCase.
        let patch: ConfigPatch = serde_json::from_str(r#"{"tokenBudget": 7000}"#).unwrap();
        assert!(c.apply(patch, known).is_empty());
        assert_eq!(c.option("token-budget", 5000), 7000);
    }
}
