//! A file for a multipart part: bytes with an optional file name and media type.
//!
//! JSON carries it as text: plain base64 (what a model sends, and a part with nothing
//! but bytes), or an RFC 2397 data URL when it has a name or a media type
//! (`data:image/png;filename=cat.png;base64,iVBOR...`: `filename` is a parameter of
//! the URL, percent-encoded). The request builder reads both forms, for typed and
//! by-name calls alike.

use bytes::Bytes;

/// A multipart file part (generated code types `format: binary` parts so): its bytes,
/// and the `filename` and `Content-Type` its part header carries (else the field's
/// name and the media type the description gives, or `application/octet-stream`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilePart {
    pub bytes: Bytes,
    pub filename: Option<String>,
    pub media_type: Option<String>,
}

impl FilePart {
    /// A part of `bytes`, named after its field.
    pub fn new(bytes: impl Into<Bytes>) -> FilePart {
        FilePart {
            bytes: bytes.into(),
            filename: None,
            media_type: None,
        }
    }

    /// The part with a file name.
    #[must_use]
    pub fn filename(mut self, name: impl Into<String>) -> FilePart {
        self.filename = Some(name.into());
        self
    }

    /// The part with a media type.
    #[must_use]
    pub fn media_type(mut self, media_type: impl Into<String>) -> FilePart {
        self.media_type = Some(media_type.into());
        self
    }

    /// The JSON text form: base64, or a data URL when there is a name or media type.
    fn to_text(&self) -> String {
        let data = crate::base64::encode(&self.bytes);
        if self.filename.is_none() && self.media_type.is_none() {
            return data;
        }
        let media = self
            .media_type
            .as_deref()
            .unwrap_or("application/octet-stream");
        let name = self
            .filename
            .as_deref()
            .map(|n| format!(";filename={}", crate::percent::encode(n)))
            .unwrap_or_default();
        format!("data:{media}{name};base64,{data}")
    }
}

impl From<Bytes> for FilePart {
    fn from(bytes: Bytes) -> FilePart {
        FilePart::new(bytes)
    }
}

impl From<Vec<u8>> for FilePart {
    fn from(bytes: Vec<u8>) -> FilePart {
        FilePart::new(bytes)
    }
}

impl From<&'static [u8]> for FilePart {
    fn from(bytes: &'static [u8]) -> FilePart {
        FilePart::new(bytes)
    }
}

impl serde::Serialize for FilePart {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_text())
    }
}

/// A binary argument as sent: its bytes, and a media type and file name when it was a
/// data URL that gave them.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub bytes: Vec<u8>,
    pub media_type: Option<String>,
    pub filename: Option<String>,
}

/// Reads a binary argument: base64, or a base64 data URL (`data:[<media>][;<name>=<value>]*;base64,<data>`).
/// `None` when it is neither.
pub(crate) fn decode(text: &str) -> Option<Decoded> {
    let Some(url) = text.strip_prefix("data:") else {
        return Some(Decoded {
            bytes: crate::base64::decode(text)?,
            media_type: None,
            filename: None,
        });
    };
    let (head, data) = url.split_once(',')?;
    let mut params = head.split(';');
    let media = params.next().unwrap_or("").trim();
    let mut filename = None;
    let mut base64 = false;
    for param in params {
        match param.split_once('=') {
            Some((key, value)) if key.trim().eq_ignore_ascii_case("filename") => {
                filename = Some(
                    percent_encoding::percent_decode_str(value.trim())
                        .decode_utf8_lossy()
                        .into_owned(),
                );
            }
            None if param.trim().eq_ignore_ascii_case("base64") => base64 = true,
            _ => {}
        }
    }
    // Only base64 data URLs: a percent-encoded one is text, which is not what a binary
    // argument is.
    if !base64 {
        return None;
    }
    Some(Decoded {
        bytes: crate::base64::decode(data)?,
        media_type: (!media.is_empty()).then(|| media.to_owned()),
        filename,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_data_urls_both_ways() {
        let plain = FilePart::new(&b"hi"[..]);
        assert_eq!(serde_json::to_value(&plain).unwrap(), "aGk=");
        let named = FilePart::new(&b"hi"[..])
            .filename("my cat.png")
            .media_type("image/png");
        let text = serde_json::to_value(&named).unwrap();
        assert_eq!(text, "data:image/png;filename=my%20cat.png;base64,aGk=");
        let back = decode(text.as_str().unwrap()).unwrap();
        assert_eq!(back.bytes, b"hi");
        assert_eq!(back.media_type.as_deref(), Some("image/png"));
        assert_eq!(back.filename.as_deref(), Some("my cat.png"));
        assert_eq!(decode("aGk=").unwrap().media_type, None);
        // What models write: a data URL without a name.
        let model = decode("data:image/jpeg;base64,aGk=").unwrap();
        assert_eq!((model.bytes.as_slice(), model.filename), (&b"hi"[..], None));
        assert_eq!(decode("data:text/plain,hi"), None);
        assert_eq!(decode("not base64!"), None);
    }
}
