//! `memory-index.toml` read key by key: a key that is unknown or of the wrong type is reported at its place and left out, and every other key applies.
//!
//! One wrong key never throws the file away: a typo beside `hook = false`
//! must not turn the hook back on. Only text that is not TOML at all leaves
//! every default in place.

use toml::{Table, Value};

use super::{kebab, unknown_key, CapturePatch, ConfigError, ConfigPatch, Known, Level, RecallPatch, CONFIG_FILE};
use crate::text::TextRange;

/// The keys of `text` that can be read, and an error placed at each one that
/// cannot: malformed TOML (then nothing applies), an unknown key, or a value
/// of the wrong type (then that key alone is left out).
pub fn read_toml(text: &str, known: Known) -> (ConfigPatch, Vec<ConfigError>) {
    let table = match toml::from_str::<Table>(text) {
        Ok(t) => t,
        Err(e) => {
            let error = ConfigError {
                range: e.span().map(TextRange::from).unwrap_or_default(),
                message: format!("invalid {CONFIG_FILE}: {}; defaults apply", e.message()),
            };
            return (ConfigPatch::default(), vec![error]);
        }
    };
    let mut p = ConfigPatch::default();
    let mut errors = Vec::new();
    let mut bad = |table: Option<&str>, key: &str, at_value: bool, message: String| {
        errors.push(ConfigError {
            range: locate(text, table, key, at_value),
            message: format!("invalid {CONFIG_FILE}: {message}; this key is ignored"),
        });
    };
    for (key, value) in table {
        match key.as_str() {
            "index" | "decisions" => match value {
                Value::String(s) if key == "index" => p.index = Some(s),
                Value::String(s) => p.decisions = Some(s),
                _ => bad(None, &key, true, format!("`{key}` must be a path in quotes")),
            },
            "min-version" | "minVersion" => match value {
                Value::String(s) => p.min_version = Some(s),
                _ => bad(None, &key, true, format!("`{key}` must be a version in quotes (\"0.2.0\")")),
            },
            "max-file-bytes" | "maxFileBytes" => match value.as_integer().and_then(|n| u64::try_from(n).ok()) {
                Some(n) => p.max_file_bytes = Some(n),
                None => bad(None, &key, true, format!("`{key}` must be a whole number of bytes")),
            },
            "rules" => {
                let Value::Table(t) = value else {
                    bad(None, &key, true, "`rules` must be a table (`[rules]`)".into());
                    continue;
                };
                let mut rules = std::collections::BTreeMap::new();
                for (code, level) in t {
                    match level.try_into::<Level>() {
                        Ok(l) => {
                            rules.insert(code, l);
                        }
                        Err(_) => bad(
                            Some("rules"),
                            &code,
                            true,
                            format!("`rules.{code}` must be \"error\", \"warning\", \"info\" or \"off\""),
                        ),
                    }
                }
                p.rules = Some(rules);
            }
            "recall" => p.recall = good_keys::<RecallPatch>(&key, value, &mut bad),
            "capture" => p.capture = good_keys::<CapturePatch>(&key, value, &mut bad),
            _ => {
                let n = value.as_integer().and_then(|n| u64::try_from(n).ok());
                // `maxLines` is `max-lines`, as a client's settings spell it.
                let option = kebab(&key);
                match (known.options.iter().any(|o| o.0 == option.as_str()), n) {
                    (true, Some(n)) => {
                        p.options.insert(option, Some(n));
                    }
                    (true, None) => bad(None, &key, true, format!("`{key}` must be a whole number")),
                    (false, _) => bad(None, &key, false, unknown_key(&key, known)),
                }
            }
        }
    }
    (p, errors)
}

/// Reports a key that cannot be read: its table (None: the top level), the
/// key, whether the value (not the key) is wrong, and why.
type Bad<'a> = dyn FnMut(Option<&str>, &str, bool, String) + 'a;

/// The table `name` (`[recall]`, `[capture]`) read as `T` from the keys
/// that read on their own; each other key reported through `bad`.
fn good_keys<T: serde::de::DeserializeOwned>(name: &str, value: Value, bad: &mut Bad) -> Option<T> {
    let Value::Table(t) = value else {
        bad(None, name, true, format!("`{name}` must be a table (`[{name}]`)"));
        return None;
    };
    let mut good = Table::new();
    for (key, v) in t {
        // `maxDecisions` is `max-decisions`: given both ways, the second is reported.
        let name_of = kebab(&key);
        if good.contains_key(&name_of) {
            bad(Some(name), &key, false, format!("`{name}.{name_of}` is given twice"));
            continue;
        }
        let one: Table = [(name_of.clone(), v.clone())].into_iter().collect();
        // Known by the reference's list of keys, not by the parser's message.
        let known = super::reference::SETTINGS.iter().any(|s| s.table == name && s.key == name_of);
        match one.try_into::<T>() {
            Ok(_) => {
                good.insert(name_of, v);
            }
            Err(e) if !known => {
                bad(Some(name), &key, false, format!("unknown key `{key}` in `[{name}]` ({})", e.message()))
            }
            Err(e) => bad(Some(name), &key, true, format!("`{name}.{key}`: {}", e.message())),
        }
    }
    good.try_into::<T>().ok()
}

/// Where `key` of table `table` (None: the top level) is set in `text`: the
/// key itself, or its value when `at_value`; else the table's header, else
/// the start of the file.
pub fn locate(text: &str, table: Option<&str>, key: &str, at_value: bool) -> TextRange {
    let mut start = 0;
    let mut current: Option<String> = None;
    let mut header = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let at = start + line.len() - trimmed.len();
        start += line.len();
        if let Some(name) = trimmed.strip_prefix('[') {
            let name = name.split(']').next().unwrap_or("").trim().trim_matches('"').to_string();
            if table == Some(name.as_str()) {
                header = Some(TextRange::new(at, at + trimmed.trim_end().len()));
            }
            current = Some(name);
            continue;
        }
        if current.as_deref() != table {
            continue;
        }
        let quoted = || trimmed.strip_prefix('"')?.strip_prefix(key)?.strip_prefix('"');
        let Some(rest) = trimmed.strip_prefix(key).or_else(quoted) else { continue };
        let Some(value) = rest.trim_start().strip_prefix('=') else { continue };
        if !at_value {
            return TextRange::new(at, at + (trimmed.len() - rest.len()));
        }
        let value_start = line.len() - value.trim_start().len();
        let value_text = value.trim();
        let begin = start - line.len() + value_start;
        return TextRange::new(begin, begin + value_text.len());
    }
    header.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::super::reference::SETTINGS;
    use super::super::tables::{CapturePatch, RecallPatch};

    /// The keys serde reads in a table (kebab-case; the camelCase aliases left out): what it lists when refusing an unknown one.
    fn fields<T: serde::de::DeserializeOwned>() -> Vec<String> {
        let e = toml::from_str::<T>("no-such-key = 1").err().expect("an unknown key is refused");
        let listed = e.message().split("expected").nth(1).unwrap_or("").to_string();
        listed.split('`').skip(1).step_by(2).filter(|k| !k.contains(char::is_uppercase)).map(str::to_string).collect()
    }

    /// Unknown keys are told by the reference's list: it holds every key each table reads, and no other.
    #[test]
    fn the_reference_lists_every_key_of_each_table() {
        for (table, mut read) in [("recall", fields::<RecallPatch>()), ("capture", fields::<CapturePatch>())] {
            let mut listed: Vec<String> =
                SETTINGS.iter().filter(|s| s.table == table).map(|s| s.key.to_string()).collect();
            read.sort();
            listed.sort();
            assert!(!read.is_empty(), "serde names the keys of [{table}]");
            assert_eq!(read, listed, "[{table}]: the keys serde reads, and those docs list");
        }
    }
}
