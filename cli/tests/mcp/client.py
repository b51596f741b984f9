"""An MCP client session against a stdio server, with the PyPI `mcp` 2.x client.

usage: client.py --mode legacy|auto --calls JSON [--edit FROM TO] [--elicit accept|decline]
                 [--discover QUERY ARGUMENTS] (--url URL [--bearer-env VAR] | -- CMD [ARG...])
--bearer-env: send `Authorization: Bearer $VAR` with every request to URL.
--edit: after the first listing, copy FROM over TO, wait for the server's
`notifications/tools/list_changed`, and list again (printed as "relisted").
--elicit: declare the elicitation capability and answer every elicitation this way
(the questions asked are printed as "elicited").
--discover: what an agent does with a catalog served as meta-tools: `search_tools`
with QUERY, `describe_tool` on the first tool found, then `call_tool` on it with the
JSON ARGUMENTS (printed as "discovered": {"search", "describe", "call"}).
--calls is a JSON list of [tool, arguments]. Prints one JSON object:
{"protocolVersion", "serverInfo", "pages", "tools", "calls": [result...],
"progress": [[[progress, message]...] per call]} (each call asks for progress).
Every page of `tools/list` is followed; the client library itself validates each
`structuredContent` against the tool's `outputSchema` (and raises if it does not fit).
"""
import argparse, json, os, sys

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import ElicitResult


def dump(m):
    return m.model_dump(mode="json", by_alias=True, exclude_none=True)


async def session(ns):
    env = {k: v for k, v in os.environ.items() if k.startswith(("TRACKER_", "SHOP_", "PATH", "HOME"))}
    params = ns.url or StdioServerParameters(command=ns.cmd[0], args=ns.cmd[1:], env=env)
    if ns.url and ns.bearer_env:
        # The endpoint's bearer token, sent on every request.
        from mcp.client.streamable_http import streamable_http_client
        import httpx2

        token = os.environ[ns.bearer_env]
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        params = streamable_http_client(ns.url, http_client=client)
    out = {"calls": []}
    changed = anyio.Event()

    async def on_message(message):
        if type(message).__name__ == "ToolListChangedNotification" or (
            getattr(getattr(message, "root", None), "method", None) == "notifications/tools/list_changed"
        ):
            changed.set()

    out["elicited"] = []

    async def on_elicit(context, params):
        out["elicited"].append(dump(params))
        if ns.elicit == "accept":
            return ElicitResult(action="accept", content={"approve": True})
        return ElicitResult(action="decline")

    extra = {"elicitation_callback": on_elicit} if ns.elicit else {}
    async with Client(params, mode=ns.mode, message_handler=on_message, **extra) as c:
        out["protocolVersion"] = c.protocol_version
        out["serverInfo"] = dump(c.server_info) if c.server_info else None
        tools, cursor, pages = [], None, 0
        while True:
            page = await c.list_tools(cursor=cursor) if cursor else await c.list_tools()
            pages += 1
            tools += [dump(t) for t in page.tools]
            cursor = page.next_cursor
            if not cursor:
                break
        out["pages"] = pages
        out["tools"] = tools
        out["progress"] = []
        for name, arguments in json.loads(ns.calls):
            seen = []

            async def on_progress(progress, total, message, seen=seen):
                seen.append([progress, message])

            result = await c.call_tool(name, arguments, progress_callback=on_progress)
            out["calls"].append(dump(result))
            out["progress"].append(seen)
        if ns.discover:
            query, arguments = ns.discover
            found = dump(await c.call_tool("search_tools", {"query": query, "limit": 5}))
            first = found["structuredContent"]["tools"][0]["name"]
            described = dump(await c.call_tool("describe_tool", {"name": first}))
            called = dump(await c.call_tool(
                "call_tool", {"name": first, "arguments": json.loads(arguments)}))
            out["discovered"] = {"search": found, "describe": described, "call": called}
        if ns.edit:
            source, target = ns.edit
            with open(source) as f, open(target, "w") as t:
                t.write(f.read())
            with anyio.fail_after(15):
                await changed.wait()
            page = await c.list_tools()
            out["relisted"] = [t.name for t in page.tools]
    print(json.dumps(out))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="legacy")
    p.add_argument("--calls", default="[]")
    p.add_argument("--url")
    p.add_argument("--bearer-env")
    p.add_argument("--edit", nargs=2)
    p.add_argument("--elicit", choices=["accept", "decline"])
    p.add_argument("--discover", nargs=2)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    ns = p.parse_args()
    if ns.cmd and ns.cmd[0] == "--":
        ns.cmd = ns.cmd[1:]
    anyio.run(session, ns)
