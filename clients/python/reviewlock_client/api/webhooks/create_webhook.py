from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.created_webhook import CreatedWebhook
from ...models.problem import Problem
from ...models.webhook import Webhook
from ...models.webhook_input import WebhookInput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    team: str,
    *,
    body: WebhookInput,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/teams/{team}/webhooks".format(
            team=quote(str(team), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatedWebhook | Problem | Webhook | None:
    if response.status_code == 200:
        response_200 = Webhook.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CreatedWebhook.from_dict(response.json())

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
) -> Response[CreatedWebhook | Problem | Webhook]:
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
    body: WebhookInput,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreatedWebhook | Problem | Webhook]:
    """Subscribe a URL to the team's events.

     Events are POSTed as Standard Webhooks: signed with the secret in this response, which is
    shown only here. Deliveries start at the next event (or after `after`, for a backfill), in
    seq order, at least once, retried on failure (docs/webhooks.md). Admin.

    Args:
        team (str):
        idempotency_key (str | Unset):
        body (WebhookInput): A new webhook subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhook | Problem | Webhook]
    """

    kwargs = _get_kwargs(
        team=team,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    team: str,
    *,
    client: AuthenticatedClient,
    body: WebhookInput,
    idempotency_key: str | Unset = UNSET,
) -> CreatedWebhook | Problem | Webhook | None:
    """Subscribe a URL to the team's events.

     Events are POSTed as Standard Webhooks: signed with the secret in this response, which is
    shown only here. Deliveries start at the next event (or after `after`, for a backfill), in
    seq order, at least once, retried on failure (docs/webhooks.md). Admin.

    Args:
        team (str):
        idempotency_key (str | Unset):
        body (WebhookInput): A new webhook subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhook | Problem | Webhook
    """

    return sync_detailed(
        team=team,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    team: str,
    *,
    client: AuthenticatedClient,
    body: WebhookInput,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreatedWebhook | Problem | Webhook]:
    """Subscribe a URL to the team's events.

     Events are POSTed as Standard Webhooks: signed with the secret in this response, which is
    shown only here. Deliveries start at the next event (or after `after`, for a backfill), in
    seq order, at least once, retried on failure (docs/webhooks.md). Admin.

    Args:
        team (str):
        idempotency_key (str | Unset):
        body (WebhookInput): A new webhook subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhook | Problem | Webhook]
    """

    kwargs = _get_kwargs(
        team=team,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    team: str,
    *,
    client: AuthenticatedClient,
    body: WebhookInput,
    idempotency_key: str | Unset = UNSET,
) -> CreatedWebhook | Problem | Webhook | None:
    """Subscribe a URL to the team's events.

     Events are POSTed as Standard Webhooks: signed with the secret in this response, which is
    shown only here. Deliveries start at the next event (or after `after`, for a backfill), in
    seq order, at least once, retried on failure (docs/webhooks.md). Admin.

    Args:
        team (str):
        idempotency_key (str | Unset):
        body (WebhookInput): A new webhook subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhook | Problem | Webhook
    """

    return (
        await asyncio_detailed(
            team=team,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
