//! CloudTrail's columns back into one CloudTrail record: what a row of CloudTrail Lake's
//! `get-query-results` and a line of an Athena CSV download are, before the CloudTrail dialect
//! can decode them.
//!
//! Exists because both query engines hand a record over as columns of strings: the nested fields
//! (`userIdentity`, `requestParameters`, `resources`) arrive as JSON text (Athena's
//! `requestparameters`), as the engine's text of a struct or map (`{type=AssumedRole,
//! arn=arn:aws:…, sessioncontext={…}}`, Trino's rendering of a `ROW` or `MAP`), or are picked
//! apart by the SELECT (`userIdentity.arn` comes back as a column named `arn`). `SELECT
//! eventJson` gives the whole event as one string. Each is folded into the object a CloudTrail
//! log file would hold, so the one decoder reads them all. Empty values are SQL nulls (Athena
//! writes them as empty fields) and are left out, so a null `errorCode` is no failure.

use serde_json::{Map, Value};

/// CloudTrail's field names: a column named so in any case (Athena's table has them in lower
/// case) is that field, so the byte checks and the decoder see the names a log file has.
const FIELDS: &[&str] = &[
    "eventVersion",
    "userIdentity",
    "eventTime",
    "eventSource",
    "eventName",
    "awsRegion",
    "sourceIPAddress",
    "userAgent",
    "errorCode",
    "errorMessage",
    "requestParameters",
    "responseElements",
    "additionalEventData",
    "requestID",
    "eventID",
    "readOnly",
    "resources",
    "eventType",
    "apiVersion",
    "managementEvent",
    "recipientAccountId",
    "sharedEventID",
    "vpcEndpointId",
    "eventCategory",
    "serviceEventDetails",
    "tlsDetails",
    "sessionCredentialFromConsole",
    "addendum",
    "edgeDeviceDetails",
    "insightDetails",
];

/// Fields whose value is an object or a list in the record.
const NESTED: &[&str] = &[
    "userIdentity",
    "requestParameters",
    "responseElements",
    "additionalEventData",
    "resources",
    "serviceEventDetails",
    "tlsDetails",
    "addendum",
    "edgeDeviceDetails",
    "insightDetails",
];

/// Columns a SELECT of one `userIdentity` field names by the field alone (`SELECT
/// userIdentity.arn` returns a column `arn`): where each goes in the record. No top-level
/// CloudTrail field has these names.
const IDENTITY: &[(&str, &[&str])] = &[
    ("arn", &["userIdentity", "arn"]),
    ("principalid", &["userIdentity", "principalId"]),
    ("accountid", &["userIdentity", "accountId"]),
    ("username", &["userIdentity", "userName"]),
    ("type", &["userIdentity", "type"]),
    ("sessionissuer", &["userIdentity", "sessionContext", "sessionIssuer"]),
];

/// How deep struct text is read: CloudTrail's structs nest four levels; more is hostile.
const MAX_DEPTH: usize = 16;

/// The record the columns of one row make, as JSON bytes for the CloudTrail dialect: the
/// `eventJson` column's text when the row has one, else an object of the columns.
pub(super) fn fold<'a>(columns: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<u8> {
    let mut record = Map::new();
    for (name, value) in columns {
        if value.is_empty() {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        if lower == "eventjson" {
            return value.as_bytes().to_vec();
        }
        let field = FIELDS.iter().find(|f| f.eq_ignore_ascii_case(name)).copied();
        if let Some(field) = field.filter(|f| NESTED.contains(f)) {
            if let Some(v) = nested(value) {
                record.insert(field.to_string(), v);
            }
        } else if name.contains('.') {
            let path: Vec<&str> = name.split('.').filter(|p| !p.is_empty()).collect();
            insert_at(&mut record, &path, Value::String(value.to_string()));
        } else if let Some((_, path)) = IDENTITY.iter().find(|(col, _)| *col == lower) {
            let v = nested(value).unwrap_or_else(|| Value::String(value.to_string()));
            insert_identity(&mut record, path, v);
        } else {
            record.insert(field.unwrap_or(name).to_string(), Value::String(value.to_string()));
        }
    }
    serde_json::to_vec(&Value::Object(record)).unwrap_or_default()
}

/// A bare `arn` column is the identity's; a second one naming a role is its session's issuer
/// (`SELECT userIdentity.arn, userIdentity.sessionContext.sessionIssuer.arn` names both `arn`).
fn insert_identity(record: &mut Map<String, Value>, path: &[&str], v: Value) {
    let taken = lookup(record, path).is_some();
    let role = v.as_str().is_some_and(|s| s.contains(":role/"));
    if taken && role && path == ["userIdentity", "arn"] {
        insert_at(record, &["userIdentity", "sessionContext", "sessionIssuer", "arn"], v);
    } else if !taken {
        insert_at(record, path, v);
    }
}

fn lookup<'m>(map: &'m Map<String, Value>, path: &[&str]) -> Option<&'m Value> {
    let (first, rest) = path.split_first()?;
    let v = map.get(*first)?;
    match v {
        Value::Object(m) if !rest.is_empty() => lookup(m, rest),
        _ if rest.is_empty() => Some(v),
        _ => None,
    }
}

/// Sets `path` in `map`, making the objects on the way (a scalar in the way is replaced).
fn insert_at(map: &mut Map<String, Value>, path: &[&str], v: Value) {
    let Some((last, parents)) = path.split_last() else { return };
    let mut here = map;
    for p in parents {
        let slot = here.entry(p.to_string()).or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(m) = slot else { return };
        here = m;
    }
    here.insert(last.to_string(), v);
}

/// A nested column's value: JSON text, the engine's struct text, or `None` for a null.
fn nested(value: &str) -> Option<Value> {
    let v = value.trim();
    if v.is_empty() || v == "null" {
        return None;
    }
    // Only a body is read as JSON: an account ID stays the string it is.
    if v.starts_with(['{', '[']) {
        if let Ok(json) = serde_json::from_str::<Value>(v) {
            return Some(json);
        }
        let mut text = StructText { s: v.as_bytes(), i: 0 };
        if let Some(parsed) = text.value(0, Close::End)
            && text.i == v.len()
        {
            return Some(parsed);
        }
    }
    Some(Value::String(value.to_string()))
}

/// What ends a scalar in struct text: the end of the text, or the bracket closing its container.
#[derive(Clone, Copy, PartialEq)]
enum Close {
    End,
    Object,
    Array,
}

/// Trino's text of a `ROW`, `MAP` or `ARRAY` (`{k=v, k2={…}}`, `[v, v]`), read by hand: its
/// scalars are not quoted, so a scalar ends where `, key=` (or `, ` in a list) or the closing
/// bracket followed by the end or a separator starts. JSON text inside (a map's values) is read
/// as JSON.
struct StructText<'a> {
    s: &'a [u8],
    i: usize,
}

impl StructText<'_> {
    fn value(&mut self, depth: usize, close: Close) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.s.get(self.i)? {
            b'{' if self.s.get(self.i + 1) == Some(&b'"') => self.json(),
            b'[' if matches!(self.s.get(self.i + 1), Some(b'"' | b'{')) && self.json_ahead() => self.json(),
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            _ => Some(self.scalar(close)),
        }
    }

    fn json_ahead(&self) -> bool {
        let mut stream = serde_json::Deserializer::from_slice(&self.s[self.i..]).into_iter::<Value>();
        matches!(stream.next(), Some(Ok(_)))
    }

    fn json(&mut self) -> Option<Value> {
        let mut stream = serde_json::Deserializer::from_slice(&self.s[self.i..]).into_iter::<Value>();
        let v = stream.next()?.ok()?;
        self.i += stream.byte_offset();
        Some(v)
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut map = Map::new();
        loop {
            if self.eat(b"}") {
                return Some(Value::Object(map));
            }
            let start = self.i;
            let len = self.s[start..].iter().position(|&c| matches!(c, b'=' | b',' | b'{' | b'}' | b'[' | b']'))?;
            let key = String::from_utf8_lossy(&self.s[start..start + len]).trim().to_string();
            if self.s[start + len] != b'=' || key.is_empty() {
                return None;
            }
            self.i = start + len + 1;
            let v = self.value(depth + 1, Close::Object)?;
            map.insert(key, v);
            if !self.eat(b", ") && !self.eat(b",") && self.s.get(self.i) != Some(&b'}') {
                return None;
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            if self.eat(b"]") {
                return Some(Value::Array(items));
            }
            items.push(self.value(depth + 1, Close::Array)?);
            if !self.eat(b", ") && !self.eat(b",") && self.s.get(self.i) != Some(&b']') {
                return None;
            }
        }
    }

    /// A scalar up to its separator (brackets opened inside it are its own); `null` is JSON's null.
    fn scalar(&mut self, close: Close) -> Value {
        let start = self.i;
        let rest = &self.s[start..];
        let mut open = 0usize;
        let mut end = rest.len();
        for (j, &c) in rest.iter().enumerate() {
            if open == 0 && ends_scalar(&rest[j..], close) {
                end = j;
                break;
            }
            match c {
                b'{' | b'[' => open += 1,
                b'}' | b']' => open = open.saturating_sub(1),
                _ => {}
            }
        }
        self.i = start + end;
        match &rest[..end] {
            b"null" => Value::Null,
            text => Value::String(String::from_utf8_lossy(text).into_owned()),
        }
    }

    fn eat(&mut self, what: &[u8]) -> bool {
        let hit = self.s[self.i..].starts_with(what);
        if hit {
            self.i += what.len();
        }
        hit
    }
}

/// Whether a scalar ends where `after` starts: at its container's closing bracket followed by
/// the end or a separator, or at the separator before the next item.
fn ends_scalar(after: &[u8], close: Close) -> bool {
    let closes = |b: u8| after.first() == Some(&b) && matches!(after.get(1), None | Some(b',' | b'}' | b']'));
    match close {
        Close::End => false,
        Close::Object => closes(b'}') || (after.starts_with(b", ") && starts_key(&after[2..])),
        Close::Array => closes(b']') || after.starts_with(b", "),
    }
}

/// Whether `b` starts `key=` (a struct's field or a map's key).
fn starts_key(b: &[u8]) -> bool {
    let n = b.iter().take(128).take_while(|c| !matches!(c, b'=' | b',' | b'{' | b'}' | b'[' | b']' | b' ')).count();
    n > 0 && b.get(n) == Some(&b'=')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn folded(cols: &[(&str, &str)]) -> Value {
        serde_json::from_slice(&fold(cols.iter().copied())).unwrap()
    }

    #[test]
    fn struct_text_reads_as_the_object_it_prints() {
        let identity = "{type=AssumedRole, principalid=AROA1:s, arn=arn:aws:sts::1:assumed-role/provider-aws/s, accountid=1, invokedby=null, sessioncontext={attributes={mfaauthenticated=false, creationdate=2024-11-30T10:00:00Z}, sessionissuer={type=Role, arn=arn:aws:iam::1:role/provider-aws}}}";
        assert_eq!(
            nested(identity),
            Some(
                json!({"type":"AssumedRole","principalid":"AROA1:s","arn":"arn:aws:sts::1:assumed-role/provider-aws/s","accountid":"1","invokedby":null,"sessioncontext":{"attributes":{"mfaauthenticated":"false","creationdate":"2024-11-30T10:00:00Z"},"sessionissuer":{"type":"Role","arn":"arn:aws:iam::1:role/provider-aws"}}})
            )
        );
        for (text, want) in [
            (
                "[{accountid=1, type=AWS::EC2::VPC, arn=arn:aws:ec2:eu-west-1:1:vpc/vpc-1}]",
                json!([{"accountid":"1","type":"AWS::EC2::VPC","arn":"arn:aws:ec2:eu-west-1:1:vpc/vpc-1"}]),
            ),
            ("{bucketName=b, Host=b.s3.amazonaws.com}", json!({"bucketName":"b","Host":"b.s3.amazonaws.com"})),
            ("{description=a, b {c}, name=x}", json!({"description":"a, b {c}","name":"x"})),
            (
                "{tagSpecificationSet={\"items\":[{\"resourceType\":\"vpc\"}]}, cidrBlock=10.0.0.0/16}",
                json!({"tagSpecificationSet":{"items":[{"resourceType":"vpc"}]},"cidrBlock":"10.0.0.0/16"}),
            ),
            ("{\"cidrBlock\":\"10.0.0.0/16\"}", json!({"cidrBlock":"10.0.0.0/16"})),
            ("{}", json!({})),
            ("null", Value::Null),
        ] {
            assert_eq!(nested(text).unwrap_or(Value::Null), want, "{text}");
        }
        for broken in ["{a=", "{a={b=1}", "[1, 2", "{=}", "{{{{", "{a=1]"] {
            assert_eq!(nested(broken), Some(Value::String(broken.into())), "kept as text: {broken}");
        }
        let deep = "{a=".repeat(100) + &"}".repeat(100);
        assert_eq!(nested(&deep), Some(Value::String(deep.clone())), "too deep is text, no stack overflow");
    }

    #[test]
    fn columns_fold_into_the_record_a_log_file_holds() {
        let got = folded(&[
            ("eventName", "CreateVpc"),
            ("errorCode", ""),
            ("userIdentity.sessionContext.sessionIssuer.arn", "arn:aws:iam::1:role/p"),
            ("requestParameters", "{\"cidrBlock\":\"10.0.0.0/16\"}"),
            ("responseelements", "null"),
            ("eventsource", "ec2.amazonaws.com"),
        ]);
        assert_eq!(
            got,
            json!({"eventName":"CreateVpc","eventSource":"ec2.amazonaws.com","userIdentity":{"sessionContext":{"sessionIssuer":{"arn":"arn:aws:iam::1:role/p"}}},"requestParameters":{"cidrBlock":"10.0.0.0/16"}})
        );
        let picked =
            folded(&[("arn", "arn:aws:sts::1:assumed-role/p/s"), ("arn", "arn:aws:iam::1:role/p"), ("accountId", "1")]);
        assert_eq!(
            picked,
            json!({"userIdentity":{"arn":"arn:aws:sts::1:assumed-role/p/s","accountId":"1","sessionContext":{"sessionIssuer":{"arn":"arn:aws:iam::1:role/p"}}}})
        );
        let event = r#"{"eventName":"CreateVpc"}"#;
        assert_eq!(fold([("eventTime", "2024-11-30 10:00:00.000"), ("eventJson", event)]), event.as_bytes());
    }
}
