//! The question CI asks before a merge (R17): may this commit, which changes these files, land?

use crate::app::actor::{Actor, team_not_found};
use crate::app::globs::{self, Coverage, MAX_REF_CHECK_PATHS};
use crate::domain::{self, MIN_SHA, RefVersion, Scope, TeamId};
use crate::error::{Error, FieldError, Result};
use crate::resources::{RefCheckArtifact, RefCheckInput, RefCheckResult};
use crate::store::{Db, ref_checks as store};

/// The longest SHA asked about: SHA-1's 40 hexadecimal digits.
const MAX_SHA: usize = 40;

/// Every artifact (not abandoned) whose globs cover a changed file must have an approved
/// version whose `ref` names the commit (`domain::decide_ref`); a commit whose files no artifact
/// covers may land. Answered from one statement.
pub async fn ref_check(
    pool: &Db,
    coverage: &Coverage,
    actor: &Actor,
    team: &TeamId,
    input: RefCheckInput,
) -> Result<RefCheckResult> {
    actor.require(team, Scope::Read)?;
    let sha = &input.git_ref;
    let is_sha = (MIN_SHA..=MAX_SHA).contains(&sha.len()) && sha.bytes().all(|b| b.is_ascii_hexdigit());
    // Every field at fault at once: the SHA's and each path's.
    let mut paths = match (is_sha, globs::files_up_to("paths", &input.paths, MAX_REF_CHECK_PATHS)) {
        (true, paths) => paths?,
        (false, paths) => {
            let mut errors = vec![FieldError::new(
                "ref",
                format!("must be a commit SHA: {MIN_SHA} to {MAX_SHA} hexadecimal digits"),
            )];
            if let Err(Error::InvalidFields(more)) = paths {
                errors.extend(more);
            }
            return Err(Error::InvalidFields(errors));
        }
    };
    let sha = sha.to_ascii_lowercase();
    // Two spellings of one file are one file.
    let mut seen = std::collections::HashSet::new();
    paths.retain(|p| seen.insert(p.clone()));
    let snapshot = pool
        .read(async |conn| store::load(conn, team, &sha).await)
        .await?
        .ok_or_else(|| team_not_found(team))?;
    let required = u32::try_from(snapshot.required_approvals).unwrap_or(1).max(1);
    let candidates: Vec<_> = paths.iter().map(|p| (p, globs::candidate(p))).collect();
    let mut artifacts = Vec::new();
    for artifact in snapshot.artifacts.0 {
        let set = coverage.set(artifact.id, &artifact.paths);
        let covered: Vec<String> =
            candidates.iter().filter(|(_, c)| set.is_match_candidate(c)).map(|(p, _)| (*p).clone()).collect();
        if covered.is_empty() {
            continue;
        }
        let versions: Vec<RefVersion> = artifact
            .versions
            .into_iter()
            .map(|v| RefVersion {
                number: v.number,
                git_ref: v.git_ref,
                approvals: u32::try_from(v.approvals).unwrap_or(u32::MAX),
                rejections: u32::try_from(v.rejections).unwrap_or(u32::MAX),
            })
            .collect();
        let verdict = domain::decide_ref(&artifact.key, artifact.current_version, &sha, &versions, required);
        artifacts.push(RefCheckArtifact {
            artifact: artifact.key,
            paths: covered,
            version: verdict.version,
            approved: verdict.approved,
            detail: verdict.detail,
        });
    }
    Ok(RefCheckResult { allowed: artifacts.iter().all(|a| a.approved), artifacts })
}
