//! Tests of the injected text: header shape, thresholds, dedup keys, the size cap.

use super::*;
use crate::model::FileText;

const INDEX: &str = "# Memory Index

## agents/decisions/testing.md

/when writing mock tests | mock patch, test doubles
/how split slow test suites

## agents/decisions/data.md

/how migrate the booking schema | alembic migration
";

const TESTING: &str = "# Testing

## When Writing Mock Tests

Patch where the name is used, not where it is defined.
Prefer fakes with real behaviour over mocks.

## How to Split Slow Test Suites

Mark slow tests with `@slow`.
";

const DATA: &str = "# Data

## How to Migrate the Booking Schema

Write one alembic revision per change.
";

pub(crate) fn ws_with(extra_data: &str) -> Workspace {
    let mut ws = Workspace::default();
    ws.set_file("agents/memory-index.md", FileText::from(INDEX.to_string()));
    ws.set_file("agents/decisions/testing.md", FileText::from(TESTING.to_string()));
    ws.set_file("agents/decisions/data.md", FileText::from(format!("{DATA}{extra_data}")));
    ws
}

fn limits(threshold: f64) -> Limits {
    Limits { threshold, max_decisions: 2, max_chars: 6000, shell: false, skills: true }
}

fn never(_: &str) -> bool {
    false
}

#[test]
fn a_prompt_with_the_trigger_gets_the_section_under_its_header() {
    let ws = ws_with("");
    let got = recalled(&ws, "when writing mock tests", limits(0.5), &never, None).unwrap();
    assert!(
        got.text.starts_with(
            "[memory-index] /when writing mock tests \u{2192} When Writing Mock Tests \
             (agents/decisions/testing.md:3, confidence 1.00)\nPatch where the name is used"
        ),
        "{}",
        got.text
    );
    assert_eq!(got.keys[0], "agents/decisions/testing.md\twhen writing mock tests");
}

#[test]
fn a_sentence_repeating_the_trigger_recalls_it() {
    let ws = ws_with("");
    let got =
        recalled(&ws, "I am writing mock tests for the booking client, where do I patch?", limits(0.3), &never, None)
            .expect("recalled");
    assert!(got.text.starts_with("[memory-index] /when writing mock tests \u{2192} When Writing Mock Tests"));
}

#[test]
fn generic_and_off_topic_prompts_get_nothing() {
    let ws = ws_with("");
    for prompt in ["sounds good, go on", "build a landing page in React", "", "   "] {
        assert_eq!(recalled(&ws, prompt, limits(0.5), &never, None), None, "{prompt:?}");
    }
}

#[test]
fn below_the_threshold_and_seen_decisions_are_silent() {
    let ws = ws_with("");
    assert_eq!(recalled(&ws, "when writing mock tests", limits(1.01), &never, None), None);
    let seen = |k: &str| k.ends_with("when writing mock tests");
    let got = recalled(&ws, "when writing mock tests", limits(0.5), &seen, None);
    assert!(got.is_none_or(|g| !g.text.contains("When Writing Mock Tests")));
}

#[test]
fn a_long_section_shows_its_first_lines_and_how_to_get_the_rest() {
    let long: String = (0..60).map(|i| format!("Line {i} of a long rule about schemas.\n")).collect();
    let mut ws = ws_with("");
    ws.set_file("agents/decisions/data.md", FileText::from(format!("{DATA}{long}")));
    let got = recalled(&ws, "how migrate the booking schema", limits(0.5), &never, None).unwrap();
    let lines: Vec<&str> = got.text.lines().collect();
    assert_eq!(lines.len(), 1 + PREVIEW_LINES + 1, "{}", got.text);
    let last = lines.last().unwrap_or(&"").to_string();
    assert!(
        last.starts_with("[cut: ")
            && last.ends_with(
                " more lines; read them with `/how migrate the booking schema` (the skill) before acting on it]"
            ),
        "{last}"
    );
    // An agent without the skills is given the shell command (found by review).
    let shell = Limits { skills: false, ..limits(0.5) };
    let got = recalled(&ws, "how migrate the booking schema", shell, &never, None).unwrap();
    let last = got.text.lines().last().unwrap_or("").to_string();
    assert!(
        last.ends_with("read them with `memory-index-lsp resolve \"how migrate the booking schema\"` or the MCP tool `resolve` before acting on it]"),
        "{last}"
    );
    // Found by review: a section of at most three lines shown at a lower confidence said there was a rest.
    let short = recalled(&ws_with(""), "we patch things in tests", limits(0.0), &never, None).unwrap();
    let confidence = short.text.split("confidence ").nth(1).and_then(|c| c.get(..4)).unwrap_or("");
    assert!(confidence.parse::<f64>().is_ok_and(|c| c < FULL_CONFIDENCE), "a preview: {}", short.text);
    assert!(short.text.contains("Prefer fakes") && !short.text.contains("[cut: "), "{}", short.text);
    // Found by review: three lines and an imported decision's `Source:` line are no rest either.
    let mut ws = ws_with("");
    let testing = TESTING.replace(
        "Prefer fakes with real behaviour over mocks.\n",
        "Prefer fakes with real behaviour over mocks.\nName fakes after what they stand for.\n\nSource: CLAUDE.md § Testing\n",
    );
    ws.set_file("agents/decisions/testing.md", FileText::from(testing));
    let imported = recalled(&ws, "we patch things in tests", limits(0.0), &never, None).unwrap();
    let confidence = imported.text.split("confidence ").nth(1).and_then(|c| c.get(..4)).unwrap_or("");
    assert!(confidence.parse::<f64>().is_ok_and(|c| c < FULL_CONFIDENCE), "a preview: {}", imported.text);
    assert!(imported.text.contains("Source: CLAUDE.md") && !imported.text.contains("[cut: "), "{}", imported.text);
}

#[test]
fn the_cap_cuts_at_a_line_and_never_splits_a_character() {
    let ws = ws_with("");
    let full = recalled(&ws, "when writing mock tests", limits(0.5), &never, None).unwrap().text;
    let header_len = full.lines().next().unwrap().chars().count();
    let cut =
        recalled(&ws, "when writing mock tests", Limits { max_chars: header_len + 5, ..limits(0.5) }, &never, None)
            .unwrap()
            .text;
    assert_eq!(cut, full.lines().next().unwrap());
    let none = recalled(&ws, "when writing mock tests", Limits { max_chars: 10, ..limits(0.5) }, &never, None);
    assert_eq!(none, None);
    assert_eq!(fit_lines("ééé\nèèè", 5), "ééé");
    assert_eq!(fit_lines("ééé\nèèè", 7), "ééé\nèèè");
    assert_eq!(fit_lines("éééééé", 3), "");
    assert_eq!(crate::text::cut("aé", 2), "a");
}

#[test]
fn at_most_max_decisions() {
    let ws = ws_with("");
    let text = "writing mock tests, split slow test suites and migrate the booking schema";
    let one = recalled(&ws, text, Limits { max_decisions: 1, ..limits(0.0) }, &never, None).unwrap();
    assert_eq!(one.keys.len(), 1);
    assert_eq!(one.text.matches("[memory-index]").count(), 1);
    assert_eq!(recalled(&ws, text, Limits { max_decisions: 0, ..limits(0.0) }, &never, None), None);
}

#[test]
fn the_session_note_names_the_index_and_its_size() {
    let note = session_note(&ws_with(""), true);
    assert!(note.contains("agents/memory-index.md (3 entries, 2 decision files)"), "{note}");
    for want in ["/when", "/how", ".Section", "..file.md", "memory-index-lsp resolve"] {
        assert!(note.contains(want), "{want}: {note}");
    }
}

#[test]
fn the_header_reads_back_what_it_writes_and_nothing_else() {
    let h = Header {
        written: "/when writing mock tests".into(),
        title: "When Writing Mock Tests (and Fakes)".into(),
        path: "agents/decisions/a b.md".into(),
        line: 12,
        confidence: 0.93,
    };
    assert_eq!(Header::parse(&h.line()), Some(h.clone()));
    let escaped = defang(&h.line()).into_owned();
    assert_eq!(Header::parse(&escaped), None, "an escaped body line is not a header");
    assert_eq!(Header::parse("[memory-index] no arrow here"), None);
    assert_eq!(Header::parse("# When Writing Mock Tests"), None);
}

#[test]
fn a_small_memory_is_listed_whole_at_session_start_and_a_large_one_is_not() {
    let note = session_note(&ws_with(""), false);
    let list = note.split_once("Its decisions (recall one when the work touches it):\n").expect("listed").1;
    assert_eq!(list, "/when writing mock tests\n/how split slow test suites\n/how migrate the booking schema");
    let mut big = Workspace::default();
    big.set_files(
        crate::testgen::generate(LIST_ENTRIES + 20, 3, 1).into_iter().map(|(p, t)| (p, FileText::from(t))).collect(),
    );
    assert!(big.bindings().entries.len() > LIST_ENTRIES);
    assert!(!session_note(&big, true).contains("Its decisions"));
}
