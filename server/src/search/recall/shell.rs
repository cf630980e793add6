//! Recall for a shell command or a failure: the prose ranking with the code evidence of `search::commands` as a second opinion.

use rustc_hash::FxHashMap as HashMap;

use super::{cut_query, logistic, rank_in, Evidence, Features, Ranked, Recalled, MAX_TEXT_BYTES};
use crate::model::Workspace;
use crate::search::bm25::Bm25;
use crate::search::TriggerQuery;
use crate::syntax::normalize;

/// Ranks decisions for a shell command about to run, or a failure's output
/// and its command: the prose ranking of [`super::recall`], with the code evidence
/// of [`crate::search::commands`] as a second opinion. A decision whose code names
/// the command's rare terms (its sub-command and flags, the paths it
/// touches), clearly more than any other decision's does, gets
/// [`code_confidence`] when that is higher than its prose confidence, at
/// most [`UNBACKED_CODE`] unless its code names how the command runs or
/// the prose ranking puts it first.
pub fn recall_command(ws: &Workspace, text: &str, limit: usize) -> Vec<Recalled> {
    let idx = crate::search::index::of(ws);
    recall_command_in(ws, || idx.bm25(ws), &|t| idx.code(ws).score(t), text, limit)
}

/// [`recall_command`] from any [`Ranked`] source, its BM25 index and its
/// code evidence (`code`: [`crate::search::commands::CodeIndex::score`] or the same
/// over a recall view).
pub fn recall_command_from(
    src: &dyn Ranked,
    bm: &Bm25,
    code: &dyn Fn(&str) -> Vec<crate::search::commands::Scored>,
    text: &str,
    limit: usize,
) -> Vec<Recalled> {
    recall_command_in(src, || bm, code, text, limit)
}

fn recall_command_in<'a>(
    src: &dyn Ranked,
    bm: impl FnOnce() -> &'a Bm25,
    code: &dyn Fn(&str) -> Vec<crate::search::commands::Scored>,
    text: &str,
    limit: usize,
) -> Vec<Recalled> {
    let text = crate::text::cut(text, MAX_TEXT_BYTES);
    // No letters-in-order tier: a command's letters spell a command, not a
    // trigger typed with a typo (`git status` matched the letters of *When
    // Running Post-Step Verification* at 0.54).
    let prose = without_messages(text);
    let q = TriggerQuery::parse(&prose);
    let q = cut_query(&q);
    let norm = normalize(&q.text);
    let mut out = rank_in(src, bm, &q, &norm, limit.max(10), &HashMap::default());
    let code = code(&prose);
    if let Some(best) = code.first() {
        let second = code.get(1).map_or(0.0, |x| x.mass);
        let lead = (best.mass - second) / best.mass;
        let prose = out.iter().find(|r| r.entry == best.entry).map_or(0.0, |r| r.confidence);
        // Backed: the decision's code names how the command runs, or its
        // words are what the text is about (its heading: entries that bind
        // one heading score the same code).
        let backed = best.named || out.first().is_some_and(|r| Some(r.heading) == src.target(best.entry));
        let c = code_confidence(best.mass, best.paths, lead, prose, best.named);
        let c = if backed { c } else { c.min(UNBACKED_CODE) };
        match out.iter_mut().find(|r| r.entry == best.entry) {
            Some(r) if r.confidence < c => {
                r.confidence = c;
                r.evidence = Evidence::Code;
            }
            Some(_) => {}
            None => {
                if let Some(heading) = src.target(best.entry) {
                    out.push(Recalled {
                        entry: best.entry,
                        heading,
                        confidence: c,
                        evidence: Evidence::Code,
                        features: Features::default(),
                    });
                }
            }
        }
        out.sort_by(|a, b| b.confidence.total_cmp(&a.confidence).then(a.entry.cmp(&b.entry)));
    }
    out.truncate(limit);
    out
}

/// The most confidence code evidence gives a decision that nothing else
/// backs: its code shares the text's paths, sub-commands or flags, but
/// names no way of running a program that the text runs
/// ([`crate::search::commands::Scored::named`]), and the prose ranking
/// puts another decision first. A decision that names a file for another
/// reason (a plan's outline it cites as its design, a test module in a
/// module tree, the review reports it says how to name) is not what a
/// command that touches the file, and says something else, is about.
/// Measured on the nine command and failure sets written before session 29:
/// every answer code evidence gave at the hooks' thresholds without that
/// backing was wrong (3 of 3: `git rm` of review reports at 0.85, `test -f`
/// of a plan's outline at 0.96, `sed` on a test module at 0.67), and the
/// right first answers it gave were all under the thresholds. Just under
/// even odds, so the hook stays silent at any threshold of 0.5 or more,
/// and no lower, so the order of the first answers does not move.
///
/// The limit: the prose ranking reads a path's words too, so a command
/// that says nothing but the path (`cat plans/x/outline.md`) puts the
/// decision that names it first in both, and that backs it
/// (docs/resolver.md).
pub const UNBACKED_CODE: f64 = 0.49;

/// A command's text with the commit messages it carries read as the word
/// `message`: the quoted argument of `-m`/`--message` given to a
/// version-control program's recording sub-commands (`git commit -m "fix
/// worktree tasks"` is `git commit -m message`; `git stash push -m …`, `hg
/// ci -m …`). The message describes work already done; the command records
/// it: it is a commit, not a decision about worktrees (measured: `git commit
/// --no-verify -m "Fix session … worktree tasks"` was answered at 0.82 with
/// *When Validating Worktree Merges*), and what it does is write a commit
/// message, which a project's commit conventions govern (found by review:
/// *When Writing Commit Messages* stayed at 0.05; thunderbird's imported
/// *Commit Requirements*, Conventional Commits, now reaches 0.65). Other
/// commands keep their quotes: `git branch -m 'old' 'new'` names branches,
/// `alembic revision -m 'migrate the booking schema'` says what is about to
/// be written, and error text names what it advises (`run 'git branch -D
/// wt-x'`).
pub fn without_messages(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['"', '\'']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // The words of the current command so far, and whether the last one was a message flag.
    let (mut words, mut message_flag): (Vec<&str>, bool) = (Vec::new(), false);
    let (mut word_start, mut i, mut kept) = (0, 0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || matches!(b, b';' | b'|' | b'&' | b'(' | b')') {
            let word = &text[word_start..i];
            if !word.is_empty() {
                message_flag = matches!(word, "-m" | "--message" | "-am");
                words.push(word);
            }
            if matches!(b, b'\n' | b';' | b'|' | b'&' | b'(' | b')') {
                (words, message_flag) = (Vec::new(), false);
            }
            i += 1;
            word_start = i;
            continue;
        }
        let opens = matches!(b, b'"' | b'\'')
            && (i == word_start && message_flag || &text[word_start..i] == "--message=")
            && records(&words);
        if opens {
            let close = text[i + 1..].find(b as char).map_or(text.len(), |n| i + 1 + n + 1);
            out.push_str(&text[kept..i]);
            out.push_str("message");
            kept = close;
            i = close;
            word_start = i;
            message_flag = false;
            continue;
        }
        // Any other quote that closes on its line is part of its word
        // (`NAME='A B'`, `-c 'user.name=A B'`, `'a b.md'`): its spaces do
        // not split the command's words. An apostrophe that does not close
        // (`can't`) is a letter.
        if matches!(b, b'"' | b'\'') {
            let end = text[i + 1..].find([b as char, '\n']).map(|n| i + 1 + n);
            if let Some(close) = end.filter(|&c| bytes[c] == b) {
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    if kept == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[kept..]);
    std::borrow::Cow::Owned(out)
}

/// Whether a command's first words are a version-control program's
/// recording sub-command (`git commit`, `git -C x stash push`, `sudo hg ci`).
fn records(words: &[&str]) -> bool {
    let at = crate::search::commands::program_at(words);
    let Some(program) = words.get(at).map(|w| w.rsplit('/').next().unwrap_or(w)) else { return false };
    let mut rest = words[at + 1..].iter().copied();
    let sub = loop {
        match rest.next() {
            Some("-C" | "-c" | "-R" | "--cwd" | "--repository") => {
                rest.next();
            }
            Some(w) if w.starts_with('-') => {}
            other => break other,
        }
    };
    matches!(program, "git" | "hg" | "jj" | "svn")
        && matches!(sub, Some("commit" | "ci" | "stash" | "tag" | "merge" | "revert" | "notes" | "describe" | "new"))
}

/// The confidence code evidence gives the leading decision: `mass` is the
/// shared terms' weight, `paths` its part from exact names (paths, file
/// names, rule codes), `lead` how far the leader is ahead of the next
/// decision's code, `(best - second) / best`, `prose` the leader's
/// confidence from the prose ranking, and `named` whether its code names a
/// way of running a program that the command runs
/// ([`crate::search::commands::Scored::named`]).
pub fn code_confidence(mass: f64, paths: f64, lead: f64, prose: f64, named: bool) -> f64 {
    let w = CODE_WEIGHTS;
    let named = if named { 1.0 } else { 0.0 };
    logistic(w[0] + w[1] * mass.min(4.0) + w[2] * paths.min(4.0) + w[3] * lead + w[4] * prose + w[5] * named)
}

/// Weights of [`code_confidence`]: intercept, mass, paths, lead, prose,
/// named. Set by hand (too few cases to fit six weights): the first five on
/// `server/tests/data/commands-head.tsv`, `named` in session 27 on that set,
/// `commands-head-holdout.tsv` and `commands-head-holdout-2.tsv`. A
/// decision's code must name the command's rare terms, paths above all, and
/// lead every other decision's code; a tie (two decisions about
/// `agents/session.md`) or a program alone stays under the hook's
/// thresholds, and so does a named shape alone (`wc -l src/*.py` against
/// the decision that warns about comparing versions with `wc -l`: 0.32).
/// Measured on sets held out: docs/resolver.md.
pub const CODE_WEIGHTS: [f64; 6] = [-5.0, 1.2, 0.8, 3.0, 2.0, 2.5];
