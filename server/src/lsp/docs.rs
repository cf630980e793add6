//! Open documents: their versions, where their text lives (the engine's copy inside a root, their own rope outside every root), and applying the client's content changes.

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent};

use super::convert;
use crate::model::{FileText, Workspace};
use crate::text::{Encoding, TextRange};

/// An open document.
///
/// Inside a root, its text is the engine's copy of the file, edited in place
/// (one copy of each document: a 20 MB index open in the editor is held
/// once, not also on a rope); `own` holds the text of a document outside
/// every root, until a root that contains it is added.
#[derive(Debug)]
pub struct Doc {
    pub version: i32,
    pub own: Option<Rope>,
}

/// Applies content changes to the engine's copy of open document `rel`, in
/// place and in order: each change's range is in the text the previous ones
/// left, converted with the file's line index and clamped as
/// [`apply_change`] clamps on a rope.
pub fn apply_to_engine(ws: &mut Workspace, rel: &str, changes: Vec<TextDocumentContentChangeEvent>, enc: Encoding) {
    for change in changes {
        match change.range {
            None => {
                ws.set_file(rel, FileText::from(change.text));
            }
            Some(r) => {
                let Some(file) = ws.file_id(rel).and_then(|id| ws.file(id)) else {
                    tracing::error!("an open document is missing from its workspace: {rel}");
                    return;
                };
                let range = convert::text_range(file, r, enc);
                ws.edit_file(rel, &[(range, change.text.as_str())]);
            }
        }
    }
}

/// Applies one content change to a rope (a document outside every root);
/// ranges are clamped to the document as [`convert::text_range`] clamps them
/// for the engine's copy. Returns the byte range it replaced and the new
/// text, or None when the change replaced the whole document.
pub fn apply_change(
    rope: &mut Rope,
    change: TextDocumentContentChangeEvent,
    enc: Encoding,
) -> Option<(TextRange, String)> {
    match change.range {
        None => {
            *rope = Rope::from_str(&change.text);
            None
        }
        Some(r) => {
            let (a, b) = (char_index(rope, r.start, enc), char_index(rope, r.end, enc));
            let (a, b) = (a.min(b), a.max(b));
            let bytes = TextRange::new(rope.char_to_byte(a), rope.char_to_byte(b));
            rope.remove(a..b);
            rope.insert(a, &change.text);
            Some((bytes, change.text))
        }
    }
}

/// Char index of a position: a line past the end is the end of the document;
/// a column past the end of its line is the line's end (before its break).
pub fn char_index(rope: &Rope, p: Position, enc: Encoding) -> usize {
    let line = p.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    if len > 0 && slice.char(len - 1) == '\n' {
        len -= 1;
    }
    if len > 0 && slice.char(len - 1) == '\r' {
        len -= 1;
    }
    let content = slice.slice(..len);
    let col = p.character as usize;
    start
        + match enc {
            Encoding::Utf16 => content.utf16_cu_to_char(col.min(content.len_utf16_cu())),
            Encoding::Utf8 => content.byte_to_char(col.min(content.len_bytes())),
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::Range;

    fn change(text: &str, (l1, c1): (u32, u32), (l2, c2): (u32, u32), new: &str, enc: Encoding) -> String {
        let mut rope = Rope::from_str(text);
        let range = Range { start: Position::new(l1, c1), end: Position::new(l2, c2) };
        let edit = apply_change(
            &mut rope,
            TextDocumentContentChangeEvent { range: Some(range), range_length: None, text: new.into() },
            enc,
        );
        // The byte edit it reports, applied to the old text, gives the same text (what the engine's copy gets).
        let (bytes, inserted) = edit.expect("a range change reports its byte range");
        let mut copy = text.to_string();
        copy.replace_range(bytes.as_range(), &inserted);
        assert_eq!(copy, rope.to_string());
        rope.to_string()
    }

    /// The same changes applied to the engine's copy of an open document
    /// inside a root, in one notification: the text the rope gets.
    /// A change: from (line, character), to (line, character), the new text.
    type Change<'a> = ((u32, u32), (u32, u32), &'a str);

    fn engine_change(text: &str, changes: &[Change], enc: Encoding) -> String {
        let mut ws = Workspace::default();
        ws.set_file("notes.md", FileText::from(text));
        let events = changes
            .iter()
            .map(|&((l1, c1), (l2, c2), new)| TextDocumentContentChangeEvent {
                range: Some(Range { start: Position::new(l1, c1), end: Position::new(l2, c2) }),
                range_length: None,
                text: new.into(),
            })
            .collect();
        apply_to_engine(&mut ws, "notes.md", events, enc);
        ws.file(ws.file_id("notes.md").expect("id")).expect("file").text.clone()
    }

    #[test]
    fn the_engines_copy_is_edited_as_a_rope_would_be() {
        let cases: [(&str, Change, Encoding); 6] = [
            ("a😀b\r\nc", ((0, 3), (0, 4), "X"), Encoding::Utf16),
            ("a😀b\r\nc", ((0, 5), (0, 6), "X"), Encoding::Utf8),
            ("a😀b\r\nc", ((0, 2), (0, 3), "X"), Encoding::Utf16),
            ("ab\r\ncd", ((0, 99), (0, 99), "!"), Encoding::Utf16),
            ("ab", ((7, 0), (9, 9), "!"), Encoding::Utf8),
            ("a\rb", ((1, 0), (1, 1), "X"), Encoding::Utf16),
        ];
        for (text, (a, b, new), enc) in cases {
            assert_eq!(engine_change(text, &[(a, b, new)], enc), change(text, a, b, new, enc), "{text:?} {a:?}-{b:?}");
        }
        // Several changes in one notification: each in the text the previous left.
        let steps = [((0, 0), (0, 0), "x\n"), ((1, 1), (1, 2), "Y"), ((0, 1), (1, 0), "")];
        let mut rope_text = "ab\ncd".to_string();
        for &(a, b, new) in &steps {
            rope_text = change(&rope_text, a, b, new, Encoding::Utf16);
        }
        assert_eq!(engine_change("ab\ncd", &steps, Encoding::Utf16), rope_text);
    }

    #[test]
    fn edits_follow_the_encoding_and_clamp() {
        assert_eq!(change("a😀b\r\nc", (0, 3), (0, 4), "X", Encoding::Utf16), "a😀X\r\nc");
        assert_eq!(change("a😀b\r\nc", (0, 5), (0, 6), "X", Encoding::Utf8), "a😀X\r\nc");
        assert_eq!(change("ab\r\ncd", (0, 99), (0, 99), "!", Encoding::Utf16), "ab!\r\ncd");
        assert_eq!(change("ab", (7, 0), (9, 9), "!", Encoding::Utf8), "ab!");
        assert_eq!(change("a\rb", (1, 0), (1, 1), "X", Encoding::Utf16), "a\rX", "a lone CR ends a line, as in LSP");
    }
}
