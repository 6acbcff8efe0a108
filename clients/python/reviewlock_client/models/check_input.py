from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CheckInput")


@_attrs_define
class CheckInput:
    """May this agent write this artifact, or these files?

    Attributes:
        agent (None | str | Unset): The agent about to write, by its id. Give this or `alias`, not both. Without either,
            an
            `agent` token asks for its own agent, and any other token for a writer reviewlock cannot
            name: refused wherever an active lockout covers the path (`unknown_writer`), allowed
            elsewhere (R16). Example: runtime-eng.
        alias (None | str | Unset): The agent about to write, by its id or one of its `aliases` (R16): a runtime's
            subagent
            name, a commit author's e-mail address. A name that names no agent of the team is a
            writer reviewlock cannot name (see `agent`), never the token's agent. Example: general-purpose.
        artifact (None | str | Unset): An artifact key: would a version authored by the agent be accepted now? Example:
            auth.
        min_seq (int | None | Unset): Answer from the team's state at or past this event seq: the `Reviewlock-Seq` a
            write
            answered (a rejection through another replica, say). A replica whose in-memory index has
            not yet applied it waits briefly for it, then asks the database; without it, a check may
            miss a write committed on another replica within the last notification delay (see
            docs/index.md). Example: 42.
        paths (list[str] | None | Unset): File paths, repository-relative with `/` separators, matched against the
            `paths` globs of
            the artifacts the agent may not write: those it is locked out of (`agent_locked_out`) or,
            for an agent that may not author, every artifact (`not_an_author`). A file no artifact
            covers is allowed. Normalised first (R15): `./src//web/x/../a.rs` is `src/web/a.rs`. A
            path that cannot be placed in the repository (absolute, a `..` leaving it, a backslash, a
            control character) is refused with 422 `invalid_field` naming it (`paths[1]`): send it
            relative to the repository root. At most 256 paths of at most 1000 bytes each. Example: ['src/auth/login.rs'].
    """

    agent: None | str | Unset = UNSET
    alias: None | str | Unset = UNSET
    artifact: None | str | Unset = UNSET
    min_seq: int | None | Unset = UNSET
    paths: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        agent: None | str | Unset
        if isinstance(self.agent, Unset):
            agent = UNSET
        else:
            agent = self.agent

        alias: None | str | Unset
        if isinstance(self.alias, Unset):
            alias = UNSET
        else:
            alias = self.alias

        artifact: None | str | Unset
        if isinstance(self.artifact, Unset):
            artifact = UNSET
        else:
            artifact = self.artifact

        min_seq: int | None | Unset
        if isinstance(self.min_seq, Unset):
            min_seq = UNSET
        else:
            min_seq = self.min_seq

        paths: list[str] | None | Unset
        if isinstance(self.paths, Unset):
            paths = UNSET
        elif isinstance(self.paths, list):
            paths = self.paths

        else:
            paths = self.paths

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if agent is not UNSET:
            field_dict["agent"] = agent
        if alias is not UNSET:
            field_dict["alias"] = alias
        if artifact is not UNSET:
            field_dict["artifact"] = artifact
        if min_seq is not UNSET:
            field_dict["min_seq"] = min_seq
        if paths is not UNSET:
            field_dict["paths"] = paths

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_agent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent = _parse_agent(d.pop("agent", UNSET))

        def _parse_alias(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        alias = _parse_alias(d.pop("alias", UNSET))

        def _parse_artifact(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        artifact = _parse_artifact(d.pop("artifact", UNSET))

        def _parse_min_seq(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_seq = _parse_min_seq(d.pop("min_seq", UNSET))

        def _parse_paths(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                paths_type_0 = cast(list[str], data)

                return paths_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        paths = _parse_paths(d.pop("paths", UNSET))

        check_input = cls(
            agent=agent,
            alias=alias,
            artifact=artifact,
            min_seq=min_seq,
            paths=paths,
        )

        return check_input
