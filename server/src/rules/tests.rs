//! Unit tests of the rules' shared parts (each rule's own are its fixtures, tests/it/rules.rs).

#[test]
fn suggested_triggers_lowercase_words_and_keep_names() {
    use crate::rules::placement::trigger_from_title;
    let t = |title: &str| trigger_from_title(title).map(|(_, t)| t).unwrap_or_default();
    assert_eq!(t("When CLI Commands Are LLM-Native"), "CLI commands are LLM-native");
    assert_eq!(t("When classifyHandoffIfNeeded Bug Occurs"), "classifyHandoffIfNeeded bug occurs");
    assert_eq!(t("How to Handle I/O Errors On macOS"), "handle I/O errors on macOS");
    assert_eq!(t("When Using A Read-Only Mount"), "using a read-only mount");
}

/// Fix-all's check runs only the rules whose fixes can be safe, and finds
/// exactly what the full check finds for them.
#[test]
fn the_fixable_check_is_the_full_check_of_the_fixable_rules() {
    use crate::model::{FileText, Workspace};
    use crate::rules::{check, check_fixable, Fixes};
    let mut ws = Workspace::default();
    for (p, t) in crate::testgen::generate(3_000, 60, 11) {
        ws.set_file(&p, FileText::from(t));
    }
    let all = check(&ws);
    let want: Vec<_> = all.iter().filter(|f| f.rule.fixes() == Fixes::Safe).cloned().collect();
    assert!(!want.is_empty() && want.len() < all.len(), "both kinds present: {} of {}", want.len(), all.len());
    assert_eq!(check_fixable(&ws), want);
}

/// The rules that read token counts say so in their registry line, and a
/// check that counts tokens aside finds what a plain one finds.
#[test]
fn the_token_rules_are_declared_and_run_when_counted_aside() {
    use super::{Reads, Rule};
    let token_rules: Vec<Rule> = Rule::ALL.iter().copied().filter(|r| r.reads() == Reads::Tokens).collect();
    assert_eq!(token_rules, [Rule::IndexTokenBudget, Rule::PromoteToFragment]);
}

/// Files set all at once (parsed in parallel) are parsed, bound and checked as files set one by one.
#[test]
fn files_set_at_once_check_like_one_by_one() {
    use crate::model::{FileText, Workspace};
    let files = crate::testgen::generate(300, 40, 3);
    let mut one = Workspace::default();
    for (p, t) in &files {
        one.set_file(p, FileText::from(t.as_str()));
    }
    let mut many = Workspace::default();
    many.set_files(files.iter().map(|(p, t)| (p.clone(), FileText::from(t.as_str()))).collect());
    let paths = |ws: &Workspace| ws.files().map(|(_, f)| (f.path.clone(), f.parsed.clone())).collect::<Vec<_>>();
    assert_eq!(paths(&one), paths(&many));
    assert_eq!(one.bindings().entries, many.bindings().entries);
    assert_eq!(super::check(&one), super::check(&many));
}

/// Found by review: an unindexed heading whose trigger a drifted entry should take said "change
/// its trigger" only while no other entry held the words; twins get no entry offered; a trigger
/// another entry holds as its trigger is never offered, one it holds as an extra yields.
#[test]
fn an_unindexed_heading_offers_the_drifted_entry_unless_another_trigger_holds_its_words() {
    use crate::model::Workspace;
    use crate::rules::{check, fixes, Rule};
    let msg = |index: &str, decisions: &str| {
        let ws = Workspace::of_files(&[("agents/memory-index.md", index), ("agents/decisions/a.md", decisions)]);
        let f = check(&ws).into_iter().find(|f| f.rule == Rule::UnindexedHeading).expect("unindexed");
        let titles: Vec<String> = fixes(&ws, &f).iter().map(|x| x.title.clone()).collect();
        (f.message(&ws).into_owned(), titles)
    };
    let heading = "# A\n\n## When Deploying To Prod\n\nAsk the on-call first, always.\n";
    let (m, t) = msg(
        "## agents/decisions/a.md\n\n/when shipping releases | deploying to prod\n/when deploying to prd\n",
        heading,
    );
    assert!(m.contains("`/when deploying to prd` (agents/memory-index.md:4) binds nothing"), "{m}");
    assert!(t[0].starts_with("Change the trigger of line 4 to `/when deploying to prod`"), "{t:?}");
    let (m, t) = msg(
        "## agents/decisions/a.md\n\n/when deploying to prod\n/when deploying to prd\n",
        &format!("{heading}\n## When Shipping\n\nx y z.\nmore.\n"),
    );
    assert!(!m.contains("binds nothing") && !t.iter().any(|x| x.starts_with("Change the trigger")), "{m} {t:?}");
}
