"""The platform-neutral boundary: what an adapter sends in (`Request`) and gets back (`Reply`).

Reply text is a list of blocks made of styled spans, never pre-formatted markup: each renderer
escapes the text of every span for its own format, so user-supplied strings are safe by
construction on Discord, Telegram and the console.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from bot.clean_text import multi_line, one_line

Style = Literal["plain", "bold", "italic", "code", "strike", "mention", "pre"]


class Span(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    text: str
    style: Style = "plain"
    user_id: str | None = None  # for style="mention": whom it pings (text is the display name)


Block = list[Span]


def plain(text: str) -> Span:
    return Span(text=text)


def bold(text: str) -> Span:
    return Span(text=text, style="bold")


def italic(text: str) -> Span:
    return Span(text=text, style="italic")


def code(text: str) -> Span:
    return Span(text=text, style="code")


def strike(text: str) -> Span:
    return Span(text=text, style="strike")


def pre(text: str) -> Span:
    """A monospace block (tables, histograms): rendered on its own lines."""
    return Span(text=text, style="pre")


def mention(user_id: str, name: str) -> Span:
    return Span(text=name, style="mention", user_id=user_id)


class Field_(BaseModel):
    # Validators are built on first use, not at import: most processes use few models.
    model_config = ConfigDict(defer_build=True)
    name: str
    value: Block
    inline: bool = True


class Button(BaseModel):
    model_config = ConfigDict(defer_build=True)
    label: str
    command: str  # the text form of the command the button runs, e.g. "/roll 2d6"


ALT_MAX = 1024  # Discord's limit for an attachment's description (alt text)


class Attachment(BaseModel):
    """A file a reply carries. An image (`mime` image/*: a chart, a card; see bot/images) is shown
    as a picture where the platform can (Discord's embed image, Telegram's photo) with the reply's
    text as its caption; `alt` describes it for screen readers (Discord's alt text)."""

    model_config = ConfigDict(defer_build=True)

    filename: str
    content: bytes
    mime: str = "text/plain"
    alt: str | None = None

    @property
    def is_image(self) -> bool:
        return self.mime.startswith("image/")

    @field_validator("filename")
    @classmethod
    def _visible_filename(cls, value: str) -> str:
        # A file name is shown (the rulebook's title): no bidi overrides, NULs or line breaks.
        return one_line(value).strip() or "file"

    @field_validator("alt")
    @classmethod
    def _visible_alt(cls, value: str | None) -> str | None:
        return None if value is None else one_line(value).strip()[:ALT_MAX] or None


class ErrorInfo(BaseModel):
    model_config = ConfigDict(defer_build=True)
    code: str
    message: str


class Reply(BaseModel):
    model_config = ConfigDict(defer_build=True)
    command: str = ""
    title: str | None = None
    blocks: list[Block] = Field(default_factory=list)
    fields: list[Field_] = Field(default_factory=list)
    buttons: list[Button] = Field(default_factory=list)
    mentions: list[str] = Field(default_factory=list)  # user ids this reply may ping, nobody else
    ephemeral: bool = False
    attachments: list[Attachment] = Field(default_factory=list)
    data: dict[str, Any] | None = None
    error: ErrorInfo | None = None
    # The chat's live board (/game board): the adapter posts it as a message of its own, gives
    # its id to `App.boards` and the bot edits that message after every change to the game.
    live_board: bool = False
    # Shown only to the user who asked (a private roll's result): an ephemeral message on
    # Discord, a private message on Telegram, printed after the reply on the console.
    private: Reply | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class Request(BaseModel):
    model_config = ConfigDict(defer_build=True)
    platform: Literal["console", "ask", "telegram", "discord", "web"]
    chat_key: str  # platform:chat_id[:thread_id]
    user_id: str
    user_name: str
    locale: str | None = None  # the client's language, e.g. "it-IT"
    lang: str | None = None  # an explicit override (`ask --lang`), stronger than the chat setting
    admin: bool = False
    private: bool = False  # a one-to-one chat with the bot: /lang there is the user's own too
    text: str = ""  # the text form, when the platform sends text
    command: str | None = None  # set when the platform sends structured commands (Discord)
    options: dict[str, Any] = Field(default_factory=dict)  # raw options for structured commands
    seed: int | None = None  # fixed dice seed (`ask --seed`), for reproducible scripts
    files: list[Attachment] = Field(default_factory=list)  # documents sent with the command

    # The boundary: whatever a platform sends, nothing downstream sees control or format
    # characters (see bot.clean_text), on the text path and the structured one alike.
    @field_validator("user_name")
    @classmethod
    def _visible_name(cls, value: str, info: ValidationInfo) -> str:
        return one_line(value).strip() or str(info.data.get("user_id", "?"))

    @field_validator("text")
    @classmethod
    def _visible_text(cls, value: str) -> str:
        return multi_line(value)

    @field_validator("options")
    @classmethod
    def _visible_options(cls, value: dict[str, Any]) -> dict[str, Any]:
        return {one_line(k): _visible(v) for k, v in value.items()}


def _visible(value: Any) -> Any:
    """An option value with its strings cleaned like a request's text (lists and dicts too)."""
    if isinstance(value, str):
        return multi_line(value)
    if isinstance(value, list):
        return [_visible(v) for v in value]
    if isinstance(value, dict):
        return {one_line(str(k)): _visible(v) for k, v in value.items()}
    return value
