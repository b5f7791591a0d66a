//! What every reader of a user's file does first: buffer it and see through gzip.
//!
//! Exists so that the log, audit-log, inventory, cloud-audit and Velero readers and the sniffer
//! share one definition of "gzip accepted": detected by its magic bytes (a `.gz` name proves
//! nothing, `-` has none), every member of a multi-member stream read (`cat a.gz b.gz`,
//! CloudTrail's concatenated exports).

use std::io::{self, BufRead, BufReader, Read};

/// The read buffer every reader uses: large, because these files are read once, front to back.
const BUFFER: usize = 256 * 1024;

/// The stream to read: `reader` itself, or what its gzip members decompress to.
pub enum Input<R: Read> {
    /// Not compressed.
    Plain(BufReader<R>),
    /// gzip, decompressed member after member.
    Gzip(Box<BufReader<flate2::read::MultiGzDecoder<BufReader<R>>>>),
}

impl<R: Read> Input<R> {
    /// Whether the stream is gzip.
    pub fn is_gzip(&self) -> bool {
        matches!(self, Input::Gzip(_))
    }
}

/// Whether these first bytes start a gzip stream (its magic, `1f 8b`).
pub fn is_gzip(prefix: &[u8]) -> bool {
    prefix.starts_with(&[0x1f, 0x8b])
}

/// Buffers `reader` and, when its first bytes are gzip's magic, decompresses it. Fails only when
/// the first read does.
pub fn open<R: Read>(reader: R) -> io::Result<Input<R>> {
    let mut buffered = BufReader::with_capacity(BUFFER, reader);
    let gz = loop {
        match buffered.fill_buf() {
            Ok(b) => break is_gzip(b),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    };
    Ok(if gz {
        Input::Gzip(Box::new(BufReader::with_capacity(BUFFER, flate2::read::MultiGzDecoder::new(buffered))))
    } else {
        Input::Plain(buffered)
    })
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::Plain(r) => r.read(buf),
            Input::Gzip(r) => r.read(buf),
        }
    }
}

impl<R: Read> BufRead for Input<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Input::Plain(r) => r.fill_buf(),
            Input::Gzip(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Input::Plain(r) => r.consume(amt),
            Input::Gzip(r) => r.consume(amt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn plain_and_gzip_read_the_same() {
        let text = b"{\"a\":1}\n{\"b\":2}\n".to_vec();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text[..8]).unwrap();
        let mut two = gz.finish().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text[8..]).unwrap();
        two.extend(gz.finish().unwrap());
        for (input, gzip) in [(text.clone(), false), (two, true)] {
            let mut r = open(input.as_slice()).unwrap();
            assert_eq!(r.is_gzip(), gzip);
            let mut out = Vec::new();
            r.read_to_end(&mut out).unwrap();
            assert_eq!(out, text, "every gzip member is read");
        }
    }
}
