//! How the domain's words and values are described in the spec. `domain` knows nothing of
//! OpenAPI: each word's schema is built here from its `ALL` and `DOC`, and each domain value
//! sent as-is is described by a schema struct below, held to the value's JSON by the tests.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::domain::{
    AgentKind, AssignedBy, Code, ContributorRole, DisabledReason, ForgeKind, Grounds, Profile, RemedyAction,
    ResolutionAction, ReviewKind, Scope, State, Verdict,
};

/// A doc comment as the spec shows it: its lines, the common indentation removed.
fn description(doc: &[&str]) -> Option<String> {
    let lines: Vec<&str> = doc.iter().map(|line| line.trim_end()).collect();
    let indent = lines.iter().filter(|l| !l.is_empty()).map(|l| l.len() - l.trim_start().len()).min()?;
    Some(lines.iter().map(|l| l.get(indent..).unwrap_or_default()).collect::<Vec<_>>().join("\n"))
}

/// Each word is a string schema listing its spellings, described by its doc comment.
macro_rules! word_schemas {
    ($($word:ident),*) => {$(
        impl PartialSchema for $word {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(description($word::DOC))
                    .enum_values(Some($word::ALL.iter().map(|w| w.as_str())))
                    .into()
            }
        }

        impl ToSchema for $word {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($word))
            }
        }
    )*};
}

word_schemas!(
    State,
    Profile,
    ContributorRole,
    Verdict,
    RemedyAction,
    ReviewKind,
    Grounds,
    Code,
    Scope,
    AgentKind,
    ResolutionAction,
    AssignedBy,
    ForgeKind,
    DisabledReason
);

/// Describes a domain value with a schema struct of the same fields (which has no other use).
macro_rules! described_by {
    ($($value:ty => $schema:ty),*) => {$(
        impl PartialSchema for $value {
            fn schema() -> RefOr<Schema> {
                <$schema as PartialSchema>::schema()
            }
        }

        impl ToSchema for $value {
            fn name() -> Cow<'static, str> {
                <$schema as ToSchema>::name()
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                <$schema as ToSchema>::schemas(schemas)
            }
        }
    )*};
}

described_by!(
    crate::domain::Policy => PolicySchema,
    crate::domain::Contributor => ContributorSchema,
    crate::domain::Remedy => RemedySchema,
    crate::domain::Evidence => EvidenceSchema,
    crate::domain::PendingRemedy => PendingRemedySchema
);

/// A team's policy (R11).
#[derive(ToSchema)]
#[schema(as = Policy)]
#[allow(dead_code)]
pub struct PolicySchema {
    profile: Profile,
    /// How many distinct approvals close a version; at least 1.
    required_approvals: u32,
}

/// An agent credited on a version besides its author.
#[derive(ToSchema)]
#[schema(as = Contributor)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct ContributorSchema {
    agent: String,
    role: ContributorRole,
}

/// What a rejecting reviewer asks for (R3).
#[derive(ToSchema)]
#[schema(as = Remedy)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct RemedySchema {
    action: RemedyAction,
    /// A recommended agent; it must not be locked out (R4).
    agent: Option<String>,
    /// For `escalate`: the tags the reviser must have, at least one.
    #[serde(default)]
    #[schema(max_items = 64)]
    expertise: Vec<String>,
}

/// The grounds of a waza rejection (R11): all four are required under that profile.
#[derive(ToSchema)]
#[schema(as = Evidence)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct EvidenceSchema {
    counter_evidence: Option<String>,
    violated_requirement: Option<String>,
    affected_scope: Option<String>,
    approval_condition: Option<String>,
}

// A remedy flattened beside who asked for it: a remedy closed to unknown fields cannot be the
// part of an `allOf`.
/// The remedy of the rejection that opened the current revision, with who asked for it.
#[derive(ToSchema)]
#[schema(as = PendingRemedy)]
#[allow(dead_code)]
pub struct PendingRemedySchema {
    action: RemedyAction,
    #[schema(required = true, example = "revision-eng")]
    agent: Option<String>,
    expertise: Vec<String>,
    #[schema(example = "quality-reviewer")]
    reviewer: String,
    #[schema(example = "Error handling is missing.")]
    reason: String,
}
