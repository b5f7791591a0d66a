//! The splitter's fast path inside a record: there only strings and nesting matter (and
//! newlines, for the line count), so a tight loop walks the bytes without the per-byte
//! bookkeeping of the top levels (keys, wrappers, records starting). Most of an export's bytes
//! are inside records, so this is where the time goes: a list page of 500 MRs is walked at
//! serde_json's speed or better.

use super::{Splitter, Top};
use memchr::memchr3;

impl Splitter {
    /// The depth from which the bytes may be skimmed, when they may: inside a record being
    /// captured, below the level whose keys are read (a top-level object that may wrap the
    /// records reads its own keys). Never in an embedded document, whose line starts matter.
    pub(super) fn skim_floor(&self) -> Option<u32> {
        if !self.capturing || self.embedded.is_some() {
            return None;
        }
        let reads_keys = self.elem_depth == 0 && self.top == Top::Object && !self.wrapper_keys.is_empty();
        let floor = if reads_keys { 2 } else { self.elem_depth + 1 };
        (self.depth >= floor).then_some(floor)
    }

    /// Walks `chunk` from `i` while the bytes stay at `floor` or deeper. Returns where the full
    /// handling must take over: a bracket that closes below `floor`, a raw newline inside a
    /// string, or the end of the chunk.
    pub(super) fn skim(&mut self, chunk: &[u8], i: usize, floor: u32) -> usize {
        // The state lives in locals while the loop runs, so it stays in registers.
        let (mut depth, mut line, mut in_str, mut esc) = (self.depth, self.line, self.in_str, self.esc);
        let mut i = i;
        let end = loop {
            if i >= chunk.len() {
                break chunk.len();
            }
            if in_str {
                if esc {
                    esc = false;
                    i += 1;
                    continue;
                }
                let Some(j) = memchr3(b'"', b'\\', b'\n', &chunk[i..]) else { break chunk.len() };
                let k = i + j;
                match chunk[k] {
                    b'"' => in_str = false,
                    b'\\' => esc = true,
                    _ => break k,
                }
                i = k + 1;
                continue;
            }
            match chunk[i] {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth <= floor => break i,
                b'}' | b']' => depth -= 1,
                b'\n' => line += 1,
                _ => {}
            }
            i += 1;
        };
        (self.depth, self.line, self.in_str, self.esc) = (depth, line, in_str, esc);
        end
    }
}
