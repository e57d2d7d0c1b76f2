"""Roster files for the tests: the per-game fixtures (tests/army/fixtures/*.ros), zipped as
`.rosz`, and the malformed files an import must refuse."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
GAMES = ("wm", "aos", "wow", "inf", "c5")


def ros(game: str) -> bytes:
    return (FIXTURES / f"{game}.ros").read_bytes()


def rosz(*members: tuple[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            archive.writestr(name, content)
    return out.getvalue()


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE roster [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<roster name="&lol9;" xmlns="http://www.battlescribe.net/schema/rosterSchema"/>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<roster name="&xxe;" xmlns="http://www.battlescribe.net/schema/rosterSchema"/>
"""


def deep_roster(depth: int) -> bytes:
    opening = '<selection name="x" type="upgrade"><selections>' * depth
    closing = "</selections></selection>" * depth
    return (
        '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force>'
        f"<selections>{opening}{closing}</selections></force></forces></roster>"
    ).encode()


def malformed() -> dict[str, tuple[str, bytes, str]]:
    """name -> (file name, content, the error key it must give)."""
    return {
        "bad xml": ("broken.ros", ros("aos")[:700], "army.bad_xml"),
        "wrong root": (
            "catalogue.ros",
            b'<?xml version="1.0"?><catalogue name="Stormcast" '
            b'xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>',
            "army.not_roster",
        ),
        "billion laughs": ("laughs.ros", BILLION_LAUGHS, "army.bad_xml"),
        "external entity": ("xxe.ros", EXTERNAL_ENTITY, "army.bad_xml"),
        "huge zip": (
            "bomb.rosz",
            rosz(("army.ros", b"<roster>" + b" " * (40 * 1024 * 1024) + b"</roster>")),
            "army.zip_bomb",
        ),
        "two members": (
            "two.rosz",
            rosz(("a.ros", ros("aos")), ("b.ros", ros("wm"))),
            "army.zip_members",
        ),
        "empty zip": ("empty.rosz", rosz(), "army.not_zip"),
        "not a zip": ("army.rosz", ros("aos"), "army.not_zip"),
        "damaged zip": ("cut.rosz", rosz(("army.ros", ros("aos")))[:300], "army.not_zip"),
        "too deep": ("deep.ros", deep_roster(200), "army.too_deep"),
        "no units": (
            "empty.ros",
            b'<roster gameSystemName="Age of Sigmar" '
            b'xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces/></roster>',
            "army.no_units",
        ),
        "other game": ("wm.ros", ros("wm"), "army.other_game"),
    }
