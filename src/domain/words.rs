//! The protocol's closed sets of words. Each is one enum, spelled the same everywhere: in JSON,
//! in the database (as text, `store::words`) and in the spec (`resources::schemas`). Reading a
//! word the code does not know is an error, never a default.

/// Defines an enum of words with `as_str`, `parse`, `ALL` and `DOC` (its doc comment, line by
/// line, for the spec); serde uses the same spelling, the database too (`store::words`).
macro_rules! words {
    ($(#[doc = $doc:literal])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[derive(serde::Serialize, serde::Deserialize)]
        // serde reads `rename_all`; the test below holds each `$text` to it.
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            pub const ALL: &[$name] = &[$($name::$variant,)*];

            /// The enum's doc comment, a line each.
            pub const DOC: &[&str] = &[$($doc,)*];

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

words! {
    /// What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
    /// escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
    pub enum Scope {
        Read = "read",
        Coordinator = "coordinator",
        User = "user",
        Admin = "admin",
        /// Bound to one agent: it may submit versions that agent authors, reviews it gives and
        /// checks about it, and read its team.
        Agent = "agent",
    }
}

impl Scope {
    /// Whether a token of this scope may do what `needed` guards.
    pub fn allows(self, needed: Scope) -> bool {
        match needed {
            Scope::Read => true,
            Scope::Coordinator => matches!(self, Scope::Coordinator | Scope::Admin),
            Scope::Admin => self == Scope::Admin,
            Scope::User => self == Scope::User,
            Scope::Agent => self == Scope::Agent,
        }
    }
}

words! {
    pub enum AgentKind {
        Ai = "ai",
        Human = "human",
    }
}

words! {
    pub enum ResolutionAction {
        Assign = "assign",
        Abandon = "abandon",
    }
}

words! {
    /// Who assigned an agent the revision: the coordinator (R5), or the user resolving a
    /// deadlock (R9).
    pub enum AssignedBy {
        Coordinator = "coordinator",
        User = "user",
    }
}

words! {
    /// What ended an assignment: the assignee's version, or its release.
    pub enum AssignmentEnd {
        Version = "version",
        Released = "released",
    }
}

words! {
    /// What cleared a lockout: an approved revision (R8), or the user's early lift (R10).
    pub enum LockoutEnd {
        Approval = "approval",
        Lift = "lift",
    }
}

words! {
    /// Where a team's events are delivered: a webhook subscription, or a forge that shows each
    /// version's state as a commit status on its `ref`.
    pub enum TargetKind {
        Webhook = "webhook",
        Forge = "forge",
    }
}

words! {
    /// The forge a team's commit statuses are posted to.
    pub enum ForgeKind {
        /// GitHub or GitHub Enterprise Server: `POST /repos/{owner}/{repo}/statuses/{sha}`.
        Github = "github",
        /// GitLab, hosted or self-managed: `POST /projects/:id/statuses/:sha`.
        Gitlab = "gitlab",
    }
}

words! {
    /// Why deliveries to a target stopped on their own (re-enabling resumes from its cursor).
    pub enum DisabledReason {
        /// The webhook's receiver answered `410 Gone`.
        Gone = "gone",
        /// Every attempt failed for 5 days.
        Failing = "failing",
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
        spelled_alike(Scope::ALL);
        spelled_alike(ForgeKind::ALL);
        spelled_alike(DisabledReason::ALL);
        spelled_alike(TargetKind::ALL);
        spelled_alike(AgentKind::ALL);
        spelled_alike(ResolutionAction::ALL);
        spelled_alike(AssignedBy::ALL);
        spelled_alike(AssignmentEnd::ALL);
        spelled_alike(LockoutEnd::ALL);
    }
}
