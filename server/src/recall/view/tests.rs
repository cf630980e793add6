//! The recall view ranks and shows exactly as the workspace it was written from, and refuses bytes it cannot trust.

use super::*;
use crate::model::Workspace;
use crate::recall::inject::{render, Limits, Stale};
use crate::search::bm25::Bm25;
use crate::search::recall::{recall, recall_command, recall_command_from, recall_from};

const INDEX: &str = "# Index\n\n## agents/decisions/testing.md\n\n\
/when writing mock tests | mock patch, test doubles\n\
/when choosing a test runner | nextest\n\
/how split test modules\n\n\
## agents/decisions/git.md\n\n\
/when git lock error occurs | index.lock\n\
/when resolving merge conflicts in the session file after a long rebase of main\n\
/when orphan entry nobody wrote\n";
const TESTING: &str = "# Testing\n\n## When Writing Mock Tests\n\nPatch the name where it is looked up, not where it is defined.\nPrefer fakes for the database layer.\n\n\
## When Choosing A Test Runner\n\nUse nextest in CI; it isolates each test in a process.\n\n\
## How to Split Test Modules\n\nOne test module per feature, under 500 lines.\n";
const GIT: &str = "# Git\n\n## When Git Lock Error Occurs\n\nAnother git process holds `.git/index.lock`: wait, then remove it only if no git runs.\n\
Never `git branch -D` a branch to get past it.\n\n\
## When Resolving Merge Conflicts In The Session File After A Long Rebase Of Main\n\nKeep both sides' tasks; never take one side whole.\n";

fn ws() -> Workspace {
    Workspace::of_files(&[
        ("agents/memory-index.md", INDEX),
        ("agents/decisions/testing.md", TESTING),
        ("agents/decisions/git.md", GIT),
    ])
}

fn view_of(ws: &Workspace) -> View {
    let bytes = encode(ws, 7).expect("a view");
    let letters: Bytes = Arc::new(encode_letters(ws, &bytes).expect("letters"));
    let files: Vec<(String, String)> = ws.files().map(|(_, f)| (f.path.clone(), f.text.clone())).collect();
    let read: Reader = Box::new(move |path, _| files.iter().find(|(p, _)| p == path).map(|(_, t)| t.clone()));
    View::open(Arc::new(bytes), 0, read).expect("opens").with_letters(Box::new(move || Some(letters.clone())))
}

const PROMPTS: [&str; 4] = [
    "the integration suite keeps mocking the wrong module, where should the patch go when the import is elsewhere",
    "which test runner do we use in CI and why does it matter that every test runs in its own process",
    "git says another git process seems to be running and index.lock exists, what do we do about it now",
    "when resolving merge conflicts in the session file after a long rebase of main",
];

/// Blocks from any confidence, at most `max_decisions`, no pointer.
fn limits(max_decisions: usize) -> Limits {
    Limits {
        threshold: 0.0,
        max_decisions,
        max_chars: 6000,
        shell: false,
        skills: true,
        pointer: 0.0,
        max_pointers: 0,
        meaning: 2.0,
    }
}

#[test]
fn a_view_ranks_and_shows_exactly_as_its_workspace() {
    let ws = ws();
    let view = view_of(&ws);
    let bm = Bm25::build(&ws);
    let limits = limits(3);
    let none = |_: &str| false;
    for p in PROMPTS {
        let from_view = recall_from(&view, || view.letters().map(|l| l as _), &bm, p, 12).expect("a long prompt");
        assert_eq!(from_view, recall(&ws, p, 12), "{p}");
        assert!(!from_view.is_empty(), "{p}");
        let shown = render(&view, from_view.clone(), limits, &none).expect("readable");
        assert_eq!(shown, render(&ws, from_view, limits, &none).expect("readable"), "{p}");
        assert!(shown.is_some_and(|s| s.text.starts_with("[memory-index] /")), "{p}");
    }
    // The long trigger, typed exactly: the exact tier, from the view's table.
    let exact = recall_from(&view, || view.letters().map(|l| l as _), &bm, PROMPTS[3], 3).expect("long");
    assert_eq!(exact[0].evidence, crate::search::recall::Evidence::ExactTrigger);
    assert_eq!(view.settings.prompt, ws.config().recall.prompt);
    assert_eq!(view.entries(), ws.bindings().entries.len());
}

/// Short texts: the letters-in-order tier (in order, word forms, typos,
/// the other operator) from the view's names, as from the workspace's.
#[test]
fn a_short_text_ranks_by_its_letters_exactly_as_in_its_workspace() {
    let ws = ws();
    let view = view_of(&ws);
    assert!(view.letters().is_some(), "its tables hold");
    let bm = Bm25::build(&ws);
    let texts = [
        "mock tests",
        "when writing mocks",
        "how to split the test module",
        "wirting mock tests",
        "test runner",
        "nextest",
        "index.lock",
        "when git lock",
        "how git lock error occurs",
        "kubernetes autoscaling",
        "go on",
        "",
        "   ",
        "when",
        "how to",
        "orphan entry",
    ];
    for t in texts {
        assert_eq!(
            recall_from(&view, || view.letters().map(|l| l as _), &bm, t, 12),
            Some(recall(&ws, t, 12)),
            "{t:?}"
        );
    }
    let typo = recall_from(&view, || view.letters().map(|l| l as _), &bm, "wirting mock tests", 3).expect("ranked");
    assert_eq!(ws.heading(typo[0].heading).map(|h| h.title.as_str()), Some("When Writing Mock Tests"));
    assert_eq!(typo[0].evidence, crate::search::recall::Evidence::Letters);
    // Without the names, a short text is not answered.
    assert_eq!(recall_from(&view, || None, &bm, "mock tests", 3), None);
}

#[test]
fn a_section_that_changed_on_disk_is_not_shown() {
    let ws = ws();
    let bytes = encode(&ws, 7).expect("a view");
    let changed = TESTING.replace("Patch the name", "Patch the module");
    let read: Reader = Box::new(move |path, _| (path == "agents/decisions/testing.md").then(|| changed.clone()));
    let view = View::open(Arc::new(bytes), 0, read).expect("opens");
    let found = recall_from(&view, || view.letters().map(|l| l as _), &Bm25::build(&ws), PROMPTS[0], 12).expect("long");
    let limits = limits(1);
    assert_eq!(render(&view, found, limits, &|_: &str| false), Err(Stale));
}

/// `good` with one byte flipped where `seed` (a xorshift state, advanced)
/// says, its checksum fixed up: the layout checks are what refuse or accept it.
fn mutated(good: &[u8], seed: &mut u64) -> Vec<u8> {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let mut b = good.to_vec();
    let at = 16 + (*seed as usize) % (b.len() - 16);
    b[at] ^= 1 + (*seed >> 32) as u8 % 255;
    let sum = checksum(&b[16..]);
    b[8..16].copy_from_slice(&sum.to_le_bytes());
    b
}

#[test]
fn bytes_that_are_not_a_whole_view_are_refused() {
    let ws = ws();
    let good = encode(&ws, 7).expect("a view");
    let open = |b: Vec<u8>| View::open(Arc::new(b), 0, Box::new(|_, _| None)).is_some();
    assert!(open(good.clone()));
    assert!(!open(good[..good.len() - 1].to_vec()), "cut");
    assert!(!open([good.as_slice(), &[0]].concat()), "longer");
    assert!(!open(Vec::new()));
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..2000 {
        let b = mutated(&good, &mut seed);
        if let Some(v) = View::open(Arc::new(b), 0, Box::new(|_, _| None)) {
            for p in PROMPTS.iter().chain(&["wirting mocks", "when git lock"]) {
                let _ = recall_from(&v, || v.letters().map(|l| l as _), &Bm25::build(&ws), p, 5);
            }
            let _ = recall_command_from(&v, &Bm25::build(&ws), &|t| v.code_score(t), "git branch -D x", 5);
            for e in 0..v.entries() as u32 + 2 {
                let _ = (v.written(EntryId(e)), v.target(EntryId(e)));
                if let Some(h) = v.target(EntryId(e)) {
                    let _ = (v.key(h), v.place(h), v.body(h));
                }
            }
            let _ = v.exact(None, "writing mock tests");
        }
    }
    // The letters file, mutated the same way: refused, or read without a panic.
    let letters = encode_letters(&ws, &good).expect("letters");
    for _ in 0..2000 {
        let l: Bytes = Arc::new(mutated(&letters, &mut seed));
        let v = View::open(Arc::new(good.clone()), 0, Box::new(|_, _| None))
            .expect("opens")
            .with_letters(Box::new(move || Some(l.clone())));
        for p in ["wirting mocks", "when git lock", "mock tests", "how to split"] {
            let _ = recall_from(&v, || v.letters().map(|l| l as _), &Bm25::build(&ws), p, 5);
        }
    }
}

#[test]
fn an_entry_without_a_trigger_has_no_exact_row() {
    // `/when | …` has an extra but no trigger: the workspace's exact table has nothing of it.
    let long = "keep both sides of the session file when a long rebase of main conflicts";
    let ws = Workspace::of_files(&[
        ("agents/memory-index.md", &format!("## agents/decisions/m.md\n\n/when | {long}\n/how {long}\n")),
        ("agents/decisions/m.md", &format!("# M\n\n## How to {long}\n\nTake both sides.\n")),
    ]);
    let view = view_of(&ws);
    let bm = Bm25::build(&ws);
    let q = format!("when {long}");
    let from_view = recall_from(&view, || view.letters().map(|l| l as _), &bm, &q, 5).expect("long");
    assert_eq!(from_view, recall(&ws, &q, 5));
    assert_eq!(from_view[0].evidence, crate::search::recall::Evidence::ExactTrigger);
}

#[test]
fn a_view_ranks_commands_and_failures_exactly_as_its_workspace() {
    let ws = ws();
    let view = view_of(&ws);
    let bm = Bm25::build(&ws);
    let code = crate::search::index::of(&ws);
    for text in [
        "rm -f .git/index.lock",
        "fatal: Unable to create '/home/me/repo/.git/index.lock': File exists.\ngit commit -m wip",
        "cargo nextest run --workspace",
        "git branch -D wt-x && git status",
        "ls -la",
        "",
    ] {
        assert_eq!(view.code_score(text), code.code(&ws).score(text), "{text}");
        let from_view = recall_command_from(&view, &bm, &|t| view.code_score(t), text, 12);
        assert_eq!(from_view, recall_command(&ws, text, 12), "{text}");
    }
    assert!(!view.code_score("rm -f .git/index.lock").is_empty(), "the lock's path is a code term");
    let named = view.code_score("git branch -D wt-x");
    assert!(named.first().is_some_and(|s| s.named), "the decision names `git branch -D`: {named:?}");
}

/// The letters file is read and checked apart (only a short prompt reads
/// it): spoiled, or written with another view, it leaves the rest of the
/// view in use and short prompts to the files.
#[test]
fn letters_that_do_not_hold_refuse_short_prompts_only() {
    let ws = ws();
    let bytes = encode(&ws, 7).expect("a view");
    let mut spoiled = encode_letters(&ws, &bytes).expect("letters");
    let last = spoiled.len() - 3;
    spoiled[last] ^= 0x20;
    let other = Workspace::of_files(&[("agents/memory-index.md", INDEX), ("agents/decisions/git.md", GIT)]);
    let others = encode_letters(&other, &encode(&other, 7).expect("a view")).expect("letters");
    let bm = Bm25::build(&ws);
    for letters in [spoiled, others, Vec::new()] {
        let letters: Bytes = Arc::new(letters);
        let view = View::open(Arc::new(bytes.clone()), 0, Box::new(|_, _| None))
            .expect("the view holds")
            .with_letters(Box::new(move || Some(letters.clone())));
        assert!(view.letters().is_none());
        assert_eq!(recall_from(&view, || view.letters().map(|l| l as _), &bm, "mock tests", 3), None);
        assert_eq!(recall_from(&view, || None, &bm, PROMPTS[0], 3), Some(recall(&ws, PROMPTS[0], 3)));
    }
    let none = View::open(Arc::new(bytes), 0, Box::new(|_, _| None)).expect("the view holds");
    assert!(none.letters().is_none(), "no letters file");
}

/// Found in review: the typo tier may correct a query word to the operator
/// word a candidate starts with (`wheen` → `when`), and an entry with an
/// empty trigger has no names but its extras' words are words of the
/// vocabulary. The view answers both as the workspace does.
#[test]
fn operator_typos_and_extras_without_a_trigger_read_as_in_the_workspace() {
    let ws = Workspace::of_files(&[
        (
            "agents/memory-index.md",
            "## agents/decisions/d.md\n\n/when staged\n/when wheel alignment\n/when | deploys\n/when deploying code\n",
        ),
        (
            "agents/decisions/d.md",
            "# D\n\n## When Staged\n\nStage it.\n\n## When Wheel Alignment\n\nAlign.\n\n## When Deploying Code\n\nShip.\n",
        ),
    ]);
    let view = view_of(&ws);
    let bm = Bm25::build(&ws);
    for t in ["when wheen staged", "when whenn staged", "deploys code", "when deploys", "wheel", "how staged"] {
        assert_eq!(
            recall_from(&view, || view.letters().map(|l| l as _), &bm, t, 12),
            Some(recall(&ws, t, 12)),
            "{t:?}"
        );
    }
    let corrected = recall(&ws, "when wheen staged", 3);
    assert!(corrected.iter().any(|r| ws.heading(r.heading).is_some_and(|h| h.title == "When Staged")), "{corrected:?}");
}
