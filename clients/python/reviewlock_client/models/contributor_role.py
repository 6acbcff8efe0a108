from typing import Literal

ContributorRole = Literal["advisor", "co_author", "pair"]

CONTRIBUTOR_ROLE_VALUES: set[ContributorRole] = {
    "advisor",
    "co_author",
    "pair",
}


def check_contributor_role(value: str) -> ContributorRole:
    if value in CONTRIBUTOR_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONTRIBUTOR_ROLE_VALUES!r}")
