//! The protocol's closed sets of words. Each is one enum, spelled the same everywhere: in JSON,
//! in the database (as text) and in the spec. Reading a word the code does not know is an error,
//! never a default.

/// Defines an enum of words with `as_str`, `parse` and `ALL`; serde and the spec use the same
/// spelling.
macro_rules! words {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        // The spec reads `rename_all` (it does not see a `rename` this macro would pass on); the
        // test below holds each `$text` to it.
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            pub const ALL: &[$name] = &[$($name::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            pub fn parse(text: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|word| word.as_str() == text)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use words;

words! {
    /// The states of an artifact (PROTOCOL §3).
    pub enum State {
        InReview = "in_review",
        ChangesRequested = "changes_requested",
        InRevision = "in_revision",
        Approved = "approved",
        Deadlocked = "deadlocked",
        Abandoned = "abandoned",
    }
}

words! {
    /// A team's review profile (R11).
    pub enum Profile {
        /// R1–R10.
        Standard = "standard",
        /// R1–R10 plus grounded rejections and the rejecting reviewer's exclusion (R11).
        Waza = "waza",
    }
}

words! {
    /// How a contributor took part in a version; every role is credited alike (R6).
    pub enum ContributorRole {
        CoAuthor = "co_author",
        Pair = "pair",
        Advisor = "advisor",
    }
}

words! {
    /// A reviewer's verdict on a version.
    pub enum Verdict {
        Approve = "approve",
        Reject = "reject",
    }
}

words! {
    /// What a rejecting reviewer asks for (R3).
    pub enum RemedyAction {
        /// A different agent revises.
        Reassign = "reassign",
        /// An agent with the named expertise revises (new or existing).
        Escalate = "escalate",
    }
}

words! {
    /// What kind of review a verdict was.
    pub enum ReviewKind {
        Review = "review",
        /// A review by a reviewer who rejected an earlier version of this cycle (R11).
        FocusedRereview = "focused_rereview",
    }
}

words! {
    /// What a rejection is about.
    pub enum Grounds {
        Quality = "quality",
        Coverage = "coverage",
        Regression = "regression",
        Correctness = "correctness",
        Security = "security",
        Other = "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Code;

    /// JSON and the spec spell a word as serde does; the database and the code as `as_str` does.
    fn spelled_alike<T: serde::Serialize + std::fmt::Display>(words: &[T]) {
        for word in words {
            assert_eq!(serde_json::to_value(word).unwrap(), word.to_string(), "{word}");
        }
    }

    #[test]
    fn every_word_is_spelled_alike_in_json_and_in_the_database() {
        spelled_alike(State::ALL);
        spelled_alike(Profile::ALL);
        spelled_alike(ContributorRole::ALL);
        spelled_alike(Verdict::ALL);
        spelled_alike(RemedyAction::ALL);
        spelled_alike(ReviewKind::ALL);
        spelled_alike(Grounds::ALL);
        spelled_alike(Code::ALL);
    }
}
