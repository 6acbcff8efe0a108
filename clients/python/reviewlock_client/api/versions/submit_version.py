from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.version import Version
from ...models.version_input import VersionInput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    key: str,
    *,
    body: VersionInput,
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
        "url": "/v1/teams/{team}/artifacts/{key}/versions".format(
            team=quote(str(team), safe=""),
            key=quote(str(key), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Version | None:
    if response.status_code == 201:
        response_201 = Version.from_dict(response.json())

        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Version]:
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
    body: VersionInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Problem | Version]:
    """Submit the next version.

     Accepted as the assignee's revision after a rejection (R5, R6), as a supersede of the version
    under review by its own author, as the start of a new cycle after approval, and never from a
    locked-out author or contributor. The new version is in review.

    Args:
        team (str):
        key (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (VersionInput): A new version of an artifact.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Version]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
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
    *,
    client: AuthenticatedClient,
    body: VersionInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Problem | Version | None:
    """Submit the next version.

     Accepted as the assignee's revision after a rejection (R5, R6), as a supersede of the version
    under review by its own author, as the start of a new cycle after approval, and never from a
    locked-out author or contributor. The new version is in review.

    Args:
        team (str):
        key (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (VersionInput): A new version of an artifact.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Version
    """

    return sync_detailed(
        team=team,
        key=key,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    team: str,
    key: str,
    *,
    client: AuthenticatedClient,
    body: VersionInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Problem | Version]:
    """Submit the next version.

     Accepted as the assignee's revision after a rejection (R5, R6), as a supersede of the version
    under review by its own author, as the start of a new cycle after approval, and never from a
    locked-out author or contributor. The new version is in review.

    Args:
        team (str):
        key (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (VersionInput): A new version of an artifact.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Version]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    key: str,
    *,
    client: AuthenticatedClient,
    body: VersionInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Problem | Version | None:
    """Submit the next version.

     Accepted as the assignee's revision after a rejection (R5, R6), as a supersede of the version
    under review by its own author, as the start of a new cycle after approval, and never from a
    locked-out author or contributor. The new version is in review.

    Args:
        team (str):
        key (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (VersionInput): A new version of an artifact.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Version
    """

    return (
        await asyncio_detailed(
            team=team,
            key=key,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            if_match=if_match,
        )
    ).parsed
