use super::*;

const KEYS: &[&[u8]] = &[b"Records", b"Events", b"value"];

fn pieces(text: &[u8], chunk: usize, cap: usize, after: AfterBreak) -> (Vec<String>, Option<u64>) {
    let mut out = Vec::new();
    let mut s = Splitter::new(cap, KEYS, after);
    let mut r = io::BufReader::with_capacity(chunk, text);
    let mut bytes = 0;
    let open = s
        .run(&mut r, &mut bytes, &mut |p| {
            out.push(match p {
                Piece::Element(b, l) => format!("{l}:{}", String::from_utf8_lossy(b)),
                other => format!("{other:?}"),
            })
        })
        .unwrap();
    assert_eq!(bytes, text.len() as u64);
    (out, open)
}

/// (case, input, records as `line:text` or a piece's name, open at the end)
const CASES: &[(&str, &str, &[&str], Option<u64>)] = &[
    ("json lines", "{\"a\":1}\n{\"b\":\"}\"}\n", &["1:{\"a\":1}", "2:{\"b\":\"}\"}"], None),
    ("array", "[\n {\"a\":[1,{\"x\":2}]},\n {\"b\":2}\n]\n", &["2:{\"a\":[1,{\"x\":2}]}", "3:{\"b\":2}"], None),
    ("Records wrapper", "{\"Records\":[{\"a\":1},{\"b\":\"x\\\"y\"}]}", &["1:{\"a\":1}", "1:{\"b\":\"x\\\"y\"}"], None),
    ("Events wrapper with a token before", "{\"NextToken\":\"t\",\"Events\":[{\"e\":1}]}", &["1:{\"e\":1}"], None),
    ("a wrapper key nested deeper is data", "{\"a\":{\"Records\":[1]}}", &["1:{\"a\":{\"Records\":[1]}}"], None),
    ("array of strings", "[\"{\\\"a\\\":1}\"]", &["1:\"{\\\"a\\\":1}\""], None),
    ("not JSON lines", "hello\n{\"a\":1}\n", &["NotJson(1)", "2:{\"a\":1}"], None),
    ("a truncated line breaks, the next is read", "{\"a\":\"cut\n{\"b\":1}\n", &["Broken(1)", "2:{\"b\":1}"], None),
    ("truncated at the end", "{\"a\":[1,2", &[], Some(1)),
    (
        "too long",
        "{\"a\":\"0123456789012345678901234567890123456789\"}\n{\"b\":1}",
        &["TooLong(1)", "2:{\"b\":1}"],
        None,
    ),
    ("a BOM", "\u{feff}{\"a\":1}", &["1:{\"a\":1}"], None),
];

#[test]
fn every_layout_splits_into_records_at_any_chunk_size() {
    for (name, text, want, open) in CASES {
        for chunk in [1, 2, 3, 7, 64, 4096] {
            let (got, end) = pieces(text.as_bytes(), chunk, 32, AfterBreak::Resync);
            assert_eq!(got, *want, "{name} (chunk {chunk})");
            assert_eq!(end, *open, "{name} (chunk {chunk})");
        }
    }
}

#[test]
fn after_a_break_resync_reads_on_and_stop_reads_no_further() {
    let text = b"{\"a\":1}\n{\"a\":\"cut\n  tail\n{\"b\":2}\n";
    for chunk in [1, 5, 4096] {
        let (resync, _) = pieces(text, chunk, 32, AfterBreak::Resync);
        assert_eq!(resync, ["1:{\"a\":1}", "Broken(2)", "4:{\"b\":2}"], "chunk {chunk}");
        let (stop, open) = pieces(text, chunk, 32, AfterBreak::Stop);
        assert_eq!(stop, ["1:{\"a\":1}", "Broken(2)"], "chunk {chunk}");
        assert_eq!(open, None, "chunk {chunk}");
    }
}

#[test]
fn only_the_keys_asked_for_wrap_records() {
    let text = b"{\"entries\":[{\"a\":1}]}";
    let (got, _) = pieces(text, 4096, 64, AfterBreak::Resync);
    assert_eq!(got, ["1:{\"entries\":[{\"a\":1}]}"]);
}

#[test]
fn a_list_body_gives_its_items_and_the_array_s_place() {
    let body = br#"{"kind":"List","items":[{"a":"]"} , "s",{"b":[1]}],"metadata":{"continue":"t"}}"#;
    let list = list_items(body).unwrap();
    let texts: Vec<&[u8]> = list.items.iter().map(|r| &body[r.clone()]).collect();
    assert_eq!(texts, [&br#"{"a":"]"}"#[..], br#""s""#, br#"{"b":[1]}"#]);
    assert_eq!(&body[list.array.0..list.array.1], &br#"[{"a":"]"} , "s",{"b":[1]}]"#[..]);
    let empty = list_items(br#"{"items":[ ]}"#).unwrap();
    assert!(empty.items.is_empty());
}

#[test]
fn a_list_body_it_cannot_vouch_for_is_refused() {
    for body in [
        &br#"{"items":[{"a":1},]}"#[..],
        br#"{"items":[,{"a":1}]}"#,
        br#"{"items":[{"a":1}{"b":2}]}"#,
        br#"{"items":[1]}"#,
        br#"{"items":[{"a":1}],"items":[]}"#,
        br#"{"items":[{"a":1}]} trailing"#,
        br#"{"items":[{"a":1}]}{}"#,
        br#"{"items":[{"a":1}"#,
        br#"{"items":null}"#,
        br#"["items"]"#,
        b"{\"items\":[\"cut\n\"]}",
        b"",
    ] {
        assert!(list_items(body).is_none(), "{}", String::from_utf8_lossy(body));
    }
}
