from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.artifact_status import ArtifactStatus
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    key: str,
    *,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/teams/{team}/artifacts/{key}".format(
            team=quote(str(team), safe=""),
            key=quote(str(key), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ArtifactStatus | Problem | None:
    if response.status_code == 200:
        response_200 = ArtifactStatus.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        return None

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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

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
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> Response[ArtifactStatus | Problem]:
    """The artifact's status.

     Its state, current version with its reviews, active lockouts, assignment, pending remedy, the
    agents eligible to revise it and any open escalation, as one snapshot. The `ETag` changes
    whenever any of it would: send it as `If-None-Match` to poll cheaply (304), or as `If-Match` on
    a write to refuse it if the artifact changed since (412).

    Args:
        team (str):
        key (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ArtifactStatus | Problem]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    team: str,
    key: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> ArtifactStatus | Problem | None:
    """The artifact's status.

     Its state, current version with its reviews, active lockouts, assignment, pending remedy, the
    agents eligible to revise it and any open escalation, as one snapshot. The `ETag` changes
    whenever any of it would: send it as `If-None-Match` to poll cheaply (304), or as `If-Match` on
    a write to refuse it if the artifact changed since (412).

    Args:
        team (str):
        key (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ArtifactStatus | Problem
    """

    return sync_detailed(
        team=team,
        key=key,
        client=client,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    team: str,
    key: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> Response[ArtifactStatus | Problem]:
    """The artifact's status.

     Its state, current version with its reviews, active lockouts, assignment, pending remedy, the
    agents eligible to revise it and any open escalation, as one snapshot. The `ETag` changes
    whenever any of it would: send it as `If-None-Match` to poll cheaply (304), or as `If-Match` on
    a write to refuse it if the artifact changed since (412).

    Args:
        team (str):
        key (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ArtifactStatus | Problem]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    key: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> ArtifactStatus | Problem | None:
    """The artifact's status.

     Its state, current version with its reviews, active lockouts, assignment, pending remedy, the
    agents eligible to revise it and any open escalation, as one snapshot. The `ETag` changes
    whenever any of it would: send it as `If-None-Match` to poll cheaply (304), or as `If-Match` on
    a write to refuse it if the artifact changed since (412).

    Args:
        team (str):
        key (str):
        if_none_match (str | Unset):

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
            client=client,
            if_none_match=if_none_match,
        )
    ).parsed
