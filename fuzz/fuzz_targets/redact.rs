//! The credential scrubber on any text: it never panics (it slices text at positions
//! it finds byte by byte), a token of a known format put anywhere between words is
//! always taken out, and scrubbing what it returned changes nothing more.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright_query::redact;

const TOKEN: &str = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let once = redact::text(text);
    assert_eq!(redact::text(&once), once, "not a fixpoint: {text:?}");
    // The token after the first character boundary past the text's middle.
    let mut at = text.len() / 2;
    while !text.is_char_boundary(at) {
        at += 1;
    }
    let planted = format!("{} {TOKEN} {}", &text[..at], &text[at..]);
    let scrubbed = redact::text(&planted);
    assert!(!scrubbed.contains(TOKEN), "{planted:?} -> {scrubbed:?}");
});
