from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.rotated_secret import RotatedSecret
from ...models.rotation_input import RotationInput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    id: UUID,
    *,
    body: None | RotationInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/teams/{team}/webhooks/{id}/rotate".format(
            team=quote(str(team), safe=""),
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, RotationInput):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RotatedSecret | None:
    if response.status_code == 200:
        response_200 = RotatedSecret.from_dict(response.json())

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
) -> Response[Problem | RotatedSecret]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    team: str,
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RotationInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RotatedSecret]:
    """Rotate a webhook's signing secret.

     The new secret is shown only in this response. The previous one goes on signing beside it
    (two signatures in `webhook-signature`) for `grace_seconds`, 24 hours by default, so the
    receiver can switch without losing an event. Admin.

    Args:
        team (str):
        id (UUID):
        idempotency_key (str | Unset):
        body (None | RotationInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RotatedSecret]
    """

    kwargs = _get_kwargs(
        team=team,
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    team: str,
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RotationInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RotatedSecret | None:
    """Rotate a webhook's signing secret.

     The new secret is shown only in this response. The previous one goes on signing beside it
    (two signatures in `webhook-signature`) for `grace_seconds`, 24 hours by default, so the
    receiver can switch without losing an event. Admin.

    Args:
        team (str):
        id (UUID):
        idempotency_key (str | Unset):
        body (None | RotationInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RotatedSecret
    """

    return sync_detailed(
        team=team,
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    team: str,
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RotationInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RotatedSecret]:
    """Rotate a webhook's signing secret.

     The new secret is shown only in this response. The previous one goes on signing beside it
    (two signatures in `webhook-signature`) for `grace_seconds`, 24 hours by default, so the
    receiver can switch without losing an event. Admin.

    Args:
        team (str):
        id (UUID):
        idempotency_key (str | Unset):
        body (None | RotationInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RotatedSecret]
    """

    kwargs = _get_kwargs(
        team=team,
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RotationInput | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RotatedSecret | None:
    """Rotate a webhook's signing secret.

     The new secret is shown only in this response. The previous one goes on signing beside it
    (two signatures in `webhook-signature`) for `grace_seconds`, 24 hours by default, so the
    receiver can switch without losing an event. Admin.

    Args:
        team (str):
        id (UUID):
        idempotency_key (str | Unset):
        body (None | RotationInput | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RotatedSecret
    """

    return (
        await asyncio_detailed(
            team=team,
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
