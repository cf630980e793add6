//! Commands and error output as evidence: the programs, sub-commands, flags and paths a shell command or a failure names, matched against those a decision's code spans name.
//!
//! Prose ranking reads `git branch -D wt-x` as the words "git", "branch",
//! "wt"; a decision whose anti-pattern is `git branch -D` shares them with
//! every decision about branches. Here a command is read as a command:
//! each segment (split at `&&`, `||`, `;`, `|`) gives its program
//! (`prog:git`), its sub-command (`sub:git branch`, and with the plain
//! word after it: `sub:npm run flint`), each flag with its
//! program and sub-command (`flag:git branch -D`), and each path
//! (`path:.git/index.lock`, `file:index.lock`, `dir:plans/`). A decision
//! gives the same terms from its inline code spans and fenced code, and
//! the rule codes its prose cites (`rule:D205`); error text gives its
//! paths and files, and the rule codes it reports ([`rules`]). A term
//! counts by how few decisions name it (idf over decisions, in units of a
//! term one decision has), so `git` alone weighs little and `git branch
//! -D` a lot.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::model::{EntryId, Workspace};

/// Most code terms read per decision body (bytes of body scanned).
const BODY_BYTES: usize = 64 * 1024;
/// Words that only run another command: the program is the word after them.
const WRAPPERS: [&str; 8] = ["sudo", "env", "time", "nohup", "exec", "command", "xargs", "timeout"];
/// Package runners: the program is the word after them (`npx prettier`).
const RUNNERS: [&str; 3] = ["npx", "bunx", "pnpx"];
/// Runners of two words: the program is the word after both (`uv run
/// pytest`; `python -m pytest` is read the same way).
const RUN_VERBS: [(&str, &str); 8] = [
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("rye", "run"),
    ("pipx", "run"),
    ("pnpm", "exec"),
];
/// A runner's options that take a value (`uv run --with pytest-cov pytest`).
const RUNNER_VALUES: [&str; 12] = [
    "--with",
    "--python",
    "-p",
    "--package",
    "--project",
    "--directory",
    "--extra",
    "--group",
    "--env-file",
    "--from",
    "--filter",
    "--index",
];

/// Where the program of a command's words is: after assignments and
/// wrappers (`FOO=1 sudo git …`) and through runners and their options
/// (`uv run --frozen pytest …`, `.venv/bin/python -m pytest …`, `npx -y
/// prettier …`). A runner with nothing after it is the program itself.
pub fn program_at(words: &[&str]) -> usize {
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        if w.contains('=') && !w.starts_with('-') || WRAPPERS.contains(&w) {
            i += 1;
            continue;
        }
        let base = w.rsplit('/').next().unwrap_or(w);
        let next = words.get(i + 1).copied().unwrap_or_default();
        let python = base.strip_prefix("python").is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'));
        let skip = if RUNNERS.contains(&base) {
            1
        } else if RUN_VERBS.contains(&(base, next)) || python && next == "-m" {
            2
        } else {
            break;
        };
        let mut j = i + skip;
        while let Some(o) = words.get(j).filter(|o| o.starts_with('-')) {
            j += if RUNNER_VALUES.contains(o) { 2 } else { 1 };
        }
        if j >= words.len() {
            break;
        }
        i = j;
    }
    i
}

/// The technical terms the decisions' code names: per term, the entries
/// (binding order) whose decision names it; a term's document frequency is
/// their number.
#[derive(Debug, Default)]
pub struct CodeIndex {
    postings: HashMap<String, Vec<u32>>,
    docs: u32,
}

impl CodeIndex {
    /// Reads every bound entry's decision (title and body code spans).
    pub fn build(ws: &Workspace) -> Self {
        let b = ws.bindings();
        let mut idx = CodeIndex::default();
        for (i, e) in b.entries.iter().enumerate() {
            let Some(hid) = e.heading.filter(|&hid| ws.heading(hid).is_some()) else { continue };
            idx.docs += 1;
            let mut set = HashSet::default();
            let body = crate::text::cut(ws.section_body(hid), BODY_BYTES);
            for span in code_spans(body) {
                command_terms(span, &mut set);
                span_shapes(span, &mut set);
            }
            // Rule codes count in prose too (`triggers ruff D205`).
            rule_terms(body, &mut set);
            for t in set {
                idx.postings.entry(t).or_default().push(i as u32);
            }
        }
        idx
    }

    /// How many decisions were read.
    pub fn docs(&self) -> u32 {
        self.docs
    }

    /// Every term with its entries (ascending), in no particular order.
    pub fn terms(&self) -> impl Iterator<Item = (&str, &[u32])> {
        self.postings.iter().map(|(t, e)| (t.as_str(), e.as_slice()))
    }

    /// For `text` (a command, or an error and its command): each entry whose
    /// code shares terms with it, best first, with the shared terms' weight
    /// ([`Scored`]).
    pub fn score(&self, text: &str) -> Vec<Scored> {
        score(text, self.docs, &|t| self.postings.get(t).cloned())
    }
}

/// [`CodeIndex::score`] over any store of the index: `docs` decisions read,
/// and each term's entries (ascending) from `postings`. (The recall view
/// keeps the same index as bytes.)
pub fn score(text: &str, docs: u32, postings: &dyn Fn(&str) -> Option<Vec<u32>>) -> Vec<Scored> {
    let (mut q, mut runs) = (HashSet::default(), HashSet::default());
    let named_flag =
        |program: &str, flag: &str| postings(&format!("flag:{program} {flag}")).is_some_and(|e| !e.is_empty());
    let mut budget = MAX_SHAPES;
    for line in text.lines().take(400) {
        command_terms(line, &mut q);
        run_shapes(line, &named_flag, &mut budget, &mut runs);
        rule_terms(line, &mut q);
    }
    // The entries whose code names a shape the text runs.
    let mut named: HashSet<u32> = HashSet::default();
    for shape in &runs {
        named.extend(postings(shape).unwrap_or_default());
    }
    // The idf of a term named by `df` decisions, in units of a term one decision names.
    let idf = |df: usize| {
        let n = f64::from(docs);
        ((n - df as f64 + 0.5) / (df as f64 + 0.5) + 1.0).ln()
    };
    let unit = idf(1).max(f64::MIN_POSITIVE);
    let weights: Vec<(Vec<u32>, f64, bool)> = q
        .iter()
        .filter_map(|t| {
            let exact = t.starts_with("path:") || t.starts_with("file:") || t.starts_with("rule:");
            let entries = postings(t).filter(|e| !e.is_empty())?;
            let w = kind_weight(t) * idf(entries.len()) / unit;
            Some((entries, w, exact))
        })
        .collect();
    // Each entry's sums, its terms added in the query's order.
    let mut sums: HashMap<u32, (f64, f64)> = HashMap::default();
    for (entries, w, exact) in &weights {
        for &e in entries {
            let s = sums.entry(e).or_default();
            s.0 += w;
            if *exact {
                s.1 += w;
            }
        }
    }
    let mut out: Vec<Scored> = sums
        .into_iter()
        .filter(|(_, (mass, _))| *mass > 0.0)
        .map(|(e, (mass, paths))| Scored { entry: EntryId(e), mass, paths, named: named.contains(&e) })
        .collect();
    out.sort_by(|a, b| b.mass.total_cmp(&a.mass).then(a.entry.cmp(&b.entry)));
    out
}

/// One entry's code evidence for a command or a failure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    pub entry: EntryId,
    /// The shared terms' idf (over decisions, in units of a term one
    /// decision names) times their kind's weight ([`kind_weight`]), summed.
    pub mass: f64,
    /// The part of `mass` from exact names: paths, file names and rule
    /// codes (`D205`).
    pub paths: f64,
    /// The decision's code names a way of running a program that the text
    /// runs: the program with every flag one of its code spans gives it
    /// ([`span_shapes`], [`run_shapes`]).
    pub named: bool,
}

/// How much a term of its kind says on its own: a program alone (`cat`,
/// `git`) says little about which decision applies, a top folder
/// (`plans/`) or a flag (`--oneline`) a little more, a sub-command more,
/// a path or a file name the most (a decision that names
/// `.git/index.lock` is about it).
fn kind_weight(term: &str) -> f64 {
    match term.split(':').next() {
        Some("prog") => 0.25,
        Some("dir" | "flag") => 0.5,
        Some("sub") => 0.75,
        _ => 1.0,
    }
}

/// The code of a Markdown body: inline code spans and the lines of fenced blocks.
fn code_spans(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in body.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            out.push(line);
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find('`') {
            let after = &rest[start + 1..];
            let Some(len) = after.find('`') else { break };
            out.push(&after[..len]);
            rest = &after[len + 1..];
        }
    }
    out
}

/// One command of a line: its program (when the first word is one), its
/// sub-command, its flags (without values: `--since=x` is `--since`) and
/// every other word.
struct Segment<'a> {
    program: Option<&'a str>,
    sub: Option<&'a str>,
    /// The plain word right after the sub-command (`npm run flint`, `uv pip install`, `gh pr create`).
    sub2: Option<&'a str>,
    flags: Vec<&'a str>,
    others: Vec<&'a str>,
}

/// The commands of `text` (split at `|`, `;`, `&`, parentheses and lines).
fn segments(text: &str) -> impl Iterator<Item = Segment<'_>> {
    text.split(['|', ';', '&', '\n', '(', ')']).filter_map(|segment| {
        let words: Vec<&str> = segment.split_whitespace().map(|w| w.trim_matches(['"', '\'', ',', '`'])).collect();
        let i = program_at(&words);
        let first = words.get(i)?;
        let program = first.rsplit('/').next().unwrap_or(first);
        let is_program = !program.is_empty()
            && program.len() <= 32
            && program.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && program.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && !program.contains('.');
        let mut seg = Segment { program: None, sub: None, sub2: None, flags: Vec::new(), others: Vec::new() };
        if is_program {
            seg.program = Some(program);
            // `git -C dir worktree …`: the sub-command is the first plain word.
            let mut j = i + 1;
            while j < words.len() && words[j].starts_with('-') {
                j += if matches!(words[j], "-C" | "-c") { 2 } else { 1 };
            }
            seg.sub = words.get(j).copied().filter(|w| is_word(w));
            seg.sub2 = seg.sub.and(words.get(j + 1).copied()).filter(|w| is_word(w));
        }
        for w in &words[i..] {
            match w.strip_prefix('-').filter(|_| is_program) {
                Some(flag) => {
                    let flag = flag.split('=').next().unwrap_or(flag);
                    if !flag.is_empty() && flag.len() <= 32 && !flag.contains('/') {
                        seg.flags.push(&w[..flag.len() + 1]);
                    }
                }
                None => seg.others.push(w),
            }
        }
        Some(seg)
    })
}

/// Adds the terms of `text` (one command line, a code span, a line of error output) to `out`.
pub fn command_terms(text: &str, out: &mut HashSet<String>) {
    for seg in segments(text) {
        if let Some(program) = seg.program {
            out.insert(format!("prog:{program}"));
            if let Some(w) = seg.sub {
                out.insert(format!("sub:{program} {w}"));
                if let Some(w2) = seg.sub2 {
                    out.insert(format!("sub:{program} {w} {w2}"));
                }
            }
            for flag in &seg.flags {
                out.insert(format!("flag:{program} {flag}"));
                if let Some(s) = seg.sub {
                    out.insert(format!("flag:{program} {s} {flag}"));
                }
            }
        }
        for w in &seg.others {
            path_terms(w, out);
        }
    }
}

/// Most shapes looked up for one text, over all its lines and commands (a
/// pasted log of flag-laden lines stops adding them here).
const MAX_SHAPES: usize = 1024;

/// A plain word: letters, digits, `-` and `_`, starting with a letter (a sub-command, not a path or a value).
fn is_word(w: &str) -> bool {
    w.len() <= 32
        && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
}

/// The path terms of a word that names a file or folder (`.git/index.lock`,
/// `agents/session.md`, `plans/`, `feature:plans/x/design.md`).
fn path_terms(word: &str, out: &mut HashSet<String>) {
    let punct =
        |c: char| matches!(c, ':' | ')' | '(' | '<' | '>' | '[' | ']' | '{' | '}' | '"' | '\'' | ',' | ';' | '`');
    let w = word.trim_matches(punct);
    let w = w.rsplit_once(':').map_or(w, |(_, p)| p).trim_start_matches("./").trim_end_matches(['.', ',', ':']);
    if w.len() < 3 || w.len() > 200 || w.contains("://") || w.contains('<') || w.contains('*') && !w.contains('/') {
        return;
    }
    let has_ext = w.rsplit('/').next().is_some_and(|f| {
        f.rsplit_once('.').is_some_and(|(stem, ext)| {
            !ext.is_empty() && ext.len() <= 8 && ext.chars().all(|c| c.is_ascii_alphanumeric()) && !stem.is_empty()
                || stem.is_empty() && ext.len() >= 2
        })
    });
    if !w.contains('/') && !has_ext {
        return;
    }
    let lower = w.to_lowercase();
    if lower.contains('/') {
        let path = lower.trim_end_matches('/');
        out.insert(format!("path:{path}"));
        // Its last two and three components, so `/home/me/repo/.git/index.lock`
        // in an error meets `.git/index.lock` in a decision.
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        for n in [2, 3] {
            if parts.len() > n {
                out.insert(format!("path:{}", parts[parts.len() - n..].join("/")));
            }
        }
        if let Some((dir, _)) = lower.split_once('/') {
            // A project folder (`plans/`), not the root of an absolute path.
            if !dir.is_empty() && dir != ".." && dir != "~" {
                out.insert(format!("dir:{dir}/"));
            }
        }
    }
    if has_ext {
        let file = lower.rsplit('/').next().unwrap_or(&lower);
        out.insert(format!("file:{file}"));
    }
}

mod rules;
mod shapes;
use rules::rule_terms;
pub use shapes::{run_shapes, span_shapes};

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(s: &str) -> Vec<String> {
        let mut set = HashSet::default();
        command_terms(s, &mut set);
        let mut v: Vec<String> = set.into_iter().collect();
        v.sort();
        v
    }

    #[test]
    fn a_command_gives_its_program_sub_command_flags_and_paths() {
        assert_eq!(
            terms("git branch -D wt-x && rm -f .git/index.lock"),
            [
                "dir:.git/",
                "file:index.lock",
                "flag:git -D",
                "flag:git branch -D",
                "flag:rm -f",
                "path:.git/index.lock",
                "prog:git",
                "prog:rm",
                "sub:git branch",
            ]
        );
        assert!(terms("sudo FOO=1 git -C plugin worktree add --detach ../wt HEAD").contains(&"sub:git worktree".into()));
        assert!(terms("git show feature:plans/x/design.md").contains(&"path:plans/x/design.md".into()));
        assert_eq!(terms("ls: cannot access '/nope/x.md': No such file"), ["file:x.md", "path:/nope/x.md"]);
        let lock = terms("fatal: Unable to create '/home/me/repo/.git/index.lock': File exists.");
        assert!(lock.contains(&"path:.git/index.lock".into()) && lock.contains(&"file:index.lock".into()), "{lock:?}");
        assert!(terms("").is_empty());
    }

    #[test]
    fn runners_are_read_through() {
        assert!(terms("uv run pytest --lf").contains(&"flag:pytest --lf".into()));
        assert!(terms("python3 -m pytest -x tests/").contains(&"prog:pytest".into()));
        assert!(terms(".venv/bin/python3.12 -m pytest -x").contains(&"flag:pytest -x".into()));
        assert!(terms("npx -y prettier --check .").contains(&"prog:prettier".into()));
        assert!(terms("uv run --frozen --with pytest-cov pytest -x").contains(&"flag:pytest -x".into()));
        assert!(terms("uv sync").contains(&"sub:uv sync".into()), "not a runner without `run`");
        assert!(terms("uv run").contains(&"sub:uv run".into()), "a runner alone is the program");
        assert!(terms("npx").contains(&"prog:npx".into()));
    }

    #[test]
    fn the_word_after_a_sub_command_names_it_further() {
        // A script, a sub-command's own sub-command: what a rules file names (`npm run flint`).
        for (cmd, term) in [
            ("npm run flint", "sub:npm run flint"),
            ("uv pip install -e .", "sub:uv pip install"),
            ("gh pr create --fill", "sub:gh pr create"),
        ] {
            assert!(terms(cmd).contains(&term.into()), "{cmd}: {:?}", terms(cmd));
        }
        // A flag or a path right after the sub-command is not one.
        assert!(!terms("git commit --amend x").iter().any(|t| t.starts_with("sub:git commit ")));
        assert!(!terms("git add src/a.rs").iter().any(|t| t.starts_with("sub:git add ")));
    }

    #[test]
    fn code_spans_are_inline_code_and_fenced_lines() {
        let body = "Never run `git branch -D` here.\n\n```sh\njust precommit\n```\nAnd `x`.\n";
        assert_eq!(code_spans(body), ["git branch -D", "just precommit", "x"]);
    }
}
