//! A Markdown file's outline for import: its headed sections (ATX or setext, outside code blocks and HTML comments), each with its own text and the text of its sub-sections.

/// A heading's section: level, title and the text up to the next heading of the same or a higher level
/// (deeper headings kept inside, as text).
pub(super) struct Section {
    pub(super) level: usize,
    pub(super) title: String,
    pub(super) text: String,
    /// The text before its first deeper heading.
    pub(super) own: String,
    /// Line of its heading, and the line its section ends before.
    pub(super) from: usize,
    pub(super) until: usize,
    /// Lines its heading takes: 1, or a setext heading's text lines and underline.
    pub(super) lines: usize,
}

/// Splits Markdown into headed sections, outside code fences. A heading
/// indented four spaces or more is code, and a comment of several lines
/// (`<!--` … `-->`) is left out whole: it is not rendered, and a heading
/// inside it is no section (found by review: a commented-out section was
/// imported as a decision). A setext heading (`Packaging` over `---`) is
/// a heading, as the decision file's parser reads it (found by review: its
/// section was skipped whole, as a body that would change the decision
/// file's structure).
pub(super) fn split(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut open: Vec<usize> = Vec::new(); // indexes of sections still collecting text
    let mut fence: Option<(char, usize)> = None;
    let mut deeper: Vec<bool> = Vec::new(); // per section: a deeper heading was seen
    let mut comment = false;
    let lines: Vec<&str> = text.lines().collect();
    let mut para = false; // the line before is paragraph text
    let mut setext_until = 0; // the lines after a setext heading's first, up to its underline
    for (n, &line) in lines.iter().enumerate() {
        if n < setext_until {
            continue;
        }
        let t = line.trim_start();
        if fence.is_none() && (comment || t.starts_with("<!--") && !t.contains("-->")) {
            comment = !line.contains("-->");
            continue;
        }
        let fence_mark =
            t.chars().next().filter(|c| *c == '`' || *c == '~').map(|c| (c, t.chars().take_while(|x| *x == c).count()));
        match (fence, fence_mark) {
            (None, Some((c, n))) if n >= 3 => fence = Some((c, n)),
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && t.trim_end().chars().all(|x| x == c) => {
                fence = None
            }
            _ => {}
        }
        let indent = line.len() - t.len();
        let code = indent >= 4 || line[..indent].contains('\t');
        let plain = fence.is_none() && fence_mark.is_none() && !code;
        let heading =
            if plain { atx(t).map(|(l, t)| (l, t, 1)).or_else(|| setext(&lines[n..]).filter(|_| !para)) } else { None };
        para = plain && heading.is_none() && !t.is_empty();
        if let Some((level, title, taken)) = heading {
            setext_until = n + taken;
            for &i in &open {
                if out[i].level >= level {
                    out[i].until = n;
                }
            }
            open.retain(|&i| out[i].level < level);
            for &i in &open {
                out[i].text.push_str(line);
                out[i].text.push('\n');
                deeper[i] = true;
            }
            out.push(Section {
                level,
                title,
                text: String::new(),
                own: String::new(),
                from: n,
                until: usize::MAX,
                lines: taken,
            });
            deeper.push(false);
            open.push(out.len() - 1);
            continue;
        }
        for &i in &open {
            out[i].text.push_str(line);
            out[i].text.push('\n');
            if !deeper[i] {
                out[i].own.push_str(line);
                out[i].own.push('\n');
            }
        }
    }
    out
}

/// A setext heading starting at `lines[0]` (`Title` over `===` is level 1,
/// over `---` level 2; the text may take several lines): its level, title
/// and how many lines it takes with its underline. `lines[0]` starts a
/// paragraph; a list item, quote, table row or HTML line does not, and
/// a `---` under one of those is a thematic break.
fn setext(lines: &[&str]) -> Option<(usize, String, usize)> {
    // A marker then a space (or nothing): a list item (`- `, `1. `).
    let marker = |t: &str, m: &str| t.strip_prefix(m).is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']));
    let starts_block = |t: &str| {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        t.is_empty()
            || t.starts_with(['#', '>', '|', '<'])
            || t.starts_with("```")
            || t.starts_with("~~~")
            || ["-", "*", "+"].iter().any(|m| marker(t, m))
            || (1..=9).contains(&digits) && [".", ")"].iter().any(|m| marker(&t[digits..], m))
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let first = lines.first()?;
    if indent(first) > 3 || starts_block(first.trim()) {
        return None;
    }
    for (k, l) in lines.iter().enumerate().skip(1) {
        let t = l.trim();
        let underline =
            indent(l) <= 3 && !t.is_empty() && (t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'-'));
        if underline {
            let title = lines[..k].iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
            return Some((if t.starts_with('=') { 1 } else { 2 }, title, k + 1));
        }
        if starts_block(t) || t.starts_with(['=', '-']) {
            return None;
        }
    }
    None
}

/// `## Title` → (2, "Title").
fn atx(line: &str) -> Option<(usize, String)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    // Without HTML comments (MADR's `## Links <!-- optional -->`).
    let mut title = rest.to_string();
    while let Some(open) = title.find("<!--") {
        let close = title[open..].find("-->").map_or(title.len(), |c| open + c + 3);
        title.replace_range(open..close, "");
    }
    Some((level, title.trim().trim_end_matches('#').trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by review: a commented-out section was imported as a decision, and an indented
    /// code block's `## ` line cut its section short.
    #[test]
    fn a_setext_heading_starts_a_section_and_a_thematic_break_does_not() {
        let text = "Rules\n=====\n\n## Testing\n\nUse pytest.\n\nPackaging\n---------\n\nUse uv\nalways.\n\n\
                    - a list item\n---\n\nText after a break.\n\n---\n\nTwo lines\nof title\n--\nBody.\n";
        let s = split(text);
        let got: Vec<(usize, &str, usize, usize)> =
            s.iter().map(|s| (s.level, s.title.as_str(), s.from, s.lines)).collect();
        assert_eq!(
            got,
            [(1, "Rules", 0, 2), (2, "Testing", 3, 1), (2, "Packaging", 7, 2), (2, "Two lines of title", 20, 3)]
        );
        assert_eq!(s[1].text, "\nUse pytest.\n\n");
        assert!(s[2].text.contains("Use uv\nalways.") && s[2].text.contains("- a list item\n---\n"), "{}", s[2].text);
        assert_eq!(s[3].text, "Body.\n");
    }

    #[test]
    fn no_section_starts_in_a_comment_or_an_indented_code_block() {
        let text = "# Rules\n\n## Docs\n\n<!--\n## Commented out section\nOld rule.\n-->\n\nKeep docs short.\n\n\
                    Template:\n\n    ## Indented code heading\n    text\n\n## Normal\n\nNormal rule.\n";
        let s = split(text);
        let titles: Vec<&str> = s.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Rules", "Docs", "Normal"]);
        let docs = &s[1].text;
        assert!(docs.contains("Keep docs short.") && docs.contains("    ## Indented code heading"), "{docs}");
        assert!(!docs.contains("Old rule") && !docs.contains("-->"), "{docs}");
        // A comment on one line, and an unclosed one to the end.
        let s = split("## A\n\n<!-- one line -->\nText.\n\n## B\n\n<!-- open\n## C\n");
        assert_eq!(s.iter().map(|s| s.title.as_str()).collect::<Vec<_>>(), ["A", "B"]);
        assert!(s[0].text.contains("Text."));
    }
}
