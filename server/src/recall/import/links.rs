//! Where a source's links lead once its text sits in a decision file: relative links, anchors and reference definitions rewritten, inline code left as text.

/// `line` with each relative Markdown link (`[t](../x.md#y)`) of a source at
/// `source` (relative to the root) made relative to a file `up` below the
/// root, and an anchor of the source's own headings (`#setup`) leads to the
/// source (`../../AGENTS.md#setup`); a reference definition (`[rb]:
/// ops/runbook.md`) the same; links that are absolute, URLs or that leave
/// the root stay, and so does text inside inline code.
pub(super) fn relink(line: &str, source: &str, up: &str) -> String {
    if source.starts_with('/') || source.starts_with("../") || source == ".." {
        return line.to_string();
    }
    let base: Vec<&str> = source.split('/').collect();
    let base = &base[..base.len() - 1];
    // Where `target` (as written in the source) leads from the decision file.
    let moved = |target: &str| -> String {
        // An anchor of the source's own headings leads to the source.
        if let Some(anchor) = target.strip_prefix('#').filter(|a| !a.is_empty()) {
            return format!("{up}{source}#{anchor}");
        }
        let keep = target.is_empty()
            || target.starts_with(['#', '/', '<'])
            || target.contains("://")
            || target.starts_with("mailto:");
        let mut parts: Vec<&str> = base.to_vec();
        let mut inside = !keep;
        for seg in target.split('/') {
            match seg {
                "." | "" => {}
                ".." => inside &= parts.pop().is_some(),
                s => parts.push(s),
            }
        }
        if inside {
            format!("{up}{}", parts.join("/"))
        } else {
            target.to_string()
        }
    };
    // A reference definition: `[label]: target "title"`.
    let t = line.trim_start();
    if let Some((label, target)) = t.strip_prefix('[').and_then(|r| r.split_once("]:")) {
        // Not a footnote (`[^1]: text`), and a target that reads as a path or an address.
        let target_like = target.split_whitespace().next().is_some_and(|t| t.contains(['/', '.', '#']));
        if !label.is_empty() && !label.contains(']') && !label.starts_with('^') && target_like {
            let indent = &line[..line.len() - t.len()];
            let target = target.trim_start();
            let end = target.find(' ').unwrap_or(target.len());
            // CommonMark: after the target, nothing or a title (`"…"`, `'…'`, `(…)`); else it is prose.
            let title = target[end..].trim();
            let titled = title.is_empty()
                || [('"', '"'), ('\'', '\''), ('(', ')')]
                    .iter()
                    .any(|&(o, c)| title.len() >= 2 && title.starts_with(o) && title.ends_with(c));
            if titled {
                return format!("{indent}[{label}]: {}{}", moved(&target[..end]), &target[end..]);
            }
        }
    }
    if !line.contains("](") {
        return line.to_string();
    }
    let code = crate::text::code_spans(line);
    let mut out = String::with_capacity(line.len() + 16);
    let mut at = 0;
    while let Some(found) = line[at..].find("](") {
        let open = at + found;
        // Inside inline code it is text, not a link (`[not a link](x.md)`).
        if code.iter().any(|r| r.contains(&open)) {
            out.push_str(&line[at..open + 2]);
            at = open + 2;
            continue;
        }
        out.push_str(&line[at..open + 2]);
        let rest = &line[open + 2..];
        let end = rest.find([')', ' ']).unwrap_or(rest.len());
        out.push_str(&moved(&rest[..end]));
        at = open + 2 + end;
    }
    out.push_str(&line[at..]);
    out
}
