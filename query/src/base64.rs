//! Standard base64 (RFC 4648, with padding) for Basic auth, binary arguments and the
//! `byte` format check, through the `base64` crate (already in the tree under reqwest's
//! hyper-util). Decoding is lenient the way models and people write base64: standard or
//! URL-safe alphabet, padded or not, whitespace ignored.

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

const LENIENT: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_encode_padding(true)
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const STANDARD: GeneralPurpose = GeneralPurpose::new(&alphabet::STANDARD, LENIENT);
const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&alphabet::URL_SAFE, LENIENT);

pub fn encode(input: &[u8]) -> String {
    STANDARD.encode(input)
}

/// Decodes standard or URL-safe base64, padded or not; whitespace is ignored.
pub fn decode(input: &str) -> Option<Vec<u8>> {
    let compact: String = input.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    STANDARD
        .decode(&compact)
        .or_else(|_| URL_SAFE.decode(&compact))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors_round_trip() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(input.as_bytes()), expected);
            assert_eq!(decode(expected).unwrap(), input.as_bytes());
        }
        assert_eq!(decode("not base64!"), None);
        // Unpadded, URL-safe, with line breaks.
        assert_eq!(decode("Zm9vYg").unwrap(), b"foob");
        assert_eq!(decode("-_8").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("Zm9v\nYmFy").unwrap(), b"foobar");
    }
}
