use super::*;

const KEYS: &[&[u8]] = &[b"Records", b"Events", b"value"];

fn pieces(text: &[u8], chunk: usize, cap: usize, after: AfterBreak) -> (Vec<String>, Option<u64>) {
    let mut out = Vec::new();
    let mut s = Splitter::new(cap, KEYS, after);
    let mut r = io::BufReader::with_capacity(chunk, text);
    let mut bytes = 0;
    let open = s.run(&mut r, &mut bytes, &mut |p| out.push(shown(p))).unwrap();
    assert_eq!(bytes, text.len() as u64);
    (out, open)
}

/// A piece as the tables write it: a record as `line:text`, a record standing alone as
/// `whole line:text`, a wrapper's end as `said[key=value,…]`, any other by its name.
fn shown(p: Piece) -> String {
    match p {
        Piece::Element(b, l) => format!("{l}:{}", String::from_utf8_lossy(b)),
        Piece::Whole(b, l) => format!("whole {l}:{}", String::from_utf8_lossy(b)),
        Piece::Wrapper(said) => {
            let m: Vec<String> =
                said.iter().map(|m| format!("{}={}", m.key, String::from_utf8_lossy(&m.value))).collect();
            format!("said[{}]", m.join(","))
        }
        other => format!("{other:?}"),
    }
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

/// (case, input, pieces: records as `line:text`, a wrapper's end as `said[key=value,…]`)
const MEMBER_CASES: &[(&str, &str, &[&str])] = &[
    ("a token after the records", "{\"Events\":[{\"e\":1}],\"NextToken\":\"t0k\"}", &["1:{\"e\":1}", "said[0=t0k]"]),
    ("a token before the records", "{\"NextToken\":\"t\",\"Events\":[{\"e\":1}]}", &["1:{\"e\":1}", "said[0=t]"]),
    ("no token", "{\"Events\":[{\"e\":1}]}\n", &["1:{\"e\":1}", "said[]"]),
    ("a null token", "{\"Events\":[],\n \"NextToken\": null}", &["said[]"]),
    ("a token that is an object", "{\"NextToken\":{\"a\":\"b\"},\"Events\":[]}", &["said[]"]),
    ("a number in between", "{\"NextToken\":1,\"x\":\"y\",\"Events\":[]}", &["said[]"]),
    ("the key's name as a value", "{\"x\":\"NextToken\",\"Events\":[],\"y\":\"z\"}", &["said[]"]),
    (
        "a token inside a record is the record's",
        "{\"Events\":[{\"NextToken\":\"x\"}]}",
        &["1:{\"NextToken\":\"x\"}", "said[]"],
    ),
    ("an object that wraps nothing is a record", "{\"NextToken\":\"t\",\"a\":1}", &["1:{\"NextToken\":\"t\",\"a\":1}"]),
    ("escapes kept as written", "{\"Events\":[],\"nextLink\":\"a\\\"b\"}", &["said[1=a\\\"b]"]),
    ("a key twice: the last value", "{\"NextToken\":\"a\",\"Events\":[],\"NextToken\":\"b\"}", &["said[0=b]"]),
    ("each page says its own", "{\"Events\":[],\"NextToken\":\"a\"}\n{\"Events\":[]}", &["said[0=a]", "said[]"]),
    ("a page cut off says nothing", "{\"Events\":[{\"e\":1}],\"NextToken\":\"t", &["1:{\"e\":1}"]),
];

#[test]
fn a_wrapper_says_what_it_holds_beside_its_records_at_any_chunk_size() {
    const LISTEN: &[&[u8]] = &[b"NextToken", b"nextLink"];
    for (name, text, want) in MEMBER_CASES {
        for chunk in [1, 2, 3, 7, 4096] {
            let mut out = Vec::new();
            let mut s = Splitter::new(64, KEYS, AfterBreak::Resync).listen(LISTEN);
            let mut r = io::BufReader::with_capacity(chunk, text.as_bytes());
            s.run(&mut r, &mut 0, &mut |p| out.push(shown(p))).unwrap();
            assert_eq!(out, *want, "{name} (chunk {chunk})");
        }
    }
    let long = format!("{{\"Events\":[],\"NextToken\":\"{}\"}}", "t".repeat(MEMBER_BYTES * 3));
    let mut said = Vec::new();
    let mut s = Splitter::new(64, KEYS, AfterBreak::Resync).listen(LISTEN);
    s.run(&mut io::BufReader::with_capacity(5, long.as_bytes()), &mut 0, &mut |p| {
        if let Piece::Wrapper(m) = p {
            said = m.to_vec();
        }
    })
    .unwrap();
    assert_eq!(said, [Member { key: 0, value: vec![b't'; MEMBER_BYTES] }], "a long value: its prefix");
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

/// Runs an embedded document: `initial` on line 4 (the stream starts on line 5), `stream`
/// read in chunks of `chunk`. Gives the pieces, how it ended, the line it resumes on, and what
/// of the stream is left for the caller.
fn document_run(opened: Opened, initial: &str, stream: &str, chunk: usize) -> (Vec<String>, DocEnd, u64, String) {
    let mut out = Vec::new();
    let mut s = Splitter::document(64, opened, 5);
    let mut r = io::BufReader::with_capacity(chunk, stream.as_bytes());
    let mut bytes = 0;
    let end = s.run_document(&mut r, initial.as_bytes(), &mut bytes, &mut |p| out.push(shown(p))).unwrap();
    let mut rest = String::new();
    io::Read::read_to_string(&mut r, &mut rest).unwrap();
    assert_eq!(bytes as usize + rest.len(), stream.len(), "bytes used and left add up");
    (out, end, s.line(), rest)
}

/// (case, opened, initial, stream, pieces, end, line after, left for the caller)
type DocumentCase =
    (&'static str, Opened, &'static str, &'static str, &'static [&'static str], DocEnd, u64, &'static str);

const DOCUMENT_CASES: &[DocumentCase] = &[
    (
        "an array ends mid-stream; its line's separators are used",
        Opened::Array,
        "",
        "{\"a\":1},\n {\"b\":\"]\"} ] ,\nI1125 next\n",
        &["5:{\"a\":1}", "6:{\"b\":\"]\"}"],
        DocEnd::Ended,
        7,
        "I1125 next\n",
    ),
    (
        "an array's first elements on the opening line",
        Opened::Array,
        " {\"a\":1},",
        "{\"b\":2}]\nlog\n",
        &["4:{\"a\":1}", "5:{\"b\":2}"],
        DocEnd::Ended,
        6,
        "log\n",
    ),
    (
        "a log line at column 0 leaves an element cut",
        Opened::Array,
        "",
        "{\"a\":1},\n{\"b\":\"x\"\nI1125 log line\n",
        &["5:{\"a\":1}", "Broken(6)"],
        DocEnd::Left,
        7,
        "I1125 log line\n",
    ),
    (
        "an indented line always continues",
        Opened::Object,
        "{\"msg\":\"a\",",
        "  \"x\": 1\n}\nafter\n",
        &["4:{\"msg\":\"a\",  \"x\": 1\n}"],
        DocEnd::Ended,
        7,
        "after\n",
    ),
    ("a first line that starts no document", Opened::Array, "1, 2]", "log\n", &["Broken(4)"], DocEnd::Left, 5, "log\n"),
    (
        "a break inside a string",
        Opened::Array,
        "",
        "{\"a\":\"cut\n{\"b\":1}]\n",
        &["Broken(5)"],
        DocEnd::Left,
        6,
        "{\"b\":1}]\n",
    ),
    (
        "the stream ends inside an element",
        Opened::Array,
        "",
        "{\"a\":1},{\"b\":",
        &["5:{\"a\":1}", "Broken(5)"],
        DocEnd::Left,
        5,
        "",
    ),
    (
        "an element over the cap",
        Opened::Array,
        "",
        "{\"a\":\"0123456789012345678901234567890123456789012345678901234567890123456789\"},{\"b\":1}]",
        &["TooLong(5)", "5:{\"b\":1}"],
        DocEnd::Ended,
        5,
        "",
    ),
];

#[test]
fn an_embedded_document_ends_or_is_left_where_the_log_goes_on_at_any_chunk_size() {
    for (name, opened, initial, stream, want, end, line, rest) in DOCUMENT_CASES {
        for chunk in [1, 2, 5, 4096] {
            let got = document_run(*opened, initial, stream, chunk);
            assert_eq!(
                got,
                (want.iter().map(|s| s.to_string()).collect(), *end, *line, rest.to_string()),
                "{name} (chunk {chunk})"
            );
        }
    }
}

/// Pieces of a splitter telling each value apart, strict, listening for `data` (a wrapper key)
/// and `next` ([`shown`]).
fn each_value_pieces(text: &[u8], chunk: usize) -> (Vec<String>, Option<u64>) {
    const WRAP: &[&[u8]] = &[b"data"];
    const LISTEN: &[&[u8]] = &[b"data", b"next"];
    let mut out = Vec::new();
    let mut s = Splitter::new(64, WRAP, AfterBreak::Stop).listen(LISTEN).each_value().strict();
    let mut r = io::BufReader::with_capacity(chunk, text);
    let open = s.run(&mut r, &mut 0, &mut |p| out.push(shown(p))).unwrap();
    (out, open)
}

/// (case, input, pieces, open at the end)
const EACH_VALUE_CASES: &[(&str, &str, &[&str], Option<u64>)] = &[
    ("an array ends", "[{\"a\":1},\n\"s\"]", &["1:{\"a\":1}", "2:\"s\"", "said[]"], None),
    ("an empty array ends too", " [ ] ", &["said[]"], None),
    ("a wrapper names its key", "{\"next\":\"t\",\"data\":[{\"a\":1}]}", &["1:{\"a\":1}", "said[1=t,0=]"], None),
    ("an object alone is whole", "{\"x\":[1,{\"y\":2}]}", &["whole 1:{\"x\":[1,{\"y\":2}]}"], None),
    ("so is a string", "\"s\" {\"data\":null}", &["whole 1:\"s\"", "whole 1:{\"data\":null}"], None),
    (
        "documents back to back",
        "{\"data\":[],\"next\":\"a\"}\n[]\n{\"k\":1}",
        &["said[0=,1=a]", "said[]", "whole 3:{\"k\":1}"],
        None,
    ),
    ("a cut array says no end", "[{\"a\":1},{\"b\"", &["1:{\"a\":1}"], Some(1)),
    // Strict: every byte out of place outside records is a break, and the last word.
    ("an array closed early", "{\"data\":[{\"a\":1}]{\"b\":2}]}", &["1:{\"a\":1}", "Broken(1)"], None),
    ("a bracket that does not match", "{\"data\":[{\"a\":1}}", &["1:{\"a\":1}", "Broken(1)"], None),
    ("a comma for a colon", "{\"data\":[],\"next\",\"t\"}", &["Broken(1)"], None),
    ("a missing comma", "[{\"a\":1} {\"b\":2}]", &["1:{\"a\":1}", "Broken(1)"], None),
    ("a trailing comma", "[{\"a\":1},]", &["1:{\"a\":1}", "Broken(1)"], None),
    ("a bare value where a record stands", "[{\"a\":1},\n2]", &["1:{\"a\":1}", "Broken(2)"], None),
    ("a stray closer at the top", "[] }", &["said[]", "Broken(1)"], None),
    ("a comma at the top", "{\"k\":1},{\"j\":2}", &["whole 1:{\"k\":1}", "Broken(1)"], None),
    ("bare values beside the records are fine", "{\"n\":-1.5e3,\"data\":[],\"b\":true}", &["said[0=]"], None),
    (
        "a record's own bytes are its reader's",
        "[{\"a\":1 2},{\"b\":[}}]",
        &["1:{\"a\":1 2}", "1:{\"b\":[}}", "said[]"],
        None,
    ),
];

#[test]
fn each_value_is_told_apart_and_strict_checks_the_bytes_between_records_at_any_chunk_size() {
    for (name, text, want, open) in EACH_VALUE_CASES {
        for chunk in [1, 2, 3, 7, 4096] {
            let (got, end) = each_value_pieces(text.as_bytes(), chunk);
            assert_eq!(got, *want, "{name} (chunk {chunk})");
            assert_eq!(end, *open, "{name} (chunk {chunk})");
        }
    }
}

#[test]
fn strict_nesting_outside_records_is_bounded() {
    let deep = format!("{{\"data\":[],\"x\":{}", "[".repeat(200));
    let (got, _) = each_value_pieces(deep.as_bytes(), 4096);
    assert_eq!(got, ["Broken(1)"], "the walk of what wraps the records goes 128 deep, as serde does");
}
