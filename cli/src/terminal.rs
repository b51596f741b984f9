//! Text from elsewhere (an upstream's error body, a header) made safe to print on a
//! terminal: control characters — ESC, CR, BEL, NUL, the C1 range — would otherwise let
//! an upstream move the cursor, retitle the window or clear the screen.

/// `text` with every control character but newline and tab written as `\u{..}`.
pub fn safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::safe;

    #[test]
    fn escapes_and_cursor_moves_are_shown_not_obeyed() {
        assert_eq!(
            safe("not JSON: \u{1b}]0;pwned\u{7}\u{1b}[2J\r\0ok\u{9b}31m\n\tnext"),
            "not JSON: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}\\u{0}ok\\u{9b}31m\n\tnext"
        );
        assert_eq!(safe("plain text, ünïcode"), "plain text, ünïcode");
    }
}
