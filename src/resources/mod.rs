//! The protocol's request and response bodies as clients see them (PROTOCOL §5), shared by
//! `app`, which builds them (`app::views`), and `http`, which documents and serves them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Defines a page of a list, named after what it lists, so that every client has one type per
/// page (a generic page is inlined in the spec, once per use).
macro_rules! page {
    ($(#[$meta:meta])* $name:ident of $item:ty) => {
        $(#[$meta])*
        #[derive(Debug, Serialize, ToSchema)]
        pub struct $name {
            pub items: Vec<$item>,
            /// Pass as `cursor` for the next page; null on the last.
            #[schema(required = true)]
            pub next_cursor: Option<String>,
        }
    };
}

mod agents;
mod artifacts;
mod assignment;
mod checks;
mod deliveries;
mod escalations;
pub mod events;
mod lockouts;
mod ref_checks;
pub mod schemas;
mod teams;
mod tokens;
mod versions;

pub use agents::*;
pub use artifacts::*;
pub use assignment::*;
pub use checks::*;
pub use deliveries::*;
pub use escalations::*;
pub use lockouts::*;
pub use ref_checks::*;
pub use teams::*;
pub use tokens::*;
pub use versions::*;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRef {
    /// Null for the token set by `REVIEWLOCK_ADMIN_TOKEN`, which is not stored.
    #[schema(required = true)]
    pub id: Option<uuid::Uuid>,
    #[schema(required = true, example = "orchestrator")]
    pub name: Option<String>,
}

/// One state change (R12), as stored and served. Its schema in the spec is the tagged union
/// [`events::TypedEvent`]: one schema per `type`, each with its `data`.
#[derive(Debug, Serialize)]
pub struct Event {
    /// Team-wide, increasing, never reused.
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub artifact: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    /// The agent the change names, if any.
    pub actor: Option<String>,
    /// The token that made the change.
    pub token: TokenRef,
    /// As stored (`events::EventData` serialized when the event was appended), passed through
    /// as Postgres returns it rather than parsed and serialized again, which would change its
    /// bytes (`jsonb` orders and spaces keys its own way) for no gain: nothing but `EventData`
    /// writes it. `app::events::data` reads it as its type.
    pub data: Box<serde_json::value::RawValue>,
}

/// A page of the team's events, in seq order.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    #[schema(value_type = Vec<events::TypedEvent>)]
    pub items: Vec<Event>,
    /// Pass as `after` for the next poll: the last seq of this page, or `after` when empty.
    #[schema(example = 42)]
    pub next_after: i64,
}
