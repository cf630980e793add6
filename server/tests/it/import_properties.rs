//! Properties of `import` over arbitrary sources: reading and planning never panic, what it writes checks clean, and importing the same sources again changes nothing.

use memory_index_lsp::model::{Config, FileText, Workspace};
use memory_index_lsp::recall::import::{plan, source, Options};
use memory_index_lsp::rules::{self, Severity};
use proptest::prelude::*;

/// Lines of rules files and ADRs as projects write them, plus hostile ones.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("# Title".to_string()),
        Just("# 2. Use Helm".to_string()),
        Just("## Status".to_string()),
        Just("Accepted".to_string()),
        Just("Superseded by [3](0003-x.md)".to_string()),
        Just("## Decision".to_string()),
        Just("## Running Tests".to_string()),
        Just("## Code style".to_string()),
        Just("### Sub rule".to_string()),
        Just("- Never `git push --force` to main.".to_string()),
        Just("- See [the guide](docs/guide.md#setup) and `[not](x.md)`.".to_string()),
        Just("[ref]: ops/runbook.md".to_string()),
        Just("```sh".to_string()),
        Just("```".to_string()),
        Just("~~~".to_string()),
        Just("---".to_string()),
        Just("globs: src/**/*.ts".to_string()),
        Just("description: Style rules".to_string()),
        Just("<!-- memory-index:start by init -->".to_string()),
        Just("<!-- memory-index:end -->".to_string()),
        Just("Source: CLAUDE.md § Testing <!-- import 1f2e3d4c -->".to_string()),
        Just("/when writing mock tests".to_string()),
        Just("".to_string()),
        Just("\u{0}\u{feff}\u{2028}😀\r".to_string()),
        "[ -~]{0,40}",
        any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(line(), 0..24).prop_map(|l| l.join("\n"))
}

fn memory() -> Workspace {
    let mut ws = Workspace::new(Config::default());
    ws.set_file("agents/memory-index.md", FileText::from("# Memory Index\n\nDecisions.\n"));
    ws
}

/// `ws` with `out`'s change written.
fn applied(ws: &Workspace, change: &memory_index_lsp::edit::SourceChange) -> Workspace {
    let mut after = ws.clone();
    for p in change.paths() {
        let before = ws.file_id(p).and_then(|id| ws.file(id)).map(|f| f.text.to_string());
        if let Some(t) = change.text_after(p, before.as_deref()) {
            after.set_file(p, FileText::from(t.as_str()));
        }
    }
    after
}

fn errors(ws: &Workspace) -> Vec<String> {
    rules::check(ws).into_iter().filter(|f| f.severity == Severity::Error).map(|f| format!("{f:?}")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn import_never_panics_writes_clean_and_is_idempotent(a in text(), b in text()) {
        let ws = memory();
        let mut records = Vec::new();
        for (path, t) in [("CLAUDE.md", &a), ("docs/adr/0002-use-helm.md", &b), (".cursor/rules/style.mdc", &a)] {
            let _ = source::unheaded(path, t);
            if let Ok(r) = source::parse(path, t) {
                records.extend(r);
            }
        }
        for (all, prune) in [(false, false), (true, false), (false, true)] {
            let opts = Options { all, prune, ..Options::default() };
            if let Ok(out) = plan(&ws, records.clone(), &opts) {
                let after = applied(&ws, &out.change);
                prop_assert!(errors(&after).is_empty(), "{:?}", errors(&after));
                let again = plan(&after, records.clone(), &opts);
                prop_assert!(again.as_ref().is_ok_and(|o| o.change.is_empty()), "{:?}", again.map(|o| o.imported));
            }
        }
    }

    /// A source changed after its import (and with `--prune`, what it dropped removed): the
    /// update checks clean, and a third run changes nothing.
    #[test]
    fn an_update_is_clean_and_final(a in text(), b in text(), extra in line(), prune in any::<bool>()) {
        let ws = memory();
        let records = |t: &str| source::parse("CLAUDE.md", t).unwrap_or_default();
        let opts = Options { prune, ..Options::default() };
        let Ok(first) = plan(&ws, records(&a), &opts) else { return Ok(()) };
        let after = applied(&ws, &first.change);
        let changed = if prune { format!("{extra}\n{b}") } else { format!("{a}\n{extra}\n{b}") };
        let Ok(update) = plan(&after, records(&changed), &opts) else { return Ok(()) };
        let updated = applied(&after, &update.change);
        prop_assert!(errors(&updated).is_empty(), "{:?}", errors(&updated));
        let third = plan(&updated, records(&changed), &opts);
        prop_assert!(
            third.as_ref().is_ok_and(|o| o.change.is_empty()),
            "{:?}",
            third.map(|o| (o.imported, o.updated, o.removed))
        );
    }
}

/// Words titles are made of, hostile ones included: names with leading
/// dots and symbols, separators the index reads (`|`, `,`), operators,
/// markup, other scripts, emoji.
fn title_word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(".NET".to_string()),
        Just(".env".to_string()),
        Just("C#".to_string()),
        Just("C++".to_string()),
        Just("Node.js".to_string()),
        Just("|".to_string()),
        Just("a,b".to_string()),
        Just("#3".to_string()),
        Just("/when".to_string()),
        Just("..".to_string()),
        Just("`code`".to_string()),
        Just("(draft)".to_string()),
        Just("données".to_string()),
        Just("日本語".to_string()),
        Just("🚀".to_string()),
        Just("--flag".to_string()),
        "[a-z]{2,9}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Issue 51: no record's title stops a run (a `.NET` title made an extra the index reads as a
    /// section lookup, and the whole import failed): a folder of records with hostile titles
    /// plans, checks clean, and a second run changes nothing.
    #[test]
    fn no_title_stops_an_import(titles in prop::collection::vec(prop::collection::vec(title_word(), 1..5), 1..7)) {
        let ws = memory();
        let mut records = Vec::new();
        for (i, words) in titles.iter().enumerate() {
            let text = format!("# {}. {}\n\n## Status\n\nAccepted\n\n## Decision\n\nWe decided it.\n", i + 1, words.join(" "));
            records.extend(source::parse(&format!("docs/adr/{:04}-x.md", i + 1), &text).unwrap_or_default());
        }
        let out = plan(&ws, records.clone(), &Options::default());
        prop_assert!(out.is_ok(), "{:?}", out.err());
        let out = out.unwrap_or_default();
        let after = applied(&ws, &out.change);
        prop_assert!(errors(&after).is_empty(), "{:?}", errors(&after));
        let again = plan(&after, records, &Options::default());
        prop_assert!(again.as_ref().is_ok_and(|o| o.change.is_empty()), "{:?}", again.map(|o| o.imported));
    }
}
