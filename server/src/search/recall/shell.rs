//! Recall for a shell command or a failure: the prose ranking with the code evidence of `search::commands` as a second opinion.

use rustc_hash::FxHashMap as HashMap;

use super::{cut_query, logistic, rank_in, Evidence, Features, Ranked, Recalled, MAX_TEXT_BYTES};
use crate::model::Workspace;
use crate::search::bm25::Bm25;
use crate::search::TriggerQuery;
use crate::syntax::normalize;

/// Ranks decisions for a shell command about to run, or a failure's output
/// and its command: the prose ranking of [`super::recall`], with the code evidence
/// of [`super::commands`] as a second opinion. A decision whose code names
/// the command's rare terms (its sub-command and flags, the paths it
/// touches), clearly more than any other decision's does, gets
/// [`code_confidence`] when that is higher than its prose confidence.
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
    let code = code(text);
    if let Some(best) = code.first() {
        let second = code.get(1).map_or(0.0, |x| x.mass);
        let lead = (best.mass - second) / best.mass;
        let prose = out.iter().find(|r| r.entry == best.entry).map_or(0.0, |r| r.confidence);
        let c = code_confidence(best.mass, best.paths, lead, prose, best.named);
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

/// A command's text without the commit messages it carries: the quoted
/// argument of `-m`/`--message` given to a version-control program (`git
/// commit -m "fix worktree tasks"`, `git stash push -m …`). The message
/// describes work already done; the command records it: it is a commit, not
/// a decision about worktrees (measured: `git commit --no-verify -m "Fix
/// session … worktree tasks"` was answered at 0.82 with *When Validating
/// Worktree Merges*). Other programs keep their messages (`alembic revision
/// -m 'migrate the booking schema'` says what is about to be written), and
/// error text keeps its quotes (`run 'git branch -D wt-x'`).
pub fn without_messages(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['"', '\'']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // The segment's first word, and whether the last word was a message flag.
    let (mut program, mut message_flag) = ("", false);
    let (mut word_start, mut i, mut kept) = (0, 0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || matches!(b, b';' | b'|' | b'&' | b'(' | b')') {
            let word = &text[word_start..i];
            if !word.is_empty() {
                message_flag = matches!(word, "-m" | "--message" | "-am");
                if program.is_empty() {
                    program = word.rsplit('/').next().unwrap_or(word);
                }
            }
            if matches!(b, b'\n' | b';' | b'|' | b'&' | b'(' | b')') {
                (program, message_flag) = ("", false);
            }
            i += 1;
            word_start = i;
            continue;
        }
        let vcs = matches!(program, "git" | "hg" | "jj" | "svn");
        let opens = vcs
            && matches!(b, b'"' | b'\'')
            && (i == word_start && message_flag || &text[word_start..i] == "--message=");
        if opens {
            let close = text[i + 1..].find(b as char).map_or(text.len(), |n| i + 1 + n + 1);
            out.push_str(&text[kept..i]);
            kept = close;
            i = close;
            word_start = i;
            message_flag = false;
            continue;
        }
        i += 1;
    }
    if kept == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[kept..]);
    std::borrow::Cow::Owned(out)
}

/// The confidence code evidence gives the leading decision: `mass` is the
/// shared terms' weight, `paths` its part from paths and file names, `lead`
/// how far the leader is ahead of the next decision's code,
/// `(best - second) / best`, and `prose` the leader's confidence from the
/// prose ranking.
pub fn code_confidence(mass: f64, paths: f64, lead: f64, prose: f64, named: bool) -> f64 {
    let w = CODE_WEIGHTS;
    let named = if named { 1.0 } else { 0.0 };
    logistic(w[0] + w[1] * mass.min(4.0) + w[2] * paths.min(4.0) + w[3] * lead + w[4] * prose + w[5] * named)
}

/// Weights of [`code_confidence`]: intercept, mass, paths, lead, prose. Set
/// by hand on `server/tests/data/commands-head.tsv` (too few cases to fit
/// five weights): a decision's code must name the command's rare terms,
/// paths above all, and lead every other decision's code; a tie (two
/// decisions about `agents/session.md`) or a program alone stays under the
/// hook's thresholds. Measured on a held-out set: docs/resolver.md.
pub const CODE_WEIGHTS: [f64; 6] = [-5.0, 1.2, 0.8, 3.0, 2.0, 2.5];
