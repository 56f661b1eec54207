//! What `inspect` reports of a file without verifying it: named fields, in order, each with
//! the text a person reads and the value a script reads. [`Details::render`] gives the
//! `name: text` lines; serialising gives the JSON object of `inspect --json` (keys are the
//! names in `snake_case`). Both come from the same fields, so the two never disagree and no
//! text is ever parsed back into values.

use serde::ser::{Serialize, SerializeMap, Serializer};

/// One field's value as scripts see it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Text (a digest in hex, a name, a description).
    Text(String),
    /// A count (bytes, rounds, gates, seeds).
    Count(u64),
    /// A real number (bits of security).
    Number(f64),
    /// A list (a listing's lines).
    List(Vec<Value>),
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Text(t) => s.serialize_str(t),
            Value::Count(n) => s.serialize_u64(*n),
            Value::Number(x) => s.serialize_f64(*x),
            Value::List(v) => v.serialize(s),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Field {
    /// The name people read (`opened seeds`); the JSON key is its `snake_case`.
    name: String,
    /// What follows the name on its line; `None` for a value scripts alone read.
    text: Option<String>,
    value: Value,
    /// The width `name:` is padded to (0: one space after the colon).
    pad: usize,
    /// Lines shown as they are, after the field's own line if it has one (a listing).
    lines: Vec<String>,
}

/// Named fields of a report, in order (see the module's documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Details {
    fields: Vec<Field>,
    pad: usize,
}

impl Details {
    /// No fields; names followed by one space.
    pub fn new() -> Self {
        Self::default()
    }

    /// No fields; each field added after this is shown with `name:` padded to `width`
    /// characters (`rounds:     219`), so that a block of lines aligns.
    pub fn aligned(width: usize) -> Self {
        Details {
            fields: Vec::new(),
            pad: width,
        }
    }

    fn push(mut self, name: &str, text: Option<String>, value: Value) -> Self {
        let pad = self.pad;
        self.fields.push(Field {
            name: name.to_string(),
            text,
            value,
            pad,
            lines: Vec::new(),
        });
        self
    }

    /// A listing: `lines` shown as they are (indented, say), and to scripts as a list of
    /// the lines without their leading spaces.
    pub fn listing(mut self, name: &str, lines: Vec<String>) -> Self {
        let value = Value::List(
            lines
                .iter()
                .map(|l| Value::Text(l.trim().to_string()))
                .collect(),
        );
        self = self.push(name, None, value);
        if let Some(f) = self.fields.last_mut() {
            f.lines = lines;
        }
        self
    }

    /// A field whose value is its text.
    pub fn text(self, name: &str, text: impl Into<String>) -> Self {
        let t = text.into();
        self.push(name, Some(t.clone()), Value::Text(t))
    }

    /// A count, shown as `text` (which says what the count is of: `108 (1728 B)`).
    pub fn count(self, name: &str, n: u64, text: impl Into<String>) -> Self {
        self.push(name, Some(text.into()), Value::Count(n))
    }

    /// A real number, shown as `text`.
    pub fn number(self, name: &str, x: f64, text: impl Into<String>) -> Self {
        self.push(name, Some(text.into()), Value::Number(x))
    }

    /// A value for scripts only: no line of its own (its line's text already says it).
    pub fn also(self, name: &str, value: Value) -> Self {
        self.push(name, None, value)
    }

    /// These fields, then `other`'s (each keeps its own alignment).
    pub fn then(mut self, other: Details) -> Self {
        self.fields.extend(other.fields);
        self
    }

    /// Whether there is no field.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The text of the field named `name`, if it has one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.name == name)
            .and_then(|f| f.text.as_deref())
    }

    /// The `name: text` lines, each ending in a newline.
    pub fn render(&self) -> String {
        let mut o = String::new();
        for f in &self.fields {
            if let Some(t) = &f.text {
                let head = format!("{}:", f.name);
                o += &format!("{head:<w$} {t}\n", w = f.pad.saturating_sub(1));
            }
            for l in &f.lines {
                o += l;
                o.push('\n');
            }
        }
        o
    }

    /// A name as its JSON key: lower case, every character but letters and digits `_`.
    pub fn key(name: &str) -> String {
        name.trim()
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect()
    }
}

impl std::fmt::Display for Details {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

impl Serialize for Details {
    /// An object of the fields by key; where two fields share a key, the first is kept.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seen = std::collections::HashSet::new();
        let fields: Vec<_> = self
            .fields
            .iter()
            .filter(|f| seen.insert(Details::key(&f.name)))
            .collect();
        let mut m = s.serialize_map(Some(fields.len()))?;
        for f in fields {
            m.serialize_entry(&Details::key(&f.name), &f.value)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_align_and_values_keep_their_type() {
        let d = Details::aligned(12)
            .count("rounds", 219, "219 (128.0 bits of security)")
            .text("statement", "ab12")
            .then(
                Details::new()
                    .count("opened seeds", 108, "108 (1728 B), commitments: 11")
                    .also("commitments", Value::Count(11))
                    .number("security", 128.0, "128.0 bits"),
            );
        assert_eq!(
            d.render(),
            "rounds:     219 (128.0 bits of security)\nstatement:  ab12\n\
             opened seeds: 108 (1728 B), commitments: 11\nsecurity: 128.0 bits\n"
        );
        let j = serde_json::to_string(&d).unwrap();
        assert_eq!(
            j,
            r#"{"rounds":219,"statement":"ab12","opened_seeds":108,"commitments":11,"security":128.0}"#
        );
        assert_eq!(d.get("statement"), Some("ab12"));
        let l = Details::new().listing("rounds", vec!["  round 1".into(), "  round 2".into()]);
        assert_eq!(l.render(), "  round 1\n  round 2\n");
        assert_eq!(
            serde_json::to_string(&l).unwrap(),
            r#"{"rounds":["round 1","round 2"]}"#
        );
        assert_eq!(d.get("commitments"), None);
    }

    #[test]
    fn a_repeated_key_keeps_the_first() {
        let d = Details::new().text("a b", "1").text("a-b", "2");
        assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"a_b":"1"}"#);
    }
}
