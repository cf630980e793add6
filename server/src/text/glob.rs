//! Path globs as decision scopes use them (Cursor's `globs:`, Copilot's `applyTo:`, gitignore's anchoring): parsed once, matched against a project-relative path with `/` separators.
//!
//! The rules, one per line of the documentation (docs/rules.md, "Scopes"):
//! - `*` matches any run of characters within one folder or file name, `?`
//!   one character, `[abc]`, `[a-z]` and `[!a]` one of (or none of) a set;
//!   `**` as a whole path component matches any number of folders, none
//!   included; `{ts,tsx}` is either word (nested braces allowed).
//! - A glob with no `/` but a trailing one matches at any depth (`*.ts`,
//!   `tests`, as gitignore reads it); one with a `/` is anchored at the
//!   project's folder (`src/**/*.ts`); a leading `/` or `./` anchors too.
//! - A glob that matches a folder matches everything under it: `docs` and
//!   `docs/` hold every folder named `docs` at any depth, `/docs` and
//!   `docs/**` only the project's own.
//! - `\` makes the next character plain (`\{name\}`, `\,`).
//! - Case matters, as on the file systems agents run on. `!` negation is
//!   refused (a scope says where a decision applies, not where it does not).

/// Most alternatives one glob expands to through `{…}`: more is refused.
pub const MAX_ALTERNATIVES: usize = 64;
/// Longest glob read, in bytes.
pub const MAX_LEN: usize = 1024;

/// A parsed glob: one or more alternatives (after `{…}` expansion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    alternatives: Vec<Vec<Part>>,
}

/// One path component of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// `**`: any number of components.
    Any,
    /// A component's pattern.
    Name(Vec<Tok>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Char(char),
    /// `*`
    Star,
    /// `?`
    One,
    /// `[…]`: negated, and inclusive ranges (a single character is `c..=c`).
    Class(bool, Vec<(char, char)>),
}

impl Glob {
    /// Parses `text`; Err says what is wrong in words a person can act on.
    pub fn parse(text: &str) -> Result<Glob, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("an empty glob matches nothing".into());
        }
        if t.len() > MAX_LEN {
            return Err(format!("a glob longer than {MAX_LEN} bytes"));
        }
        if t.starts_with('!') {
            return Err(format!("`{t}` is a negation: a scope names the files a decision applies to"));
        }
        let mut alternatives = Vec::new();
        for alt in expand(t)? {
            alternatives.push(parts(&alt)?);
        }
        Ok(Glob { alternatives })
    }

    /// Whether the project-relative `path` (`/`-separated, no leading `/`) is in this glob's scope.
    pub fn matches(&self, path: &str) -> bool {
        let comps: Vec<&str> = path.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
        if comps.is_empty() {
            return false;
        }
        self.alternatives.iter().any(|alt| match_parts(alt, &comps))
    }
}

/// Splits `text` at the commas outside braces (`src/**/*.ts, test/**`, as
/// Cursor writes several globs in one value), trimmed, empty pieces dropped.
pub fn split_list(text: &str) -> Vec<(usize, &str)> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0usize);
    for (i, c) in structure(text) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth <= 0 => {
                out.push((start, &text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &text[start..]));
    out.into_iter()
        .map(|(at, s)| (at + (s.len() - s.trim_start().len()), s.trim()))
        .filter(|(_, s)| !s.is_empty())
        .collect()
}

/// The braces and commas of `text` that shape it: not escaped (`\{`) and
/// not inside a class (`[{,]`), with their byte offsets.
fn structure(text: &str) -> Vec<(usize, char)> {
    let mut out = Vec::new();
    let (mut escaped, mut class) = (false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => class = true,
            ']' => class = false,
            '{' | '}' | ',' if !class => out.push((i, c)),
            _ => {}
        }
    }
    out
}

/// `text` with its `{a,b}` groups expanded, outermost first.
fn expand(text: &str) -> Result<Vec<String>, String> {
    let plain = structure(text);
    let Some(&(open, _)) = plain.iter().find(|(_, c)| *c == '{') else {
        if plain.iter().any(|(_, c)| *c == '}') {
            return Err(format!("`{text}` closes a `}}` it never opened"));
        }
        return Ok(vec![text.to_string()]);
    };
    let (mut depth, mut close) = (0, None);
    let mut commas = Vec::new();
    for &(i, c) in plain.iter().filter(|(i, _)| *i >= open) {
        let i = i - open;
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let close = close.ok_or_else(|| format!("`{text}` opens a `{{` it never closes"))?;
    let (head, tail) = (&text[..open], &text[close + 1..]);
    let mut bounds = vec![open];
    bounds.extend(&commas);
    bounds.push(close);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        for rest in expand(&format!("{head}{}{tail}", &text[w[0] + 1..w[1]]))? {
            out.push(rest);
            if out.len() > MAX_ALTERNATIVES {
                return Err(format!("`{text}` expands to more than {MAX_ALTERNATIVES} globs"));
            }
        }
    }
    Ok(out)
}

/// One alternative's components, anchored as the module says.
fn parts(text: &str) -> Result<Vec<Part>, String> {
    let mut t = text;
    let mut anchored = false;
    while let Some(rest) = t.strip_prefix("./").or_else(|| t.strip_prefix('/')) {
        t = rest;
        anchored = true;
    }
    let t = t.trim_end_matches('/');
    if t.is_empty() {
        return Err(format!("`{text}` names no file or folder"));
    }
    let mut out = Vec::new();
    if !anchored && !t.contains('/') {
        out.push(Part::Any);
    }
    for comp in t.split('/').filter(|c| !c.is_empty() && *c != ".") {
        if comp == ".." {
            return Err(format!("`{text}` leaves the project with `..`"));
        }
        if comp == "**" {
            // `**/**` is `**`.
            if out.last() != Some(&Part::Any) {
                out.push(Part::Any);
            }
        } else {
            out.push(Part::Name(tokens(comp, text)?));
        }
    }
    Ok(out)
}

/// A component's tokens (`a**b` reads as `a*b`, as gitignore does).
fn tokens(comp: &str, whole: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut chars = comp.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                if out.last() != Some(&Tok::Star) {
                    out.push(Tok::Star);
                }
            }
            '?' => out.push(Tok::One),
            '\\' => out.push(Tok::Char(chars.next().unwrap_or('\\'))),
            '[' => {
                let negated = matches!(chars.peek(), Some('!' | '^'));
                if negated {
                    chars.next();
                }
                let mut ranges = Vec::new();
                let mut closed = false;
                let mut first = true;
                while let Some(c) = chars.next() {
                    if c == ']' && !first {
                        closed = true;
                        break;
                    }
                    first = false;
                    let lo = if c == '\\' { chars.next().unwrap_or('\\') } else { c };
                    let mut probe = chars.clone();
                    if probe.next() == Some('-') && probe.peek().is_some_and(|&n| n != ']') {
                        chars.next();
                        let hi = chars.next().unwrap_or(lo);
                        ranges.push((lo.min(hi), lo.max(hi)));
                    } else {
                        ranges.push((lo, lo));
                    }
                }
                if !closed {
                    return Err(format!("`{whole}` opens a `[` it never closes"));
                }
                out.push(Tok::Class(negated, ranges));
            }
            c => out.push(Tok::Char(c)),
        }
    }
    Ok(out)
}

/// Whether `parts` match the components `comps` or a folder holding them
/// (a leading run of at least one): the components reachable after each
/// part, kept as a set, so `**/**/x` costs parts × components, never more.
fn match_parts(parts: &[Part], comps: &[&str]) -> bool {
    let n = comps.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for part in parts {
        let mut next = vec![false; n + 1];
        match part {
            Part::Any => {
                if let Some(from) = reach.iter().position(|&r| r) {
                    next[from..].iter_mut().for_each(|r| *r = true);
                }
            }
            Part::Name(toks) => {
                for i in (0..n).filter(|&i| reach[i]) {
                    next[i + 1] = match_name(toks, &comps[i].chars().collect::<Vec<_>>());
                }
            }
        }
        reach = next;
        if !reach.contains(&true) {
            return false;
        }
    }
    reach[1..].contains(&true)
}

/// Whether `toks` match the whole name `name` (a `*` backtracks to the last star only: linear enough).
fn match_name(toks: &[Tok], name: &[char]) -> bool {
    let (mut t, mut n) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match toks.get(t) {
            Some(Tok::Star) => {
                star = Some((t, n));
                t += 1;
                continue;
            }
            Some(tok) if one(tok, name[n]) => {
                t += 1;
                n += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((st, sn)) => {
                t = st + 1;
                n = sn + 1;
                star = Some((st, sn + 1));
            }
            None => return false,
        }
    }
    toks[t..].iter().all(|tok| *tok == Tok::Star)
}

/// Whether one non-star token matches the character `c`.
fn one(tok: &Tok, c: char) -> bool {
    match tok {
        Tok::Char(x) => *x == c,
        Tok::One => true,
        Tok::Class(negated, ranges) => ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c)) != *negated,
        Tok::Star => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(glob: &str, path: &str) -> bool {
        Glob::parse(glob).unwrap().matches(path)
    }

    #[test]
    fn anchoring_as_gitignore_reads_it() {
        assert!(m("*.ts", "src/app/main.ts"), "no slash: any depth");
        assert!(m("*.ts", "main.ts"));
        assert!(!m("*.ts", "src/main.tsx"));
        assert!(m("src/**/*.ts", "src/main.ts"), "** is zero folders too");
        assert!(m("src/**/*.ts", "src/a/b/main.ts"));
        assert!(!m("src/**/*.ts", "lib/src/main.ts"), "a slash anchors");
        assert!(m("**/*.ts", "lib/src/main.ts"));
        assert!(m("/src/*.ts", "src/main.ts"));
        assert!(m("./src/*.ts", "src/main.ts"));
        assert!(!m("src/*.ts", "src/a/main.ts"), "* stays in one folder");
    }

    #[test]
    fn a_folder_holds_what_is_under_it() {
        for g in ["docs", "docs/", "docs/**", "/docs", "./docs/"] {
            assert!(m(g, "docs/guide/intro.md"), "{g}");
            assert!(!m(g, "src/docs.rs"), "{g}");
        }
        assert!(m("tests", "server/tests/it/main.rs"), "no slash: a folder at any depth");
        assert!(!m("/tests", "server/tests/it/main.rs"));
        assert!(m("packages/api/**", "packages/api/src/index.ts"));
        assert!(!m("packages/api/**", "packages/web/src/index.ts"));
    }

    #[test]
    fn classes_braces_and_questions() {
        assert!(m("*.{ts,tsx}", "src/App.tsx"));
        assert!(m("*.{ts,tsx}", "src/app.ts"));
        assert!(!m("*.{ts,tsx}", "src/app.js"));
        assert!(m("src/{a,b/{c,d}}/*.rs", "src/b/d/x.rs"));
        assert!(m("file?.md", "file1.md"));
        assert!(!m("file?.md", "file.md"));
        assert!(m("[abc].py", "b.py"));
        assert!(m("v[0-9].txt", "v7.txt"));
        assert!(!m("v[!0-9].txt", "v7.txt"));
        assert!(m("v[!0-9].txt", "vx.txt"));
        assert!(m("a**b", "axyb"), "** inside a name is *");
        assert!(m("*", "anything/at/all.rs"));
        assert!(!m("*.TS", "main.ts"), "case matters");
        assert!(m("na\\*me", "na*me"));
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        for (g, says) in [
            ("", "empty"),
            ("src/[ab", "never closes"),
            ("*.{ts,tsx", "never closes"),
            ("src}", "never opened"),
            ("!*.ts", "negation"),
            ("../other/**", "leaves the project"),
            ("/", "names no file"),
        ] {
            let e = Glob::parse(g).unwrap_err();
            assert!(e.contains(says), "{g}: {e}");
        }
        let many = "{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b}";
        assert!(Glob::parse(many).unwrap_err().contains("more than"));
        assert!(Glob::parse(&"a".repeat(MAX_LEN + 1)).is_err());
    }

    #[test]
    fn escapes_and_classes_are_plain() {
        assert!(m("\\{\\{slug\\}\\}/**", "{{slug}}/a.md"), "an escaped brace is a brace");
        assert!(m("na\\{me", "na{me"));
        assert_eq!(split_list("[,]x, y").into_iter().map(|(_, s)| s).collect::<Vec<_>>(), ["[,]x", "y"]);
        assert_eq!(split_list("a\\,b, c").into_iter().map(|(_, s)| s).collect::<Vec<_>>(), ["a\\,b", "c"]);
        assert!(m("docs", "site/docs/a.md") && !m("docs/**", "site/docs/a.md") && !m("/docs", "site/docs/a.md"));
    }

    #[test]
    fn lists_split_outside_braces() {
        let got: Vec<&str> = split_list("src/**/*.ts, test/** ,*.{js,jsx},").into_iter().map(|(_, s)| s).collect();
        assert_eq!(got, ["src/**/*.ts", "test/**", "*.{js,jsx}"]);
        let at = split_list("a,  b");
        assert_eq!(at, [(0, "a"), (4, "b")]);
    }

    #[test]
    fn never_panics_and_stays_fast_on_hostile_patterns() {
        let g = Glob::parse(&"*a".repeat(200)).unwrap();
        assert!(!g.matches(&"a".repeat(300).replace("aaa", "ab")));
        let deep = Glob::parse("**/**/**/**/**/x").unwrap();
        assert!(!deep.matches(&"d/".repeat(40)));
        assert!(!m("x", ""));
        assert!(!m("x", "///"));
    }
}
