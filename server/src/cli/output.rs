//! Rendering findings for people (`PATH:LINE:COL: severity[code]: message`) and machines (JSON).

use std::io::{self, IsTerminal, Write};

use crate::ide::report;
use crate::model::Workspace;
use crate::rules::{Finding, Severity};

/// `word` as one word of a POSIX shell command a person pastes: as it is
/// when it holds only characters no shell reads specially, else in single
/// quotes (a `'` written `'\''`), so a folder named `$(…)` or `;cmd` in a
/// cloned repository is a name, never code that runs (found by review).
pub fn shell_word(word: &str) -> std::borrow::Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./@%+=:,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return std::borrow::Cow::Borrowed(word);
    }
    std::borrow::Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
}

/// A path as one word of a command a person pastes: [`shell_word`], and a
/// path that starts with `-` written `./-…`, which no program reads as an
/// option (found by review: a file named `--file=evil.md` became a flag).
pub fn path_word(path: &str) -> String {
    if path.starts_with('-') {
        shell_word(&format!("./{path}")).into_owned()
    } else {
        shell_word(path).into_owned()
    }
}

/// Writes findings in the human format followed by the summary line.
pub fn human(ws: &Workspace, findings: &[Finding], out: &mut impl Write, color: bool) -> io::Result<()> {
    let paint = |code: &str, s: &str| {
        if color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    for f in findings {
        let Some(file) = ws.file(f.file) else {
            continue;
        };
        let (line, col) = file.line_col_1(f.range.start);
        let sev = match f.severity {
            Severity::Error => paint("1;31", "error"),
            Severity::Warning => paint("1;33", "warning"),
            Severity::Info => paint("1;36", "info"),
        };
        writeln!(out, "{}:{line}:{col}: {sev}[{}]: {}", file.path, f.rule.code(), f.message(ws))?;
        for r in &f.related {
            let Some(rf) = ws.file(r.file) else { continue };
            let (l, c) = rf.line_col_1(r.range.start);
            writeln!(out, "  {}:{l}:{c}: {}: {}", rf.path, paint("36", "note"), r.message)?;
        }
    }
    writeln!(out, "{}", summary(ws, findings))
}

/// `N errors, M warnings in K files` (K: index and decision files checked).
pub fn summary(ws: &Workspace, findings: &[Finding]) -> String {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let plural = |n: usize, w: &str| {
        if n == 1 {
            format!("{n} {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    let files = ws.files().filter(|(_, f)| f.index().is_some() || f.decision().is_some()).count();
    let infos = count(Severity::Info);
    let info = if infos > 0 { format!(", {}", plural(infos, "info")) } else { String::new() };
    format!(
        "{}, {}{info} in {}",
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
        plural(files, "file")
    )
}

/// Writes [`report::json`] pretty-printed, one finding at a time (never the whole
/// array in memory: a million findings stream out).
fn write_json(ws: &Workspace, findings: &[Finding], out: &mut impl Write) -> io::Result<()> {
    let mut first = true;
    for item in findings.iter().filter_map(|f| report::json_item(ws, f)) {
        out.write_all(if first { b"[\n  " } else { b",\n  " })?;
        first = false;
        let text = serde_json::to_string_pretty(&item).map_err(io::Error::from)?;
        out.write_all(text.replace('\n', "\n  ").as_bytes())?;
    }
    out.write_all(if first { b"[]\n" } else { b"\n]\n" })
}

/// Colour only on a terminal, and never with `NO_COLOR` set.
pub fn use_color() -> bool {
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// Prints findings in the chosen format; returns the exit code (1 on any error).
pub fn report(ws: &Workspace, findings: &[Finding], json_format: bool) -> i32 {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written =
        if json_format { write_json(ws, findings, &mut out) } else { human(ws, findings, &mut out, use_color()) };
    if let Err(e) = written {
        if let Some(code) = super::output_failed(&e) {
            return code;
        }
    }
    i32::from(findings.iter().any(|f| f.severity == Severity::Error))
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_pasted_word_is_one_word_and_runs_nothing() {
        assert_eq!(shell_word("docs/adr"), "docs/adr");
        assert_eq!(shell_word("$(touch x)"), "'$(touch x)'");
        assert_eq!(shell_word(";rm -rf ~"), "';rm -rf ~'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(super::path_word("--file=evil.md"), "./--file=evil.md");
    }
}
