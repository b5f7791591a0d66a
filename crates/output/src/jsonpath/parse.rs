//! The template parser of kubectl's JSONPath dialect (client-go's `util/jsonpath`), rewritten
//! from its documented behaviour and test cases: text outside `{}` is printed as is; inside an
//! action come fields (`.a`, with `\.` escaping a dot), `..` recursive descent, `*`, `[...]`
//! (index, slice with step, `'key'`, union with `,`), filters `[?(@.a==1)]`, quoted text,
//! numbers, booleans and the identifiers `range` and `end`. The error texts are client-go's,
//! because kubectl prints them to the user.

/// One node of an action. A filter's sides and a union's members are parsed as actions of their own.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Literal text (outside an action, or quoted inside one).
    Text(String),
    /// `.name`: a map key.
    Field(String),
    /// `.*` or `[*]` on a map: every value.
    Wildcard,
    /// `..`: the value and everything below it.
    Recursive,
    /// `[start:end:step]` with which parts were given.
    Array([Param; 3]),
    /// `[?(left op right)]`, or `[?(left)]` (op `exists`).
    Filter { left: Vec<Node>, right: Vec<Node>, op: String },
    /// `[a,b]`: each member evaluated on the same input.
    Union(Vec<Vec<Node>>),
    /// A bare word: `range`, `end`, or an error when evaluated.
    Identifier(String),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// A nested action (a `'key'` in brackets, or one `{...}`).
    List(Vec<Node>),
}

/// One slice bound: whether it was written, and whether the end was derived from an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Param {
    /// The number (when known).
    pub value: i64,
    /// Written in the template (or derived).
    pub known: bool,
    /// `[i]` is read as `[i:i+1]`; the end then wraps like the index.
    pub derived: bool,
}

struct Parser {
    input: Vec<char>,
    pos: usize,
    start: usize,
    width: usize,
}

/// Parses a whole template into its top-level nodes: `Text` and one `List` per action.
pub fn parse(template: &str) -> Result<Vec<Node>, String> {
    let mut p = Parser { input: template.chars().collect(), pos: 0, start: 0, width: 0 };
    let mut root = Vec::new();
    loop {
        if p.has_prefix("{") {
            if p.pos > p.start {
                root.push(Node::Text(p.consume()));
            }
            p.pos += 1;
            p.consume();
            root.push(Node::List(p.action()?));
            continue;
        }
        if p.next().is_none() {
            break;
        }
    }
    if p.pos > p.start {
        root.push(Node::Text(p.consume()));
    }
    Ok(root)
}

/// Parses `text` as one action, `{text}`, the way client-go parses a filter's sides and a
/// union's members: the nodes of that one action.
fn parse_action(text: &str) -> Result<Vec<Node>, String> {
    parse(&format!("{{{text}}}"))
}

fn is_terminator(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => c.is_whitespace() || matches!(c, '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'),
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl Parser {
    fn has_prefix(&self, prefix: &str) -> bool {
        prefix.chars().enumerate().all(|(i, c)| self.input.get(self.pos + i) == Some(&c))
    }

    /// The next character; at the end nothing is consumed, so a `backup` after it is a no-op.
    fn next(&mut self) -> Option<char> {
        let c = self.input.get(self.pos).copied();
        self.width = usize::from(c.is_some());
        self.pos += self.width;
        c
    }

    fn peek(&self) -> Option<char> {
        self.input.get(self.pos).copied()
    }

    fn backup(&mut self) {
        self.pos -= self.width;
    }

    fn consume(&mut self) -> String {
        let end = self.pos.min(self.input.len());
        let text: String = self.input[self.start.min(end)..end].iter().collect();
        self.start = self.pos;
        text
    }

    /// Everything up to the action's closing `}`.
    fn action(&mut self) -> Result<Vec<Node>, String> {
        let mut cur = Vec::new();
        loop {
            if self.has_prefix("}") {
                self.pos += 1;
                self.consume();
                return Ok(cur);
            }
            if self.has_prefix("[?(") {
                cur.push(self.filter()?);
                continue;
            }
            if self.has_prefix("..") {
                self.recursive(&mut cur)?;
                continue;
            }
            match self.next() {
                None | Some('\n' | '\r') => return Err("unclosed action".into()),
                Some(' ' | '@' | '$') => {
                    self.consume();
                }
                Some('[') => cur.push(self.array()?),
                Some(q @ ('"' | '\'')) => cur.push(self.quote(q)?),
                Some('.') => cur.push(self.field()),
                Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                    self.backup();
                    cur.push(self.number()?);
                }
                Some(c) if is_alphanumeric(c) => {
                    self.backup();
                    cur.push(self.identifier());
                }
                Some(c) => return Err(format!("unrecognized character in action: U+{:04X} '{c}'", c as u32)),
            }
        }
    }

    fn recursive(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        if cur.last() == Some(&Node::Recursive) {
            return Err("invalid multiple recursive descent".into());
        }
        self.pos += 2;
        self.consume();
        cur.push(Node::Recursive);
        if self.peek().is_some_and(is_alphanumeric) {
            cur.push(self.field());
        }
        Ok(())
    }

    fn field(&mut self) -> Node {
        self.consume();
        loop {
            match self.next() {
                Some('\\') => {
                    self.next();
                }
                c if is_terminator(c) => {
                    self.backup();
                    break;
                }
                _ => {}
            }
        }
        let value = self.consume();
        if value == "*" { Node::Wildcard } else { Node::Field(value.replace('\\', "")) }
    }

    fn identifier(&mut self) -> Node {
        while !is_terminator(self.next()) {}
        self.backup();
        match self.consume().as_str() {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            other => Node::Identifier(other.to_string()),
        }
    }

    fn number(&mut self) -> Result<Node, String> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.next();
        }
        while self.next().is_some_and(|c| c == '.' || c.is_ascii_digit()) {}
        self.backup();
        let text = self.consume();
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Node::Int(i));
        }
        text.parse::<f64>().map(Node::Float).map_err(|_| format!("cannot parse number {text}"))
    }

    fn quote(&mut self, end: char) -> Result<Node, String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated quoted string".into()),
                Some(c) if c == end && self.input[self.pos - 2] != '\\' => break,
                _ => {}
            }
        }
        let raw = self.consume();
        super::text::unquote(&raw).map(Node::Text).map_err(|e| format!("unquote string {raw} error {e}"))
    }

    fn array(&mut self) -> Result<Node, String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated array".into()),
                Some(']') => break,
                _ => {}
            }
        }
        let raw = self.consume();
        let mut text = &raw[1..raw.len() - 1];
        if text == "*" {
            text = ":";
        }
        let members: Vec<&str> = text.split(',').collect();
        if members.len() > 1 {
            let union = members.iter().map(|m| parse_action(&format!("[{}]", m.trim()))).collect::<Result<_, _>>()?;
            return Ok(Node::Union(union));
        }
        if let Some(key) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).filter(|k| !k.contains('\'')) {
            return Ok(Node::List(parse_action(&format!(".{key}"))?));
        }
        slice(text).map(Node::Array)
    }

    fn filter(&mut self) -> Result<Node, String> {
        self.pos += 3;
        self.consume();
        let (mut begin, mut end, mut pair) = (false, false, '"');
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated filter".into()),
                Some(q @ ('"' | '\'')) if !begin => {
                    begin = true;
                    pair = q;
                }
                Some(q @ ('"' | '\'')) if self.input[self.pos - 2] != '\\' && q == pair => end = true,
                Some(')') if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err("unclosed array expect ]".into());
        }
        let raw = self.consume();
        let text = &raw[..raw.len() - 2];
        Ok(match split_comparison(text) {
            None => Node::Filter { left: parse_action(text)?, right: Vec::new(), op: "exists".into() },
            Some((left, op, right)) => {
                Node::Filter { left: parse_action(left)?, right: parse_action(right)?, op: op.to_string() }
            }
        })
    }
}

/// `left op right` as client-go's filter pattern splits it: the left side up to the first
/// operator character, the operator characters, then the rest.
fn split_comparison(text: &str) -> Option<(&str, &str, &str)> {
    let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=' | '~');
    let op_start = text.find(is_op)?;
    let after = &text[op_start..];
    let op_len = after.find(|c: char| !is_op(c))?;
    let (left, op, right) = (&text[..op_start], &after[..op_len], &after[op_len..]);
    (!left.is_empty() && !right.is_empty()).then_some((left, op, right))
}

/// `[start:end:step]`, `[i]`, `[:]`; an index alone ends one past itself (derived).
fn slice(text: &str) -> Result<[Param; 3], String> {
    let parts: Vec<&str> = text.split(':').collect();
    let number_like = |s: &str| s.strip_prefix('-').unwrap_or(s).chars().all(|c| c.is_ascii_digit());
    if parts.len() > 3 || !parts.iter().all(|p| number_like(p)) {
        return Err(format!("invalid array index {text}"));
    }
    let mut params = [Param::default(); 3];
    for (i, param) in params.iter_mut().enumerate() {
        match parts.get(i) {
            Some(p) if !p.is_empty() => {
                let value = p.parse::<i64>().map_err(|_| format!("array index {p} is not a number"))?;
                *param = Param { value, known: true, derived: false };
            }
            Some(_) => {}
            None if i == 1 => *param = Param { value: 0, known: true, derived: true },
            None => {}
        }
    }
    if params[1].derived {
        params[1].value = params[0].value + 1;
    }
    Ok(params)
}
