//! A Markdown file's outline for import: its headed sections (outside code blocks and HTML comments), each with its own text and the text of its sub-sections.

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
}

/// Splits Markdown into headed sections, outside code fences. A heading
/// indented four spaces or more is code, and a comment of several lines
/// (`<!--` … `-->`) is left out whole: it is not rendered, and a heading
/// inside it is no section (found by review: a commented-out section was
/// imported as a decision).
pub(super) fn split(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut open: Vec<usize> = Vec::new(); // indexes of sections still collecting text
    let mut fence: Option<(char, usize)> = None;
    let mut deeper: Vec<bool> = Vec::new(); // per section: a deeper heading was seen
    let mut comment = false;
    for (n, line) in text.lines().enumerate() {
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
        let heading = if fence.is_none() && fence_mark.is_none() && !code { atx(t) } else { None };
        if let Some((level, title)) = heading {
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
            out.push(Section { level, title, text: String::new(), own: String::new(), from: n, until: usize::MAX });
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
