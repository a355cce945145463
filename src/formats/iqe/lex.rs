//! Lines and tokens of an IQE file, read straight from the byte slice.
//!
//! Nothing here allocates: a 50 MB file has millions of lines, and a `String` per line or token would cost
//! more than the parsing itself. Bytes that are not UTF-8 never reach `str` unchecked: numbers are validated
//! before parsing and names are converted lossily by the caller.

/// ASCII whitespace as the IQE tools see it. `\r` counts, so CRLF files need no special case.
#[inline]
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// The file's lines, numbered from 1, without their `\n`. Lines may be of any length.
pub struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Lines { data, pos: 0, line: 0 }
    }

    /// Everything after the line last returned, verbatim (the `comment` command's payload).
    pub fn remaining(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u64, &'a [u8]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.data.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        self.line = self.line.saturating_add(1);
        // memchr looks at many bytes a step; a byte loop here was a quarter of the parser's own time.
        let (text, advance) = match memchr::memchr(b'\n', rest) {
            Some(n) => (&rest[..n], n + 1),
            None => (rest, rest.len()),
        };
        self.pos += advance;
        Some((self.line, text))
    }
}

/// The whitespace-separated tokens of one line.
///
/// A token that begins with `#` ends the line, so a trailing `# note` is a comment rather than a stray argument
/// (the spec only defines whole-line comments; no real command takes an argument starting with `#`).
#[derive(Clone)]
pub struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Tokens<'a> {
    pub fn new(line: &'a [u8]) -> Self {
        Tokens { rest: line }
    }

    #[inline]
    fn skip_space(&mut self) {
        let n = self.rest.iter().position(|&b| !is_space(b)).unwrap_or(self.rest.len());
        self.rest = &self.rest[n..];
    }

    /// The next bare token, or `None` at the end of the line.
    #[inline]
    pub fn word(&mut self) -> Option<&'a [u8]> {
        self.skip_space();
        if self.rest.first().is_none_or(|&b| b == b'#') {
            return None;
        }
        let n = self.rest.iter().position(|&b| is_space(b)).unwrap_or(self.rest.len());
        let (tok, rest) = self.rest.split_at(n);
        self.rest = rest;
        Some(tok)
    }

    /// The next token read as a float, in one pass over its bytes: `None` at the end of the line,
    /// `Some(Err(token))` when the token is not a float (the same tokens as [`Tokens::word`] and the same values
    /// as [`parse_f32`]).
    #[inline]
    pub fn float(&mut self) -> Option<Result<f32, &'a [u8]>> {
        self.skip_space();
        if self.rest.first().is_none_or(|&b| b == b'#') {
            return None;
        }
        if let Ok((v, len)) = fast_float2::parse_partial::<f32, _>(self.rest)
            && len > 0
            && self.rest.get(len).is_none_or(|&b| is_space(b))
        {
            self.rest = &self.rest[len..];
            return Some(Ok(v));
        }
        self.word().map(Err)
    }

    /// The next name: `"quoted"` up to the next quote (no escapes; an unclosed quote runs to the end of the
    /// line), or a bare token. `None` at the end of the line.
    pub fn name(&mut self) -> Option<&'a [u8]> {
        self.skip_space();
        match self.rest.first() {
            Some(b'"') => {
                let body = &self.rest[1..];
                let n = body.iter().position(|&b| b == b'"').unwrap_or(body.len());
                self.rest = body.get(n + 1..).unwrap_or(&[]);
                Some(&body[..n])
            }
            _ => self.word(),
        }
    }
}

/// A token as a float; `None` when it is not one. Non-finite values parse (`nan`, `inf`, `1e99`); the caller
/// decides what to do with them. Parsed from the bytes by fast-float2 (the Eisel-Lemire algorithm, correctly
/// rounded like `str::parse`), with no UTF-8 check: a float is ASCII, anything else fails to parse.
/// (The parser reads floats through [`Tokens::float`]; this is its reference in the tests.)
#[cfg(test)]
pub fn parse_f32(tok: &[u8]) -> Option<f32> {
    fast_float2::parse::<f32, _>(tok).ok()
}

/// A token as an integer (an optional sign and decimal digits, as `str::parse::<i64>` reads them); `None` when
/// it is not one or does not fit in an `i64`.
#[inline]
pub fn parse_int(tok: &[u8]) -> Option<i64> {
    let (negative, digits) = match tok {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, tok),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for &b in digits {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        // Accumulated negatively so i64::MIN parses.
        v = v.checked_mul(10)?.checked_sub(i64::from(d))?;
    }
    if negative { Some(v) } else { v.checked_neg() }
}

/// A token for a message: lossy, and cut short so a megabyte of garbage doesn't become a megabyte of error.
pub fn show(tok: &[u8]) -> String {
    const MAX: usize = 40;
    let s = String::from_utf8_lossy(&tok[..tok.len().min(MAX)]);
    if tok.len() > MAX { format!("{s}…") } else { s.into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        let mut t = Tokens::new(line.as_bytes());
        std::iter::from_fn(|| t.word()).map(|w| String::from_utf8_lossy(w).into_owned()).collect()
    }

    #[test]
    fn lines_are_numbered_and_crlf_is_whitespace() {
        let data = b"a\r\nb\n\nc";
        let lines: Vec<_> = Lines::new(data).collect();
        assert_eq!(lines, vec![(1, &b"a\r"[..]), (2, &b"b"[..]), (3, &b""[..]), (4, &b"c"[..])]);
        assert_eq!(words("vp 1 2\t3\r"), ["vp", "1", "2", "3"]);
    }

    #[test]
    fn numbers_parse_as_the_standard_library_parses_them() {
        for tok in [
            "0",
            "-0",
            "+7",
            "-12",
            "9223372036854775807",
            "-9223372036854775808",
            "9223372036854775808",
            "",
            "-",
            "+",
            "1a",
            "١",
            "0x10",
            " 1",
            "--1",
        ] {
            assert_eq!(parse_int(tok.as_bytes()), tok.parse::<i64>().ok(), "{tok:?}");
        }
        for tok in [
            "0",
            "-0.5",
            "1.",
            ".5",
            "1e3",
            "1E-3",
            "+2.5",
            "3.4028236e38",
            "1e-50",
            "inf",
            "-inf",
            "nan",
            "infinity",
            "1e",
            "e3",
            ".",
            "",
            "1.2.3",
            "0x1p3",
            "1,5",
            "١",
        ] {
            let (ours, std) = (parse_f32(tok.as_bytes()), tok.parse::<f32>().ok());
            assert_eq!(ours.map(f32::to_bits), std.map(f32::to_bits), "{tok:?}");
        }
        assert_eq!(parse_f32(b"\xff1"), None, "not UTF-8, not a number");
        // Token by token the same through Tokens::float.
        let line = "1.5 -2e3 inf 1.5x .5 1e 7# 3.25 #rest";
        let mut t = Tokens::new(line.as_bytes());
        let mut w = Tokens::new(line.as_bytes());
        while let Some(tok) = w.word() {
            let want = parse_f32(tok).ok_or(tok);
            assert_eq!(t.float().map(|r| r.map(f32::to_bits)), Some(want.map(f32::to_bits)), "{:?}", show(tok));
        }
        assert_eq!(t.float(), None);
    }

    #[test]
    fn remaining_is_the_rest_after_the_current_line() {
        let mut l = Lines::new(b"comment\nfree text\n# kept\n");
        l.next();
        assert_eq!(l.remaining(), b"free text\n# kept\n");
    }

    #[test]
    fn names_quoted_or_bare() {
        let mut t = Tokens::new(br#"joint "left arm" 3"#);
        assert_eq!(t.word(), Some(&b"joint"[..]));
        assert_eq!(t.name(), Some(&b"left arm"[..]));
        assert_eq!(t.word(), Some(&b"3"[..]));
        assert_eq!(t.word(), None);
        let mut t = Tokens::new(br#"mesh "unclosed name"#);
        t.word();
        assert_eq!(t.name(), Some(&b"unclosed name"[..]));
        let mut t = Tokens::new(b"material bare_name");
        t.word();
        assert_eq!(t.name(), Some(&b"bare_name"[..]));
        let mut t = Tokens::new(br#"mesh """#);
        t.word();
        assert_eq!(t.name(), Some(&b""[..]));
    }

    #[test]
    fn hash_token_ends_the_line() {
        assert_eq!(words("vp 1 2 3 # note"), ["vp", "1", "2", "3"]);
    }

    #[test]
    fn numbers_and_garbage() {
        assert_eq!(parse_f32(b"-1.5e2"), Some(-150.0));
        assert_eq!(parse_f32(b".5"), Some(0.5));
        assert!(parse_f32(b"nan").unwrap().is_nan());
        assert_eq!(parse_f32(b"x1"), None);
        assert_eq!(parse_f32(b"\xff"), None);
        assert_eq!(parse_int(b"-3"), Some(-3));
        assert_eq!(parse_int(b"4e9"), None);
        assert_eq!(parse_int(b"99999999999999999999"), None);
        assert_eq!(show(&[b'x'; 100]).chars().count(), 41);
    }
}
