from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_page import EventPage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    *,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/teams/{team}/events".format(
            team=quote(str(team), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventPage | Problem]:
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
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[EventPage | Problem]:
    """The team's events in seq order (R12). Poll with `after` = the last `next_after`: an event is
    served only once every event before it has committed, so a poller never skips one.

     With `wait` > 0 this is a long poll: it answers as soon as an event after `after` exists,
    or with an empty page after `wait` seconds. Idle long polls cost the database nothing per
    second: one `LISTEN` per process wakes them when their team's events commit, and one read
    per team serves all of them. A long poll whose token is revoked (while it waits, or within
    the token cache's TTL on another replica) answers 401 `unauthenticated` rather than a page
    holding the revocation: a revoked token reads nothing more.

    With `wait` = 0 (the default) the page carries an `ETag` that changes with the team's last
    seq, and `If-None-Match` answers 304. A long poll (`wait` > 0) carries no ETag and ignores
    `If-None-Match`: it answers only when there is something new, or an empty page.

    Args:
        team (str):
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        team=team,
        after=after,
        limit=limit,
        wait=wait,
        if_none_match=if_none_match,
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
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> EventPage | Problem | None:
    """The team's events in seq order (R12). Poll with `after` = the last `next_after`: an event is
    served only once every event before it has committed, so a poller never skips one.

     With `wait` > 0 this is a long poll: it answers as soon as an event after `after` exists,
    or with an empty page after `wait` seconds. Idle long polls cost the database nothing per
    second: one `LISTEN` per process wakes them when their team's events commit, and one read
    per team serves all of them. A long poll whose token is revoked (while it waits, or within
    the token cache's TTL on another replica) answers 401 `unauthenticated` rather than a page
    holding the revocation: a revoked token reads nothing more.

    With `wait` = 0 (the default) the page carries an `ETag` that changes with the team's last
    seq, and `If-None-Match` answers 304. A long poll (`wait` > 0) carries no ETag and ignores
    `If-None-Match`: it answers only when there is something new, or an empty page.

    Args:
        team (str):
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return sync_detailed(
        team=team,
        client=client,
        after=after,
        limit=limit,
        wait=wait,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    team: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[EventPage | Problem]:
    """The team's events in seq order (R12). Poll with `after` = the last `next_after`: an event is
    served only once every event before it has committed, so a poller never skips one.

     With `wait` > 0 this is a long poll: it answers as soon as an event after `after` exists,
    or with an empty page after `wait` seconds. Idle long polls cost the database nothing per
    second: one `LISTEN` per process wakes them when their team's events commit, and one read
    per team serves all of them. A long poll whose token is revoked (while it waits, or within
    the token cache's TTL on another replica) answers 401 `unauthenticated` rather than a page
    holding the revocation: a revoked token reads nothing more.

    With `wait` = 0 (the default) the page carries an `ETag` that changes with the team's last
    seq, and `If-None-Match` answers 304. A long poll (`wait` > 0) carries no ETag and ignores
    `If-None-Match`: it answers only when there is something new, or an empty page.

    Args:
        team (str):
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        team=team,
        after=after,
        limit=limit,
        wait=wait,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> EventPage | Problem | None:
    """The team's events in seq order (R12). Poll with `after` = the last `next_after`: an event is
    served only once every event before it has committed, so a poller never skips one.

     With `wait` > 0 this is a long poll: it answers as soon as an event after `after` exists,
    or with an empty page after `wait` seconds. Idle long polls cost the database nothing per
    second: one `LISTEN` per process wakes them when their team's events commit, and one read
    per team serves all of them. A long poll whose token is revoked (while it waits, or within
    the token cache's TTL on another replica) answers 401 `unauthenticated` rather than a page
    holding the revocation: a revoked token reads nothing more.

    With `wait` = 0 (the default) the page carries an `ETag` that changes with the team's last
    seq, and `If-None-Match` answers 304. A long poll (`wait` > 0) carries no ETag and ignores
    `If-None-Match`: it answers only when there is something new, or an empty page.

    Args:
        team (str):
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return (
        await asyncio_detailed(
            team=team,
            client=client,
            after=after,
            limit=limit,
            wait=wait,
            if_none_match=if_none_match,
        )
    ).parsed
