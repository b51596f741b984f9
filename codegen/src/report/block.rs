//! The page's compressed blocks: inert `<script>` elements whose text is JSON,
//! gzip-compressed and base64-encoded, which the page's script inflates when it needs
//! them (a tool's details, an API's definitions).

use std::io::Write;

/// What a details block's JSON is written into: gzip, then base64, then the page.
/// Buffered in front of gzip: serde_json writes a token at a time, and flate2 clears
/// its whole output buffer (32 KB) on every write it is given — on Microsoft Graph
/// that was most of the report's time.
pub(super) type BlockWriter<'w> = std::io::BufWriter<
    flate2::write::GzEncoder<
        base64::write::EncoderWriter<'static, base64::engine::GeneralPurpose, &'w mut dyn Write>,
    >,
>;

/// Starts a details block: an inert `<script>` element whose text is the JSON written
/// into the returned writer, gzip-compressed and base64-encoded.
pub(super) fn open_block<'w>(out: &'w mut dyn Write, id: &str) -> std::io::Result<BlockWriter<'w>> {
    out.write_all(b"<script type=\"application/gzip+base64\" id=\"")?;
    out.write_all(id.as_bytes())?;
    out.write_all(b"\">")?;
    let base64 = base64::write::EncoderWriter::new(out, &base64::engine::general_purpose::STANDARD);
    Ok(std::io::BufWriter::with_capacity(
        BUFFER,
        flate2::write::GzEncoder::new(base64, flate2::Compression::default()),
    ))
}

/// The bytes gathered before they are handed to gzip.
pub(super) const BUFFER: usize = 64 * 1024;

/// Ends a block [`open_block`] started: the gzip trailer, base64's padding, the
/// element's end.
pub(super) fn close_block(gz: BlockWriter<'_>) -> std::io::Result<()> {
    let gz = gz
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)?;
    let mut base64 = gz.finish()?;
    base64.finish()?.write_all(b"</script>\n")
}

/// The whole element for the JSON text `write` writes, as the page will hold it: what
/// is kept until the page is written takes its compressed size, and the text is never
/// whole (Microsoft Graph beta's definitions are 15.7 MB of it).
pub(super) fn element(
    id: &str,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut gz = open_block(&mut out, id)?;
    write(&mut gz)?;
    close_block(gz)?;
    out.shrink_to_fit();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;

    use super::*;

    /// The JSON text inside an element.
    fn inflated(element: &[u8]) -> String {
        let element = std::str::from_utf8(element).unwrap();
        assert!(element.starts_with(r#"<script type="application/gzip+base64" id="b">"#));
        assert!(element.ends_with("</script>\n"));
        let b64 = element
            .split('>')
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .unwrap();
        text
    }

    #[test]
    fn blocks_are_gzip_of_the_json() {
        let mut out = Vec::new();
        let mut gz = open_block(&mut out, "b").unwrap();
        gz.write_all(br#"{"a":[1,2]}"#).unwrap();
        close_block(gz).unwrap();
        assert_eq!(inflated(&out), r#"{"a":[1,2]}"#);
        // Made whole ahead, the element is the same bytes.
        let made = element("b", |w| w.write_all(br#"{"a":[1,2]}"#)).unwrap();
        assert_eq!(made, out);
    }
}
