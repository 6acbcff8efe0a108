//! The merge obeys the verdict (R17): may a commit land, as far as one artifact covering the
//! files it changes is concerned? Only when a version of that artifact has the commit's SHA as
//! its `ref` and was approved.

/// The shortest SHA prefix that names a commit: what `git log --oneline` prints.
pub const MIN_SHA: usize = 7;

/// Does a version's `ref` name the commit `asked`? When one is a prefix of the other,
/// case-insensitively, both hexadecimal and at least [`MIN_SHA`] long: a version may record a
/// short SHA and CI ask with the full one, or the other way round. A `ref` that is no SHA (a
/// branch name, a tag) names no commit here: it would name a different commit tomorrow.
pub fn ref_matches(version_ref: &str, asked: &str) -> bool {
    let sha = |s: &str| s.len() >= MIN_SHA && s.bytes().all(|b| b.is_ascii_hexdigit());
    if !sha(version_ref) || !sha(asked) {
        return false;
    }
    let n = version_ref.len().min(asked.len());
    version_ref[..n].eq_ignore_ascii_case(&asked[..n])
}

/// A version of an artifact as a ref check sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefVersion {
    pub number: i32,
    pub git_ref: String,
    /// Distinct approvals it got.
    pub approvals: u32,
    /// Rejections it got (a rejection decides a version, so at most one).
    pub rejections: u32,
}

/// What one artifact says about a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefVerdict {
    /// The version whose `ref` names the commit; the newest when several do.
    pub version: Option<i32>,
    pub approved: bool,
    /// Why, in words.
    pub detail: String,
}

/// The verdict of the artifact `key`, whose newest version is `current`, on the commit `asked`,
/// given its `versions` (any of them; those whose `ref` does not name the commit are passed
/// over) and the `required_approvals` of its team. A version is approved when it got that many
/// approvals and no rejection: a version rejected, superseded before it was approved, or still
/// awaiting its reviews is not.
pub fn decide_ref(
    key: &str,
    current: i32,
    asked: &str,
    versions: &[RefVersion],
    required_approvals: u32,
) -> RefVerdict {
    let matching = versions.iter().filter(|v| ref_matches(&v.git_ref, asked)).max_by_key(|v| v.number);
    let Some(v) = matching else {
        return RefVerdict {
            version: None,
            approved: false,
            detail: format!(
                "no version of '{key}' has {asked} as its ref: it was never submitted for review"
            ),
        };
    };
    let n = v.number;
    let tally = format!("{} of {required_approvals} approvals", v.approvals.min(required_approvals));
    let (approved, detail) = if v.rejections > 0 {
        (false, format!("version {n} of '{key}' was rejected"))
    } else if v.approvals >= required_approvals {
        (true, format!("version {n} of '{key}' was approved ({tally})"))
    } else if n < current {
        (
            false,
            format!(
                "version {n} of '{key}' was superseded by version {current} before it was approved ({tally})"
            ),
        )
    } else {
        (false, format!("version {n} of '{key}' awaits review ({tally})"))
    };
    RefVerdict { version: Some(n), approved, detail }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(number: i32, git_ref: &str, approvals: u32, rejections: u32) -> RefVersion {
        RefVersion { number, git_ref: git_ref.into(), approvals, rejections }
    }

    const FULL: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn a_ref_names_a_commit_by_a_prefix_either_way_of_at_least_seven_hex_digits() {
        assert!(ref_matches(FULL, FULL));
        assert!(ref_matches("0123456", FULL), "a short ref, a full SHA asked");
        assert!(ref_matches(FULL, "0123456789A"), "a full ref, a short SHA asked, any case");
        assert!(ref_matches("0123456789ABCDEF", "0123456789abcdef0"));
        assert!(!ref_matches("012345", FULL), "six digits name too many commits");
        assert!(!ref_matches(FULL, "012345"));
        assert!(!ref_matches("0123457", FULL), "another commit");
        assert!(!ref_matches("main", "main"), "a branch is no SHA");
        assert!(!ref_matches("0123456-wip", FULL), "neither is anything else that starts like one");
        assert!(!ref_matches("", FULL));
    }

    #[test]
    fn a_version_is_approved_by_enough_approvals_and_no_rejection() {
        let verdict = decide_ref("web", 1, FULL, &[version(1, "0123456", 1, 0)], 1);
        assert_eq!(
            verdict,
            RefVerdict {
                version: Some(1),
                approved: true,
                detail: "version 1 of 'web' was approved (1 of 1 approvals)".into()
            }
        );
        let two = decide_ref("web", 1, FULL, &[version(1, FULL, 1, 0)], 2);
        assert!(!two.approved);
        assert_eq!(two.detail, "version 1 of 'web' awaits review (1 of 2 approvals)");
        let rejected = decide_ref("web", 2, FULL, &[version(1, FULL, 1, 1)], 2);
        assert_eq!((rejected.version, rejected.approved), (Some(1), false));
        assert_eq!(rejected.detail, "version 1 of 'web' was rejected");
    }

    #[test]
    fn a_superseded_version_is_not_approved_and_says_by_which() {
        let verdict = decide_ref("web", 3, FULL, &[version(2, FULL, 0, 0)], 1);
        assert_eq!((verdict.version, verdict.approved), (Some(2), false));
        assert_eq!(
            verdict.detail,
            "version 2 of 'web' was superseded by version 3 before it was approved (0 of 1 approvals)"
        );
    }

    #[test]
    fn the_newest_matching_version_decides_and_others_are_passed_over() {
        let versions = [
            version(1, "0123456", 1, 0),
            version(2, "0123456789", 0, 1),
            version(3, "fedcba9876", 1, 0),
            version(4, "main", 1, 0),
        ];
        let verdict = decide_ref("web", 4, FULL, &versions, 1);
        assert_eq!((verdict.version, verdict.approved), (Some(2), false), "{verdict:?}");
        let none = decide_ref("web", 4, "abcdef0", &versions, 1);
        assert_eq!((none.version, none.approved), (None, false));
        assert_eq!(
            none.detail,
            "no version of 'web' has abcdef0 as its ref: it was never submitted for review"
        );
    }
}
