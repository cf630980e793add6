//! Tests of the decision-file parser: CommonMark headings, titles, sections and content counts.

use proptest::prelude::*;

use super::*;
use crate::text::lines;

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

proptest! {
    /// The forward walk over comments counts like checking every comment for every line,
    /// for every body (any pair of line starts), with pulldown-cmark's comment blocks.
    #[test]
    fn substantive_lines_match_the_naive_count(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("<!-- c -->"),
                Just("  <!-- c -->"),
                Just("<!--"),
                Just("-->"),
                Just("x -->"),
                Just("text"),
                Just(""),
                Just("  "),
                Just("## h"),
                Just("\u{a0}"),
                Just("\u{a0}x"),
                Just("\t"),
                Just("\x0b"),
                Just("\x0c x"),
                Just("\u{2028}"),
                Just("\u{3000} "),
                Just("é"),
            ],
            0..25,
        ),
        nl in prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
        from in 0usize..30,
        to in 0usize..30,
    ) {
        let text = parts.join(nl);
        let comments = pulldown(&text).comments;
        let starts: Vec<usize> =
            std::iter::once(0).chain(lines(&text).flat_map(|l| [l.content.end, l.full.end])).collect();
        let pick = |i: usize| starts[i.min(starts.len() - 1)];
        let body = TextRange::new(pick(from.min(to)), pick(from.max(to)));
        prop_assert_eq!(
            substantive_lines(&text, &LineIndex::new(&text), body, &comments),
            substantive_lines_naive(&text, body, &comments)
        );
    }
}

// ---- The line scanner against the pulldown-cmark path ----

/// The pure pulldown-cmark parse, as `parse_with` was before the scanner
/// (on the same plain line ends: a leading mark as spaces, lone `\r` as `\n`).
fn reference(text: &str) -> DecisionFile {
    finish(text, &LineIndex::new(text), pulldown(&plain_line_ends(text)))
}

/// Both paths agree on `text`; returns whether the scanner decided it.
fn assert_same(text: &str) -> bool {
    let plain = plain_line_ends(text);
    let scanned = scan::headings(&plain, &LineIndex::new(text));
    if let Some(raw) = &scanned {
        assert_eq!(raw, &pulldown(&plain), "scanner and pulldown-cmark differ on {text:?}");
    }
    assert_eq!(parse(text), reference(text), "parse differs from pulldown-cmark on {text:?}");
    scanned.is_some()
}

#[test]
fn typical_shapes_take_the_fast_path() {
    let typical = [
        "# Topic\n\nIntro paragraph with `code` and **bold**.\n\n## .Group\n\n### When Doing A\n\n**Decision:** do it.\n\n```python\n# not a heading\nx = 1\n```\n\n- item one\n- item `two` with <tag> inside\n  continued\n- **Bold:** three\n\n<!-- a comment -->\n\n### How to Do B ##\n\nRationale: because.\n<!--\nmulti-line\n-->\n1. first\n2. second\n\n---\n\n## When Done\n",
        "# T\r\n\r\n## When A\r\n\r\nText.\r\n\r\n~~~\r\n## inside\r\n~~~\r\n",
        "## When Empty\n\n    indented code\n    # not a heading\n\n> quoted text\n> more\n\n## When After Quote\n",
        "",
        "plain text only",
    ];
    for text in typical {
        assert!(assert_same(text), "the scanner gave up on a typical file: {text:?}");
    }
    for (path, text) in crate::testgen::generate(200, 20, 7) {
        if path.starts_with("agents/decisions/") {
            assert!(assert_same(&text), "the scanner gave up on generated {path}");
        }
    }
}

/// pulldown-cmark's quirks the scanner reproduces, and the cases it leaves to
/// pulldown-cmark: each text parses the same on both paths and takes the path
/// given.
#[test]
fn scanner_quirks_match_pulldown() {
    let cases = [
        // Closing sequences: only spaces (not tabs) before the `#` run count.
        ("## foo ##\n## foo\t##\n## foo#\n## # #\n## ###\n##\n## \n#\t\n####### seven\n## foo \t\n", true),
        ("#\tWhen\t\n# ", true),
        // A title with inline markup is parsed on its own line; brackets may need the whole file.
        ("## When `code` and *em* \\# &amp; {#id}\n  ### <b>x</b>\n", true),
        ("## When [linked]\n\n[linked]: /x\n", false),
        // Fences: a tab after the closing run does not close; a longer run closes; tildes.
        ("```\n# a\n```\t\n# b\n````\n# c\n~~~ x`y\n# d\n~~~~\n# e\n", true),
        ("``` \n```\t\n# ", true),
        // Comments: `<!-->` closes at once; an indented one starts at its `<`.
        ("<!-->\n# a\n  <!-- b\nc -->\n# d\n<!--\n", true),
        (" <!-- c -->", true),
        ("<div>\n# a\n</div>\n", false),
        // A metadata block anywhere: `---` directly followed by text and later closed.
        ("# T\n\n---\n## When Hidden\n---\n\n## When Seen\n", false),
        ("---\n```~\n---\n# ", false),
        ("---\n## When Not Hidden\n", true),
        ("---\n\n## When After A Break\n---\n", true),
        // Setext underlines after paragraph text.
        ("text\n===\n# ", false),
        ("# a\n===\n", true),
        // Lists and quotes: headings at column 0 end them; anything block-like inside gives up.
        ("- a\n# b\n- c\n\n  ## d\n", false),
        ("- a\n\nb\n## c\n", true),
        ("> a\n# b\n", true),
        ("- a\n  -\n", false),
        ("- text\n[x] y\n    #\t\n# ", false),
        ("- [ ] task\n- [link](u) text\n\n## When After\n", true),
        ("1. step\n   ```sh\n   # not a heading\n   ```\n", false),
        // Hostile bytes and terminators (a mark and lone `\r`s are read as
        // spaces and `\n`s first, so these take the fast path).
        ("\u{feff}# a\n", true),
        ("# a\r# b\r", true),
        ("# a\0\n", false),
    ];
    for (text, fast) in cases {
        assert_eq!(assert_same(text), fast, "path taken for {text:?}");
    }
}

/// A corpus of real decision files (`DECISION_CORPUS`, or the shared one),
/// when present: every file parses the same on both paths.
#[test]
fn corpus_parses_the_same_on_both_paths() {
    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/head/agents/decisions");
    let dir = std::env::var("DECISION_CORPUS").unwrap_or_else(|_| shared.into());
    let dir = std::path::Path::new(&dir);
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("skipped: no corpus at {}", dir.display());
        return;
    };
    let (mut fast, mut all) = (0, 0);
    for e in entries.flatten() {
        let Ok(text) = std::fs::read_to_string(e.path()) else { continue };
        all += 1;
        fast += usize::from(assert_same(&text));
    }
    eprintln!("corpus: {fast} of {all} files on the fast path");
}

/// Words of ATX titles: plain text, inline markup, closing-sequence look-alikes.
fn title() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        8 => Just("When"),
        8 => Just("foo"),
        8 => Just(" "),
        2 => Just("  "),
        2 => Just("\t"),
        2 => Just("#"),
        2 => Just(" #"),
        2 => Just(" ##"),
        1 => Just("\t#"),
        2 => Just("`code`"),
        1 => Just("``"),
        1 => Just("`"),
        1 => Just("*em*"),
        1 => Just("**b**"),
        1 => Just("_u_"),
        1 => Just("\\#"),
        1 => Just("\\"),
        1 => Just("&amp;"),
        1 => Just("&#35;"),
        1 => Just("&"),
        1 => Just("{#id}"),
        1 => Just("{.c}"),
        1 => Just("}"),
        1 => Just("[link](u)"),
        1 => Just("]"),
        1 => Just("<b>"),
        1 => Just("<!-- c -->"),
        1 => Just("~x~"),
        1 => Just("!"),
        1 => Just("|"),
        1 => Just("$x$"),
        1 => Just("\u{a0}"),
        2 => Just("é"),
        1 => Just("..."),
        1 => Just("--"),
        1 => Just("'\""),
    ];
    proptest::collection::vec(word, 0..6).prop_map(|w| w.concat())
}

/// Lines of the common shape, including every construct the scanner decides itself.
fn tame_line(prefix: impl Strategy<Value = &'static str>) -> impl Strategy<Value = String> {
    let atx =
        (0usize..5, 1usize..8, prop_oneof![4 => Just(" "), 1 => Just(""), 1 => Just("\t"), 1 => Just("  ")], title())
            .prop_map(|(ind, n, sep, t)| format!("{}{}{sep}{t}", " ".repeat(ind), "#".repeat(n)));
    let fence = (
        prop_oneof![4 => Just(0usize), 1 => 1usize..6],
        prop_oneof![Just('`'), Just('~')],
        2usize..6,
        prop_oneof![Just(""), Just("rust"), Just(" a`b"), Just("~"), Just(" "), Just("\t"), Just(" x")],
    )
        .prop_map(|(ind, c, n, info)| format!("{}{}{info}", " ".repeat(ind), c.to_string().repeat(n)));
    let fixed = prop_oneof![
        Just(""),
        Just(""),
        Just("  "),
        Just("text"),
        Just("**Decision:** do `x`."),
        Just("a line  "),
        Just("a line\\"),
        Just("==="),
        Just("---"),
        Just("=="),
        Just("  ---  "),
        Just("= ="),
        Just("--- x"),
        Just("***"),
        Just("* * *"),
        Just("___"),
        Just("-- -"),
        Just("..."),
        Just("title: x"),
        Just("    code"),
        Just("    # not heading"),
        Just("<!-- c -->"),
        Just("<!--"),
        Just("-->"),
        Just("x -->"),
        Just("<!-->"),
        Just("  <!-- a"),
        Just("- item"),
        Just("* item"),
        Just("+ item"),
        Just("1. item"),
        Just("2) item"),
        Just("1234567890. x"),
        Just("  continuation"),
        Just("  - nested"),
        Just("> q"),
        Just(">"),
        Just("- [ ] task"),
        Just("- [link](u) x"),
        Just("[x] y"),
        Just("[x]: y"),
        Just("[x\\]: y"),
    ];
    // Closing fences and metadata delimiters, often enough to meet their openers.
    let closer = prop_oneof![
        Just("```"),
        Just("~~~"),
        Just("````"),
        Just("``` "),
        Just("```\t"),
        Just("~~~ x"),
        Just("---"),
        Just("--- "),
        Just("---\t"),
        Just("..."),
        Just(". . ."),
    ];
    let body = prop_oneof![4 => atx, 2 => fence, 2 => closer.prop_map(String::from), 8 => fixed.prop_map(String::from)];
    (prefix, body).prop_map(|(p, b)| format!("{p}{b}"))
}

/// Indentation before a line's content, container markers only now and then:
/// documents the scanner mostly decides itself.
fn flow_prefix() -> impl Strategy<Value = &'static str> {
    prop_oneof![40 => Just(""), 2 => Just(" "), 2 => Just("  "), 1 => Just("   "), 2 => Just("    "), 1 => Just("- "), 1 => Just("> ")]
}

/// Indentation and container markers before a line's content.
fn prefix() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        24 => Just(""),
        2 => Just(" "),
        2 => Just("  "),
        1 => Just("   "),
        2 => Just("    "),
        2 => Just("- "),
        1 => Just("  - "),
        1 => Just("1. "),
        1 => Just("10) "),
        2 => Just("> "),
        1 => Just(">"),
        1 => Just("> - "),
        1 => Just("\t"),
        1 => Just(" \t"),
    ]
}

/// Lines the scanner mostly leaves to pulldown-cmark: tabs, other HTML, headings and
/// fences inside containers, link reference definitions, hostile bytes.
fn wild_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\tcode".to_string()),
        Just("\t# tab heading?".to_string()),
        Just(" \t- tab item".to_string()),
        Just("-".to_string()),
        Just("- - -".to_string()),
        Just("<div>".to_string()),
        Just("</div>".to_string()),
        Just("<b>inline</b>".to_string()),
        Just("<?x?>".to_string()),
        Just("<!DOCTYPE html>".to_string()),
        Just("<script>".to_string()),
        Just("- # h".to_string()),
        Just("- ```".to_string()),
        Just("1. ~~~".to_string()),
        Just("- <!-- c -->".to_string()),
        Just("-\tx".to_string()),
        Just("> # h".to_string()),
        Just("> > x".to_string()),
        Just(">- x".to_string()),
        Just("> ---".to_string()),
        Just("  -".to_string()),
        Just("  ===".to_string()),
        Just("[foo]: /url".to_string()),
        Just("[foo]: /url \"title".to_string()),
        Just("\"".to_string()),
        Just("[foo]".to_string()),
        Just("## x {#id .c}".to_string()),
        Just("\u{feff}# bom".to_string()),
        Just("\u{0}".to_string()),
        Just("\u{a0}# nbsp".to_string()),
        Just("\u{2028}".to_string()),
        Just("\x0b# vt".to_string()),
        Just("#\x0c".to_string()),
        Just("+++".to_string()),
        "[ -~]{0,12}",
        "\\PC{0,6}",
    ]
    .prop_flat_map(|body| prefix().prop_map(move |p| format!("{p}{body}")))
}

/// Documents of the scanner's common shape, and documents with everything.
fn document() -> impl Strategy<Value = String> {
    prop_oneof![lines_of(tame_line(flow_prefix())), lines_of(prop_oneof![10 => tame_line(prefix()), 1 => wild_line()])]
}

/// Up to 30 `line`s, each with a terminator: all `\n`, all `\r\n`, mixed, or
/// mixed with lone `\r`; the last one sometimes without.
fn lines_of(line: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    let style = prop_oneof![6 => Just(0u8), 2 => Just(1), 2 => Just(2), 1 => Just(3)];
    (style, proptest::collection::vec((line, 0u8..4), 0..30), any::<bool>()).prop_map(|(style, lines, last)| {
        let mut s = String::new();
        let n = lines.len();
        for (i, (l, pick)) in lines.into_iter().enumerate() {
            s.push_str(&l);
            if i + 1 < n || last {
                s.push_str(match (style, pick) {
                    (0, _) | (2, 0 | 1) | (3, 0) => "\n",
                    (3, 1) => "\r",
                    _ => "\r\n",
                });
            }
        }
        s
    })
}

/// `PROPTEST_CASES`, or 500: a few seconds in a debug build. Run hundreds of
/// thousands (release) after changing the scanner.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(500)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// For every text, `parse` (scanner first) equals the pure pulldown-cmark parse,
    /// and whatever the scanner decides equals pulldown-cmark's raw headings and comments.
    #[test]
    fn scanner_equals_pulldown(text in document()) {
        assert_same(&text);
    }
}

/// A byte-order mark does not hide the first heading, and lone `\r` line
/// ends separate lines, as editors show them.
#[test]
fn byte_order_mark_and_lone_cr_line_ends() {
    let bom = parse("\u{feff}## When Alpha\n\nbody\n");
    assert_eq!(bom.headings.len(), 1);
    assert_eq!(bom.headings[0].title, "When Alpha");
    assert_eq!(bom.headings[0].range.start, 3, "offsets stay those of the text");
    let cr = parse("# A\r\r## When Alpha\r\rbody\r\r## When Beta\r\rbody\r");
    let titles: Vec<&str> = cr.headings.iter().map(|h| h.title.as_str()).collect();
    assert_eq!(titles, ["A", "When Alpha", "When Beta"]);
}
