from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    *,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = str(last_event_id)

    params: dict[str, Any] = {}

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/teams/{team}/events/stream".format(
            team=quote(str(team), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    team: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Response[Problem | str]:
    """The team's events as Server-Sent Events, in seq order, as they commit. Each is sent as
    `id: <seq>`, `event: <type>` and `data: <the event as in GET /events>`; a comment line
    (`: keep-alive`) every 15 seconds keeps an idle connection open.

     The stream starts after the `Last-Event-ID` header, which an `EventSource` sends when it
    reconnects, so it resumes without a gap or a repeat; else after `after`; else with the next
    event to commit (nothing already in the log). The stream ends when the token that opened it
    is revoked (before sending its revocation), when the server shuts down, or when the log
    cannot be read: reconnect with `Last-Event-ID` to resume.

    Args:
        team (str):
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        team=team,
        after=after,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    team: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Problem | str | None:
    """The team's events as Server-Sent Events, in seq order, as they commit. Each is sent as
    `id: <seq>`, `event: <type>` and `data: <the event as in GET /events>`; a comment line
    (`: keep-alive`) every 15 seconds keeps an idle connection open.

     The stream starts after the `Last-Event-ID` header, which an `EventSource` sends when it
    reconnects, so it resumes without a gap or a repeat; else after `after`; else with the next
    event to commit (nothing already in the log). The stream ends when the token that opened it
    is revoked (before sending its revocation), when the server shuts down, or when the log
    cannot be read: reconnect with `Last-Event-ID` to resume.

    Args:
        team (str):
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        team=team,
        client=client,
        after=after,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    team: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Response[Problem | str]:
    """The team's events as Server-Sent Events, in seq order, as they commit. Each is sent as
    `id: <seq>`, `event: <type>` and `data: <the event as in GET /events>`; a comment line
    (`: keep-alive`) every 15 seconds keeps an idle connection open.

     The stream starts after the `Last-Event-ID` header, which an `EventSource` sends when it
    reconnects, so it resumes without a gap or a repeat; else after `after`; else with the next
    event to commit (nothing already in the log). The stream ends when the token that opened it
    is revoked (before sending its revocation), when the server shuts down, or when the log
    cannot be read: reconnect with `Last-Event-ID` to resume.

    Args:
        team (str):
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        team=team,
        after=after,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Problem | str | None:
    """The team's events as Server-Sent Events, in seq order, as they commit. Each is sent as
    `id: <seq>`, `event: <type>` and `data: <the event as in GET /events>`; a comment line
    (`: keep-alive`) every 15 seconds keeps an idle connection open.

     The stream starts after the `Last-Event-ID` header, which an `EventSource` sends when it
    reconnects, so it resumes without a gap or a repeat; else after `after`; else with the next
    event to commit (nothing already in the log). The stream ends when the token that opened it
    is revoked (before sending its revocation), when the server shuts down, or when the log
    cannot be read: reconnect with `Last-Event-ID` to resume.

    Args:
        team (str):
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            team=team,
            client=client,
            after=after,
            last_event_id=last_event_id,
        )
    ).parsed
