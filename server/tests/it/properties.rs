//! Properties over arbitrary input: parsers and rules never panic; fix-all is lossless and
//! idempotent; a workspace updated edit by edit (with its caches) answers like a fresh one.

use std::collections::BTreeMap;

use memory_index_lsp::ide::fix_all::fix_all;
use memory_index_lsp::ide::{navigate, resolve};
use memory_index_lsp::model::{FileText, Workspace};
use memory_index_lsp::rules;
use memory_index_lsp::syntax::{decision, index};
use memory_index_lsp::text::TextRange;
use proptest::prelude::*;

/// Index-like and Markdown-like lines, plus hostile bytes.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("## agents/decisions/a.md".to_string()),
        Just("## agents/decisions/b.md".to_string()),
        Just("## agents/decisions/gone.md".to_string()),
        Just("/when alpha".to_string()),
        Just("/when beta | x,,y".to_string()),
        Just("/how gamma |".to_string()),
        Just("/when".to_string()),
        Just("/When alpha".to_string()),
        Just("/when mock patching".to_string()),
        Just("Key — description".to_string()),
        Just("**Label:**".to_string()),
        Just("```".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("".to_string()),
        Just("# Title".to_string()),
        Just("## When Alpha".to_string()),
        Just("### When Beta".to_string()),
        Just("## .Mock Patching".to_string()),
        Just("How to Gamma\n---".to_string()),
        Just("\u{0}\u{feff}\u{2028}😀".to_string()),
        "[ -~]{0,30}",
        any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    (proptest::collection::vec(line(), 0..30), prop_oneof![Just("\n"), Just("\r\n"), Just("\r")])
        .prop_map(|(lines, nl)| lines.join(nl))
}

fn workspace(index: &str, a: &str, b: &str) -> Workspace {
    let mut ws = Workspace::default();
    ws.set_file("agents/memory-index.md", FileText::from(index));
    ws.set_file("agents/decisions/a.md", FileText::from(a));
    ws.set_file("agents/decisions/b.md", FileText::from(b));
    ws
}

/// Findings as text, with paths instead of file ids (ids differ between workspaces).
fn shown(ws: &Workspace, findings: &[rules::Finding]) -> Vec<String> {
    let path = |id| ws.file(id).map_or("?", |f| f.path.as_str()).to_string();
    findings
        .iter()
        .map(|f| {
            let related: Vec<String> =
                f.related.iter().map(|r| format!("{}@{:?} {}", path(r.file), r.range, r.message)).collect();
            format!("{}@{:?} {:?} {} {related:?} {:?}", path(f.file), f.range, f.rule, f.message(ws), f.fixes)
        })
        .collect()
}

/// What the resolver and navigation answer for a few queries and the first index lines.
fn answers(ws: &Workspace) -> Vec<String> {
    let mut out: Vec<String> =
        ["when alpha", "how gamma", "when beta", "x", "when .Mock Patching", "when ..a.md", "when alpah"]
            .iter()
            .map(|q| match resolve::resolve(ws, q, true) {
                Ok(r) => format!("{} from {}", r.text, r.path),
                Err(e) => e,
            })
            .collect();
    if let Some((id, f, _)) = ws.index() {
        for offset in (0..f.text.len().min(400)).step_by(37) {
            let refs: Vec<String> = navigate::references(ws, id, offset)
                .iter()
                .map(|r| format!("{}@{:?}", ws.file(r.file).map_or("?", |f| f.path.as_str()), r.range))
                .collect();
            out.push(format!("{offset}: {refs:?}"));
        }
    }
    out
}

const PATHS: [&str; 4] = ["agents/memory-index.md", "agents/decisions/a.md", "agents/decisions/b.md", "SKILL.md"];

fn non_blank(text: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for l in text.split(['\n', '\r']).filter(|l| !l.trim().is_empty()) {
        *m.entry(l.to_string()).or_default() += 1;
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn parsers_and_rules_never_panic(index in text(), a in text(), b in text()) {
        let ws = workspace(&index, &a, &b);
        let findings = rules::check(&ws);
        for f in &findings {
            let file = ws.file(f.file).expect("known file");
            prop_assert!(f.range.start <= f.range.end && f.range.end <= file.text.len());
            prop_assert!(file.text.is_char_boundary(f.range.start) && file.text.is_char_boundary(f.range.end));
        }
    }

    #[test]
    fn fix_all_is_lossless_and_idempotent(index in text(), a in text(), b in text()) {
        let mut ws = workspace(&index, &a, &b);
        let result = fix_all(&mut ws);
        let after = ws.index().map(|(_, f, _)| f.text.clone()).unwrap_or_default();
        // Only lines whose own finding is about them may go: duplicates, structural entries, empty missing sections.
        let (before, after_lines) = (non_blank(&index), non_blank(&after));
        for (line, n) in &before {
            let kept = after_lines.get(line).copied().unwrap_or(0);
            let t = line.trim();
            let entry = t.starts_with("/when") || t.starts_with("/how");
            // Spec §5: a line goes only with its own finding: a duplicate entry (one copy stays),
            // a structural entry, an empty section naming a missing file; these three are rewritten in place.
            let allowed = kept >= *n
                || (entry && kept >= 1)
                || t == "/when mock patching"
                || (t.starts_with("##") && !["## agents/decisions/a.md", "## agents/decisions/b.md"].contains(&t))
                || ["/When alpha", "/when beta | x,,y", "/how gamma |"].contains(&t);
            prop_assert!(allowed, "lost {line:?}: {result:?}");
        }
        let mut again = workspace(&after, &a, &b);
        let second = fix_all(&mut again);
        prop_assert!(second.change.is_empty(), "not idempotent: {second:?}");
    }

    /// Caches survive edits of the files they do not depend on: after every
    /// edit, findings and resolver answers equal those of a fresh workspace.
    #[test]
    fn incremental_updates_equal_a_fresh_check(
        start in proptest::collection::vec(text(), 4),
        edits in proptest::collection::vec((0..PATHS.len(), proptest::option::weighted(0.9, text())), 1..8),
    ) {
        let mut ws = Workspace::default();
        let mut texts: BTreeMap<&str, String> = BTreeMap::new();
        for (p, t) in PATHS.iter().zip(start) {
            ws.set_file(p, FileText::from(t.as_str()));
            texts.insert(p, t);
        }
        let _ = (rules::findings(&ws), answers(&ws));
        for (which, text) in edits {
            let p = PATHS[which];
            match text {
                Some(t) => {
                    ws.set_file(p, FileText::from(t.as_str()));
                    texts.insert(p, t);
                }
                None => {
                    ws.remove_file(p);
                    texts.remove(p);
                }
            }
            let mut fresh = Workspace::default();
            for (p, t) in &texts {
                fresh.set_file(p, FileText::from(t.as_str()));
            }
            prop_assert_eq!(shown(&ws, &rules::findings(&ws)), shown(&fresh, &rules::check(&fresh)));
            prop_assert_eq!(answers(&ws), answers(&fresh));
        }
    }
}

/// Typing in decision files as an editor does (`edit_file`), where most
/// edits keep the headings (the binding, the other files' BM25 segments and
/// invocations and the trigger ranking's answers are kept) and some add or
/// break one: after every edit, findings, resolver answers, references and
/// the ranking equal a fresh workspace's.
mod decision_edits {
    use super::*;
    use memory_index_lsp::search::recall;
    use proptest::sample::Index;

    const INDEX: &str = "## agents/decisions/a.md\n\n/when alpha beta | mock patch\n/how gamma delta\n/when lock errors\n\n## agents/decisions/b.md\n\n/when beta rollback\n/when orphan words here\n";
    const A: &str = "# A\n\n## When Alpha Beta\n\nPatch the mock where it is looked up.\n\n## How to Gamma Delta\n\nEncode paths as UTF-8.\n\n## When Lock Errors\n\nRemove the stale git index lock.\n";
    const B: &str = "# B\n\n## When Beta Rollback\n\nRoll back the migration, then the deploy.\nSee /when alpha beta and /when lok errors.\n";
    const SKILL: &str = "Recall /when alph and /how gamma before editing.\n";
    const PIECES: [&str; 9] =
        ["", "x", " lock", "\n", " /when alpha beta ", "\n## When Epsilon\n", "migration rollback ", "#", "é"];

    fn ranking(ws: &Workspace) -> Vec<String> {
        ["patch the mock where it is looked up", "the stale git index lock", "roll back the migration", "epsilon"]
            .iter()
            .map(|q| {
                format!("{:?}", recall::recall(ws, q, 3).iter().map(|r| (r.entry, r.confidence)).collect::<Vec<_>>())
            })
            .collect()
    }

    fn references(ws: &Workspace) -> Vec<String> {
        let mut out = Vec::new();
        for path in ["agents/decisions/a.md", "agents/decisions/b.md"] {
            let Some(id) = ws.file_id(path) else { continue };
            let text = &ws.file(id).expect("file").text;
            for (at, _) in text.match_indices("\n#") {
                let refs: Vec<String> = navigate::references(ws, id, at + 4)
                    .iter()
                    .map(|r| format!("{}@{:?}", ws.file(r.file).map_or("?", |f| f.path.as_str()), r.range))
                    .collect();
                out.push(format!("{path}:{at}: {refs:?}"));
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn decision_edits_answer_like_a_fresh_workspace(
            edits in proptest::collection::vec((0..2usize, any::<Index>(), 0..4usize, 0..PIECES.len()), 1..10),
        ) {
            let paths = ["agents/decisions/a.md", "agents/decisions/b.md"];
            let mut ws = Workspace::default();
            let mut texts: BTreeMap<&str, String> = BTreeMap::new();
            for (p, t) in [("agents/memory-index.md", INDEX), (paths[0], A), (paths[1], B), ("SKILL.md", SKILL)] {
                ws.set_file(p, FileText::from(t));
                texts.insert(p, t.to_string());
            }
            let _ = (rules::findings(&ws), answers(&ws), references(&ws), ranking(&ws));
            for (which, pos, cut, piece) in edits {
                let path = paths[which];
                let text = texts.get_mut(path).expect("text");
                let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
                let start = bounds[pos.index(bounds.len())];
                let end = bounds.iter().copied().filter(|&b| b >= start).nth(cut).unwrap_or(start);
                ws.edit_file(path, &[(TextRange::new(start, end), PIECES[piece])]);
                text.replace_range(start..end, PIECES[piece]);
                let mut fresh = Workspace::default();
                for (p, t) in &texts {
                    fresh.set_file(p, FileText::from(t.as_str()));
                }
                prop_assert_eq!(&ws.file(ws.file_id(path).expect("id")).expect("file").text, &texts[path]);
                prop_assert_eq!(shown(&ws, &rules::findings(&ws)), shown(&fresh, &rules::check(&fresh)));
                prop_assert_eq!(answers(&ws), answers(&fresh));
                prop_assert_eq!(references(&ws), references(&fresh));
                prop_assert_eq!(ranking(&ws), ranking(&fresh));
            }
        }
    }
}

#[test]
fn huge_lines_and_invalid_utf8_do_not_panic() {
    let long = "x".repeat(100_000);
    let index = format!("## agents/decisions/a.md\n/when {long}\n{long}\n");
    let decision = format!("## When {long}\n{}", "\0\r".repeat(1000));
    let mut ws = workspace(&index, &decision, "");
    ws.set_file("agents/decisions/b.md", FileText::from_bytes(b"## When \xff\xfe bad\n".to_vec()));
    let f = rules::check(&ws);
    assert!(f.iter().any(|f| f.rule.code() == "invalid-utf8"));
    let _ = index::parse(&long);
    let _ = decision::parse(&long);
}

/// A generated workspace (LF or CRLF) whose index is edited line by line the way people
/// type: most edits keep the index's line structure (a splice), so findings
/// are updated incrementally; some do not. Checked every few edits (so
/// splices compose), the findings equal a fresh full check, fixes included.
mod spliced_edits {
    use super::*;
    use crate::support::gen::generate;
    use proptest::sample::Index;

    fn setup() -> (Vec<(String, String)>, Vec<String>) {
        let files = generate(150, 8, 7);
        let titles = files[1..]
            .iter()
            .flat_map(|(_, t)| t.lines())
            .filter_map(|l| l.trim_start_matches('#').trim_start().strip_prefix("When "))
            .map(|t| format!("/when {}", t.to_lowercase()))
            .collect();
        (files, titles)
    }

    fn edit(line: &str, other: &str, kind: u8, pos: Index, titles: &[String], any: &str) -> String {
        let at = |s: &str| {
            let bounds: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
            bounds[pos.index(bounds.len())]
        };
        let trigger =
            |s: &str| s.split('|').next().unwrap_or("").split_once(' ').map_or("", |(_, t)| t).trim().to_string();
        match kind {
            0 => other.to_string(),
            1 => {
                let i = at(line);
                format!("{}q{}", &line[..i], &line[i..])
            }
            2 => {
                let i = at(line);
                let mut s = line.to_string();
                if i < s.len() {
                    s.remove(i);
                }
                s
            }
            3 => format!("{line} | {}", trigger(other)),
            4 => format!("/when {}", trigger(other).split(' ').skip(1).collect::<Vec<_>>().join(" ")),
            5 => String::new(),
            6 => "Key — legacy description".into(),
            7 => format!("/When {}", trigger(line)),
            8 => "/how".into(),
            9 => titles[pos.index(titles.len().max(1)).min(titles.len().saturating_sub(1))].clone(),
            10 => line.replacen(' ', "  ", 1),
            11 => format!("/how {}", trigger(other)),
            12 => any.to_string(),
            _ => {
                let i = at(line);
                format!("{}{any}{}", &line[..i], &line[i..])
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn spliced_index_edits_recheck_like_a_fresh_check(
            edits in proptest::collection::vec((any::<Index>(), any::<Index>(), 0u8..14, any::<Index>(), line()), 1..14),
            every in 1usize..4,
            crlf in any::<bool>(),
            in_place in any::<bool>(),
        ) {
            let (mut files, titles) = setup();
            let nl = if crlf { "\r\n" } else { "\n" };
            files[0].1 = files[0].1.lines().collect::<Vec<_>>().join(nl) + nl;
            let mut ws = Workspace::default();
            for (p, t) in &files {
                ws.set_file(p, FileText::from(t.as_str()));
            }
            let _ = rules::findings(&ws);
            let mut lines: Vec<String> = files[0].1.lines().map(str::to_string).collect();
            for (n, (which, other, kind, pos, any)) in edits.into_iter().enumerate() {
                // Entry lines mostly (what people retype), sometimes any line.
                let entries: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with('/')).collect();
                let l = if kind % 3 == 0 && !entries.is_empty() { entries[which.index(entries.len())] } else { which.index(lines.len()) };
                let o = other.index(lines.len());
                let new_line = edit(&lines[l], &lines[o], kind, pos, &titles, &any);
                let old = std::mem::replace(&mut lines[l], new_line);
                let text = lines.join(nl) + nl;
                if in_place {
                    // As a language server does: the changed line's byte range, in
                    // one change or as a deletion then an insertion.
                    let start: usize = lines[..l].iter().map(|x| x.len() + nl.len()).sum();
                    let r = TextRange::new(start, start + old.len());
                    let one = [(r, lines[l].as_str())];
                    let two = [(r, ""), (TextRange::empty(start), lines[l].as_str())];
                    let edits: &[(TextRange, &str)] = if kind % 2 == 0 { &one } else { &two };
                    prop_assert!(ws.edit_file(&files[0].0, edits).is_some());
                    prop_assert_eq!(ws.file(ws.file_id(&files[0].0).expect("index")).map(|f| f.text.as_str()), Some(text.as_str()));
                } else {
                    ws.set_file(&files[0].0, FileText::from(text.as_str()));
                }
                let spliced = ws.index().map(|(_, _, i)| i.clone());
                prop_assert_eq!(spliced, Some(index::parse(&text)), "the index re-parsed in place equals a fresh parse");
                if (n + 1) % every != 0 {
                    continue;
                }
                let mut fresh = Workspace::default();
                fresh.set_file(&files[0].0, FileText::from(text.as_str()));
                for (p, t) in &files[1..] {
                    fresh.set_file(p, FileText::from(t.as_str()));
                }
                let (got, want) = (shown(&ws, &rules::findings(&ws)), shown(&fresh, &rules::check(&fresh)));
                if got != want {
                    let i = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)).unwrap_or(0);
                    prop_assert!(false, "after edit {n} (line {l}), finding {i} of {}/{}:\n incremental: {:?}\n fresh:       {:?}",
                        got.len(), want.len(), got.get(i), want.get(i));
                }
            }
        }
    }
}

/// Two orphans with one trigger: when an edit unbinds the heading they both
/// resemble, both findings change (the incremental check decides per
/// trigger, and must not take the second for unchanged once the first has
/// been ranked again).
#[test]
fn orphans_sharing_a_trigger_both_see_a_heading_come_free() {
    // The orphans sit in another file's section, so nothing but the freed
    // heading puts them in the re-checked scope.
    let index = "## agents/decisions/a.md\n\n/when alpha beta\n\n## agents/decisions/b.md\n\n/when alpha beta gamma\n/when alpha beta gamma\n";
    let decision = "## When Alpha Beta\n\nBody.\n\n## When Delta\n\nBody.\n";
    let other = "## When Zeta\n\nBody.\n";
    let mut ws = Workspace::default();
    ws.set_file("agents/memory-index.md", FileText::from(index));
    ws.set_file("agents/decisions/a.md", FileText::from(decision));
    ws.set_file("agents/decisions/b.md", FileText::from(other));
    let _ = rules::findings(&ws);
    let at = index.find("beta").expect("beta") + 4;
    ws.edit_file("agents/memory-index.md", &[(TextRange::empty(at), "q")]);
    assert!(ws.index_splice().is_some(), "typing in a trigger is a splice");
    let text = ws.file(ws.file_id("agents/memory-index.md").expect("index")).expect("index").text.clone();
    let mut fresh = Workspace::default();
    fresh.set_file("agents/memory-index.md", FileText::from(text.as_str()));
    fresh.set_file("agents/decisions/a.md", FileText::from(decision));
    fresh.set_file("agents/decisions/b.md", FileText::from(other));
    let got = shown(&ws, &rules::findings(&ws));
    assert_eq!(got, shown(&fresh, &rules::check(&fresh)));
    let suggesting = got
        .iter()
        .filter(|f| f.contains("`When alpha beta gamma` for this entry; did you mean `When Alpha Beta`"))
        .count();
    assert_eq!(suggesting, 2, "both orphans suggest the freed heading: {got:#?}");
}

/// Parsing, binding and the full check run on several threads for large
/// workspaces (at 400 entries, only the index's tokens are counted aside;
/// at 5,000, the rules' lanes split); the answer must not depend on how many.
#[test]
fn a_large_workspace_checks_the_same_on_one_thread_and_on_several() {
    for (entries, seed) in [(400, 5), (5_000, 3), (5_000, 11)] {
        let files: Vec<(String, FileText)> = crate::support::gen::generate(entries, entries / 20, seed)
            .into_iter()
            .map(|(p, t)| (p, FileText::from(t)))
            .collect();
        let checked = |threads: usize| {
            let mut ws = Workspace::default();
            ws.set_threads(threads);
            ws.set_files(files.clone());
            let found = rules::check(&ws);
            (ws, found)
        };
        let (one, alone) = checked(1);
        let (several, together) = checked(4);
        assert!(alone.len() > entries / 50, "the generated workspace has problems to find: {}", alone.len());
        assert!(alone.iter().any(|f| f.rule.code() == "index-token-budget"), "seed {seed}: its tokens are counted");
        assert_eq!(shown(&one, &alone), shown(&several, &together), "seed {seed}");
        assert_eq!(alone, together, "seed {seed}: fixes and related locations too");
        assert_eq!(one.bindings().entries, several.bindings().entries, "seed {seed}: the binding");
    }
}

/// The generator the benchmarks and several tests share: deterministic, and
/// every rule has a little work in it (about one entry in a hundred).
#[test]
fn generated_workspace_is_deterministic_and_mostly_clean() {
    let a = crate::support::gen::generate(500, 25, 7);
    assert_eq!(a, crate::support::gen::generate(500, 25, 7));
    assert_eq!(a.len(), 26);
    let mut ws = memory_index_lsp::model::Workspace::default();
    for (p, t) in &a {
        ws.set_file(p, memory_index_lsp::model::FileText::from(t.as_str()));
    }
    let findings = memory_index_lsp::rules::check(&ws);
    assert!(!findings.is_empty() && findings.len() < 100, "{}", findings.len());
    assert!(ws.bindings().entries.len() >= 500);
}
