//! Where a field is in RON text, so a range error can name its
//! line:column as a syntax error does.
//!
//! The text has already parsed, so a light walk suffices: tokens
//! (comments, strings and attributes skipped), then values — `Name(…)` or
//! `(…)` with `field: value` pairs is a struct, without them a tuple
//! (`.0`, `.1`, …), `[…]` a list (`[k]`) — recording the position of
//! every field name and list element under its path, written the way the
//! range checks name fields: `bodies[1].pins[0].0`.

/// A token: its first character's 1-based (line, column) and its text.
struct Token<'a> {
    at: (usize, usize),
    text: &'a str,
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let (mut line, mut col) = (1, 1);
    // Advances over one char, keeping line:column.
    let step = |c: char, line: &mut usize, col: &mut usize| {
        if c == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    };
    while let Some(&(i, c)) = chars.peek() {
        let at = (line, col);
        if c.is_whitespace() {
            step(c, &mut line, &mut col);
            chars.next();
        } else if text[i..].starts_with("//") {
            while let Some(&(_, c)) = chars.peek().filter(|(_, c)| *c != '\n') {
                step(c, &mut line, &mut col);
                chars.next();
            }
        } else if text[i..].starts_with("/*") {
            let mut depth = 0;
            while let Some((j, c)) = chars.next() {
                step(c, &mut line, &mut col);
                if text[j..].starts_with("/*") {
                    depth += 1;
                    let (_, c) = chars.next().expect("'*' follows");
                    step(c, &mut line, &mut col);
                } else if text[j..].starts_with("*/") {
                    depth -= 1;
                    let (_, c) = chars.next().expect("'/' follows");
                    step(c, &mut line, &mut col);
                    if depth == 0 {
                        break;
                    }
                }
            }
        } else if c == '"' {
            chars.next();
            step(c, &mut line, &mut col);
            while let Some((_, c)) = chars.next() {
                step(c, &mut line, &mut col);
                match c {
                    '\\' => {
                        if let Some((_, c)) = chars.next() {
                            step(c, &mut line, &mut col);
                        }
                    }
                    '"' => break,
                    _ => {}
                }
            }
            out.push(Token { at, text: "\"" });
        } else if "()[]{}:,#!".contains(c) {
            chars.next();
            step(c, &mut line, &mut col);
            out.push(Token {
                at,
                text: &text[i..i + c.len_utf8()],
            });
        } else {
            let mut end = i;
            while let Some(&(j, c)) = chars.peek() {
                if c.is_whitespace() || "()[]{}:,#!\"".contains(c) {
                    break;
                }
                end = j + c.len_utf8();
                step(c, &mut line, &mut col);
                chars.next();
            }
            out.push(Token {
                at,
                text: &text[i..end],
            });
        }
    }
    out
}

/// The walk over the tokens, collecting (path, position).
struct Walk<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    found: Vec<(String, (usize, usize))>,
}

impl Walk<'_> {
    fn peek(&self, k: usize) -> Option<&str> {
        self.tokens.get(self.next + k).map(|t| t.text)
    }

    fn at(&self) -> (usize, usize) {
        self.tokens.get(self.next).map_or((0, 0), |t| t.at)
    }

    fn value(&mut self, path: &str) {
        match self.peek(0) {
            Some("(") => self.parens(path),
            Some("[") => {
                self.next += 1;
                let mut k = 0;
                while !matches!(self.peek(0), Some("]") | None) {
                    let item = format!("{path}[{k}]");
                    self.found.push((item.clone(), self.at()));
                    self.value(&item);
                    if self.peek(0) == Some(",") {
                        self.next += 1;
                    }
                    k += 1;
                }
                self.next += 1;
            }
            Some("{") => {
                // A map: keys and values, of no field path.
                self.next += 1;
                while !matches!(self.peek(0), Some("}") | None) {
                    self.next += 1;
                }
                self.next += 1;
            }
            Some(_) if self.peek(1) == Some("(") => {
                self.next += 1; // a struct or variant's name
                self.parens(path);
            }
            Some(_) => self.next += 1,
            None => {}
        }
    }

    /// `( … )`: struct fields when it starts with `name:`, else a tuple.
    fn parens(&mut self, path: &str) {
        self.next += 1;
        let fields = self.peek(1) == Some(":") && self.peek(0) != Some(")");
        let mut k = 0;
        while !matches!(self.peek(0), Some(")") | None) {
            let inner = if fields {
                let name = self.peek(0).unwrap_or_default().to_string();
                let inner = if path.is_empty() {
                    name
                } else {
                    format!("{path}.{name}")
                };
                self.found.push((inner.clone(), self.at()));
                self.next += 2;
                inner
            } else {
                let inner = format!("{path}.{k}");
                self.found.push((inner.clone(), self.at()));
                inner
            };
            self.value(&inner);
            if self.peek(0) == Some(",") {
                self.next += 1;
            }
            k += 1;
        }
        self.next += 1;
    }
}

/// Every field and list element of a RON text with its 1-based
/// (line, column), read in one walk, so that many errors are placed in
/// time linear in the text.
pub struct Fields {
    /// In the order written.
    found: Vec<(String, (usize, usize))>,
    /// Path → index into `found`.
    index: std::collections::HashMap<String, usize>,
}

impl Fields {
    /// Walks `text` once.
    pub fn of(text: &str) -> Self {
        let mut walk = Walk {
            tokens: tokens(text),
            next: 0,
            found: Vec::new(),
        };
        // Inner attributes: `#![enable(…)]`.
        while walk.peek(0) == Some("#") {
            while !matches!(walk.peek(0), Some("]") | None) {
                walk.next += 1;
            }
            walk.next += 1;
        }
        walk.value("");
        let mut index = std::collections::HashMap::with_capacity(walk.found.len());
        for (k, (path, _)) in walk.found.iter().enumerate() {
            index.entry(path.clone()).or_insert(k);
        }
        Self {
            found: walk.found,
            index,
        }
    }

    /// The 1-based (line, column) of `field` — a path as the range checks
    /// write it, e.g. `bodies[1].pins[0].0 (row)`; a field left to its
    /// default is located at the nearest enclosing value written.
    pub fn locate(&self, field: &str) -> Option<(usize, usize)> {
        let mut path = field.split(' ').next().unwrap_or_default();
        loop {
            if let Some(&k) = self.index.get(path) {
                return Some(self.found[k].1);
            }
            path = &path[..path.rfind(['.', '['])?];
        }
    }

    /// The innermost field or list element written at or before `at`:
    /// the field a parse error at `at` is in.
    pub fn at(&self, at: (usize, usize)) -> Option<&str> {
        self.found
            .iter()
            .rev()
            .find(|(_, place)| *place <= at)
            .map(|(path, _)| path.as_str())
    }
}

/// [`Fields::locate`] for one field.
#[cfg(test)]
pub fn locate(text: &str, field: &str) -> Option<(usize, usize)> {
    Fields::of(text).locate(field)
}

#[cfg(test)]
mod tests {
    use super::locate;

    const TEXT: &str = "#![enable(implicit_some)]
// a comment with (parens) and \"quotes\"
Scene(
    name: \"a (tricky) name: yes\",
    solver: (dt: 2.0, /* nested /* comment */ */ substeps: 0),
    bodies: [
        Rope(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 4, pins: [0, 9]),
        Cloth(origin: (0.0, 0.0, 0.0), size: (1.0, 1.0), resolution: (3, 3), pins: [(0, 0), (7, 1)]),
    ],
)";

    #[test]
    fn fields_are_found_where_they_are_written() {
        assert_eq!(locate(TEXT, "solver.dt"), Some((5, 14)));
        assert_eq!(locate(TEXT, "solver.substeps"), Some((5, 50)));
        assert_eq!(locate(TEXT, "bodies[0].segments"), Some((7, 60)));
        assert_eq!(locate(TEXT, "bodies[0].pins[1]"), Some((7, 83)));
        assert_eq!(locate(TEXT, "bodies[1].pins[1].0 (row)"), Some((8, 94)));
        assert_eq!(locate(TEXT, "bodies[1].size.1"), Some((8, 52)));
    }

    #[test]
    fn a_place_in_the_text_names_the_field_written_there() {
        let fields = super::Fields::of(TEXT);
        assert_eq!(fields.at((5, 50)), Some("solver.substeps"));
        assert_eq!(fields.at((5, 60)), Some("solver.substeps"));
        assert_eq!(fields.at((7, 84)), Some("bodies[0].pins[1]"));
        assert_eq!(fields.at((1, 1)), None);
    }

    #[test]
    fn a_field_left_to_its_default_is_found_at_its_body() {
        assert_eq!(locate(TEXT, "bodies[1].mass"), Some((8, 9)));
        assert_eq!(locate(TEXT, "camera.distance"), None);
    }
}
