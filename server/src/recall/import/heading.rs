//! The heading a record gets from its title: a situation (`When Using Helm for packages`), whatever the title's grammar.

use super::source::Kind;
use crate::syntax::index::Op;

/// The heading for a record's title (see the module docs).
pub fn heading_title(kind: Kind, title: &str) -> String {
    if let Some((op, rest)) = Op::split_title(title) {
        return format!("{}{}", op.title_prefix(), rest);
    }
    // `Clients: Use Jest Mocks` reads as a situation once the topic follows the verb
    // (`When Using Jest Mocks for Clients`, not `When Deciding Clients: Use Jest Mocks`).
    if let Some((topic, said)) = title.split_once(": ") {
        let (verb, tail) = said.trim().split_once(' ').unwrap_or((said.trim(), ""));
        // A label is no topic (`Decision: Use Postgres`, `RFC 12: …`, `WIP: …`).
        const LABELS: &[&str] = &[
            "adr",
            "decision",
            "decisions",
            "proposal",
            "proposed",
            "rfc",
            "wip",
            "draft",
            "status",
            "accepted",
            "deprecated",
            "superseded",
            "rejected",
            "note",
            "update",
            "todo",
            "fix",
            "chore",
            "feat",
        ];
        let label = topic.split_whitespace().any(|w| LABELS.contains(&w.to_lowercase().as_str()))
            || topic.chars().any(|c| c.is_ascii_digit());
        // A label is dropped: the title is what follows it.
        if label && !said.trim().is_empty() && topic.split_whitespace().count() <= 3 {
            return heading_title(kind, said.trim());
        }
        let short = (1..=4).contains(&topic.split_whitespace().count()) && !topic.contains(['(', ')', ':']) && !label;
        if let (Some(ing), true, false) = (gerund(verb), short, tail.is_empty()) {
            return format!("When {ing} {tail} for {}", topic.trim());
        }
    }
    let (first, rest) = title.split_once(' ').unwrap_or((title, ""));
    // `Use of admission policy` is a noun phrase, not an imperative.
    // `Version Control`, `Build Commands`: a word that is a noun as often as a
    // verb, followed by a capitalised word, heads a noun phrase in a rules file.
    const EITHER: &[&str] = &[
        "build", "cache", "change", "document", "host", "log", "merge", "name", "record", "run", "set", "share",
        "store", "support", "switch", "test", "track", "version",
    ];
    let next = rest.split_whitespace().next();
    // The word that says whether `first` heads a noun phrase: the next one,
    // or the one after `and` (`Build and Verification Requirements`).
    let joined = match next {
        Some(w) if w.eq_ignore_ascii_case("and") || w == "&" => rest.split_whitespace().nth(1),
        other => other,
    };
    let noun_phrase = next.is_some_and(|w| w.eq_ignore_ascii_case("of"))
        || (kind == Kind::Sections
            && EITHER.contains(&first.to_lowercase().as_str())
            && joined.is_some_and(|w| w.starts_with(char::is_uppercase)));
    if let Some(ing) = gerund(first).filter(|_| !noun_phrase) {
        return format!("When {ing}{}{rest}", if rest.is_empty() { "" } else { " " });
    }
    // A title that is already a gerund phrase (`Running Tests`, `Adding line
    // items`) reads as a situation; one whose gerund qualifies a noun
    // (`Coding Convention`, `Naming conventions for clusters`) does not.
    if is_gerund(first) && !next.is_some_and(qualified) {
        return format!("When {title}");
    }
    let lead = if kind == Kind::Sections { "When Working On" } else { "When Deciding" };
    format!("{lead} {title}")
}

/// Whether `word` is a gerund (`Running`, `Webscraping`): letters ending in
/// `ing` after a syllable of its own, not a noun that only ends so.
fn is_gerund(word: &str) -> bool {
    const NOT: &[&str] = &[
        "during",
        "nothing",
        "something",
        "anything",
        "everything",
        "morning",
        "evening",
        "ceiling",
        "sibling",
        "tooling",
    ];
    let w = word.to_lowercase();
    let Some(stem) = w.strip_suffix("ing") else { return false };
    w.chars().all(|c| c.is_ascii_alphabetic())
        && stem.len() >= 2
        && stem.chars().any(|c| "aeiouy".contains(c))
        && !NOT.contains(&w.as_str())
}

/// Whether `word` is a noun a gerund qualifies in a title (`Coding
/// Convention`, `Branching Model`, `Testing Guidelines`): the title names a
/// subject, not an activity.
fn qualified(word: &str) -> bool {
    const NOUNS: &[&str] = &[
        "checklist",
        "command",
        "commands",
        "convention",
        "conventions",
        "environment",
        "framework",
        "guide",
        "guidelines",
        "guides",
        "instructions",
        "library",
        "model",
        "notes",
        "overview",
        "pattern",
        "patterns",
        "policy",
        "practices",
        "principles",
        "process",
        "requirements",
        "rule",
        "rules",
        "setup",
        "standard",
        "standards",
        "strategy",
        "structure",
        "style",
        "system",
        "table",
        "tips",
        "tools",
        "workflow",
    ];
    NOUNS.contains(&word.to_lowercase().trim_end_matches([':', ',']))
}

/// The verbs decisions start with, which [`gerund`] turns into `-ing` forms.
const VERBS: &[&str] = &[
    "add",
    "adopt",
    "allow",
    "apply",
    "archive",
    "automate",
    "avoid",
    "block",
    "build",
    "cache",
    "centralise",
    "centralize",
    "change",
    "choose",
    "consolidate",
    "create",
    "define",
    "decommission",
    "delete",
    "deploy",
    "deprecate",
    "disable",
    "distribute",
    "document",
    "drop",
    "enable",
    "encrypt",
    "enforce",
    "expose",
    "give",
    "handle",
    "host",
    "implement",
    "introduce",
    "keep",
    "limit",
    "log",
    "maintain",
    "make",
    "manage",
    "merge",
    "migrate",
    "monitor",
    "move",
    "name",
    "pin",
    "prefer",
    "publish",
    "put",
    "record",
    "reduce",
    "remove",
    "rename",
    "replace",
    "require",
    "restructure",
    "retire",
    "reuse",
    "rotate",
    "run",
    "separate",
    "serve",
    "set",
    "share",
    "split",
    "standardise",
    "standardize",
    "store",
    "switch",
    "support",
    "test",
    "track",
    "treat",
    "upgrade",
    "use",
    "validate",
    "verify",
    "version",
    "write",
];

/// `Use` → `Using`, `Split` → `Splitting`, for the verbs decisions start with; None for other words.
fn gerund(word: &str) -> Option<String> {
    let lower = word.to_lowercase();
    if !VERBS.contains(&lower.as_str()) {
        return None;
    }
    let b = lower.as_bytes();
    let vowel = |c: u8| b"aeiou".contains(&c);
    let one_syllable = lower.bytes().filter(|&c| vowel(c)).count() == 1;
    let ing = if lower.ends_with("ie") {
        format!("{}ying", &lower[..lower.len() - 2])
    } else if lower.ends_with('e') && !lower.ends_with("ee") && lower.len() > 2 {
        format!("{}ing", &lower[..lower.len() - 1])
    } else if one_syllable
        && b.len() >= 3
        && !vowel(b[b.len() - 1])
        && !b"wxy".contains(&b[b.len() - 1])
        && vowel(b[b.len() - 2])
        && !vowel(b[b.len() - 3])
    {
        format!("{lower}{}ing", &lower[lower.len() - 1..])
    } else {
        format!("{lower}ing")
    };
    let mut c = ing.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect())
}
