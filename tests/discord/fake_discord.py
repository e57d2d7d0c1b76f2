"""A fake Discord: REST (aiohttp) and gateway (websocket) on 127.0.0.1 with the real payload
shapes, so the real discord.py client can run against it through Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY (nothing else patched)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 900000000000000001
GUILD_ID = 900000000000000010
CHANNEL_ID = 900000000000000020
THREAD_ID = 900000000000000030
BOT_ID = 900000000000000002
JOINED = "2024-01-01T00:00:00+00:00"

BOT_USER = {
    "id": str(BOT_ID),
    "username": "wargame",
    "discriminator": "0",
    "global_name": "Wargame",
    "avatar": None,
    "bot": True,
    "flags": 0,
}


def user(uid: int, name: str) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name.lower(),
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
    }


# Discord's locale keys (docs: reference#locales).
_LOCALES = "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs"
LOCALES = frozenset((_LOCALES + " el bg ru uk hi th zh-CN ja zh-TW ko").split(" "))
SUB, GROUP, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10


def discord_name_ok(name: object) -> bool:
    """Discord's `^[-_'\\p{L}\\p{N}]{1,32}$` for chat-input names, lowercase where it can be."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= 32
        and all(c in "-_'" or unicodedata.category(c)[0] in "LN" for c in name)
        and name == name.lower()
    )


MAX_COMMAND_SIZE = 8000  # characters per top-level command, everything in it


def command_problems(commands: Any, sizes: dict[str, int] | None = None) -> list[str]:
    """What Discord's API refuses in a bulk overwrite of chat-input commands (docs:
    interactions/application-commands): names, lengths, counts, nesting, option order,
    localizations, and 8,000 characters per command counting each field's longest
    localization (each command's count goes into `sizes` when given)."""
    problems: list[str] = []
    if not isinstance(commands, list) or len(commands) > 100:
        return ["not a list of at most 100 commands"]

    def localized(
        entry: dict[str, Any], field: str, where: str, check: Callable[[Any], bool]
    ) -> int:
        values = [entry.get(field, "")]
        local = entry.get(f"{field}_localizations") or {}
        for locale, value in local.items():
            if locale not in LOCALES:
                problems.append(f"{where}: unknown locale {locale!r}")
            values.append(value)
        for value in values:
            if not check(value):
                problems.append(f"{where}: bad {field} {value!r}")
        return max(len(str(v)) for v in values)

    def described(text: object) -> bool:
        return isinstance(text, str) and 1 <= len(text) <= 100

    def unique(entries: list[dict[str, Any]], where: str, options: bool) -> None:
        defaults = [e.get("name") for e in entries]
        if len(set(defaults)) != len(defaults):
            problems.append(f"{where}: a name used twice")
        per_locale: dict[str, list[Any]] = {}
        for entry in entries:
            for locale, value in (entry.get("name_localizations") or {}).items():
                if value == entry.get("name"):
                    continue  # identical to the default: ignored
                per_locale.setdefault(locale, []).append(value)
                if options and value in defaults:
                    problems.append(f"{where}: localized name {value!r} is another's name")
        for locale, values in per_locale.items():
            if len(set(values)) != len(values):
                problems.append(f"{where}: a {locale} name used twice")

    def entry_size(entry: dict[str, Any], where: str) -> int:
        total = localized(entry, "name", where, discord_name_ok)
        total += localized(entry, "description", where, described)
        choices = entry.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{where}: {len(choices)} choices")
        if choices and entry.get("autocomplete"):
            problems.append(f"{where}: choices and autocomplete")
        if choices and entry.get("type") not in (STRING, INTEGER, NUMBER):
            problems.append(f"{where}: choices on type {entry.get('type')}")
        for choice in choices:
            total += localized(choice, "name", where, described)
            value = choice.get("value")
            if entry.get("type") == STRING and not (isinstance(value, str) and len(value) <= 100):
                problems.append(f"{where}: choice value {value!r}")
            total += len(str(value))
        if "max_length" in entry and not 1 <= entry["max_length"] <= 6000:
            problems.append(f"{where}: max_length {entry['max_length']}")
        low, high = entry.get("min_value"), entry.get("max_value")
        if low is not None and high is not None and low > high:
            problems.append(f"{where}: min_value above max_value")
        return total

    def options(entries: list[dict[str, Any]], where: str, depth: int) -> int:
        if len(entries) > 25:
            problems.append(f"{where}: {len(entries)} options")
        kinds = {e.get("type") for e in entries}
        nested = kinds & {SUB, GROUP}
        if nested and kinds - {SUB, GROUP}:
            problems.append(f"{where}: subcommands mixed with options")
        if GROUP in kinds and depth > 0:
            problems.append(f"{where}: a subcommand group inside a group")
        if nested and depth > 1:
            problems.append(f"{where}: a subcommand inside a subcommand")
        unique(entries, where, options=not nested)
        required = [bool(e.get("required")) for e in entries if e.get("type") not in (SUB, GROUP)]
        if required != sorted(required, reverse=True):
            problems.append(f"{where}: an optional option before a required one")
        total = 0
        for entry in entries:
            here = f"{where} {entry.get('name')}"
            total += entry_size(entry, here)
            if entry.get("type") in (SUB, GROUP):
                total += options(entry.get("options") or [], here, depth + 1)
            elif entry.get("options"):
                problems.append(f"{here}: options inside an option")
        return total

    unique(commands, "/", options=False)
    for command in commands:
        where = f"/{command.get('name')}"
        size = entry_size(command, where) + options(command.get("options") or [], where, 0)
        if sizes is not None:
            sizes[str(command.get("name"))] = size
        if size > MAX_COMMAND_SIZE:
            problems.append(f"{where}: {size} characters (Discord allows {MAX_COMMAND_SIZE})")
    return problems


def _json(payload: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord sends it: discord.py checks for a bare application/json."""
    return web.Response(
        body=json.dumps(payload).encode(), status=status, content_type="application/json"
    )


class FakeDiscord:
    def __init__(self, token: str = "fake-bot-token") -> None:
        self.token = token
        self.calls: list[tuple[str, str, Any]] = []  # (method, path, json body)
        self._ids = itertools.count(950000000000000000)
        self._changed = asyncio.Condition()
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.api_url = ""
        self.gateway_url = ""
        self.identified = asyncio.Event()
        self.gateway_token: str | None = None  # set to make the gateway refuse the REST token
        self.identify: dict[str, Any] = {}  # the last IDENTIFY (or RESUME) payload
        self.frames: list[dict[str, Any]] = []  # every dispatched event, replayed on RESUME
        self.resumed = asyncio.Event()  # set when a client has resumed its session
        self.replayed: list[int] = []  # sequence numbers sent again on a RESUME
        self.identifies = 0  # IDENTIFYs received (a new session each)
        # Sharding as Discord does it: each connection's [shard_id, shard_count] from its
        # IDENTIFY; a guild's events go only to the shard (guild_id >> 22) % shard_count.
        self.shard_of: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self.identified_shards: list[tuple[int, int]] = []
        # Fault switch: answer the next RESUME with INVALID_SESSION (not resumable).
        self.invalidate_resume = False
        self.invalidated = 0
        # Fault switch: (path suffix, status, body) served once each to the next matching call.
        self.failures: list[tuple[str, int, dict[str, Any]]] = []
        self.refused: list[list[str]] = []  # the problems of each command list refused
        self.attachments: dict[str, bytes] = {}  # served at /attachments/{id}/{filename}
        self.base_url = ""
        self.deleted: set[str] = set()  # message ids deleted by users: an edit gets 404
        self.pin_refused = False  # the bot lacks Manage Messages: a pin gets 403

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        self.api_url = f"{self.base_url}/api/v10"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- test helpers ----------------------------------------------------------------------

    async def _record(self, method: str, path: str, body: Any) -> None:
        async with self._changed:
            self.calls.append((method, path, body))
            self._changed.notify_all()

    async def wait_for(
        self, where: Callable[[str, str, Any], bool], count: int = 1, timeout: float = 60.0
    ) -> list[tuple[str, str, Any]]:
        # It returns as soon as the calls are there: the timeout only bounds a failure, and is
        # generous because a loaded machine (2 cores, other jobs) can take seconds to answer.
        deadline = time.monotonic() + timeout

        def found() -> list[tuple[str, str, Any]]:
            return [c for c in self.calls if where(*c)]

        async with self._changed:
            while len(found()) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching call; calls: {[c[:2] for c in self.calls]}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
            return found()

    async def callbacks(self, count: int = 1) -> list[Any]:
        found = await self.wait_for(lambda m, p, b: p.endswith("/callback"), count)
        return [body for _, _, body in found]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        frame = {"op": 0, "t": event, "s": self._seq, "d": data}
        self.frames.append(frame)
        guild = data.get("guild_id")
        for ws in self._sockets:
            if guild is not None and not self._serves(ws, int(guild)):
                continue  # another shard's guild
            if not ws.closed:  # a dropped client gets it on RESUME
                await ws.send_str(json.dumps(frame))

    def attachment(self, filename: str, content: bytes) -> dict[str, Any]:
        """An uploaded file as Discord resolves an attachment option (`data.resolved
        .attachments[id]`), served from this fake's CDN path."""
        ident = str(next(self._ids))
        self.attachments[ident] = content
        return {
            "id": ident,
            "filename": filename,
            "size": len(content),
            "url": f"{self.base_url}/attachments/{ident}/{filename}",
            "proxy_url": f"{self.base_url}/attachments/{ident}/{filename}",
            "content_type": "application/octet-stream",
        }

    async def _attachment(self, request: web.Request) -> web.Response:
        content = self.attachments.get(request.match_info["id"])
        if content is None:
            return web.Response(status=404)
        return web.Response(body=content, content_type="application/octet-stream")

    async def drop(self, code: int = 4000) -> None:
        """Fault: the gateway closes every connection (4000: unknown error, resumable)."""
        self.resumed.clear()
        for ws in list(self._sockets):
            await ws.close(code=code)

    def interaction(
        self,
        kind: int,
        data: dict[str, Any],
        *,
        user_id: int = 42,
        name: str = "Ann",
        locale: str = "en-US",
        thread: bool = False,
        thread_id: int = THREAD_ID,
        manage_channels: bool = False,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload; `thread_id` other than THREAD_ID is a thread (forum
        post) the client has never seen in GUILD_CREATE."""
        channel: dict[str, Any] = {
            "id": str(CHANNEL_ID),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": "table",
            "position": 0,
            "permission_overwrites": [],
            "flags": 0,
        }
        if thread:
            channel = {
                "id": str(thread_id),
                "type": 11,
                "guild_id": str(GUILD_ID),
                "name": "campaign",
                "parent_id": str(CHANNEL_ID),
                "owner_id": str(user_id),
                "flags": 0,
                "member_count": 1,
                "message_count": 0,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 60,
                    "archive_timestamp": JOINED,
                    "locked": False,
                },
            }
        return {
            "id": str(next(self._ids)),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": channel["id"],
            "channel": channel,
            "member": {
                "user": user(user_id, name),
                "roles": [],
                "permissions": str(16 if manage_channels else 0),
                "joined_at": JOINED,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "nick": None,
            },
            "token": f"itok{next(self._ids)}",
            "version": 1,
            "locale": locale,
            "guild_locale": "en-US",
            "app_permissions": "0",
            "attachment_size_limit": 10485760,
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0,
        }

    # --- gateway -----------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op in (2, 6):
                    if payload["d"].get("token") != (self.gateway_token or self.token):
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identify = payload["d"]
                    if op == 6 and self.invalidate_resume:  # the session is gone: op 9, d=false
                        self.invalidate_resume = False
                        self.invalidated += 1
                        await ws.send_str(json.dumps({"op": 9, "d": False}))
                        continue
                    if op == 6:  # RESUME: replay what the client missed, then RESUMED
                        for frame in self.frames:
                            if frame["s"] > (payload["d"].get("seq") or 0):
                                self.replayed.append(frame["s"])
                                await ws.send_str(json.dumps(frame))
                        self._seq += 1
                        resumed = {"op": 0, "t": "RESUMED", "s": self._seq, "d": {}}
                        await ws.send_str(json.dumps(resumed))
                        self.resumed.set()
                        continue
                    self.identifies += 1
                    if op == 2 and payload["d"].get("shard"):
                        shard_id, count = payload["d"]["shard"]
                        self.shard_of[ws] = (shard_id, count)
                        self.identified_shards.append((shard_id, count))
                    await self._ready(ws)
                    self.identified.set()
        finally:
            self._sockets.remove(ws)
            self.shard_of.pop(ws, None)
        return ws

    def _serves(self, ws: web.WebSocketResponse, guild_id: int) -> bool:
        """Whether this connection gets the guild's events (always, when not sharded)."""
        shard = self.shard_of.get(ws)
        return shard is None or (guild_id >> 22) % shard[1] == shard[0]

    async def _ready(self, ws: web.WebSocketResponse) -> None:
        self._seq += 1
        ready = {
            "v": 10,
            "user": BOT_USER,
            "guilds": (
                [{"id": str(GUILD_ID), "unavailable": True}] if self._serves(ws, GUILD_ID) else []
            ),
            "session_id": "session" if self.identifies <= 1 else f"session{self.identifies}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
        }
        if ws in self.shard_of:  # a sharded READY says which shard it is
            ready["shard"] = list(self.shard_of[ws])
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self._seq, "d": ready}))
        self._seq += 1
        guild = {
            "id": str(GUILD_ID),
            "name": "Table",
            "icon": None,
            "owner_id": "1",
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": "0",
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "members": [],
            "presences": [],
            "voice_states": [],
            "member_count": 2,
            "large": False,
            "unavailable": False,
            "joined_at": JOINED,
            "system_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "nsfw_level": 0,
            "preferred_locale": "en-US",
            "channels": [
                {
                    "id": str(CHANNEL_ID),
                    "type": 0,
                    "name": "table",
                    "position": 0,
                    "permission_overwrites": [],
                    "flags": 0,
                }
            ],
            "threads": [
                {
                    "id": str(THREAD_ID),
                    "type": 11,
                    "name": "campaign",
                    "parent_id": str(CHANNEL_ID),
                    "owner_id": "42",
                    "flags": 0,
                    "member_count": 1,
                    "message_count": 0,
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 60,
                        "archive_timestamp": JOINED,
                        "locked": False,
                    },
                }
            ],
        }
        if self._serves(ws, GUILD_ID):
            await ws.send_str(
                json.dumps({"op": 0, "t": "GUILD_CREATE", "s": self._seq, "d": guild})
            )

    # --- REST --------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body: Any = None
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            elif request.content_type.startswith("multipart"):
                form = await request.post()
                body = json.loads(str(form.get("payload_json", "{}")))
                body["_files"] = {
                    part.filename: part.file.read()
                    for part in form.values()
                    if isinstance(part, web.FileField)
                }
        auth = request.headers.get("Authorization", "")
        needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
        if needs_auth and auth != f"Bot {self.token}":
            await self._record(request.method, path, body)
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        await self._record(request.method, path, body)
        for i, (suffix, status, payload) in enumerate(self.failures):
            if path.endswith(suffix):
                del self.failures[i]
                via = (
                    {"Via": "1.1 google"} if status == 429 else {}
                )  # a Discord 429, not Cloudflare
                return web.Response(
                    body=json.dumps(payload).encode(),
                    status=status,
                    content_type="application/json",
                    headers=via,
                )
        if path == "/users/@me":
            return _json(BOT_USER)
        if path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APP_ID),
                    "name": "Wargame",
                    "icon": None,
                    "description": "",
                    "rpc_origins": [],
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user(1, "Owner"),
                    "summary": "",
                    "verify_key": "k",
                    "flags": 0,
                    "team": None,
                }
            )
        if path == "/gateway/bot":
            return _json(
                {
                    "url": self.gateway_url,
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if path.endswith("/commands") and request.method == "PUT":
            if problems := command_problems(body):
                self.refused.append(problems)
                errors = {"_errors": [{"code": "INVALID", "message": p} for p in problems[:20]]}
                return _json(
                    {"message": "Invalid Form Body", "code": 50035, "errors": errors}, status=400
                )
            return _json(
                [
                    {**c, "id": str(next(self._ids)), "application_id": str(APP_ID), "version": "1"}
                    for c in body or []
                ]
            )
        if path.endswith("/callback"):
            interaction_id = path.split("/")[2]
            return _json({"interaction": {"id": interaction_id, "type": 2}})
        if path.startswith("/webhooks/"):
            return web.Response(status=204)
        edited = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        if request.method == "PATCH" and edited:
            if edited.group(2) in self.deleted:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            return _json(self._message(edited.group(1), edited.group(2), body))
        if request.method == "PUT" and re.fullmatch(r"/channels/\d+/messages/pins/\d+", path):
            if self.pin_refused:
                return _json({"message": "Missing Permissions", "code": 50013}, status=403)
            return web.Response(status=204)
        if request.method == "POST" and re.fullmatch(r"/channels/\d+/messages", path):
            return _json(self._message(path.split("/")[2], str(next(self._ids)), body))
        return _json({"message": "Unknown", "code": 0}, status=404)

    @staticmethod
    def _message(channel_id: str, message_id: str, body: Any) -> dict[str, Any]:
        """A message of the bot's as Discord returns it after a post or an edit."""
        return {
            "id": message_id,
            "channel_id": channel_id,
            "author": BOT_USER,
            "content": (body or {}).get("content") or "",
            "timestamp": "2026-11-22T10:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": (body or {}).get("embeds") or [],
            "pinned": False,
            "type": 0,
        }
