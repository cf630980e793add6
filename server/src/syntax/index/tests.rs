//! Tests of the index parser: line kinds and ranges, one table row per shape.

use super::*;

fn kinds(text: &str) -> Vec<String> {
    let f = parse(text);
    f.lines()
        .map(|l| match &l.kind {
            LineKind::Entry(e) => {
                let extras: Vec<&str> = e.extras.iter().map(|r| r.slice(text)).collect();
                format!("entry {} [{}] {:?}", e.op.word(), e.trigger.slice(text), extras)
            }
            LineKind::SectionHeading(s) => format!("section [{}]", f.sections[*s].name_text),
            k => format!("{k:?}"),
        })
        .collect()
}

#[test]
fn classifies_every_line_kind() {
    let text = "\u{feff}# Memory Index\n/when <trigger>  # example\n\n## agents/decisions/a.md\n\n/when writing mock tests | mock patch, test doubles\n/how split modules\n**Label:**\n- item\n### deeper\n<!-- note -->\nKey — legacy\n/what x\n/When x\n```\n/when in code\n```\n## b.md ##\n";
    let got = kinds(text);
    let want = [
        "Preamble",
        "Preamble",
        "Preamble",
        "section [agents/decisions/a.md]",
        "Blank",
        "entry when [writing mock tests] [\"mock patch\", \"test doubles\"]",
        "entry how [split modules] []",
        "Label(Bold)",
        "Label(ListItem)",
        "Label(Heading)",
        "Comment",
        "Unknown { slash: false }",
        "Unknown { slash: true }",
        "Unknown { slash: true }",
        "Code",
        "Code",
        "Code",
        "section [b.md]",
    ];
    assert_eq!(got, want);
}

#[test]
fn empty_triggers_and_extras_keep_positions() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("/when", "", &[]),
        ("/how   ", "", &[]),
        ("/when | x", "", &["x"]),
        ("/when|x", "", &["x"]),
        ("/when a |", "a", &[""]),
        ("/when a | b,,c,", "a", &["b", "", "c", ""]),
        ("/when a | b | c", "a", &["b | c"]),
        ("  /when  indented  trigger ", "indented  trigger", &[]),
    ];
    for (line, trigger, extras) in cases {
        let text = format!("## s.md\n{line}\n");
        let f = parse(&text);
        let e = f.entry(1).unwrap_or_else(|| panic!("not an entry: {line:?}"));
        assert_eq!(e.trigger.slice(&text), *trigger, "{line:?}");
        let got: Vec<&str> = e.extras.iter().map(|r| r.slice(&text)).collect();
        assert_eq!(&got, extras, "{line:?}");
    }
}

#[test]
fn crlf_lines_exclude_the_terminator() {
    let text = "## a.md\r\n/when x | y\r\n";
    let f = parse(text);
    let e = f.entry(1).unwrap();
    assert_eq!(e.trigger.slice(text), "x");
    assert_eq!(e.extras[0].slice(text), "y");
    assert_eq!(f.full(1).slice(text), "/when x | y\r\n");
    assert_eq!(f.sections[0].name_text, "a.md");
}

#[test]
fn fences_and_comments_hide_sections() {
    let text =
        "# T\n```\n## not a section\n```\n<!--\n## nor this\n-->\n## real.md\n<!-- a\n/when hidden\n-->\n/when shown\n";
    let f = parse(text);
    assert_eq!(f.sections.len(), 1);
    assert_eq!(f.entries.len(), 1);
    assert_eq!(f.entry(11).map(|e| e.trigger.slice(text)), Some("shown"));
}

#[test]
fn sections_span_to_the_next_section() {
    let text = "## a.md\n/when x\n##\n/when y\n";
    let f = parse(text);
    assert_eq!(f.sections.len(), 2);
    assert_eq!(f.sections[0].end_line, 2);
    assert_eq!(f.sections[1].name_text, "");
    assert_eq!(f.sections[1].end_line, 4);
    assert_eq!(f.section_of(3), Some(1));
}

#[test]
fn not_h2_shapes() {
    for s in ["##foo", "    ## indented code", "### h3", "#"] {
        assert!(h2_name(s).is_none(), "{s:?}");
    }
    assert_eq!(atx_level("   ## x"), Some(2));
}

#[test]
fn a_splice_equals_a_fresh_parse_and_moves_every_later_line() {
    let old = "# Index\n\n## a.md\n\n/when one | x, y\n/how two\n\n## b.md\n\n/when three | z\n";
    let new = old.replace("/when one", "/when only one");
    let mut f = parse(old);
    let lines = crate::text::LineIndex::new(&new);
    assert!(f.splice(&new, &lines, 4..5, new.len() as isize - old.len() as isize));
    assert_eq!(f, parse(&new));
    assert_eq!(f.entry(9).map(|e| e.trigger.slice(&new).to_string()), Some("three".into()));
    assert_eq!(f.sections[1].name.slice(&new), "b.md");
    // Several lines at once, each changing its length (reordered entries).
    let swapped = new.replace("/when only one | x, y\n/how two", "/how two\n/when only one | x, y");
    assert!(f.splice(&swapped, &crate::text::LineIndex::new(&swapped), 4..6, 0));
    assert_eq!(f, parse(&swapped));
    let new = swapped;
    // A line that stops being an entry is not a splice, and changes nothing.
    let broken = old.replace("/when one | x, y", "prose");
    assert!(!f.splice(&broken, &crate::text::LineIndex::new(&broken), 4..5, 0));
    assert_eq!(f, parse(&new));
}

#[test]
fn sections_are_found_by_path_first_one_first() {
    let f = parse("## b.md\n## ./a.md\n## c.md\n## a.md\n##\n");
    assert_eq!(f.section_named("a.md"), Some(1), "`./` is dropped and the first of two wins");
    assert_eq!(f.section_named("b.md"), Some(0));
    assert_eq!(f.section_named("c.md"), Some(2));
    assert_eq!(f.section_named(""), Some(4));
    assert_eq!(f.section_named("d.md"), None);
}

#[test]
fn the_operator_vocabulary_is_one_place() {
    assert_eq!(Op::from_word("WHEN"), Some(Op::When));
    assert_eq!(Op::from_word("/how"), Some(Op::How));
    assert_eq!(Op::from_word("what"), None);
    assert_eq!(Op::split_title("When  Writing Mock Tests"), Some((Op::When, "Writing Mock Tests")));
    assert_eq!(Op::split_title("how TO encode paths"), Some((Op::How, "encode paths")));
    assert_eq!(Op::split_title("How Encode Paths"), None, "`How` needs its `to`");
    assert_eq!(Op::split_title("When"), None);
    assert_eq!(Op::split_title("When "), None);
    assert_eq!(Op::split_title("/when x"), None, "a token is not a title prefix");
    assert_eq!(Op::split_title("Whenever x"), None);
    for op in Op::ALL {
        assert_eq!(op.title_prefix().to_lowercase(), op.key_prefix());
        assert_eq!(Op::split_title(&format!("{}x y", op.title_prefix())), Some((op, "x y")));
    }
}
