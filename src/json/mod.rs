//! A small, strict RFC 8259 JSON parser and serialiser, plus the Zarr fill-value scalar encoding
//! of every data type (`scalar`).
//!
//! Numbers keep their exact source text ([`Json::Number`]), so a consumer can read an int64 or a
//! float16 straight from the decimal text, never through an `f64` first. Object members keep
//! their source order, duplicates included. Parsing is iterative (no recursion) with a nesting
//! limit of [`MAX_DEPTH`], so hostile input cannot overflow the stack.

pub use zarr_scale_offset_core::text::{is_json_number, quote, Quoted};
use zarr_scale_offset_core::text::{number_len, write_quoted};
pub mod data_type;
pub mod fields;
pub mod scalar;
pub mod skip;

pub use skip::Member;

pub use fields::Fields;

pub use scalar::{parse_scalar, parse_scalar_text, write_scalar, Scalar};

use zarr_scale_offset_core::error::{Error, ErrorCode, Result};

/// The deepest nesting of arrays and objects that [`parse`] accepts.
pub const MAX_DEPTH: usize = 128;

/// The most JSON values (of any kind, containers included) that [`parse`] builds into a tree
/// for one document: a documented cap, so that the tree of any document (about 30 bytes per
/// value in wasm memory) stays within a few MiB. Members skipped by [`parse_ignoring`] (such as
/// a zarr.json's `attributes`) do not count. More is `invalid_metadata`.
pub const MAX_VALUES: usize = 1 << 18;

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its exact source text (valid under the JSON number grammar when parsed).
    Number(String),
    /// A string, with its escapes resolved.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object: its members in source order, duplicate keys included.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value of the FIRST member named `key`, for objects (`None` for other values).
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The string, for strings.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number's source text, for numbers.
    pub fn as_number(&self) -> Option<&str> {
        match self {
            Json::Number(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, for `true`/`false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The members in source order, for objects.
    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The elements, for arrays.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// The kind of the value with its article, for messages such as
    /// "expected a string, found a number": `"null"`, `"a boolean"`, `"a number"`, `"a string"`,
    /// `"an array"` or `"an object"`.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// The keys that occur more than once in this object, each listed once, in the order of
    /// their second occurrence (empty for non-objects). Only this object, not nested ones.
    pub fn duplicate_keys(&self) -> Vec<&str> {
        let Some(members) = self.as_object() else {
            return Vec::new();
        };
        // Sorted (key, position) pairs: O(n log n) for hostile objects with many members, and no
        // hash map in the wasm module. Each duplicated key is reported once, in the order of its
        // second occurrence.
        let mut order: Vec<usize> = (0..members.len()).collect();
        sort_indices(&mut order, &|a, b| {
            let key = |i: usize| members.get(i).map(|(k, _)| k.as_str());
            key(a).cmp(&key(b)).then(a.cmp(&b))
        });
        // Mark the second occurrence of each duplicated key, then report in document order.
        let mut second = vec![false; members.len()];
        let mut run: Option<(&str, usize)> = None; // key of the current run, its length so far
        for &pos in &order {
            let Some((k, _)) = members.get(pos) else {
                continue;
            };
            let k = k.as_str();
            let len = match run {
                Some((prev, n)) if prev == k => n + 1,
                _ => 1,
            };
            if len == 2 {
                if let Some(flag) = second.get_mut(pos) {
                    *flag = true;
                }
            }
            run = Some((k, len));
        }
        let out: Vec<&str> = members
            .iter()
            .zip(second)
            .filter_map(|((k, _), dup)| dup.then_some(k.as_str()))
            .collect();
        out
    }

    /// JSON pointers (relative to this value, RFC 6901) of every duplicated member anywhere in
    /// the document, e.g. `"/codecs/0/configuration/scale"`: one pointer per duplicated key per
    /// object, in document order.
    pub fn duplicate_key_pointers(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack: Vec<(String, &Json)> = vec![(String::new(), self)];
        while let Some((ptr, v)) = stack.pop() {
            match v {
                Json::Object(members) => {
                    for k in v.duplicate_keys() {
                        out.push(pointer_push(&ptr, k));
                    }
                    for (k, child) in members.iter().rev() {
                        if matches!(child, Json::Object(_) | Json::Array(_)) {
                            stack.push((pointer_push(&ptr, k), child));
                        }
                    }
                }
                Json::Array(items) => {
                    for (i, child) in items.iter().enumerate().rev() {
                        if matches!(child, Json::Object(_) | Json::Array(_)) {
                            stack.push((pointer_index(&ptr, i), child));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Compact, strict JSON text (no whitespace). Numbers are written from their stored text;
    /// a `Number` whose text is not a JSON number (only possible when built by hand) is written
    /// as `null`, so the output is always valid JSON. Strings escape `"`, `\` and control
    /// characters; other characters are written as UTF-8. Iterative: any depth is fine.
    pub fn to_json_string(&self) -> String {
        enum Task<'a> {
            Value(&'a Json),
            Raw(&'static str),
            Key(&'a str),
        }
        let mut out = String::new();
        let mut stack = vec![Task::Value(self)];
        while let Some(task) = stack.pop() {
            match task {
                Task::Raw(s) => out.push_str(s),
                Task::Key(k) => {
                    write_quoted(&mut out, k);
                    out.push(':');
                }
                Task::Value(v) => match v {
                    Json::Null => out.push_str("null"),
                    Json::Bool(true) => out.push_str("true"),
                    Json::Bool(false) => out.push_str("false"),
                    Json::Number(t) => {
                        if is_json_number(t) {
                            out.push_str(t);
                        } else {
                            out.push_str("null");
                        }
                    }
                    Json::String(s) => write_quoted(&mut out, s),
                    Json::Array(items) => {
                        out.push('[');
                        stack.push(Task::Raw("]"));
                        for (i, item) in items.iter().enumerate().rev() {
                            stack.push(Task::Value(item));
                            if i > 0 {
                                stack.push(Task::Raw(","));
                            }
                        }
                    }
                    Json::Object(members) => {
                        out.push('{');
                        stack.push(Task::Raw("}"));
                        for (i, (k, item)) in members.iter().enumerate().rev() {
                            stack.push(Task::Value(item));
                            stack.push(Task::Key(k));
                            if i > 0 {
                                stack.push(Task::Raw(","));
                            }
                        }
                    }
                },
            }
        }
        out
    }
}

/// Appends one reference token to a JSON pointer (RFC 6901): `~` is escaped as `~0` and `/` as
/// `~1`. `pointer_push("/codecs", "a/b")` is `"/codecs/a~1b"`; the root pointer is `""`.
pub fn pointer_push(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// Appends an array index to a JSON pointer: `pointer_index("/codecs", 0)` is `"/codecs/0"`.
pub fn pointer_index(base: &str, index: usize) -> String {
    format!("{base}/{index}")
}

/// The last reference token of a JSON pointer, unescaped (`""` for the root pointer).
pub fn pointer_last(pointer: &str) -> String {
    let last = pointer.rsplit('/').next().unwrap_or("");
    if pointer.is_empty() {
        return String::new();
    }
    // "~1" -> "/", then "~0" -> "~" (RFC 6901 order), in one pass without `str::replace`.
    let mut out = String::with_capacity(last.len());
    let mut chars = last.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('~', Some('1')) => {
                out.push('/');
                chars.next();
            }
            ('~', Some('0')) => {
                out.push('~');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// Parses a complete JSON document (RFC 8259). A leading byte order mark is ignored. Errors
/// have code `invalid_json` and a message giving the line, column (in characters, both from 1)
/// and byte offset (from 0) of the problem.
pub fn parse(text: &str) -> Result<Json> {
    parse_ignoring(text, |_| false)
}

/// [`parse`], skipping the members `ignored` selects (see [`Member`]): a skipped member's value
/// is checked for JSON syntax, nesting depth and duplicated keys like any other, but no tree is
/// built for it (memory O(its keys of open objects), not O(its values)). In the result it is an
/// empty object or array of the same kind, or, when duplicated keys occur inside it, a skeleton
/// that holds exactly those keys and the objects on their path (arrays as objects keyed by
/// index), so that [`Json::duplicate_key_pointers`] names each one as in the full tree (at most
/// [`skip::MAX_SKIPPED_DUPLICATES`] are kept). Only members whose value is an array or object
/// are skipped.
pub fn parse_ignoring(text: &str, ignored: fn(&Member) -> bool) -> Result<Json> {
    let mut p = Parser {
        text,
        s: text.as_bytes(),
        pos: 0,
        values: 0,
        skipped_duplicates: 0,
    };
    if text.starts_with('\u{feff}') {
        p.pos = '\u{feff}'.len_utf8();
    }
    p.document(ignored)
}

enum Frame {
    Array(Vec<Json>),
    Object(Vec<(String, Json)>, String),
}

struct Parser<'a> {
    text: &'a str,
    s: &'a [u8],
    pos: usize,
    /// Values built into the tree so far (see [`MAX_VALUES`]).
    values: usize,
    /// Duplicated keys kept from skipped members so far.
    skipped_duplicates: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Describes what is at byte `at`: `'x'`, `U+0001` or "end of input".
    fn found(&self, at: usize) -> String {
        match self.text.get(at..).and_then(|r| r.chars().next()) {
            None => "end of input".to_string(),
            Some(c) if (c as u32) < 0x20 || c == '\u{7f}' => format!("U+{:04X}", c as u32),
            Some(c) => format!("'{c}'"),
        }
    }

    fn err_at(&self, at: usize, msg: impl std::fmt::Display) -> Error {
        let before = self.s.get(..at).unwrap_or(self.s);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = 1 + before
            .get(line_start..)
            .unwrap_or(&[])
            .iter()
            .filter(|&&b| b & 0xc0 != 0x80)
            .count();
        Error::new(
            ErrorCode::InvalidJson,
            format!("invalid JSON at line {line}, column {column} (byte {at}): {msg}"),
        )
    }

    fn expected(&self, what: &str) -> Error {
        self.err_at(
            self.pos,
            format!("expected {what}, found {}", self.found(self.pos)),
        )
    }

    fn document(&mut self, ignored: fn(&Member) -> bool) -> Result<Json> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut skip_next = false;
        loop {
            self.ws();
            self.values += 1;
            if self.values > MAX_VALUES {
                return Err(Error::new(
                    ErrorCode::InvalidMetadata,
                    format!(
                        "the document holds more than {MAX_VALUES} JSON values (at byte {}), the most this reader builds (ignored members such as \"attributes\" do not count)",
                        self.pos
                    ),
                ));
            }
            if std::mem::take(&mut skip_next) && matches!(self.peek(), Some(b'[' | b'{')) {
                let value = self.skip_value(stack.len())?;
                // Attach it like any other value (below), through a one-step detour.
                if let Some(v) = self.close(&mut stack, value, ignored, &mut skip_next)? {
                    return Ok(v);
                }
                continue;
            }
            let value = match self.peek() {
                Some(open @ (b'[' | b'{')) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.err_at(
                            self.pos,
                            format!("arrays and objects nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    self.pos += 1;
                    self.ws();
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            Json::Array(Vec::new())
                        } else {
                            stack.push(Frame::Array(Vec::new()));
                            continue;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Json::Object(Vec::new())
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Object(Vec::new(), key));
                        skip_next = self.skips(&stack, ignored);
                        continue;
                    }
                }
                _ => self.scalar(true)?,
            };
            if let Some(v) = self.close(&mut stack, value, ignored, &mut skip_next)? {
                return Ok(v);
            }
        }
    }

    /// A scalar value (`keep`: built, else only checked: `Json::Null`).
    fn scalar(&mut self, keep: bool) -> Result<Json> {
        Ok(match self.peek() {
            Some(b'"') => {
                let s = self.string_kept(keep)?;
                if keep {
                    Json::String(s)
                } else {
                    Json::Null
                }
            }
            Some(b't') => self.literal("true", Json::Bool(true))?,
            Some(b'f') => self.literal("false", Json::Bool(false))?,
            Some(b'n') => self.literal("null", Json::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number(keep)?,
            Some(b'+') => return Err(self.err_at(self.pos, "a JSON number cannot start with '+'")),
            Some(b'.') => {
                return Err(self.err_at(
                    self.pos,
                    "a JSON number cannot start with '.'; write a digit before the point",
                ))
            }
            Some(b'N' | b'I') if self.bare_special() => {
                return Err(self.err_at(
                    self.pos,
                    "NaN and Infinity are not JSON values (Zarr writes them as the strings \"NaN\", \"Infinity\", \"-Infinity\")",
                ))
            }
            Some(b'\'') => {
                return Err(self.err_at(self.pos, "JSON strings use double quotes, not '"))
            }
            _ => return Err(self.expected("a JSON value")),
        })
    }

    /// A value is complete: attaches it to the enclosing containers, closing as many as the
    /// input closes. `Some` is the whole document; `None`: the next value is due (and
    /// `skip_next` says whether it is a member to skip).
    fn close(
        &mut self,
        stack: &mut Vec<Frame>,
        mut value: Json,
        ignored: fn(&Member) -> bool,
        skip_next: &mut bool,
    ) -> Result<Option<Json>> {
        {
            loop {
                let Some(frame) = stack.pop() else {
                    self.ws();
                    if self.pos < self.s.len() {
                        return Err(self.err_at(
                            self.pos,
                            format!("unexpected {} after the JSON value", self.found(self.pos)),
                        ));
                    }
                    return Ok(Some(value));
                };
                self.ws();
                match frame {
                    Frame::Array(mut items) => {
                        items.push(value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                if self.peek() == Some(b']') {
                                    return Err(self.err_at(
                                        self.pos,
                                        "trailing comma: expected a value after ','",
                                    ));
                                }
                                stack.push(Frame::Array(items));
                                return Ok(None);
                            }
                            Some(b']') => {
                                self.pos += 1;
                                value = Json::Array(items);
                            }
                            _ => return Err(self.expected("',' or ']' after an array element")),
                        }
                    }
                    Frame::Object(mut members, key) => {
                        members.push((key, value));
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                if self.peek() == Some(b'}') {
                                    return Err(self.err_at(
                                        self.pos,
                                        "trailing comma: expected a member after ','",
                                    ));
                                }
                                let key = self.key()?;
                                stack.push(Frame::Object(members, key));
                                *skip_next = self.skips(stack, ignored);
                                return Ok(None);
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                value = Json::Object(members);
                            }
                            _ => return Err(self.expected("',' or '}' after an object member")),
                        }
                    }
                }
            }
        }
    }

    /// Whether the member whose key was just read (the top frame) is one `ignored` skips: only
    /// members of the root object or of an object in it, whose value is an array or object.
    fn skips(&mut self, stack: &[Frame], ignored: fn(&Member) -> bool) -> bool {
        self.ws();
        let object = match self.peek() {
            Some(b'{') => true,
            Some(b'[') => false,
            _ => return false,
        };
        fn key_of(f: &Frame) -> Option<&str> {
            match f {
                Frame::Object(_, k) => Some(k.as_str()),
                Frame::Array(_) => None,
            }
        }
        let (parent, key) = match stack {
            [top] => (None, key_of(top)),
            [outer, top] => match key_of(outer) {
                Some(p) => (Some(p), key_of(top)),
                None => return false,
            },
            _ => return false,
        };
        let Some(key) = key else {
            return false;
        };
        ignored(&Member {
            depth: stack.len(),
            parent,
            key,
            object,
        })
    }

    fn bare_special(&self) -> bool {
        let rest = self.s.get(self.pos..).unwrap_or(&[]);
        rest.starts_with(b"NaN") || rest.starts_with(b"Infinity")
    }

    /// An object key and its colon (whitespace before the key already skipped).
    fn key(&mut self) -> Result<String> {
        if self.peek() != Some(b'"') {
            return Err(self.expected("a member name in double quotes"));
        }
        let key = self.string()?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.expected("':' after the member name"));
        }
        self.pos += 1;
        Ok(key)
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json> {
        let rest = self.s.get(self.pos..).unwrap_or(&[]);
        if rest.starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.err_at(self.pos, format!("invalid literal (expected {word})")))
        }
    }

    /// A number (`keep`: its text, else `Json::Null`).
    fn number(&mut self, keep: bool) -> Result<Json> {
        let start = self.pos;
        match number_len(self.s, start) {
            Ok(end) => {
                let text = self.text.get(start..end).unwrap_or("");
                self.pos = end;
                if !keep {
                    return Ok(Json::Null);
                }
                Ok(Json::Number(text.to_string()))
            }
            Err((at, why)) => Err(self.err_at(at, why)),
        }
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self.peek().and_then(|b| (b as char).to_digit(16));
            match d {
                Some(d) => {
                    v = v * 16 + d;
                    self.pos += 1;
                }
                None => return Err(self.expected("4 hex digits after \\u")),
            }
        }
        Ok(v)
    }

    /// A string literal; `pos` is at the opening quote.
    fn string(&mut self) -> Result<String> {
        self.string_kept(true)
    }

    /// A string literal, checked; its value is built only when `keep` (else `""`).
    fn string_kept(&mut self, keep: bool) -> Result<String> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            match self.peek() {
                None => {
                    return Err(self.err_at(
                        self.pos,
                        format!("unterminated string (opened at byte {open})"),
                    ))
                }
                Some(b'"') => {
                    if keep {
                        out.push_str(self.text.get(run..self.pos).unwrap_or(""));
                    }
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    if keep {
                        out.push_str(self.text.get(run..self.pos).unwrap_or(""));
                    }
                    let esc_at = self.pos;
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi) {
                                let rest = self.s.get(self.pos..).unwrap_or(&[]);
                                if !rest.starts_with(b"\\u") {
                                    return Err(self.err_at(
                                        esc_at,
                                        format!("lone high surrogate \\u{hi:04x} (not followed by a \\u low surrogate)"),
                                    ));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return Err(self.err_at(
                                        esc_at,
                                        format!("lone high surrogate \\u{hi:04x} (followed by \\u{lo:04x}, not a low surrogate)"),
                                    ));
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else if (0xdc00..0xe000).contains(&hi) {
                                return Err(
                                    self.err_at(esc_at, format!("lone low surrogate \\u{hi:04x}"))
                                );
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(c) => {
                                    if keep {
                                        out.push(c)
                                    }
                                }
                                None => {
                                    return Err(self.err_at(esc_at, "invalid \\u escape"));
                                }
                            }
                            run = self.pos;
                            continue;
                        }
                        _ => {
                            return Err(self.err_at(
                                esc_at,
                                format!("invalid escape \\{}", {
                                    let f = self.found(self.pos);
                                    f.trim_matches('\'').to_string()
                                }),
                            ))
                        }
                    };
                    if keep {
                        out.push(c);
                    }
                    self.pos += 1;
                    run = self.pos;
                }
                Some(b) if b < 0x20 => {
                    return Err(self.err_at(
                        self.pos,
                        format!("control character U+{b:04X} must be escaped in a string"),
                    ))
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}

/// Sorts `order` (indices) by `cmp`. Every sort in the crate goes through this one
/// instantiation of the standard unstable sort: each instantiation costs ~2 KB of wasm.
pub(crate) fn sort_indices(order: &mut [usize], cmp: &dyn Fn(usize, usize) -> std::cmp::Ordering) {
    order.sort_unstable_by(|&a, &b| cmp(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_once_each_in_order_of_second_occurrence() {
        let v = parse(r#"{"a":1,"b":2,"a":3,"c":4,"b":5,"a":6,"d":7}"#).unwrap();
        assert_eq!(v.duplicate_keys(), ["a", "b"]);
        let v = parse(r#"{"x":1,"y":1,"y":2,"x":2,"y":3}"#).unwrap();
        assert_eq!(v.duplicate_keys(), ["y", "x"]);
        assert!(parse(r#"{"x":1,"y":1}"#)
            .unwrap()
            .duplicate_keys()
            .is_empty());
        assert!(parse("[1,1]").unwrap().duplicate_keys().is_empty());
    }
    use std::time::{Duration, Instant};

    fn num(t: &str) -> Json {
        Json::Number(t.to_string())
    }
    fn s(t: &str) -> Json {
        Json::String(t.to_string())
    }
    fn err(text: &str) -> String {
        match parse(text) {
            Ok(v) => panic!("{text:?} parsed as {v:?}"),
            Err(e) => {
                assert_eq!(e.code, ErrorCode::InvalidJson, "{text:?}");
                e.message
            }
        }
    }

    #[test]
    fn valid_documents() {
        let cases: Vec<(&str, Json)> = vec![
            ("null", Json::Null),
            (" true ", Json::Bool(true)),
            ("\tfalse\r\n", Json::Bool(false)),
            ("0", num("0")),
            ("-0", num("-0")),
            ("-0.0", num("-0.0")),
            ("1E+400", num("1E+400")),
            ("1e-7", num("1e-7")),
            ("12.5e-03", num("12.5e-03")),
            ("9007199254740993", num("9007199254740993")),
            ("-9223372036854775808", num("-9223372036854775808")),
            ("\"\"", s("")),
            (
                "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"",
                s("a\"b\\c/d\u{8}\u{c}\n\r\t"),
            ),
            ("\"\\u0041\\u00e9\\u20AC\"", s("Aé€")),
            ("\"\\ud83d\\ude00\"", s("😀")),
            ("\"\\uD834\\uDD1E\"", s("𝄞")),
            ("\"é😀 raw\"", s("é😀 raw")),
            ("\"\\u0000\"", s("\u{0}")),
            ("[]", Json::Array(vec![])),
            ("[ ]", Json::Array(vec![])),
            ("{}", Json::Object(vec![])),
            ("{ }", Json::Object(vec![])),
            (
                "[1,[2,[]],{}]",
                Json::Array(vec![
                    num("1"),
                    Json::Array(vec![num("2"), Json::Array(vec![])]),
                    Json::Object(vec![]),
                ]),
            ),
            (
                " { \"b\" : 1 , \"a\" : [ true , null ] } ",
                Json::Object(vec![
                    ("b".to_string(), num("1")),
                    (
                        "a".to_string(),
                        Json::Array(vec![Json::Bool(true), Json::Null]),
                    ),
                ]),
            ),
            ("\u{feff}[1]", Json::Array(vec![num("1")])),
        ];
        for (text, want) in cases {
            assert_eq!(
                parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}")),
                want,
                "{text:?}"
            );
        }
    }

    #[test]
    fn invalid_documents() {
        let bad = [
            "",
            " ",
            "[",
            "]",
            "{",
            "}",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[1,,2]",
            "{\"a\":1,}",
            "{a:1}",
            "{\"a\" 1}",
            "{\"a\":}",
            "{\"a\"}",
            "{1:2}",
            "{\"a\":1 \"b\":2}",
            "01",
            "-01",
            "00",
            "-",
            "1.",
            ".5",
            "+1",
            "1e",
            "1e+",
            "1E-",
            "1.e5",
            "-.5",
            "0x10",
            "NaN",
            "Infinity",
            "-Infinity",
            "nan",
            "tru",
            "nul",
            "True",
            "fals",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"a\tb\"",
            "\"a\nb\"",
            "\"\u{1f}\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud800x\"",
            "\"\\udbff\\udbff\"",
            "[1]x",
            "{}{}",
            "1 2",
            "'a'",
            "[\"a\"]]",
            "\u{feff}",
            "\u{feff}\u{feff}1",
            "\"\\",
            "[1,",
            "{\"a\":1",
        ];
        for text in bad {
            err(text);
        }
    }

    #[test]
    fn messages_name_line_column_and_byte() {
        let m = err("[1,\n  2,\n  x]");
        assert!(m.contains("line 3, column 3 (byte 11)"), "{m}");
        assert!(m.contains("'x'"), "{m}");
        // Columns count characters, not bytes.
        let m = err("[\"é\", ?]");
        assert!(m.contains("line 1, column 7 (byte 7)"), "{m}");
        let m = err("{\"a\":1,}");
        assert!(m.contains("trailing comma"), "{m}");
        let m = err("[1");
        assert!(m.contains("end of input"), "{m}");
        assert!(err("01").contains("leading zeros"));
        assert!(err("[NaN]").contains("\"NaN\""));
        assert!(err("-Infinity").contains("\"-Infinity\""));
        assert!(err("\"\\ud800\"").contains("lone high surrogate"));
        assert!(err("\"\\udc00\"").contains("lone low surrogate"));
        assert!(err("\"a\u{1}\"").contains("U+0001"));
        assert!(err("[1] 2").contains("after the JSON value"));
        assert!(err("\"abc").contains("unterminated string"));
    }

    #[test]
    fn depth_limit() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(err(&deep).contains("nested deeper than 128"));
        let objs = format!(
            "{}1{}",
            "{\"a\":".repeat(MAX_DEPTH + 1),
            "}".repeat(MAX_DEPTH + 1)
        );
        err(&objs);
        let objs = format!("{}1{}", "{\"a\":".repeat(MAX_DEPTH), "}".repeat(MAX_DEPTH));
        assert!(parse(&objs).is_ok());
        // Hostile input: returns an error quickly, no stack overflow.
        for n in [100_000usize, 10 << 20] {
            let t = Instant::now();
            let m = err(&"[".repeat(n));
            assert!(m.contains("byte 128"), "{m}");
            assert!(t.elapsed() < Duration::from_secs(2));
        }
        let t = Instant::now();
        err(&"[{\"a\":".repeat(1 << 20));
        assert!(t.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn numbers_keep_their_text() {
        for t in [
            "9007199254740993",
            "18446744073709551616",
            "1.00000005960464477539062500",
            "-0.0",
            "1E400",
            "0e0",
            "-0E-0",
        ] {
            assert_eq!(parse(t).unwrap(), num(t));
            assert_eq!(
                parse(&format!("[{t}]")).unwrap().to_json_string(),
                format!("[{t}]")
            );
            assert!(is_json_number(t));
        }
        let long = format!("1{}", "0".repeat(100_000));
        assert_eq!(parse(&long).unwrap().as_number(), Some(long.as_str()));
        for t in [
            "", "-", "+1", "01", "1.", ".1", "1e", "NaN", "1 ", " 1", "0x1", "1_0",
        ] {
            assert!(!is_json_number(t), "{t}");
        }
    }

    #[test]
    fn object_access_and_duplicates() {
        let v = parse(
            r#"{"a":1,"b":{"x":true,"x":false,"y":0,"y":1,"y":2},"a":2,"c":[{"k":1,"k":2}]}"#,
        )
        .unwrap();
        assert_eq!(v.get("a"), Some(&num("1")));
        assert_eq!(v.get("zz"), None);
        assert_eq!(v.duplicate_keys(), vec!["a"]);
        assert_eq!(v.get("b").unwrap().duplicate_keys(), vec!["x", "y"]);
        assert_eq!(v.get("b").unwrap().get("x"), Some(&Json::Bool(true)));
        assert_eq!(v.as_object().unwrap().len(), 4);
        assert_eq!(
            v.duplicate_key_pointers(),
            vec!["/a", "/b/x", "/b/y", "/c/0/k"]
        );
        let v = parse(r#"{"a/b":{"m~n":1,"m~n":2}}"#).unwrap();
        assert_eq!(v.duplicate_key_pointers(), vec!["/a~1b/m~0n"]);
        assert!(Json::Null.duplicate_keys().is_empty());
        let v = parse(r#"{"b":1,"a":1,"a":2,"b":2,"b":3}"#).unwrap();
        assert_eq!(v.duplicate_keys(), vec!["a", "b"]);
        // Many members: linear, not quadratic.
        let big: String = (0..200_000)
            .map(|i| format!("\"k{}\":0,", i % 100_000))
            .collect();
        let big = format!("{{{}\"end\":0}}", big);
        let t = Instant::now();
        let v = parse(&big).unwrap();
        assert_eq!(v.duplicate_keys().len(), 100_000);
        assert_eq!(v.duplicate_key_pointers().len(), 100_000);
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(Json::Null.get("a").is_none());
    }

    #[test]
    fn accessors_and_kind_names() {
        let v = parse(r#"[null,true,1,"s",[],{}]"#).unwrap();
        let a = v.as_array().unwrap();
        let kinds: Vec<&str> = a.iter().map(|x| x.kind_name()).collect();
        assert_eq!(
            kinds,
            [
                "null",
                "a boolean",
                "a number",
                "a string",
                "an array",
                "an object"
            ]
        );
        assert!(a[0].is_null());
        assert_eq!(a[1].as_bool(), Some(true));
        assert_eq!(a[2].as_number(), Some("1"));
        assert_eq!(a[3].as_str(), Some("s"));
        assert_eq!(a[4].as_array().map(|x| x.len()), Some(0));
        assert_eq!(a[5].as_object().map(|x| x.len()), Some(0));
        assert_eq!(a[3].as_number(), None);
        assert_eq!(a[2].as_str(), None);
        assert_eq!(v.as_object(), None);
    }

    #[test]
    fn serialiser() {
        let text =
            r#"{"b":[1,-0.0,2.5E+3,true,false,null],"a":{"":"q\"\\\/\b\f\n\r\t\u0001\u001f é😀"}}"#;
        let v = parse(text).unwrap();
        let out = v.to_json_string();
        assert_eq!(
            out,
            "{\"b\":[1,-0.0,2.5E+3,true,false,null],\"a\":{\"\":\"q\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f é😀\"}}"
        );
        assert_eq!(parse(&out).unwrap(), v);
        assert_eq!(quote("a\"b"), "\"a\\\"b\"");
        assert_eq!(Json::Number("NaN".into()).to_json_string(), "null");
        assert_eq!(Json::Array(vec![]).to_json_string(), "[]");
        // Iterative: a hand-built value far deeper than the parse limit serialises fine.
        let mut deep = Json::Null;
        for _ in 0..100_000 {
            deep = Json::Array(vec![deep]);
        }
        let t = deep.to_json_string();
        assert_eq!(t.len(), 200_004);
        // Drop iteratively to keep the test itself safe.
        let mut cur = deep;
        while let Json::Array(mut v) = cur {
            cur = v.pop().unwrap_or(Json::Null);
        }
    }

    #[test]
    fn pointers() {
        assert_eq!(pointer_push("", "codecs"), "/codecs");
        assert_eq!(pointer_push("/codecs", "a/b"), "/codecs/a~1b");
        assert_eq!(pointer_push("/x", "m~n"), "/x/m~0n");
        assert_eq!(pointer_push("/x", "~1"), "/x/~01");
        assert_eq!(pointer_push("/x", ""), "/x/");
        assert_eq!(pointer_index("/codecs", 3), "/codecs/3");
        assert_eq!(pointer_last("/codecs/0/configuration/offset"), "offset");
        assert_eq!(pointer_last("/a~1b/m~0n"), "m~n");
        assert_eq!(pointer_last("/a~1b"), "a/b");
        assert_eq!(pointer_last("/~01"), "~1");
        assert_eq!(pointer_last("/~~1~"), "~/~");
        assert_eq!(pointer_last("/x/~01"), "~1");
        assert_eq!(pointer_last(""), "");
        assert_eq!(pointer_last("/"), "");
    }
}
