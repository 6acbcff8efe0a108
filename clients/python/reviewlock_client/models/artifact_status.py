from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.state import State, check_state

if TYPE_CHECKING:
    from ..models.assignment import Assignment
    from ..models.escalation import Escalation
    from ..models.lockout import Lockout
    from ..models.pending_remedy import PendingRemedy
    from ..models.version import Version


T = TypeVar("T", bound="ArtifactStatus")


@_attrs_define
class ArtifactStatus:
    """An artifact's status (PROTOCOL §5).

    Attributes:
        assignment (Assignment | None):
        created_at (datetime.datetime):
        current_version (Version):
        cycle (int): The revision cycle: it starts at 1 and a version after approval starts the next. Example: 1.
        eligible_agents (list[str]): Agents who may be assigned the next revision now. Example: ['quality-eng',
            'revision-eng'].
        escalation (Escalation | None):
        key (str):  Example: auth.
        kind (None | str):  Example: module.
        lockouts (list[Lockout]): The active lockouts.
        original_author (str):  Example: runtime-eng.
        paths (list[str]):  Example: ['src/auth/**'].
        pending_remedy (None | PendingRemedy):
        revision (int): Increases on every change of the artifact. Example: 3.
        state (State): The states of an artifact (PROTOCOL §3).
        title (str):  Example: Authentication module.
        updated_at (datetime.datetime):
    """

    assignment: Assignment | None
    created_at: datetime.datetime
    current_version: Version
    cycle: int
    eligible_agents: list[str]
    escalation: Escalation | None
    key: str
    kind: None | str
    lockouts: list[Lockout]
    original_author: str
    paths: list[str]
    pending_remedy: None | PendingRemedy
    revision: int
    state: State
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.assignment import Assignment  # noqa: PLC0415
        from ..models.escalation import Escalation  # noqa: PLC0415
        from ..models.pending_remedy import PendingRemedy  # noqa: PLC0415

        assignment: dict[str, Any] | None
        if isinstance(self.assignment, Assignment):
            assignment = self.assignment.to_dict()
        else:
            assignment = self.assignment

        created_at = self.created_at.isoformat()

        current_version = self.current_version.to_dict()

        cycle = self.cycle

        eligible_agents = self.eligible_agents

        escalation: dict[str, Any] | None
        if isinstance(self.escalation, Escalation):
            escalation = self.escalation.to_dict()
        else:
            escalation = self.escalation

        key = self.key

        kind: None | str
        kind = self.kind

        lockouts = []
        for lockouts_item_data in self.lockouts:
            lockouts_item = lockouts_item_data.to_dict()
            lockouts.append(lockouts_item)

        original_author = self.original_author

        paths = self.paths

        pending_remedy: dict[str, Any] | None
        if isinstance(self.pending_remedy, PendingRemedy):
            pending_remedy = self.pending_remedy.to_dict()
        else:
            pending_remedy = self.pending_remedy

        revision = self.revision

        state: str = self.state

        title = self.title

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "assignment": assignment,
                "created_at": created_at,
                "current_version": current_version,
                "cycle": cycle,
                "eligible_agents": eligible_agents,
                "escalation": escalation,
                "key": key,
                "kind": kind,
                "lockouts": lockouts,
                "original_author": original_author,
                "paths": paths,
                "pending_remedy": pending_remedy,
                "revision": revision,
                "state": state,
                "title": title,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assignment import Assignment  # noqa: PLC0415
        from ..models.escalation import Escalation  # noqa: PLC0415
        from ..models.lockout import Lockout  # noqa: PLC0415
        from ..models.pending_remedy import PendingRemedy  # noqa: PLC0415
        from ..models.version import Version  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_assignment(data: object) -> Assignment | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                assignment_type_0 = Assignment.from_dict(data)

                return assignment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Assignment | None, data)

        assignment = _parse_assignment(d.pop("assignment"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        current_version = Version.from_dict(d.pop("current_version"))

        cycle = d.pop("cycle")

        eligible_agents = cast(list[str], d.pop("eligible_agents"))

        def _parse_escalation(data: object) -> Escalation | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                escalation_type_0 = Escalation.from_dict(data)

                return escalation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Escalation | None, data)

        escalation = _parse_escalation(d.pop("escalation"))

        key = d.pop("key")

        def _parse_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kind = _parse_kind(d.pop("kind"))

        lockouts = []
        _lockouts = d.pop("lockouts")
        for lockouts_item_data in _lockouts:
            lockouts_item = Lockout.from_dict(lockouts_item_data)

            lockouts.append(lockouts_item)

        original_author = d.pop("original_author")

        paths = cast(list[str], d.pop("paths"))

        def _parse_pending_remedy(data: object) -> None | PendingRemedy:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_remedy_type_0 = PendingRemedy.from_dict(data)

                return pending_remedy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PendingRemedy, data)

        pending_remedy = _parse_pending_remedy(d.pop("pending_remedy"))

        revision = d.pop("revision")

        state = check_state(d.pop("state"))

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        artifact_status = cls(
            assignment=assignment,
            created_at=created_at,
            current_version=current_version,
            cycle=cycle,
            eligible_agents=eligible_agents,
            escalation=escalation,
            key=key,
            kind=kind,
            lockouts=lockouts,
            original_author=original_author,
            paths=paths,
            pending_remedy=pending_remedy,
            revision=revision,
            state=state,
            title=title,
            updated_at=updated_at,
        )

        artifact_status.additional_properties = d
        return artifact_status

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
