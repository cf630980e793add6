//! Tests of the decision-file parser: CommonMark headings, titles, sections and content counts.

use super::*;

fn titles(text: &str) -> Vec<(u8, String, bool)> {
    parse(text).headings.into_iter().map(|h| (h.level, h.title, h.structural)).collect()
}

#[test]
fn atx_setext_and_closing_hashes() {
    let text = "# Title\n\n## When A ##\n\nWhen Setext\n-----------\n\n### .Group\n";
    assert_eq!(
        titles(text),
        [
            (1, "Title".into(), false),
            (2, "When A".into(), false),
            (2, "When Setext".into(), false),
            (3, ".Group".into(), true)
        ]
    );
    let h = &parse(text).headings[1];
    assert_eq!(h.title_range.slice(text), "When A");
    assert_eq!(h.line, 2);
    assert!(parse(text).headings[2].setext);
}

#[test]
fn code_and_html_blocks_hide_headings() {
    let text =
        "## When Real\n\n```python\n# comment\n## When Fake\n```\n\n    ## indented code\n\n<div>\n## html\n</div>\n";
    assert_eq!(titles(text), [(2, "When Real".into(), false)]);
    // The section runs past the fenced `# comment` to the end.
    let h = &parse(text).headings[0];
    assert_eq!(h.section, TextRange::new(0, text.len()));
}

#[test]
fn inline_markup_is_dropped_from_titles_but_spans_the_source() {
    let text = "## When Using `foo` *Flags*\n";
    let h = &parse(text).headings[0];
    assert_eq!(h.title, "When Using foo Flags");
    assert_eq!(h.title_range.slice(text), "When Using `foo` *Flags*");
}

#[test]
fn sections_parents_and_direct_content() {
    let text = "# Doc\n\n## .Group\n\n### When A\nline 1\nline 2\nline 3\n\n## When B\n<!-- a\ncomment -->\nonly line\n### When C\nbody\n";
    let f = parse(text);
    let by = |t: &str| f.headings.iter().find(|h| h.title == t).unwrap();
    assert_eq!(by("When A").parent, Some(1));
    assert_eq!(by("When A").direct_lines, 3);
    assert!(by("When B").has_children);
    assert_eq!(by("When B").direct_lines, 1, "multi-line comments are not content");
    assert_eq!(by(".Group").section.slice(text), "## .Group\n\n### When A\nline 1\nline 2\nline 3\n\n");
    assert_eq!(by("When A").range.slice(text), "### When A");
    assert_eq!(f.line_count, 15);
}

#[test]
fn front_matter_is_not_a_setext_heading() {
    let text = "---\ntitle: x\n---\n\n## When A\n";
    assert_eq!(titles(text), [(2, "When A".into(), false)]);
}

#[test]
fn crlf_and_lone_cr_line_numbers() {
    let text = "# T\r\n\r\n## When A\r\nx\r## When B\r";
    let f = parse(text);
    assert_eq!(f.headings[1].line, 2);
    assert_eq!(f.headings[1].range.slice(text), "## When A");
    assert_eq!(f.headings[2].line, 4);
}

#[test]
fn empty_heading_has_an_empty_title_range() {
    let text = "## \n";
    let h = &parse(text).headings[0];
    assert_eq!(h.title, "");
    assert!(h.title_range.is_empty());
}

/// `substantive_lines` as it was: every comment checked for every line.
fn substantive_lines_naive(text: &str, body: TextRange, comments: &[TextRange]) -> u32 {
    let mut n = 0;
    for l in lines(body.slice(text)) {
        let abs = TextRange::new(body.start + l.content.start, body.start + l.content.end);
        if !abs.slice(text).trim().is_empty() && !comments.iter().any(|c| c.start <= abs.start && abs.end <= c.end) {
            n += 1;
        }
    }
    n
}

#[test]
fn many_comments_are_counted_in_one_walk() {
    let mut text = String::from("## When Commented\n");
    for i in 0..20_000 {
        text.push_str(if i % 3 == 0 { "body line\n" } else { "<!-- note -->\n" });
    }
    let f = parse(&text);
    assert_eq!(f.headings[0].direct_lines, 6667);
}

proptest::proptest! {
    /// The forward walk over comments counts like checking every comment for every line,
    /// for every body (any pair of line starts), with pulldown-cmark's comment blocks.
    #[test]
    fn substantive_lines_match_the_naive_count(
        parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("<!-- c -->"),
                proptest::strategy::Just("  <!-- c -->"),
                proptest::strategy::Just("<!--"),
                proptest::strategy::Just("-->"),
                proptest::strategy::Just("x -->"),
                proptest::strategy::Just("text"),
                proptest::strategy::Just(""),
                proptest::strategy::Just("  "),
                proptest::strategy::Just("## h"),
                proptest::strategy::Just("\u{a0}"),
            ],
            0..25,
        ),
        nl in proptest::prop_oneof![proptest::strategy::Just("\n"), proptest::strategy::Just("\r\n"), proptest::strategy::Just("\r")],
        from in 0usize..30,
        to in 0usize..30,
    ) {
        let text = parts.join(nl);
        let comments = pulldown(&text).comments;
        let starts: Vec<usize> =
            std::iter::once(0).chain(lines(&text).flat_map(|l| [l.content.end, l.full.end])).collect();
        let pick = |i: usize| starts[i.min(starts.len() - 1)];
        let body = TextRange::new(pick(from.min(to)), pick(from.max(to)));
        proptest::prop_assert_eq!(
            substantive_lines(&text, body, &comments),
            substantive_lines_naive(&text, body, &comments)
        );
    }
}
