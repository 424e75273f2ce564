//! Skip-parsing (see [`super::parse_ignoring`]): a member that no reader reads (a zarr.json's
//! `attributes`, the contents of an extension or of an unknown `.zarray` key) is checked for
//! JSON syntax, nesting depth and duplicated keys exactly like the rest of the document, but no
//! tree is built for it. Its memory is the offsets of the keys of the objects open at a time
//! (one `usize` per key, sorted in place when the object closes to find duplicates), never one
//! node per value.

use super::{sort_indices, Json, Parser, MAX_DEPTH};
use std::cmp::Ordering;
use zarr_scale_offset_core::error::Result;

/// A member of the document being parsed, as the policy of [`super::parse_ignoring`] sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member<'a> {
    /// 1 for a member of the root object, 2 for a member of an object that is itself a member
    /// of the root object (deeper members are never skipped).
    pub depth: usize,
    /// The key of the enclosing member at depth 2 (`None` at depth 1).
    pub parent: Option<&'a str>,
    /// The member's key.
    pub key: &'a str,
    /// Whether its value is an object (else it is an array; scalars are never skipped).
    pub object: bool,
}

/// At most this many duplicated keys inside skipped members are kept (in the skeleton, hence in
/// a validation report); the document is invalid from the first one on anyway.
pub const MAX_SKIPPED_DUPLICATES: usize = 100;

/// An array or object open inside a skipped value.
struct Open {
    /// An object (its keys are `keys[keys_from..]`), else an array.
    object: bool,
    keys_from: usize,
    /// The index of the current element (arrays).
    index: usize,
    /// Skeletons of the members or elements that hold duplicated keys, by the offset of the
    /// member's key (objects) or the element's index (arrays).
    children: Vec<(usize, Json)>,
}

impl Parser<'_> {
    /// Skips the array or object at `pos` (inside `outer` open containers), checking it; its
    /// skeleton (see [`super::parse_ignoring`]).
    pub(super) fn skip_value(&mut self, outer: usize) -> Result<Json> {
        let top_object = self.peek() == Some(b'{');
        let mut keys: Vec<usize> = Vec::new();
        let mut stack: Vec<Open> = Vec::new();
        loop {
            self.ws();
            let mut done: Option<Json> = None;
            match self.peek() {
                Some(open @ (b'[' | b'{')) => {
                    if outer + stack.len() >= MAX_DEPTH {
                        return Err(self.err_at(
                            self.pos,
                            format!("arrays and objects nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    self.pos += 1;
                    self.ws();
                    let object = open == b'{';
                    let end = if object { b'}' } else { b']' };
                    if self.peek() == Some(end) {
                        self.pos += 1;
                    } else {
                        let keys_from = keys.len();
                        if object {
                            keys.push(self.skip_key()?);
                        }
                        stack.push(Open {
                            object,
                            keys_from,
                            index: 0,
                            children: Vec::new(),
                        });
                        continue;
                    }
                }
                _ => {
                    self.scalar(false)?;
                }
            }
            // A value is complete: close as many containers as the input closes.
            loop {
                let Some(mut top) = stack.pop() else {
                    return Ok(done.unwrap_or(if top_object {
                        Json::Object(Vec::new())
                    } else {
                        Json::Array(Vec::new())
                    }));
                };
                if let Some(s) = done.take() {
                    let at = match top.object {
                        true => keys.last().copied().unwrap_or(0),
                        false => top.index,
                    };
                    top.children.push((at, s));
                }
                self.ws();
                match (top.object, self.peek()) {
                    (false, Some(b',')) => {
                        self.pos += 1;
                        self.ws();
                        if self.peek() == Some(b']') {
                            return Err(
                                self.err_at(self.pos, "trailing comma: expected a value after ','")
                            );
                        }
                        top.index += 1;
                        stack.push(top);
                        break;
                    }
                    (false, Some(b']')) => {
                        self.pos += 1;
                        done = array_skeleton(top.children);
                    }
                    (false, _) => return Err(self.expected("',' or ']' after an array element")),
                    (true, Some(b',')) => {
                        self.pos += 1;
                        self.ws();
                        if self.peek() == Some(b'}') {
                            return Err(self
                                .err_at(self.pos, "trailing comma: expected a member after ','"));
                        }
                        keys.push(self.skip_key()?);
                        stack.push(top);
                        break;
                    }
                    (true, Some(b'}')) => {
                        self.pos += 1;
                        done = self.object_skeleton(&mut keys, top);
                    }
                    (true, _) => return Err(self.expected("',' or '}' after an object member")),
                }
            }
        }
    }

    /// Checks a member name and its colon; the offset of its opening quote.
    fn skip_key(&mut self) -> Result<usize> {
        let at = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.expected("a member name in double quotes"));
        }
        self.string_kept(false)?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.expected("':' after the member name"));
        }
        self.pos += 1;
        Ok(at)
    }

    /// The source bytes between the quotes of the (already checked) string at `at`.
    fn raw_string(&self, at: usize) -> &[u8] {
        let body = self.s.get(at + 1..).unwrap_or(&[]);
        let mut i = 0;
        while let Some(&b) = body.get(i) {
            match b {
                b'"' => break,
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        body.get(..i).unwrap_or(body)
    }

    /// The value of the (already checked) string at `at`.
    fn string_at(&self, at: usize) -> String {
        let mut p = Parser {
            text: self.text,
            s: self.s,
            pos: at,
            values: 0,
            skipped_duplicates: 0,
        };
        p.string().unwrap_or_default()
    }

    /// Compares the keys at `a` and `b` by their values (their source bytes when neither has an
    /// escape: then the bytes are the value's UTF-8).
    fn key_cmp(&self, a: usize, b: usize) -> Ordering {
        let (ra, rb) = (self.raw_string(a), self.raw_string(b));
        if !ra.contains(&b'\\') && !rb.contains(&b'\\') {
            return ra.cmp(rb);
        }
        self.string_at(a).cmp(&self.string_at(b))
    }

    /// Closes an object: finds its duplicated keys (sorting its key offsets in place), drops its
    /// keys, and gives its skeleton: the first two copies of each duplicated key (as `null`) and
    /// the members whose skeleton is not empty, in document order; `None` when that is nothing.
    fn object_skeleton(&mut self, keys: &mut Vec<usize>, top: Open) -> Option<Json> {
        let mut marked: Vec<usize> = Vec::new();
        if let Some(own) = keys.get_mut(top.keys_from..) {
            // Offsets grow with document order, so (key, offset) puts each run of equal keys in
            // document order.
            sort_indices(own, &|a, b| self.key_cmp(a, b).then(a.cmp(&b)));
            let mut i = 0;
            while i < own.len() {
                let mut j = i + 1;
                while j < own.len()
                    && self.key_cmp(
                        own.get(i).copied().unwrap_or(0),
                        own.get(j).copied().unwrap_or(0),
                    ) == Ordering::Equal
                {
                    j += 1;
                }
                if j - i >= 2 && self.skipped_duplicates < MAX_SKIPPED_DUPLICATES {
                    self.skipped_duplicates += 1;
                    marked.extend(own.get(i..i + 2).unwrap_or(&[]));
                }
                i = j;
            }
        }
        if marked.is_empty() && top.children.is_empty() {
            keys.truncate(top.keys_from);
            return None;
        }
        // Back to document order; keep the marked keys and the members holding duplicates.
        sort_indices(&mut marked, &|a, b| a.cmp(&b));
        let own = keys.get_mut(top.keys_from..).unwrap_or_default();
        sort_indices(own, &|a, b| a.cmp(&b));
        let mut children = top.children.into_iter().peekable();
        let mut members = Vec::new();
        for &at in own.iter() {
            let child = children.next_if(|c| c.0 == at).map(|c| c.1);
            if child.is_some() || marked.binary_search(&at).is_ok() {
                members.push((self.string_at(at), child.unwrap_or(Json::Null)));
            }
        }
        keys.truncate(top.keys_from);
        Some(Json::Object(members))
    }
}

/// An array's skeleton: an object keyed by the indices of its elements that hold duplicated
/// keys (so that pointers through it are the array's: `/3/k`); `None` when there are none.
fn array_skeleton(children: Vec<(usize, Json)>) -> Option<Json> {
    if children.is_empty() {
        return None;
    }
    Some(Json::Object(
        children
            .into_iter()
            .map(|(i, s)| (i.to_string(), s))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{parse, parse_ignoring, MAX_VALUES};
    use super::*;

    use zarr_scale_offset_core::test_rng::Rng;

    /// Random JSON text with few distinct keys (so duplicates are frequent), escapes in keys,
    /// nesting and whitespace.
    fn doc(r: &mut Rng, depth: usize, out: &mut String) {
        const KEYS: [&str; 7] = ["a", "b", "\\u0061", "a/b", "m~n", "", "\\\"q"];
        let ws = |r: &mut Rng, out: &mut String| {
            if r.below(4) == 0 {
                out.push_str([" ", "\n", "\t ", "\r\n"][r.below(4) as usize]);
            }
        };
        match if depth > 5 {
            2 + r.below(4)
        } else {
            r.below(6)
        } {
            0 => {
                out.push('{');
                for i in 0..r.below(5) {
                    if i > 0 {
                        out.push(',');
                    }
                    ws(r, out);
                    out.push_str(&format!("\"{}\"", KEYS[r.below(7) as usize]));
                    ws(r, out);
                    out.push(':');
                    doc(r, depth + 1, out);
                }
                out.push('}');
            }
            1 => {
                out.push('[');
                for i in 0..r.below(5) {
                    if i > 0 {
                        out.push(',');
                    }
                    doc(r, depth + 1, out);
                }
                ws(r, out);
                out.push(']');
            }
            2 => out.push_str(["0", "-1.5e3", "12345678901234567890"][r.below(3) as usize]),
            3 => out.push_str(["\"s\"", "\"\\ud83d\\ude00\"", "\"\""][r.below(3) as usize]),
            4 => out.push_str(["true", "false"][r.below(2) as usize]),
            _ => out.push_str("null"),
        }
        ws(r, out);
    }

    fn all(_: &Member) -> bool {
        true
    }
    fn top(m: &Member) -> bool {
        m.depth == 1
    }

    /// Skipping changes neither the verdict, nor the error message, nor the duplicated keys
    /// found (their pointers, in order), on random documents and on random corruptions of them.
    #[test]
    fn skipping_keeps_errors_and_duplicate_pointers() {
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut ok, mut dups, mut errs) = (0, 0, 0);
        for round in 0..20_000 {
            let mut text = String::from("{\"x\":");
            doc(&mut r, 0, &mut text);
            text.push_str(",\"y\":[");
            doc(&mut r, 1, &mut text);
            text.push_str("],\"x\":{\"k\":");
            doc(&mut r, 1, &mut text);
            text.push_str("}}");
            if round % 2 == 1 {
                // Corrupt one byte: delete it or insert one of the structural characters.
                let mut b = text.into_bytes();
                let at = r.below(b.len() as u64) as usize;
                if r.below(2) == 0 {
                    b.remove(at);
                } else {
                    b.insert(at, b"{}[],:\"\\ 1"[r.below(10) as usize]);
                }
                text = String::from_utf8_lossy(&b).into_owned();
            }
            let full = parse(&text);
            for policy in [all as fn(&Member) -> bool, top] {
                let skipped = parse_ignoring(&text, policy);
                match (&full, &skipped) {
                    (Ok(f), Ok(s)) => {
                        let want = f.duplicate_key_pointers();
                        assert_eq!(want, s.duplicate_key_pointers(), "{text}");
                        ok += 1;
                        dups += usize::from(!want.is_empty());
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!(a, b, "{text}");
                        errs += 1;
                    }
                    _ => panic!("{text}: {full:?} vs {skipped:?}"),
                }
            }
        }
        // The generator reaches every case often.
        assert!(
            ok > 10_000 && dups > 3_000 && errs > 10_000,
            "{ok} {dups} {errs}"
        );
    }

    #[test]
    fn skipped_members_are_empty_or_skeletons_of_their_kind() {
        let text = r#"{"a":{"x":[1,{"k":1,"k":2}],"y":2,"x":3},"b":[0,[],{"q":1}],"c":{},"d":5}"#;
        let v = parse_ignoring(text, top).unwrap();
        let want =
            parse(r#"{"a":{"x":{"1":{"k":null,"k":null}},"x":null},"b":[],"c":{},"d":5}"#).unwrap();
        assert_eq!(v, want);
        // Nothing skipped below arrays or deeper than 2, nor scalars.
        let v = parse_ignoring(r#"[{"a":[1]}]"#, all).unwrap();
        assert_eq!(v, parse(r#"[{"a":[1]}]"#).unwrap());
        fn second(m: &Member) -> bool {
            m.depth == 2
        }
        let v = parse_ignoring(r#"{"a":{"b":{"c":[1]},"d":[{"e":[2]}]}}"#, second).unwrap();
        assert_eq!(v, parse(r#"{"a":{"b":{},"d":[]}}"#).unwrap());
        // The policy sees depth, parent, key and kind.
        fn only_b_under_a(m: &Member) -> bool {
            m.parent == Some("a") && m.key == "b" && !m.object && m.depth == 2
        }
        let v = parse_ignoring(r#"{"b":[1],"a":{"b":[2],"c":[3]}}"#, only_b_under_a).unwrap();
        assert_eq!(v, parse(r#"{"b":[1],"a":{"b":[],"c":[3]}}"#).unwrap());
    }

    #[test]
    fn depth_limit_counts_the_enclosing_levels() {
        let ok = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert!(parse_ignoring(&ok, all).is_ok() && parse(&ok).is_ok());
        let deep = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert_eq!(parse_ignoring(&deep, all), parse(&deep));
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn duplicates_kept_are_capped_and_values_are_not_counted() {
        let many: String = (0..1000).map(|_| r#"{"k":1,"k":2},"#).collect();
        let text = format!("{{\"a\":[{many}0]}}");
        let v = parse_ignoring(&text, all).unwrap();
        assert_eq!(v.duplicate_key_pointers().len(), MAX_SKIPPED_DUPLICATES);
        assert_eq!(v.duplicate_key_pointers()[0], "/a/0/k");
        assert_eq!(parse(&text).unwrap().duplicate_key_pointers().len(), 1000);
        // MAX_VALUES values: the full parse refuses, the skipping one does not.
        let big = format!("{{\"a\":[{}0]}}", "0,".repeat(MAX_VALUES));
        let e = parse(&big).unwrap_err();
        assert_eq!(
            e.code,
            zarr_scale_offset_core::error::ErrorCode::InvalidMetadata
        );
        assert!(e.message.contains("more than 262144 JSON values"), "{e}");
        assert_eq!(
            parse_ignoring(&big, all).unwrap(),
            parse("{\"a\":[]}").unwrap()
        );
        let fits = format!("[{}0]", "0,".repeat(MAX_VALUES - 2));
        assert!(parse(&fits).is_ok());
        let over = format!("[{}0]", "0,".repeat(MAX_VALUES - 1));
        assert!(parse(&over).is_err());
    }

    #[test]
    fn many_keys_sorted_once() {
        // 200,000 distinct keys and 100,000 duplicated ones in one skipped object: O(n log n).
        let big: String = (0..300_000)
            .map(|i| format!("\"k{}\":0,", i % 200_000))
            .collect();
        let text = format!("{{\"a\":{{{big}\"end\":0}}}}");
        let t = std::time::Instant::now();
        let v = parse_ignoring(&text, all).unwrap();
        assert_eq!(v.duplicate_key_pointers().len(), MAX_SKIPPED_DUPLICATES);
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
    }
}
