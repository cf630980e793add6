//! What `remember` refuses to write: invisible characters in a title, an extra or a file name, a body that would change the file's structure; when a close decision is another subject; and the closest one it names when it writes.

use super::{location, Request};
use crate::ide::resolve;
use crate::model::{HeadingId, Workspace};
use crate::search::recall::Recalled;

/// Refuses text with a control, zero-width or bidirectional-formatting
/// character (invisible, or reordering what is shown), naming it.
pub(crate) fn plain_text(what: &str, text: &str) -> Result<(), String> {
    match text.chars().find(|&c| invisible(c)) {
        None => Ok(()),
        Some(c) => Err(format!(
            "{what} contains U+{:04X} ({}), which would sit unseen in the index; remove it",
            c as u32,
            char_name(c)
        )),
    }
}

/// Control characters, zero-width characters, bidirectional formatting and
/// the other code points Unicode says to show as nothing
/// (`Default_Ignorable_Code_Point`: tag characters, which smuggle text past
/// a reader, fillers, the combining grapheme joiner; found by review), but
/// the variation selectors, which choose how an emoji or a Han character
/// looks (`⚠️`).
pub fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}' | '\u{061C}' | '\u{180B}'..='\u{180F}' | '\u{00AD}' | '\u{034F}' | '\u{115F}'
            | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{3164}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E00FF}'
            | '\u{E01F0}'..='\u{E0FFF}')
}

fn char_name(c: char) -> &'static str {
    match c {
        '\0' => "NUL",
        '\u{1B}' => "ESC",
        '\u{7F}' => "DEL",
        '\t' => "TAB",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' | '\u{200F}' | '\u{061C}' => "a direction mark",
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => "a bidirectional override or isolate",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{00AD}' => "SOFT HYPHEN",
        '\u{E0000}'..='\u{E007F}' => "a tag character",
        c if c.is_control() => "a control character",
        _ => "an invisible formatting character",
    }
}

/// `text` as shown in a message: at most 80 characters, invisible ones as `\u{…}`.
pub(crate) fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(80)
        .map(|c| if invisible(c) { format!("\\u{{{:x}}}", c as u32) } else { c.to_string() })
        .collect();
    if text.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// The new section (heading `hid`, starting at 1-based `line` of `text`
/// and ending at byte `end`, where the file's next group starts when it
/// goes into a group) changes nothing around it: no heading in its body at or above its level
/// (it would end the section early and start another), and nothing left
/// open at its end (an unclosed code fence or HTML comment would swallow
/// every section written after it).
pub(super) fn keeps_structure(
    next: &Workspace,
    hid: HeadingId,
    text: &str,
    line: usize,
    end: usize,
) -> Result<(), String> {
    let Some(d) = next.file(hid.file).and_then(|f| f.decision()) else { return Ok(()) };
    let Some(h) = d.headings.get(hid.idx as usize) else { return Ok(()) };
    let (text, end_line) = (&text[..end], text[..end].matches('\n').count());
    let mut mine = d.headings[hid.idx as usize + 1..].iter().take_while(|x| (x.line as usize) < end_line);
    if let Some(later) = mine.find(|x| x.level <= h.level) {
        return Err(format!(
            "line {} of the body would be read as a heading of level {} (`{}`), which ends the decision there; \
             use a deeper heading (`{} …`) or plain text",
            (later.line as usize).saturating_sub(line), // the body starts two lines under the heading
            later.level,
            shown(&later.title),
            "#".repeat(usize::from(h.level) + 1)
        ));
    }
    let nl = crate::rules::placement::eol(text);
    let probe = format!("{text}{nl}## Probe{nl}");
    if !crate::syntax::decision::parse(&probe).headings.iter().any(|x| x.title == "Probe") {
        return Err("the body leaves a code fence (```) or an HTML comment (<!--) open, which would swallow \
             every decision written after it; close it"
            .into());
    }
    Ok(())
}

/// Whether the new decision (`title`, `body`) is about another subject than
/// the decision `h` the ranking finds close: the two titles are one frame
/// with one word swapped, and neither decision uses the other's word
/// (`Configuring Kafka Clusters` beside `Configuring Helm Clusters`,
/// `Linting Python Code` beside `Formatting Python Code`: siblings, not one
/// decision twice; found by review, both were refused). A decision restated
/// in other words rewords its title (`Git Index Lock Exists` for *When Git
/// Lock Error Occurs*), or shares the word. Left: a restatement that swaps
/// one word for another neither uses (`Formatting Python Files` for
/// *Formatting Python Code*) passes as a sibling; words alone cannot tell.
pub(super) fn another_subject(ws: &Workspace, h: HeadingId, title: &str, body: &str) -> bool {
    use crate::search::bm25::tokens;
    use std::collections::HashSet;
    let Some(heading) = ws.heading(h) else { return false };
    let (new, old): (HashSet<String>, HashSet<String>) =
        (tokens(title).into_iter().collect(), tokens(heading.name()).into_iter().collect());
    let (added, gone): (Vec<&String>, Vec<&String>) = (new.difference(&old).collect(), old.difference(&new).collect());
    let (&[added], &[gone]) = (&added[..], &gone[..]) else { return false };
    if new.intersection(&old).next().is_none() {
        return false;
    }
    let b = ws.bindings();
    let mut names = String::new();
    for &e in b.entries_of(h) {
        let e = b.entry(e);
        names.push_str(&format!(" {}", e.trigger));
        for x in e.extras.iter() {
            names.push_str(&format!(" {x}"));
        }
    }
    let old_text: HashSet<String> =
        tokens(&format!("{names} {}", super::resolve::body_of(ws, h))).into_iter().collect();
    !old_text.contains(added) && !tokens(body).contains(gone)
}

/// Least confidence at which the decision ranked first for a new one is named when it is
/// written: under the duplicate threshold a decision is written, but one this close may be the
/// same subject decided again, or decided otherwise (found by review: *Picking A Database Engine*,
/// "Use Postgres for everything", went in beside *Choosing A Database* at 0.48, unsaid). On the
/// duplicates set, three of six new decisions name one (0.47 to 0.82): a note, never a refusal.
pub(super) const CLOSE: f64 = 0.4;

/// The note naming the decision ranked first for the new one, when it is at least [`CLOSE`].
pub(super) fn closest(ws: &Workspace, ranked: &[crate::search::recall::Recalled]) -> Option<String> {
    let r = ranked.first().filter(|r| r.confidence >= CLOSE)?;
    Some(format!(
        "closest decision: {} ({}, confidence {:.2}); if the new one changes what it says, edit that one instead",
        super::resolve::written(ws, r.entry),
        super::location(ws, r.heading),
        r.confidence
    ))
}

/// Err naming the decision that may cover `title` already: the first of `ranked`, when it is sure enough and on the same subject.
pub(super) fn no_same_subject(ws: &Workspace, ranked: &[Recalled], title: &str, req: &Request) -> Result<(), String> {
    let w = req.words;
    let same = |r: &&Recalled| {
        r.confidence >= ws.config().recall.duplicate && !another_subject(ws, r.heading, title, &req.body)
    };
    let Some(r) = ranked.first().filter(same) else { return Ok(()) };
    Err(format!(
        "an existing decision may cover this: {} ({}, confidence {:.2}); read it with {}, or pass {} to \
         write a new one",
        resolve::written(ws, r.entry),
        location(ws, r.heading),
        r.confidence,
        w.resolve(resolve::written(ws, r.entry).trim_start_matches('/')),
        w.force(),
    ))
}
