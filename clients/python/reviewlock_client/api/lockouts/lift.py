from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.artifact_status import ArtifactStatus
from ...models.lift_input import LiftInput
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    key: str,
    agent: str,
    *,
    body: LiftInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/teams/{team}/artifacts/{key}/lockouts/{agent}/lift".format(
            team=quote(str(team), safe=""),
            key=quote(str(key), safe=""),
            agent=quote(str(agent), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ArtifactStatus | Problem | None:
    if response.status_code == 200:
        response_200 = ArtifactStatus.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ArtifactStatus | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    team: str,
    key: str,
    agent: str,
    *,
    client: AuthenticatedClient,
    body: LiftInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[ArtifactStatus | Problem]:
    """Lift one agent's lockout early.

     Only a `user` token may, one agent at a time, with a mandatory `reason`; it is recorded as its own
    event (`lockout.lifted`). Coordinators cannot clear lockouts (R8, R10).

    Args:
        team (str):
        key (str):
        agent (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (LiftInput): The user's early lift of one lockout (R10).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ArtifactStatus | Problem]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        agent=agent,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    team: str,
    key: str,
    agent: str,
    *,
    client: AuthenticatedClient,
    body: LiftInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> ArtifactStatus | Problem | None:
    """Lift one agent's lockout early.

     Only a `user` token may, one agent at a time, with a mandatory `reason`; it is recorded as its own
    event (`lockout.lifted`). Coordinators cannot clear lockouts (R8, R10).

    Args:
        team (str):
        key (str):
        agent (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (LiftInput): The user's early lift of one lockout (R10).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ArtifactStatus | Problem
    """

    return sync_detailed(
        team=team,
        key=key,
        agent=agent,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    team: str,
    key: str,
    agent: str,
    *,
    client: AuthenticatedClient,
    body: LiftInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[ArtifactStatus | Problem]:
    """Lift one agent's lockout early.

     Only a `user` token may, one agent at a time, with a mandatory `reason`; it is recorded as its own
    event (`lockout.lifted`). Coordinators cannot clear lockouts (R8, R10).

    Args:
        team (str):
        key (str):
        agent (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (LiftInput): The user's early lift of one lockout (R10).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ArtifactStatus | Problem]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        agent=agent,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    key: str,
    agent: str,
    *,
    client: AuthenticatedClient,
    body: LiftInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> ArtifactStatus | Problem | None:
    """Lift one agent's lockout early.

     Only a `user` token may, one agent at a time, with a mandatory `reason`; it is recorded as its own
    event (`lockout.lifted`). Coordinators cannot clear lockouts (R8, R10).

    Args:
        team (str):
        key (str):
        agent (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (LiftInput): The user's early lift of one lockout (R10).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ArtifactStatus | Problem
    """

    return (
        await asyncio_detailed(
            team=team,
            key=key,
            agent=agent,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            if_match=if_match,
        )
    ).parsed
