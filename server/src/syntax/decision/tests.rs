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
