//! Document mode: a JSON array (`gcloud logging read --format=json`), a CloudWatch Logs
//! document (`{"events": [{"message": "…"}], …}`), or pretty-printed objects back to back
//! (`jq .`), split element by element by the one JSON splitter ([`json_split`]) so that
//! only one element is in memory.
//!
//! Exists because these exports are often one multi-megabyte document. What is particular to
//! audit exports is a parameter of the splitter, not a copy of it: the records of a CloudWatch
//! document sit under `events`, each element is capped at [`MAX_EVENT_BYTES`] (a larger one is
//! counted and skipped unread), and a break (a raw newline inside a string) ends the document,
//! since nothing after it can be trusted.

use super::MAX_EVENT_BYTES;
use super::reader::Reader;
use json_split::{AfterBreak, Piece, Splitter};
use std::io::{self, BufRead};

/// The key of a CloudWatch Logs document whose array holds the events.
const WRAPPER_KEYS: &[&[u8]] = &[b"events"];

/// Reads top-level values until the end of the stream; what cannot be read is noted, not fatal.
pub(super) fn documents<R: BufRead>(input: &mut R, r: &mut Reader) -> io::Result<()> {
    let mut split = Splitter::new(MAX_EVENT_BYTES, WRAPPER_KEYS, AfterBreak::Stop);
    let mut bytes = 0;
    let mut broken = None;
    let open = split.run(input, &mut bytes, &mut |piece| match piece {
        Piece::Element(b, line) | Piece::Whole(b, line) => r.element(b, line),
        Piece::NotJson(_) => {
            r.read.documents += 1;
            r.read.malformed += 1;
        }
        Piece::Broken(line) => {
            r.read.documents += 1;
            r.read.malformed += 1;
            broken = Some(line);
        }
        Piece::TooLong(_) => {
            r.read.documents += 1;
            r.read.too_long += 1;
        }
        // What a CloudWatch document says beside its events is not listened for.
        Piece::Wrapper(_) => {}
    })?;
    r.read.bytes = bytes;
    if let Some(line) = broken {
        r.read.ended_early = Some(format!(
            "invalid JSON (a line break inside a string, line {line}); the rest of the document was skipped"
        ));
    } else if open.is_some() {
        r.read.ended_early = Some("the JSON document ends early (a truncated export)".into());
    }
    Ok(())
}
