//! Which decision file a remembered decision goes to: a name checked to stay inside the decisions directory, the file ranked for it, the title of a new one, and where a write that does not fit would.

use super::checks::{plain_text, shown};
use super::{decision_level, plan_in, Request, Words, FIRST_FILE};
use crate::model::FileProblem;
use crate::model::Workspace;
use crate::search::recall::recall;

/// `name` as a file of the decisions directory: a plain `*.md` name, nothing else.
pub(crate) fn file_name(name: &str) -> Result<String, String> {
    let n = name.trim();
    let n = if n.ends_with(".md") { n.to_string() } else { format!("{n}.md") };
    plain_text("the file name", &n)?;
    let plain = !n.contains(['/', '\\', ':']) && !n.starts_with('.') && n.len() > 3;
    if plain {
        Ok(n)
    } else {
        Err(format!("`{}` is not a file name inside the decisions directory: pass a name like `cli.md`", shown(name)))
    }
}

/// A file the same request fits in, when `name` would get a new finding:
/// the next files ranked for the decision, then a new file named from the title.
pub(super) fn elsewhere(ws: &Workspace, req: &Request, name: &str, title: &str) -> Option<String> {
    let text = format!("{title} {}", first_words(&req.body, 60));
    let mut ranked: Vec<String> = Vec::new();
    for r in recall(ws, &text, 50) {
        let file = ws.file(r.heading.file).map(|f| f.path.rsplit('/').next().unwrap_or(&f.path).to_string());
        if let Some(f) = file.filter(|f| f != name && !ranked.contains(f)) {
            ranked.push(f);
        }
    }
    let fits = |file: &str| plan_in(ws, &Request { file: Some(file.to_string()), ..req.clone() }, false).is_ok();
    if let Some(f) = ranked.iter().take(3).find(|f| fits(f)) {
        return Some(format!("it fits in {f}, the next file for this decision: pass {} {f}", req.words.file()));
    }
    let words: Vec<String> =
        title.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).take(2).map(str::to_lowercase).collect();
    let base = if words.is_empty() { "decisions".to_string() } else { words.join("-") };
    let new = (1..10)
        .map(|n| if n == 1 { format!("{base}.md") } else { format!("{base}-{n}.md") })
        .find(|f| ws.file_id(&ws.decision_path(f)).is_none())?;
    fits(&new).then(|| format!("start a new decision file for it: pass {} {new}", req.words.file()))
}

/// The decision file whose decisions rank highest for `text`, over whole
/// files: the confidences of its decisions among the first [`FILE_RANKED`]
/// added up. Chosen when that reaches [`FILE_FLOOR`] and leads the next
/// file's by half again; otherwise the refusal names the closest files and
/// a new one (found by review: one shared word, `Writing`, sent *Writing
/// Commit Messages* to the file of *When Writing Mock Tests*).
pub(super) fn choose_file(ws: &Workspace, text: &str, w: Words) -> Result<String, String> {
    let mut per: Vec<(String, f64)> = Vec::new();
    for r in recall(ws, text, FILE_RANKED) {
        let Some(f) = ws.file(r.heading.file) else { continue };
        let name = f.path.rsplit('/').next().unwrap_or(&f.path).to_string();
        match per.iter_mut().find(|p| p.0 == name) {
            Some(p) => p.1 += r.confidence,
            None => per.push((name, r.confidence)),
        }
    }
    per.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let second = per.get(1).map_or(0.0, |p| p.1);
    match per.first() {
        Some((name, score)) if *score >= FILE_FLOOR && *score >= 1.5 * second => Ok(name.clone()),
        _ => {
            // A new file's name from the title's first two words that say something (`pinning-toolchain.md`).
            let words: Vec<String> = text
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
                .filter(|w| !w.is_empty() && !crate::search::bm25::is_stop(w))
                .take(2)
                .collect();
            let close: Vec<&str> =
                per.iter().take(2).filter(|p| p.1 >= crate::ide::search::FLOOR).map(|p| p.0.as_str()).collect();
            let close = match close[..] {
                [] => String::new(),
                [one] => format!("the closest is {one}; "),
                _ => format!("the closest are {}; ", close.join(" and ")),
            };
            Err(format!(
                "no decision file is clearly about this yet: pass {} NAME ({close}or a new one such as `{}.md`)",
                w.file(),
                words.join("-")
            ))
        }
    }
}

/// How many ranked decisions [`choose_file`] adds up per file.
const FILE_RANKED: usize = 10;
/// The least a file's decisions must add up to for [`choose_file`] to pick
/// it: *Upgrading Helm Charts* on the imported govuk ADRs adds up to 0.14
/// in the file of the Helm decision (and 0.004 in the next), *Writing
/// Commit Messages* beside *When Writing Mock Tests* to 0.08.
const FILE_FLOOR: f64 = 0.1;

/// `Cli` for `cli.md`, `Data Processing` for `data-processing.md`: a new decision file's title.
pub(crate) fn file_title(name: &str) -> String {
    name.trim_end_matches(".md")
        .split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn first_words(s: &str, n: usize) -> String {
    s.split_whitespace().take(n).collect::<Vec<_>>().join(" ")
}

/// The decision file `req` goes in: the one asked for, else the first file
/// of an empty memory, else the one whose decisions rank highest (said in `notes`).
pub(super) fn file_for(ws: &Workspace, req: &Request, title: &str, notes: &mut Vec<String>) -> Result<String, String> {
    let w = req.words;
    Ok(match &req.file {
        Some(f) => file_name(f)?,
        None if ws.decisions().next().is_none() => {
            // The memory's first decision: a general file to start with.
            notes
                .push(format!("file: {FIRST_FILE} (the memory had no decision file yet; pass {} to choose)", w.file()));
            FIRST_FILE.to_string()
        }
        None => {
            let chosen = choose_file(ws, &format!("{title} {}", first_words(&req.body, 60)), w)?;
            notes.push(format!(
                "file: {chosen} (its decisions rank highest for this title and body; pass {} to choose)",
                w.file()
            ));
            chosen
        }
    })
}

/// The decision file at `path` as it is (None: it is new, said in `notes`)
/// and the level its decisions' headings take; Err for a file that is no
/// decision file or cannot be rewritten.
pub(super) fn decision_file(
    ws: &Workspace,
    path: &str,
    notes: &mut Vec<String>,
) -> Result<(Option<String>, usize), String> {
    let existing = ws.file_id(path).and_then(|id| ws.file(id));
    let old = match existing {
        Some(f) => match &f.problem {
            None if f.decision().is_some() => Some(f.text.to_string()),
            Some(FileProblem::InvalidUtf8 { .. }) => {
                return Err(format!("{path} is not valid UTF-8 text: it is never rewritten"))
            }
            Some(FileProblem::Unreadable(why)) => return Err(format!("cannot read {path}: {why}")),
            _ => return Err(format!("{path} is not a decision file")),
        },
        None => {
            notes.push(format!("new decision file: {path}"));
            None
        }
    };
    Ok((old, decision_level(existing.and_then(|f| f.decision()))))
}
