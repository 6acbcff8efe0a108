//! The ids of the protocol's things, each parsed once where a request names it: a value of one
//! of these types is well formed, and a team id cannot be passed where an agent id is meant.

use std::fmt;
use std::ops::Deref;

/// Defines an id type: a `String` that `$valid` accepts.
macro_rules! id {
    ($(#[$meta:meta])* $name:ident, $valid:path, $expected:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        pub struct $name(String);

        impl $name {
            /// What a well-formed id looks like.
            pub const EXPECTED: &'static str = $expected;

            pub fn parse(value: &str) -> Option<$name> {
                $valid(value).then(|| $name(value.to_owned()))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// For the rules' tests, which name agents `A`, `B`, `C`.
            #[cfg(test)]
            #[allow(dead_code)]
            pub(crate) fn unchecked(value: &str) -> $name {
                $name(value.to_owned())
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visitor;

                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expected)
                    }

                    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<$name, E> {
                        $name::parse(value).ok_or_else(|| E::custom($expected))
                    }
                }

                d.deserialize_str(Visitor)
            }
        }

        impl Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

id!(
    /// A team's id.
    TeamId, is_slug, "must match [a-z0-9][a-z0-9-]{0,62}"
);
id!(
    /// An agent's id, unique in its team.
    AgentId, is_slug, "must match [a-z0-9][a-z0-9-]{0,62}"
);
id!(
    /// An artifact's key, unique in its team.
    ArtifactKey,
    is_key,
    "must be lowercase letters, digits, '-', '_', '.' and '/' (no empty, '.' or '..' segments), starting with a letter or digit, at most 200 characters"
);

/// The longest team or agent id.
pub const MAX_ID: usize = 63;
/// The longest artifact key.
pub const MAX_KEY: usize = 200;

/// A team or agent id: `[a-z0-9][a-z0-9-]{0,62}`.
pub fn is_slug(value: &str) -> bool {
    value.len() <= MAX_ID
        && value.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && value.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// An artifact key: a slug that may also contain `/`, `.` and `_`, up to 200 characters, with no
/// empty, `.` or `..` segment.
pub fn is_key(value: &str) -> bool {
    value.len() <= MAX_KEY
        && value.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && value.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_./".contains(c))
        && !value.split('/').any(|part| part.is_empty() || part == "." || part == "..")
}
