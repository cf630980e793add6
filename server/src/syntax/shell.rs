//! A shell command line read as a POSIX shell reads its words (quotes, escapes, separators, here-documents): what an agent's command runs, for the recall that reads it.

/// The simple commands of `text`, each as its words, as a POSIX shell reads
/// them (single and double quotes, backslash escapes; no expansion): split
/// at `;`, `|`, `&` (not a `>&` redirection) and new lines outside quotes,
/// and ended at a here-document (`<<`), whose body is data.
pub fn commands(text: &str) -> Vec<Vec<String>> {
    let (mut commands, mut words, mut word, mut any) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    let end_word = |words: &mut Vec<String>, word: &mut String, any: &mut bool| {
        if *any || !word.is_empty() {
            words.push(std::mem::take(word));
        }
        *any = false;
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => word.extend(chars.next()),
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, '\\') => {
                word.extend(chars.next());
                any = true;
            }
            (None, '<') if chars.peek() == Some(&'<') => break,
            (None, '&') if prev == '>' || prev == '<' => word.push(c),
            (None, ';' | '|' | '&' | '\n') => {
                end_word(&mut words, &mut word, &mut any);
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            (None, c) if c.is_whitespace() => end_word(&mut words, &mut word, &mut any),
            (None, c) => word.push(c),
        }
        prev = c;
    }
    end_word(&mut words, &mut word, &mut any);
    if !words.is_empty() {
        commands.push(words);
    }
    commands
}
