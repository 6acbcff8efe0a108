"""The official MCP Python SDK against reviewlock's /mcp: list the tools, call one, with a bearer
token over streamable HTTP. Run by tests/mcp.rs with REVIEWLOCK_URL and REVIEWLOCK_TOKEN."""

import asyncio
import os

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


async def main() -> None:
    url = os.environ["REVIEWLOCK_URL"] + "/mcp"
    headers = {"Authorization": "Bearer " + os.environ["REVIEWLOCK_TOKEN"]}
    async with streamablehttp_client(url, headers=headers) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            result = await session.call_tool("get_artifact", {"key": "auth"})
            assert not result.isError, result.content
            print(f"{len(tools)} tools; get_artifact auth: {result.structuredContent['state']}")


asyncio.run(main())
