"""A fake Telegram Bot API server on 127.0.0.1 speaking the real JSON shapes, for running the
real python-telegram-bot Application against it (through its base_url, nothing patched)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import web

BOT_USER = {
    "id": 777,
    "is_bot": True,
    "first_name": "Wargame",
    "username": "WargameBot",
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": True,
}
ADMIN_RIGHTS = {  # every field of a ChatMemberAdministrator the Bot API sends
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
}


# Telegram's limits on what a bot posts (Bot FAQ, "My bot is hitting limits"): at most 20
# messages a minute in one group, about 30 a second overall; over them, HTTP 429 with
# `parameters.retry_after`, the seconds to wait. Private chats tolerate short bursts.
GROUP_LIMIT = (20, 60.0)
GLOBAL_LIMIT = (30, 1.0)
# Methods answered with the Message sent or edited. sendPhoto and editMessageMedia take the
# picture as a multipart upload (kept in the recorded params as {"filename", "content"}; an
# editMessageMedia's `media` JSON names it as attach://<field>).
MESSAGES = (
    "sendMessage",
    "editMessageText",
    "sendDocument",
    "sendPhoto",
    "editMessageMedia",
    "editMessageCaption",
)
POSTING = ("sendMessage", "sendDocument", "sendPhoto")


class FakeBotAPI:
    def __init__(
        self,
        token: str = "123456:TEST-token",
        clock: Callable[[], float] = time.monotonic,
        limits: bool = True,
    ) -> None:
        self.token = token
        self.clock = clock  # the limits' time: a test may drive it (with the adapter's sleep)
        self.limits = limits
        self.limited: list[tuple[str, dict[str, Any]]] = []  # calls answered 429 by the limits
        self._posted: dict[int | None, deque[float]] = {}  # chat (None: all) -> times posted
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.failures: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self.refused: list[tuple[str, dict[str, Any]]] = []  # calls answered by `fail_next`
        self.files: dict[str, bytes] = {}
        self.admins: dict[int, list[int]] = {}
        self._updates: list[dict[str, Any]] = []
        self._update_id = 0
        self._message_id = 1000
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._closing = False
        self.base_url = ""

    # --- server -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._api)
        app.router.add_route("GET", "/file/bot{token}/{path:.*}", self._file)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/bot"

    async def stop(self) -> None:
        async with self._changed:  # release long polls still waiting, like a real shutdown
            self._closing = True
            self._changed.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- test controls --------------------------------------------------------------------

    def fail_next(self, method: str, status: int, body: dict[str, Any]) -> None:
        self.failures.setdefault(method, []).append((status, body))

    async def push(self, update: dict[str, Any]) -> int:
        async with self._changed:
            self._update_id += 1
            update["update_id"] = self._update_id
            self._updates.append(update)
            self._changed.notify_all()
        return self._update_id

    async def wait_for(
        self,
        method: str,
        where: Callable[[dict[str, Any]], bool] = lambda p: True,
        timeout: float = 60.0,
        count: int = 1,
    ) -> list[dict[str, Any]]:
        """Wait until `count` calls of `method` matching `where` were received (at once when
        they are: the timeout only bounds a failure, generous for a loaded machine)."""
        deadline = time.monotonic() + timeout

        def found() -> list[dict[str, Any]]:
            return [p for m, p in self.calls if m == method and where(p)]

        async with self._changed:
            while len(found()) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {method} call matched; calls: {self.methods()}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
            return found()

    def methods(self) -> list[str]:
        return [m for m, _ in self.calls]

    def sent(self, method: str = "sendMessage") -> list[dict[str, Any]]:
        return [p for m, p in self.calls if m == method]

    # --- builders of update payloads -------------------------------------------------------

    def message(
        self,
        text: str,
        *,
        chat_id: int = -1001,
        chat_type: str = "supergroup",
        user_id: int = 42,
        first_name: str = "Ann",
        language: str | None = "en",
        thread: int | None = None,
        document: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        self._message_id += 1
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if language:
            user["language_code"] = language
        chat: dict[str, Any] = {"id": chat_id, "type": chat_type}
        if chat_type != "private":
            chat["title"] = "Table"
        else:
            chat["first_name"] = first_name
        msg: dict[str, Any] = {
            "message_id": self._message_id,
            "date": int(time.time()),
            "chat": chat,
            "from": user,
        }
        command = text.split()[0] if text.startswith("/") else ""
        field = "caption" if document else "text"
        msg[field] = text
        if command:
            msg[f"{field}_entities" if document else "entities"] = [
                {"type": "bot_command", "offset": 0, "length": len(command)}
            ]
        if thread is not None:
            chat["is_forum"] = True
            msg["message_thread_id"] = thread
            msg["is_topic_message"] = True
        if document is not None:
            msg["document"] = document
        return {"message": msg}

    def user(self, user_id: int, first_name: str, language: str | None) -> dict[str, Any]:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if language:
            user["language_code"] = language
        return user

    def bot_added(
        self,
        *,
        chat_id: int = -1001,
        chat_type: str = "supergroup",
        old: str = "left",
        new: str = "member",
        user_id: int = 42,
        language: str | None = "en",
    ) -> dict[str, Any]:
        """A `my_chat_member` update: the bot's own membership changed from `old` to `new`."""

        def member(status: str) -> dict[str, Any]:
            out: dict[str, Any] = {"status": status, "user": BOT_USER}
            if status == "administrator":
                out.update(ADMIN_RIGHTS)
            if status == "kicked":
                out["until_date"] = 0
            return out

        chat: dict[str, Any] = {"id": chat_id, "type": chat_type, "title": "Table"}
        return {
            "my_chat_member": {
                "chat": chat,
                "from": self.user(user_id, "Ann", language),
                "date": int(time.time()),
                "old_chat_member": member(old),
                "new_chat_member": member(new),
            }
        }

    def inline_query(
        self, query: str, *, user_id: int = 42, language: str | None = "en"
    ) -> dict[str, Any]:
        self._message_id += 1
        return {
            "inline_query": {
                "id": f"iq{self._message_id}",
                "from": self.user(user_id, "Ann", language),
                "query": query,
                "offset": "",
                "chat_type": "supergroup",
            }
        }

    def chosen_inline_result(
        self,
        result_id: str,
        query: str,
        *,
        inline_message_id: str | None = "im1",
        user_id: int = 42,
        language: str | None = "en",
    ) -> dict[str, Any]:
        """What Telegram sends (with inline feedback on) once a user picked an inline result;
        `inline_message_id` only when that result had an inline keyboard."""
        chosen: dict[str, Any] = {
            "result_id": result_id,
            "from": self.user(user_id, "Ann", language),
            "query": query,
        }
        if inline_message_id is not None:
            chosen["inline_message_id"] = inline_message_id
        return {"chosen_inline_result": chosen}

    def button_press(self, data: str, *, message: dict[str, Any], user_id: int = 43) -> dict:
        return {
            "callback_query": {
                "id": f"cb{self._message_id}",
                "from": {"id": user_id, "is_bot": False, "first_name": "Bob"},
                "chat_instance": "ci",
                "data": data,
                "message": message,
            }
        }

    # --- the API ----------------------------------------------------------------------------

    async def _params(self, request: web.Request) -> dict[str, Any]:
        if request.content_type == "application/json":
            return dict(await request.json())
        params: dict[str, Any] = {}
        form = await request.post()
        for key, value in form.items():
            if hasattr(value, "file"):
                params[key] = {"filename": value.filename, "content": value.file.read()}
            else:
                params[key] = value
        for key in (
            "reply_markup",
            "allowed_updates",
            "commands",
            "scope",
            "results",
            "button",
            "media",
        ):
            if isinstance(params.get(key), str):
                params[key] = json.loads(params[key])
        return params

    def _ok(self, result: Any) -> web.Response:
        return web.json_response({"ok": True, "result": result})

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        if self.limits and method in POSTING:
            wait = self._over_limit(int(params["chat_id"]))
            if wait is not None:
                async with self._changed:
                    self.limited.append((method, params))
                    self._changed.notify_all()
                return web.json_response(
                    {
                        "ok": False,
                        "error_code": 429,
                        "description": f"Too Many Requests: retry after {wait}",
                        "parameters": {"retry_after": wait},
                    },
                    status=429,
                )
        async with self._changed:
            self.calls.append((method, params))
            self._changed.notify_all()
        queued = self.failures.get(method)
        if queued:
            status, body = queued.pop(0)
            self.refused.append((method, params))
            return web.json_response(body, status=status)
        if method == "getUpdates":
            return self._ok(await self._get_updates(params))
        if method == "getMe":
            return self._ok(BOT_USER)
        if method == "editMessageText" and "inline_message_id" in params:
            return self._ok(True)  # a message sent in inline mode: no Message comes back
        if method in MESSAGES:
            if method.startswith("edit"):  # the same message, its content replaced
                ident = int(params["message_id"])
            else:
                self._message_id += 1
                ident = self._message_id
            message: dict[str, Any] = {
                "message_id": ident,
                "date": int(time.time()),
                "chat": {"id": int(params["chat_id"]), "type": "supergroup", "title": "Table"},
                "from": BOT_USER,
            }
            if "text" in params:
                message["text"] = params["text"]
            if "caption" in params:
                message["caption"] = params["caption"]
            if method in ("sendPhoto", "editMessageMedia"):
                message["photo"] = [  # what Telegram answers: the sizes it made of the upload
                    {
                        "file_id": f"photo{self._message_id}",
                        "file_unique_id": f"up{self._message_id}",
                        "width": 320,
                        "height": 180,
                    }
                ]
            if params.get("message_thread_id"):
                message["message_thread_id"] = int(params["message_thread_id"])
                message["is_topic_message"] = True
            return self._ok(message)
        if method == "getChatAdministrators":
            ids = self.admins.get(int(params["chat_id"]), [])
            return self._ok(
                [
                    {
                        "status": "creator",
                        "user": {"id": i, "is_bot": False, "first_name": f"A{i}"},
                        "is_anonymous": False,
                    }
                    for i in ids
                ]
            )
        if method == "getFile":
            content = self.files[params["file_id"]]
            return self._ok(
                {
                    "file_id": params["file_id"],
                    "file_unique_id": "u" + params["file_id"],
                    "file_size": len(content),
                    "file_path": f"documents/{params['file_id']}",
                }
            )
        # setMyCommands, deleteWebhook, answerCallbackQuery, sendChatAction, ...
        return self._ok(True)

    def _over_limit(self, chat_id: int) -> int | None:
        """Seconds to wait when posting to `chat_id` now would break a limit, else None (and
        the post is counted)."""
        now = self.clock()
        windows = [(None, GLOBAL_LIMIT)]
        if chat_id < 0:  # groups and channels
            windows.append((chat_id, GROUP_LIMIT))
        for key, (count, seconds) in windows:
            times = self._posted.setdefault(key, deque())
            while times and now - times[0] >= seconds:
                times.popleft()
            if len(times) >= count:
                return max(1, math.ceil(times[0] + seconds - now))
        for key, _ in windows:
            self._posted[key].append(now)
        return None

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        deadline = time.monotonic() + timeout
        async with self._changed:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            while not self._updates and time.monotonic() < deadline and not self._closing:
                try:
                    await asyncio.wait_for(self._changed.wait(), deadline - time.monotonic())
                except TimeoutError:
                    break
            return list(self._updates)

    async def _file(self, request: web.Request) -> web.Response:
        file_id = request.match_info["path"].rsplit("/", 1)[-1]
        return web.Response(body=self.files[file_id])
