//! Capture without being asked (pure): the statements in which the person settled something in a session ("from now on …", "we decided …", "never …"), and the reason the hook gives the agent to write them down when the memory does not hold them yet.
//!
//! A statement is one sentence of a prompt the person typed (never the
//! agent's words, never a tool's output, never what a prompt pastes in a
//! code block or what an agent adds to it between tags such as
//! `<system-reminder>`) that reads as a standing rule about the project:
//! - it starts with `always`, `never`, `don't`, `do not`, `stop`
//!   (`stop using …`) or `please always/never`, as an instruction (not a
//!   description: `never seen this error`, `always the same error`, `don't
//!   know why`, see [`instruction`]); or
//! - it says it is a rule: `from now on`, `going forward`, `in future`,
//!   `from here on`, `we decided`, `we've decided`, `we agreed`, `the rule
//!   is`, `our convention is`, `the convention is`, `make sure you always`,
//!   `remember to`, `remember that`, `for this project`;
//! - and it is not a question, not `never mind`, not scoped to now or a
//!   later hour ([`ONE_OFF`]), not about how the agent talks to the person
//!   ([`CONVERSATION`]: `from now on, answer in French` is a preference,
//!   not the project's), and has at least four words (a rule says what and
//!   when).
//!
//! A statement the memory already holds (the ranking finds a decision for
//! it at `[recall] prompt` or more, as the hook would inject it) is left out. The reason quotes at most
//! [`MAX_QUOTED`] statements, each cut to [`QUOTE_CHARS`] characters, and
//! asks the agent to record each with the remember skill, or to say why it
//! need not (a one-off, already recorded elsewhere).

use crate::model::Workspace;
use crate::search::recall::recall;

/// Most statements quoted in one reason.
pub const MAX_QUOTED: usize = 3;
/// Longest quote (characters).
pub const QUOTE_CHARS: usize = 200;

/// Phrases that make a sentence a standing rule wherever they stand.
const RULE_PHRASES: &[&str] = &[
    "from now on",
    "going forward",
    "in future,",
    "in the future,",
    "from here on",
    "we decided",
    "we've decided",
    "we have decided",
    "we agreed",
    "we've agreed",
    "the rule is",
    "our convention is",
    "the convention is",
    "make sure you always",
    "remember to ",
    "remember that",
    "for this project,",
    "in this project we",
    "we settled on",
    "we've settled on",
    "the team agreed",
    "the team decided",
    "our policy is",
    "house style",
    "make it a rule",
    "as a rule,",
    "in this codebase we",
    "in this repo we",
    "please remember",
    "remember:",
    "note for next time",
    "for next time,",
    "we standardized on",
    "we've standardized on",
    "we standardised on",
    "we've standardised on",
    "every pr must",
    "every pull request must",
    "don't ever",
    "do not ever",
];

/// Words that scope a sentence to this turn, this change or a later day: an
/// instruction for now (`don't push yet`, `don't change the API in this
/// PR`, `we decided to look at it tomorrow`), not a standing rule.
const ONE_OFF: &[&str] = &[
    "yet",
    "for now",
    "this time",
    "right now",
    "in this pr",
    "in this change",
    "in this commit",
    "in this branch",
    "this one",
    "today",
    "tomorrow",
    "next week",
    "for the moment",
    "not now",
    "minutes",
    "this morning",
    "this afternoon",
    "tonight",
    "lunch",
];

/// Words that make a sentence about how the agent talks to the person: a
/// preference of this conversation, not a decision of the project (found by
/// review: "from now on, answer in French" was to be recorded).
const CONVERSATION: &[&str] = &[
    "answer in",
    "reply in",
    "respond in",
    "talk to me",
    "speak to me",
    "be concise",
    "be brief",
    "be more concise",
    "your answers",
    "your replies",
    "your responses",
    "emoji",
    "emojis",
    "call me",
];

/// Words that say a statement holds beyond this task (`… that's the
/// convention everywhere`, `policy: …`, `keep it that way`): with a
/// [`NORMATIVE`] word in the same sentence, a rule however it is worded.
const STANDING: &[&str] = &[
    "convention",
    "is the standard",
    "the standard for",
    "our standard",
    "policy",
    "house style",
    "hard rule",
    "a rule",
    "the rule",
    "rule for",
    "repo-wide",
    "codebase-wide",
    "everywhere",
    "across the codebase",
    "across the repo",
    "all future",
    "going fwd",
    "permanent",
    "standing requirement",
    "decision made",
    "make it official",
    "for future work",
    "that's how we do it",
    "thats how we do it",
    "keep it that way",
    "for all our",
];

/// Words that make a sentence say how things must be done.
const NORMATIVE: &[&str] = &[
    "must",
    "never",
    "always",
    "only",
    "don't",
    "dont",
    "do not",
    "not",
    "no",
    "use",
    "should",
    "follow",
    "requires",
    "required",
    "goes through",
    "go through",
    "live in",
    "lives in",
    "are named",
];

/// Words before a rule that do not change it: `no, don't use unwrap…`
/// (a correction), `we always squash…`, `let's never…`.
const LEADS: &[&str] =
    &["no, ", "no - ", "no — ", "nope, ", "and ", "also, ", "also ", "ok, ", "okay, ", "we ", "let's ", "lets "];

/// Words that make a sentence an instruction when it starts with them.
const RULE_STARTS: &[&str] = &[
    "always ",
    "never ",
    "don't ",
    "do not ",
    "dont ",
    "stop using ",
    "please always ",
    "please never ",
    "please don't ",
];

/// The sentences of `prompts` that read as rules the person settled, in order, without repeats.
pub fn settled(prompts: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for prompt in prompts {
        let mut prev: Option<String> = None; // the sentence before, lowercase, when it says how things must be
        for sentence in sentences(&untagged(prompt)) {
            let lower = sentence.to_lowercase();
            let normative_before = prev.take();
            let mut rule = lower.as_str();
            for _ in 0..2 {
                if let Some(rest) = LEADS.iter().find_map(|l| rule.strip_prefix(l)) {
                    rule = rest;
                }
            }
            // A cue inside quotes is what something else said (`CI says "every PR must …"`).
            let unquoted = without_quotes(&lower);
            // The words that say how things must be, outside the words that say it stands.
            let mut rest = unquoted.clone();
            let mut standing = false;
            for w in STANDING {
                if has_words(&rest, w) {
                    standing = true;
                    rest = rest.replace(w, " ");
                }
            }
            let normative = NORMATIVE.iter().any(|w| has_words(&rest, w));
            let one_off = ONE_OFF.iter().chain(CONVERSATION).any(|w| has_words(&lower, w));
            let question = lower.ends_with('?');
            if normative && !one_off && !question {
                prev = Some(sentence.clone());
            }
            if question || lower.contains("never mind") || one_off {
                continue;
            }
            let starts = RULE_STARTS.iter().any(|s| rule.starts_with(s)) && instruction(rule);
            let says = RULE_PHRASES.iter().any(|p| unquoted.contains(p)) || (standing && normative);
            // `all timestamps are stored in UTC, convert on display only. that's the convention everywhere`
            let sentence = match (starts || says, standing, normative_before) {
                (true, _, _) if rule.split_whitespace().count() >= 4 => sentence,
                (false, true, Some(before)) if !out.iter().any(|o| o.eq_ignore_ascii_case(&before)) => {
                    format!("{before} {sentence}")
                }
                _ => continue,
            };
            if !out.iter().any(|o| o.eq_ignore_ascii_case(&sentence)) {
                out.push(sentence);
            }
        }
    }
    out
}

/// Whether a sentence that starts with `always`/`never`/`don't` instructs
/// (`never retry a payment`) rather than describes (`never seen this error`,
/// `always the same error`, `don't know why`): the word after it is not one
/// that describes what happened or how the person feels.
fn instruction(lower: &str) -> bool {
    const DESCRIBES: &[&str] = &[
        "the",
        "a",
        "an",
        "same",
        "get",
        "gets",
        "got",
        "fails",
        "failed",
        "was",
        "were",
        "is",
        "has",
        "had",
        "happens",
        "happened",
        "takes",
        "took",
        "worked",
        "works",
        "seems",
        "returns",
        "prints",
        "ends",
        "seen",
        "been",
        "heard",
        "knew",
        "thought",
        "saw",
        "did",
        "finishes",
        "finished",
        "know",
        "understand",
        "see",
        "worry",
        "care",
        "think",
        "remember",
        "mind",
        "have",
        "want",
        "like",
        "need",
        // A prediction, not an instruction: `never gonna give you up`, `always going to fail`.
        "gonna",
        "going",
    ];
    let mut words = lower.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if first == "please" {
        first = words.next().unwrap_or("");
    }
    if first == "do" {
        words.next(); // `do not`
    }
    words.next().is_none_or(|w| !DESCRIBES.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())))
}

/// Whether `text` has `words` as whole words (`in this pr` is not in `in this project`).
fn has_words(text: &str, words: &str) -> bool {
    text.match_indices(words).any(|(at, w)| {
        let before = text[..at].chars().next_back();
        let after = text[at + w.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// `text` without what stands between double quotes.
fn without_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        }
    }
    out
}

/// `text` without what stands between an opening and a closing tag of the
/// same name (`<system-reminder>` … `</system-reminder>`, `<command-name>`):
/// what an agent or its harness put in the person's message (found by
/// review: a reminder's "From now on, be concise." was quoted, tag and all).
/// An opening tag never closed is kept, as the person's text.
fn untagged(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("</") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let name_len =
            after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).unwrap_or(after.len());
        let name = &after[..name_len];
        let tag_end = after[name_len..].find('>').map(|i| open + 1 + name_len + i + 1);
        let close = format!("</{name}>");
        let closed = tag_end.filter(|_| !name.is_empty() && name.as_bytes()[0].is_ascii_alphabetic());
        match closed.and_then(|end| rest[end..].find(&close).map(|c| end + c + close.len())) {
            Some(end) => {
                out.push_str(&rest[..open]);
                out.push('\n');
                rest = &rest[end..];
            }
            None => {
                out.push_str(&rest[..open + 1]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// A prompt's sentences: split at `.`, `!`, `?` followed by a space or the
/// end, and at line breaks; code spans and quotes kept whole; trimmed. What
/// a fenced code block holds is pasted, not said (found by review: a log
/// line with "from now on" was quoted as the person's rule).
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        let line = line.trim().trim_start_matches(['-', '*', '>']).trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.is_empty() {
            continue;
        }
        let mut start = 0;
        let mut in_code = false;
        let bytes = line.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'`' => in_code = !in_code,
                b'.' | b'!' | b'?' if !in_code && bytes.get(i + 1).is_none_or(|n| *n == b' ') => {
                    let s = line[start..=i].trim();
                    if !s.is_empty() {
                        out.push(s.to_string());
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        let rest = line[start..].trim();
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
    }
    out
}

/// The statements of `prompts` the memory does not hold yet: no decision
/// ranks for them at `[recall] prompt`, the confidence at which the hook
/// would inject it (so the agent was shown it already, or will be).
pub fn unrecorded(ws: &Workspace, prompts: &[&str]) -> Vec<String> {
    let floor = ws.config().recall.prompt;
    settled(prompts).into_iter().filter(|s| recall(ws, s, 1).first().is_none_or(|r| r.confidence < floor)).collect()
}

/// The reason the hook gives when it blocks the stop: the statements, quoted, and what to do.
pub fn reason(statements: &[String]) -> Option<String> {
    if statements.is_empty() {
        return None;
    }
    let quotes: Vec<String> = statements
        .iter()
        .take(MAX_QUOTED)
        .map(|s| {
            let cut: String = s.chars().take(QUOTE_CHARS).collect();
            let more = if s.chars().count() > QUOTE_CHARS { "…" } else { "" };
            format!("- \"{}{more}\"", cut.replace(['\n', '\r'], " "))
        })
        .collect();
    let also = match statements.len().saturating_sub(MAX_QUOTED) {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    Some(format!(
        "memory-index: in this session the person may have settled something the project's memory does not hold yet{also}:\n{}\n\
If it is a lasting rule, record it with the `remember` skill, the MCP tool `remember` or `memory-index-lsp remember \
--when \"<title>\" --body-file -` (add `--file NAME` if it asks for one): the title says when it applies, the body what the \
person decided, in their words (a reason only if they gave one). If it was a one-off or is already recorded, say so in \
one line instead. This reminder comes once per session.",
        quotes.join("\n")
    ))
}

#[cfg(test)]
mod tests;
