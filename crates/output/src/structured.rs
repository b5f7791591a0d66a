//! JSON and YAML output of any serialisable document (the report, later plans and histories).

use serde::Serialize;
use std::io::{self, Write};

/// Pretty JSON with a trailing newline.
pub fn write_json<T: Serialize>(out: &mut dyn Write, doc: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, doc).map_err(io::Error::other)?;
    writeln!(out)
}

/// YAML (via serde-saphyr, the YAML library kube itself uses).
pub fn write_yaml<T: Serialize>(out: &mut dyn Write, doc: &T) -> io::Result<()> {
    let text = serde_saphyr::to_string(doc).map_err(io::Error::other)?;
    out.write_all(text.as_bytes())
}
