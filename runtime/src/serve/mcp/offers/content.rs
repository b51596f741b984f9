//! The blocks a tool result or a prompt message is made of, and the contents of a
//! resource, as MCP puts them on the wire.

use base64::Engine as _;
use serde_json::{Value, json};

/// One block of a tool result or a prompt message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Content {
    /// Text for the model.
    Text(String),
    /// An image: its bytes and media type (`image/png`).
    Image { bytes: Vec<u8>, mime_type: String },
    /// Audio: its bytes and media type (`audio/wav`).
    Audio { bytes: Vec<u8>, mime_type: String },
    /// A resource's contents, embedded.
    Resource(ResourceContents),
    /// A block of a kind not listed here, as another MCP server sent it (proxied).
    Other(Value),
}

impl Content {
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text(text.into())
    }

    pub fn image(bytes: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Content {
        Content::Image {
            bytes: bytes.into(),
            mime_type: mime_type.into(),
        }
    }

    pub fn audio(bytes: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Content {
        Content::Audio {
            bytes: bytes.into(),
            mime_type: mime_type.into(),
        }
    }

    /// The block as MCP sends it.
    pub fn to_json(&self) -> Value {
        match self {
            Content::Text(text) => json!({"type": "text", "text": text}),
            Content::Image { bytes, mime_type } => {
                json!({"type": "image", "data": base64(bytes), "mimeType": mime_type})
            }
            Content::Audio { bytes, mime_type } => {
                json!({"type": "audio", "data": base64(bytes), "mimeType": mime_type})
            }
            Content::Resource(contents) => {
                json!({"type": "resource", "resource": contents.to_json()})
            }
            Content::Other(block) => block.clone(),
        }
    }

    /// A block as MCP sends it, read back (what a proxied server answered); kinds not
    /// listed here, or malformed ones, are kept as they are ([`Content::Other`]).
    pub fn from_json(block: &Value) -> Content {
        let text = |key: &str| block.get(key).and_then(Value::as_str);
        let bytes = |key: &str| {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(text(key)?)
                .ok()
        };
        let parsed = match text("type") {
            Some("text") => text("text").map(Content::text),
            Some(kind @ ("image" | "audio")) => {
                let (bytes, mime) = (bytes("data"), text("mimeType"));
                bytes.zip(mime).map(|(bytes, mime)| match kind {
                    "image" => Content::image(bytes, mime),
                    _ => Content::audio(bytes, mime),
                })
            }
            Some("resource") => block
                .get("resource")
                .and_then(ResourceContents::from_json)
                .map(Content::Resource),
            _ => None,
        };
        parsed.unwrap_or_else(|| Content::Other(block.clone()))
    }
}

/// What reading a resource gives: text or bytes, named by the URI they were read at.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceContents {
    pub uri: String,
    pub mime_type: Option<String>,
    pub body: ResourceBody,
}

/// A resource's body.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceBody {
    Text(String),
    /// Sent base64-encoded (`blob`).
    Bytes(Vec<u8>),
}

impl ResourceContents {
    pub fn text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> ResourceContents {
        ResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Text(text.into()),
        }
    }

    pub fn bytes(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> ResourceContents {
        ResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Bytes(bytes.into()),
        }
    }

    /// Contents as MCP sends them (`text` or base64 `blob`), read back.
    pub fn from_json(contents: &Value) -> Option<ResourceContents> {
        use base64::Engine as _;
        let uri = contents.get("uri")?.as_str()?.to_owned();
        let mime_type = contents
            .get("mimeType")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let body = match (contents.get("text"), contents.get("blob")) {
            (Some(Value::String(text)), _) => ResourceBody::Text(text.clone()),
            (_, Some(Value::String(blob))) => ResourceBody::Bytes(
                base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .ok()?,
            ),
            _ => return None,
        };
        Some(ResourceContents {
            uri,
            mime_type,
            body,
        })
    }

    pub fn to_json(&self) -> Value {
        let mut out = json!({"uri": self.uri});
        if let Some(mime) = &self.mime_type {
            out["mimeType"] = json!(mime);
        }
        match &self.body {
            ResourceBody::Text(text) => out["text"] = json!(text),
            ResourceBody::Bytes(bytes) => out["blob"] = json!(base64(bytes)),
        }
        out
    }
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_put_as_mcp_names_them() {
        assert_eq!(
            Content::image([1u8, 2, 3], "image/png").to_json(),
            json!({"type": "image", "data": "AQID", "mimeType": "image/png"})
        );
        let embedded =
            Content::Resource(ResourceContents::bytes("a://b", "application/zip", [0u8]));
        assert_eq!(
            embedded.to_json(),
            json!({"type": "resource", "resource": {"uri": "a://b", "mimeType": "application/zip", "blob": "AA=="}})
        );
    }
}
