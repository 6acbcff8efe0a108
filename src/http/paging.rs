//! Cursor paging, the same for every list.

use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use crate::app::targets;
use crate::error::{Error, Result};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// From a previous page's `next_cursor`.
    pub cursor: Option<String>,
    /// 1 to 500, default 100.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

impl PageQuery {
    pub fn limit(&self) -> Result<i64> {
        limit(self.limit)
    }

    /// The cursor of a list ordered by a number: the last number seen, 0 before the first page.
    pub fn after<N: std::str::FromStr + Default>(&self) -> Result<N> {
        match self.cursor.as_deref() {
            None => Ok(N::default()),
            Some(c) => c.parse().map_err(|_| Error::invalid("cursor", "is not a cursor this list returned")),
        }
    }

    /// A page of a delivery log: the attempt the `cursor` names (from the previous page's
    /// `next_cursor`) and the page size, at most 100.
    pub fn page(&self) -> Result<(Option<Uuid>, i64)> {
        let before = match self.cursor.as_deref() {
            None => None,
            Some(c) => {
                Some(c.parse().map_err(|_| Error::invalid("cursor", "is not a cursor this list returned"))?)
            }
        };
        Ok((before, self.limit()?.min(targets::MAX_PAGE)))
    }
}

/// A page size: 1 to 500, default 100.
pub fn limit(requested: Option<i64>) -> Result<i64> {
    match requested {
        None => Ok(100),
        Some(n) if (1..=500).contains(&n) => Ok(n),
        Some(_) => Err(Error::invalid("limit", "must be between 1 and 500")),
    }
}

/// Splits `limit + 1` fetched rows into a page and the cursor of the next one.
pub fn paginate<T>(mut rows: Vec<T>, limit: i64, cursor: impl Fn(&T) -> String) -> (Vec<T>, Option<String>) {
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let next = if more { rows.last().map(cursor) } else { None };
    (rows, next)
}
