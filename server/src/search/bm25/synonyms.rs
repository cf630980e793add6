//! The words of a text as ranking reads them: one spelling for what software writing says several ways (`here document` / `heredoc`, `repo` / `repository`), and a query's `wildcard` also read as `glob`.
//!
//! A decision says "heredocs" and zsh prints "can't create temp file for
//! here document"; a decision is about "glob results" and the agent asks
//! about "wildcard file order". The stemmer does not meet these, and the
//! corpus may never use the other spelling, so no co-occurrence learns it.
//! Both sides of the ranking (documents and queries) read each word, or
//! pair of words, of [`pair`] and [`single`] as one canonical word before
//! stemming; a query also reads each word of [`also`] as a second word
//! too, where the word has another meaning a decision may mean (a
//! wildcard certificate), so documents keep it as written.
//!
//! The table is deliberately small and generic: abbreviations and names
//! that mean the same thing in any software project, never a project's own
//! vocabulary, and never a word with a second meaning in software writing
//! (`doc`, `init`, `auth`, `impl`, `temp`, `config` as in `tsconfig`,
//! `standard error` as in "a standard error type" are left alone).
//! Measured: docs/resolver.md.

/// The version of the table: the search snapshot's key hashes it, so a
/// snapshot written under another table is rebuilt. Bump it with any
/// change to [`pair`], [`single`] or [`also`].
pub const VERSION: u32 = 3;

/// Which side of the ranking a text is: a decision's, or a query's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Document,
    Query,
}

/// Calls `f` with each word of `lower` (lowercase text): its alphanumeric
/// runs, each pair of [`pair`] (apart by spaces, one line break or one
/// `-`) read as one word, each word of [`single`] as its canonical
/// spelling, and on the query side each word of [`also`] followed by its
/// second reading. A word joined to another by `_`, `-`, `.` or `/` is
/// part of a name (`adr-config`, `test_config_flow.py`, `tmp/claude`) and
/// stays as it is (other names, `db:migrate` or `$TMP`, are read as words).
/// Chinese and Japanese write words without spaces: a run of their
/// characters is read as its overlapping pairs of characters
/// ([`ideographs`]; found by review, a decision titled in Chinese matched
/// no prompt but its exact title).
pub fn each_word<'a>(lower: &'a str, side: Side, mut f: impl FnMut(&'a str)) {
    let mut words = runs(lower).peekable();
    while let Some((s, e)) = words.next() {
        let w = &lower[s..e];
        if w.chars().any(ideograph) {
            ideographs(w, &mut f);
            continue;
        }
        if let Some(&(s2, e2)) = words.peek() {
            let gap = &lower[e..s2];
            let spaced =
                gap == "-" || !gap.is_empty() && gap.chars().all(char::is_whitespace) && gap.matches('\n').count() <= 1;
            if let Some(one) = pair(w, &lower[s2..e2]).filter(|_| spaced && !joined(lower, s, e2)) {
                words.next();
                f(one);
                continue;
            }
        }
        if joined(lower, s, e) {
            f(w);
            continue;
        }
        f(single(w).unwrap_or(w));
        if side == Side::Query {
            if let Some(second) = also(w) {
                f(second);
            }
        }
    }
}

/// The byte ranges of the alphanumeric runs of `text`.
fn runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut start = None;
    text.char_indices().chain(std::iter::once((text.len(), ' '))).filter_map(move |(i, c)| {
        match (c.is_alphanumeric() && i < text.len(), start) {
            (true, None) => {
                start = Some(i);
                None
            }
            (false, Some(s)) => {
                start = None;
                Some((s, i))
            }
            _ => None,
        }
    })
}

/// A character of a script written without spaces between words: Han,
/// Hiragana, Katakana.
fn ideograph(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// The words of a run that holds [`ideograph`]s: each stretch of them as
/// its overlapping pairs (`数据库` → `数据`, `据库`; one alone as itself),
/// each stretch of other letters as one word (`api设计` → `api`, `设计`).
fn ideographs<'a>(w: &'a str, f: &mut impl FnMut(&'a str)) {
    let mut chars = w.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !ideograph(c) {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if ideograph(d) {
                    break;
                }
                chars.next();
                end = j + d.len_utf8();
            }
            f(&w[i..end]);
            continue;
        }
        match chars.peek() {
            Some(&(j, d)) if ideograph(d) => f(&w[i..j + d.len_utf8()]),
            // The last of a stretch: alone only when the stretch is one character.
            _ if i == 0 || !w[..i].chars().next_back().is_some_and(ideograph) => f(&w[i..i + c.len_utf8()]),
            _ => {}
        }
    }
}

/// Whether the text `lower[s..e]` is joined to a neighbour by a name's punctuation.
fn joined(lower: &str, s: usize, e: usize) -> bool {
    let name = |c: Option<char>| matches!(c, Some('_' | '-' | '.' | '/'));
    let after = lower[e..].chars().next();
    // A sentence's full stop is not a name's: `… the config.` ends the word.
    let after = after.filter(|&c| c != '.' || lower[e + 1..].chars().next().is_some_and(char::is_alphanumeric));
    name(lower[..s].chars().next_back()) || name(after)
}

/// Two words software writing also spells as one (`here document` →
/// `heredoc`, `environment variable` → `envvar`).
fn pair(first: &str, second: &str) -> Option<&'static str> {
    Some(match (first, second) {
        ("here", "document" | "documents" | "doc" | "docs") => "heredoc",
        ("environment" | "env", "variable" | "variables" | "var" | "vars") => "envvar",
        ("pull" | "merge", "request" | "requests") => "pullrequest",
        ("regular", "expression" | "expressions") => "regex",
        ("command", "line") => "cli",
        ("continuous", "integration") => "ci",
        _ => return None,
    })
}

/// One word's canonical spelling, when software writing has several.
fn single(word: &str) -> Option<&'static str> {
    Some(match word {
        "heredocs" => "heredoc",
        "regexp" | "regexps" | "regexes" => "regex",
        "repo" | "repos" | "repositories" => "repository",
        "dir" | "dirs" | "folder" | "folders" | "directories" => "directory",
        "subdir" | "subdirs" | "subfolder" | "subfolders" | "subdirectories" => "subdirectory",
        "arg" | "args" | "arguments" => "argument",
        "param" | "params" | "parameters" => "parameter",
        "dep" | "deps" | "dependencies" => "dependency",
        "db" | "dbs" | "databases" => "database",
        "msg" | "msgs" | "messages" => "message",
        "pr" | "prs" => "pullrequest",
        "tmp" => "temporary",
        "func" | "funcs" | "functions" => "function",
        "envvars" => "envvar",
        _ => return None,
    })
}

/// A query word's second reading, where the word also has a meaning of
/// its own (a wildcard certificate is not a glob): the query reads both.
fn also(word: &str) -> Option<&'static str> {
    Some(match word {
        "wildcard" | "wildcards" => "glob",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_and_japanese_are_read_as_pairs_of_characters() {
        let words = |t: &'static str| {
            let mut out = Vec::new();
            each_word(t, Side::Document, |w| out.push(w));
            out
        };
        assert_eq!(words("数据库迁移"), ["数据", "据库", "库迁", "迁移"]);
        assert_eq!(words("api设计 and 库"), ["api", "设计", "and", "库"]);
        assert_eq!(words("テスト"), ["テス", "スト"]);
        assert_eq!(words("x数y"), ["x", "数", "y"]);
        assert_eq!(words("한국어 word"), ["한국어", "word"], "Korean is written with spaces");
    }

    fn words(s: &str) -> Vec<&str> {
        let mut v = Vec::new();
        each_word(s, Side::Document, |w| v.push(w));
        v
    }

    fn query(s: &str) -> Vec<&str> {
        let mut v = Vec::new();
        each_word(s, Side::Query, |w| v.push(w));
        v
    }

    #[test]
    fn spellings_of_one_thing_read_as_one_word() {
        assert_eq!(
            words("zsh: can't create temp file for here document"),
            ["zsh", "can", "t", "create", "temp", "file", "for", "heredoc"]
        );
        assert_eq!(words("heredocs in the sandbox"), ["heredoc", "in", "the", "sandbox"]);
        assert_eq!(words("here-doc"), ["heredoc"]);
        assert_eq!(words("the repo's config dir."), ["the", "repository", "s", "config", "directory"]);
        // Parts of names are left as they are.
        assert_eq!(
            words("adr-config test_config_flow.py tmp/x"),
            ["adr", "config", "test", "config", "flow", "py", "tmp", "x"]
        );
        assert_eq!(words("command-line, here-doc; pull\n request"), ["cli", "heredoc", "pullrequest"]);
        assert_eq!(words("a here_doc"), ["a", "here", "doc"]);
        // Not across a paragraph.
        assert_eq!(words("pull\n\nrequest"), ["pull", "request"]);
        // A pair's first word alone, or at the end, is itself.
        assert_eq!(words("here we go"), ["here", "we", "go"]);
        assert_eq!(words("standard error"), ["standard", "error"]);
        assert!(words("").is_empty());
    }

    #[test]
    fn a_query_reads_a_word_with_two_meanings_both_ways() {
        assert_eq!(query("wildcard file order"), ["wildcard", "glob", "file", "order"]);
        assert_eq!(words("wildcard certificates"), ["wildcard", "certificates"]);
        assert_eq!(query("the repo"), ["the", "repository"]);
        assert_eq!(query("a-wildcard"), ["a", "wildcard"]);
    }
}
