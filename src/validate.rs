//! Shape validation of request fields, collected into one 422 `invalid_field`.

use crate::error::{Error, FieldError};

pub use crate::domain::{MAX_ID, MAX_KEY, is_slug};
pub const MAX_NAME: usize = 200;
pub const MAX_TEXT: usize = 10_000;
pub const MAX_TAG: usize = 64;
pub const MAX_LIST: usize = 64;

/// Collects every field error of one request.
#[derive(Debug, Default)]
pub struct Fields(Vec<FieldError>);

impl Fields {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }

    /// `Ok` when no field was at fault, else 422 `invalid_field` listing them all.
    pub fn finish(self) -> Result<(), Error> {
        if self.0.is_empty() { Ok(()) } else { Err(Error::InvalidFields(self.0)) }
    }

    /// A team or agent id: `[a-z0-9][a-z0-9-]{0,62}`.
    pub fn slug(&mut self, field: &str, value: &str) {
        if !is_slug(value) {
            self.add(field, crate::domain::AgentId::EXPECTED);
        }
    }

    /// Free text: non-blank, at most `max` characters, no control characters but newline and tab.
    pub fn text(&mut self, field: &str, value: &str, max: usize) {
        if value.trim().is_empty() {
            self.add(field, "must not be blank");
        } else if value.chars().count() > max {
            self.add(field, format!("must be at most {max} characters"));
        } else if value.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
            self.add(field, "must not contain control characters");
        }
    }

    /// A single line of text (a name, a label).
    pub fn line(&mut self, field: &str, value: &str, max: usize) {
        let before = self.0.len();
        self.text(field, value, max);
        if self.0.len() == before && value.contains(['\n', '\t']) {
            self.add(field, "must be a single line");
        }
    }

    pub fn opt_text(&mut self, field: &str, value: Option<&str>, max: usize) {
        if let Some(v) = value {
            self.text(field, v, max);
        }
    }

    /// A list of short single-line labels (roles, expertise, paths), each distinct.
    pub fn labels(&mut self, field: &str, values: &[String], max_len: usize) {
        if values.len() > MAX_LIST {
            self.add(field, format!("must have at most {MAX_LIST} items"));
            return;
        }
        for (i, v) in values.iter().enumerate() {
            self.line(&format!("{field}[{i}]"), v, max_len);
            if values[..i].contains(v) {
                self.add(format!("{field}[{i}]"), "is listed twice");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(f: impl FnOnce(&mut Fields)) -> Vec<String> {
        let mut fields = Fields::new();
        f(&mut fields);
        fields.0.into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn slugs() {
        for ok in ["a", "team-1", "0", &"a".repeat(63)] {
            assert!(is_slug(ok), "{ok}");
        }
        for bad in ["", "-a", "A", "a_b", "a b", "é", &"a".repeat(64), "a/b"] {
            assert!(!is_slug(bad), "{bad}");
        }
    }

    #[test]
    fn keys_allow_paths_but_not_traversal() {
        for ok in ["auth", "src/auth.rs", "pr-42", "a/b_c/d.e"] {
            assert!(crate::domain::is_key(ok), "{ok}");
        }
        for bad in ["", "/abs", "a//b", "a/../b", "a/./b", "Auth", "a b", "a/", &"a".repeat(201)] {
            assert!(!crate::domain::is_key(bad), "{bad}");
        }
    }

    #[test]
    fn text_is_bounded_and_printable() {
        assert!(errors(|f| f.text("reason", "line one\nline two\tok", 100)).is_empty());
        assert!(errors(|f| f.text("reason", "ünïcödé ✓ 日本", 100)).is_empty());
        assert_eq!(errors(|f| f.text("reason", "  ", 100)), ["reason"]);
        assert_eq!(errors(|f| f.text("reason", "a\u{0}b", 100)), ["reason"]);
        assert_eq!(errors(|f| f.text("reason", "a\u{1b}[31m", 100)), ["reason"]);
        assert_eq!(errors(|f| f.text("reason", &"x".repeat(101), 100)), ["reason"]);
        assert!(errors(|f| f.text("reason", &"é".repeat(100), 100)).is_empty());
    }

    #[test]
    fn labels_are_bounded_distinct_single_lines() {
        let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(errors(|f| f.labels("roles", &list(&["lead", "tester"]), 64)).is_empty());
        assert_eq!(errors(|f| f.labels("roles", &list(&["lead", "lead"]), 64)), ["roles[1]"]);
        assert_eq!(errors(|f| f.labels("roles", &list(&["a\nb"]), 64)), ["roles[0]"]);
        assert_eq!(errors(|f| f.labels("roles", &list(&[""]), 64)), ["roles[0]"]);
        let many: Vec<String> = (0..65).map(|i| i.to_string()).collect();
        assert_eq!(errors(|f| f.labels("roles", &many, 64)), ["roles"]);
    }

    #[test]
    fn all_errors_are_reported_together() {
        let mut f = Fields::new();
        f.slug("id", "Bad");
        f.text("name", "", 10);
        let Err(Error::InvalidFields(errors)) = f.finish() else { panic!("expected invalid_field") };
        assert_eq!(errors.len(), 2);
    }
}
