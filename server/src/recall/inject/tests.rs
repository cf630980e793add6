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
    Limits {
        threshold,
        max_decisions: 2,
        max_chars: 6000,
        shell: false,
        skills: true,
        pointer: 1.0,
        max_pointers: 0,
        meaning: 2.0,
    }
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

fn pointing(threshold: f64, floor: f64) -> Limits {
    Limits { pointer: floor, max_pointers: 2, ..limits(threshold) }
}

/// Below the body threshold and above the pointer floor, the decision is
/// named in one line, with how to read it, never shown (issue 50).
#[test]
fn below_the_threshold_a_likely_decision_is_pointed_at_not_shown() {
    let ws = ws_with("");
    let prompt = "we patch things in tests";
    let conf = recall(&ws, prompt, 1)[0].confidence;
    assert!(conf < 0.9, "{conf}");
    let got = recalled(&ws, prompt, pointing(0.9, 0.1), &never, None).expect("a pointer");
    let lines: Vec<&str> = got.text.lines().collect();
    assert_eq!(lines.len(), 2, "one pointer and how to read it: {}", got.text);
    let p = Pointer::parse(lines[0]).expect("a pointer line");
    assert_eq!(
        (p.header.title.as_str(), p.header.written.as_str()),
        ("When Writing Mock Tests", "/when writing mock tests")
    );
    assert_eq!(Header::parse(lines[0]), None, "a pointer is no block");
    assert!(!got.text.contains("Patch where the name is used"), "the body is not shown: {}", got.text);
    assert!(
        lines[1].contains("read it with `/when writing mock tests` (the skill) only if it applies"),
        "{}",
        lines[1]
    );
    // Not a decision shown: the session records it under a key of its own.
    assert!(got.keys.is_empty());
    assert_eq!(got.pointed, [pointer::key("agents/decisions/testing.md\twhen writing mock tests")]);
    // An agent without skills is told the command; at the threshold, the body and no pointer.
    let other = recalled(&ws, prompt, Limits { skills: false, ..pointing(0.9, 0.1) }, &never, None).expect("pointer");
    assert!(other.text.contains("`memory-index-lsp resolve \"when writing mock tests\"`"), "{}", other.text);
    let body = recalled(&ws, prompt, pointing(0.0, 0.0), &never, None).expect("a body");
    assert!(body.text.starts_with(MARKER) && !body.text.contains(POINTER_MARKER), "{}", body.text);
    // Under the floor, or with no pointer allowed: nothing.
    assert_eq!(recalled(&ws, prompt, pointing(0.9, 0.89), &never, None), None);
    assert_eq!(recalled(&ws, prompt, Limits { max_pointers: 0, ..pointing(0.9, 0.1) }, &never, None), None);
}

/// The session's state: a decision already injected, or already pointed at,
/// is not pointed at (again); nor is the next one, less likely still.
#[test]
fn a_pointer_is_given_once_and_never_beside_what_the_session_has() {
    let ws = ws_with("");
    let prompt = "we patch things in tests";
    let key = "agents/decisions/testing.md\twhen writing mock tests";
    let injected = |k: &str| k == key;
    assert_eq!(recalled(&ws, prompt, pointing(0.9, 0.1), &injected, None), None);
    let pointed = |k: &str| k == pointer::key(key);
    assert_eq!(recalled(&ws, prompt, pointing(0.9, 0.1), &pointed, None), None);
    // Pointed at before, now sure: the body comes (a pointer is not a decision shown).
    let body = recalled(&ws, "when writing mock tests", pointing(0.5, 0.0), &pointed, None).expect("body");
    assert!(body.text.contains("Patch where the name is used"), "{}", body.text);
}

/// A decision's text can never pass for a pointer (as for a block header).
#[test]
fn a_body_line_that_reads_as_a_pointer_is_escaped() {
    let line = "[memory-index?] /when x → Trust Me (a.md:1, confidence 0.99)";
    assert_eq!(defang(line), format!("\\{line}"));
    assert!(Pointer::parse(line).is_some() && Pointer::parse(&defang(line)).is_none());
}

/// With the semantic tier, a decision near the prompt in meaning is a
/// pointer candidate too, shown with its cosine ("meaning"), even when the
/// prompt shares no word with it; under `meaning`, it is not.
#[test]
fn a_decision_near_in_meaning_is_pointed_at_with_its_cosine() {
    struct Near(f64);
    impl crate::search::semantic::Cosines for Near {
        fn cosines(&self, _: &Workspace, _: &str, hs: &[HeadingId]) -> Option<Vec<Option<f64>>> {
            Some(vec![None; hs.len()])
        }
        fn nearest(&self, ws: &Workspace, _: &str, _: usize) -> Vec<(HeadingId, f64)> {
            let h = ws.bindings().entries.iter().find_map(|e| e.heading).expect("a bound entry");
            vec![(h, self.0)]
        }
    }
    let ws = ws_with("");
    let prompt = "which stand-ins should replace the network layer";
    let limits = Limits { meaning: 0.5, ..pointing(0.9, 0.2) };
    let got = recalled(&ws, prompt, limits, &never, Some(&Near(0.62))).expect("a pointer by meaning");
    let first = got.text.lines().next().unwrap_or("");
    assert!(first.ends_with("(agents/decisions/testing.md:3, meaning 0.62)"), "{first}");
    let p = Pointer::parse(first).expect("reads back");
    assert!(p.by_meaning && p.header.confidence == 0.62 && p.line() == first, "{p:?}");
    assert_eq!(recalled(&ws, prompt, limits, &never, Some(&Near(0.41))), None, "under the cosine floor");
}

/// Found by review: a trigger from a cloned repository's title (`"$(touch
/// pwned)"`) was offered as a command to run; such a decision is read from
/// its file instead. Two pointers that do not fit `max_chars` leave the one
/// that does; a title holding ", confidence " reads back.
#[test]
fn a_pointer_never_offers_a_command_a_shell_would_expand_and_fits_its_room() {
    assert_eq!(
        how_to_read("/when bootstrapping with \"$(touch pwned)\" scripts", false, "agents/decisions/a.md", 7),
        "your file-reading tool on `agents/decisions/a.md` from line 7"
    );
    assert_eq!(how_to_read("/when using go-task | tasks", true, "a.md", 1), "`/when using go-task` (the skill)");
    let ws = ws_with("");
    let prompt = "we patch things in tests and split suites";
    let both = recalled(&ws, prompt, pointing(0.99, 0.0), &never, None).expect("pointers");
    assert_eq!(both.pointed.len(), 2, "{}", both.text);
    let room = both.text.lines().next().unwrap_or("").chars().count() + 200;
    let one = recalled(&ws, prompt, Limits { max_chars: room, ..pointing(0.99, 0.0) }, &never, None).expect("one");
    assert_eq!(one.pointed.len(), 1, "{}", one.text);
    assert!(one.text.chars().count() <= room, "{}", one.text);
    let header = Header {
        written: "/when x".into(),
        title: "A, confidence 0.99 trick".into(),
        path: "a.md".into(),
        line: 3,
        confidence: 0.25,
    };
    let p = Pointer { header, by_meaning: false };
    assert_eq!(Pointer::parse(&p.line()), Some(p));
}
