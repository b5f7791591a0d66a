//! The composite reconciler's writes as upstream makes them: a server-side apply of the composed
//! resource with `ForceOwnership` under its field manager (crossplane
//! `internal/controller/apiextensions/composite/composition_functions.go`), sent to the test API
//! server over plain HTTP.

use serde_json::Value;
use std::io::{Read, Write};

/// The composite's field manager for an XR (`ComposedFieldOwnerName`: the prefix and the hex
/// SHA-256 of the XR's name and GroupKind; a fixed digest stands in).
pub const COMPOSITE_MANAGER: &str =
    "apiextensions.crossplane.io/composed/4fd8165ffc8193171fd75760b7393df43a0044362ee68d2772e996612f366f8d";

/// Applies `obj` at `path` (`/apis/GROUP/VERSION/PLURAL/NAME`) as the composite does: forced,
/// under [`COMPOSITE_MANAGER`]. Returns the status code and the body.
pub fn compose(url: &str, path: &str, obj: &Value) -> (u16, Value) {
    let addr = url.trim_start_matches("http://");
    let body = obj.to_string();
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    let req = format!(
        "PATCH {path}?fieldManager={COMPOSITE_MANAGER}&force=true HTTP/1.1\r\nHost: {addr}\r\n\
         Content-Type: application/apply-patch+yaml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("sends");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("reads");
    let code = answer.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let json = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    (code, serde_json::from_str(json).unwrap_or(Value::Null))
}
