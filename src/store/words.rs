//! The domain's words and ids as Postgres text: written with `as_str`, read back with `parse`. A
//! value the code does not know fails the read (a 500 naming the column and the value in the
//! log), rather than turning into some default.

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueRef};
use sqlx::{Decode, Encode, Postgres, Type};

use crate::domain::{
    AgentId, AgentKind, ArtifactKey, AssignedBy, AssignmentEnd, ContributorRole, DisabledReason, ForgeKind,
    Grounds, LockoutEnd, Profile, RemedyAction, ReviewKind, Scope, State, TargetKind, TeamId, Verdict,
};

macro_rules! stored_as_text {
    ($($word:ty),*) => {$(
        impl Type<Postgres> for $word {
            fn type_info() -> PgTypeInfo {
                <str as Type<Postgres>>::type_info()
            }

            fn compatible(ty: &PgTypeInfo) -> bool {
                <str as Type<Postgres>>::compatible(ty)
            }
        }

        impl PgHasArrayType for $word {
            fn array_type_info() -> PgTypeInfo {
                <&str as PgHasArrayType>::array_type_info()
            }
        }

        impl Encode<'_, Postgres> for $word {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
                <&str as Encode<Postgres>>::encode(self.as_str(), buf)
            }
        }

        impl Decode<'_, Postgres> for $word {
            fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
                let text = <&str as Decode<Postgres>>::decode(value)?;
                <$word>::parse(text).ok_or_else(|| format!("unknown {} {text:?}", stringify!($word)).into())
            }
        }
    )*};
}

stored_as_text!(
    State,
    Profile,
    ContributorRole,
    Verdict,
    RemedyAction,
    ReviewKind,
    Grounds,
    Scope,
    AgentKind,
    AssignedBy,
    AssignmentEnd,
    LockoutEnd,
    TargetKind,
    ForgeKind,
    DisabledReason,
    TeamId,
    AgentId,
    ArtifactKey
);
