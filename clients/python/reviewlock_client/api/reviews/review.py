from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.review_input import ReviewInput
from ...models.review_outcome import ReviewOutcome
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    key: str,
    n: int,
    *,
    body: ReviewInput,
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
        "url": "/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews".format(
            team=quote(str(team), safe=""),
            key=quote(str(key), safe=""),
            n=quote(str(n), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ReviewOutcome | None:
    if response.status_code == 201:
        response_201 = ReviewOutcome.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | ReviewOutcome]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    team: str,
    key: str,
    n: int,
    *,
    client: AuthenticatedClient,
    body: ReviewInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Problem | ReviewOutcome]:
    """Record a verdict on a version.

     Only the current version takes verdicts, from an active reviewer not credited on it (R1, R2). A
    rejection carries a `reason` and a `remedy`, locks out everyone credited on the version for the
    rest of the cycle (R3), and deadlocks the artifact when nobody is left who may revise it (R9);
    an approval with enough approvals closes the cycle and clears its lockouts (R8).

    Args:
        team (str):
        key (str):
        n (int):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (ReviewInput): A verdict on one version (R1–R4).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReviewOutcome]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        n=n,
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
    n: int,
    *,
    client: AuthenticatedClient,
    body: ReviewInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Problem | ReviewOutcome | None:
    """Record a verdict on a version.

     Only the current version takes verdicts, from an active reviewer not credited on it (R1, R2). A
    rejection carries a `reason` and a `remedy`, locks out everyone credited on the version for the
    rest of the cycle (R3), and deadlocks the artifact when nobody is left who may revise it (R9);
    an approval with enough approvals closes the cycle and clears its lockouts (R8).

    Args:
        team (str):
        key (str):
        n (int):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (ReviewInput): A verdict on one version (R1–R4).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReviewOutcome
    """

    return sync_detailed(
        team=team,
        key=key,
        n=n,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    team: str,
    key: str,
    n: int,
    *,
    client: AuthenticatedClient,
    body: ReviewInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Problem | ReviewOutcome]:
    """Record a verdict on a version.

     Only the current version takes verdicts, from an active reviewer not credited on it (R1, R2). A
    rejection carries a `reason` and a `remedy`, locks out everyone credited on the version for the
    rest of the cycle (R3), and deadlocks the artifact when nobody is left who may revise it (R9);
    an approval with enough approvals closes the cycle and clears its lockouts (R8).

    Args:
        team (str):
        key (str):
        n (int):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (ReviewInput): A verdict on one version (R1–R4).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReviewOutcome]
    """

    kwargs = _get_kwargs(
        team=team,
        key=key,
        n=n,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    key: str,
    n: int,
    *,
    client: AuthenticatedClient,
    body: ReviewInput,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Problem | ReviewOutcome | None:
    """Record a verdict on a version.

     Only the current version takes verdicts, from an active reviewer not credited on it (R1, R2). A
    rejection carries a `reason` and a `remedy`, locks out everyone credited on the version for the
    rest of the cycle (R3), and deadlocks the artifact when nobody is left who may revise it (R9);
    an approval with enough approvals closes the cycle and clears its lockouts (R8).

    Args:
        team (str):
        key (str):
        n (int):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (ReviewInput): A verdict on one version (R1–R4).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReviewOutcome
    """

    return (
        await asyncio_detailed(
            team=team,
            key=key,
            n=n,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            if_match=if_match,
        )
    ).parsed
