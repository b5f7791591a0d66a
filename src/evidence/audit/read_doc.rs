//! Document mode: a JSON array (`gcloud logging read --format=json`), a CloudWatch Logs
//! document (`{"events": [{"message": "…"}], …}`), or pretty-printed objects back to back
//! (`jq .`), streamed element by element with serde so that only one element is in memory.
//!
//! Exists because these exports are often one multi-megabyte document; each element is capped
//! at [`MAX_EVENT_BYTES`] by the counting reader (a larger one stops the file with a note).

use super::MAX_EVENT_BYTES;
use super::reader::Reader;
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::cell::Cell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

/// Where the reader is: bytes, newlines, the last non-blank byte, and the element's byte limit.
#[derive(Default)]
struct Position {
    bytes: Cell<u64>,
    newlines: Cell<u64>,
    last_content: Cell<u64>,
    limit: Cell<u64>,
}

/// Counts what passes and refuses to read past the current element's limit.
struct Counting<R> {
    inner: R,
    pos: Rc<Position>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let p = &self.pos;
        if p.bytes.get() > p.limit.get() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "element too long"));
        }
        let n = self.inner.read(buf)?;
        for &c in &buf[..n] {
            p.bytes.set(p.bytes.get() + 1);
            match c {
                b'\n' => p.newlines.set(p.newlines.get() + 1),
                b' ' | b'\t' | b'\r' => {}
                _ => p.last_content.set(p.bytes.get()),
            }
        }
        Ok(n)
    }
}

/// The visitor of one top-level value; `events` arrays are streamed.
struct Doc<'r, 'g> {
    r: &'r mut Reader<'g>,
    pos: Rc<Position>,
}

impl Doc<'_, '_> {
    fn arm(&self) {
        self.pos.limit.set(self.pos.bytes.get() + MAX_EVENT_BYTES as u64);
    }

    fn element(&mut self, raw: &RawValue) {
        let text = raw.get();
        let lines = text.bytes().filter(|&c| c == b'\n').count() as u64;
        let line = (self.pos.newlines.get() + 1).saturating_sub(lines);
        self.r.element(text.as_bytes(), line);
    }

    fn elements<'de, A: SeqAccess<'de>>(&mut self, mut seq: A) -> Result<(), A::Error> {
        loop {
            self.arm();
            match seq.next_element::<Box<RawValue>>()? {
                Some(raw) => self.element(&raw),
                None => return Ok(()),
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Doc<'_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// The `events` array of a CloudWatch document, streamed.
struct Events<'d, 'r, 'g>(&'d mut Doc<'r, 'g>);

impl<'de> DeserializeSeed<'de> for Events<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Events<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of events")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.0.elements(seq)
    }
}

impl<'de> Visitor<'de> for Doc<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON array or object")
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, seq: A) -> Result<(), A::Error> {
        self.elements(seq)
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut kept: Vec<(String, Box<RawValue>)> = Vec::new();
        let mut streamed = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "events" {
                map.next_value_seed(Events(&mut self))?;
                streamed = true;
            } else {
                self.arm();
                kept.push((key, map.next_value()?));
            }
        }
        if !streamed {
            // A pretty-printed event: put it back together and read it as one element.
            let mut obj = String::from("{");
            for (i, (k, v)) in kept.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                obj.push_str(&format!("{sep}{}:{}", serde_json::to_string(k).unwrap_or_default(), v.get()));
            }
            obj.push('}');
            let line = self.pos.newlines.get() + 1;
            self.r.element(obj.as_bytes(), line);
        }
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        self.r.read.documents += 1;
        self.r.read.not_audit += 1;
        Ok(())
    }
}

/// Reads top-level values until the end of the stream; what cannot be read is noted, not fatal.
pub(super) fn documents<R: BufRead>(input: &mut R, r: &mut Reader) -> io::Result<()> {
    let pos = Rc::new(Position::default());
    let counting = Counting { inner: input, pos: pos.clone() };
    let mut de = serde_json::Deserializer::from_reader(counting);
    loop {
        let end_of_last = pos.bytes.get();
        pos.limit.set(pos.bytes.get() + MAX_EVENT_BYTES as u64);
        let result = Doc { r: &mut *r, pos: pos.clone() }.deserialize(&mut de);
        r.read.bytes = pos.bytes.get();
        match result {
            Ok(()) => continue,
            Err(e) if e.is_eof() && pos.last_content.get() <= end_of_last => return Ok(()),
            Err(e) if e.is_eof() => {
                r.read.ended_early = Some("the JSON document ends early (a truncated export)".into());
                return Ok(());
            }
            Err(e) if e.is_io() && pos.bytes.get() > pos.limit.get() => {
                r.read.documents += 1;
                r.read.too_long += 1;
                r.read.ended_early = Some("an element longer than 4 MiB; the rest of the document was skipped".into());
                return Ok(());
            }
            Err(e) if e.is_io() => return Err(io::Error::other(e.to_string())),
            Err(e) => {
                r.read.malformed += 1;
                r.read.ended_early = Some(format!("invalid JSON ({e}); the rest of the document was skipped"));
                return Ok(());
            }
        }
    }
}
