"""Discord adapter on discord.py: application commands generated from the registry.

It only translates. Every interaction (slash command, autocomplete, button) is read in
`on_interaction`, turned into a `Request` for `App.handle`, and the `Reply` is sent back as an
embed. No per-command code lives here. Chat key: `discord:<channel_id>`, or
`discord:<parent_id>:<thread_id>` inside a thread or forum post.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot import i18n
from bot.adapters import discord_commands
from bot.adapters.base import AdapterStartError
from bot.adapters.slow import SLOW_AFTER
from bot.app import App
from bot.autocomplete import MAX_CHOICES, matching, suggest
from bot.commands.board_live import EditResult
from bot.commands.spec import CommandSpec, OptionSpec
from bot.config import Settings
from bot.protocol import Attachment, Reply, Request, plain
from bot.render import discord_md
from bot.rules_import import MAX_BYTES as MAX_FILE_BYTES
from rules_core.errors import UserError

log = logging.getLogger(__name__)

BUTTON_PREFIX = "wb:"
MODAL_PREFIX = "wbm:"  # a box opened for a command's `lines` option: "wbm:<command path>"
MODAL_TEXT = 4000  # Discord's longest text input
MODAL_TITLE = 45
READY_TIMEOUT = 60.0
DEFER_AFTER = SLOW_AFTER  # seconds before a command not declared slow is deferred ("thinking…")
SHUTDOWN_GRACE = 30.0
EMBED_DESCRIPTION = 4096
EMBED_TITLE = 256
EMBED_FIELDS = 25
EMBED_TOTAL = 6000
EMBED_COLOUR = 0x8B5A2B
ERROR_COLOUR = 0xB03A2E


def _chat_key(interaction: discord.Interaction[Any]) -> str:
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return f"discord:{channel.parent_id}:{channel.id}"
    return f"discord:{interaction.channel_id}"


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    if interaction.guild_id is None:
        return True  # a direct message: the user owns it
    return bool(interaction.permissions.manage_channels)


def allowed_mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the users the reply means to ping; never everyone, here or roles."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(int(u)) for u in reply.mentions if u.isdecimal()],
        replied_user=False,
    )


def embed(reply: Reply) -> discord.Embed:
    """The reply as one embed within Discord's limits (title 256, description 4096, 25 fields
    of 256/1024, 6000 characters in all): the description gives way first, then the last fields."""
    clip = discord_md.clip
    title = clip(discord_md.escape(reply.title), EMBED_TITLE) if reply.title else ""
    fields = [
        (
            clip(discord_md.escape(f.name), EMBED_TITLE) or "-",
            clip(discord_md.block(f.value), 1024) or "-",
            f.inline,
        )
        for f in reply.fields[:EMBED_FIELDS]
    ]
    text = clip(discord_md.description(reply), EMBED_DESCRIPTION)

    def size() -> int:
        return len(title) + len(text) + sum(len(n) + len(v) for n, v, _ in fields)

    if size() > EMBED_TOTAL:
        text = clip(text, max(EMBED_TOTAL - size() + len(text), 200))
    while fields and size() > EMBED_TOTAL:
        fields.pop()
    result = discord.Embed(
        title=title or None,
        description=text or None,
        colour=ERROR_COLOUR if reply.error else EMBED_COLOUR,
    )
    for name, value, inline in fields:
        result.add_field(name=name, value=value, inline=inline)
    return result


def _typed_values(components: list[Any]) -> dict[str, str]:
    """What a modal's text inputs hold, by custom id (inside action rows or labels)."""
    out: dict[str, str] = {}
    for item in components:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("value"), str) and item.get("custom_id"):
            out[str(item["custom_id"])] = item["value"]
        inner = item.get("components") or ([item["component"]] if "component" in item else [])
        out.update(_typed_values(inner))
    return out


class DiscordAdapter:
    name = "discord"

    def __init__(
        self,
        app: App,
        settings: Settings,
        *,
        guild_ready_timeout: float = 2.0,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        if settings.discord_token is None:
            raise AdapterStartError("DISCORD_TOKEN is not set")
        self.app = app
        self.settings = settings
        # The two documented hooks for pointing discord.py at a proxy (or a test server).
        discord.http.Route.BASE = settings.discord_api_base_url.rstrip("/")
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents: slash commands need no message content
        self.client: discord.Client
        if settings.discord_shard_count is not None:
            # This process runs some of the bot's shards (all of them without DISCORD_SHARD_IDS);
            # Discord sends each guild's events to one shard: (guild_id >> 22) % shard_count.
            some: dict[str, Any] = {}
            if settings.discord_shard_ids:
                some["shard_ids"] = list(settings.discord_shard_ids)
            self.client = discord.AutoShardedClient(
                intents=intents,
                guild_ready_timeout=guild_ready_timeout,
                shard_count=settings.discord_shard_count,
                **some,
            )
        else:
            self.client = discord.Client(intents=intents, guild_ready_timeout=guild_ready_timeout)
        self.client.event(self.on_interaction)
        self.runner: asyncio.Task[None] | None = None
        self.inflight: set[asyncio.Task[Any]] = set()
        self.idle = asyncio.Event()
        self.closing = False
        self.defer_after = defer_after
        self.routes = discord_commands.routes(app.registry)  # `rolls show` -> `roll show`

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        try:
            await self._start()
        except AdapterStartError:
            await self.client.close()  # release the HTTP session; nothing else is running
            raise
        self.app.boards.attach(self.name, self)

    async def _start(self) -> None:
        assert self.settings.discord_token is not None
        try:
            await self.client.login(self.settings.discord_token.get_secret_value())
        except discord.LoginFailure:
            raise AdapterStartError(
                "Discord rejected the token (DISCORD_TOKEN); check it in the developer portal"
            ) from None
        except (discord.HTTPException, OSError) as exc:
            raise AdapterStartError(f"cannot reach Discord's API ({type(exc).__name__})") from None
        await self.sync_commands()
        self.runner = asyncio.create_task(self.client.connect(reconnect=True))
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait(
            {self.runner, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            reason = "timed out"
            if self.runner.done() and (failure := self.runner.exception()) is not None:
                reason = type(failure).__name__
                if isinstance(failure, discord.ConnectionClosed):
                    if failure.code == 4004:  # Authentication failed
                        raise AdapterStartError(
                            "Discord's gateway rejected the token (DISCORD_TOKEN)"
                        ) from None
                    reason += f" {failure.code}"
            raise AdapterStartError(f"could not connect to Discord's gateway ({reason})")
        log.info("Discord bot %s running", self.client.user)

    async def stop(self) -> None:
        """Refuse new interactions, let those in progress finish, then disconnect."""
        self.closing = True
        self.idle.clear()
        if self.inflight:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.idle.wait(), SHUTDOWN_GRACE)
        self.app.boards.detach(self.name)
        await self.app.boards.drain()  # board edits under way finish before the client closes
        await self.client.close()
        if self.runner is not None:
            await asyncio.gather(self.runner, return_exceptions=True)

    def alive(self) -> bool:
        return self.runner is not None and not self.runner.done() and not self.client.is_closed()

    def owns(self, chat: str) -> bool:
        return chat.startswith("discord:")

    async def channel(self, chat: str) -> Any:
        channel_id = int(chat.split(":")[-1])
        return self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)

    async def send(self, chat: str, reply: Reply) -> None:
        channel = await self.channel(chat)
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(**self.message_kwargs(reply, await self.view(chat, reply)))

    # --- the live board (bot/commands/board_live.py) -----------------------------------------

    async def post_board(self, chat: str, reply: Reply) -> bool:
        """Post the chat's live board as a channel message of the bot's (an interaction's answer
        can be edited for 15 minutes only), pin it if the bot may; False if it cannot post."""
        try:
            channel = await self.channel(chat)
            if not isinstance(channel, discord.abc.Messageable):
                return False
            message = await channel.send(**self.message_kwargs(reply, None))
        except discord.HTTPException as exc:
            log.info("live board not posted in %s: %s", chat, exc.status)
            return False
        await self.app.boards.posted(chat, str(message.id), reply)
        with contextlib.suppress(discord.HTTPException):  # no Manage Messages: not pinned
            await message.pin()
        return True

    async def edit_board(self, chat: str, message_id: str, reply: Reply) -> EditResult:
        try:
            channel = await self.channel(chat)
            message = discord.PartialMessage(channel=channel, id=int(message_id))
            kwargs = self.message_kwargs(reply, None)  # the board card replaces the old one
            kwargs.pop("content", None)
            await message.edit(attachments=kwargs.pop("files"), **kwargs)
        except discord.NotFound:
            return "gone"
        except (discord.HTTPException, TypeError) as exc:
            log.warning("live board of %s not edited: %s", chat, exc)
            return "failed"
        return "ok"

    async def sync_commands(self) -> None:
        """Upload the generated commands, unless they are what Discord already has (the hash of
        the last upload is kept per application and target in the database)."""
        commands = discord_commands.build(self.app.registry)
        app_id = self.client.application_id
        if app_id is None:
            raise AdapterStartError("Discord did not say which application this token belongs to")
        guild = self.settings.discord_dev_guild
        key = f"discord.commands.{app_id}.{guild or 'global'}"
        digest = discord_commands.digest(commands)
        if await self.app.load_value(key) == digest:
            log.info("Discord commands unchanged; no sync")
            return
        try:
            if guild:
                await self.client.http.bulk_upsert_guild_commands(app_id, guild, commands)
            else:
                await self.client.http.bulk_upsert_global_commands(app_id, commands)
        except discord.HTTPException as exc:
            raise AdapterStartError(
                f"Discord refused the command list (HTTP {exc.status}: {exc.text[:200]})"
            ) from None
        await self.app.save_value(key, digest)
        log.info("Discord commands synced (%s)", guild or "global")

    # --- incoming ----------------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.inflight.add(task)
        try:
            if self.closing:
                await self.refuse(interaction)
            elif interaction.type is discord.InteractionType.application_command:
                await self.on_command(interaction)
            elif interaction.type is discord.InteractionType.autocomplete:
                await self.on_autocomplete(interaction)
            elif interaction.type is discord.InteractionType.component:
                await self.on_button(interaction)
            elif interaction.type is discord.InteractionType.modal_submit:
                await self.on_modal(interaction)
        except discord.HTTPException as exc:
            log.warning("Discord call failed: %s %s", exc.status, exc.text[:200])
        finally:
            if task is not None:
                self.inflight.discard(task)
                if not self.inflight:
                    self.idle.set()

    async def refuse(self, interaction: discord.Interaction[Any]) -> None:
        """The bot is shutting down: say so instead of leaving the user with a failure."""
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        elif interaction.type in (
            discord.InteractionType.application_command,
            discord.InteractionType.component,
        ):
            lang = i18n.normalize_lang(interaction.locale.value) or "en"
            await interaction.response.send_message(
                i18n.t(lang, "discord.restarting"),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    def request(self, interaction: discord.Interaction[Any], **fields: Any) -> Request:
        user = interaction.user
        return Request(
            platform="discord",
            chat_key=_chat_key(interaction),
            user_id=str(user.id),
            user_name=user.display_name,
            locale=str(interaction.locale.value),
            admin=_is_admin(interaction),
            private=interaction.guild_id is None,
            **fields,
        )

    async def on_command(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        path, leaves = discord_commands.resolve(
            data.get("name", ""), data.get("options"), self.routes
        )
        options = {
            o["name"]: (
                f"<@{o['value']}>" if o.get("type") == discord_commands.USER else o.get("value")
            )
            for o in leaves
            if o.get("type") != discord_commands.ATTACHMENT
        }
        spec = self.app.registry.get(path)
        uploads = [o for o in leaves if o.get("type") == discord_commands.ATTACHMENT]
        box = self.lines_option(spec, options)
        if box is not None and spec is not None and not uploads:
            await self.open_box(interaction, spec, box)
            return
        if not uploads:
            request = self.request(interaction, command=path, options=options)
            await self.run(interaction, request, spec)
            return
        # A file option: acknowledge first (the download may outlast Discord's 3 seconds).
        await interaction.response.defer(thinking=True)
        files = await self.download(interaction, data, uploads)
        if files is None:
            return
        request = self.request(interaction, command=path, options=options, files=files)
        await self.run(interaction, request, spec, deferred=True)

    @staticmethod
    def lines_option(spec: CommandSpec | None, options: dict[str, Any]) -> OptionSpec | None:
        """A command made only of a `lines` option, sent without it (`/batch`): a slash
        command's options are one line each, so the lines are typed in a box (a modal)."""
        if spec is None or len(spec.options) != 1 or options:
            return None
        return spec.options[0] if spec.options[0].type == "lines" else None

    async def open_box(
        self, interaction: discord.Interaction[Any], spec: CommandSpec, opt: OptionSpec
    ) -> None:
        lang = i18n.normalize_lang(interaction.locale.value) or "en"
        modal = discord.ui.Modal(
            title=i18n.t(lang, "discord.batch.title")[:MODAL_TITLE],
            custom_id=MODAL_PREFIX + spec.name,
            timeout=None,
        )
        modal.add_item(
            discord.ui.TextInput(
                label=i18n.t(lang, "discord.batch.label")[:45],
                style=discord.TextStyle.paragraph,
                custom_id=opt.name,
                max_length=min(opt.max_length, MODAL_TEXT),
            )
        )
        modal.stop()  # never kept by discord.py: the submit comes to on_interaction
        await interaction.response.send_modal(modal)

    async def on_modal(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(MODAL_PREFIX):
            return
        spec = self.app.registry.get(custom_id[len(MODAL_PREFIX) :])
        if spec is None:
            return
        typed = _typed_values(data.get("components") or [])
        options = {o.name: typed[o.name] for o in spec.options if o.name in typed}
        request = self.request(interaction, command=spec.name, options=options)
        await self.run(interaction, request, spec)

    async def download(
        self, interaction: discord.Interaction[Any], data: dict[str, Any], uploads: list[Any]
    ) -> list[Attachment] | None:
        """The attachment options' files (`data.resolved.attachments`), each refused from its
        declared size before it is fetched, like Telegram's documents; None after answering
        that one is too big."""
        resolved = (data.get("resolved") or {}).get("attachments") or {}
        files: list[Attachment] = []
        for option in uploads:
            meta = resolved.get(str(option.get("value")))
            if not isinstance(meta, dict) or not isinstance(meta.get("url"), str):
                continue
            problem = None
            if int(meta.get("size") or 0) > MAX_FILE_BYTES:
                problem = "discord.file_too_big"
            else:
                try:
                    content = await self.client.http.get_from_cdn(meta["url"])
                except discord.HTTPException:
                    problem = "discord.file_not_downloaded"
            if problem is not None:
                lang = await self.app.lang_for(self.request(interaction))
                await interaction.followup.send(
                    i18n.t(lang, problem),
                    ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return None
            files.append(Attachment(filename=str(meta.get("filename") or "file"), content=content))
        return files

    async def on_autocomplete(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        path, leaves = discord_commands.resolve(
            data.get("name", ""), data.get("options"), self.routes
        )
        focused = next((o for o in leaves if o.get("focused")), None)
        spec = self.app.registry.get(path)
        option = spec.option(str(focused["name"])) if spec and focused else None
        typed = str(focused.get("value", "")) if focused else ""
        values: list[str] = []
        lang = i18n.normalize_lang(interaction.locale.value) or "en"
        if option is not None and option.autocomplete:
            values = await suggest(option.autocomplete, self.app, _chat_key(interaction), typed)
        elif option is not None and option.choices:  # more choices than Discord lists
            values = matching(list(option.choices), typed)
        label = discord_commands.choice_label
        choices = [
            discord.app_commands.Choice(
                name=((option.choices and label(option, v, lang)) or v)[:100], value=v[:100]
            )
            for v in values[:MAX_CHOICES]
            if option is not None
        ]
        await interaction.response.autocomplete(choices)

    async def on_button(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(BUTTON_PREFIX):
            return
        key = _chat_key(interaction)
        command = await self.app.button_command(key, custom_id[len(BUTTON_PREFIX) :])
        if command is None:
            lang = await self.app.lang_for(self.request(interaction))
            await interaction.response.send_message(
                i18n.t(lang, "discord.button_expired"),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        try:
            spec: CommandSpec | None = self.app.registry.resolve(command)[0]
        except UserError:
            spec = None  # the dispatcher answers with the error
        await self.run(interaction, self.request(interaction, text=command), spec)

    async def run(
        self,
        interaction: discord.Interaction[Any],
        request: Request,
        spec: CommandSpec | None,
        *,
        deferred: bool = False,
    ) -> None:
        """Run the command; acknowledge with a "thinking..." defer first when it is declared
        slow, or as soon as it takes longer than `defer_after` (Discord allows 3 seconds)."""
        work = asyncio.create_task(self.app.handle(request))
        try:
            if deferred:
                pass  # acknowledged already (a file was downloaded first)
            elif spec is not None and spec.slow:
                await interaction.response.defer(thinking=True)
                deferred = True
            else:
                done, _ = await asyncio.wait({work}, timeout=self.defer_after)
                if not done:
                    await interaction.response.defer(thinking=True)
                    deferred = True
        finally:
            reply = await work  # the command runs to the end even if Discord is unreachable
        await self.respond(interaction, reply, deferred)

    # --- outgoing ----------------------------------------------------------------------------

    def message_kwargs(self, reply: Reply, view: discord.ui.View | None) -> dict[str, Any]:
        card = embed(reply)
        picture = next((a for a in reply.attachments if a.is_image), None)
        if picture is not None:  # the reply's picture inside its embed, the text above it
            card.set_image(url=f"attachment://{picture.filename}")
        kwargs: dict[str, Any] = {
            "embed": card,
            "allowed_mentions": allowed_mentions(reply),
            "files": [
                discord.File(io.BytesIO(a.content), filename=a.filename, description=a.alt)
                for a in reply.attachments
            ],
        }
        pings = " ".join(f"<@{u}>" for u in reply.mentions if u.isdecimal())
        if pings:
            kwargs["content"] = pings
        if view is not None:
            kwargs["view"] = view
        return kwargs

    async def view(self, key: str, reply: Reply) -> discord.ui.View | None:
        """Buttons whose custom ids point at commands stored server-side: they keep working
        after a restart because they are dispatched from `on_interaction`, not a live View."""
        if not reply.buttons:
            return None
        view = discord.ui.View(timeout=None)
        shown = reply.buttons[:25]
        ids = await self.app.save_buttons(key, [item.command for item in shown])
        for item, ident in zip(shown, ids, strict=True):
            view.add_item(
                discord.ui.Button(label=item.label[:80] or "…", custom_id=BUTTON_PREFIX + ident)
            )
        view.stop()  # never stored by discord.py: presses are dispatched by custom id
        return view

    async def respond(
        self, interaction: discord.Interaction[Any], reply: Reply, deferred: bool
    ) -> None:
        if reply.live_board and reply.ok:
            # The board goes to the channel as a message of its own; the caller is told so.
            lang = i18n.normalize_lang(str((reply.data or {}).get("lang"))) or i18n.DEFAULT_LANG
            if await self.post_board(_chat_key(interaction), reply):
                note = Reply(blocks=[[plain(i18n.t(lang, "board.posted"))]], ephemeral=True)
            else:
                note = reply.model_copy(update={"live_board": False})
                note.blocks = [*note.blocks[:-1], [plain(i18n.t(lang, "board.not_posted"))]]
            await self.respond(interaction, note, deferred)
            return
        if reply.private is not None:
            # The asker's part first, ephemeral (only they see it), then the chat's part.
            secret = reply.private.model_copy(update={"ephemeral": True})
            await self.respond(interaction, secret, deferred)
            public = reply.model_copy(update={"private": None})
            kwargs = self.message_kwargs(public, await self.view(_chat_key(interaction), public))
            await interaction.followup.send(wait=False, **kwargs)
            return
        view = await self.view(_chat_key(interaction), reply)
        kwargs = self.message_kwargs(reply, view)
        if not deferred:
            await interaction.response.send_message(ephemeral=reply.ephemeral, **kwargs)
        elif reply.ephemeral:
            # The first follow-up would inherit the public "thinking..." message: remove it so
            # an error or private answer is seen only by the user who asked.
            await interaction.delete_original_response()
            await interaction.followup.send(ephemeral=True, wait=False, **kwargs)
        else:
            await interaction.followup.send(wait=False, **kwargs)
