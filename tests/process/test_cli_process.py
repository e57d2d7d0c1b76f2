"""`wargame-bot console|ask|import-rules|run` as real processes with piped input: what they
print, where they write, how they exit."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
from pathlib import Path

from tests.process.conftest import BOT, Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rulebooks"


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_console_greets_first_answers_and_quits(cli: Cli) -> None:
    done = cli.run(
        "console", input="/roll 2d6+1\nnot-a-command\n/quit\n/roll 1d6\n", USER="ada", LOGNAME="ada"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Wargame bot console: chat console:local, you are ada.")
    assert "2d6 (" in done.stdout and "Roll #1" in done.stdout  # the roll and its dice
    assert "1d6 (" not in done.stdout  # nothing after /quit
    # No log lines (migrations applied on a new database) before or between the replies.
    assert done.stderr == ""
    assert files_under(cli.cwd) == []  # no history, export or database in the working tree


def test_console_speaks_the_terminal_language(cli: Cli) -> None:
    done = cli.run("console", input="/roll 2d6\n", LANG="it_IT.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("Console del wargame bot: chat console:local")
    assert "Tiro n. 1" in done.stdout


def test_console_ends_at_end_of_input(cli: Cli) -> None:
    done = cli.run("console", "--user", "Ada", input="/roll 3d6\n")
    assert done.returncode == 0
    assert "you are Ada" in done.stdout.splitlines()[0] and "3d6 (" in done.stdout


def test_an_export_is_saved_in_the_user_data_folder_and_its_path_printed(cli: Cli) -> None:
    script = "/campaign new Autumn League\n/campaign export\n/campaign export\n"
    done = cli.run("console", input=script)
    assert done.returncode == 0, done.stderr
    first = cli.exports / "campaign-autumn-league.md"
    second = cli.exports / "campaign-autumn-league-2.md"  # never overwritten
    assert f"Saved campaign-autumn-league.md to {first}" in done.stdout
    assert f"Saved campaign-autumn-league.md to {second}" in done.stdout
    assert "(attachment:" not in done.stdout
    assert first.read_text(encoding="utf-8").startswith("# ")
    assert "Autumn League" in first.read_text(encoding="utf-8")
    assert files_under(cli.cwd) == []


def test_ask_writes_a_reply_s_files_and_lists_them(cli: Cli) -> None:
    assert cli.run("ask", "/campaign new Autumn League").returncode == 0
    default = cli.run("ask", "--json", "/campaign export")
    assert default.returncode == 0, default.stderr
    (listed,) = json.loads(default.stdout)["files"]
    assert listed == {
        "name": "campaign-autumn-league.md",
        "path": str(cli.exports / "campaign-autumn-league.md"),
        "mime": "text/markdown",
    }
    assert Path(listed["path"]).read_text(encoding="utf-8").startswith("# Autumn League")

    chosen = cli.cwd / "reports"
    text = cli.run("ask", "--files", str(chosen), "/campaign export")
    assert text.returncode == 0, text.stderr
    assert (
        f"Saved campaign-autumn-league.md to {chosen / 'campaign-autumn-league.md'}" in text.stdout
    )
    assert "(attachment:" not in text.stdout

    blocked = cli.cwd / "not-a-folder"
    blocked.write_text("x")
    failed = cli.run("ask", "--json", "--files", str(blocked), "/campaign export")
    assert failed.returncode == 2 and json.loads(failed.stdout)["files"] == []
    assert "Could not save campaign-autumn-league.md" in failed.stderr


def test_ask_prints_one_reply_and_exits_by_outcome(cli: Cli) -> None:
    rolled = cli.run("ask", "--seed", "7", "--json", "/roll 3d6")
    assert rolled.returncode == 0, rolled.stderr
    payload = json.loads(rolled.stdout)
    assert payload["ok"] is True and payload["command"] == "roll"
    again = cli.run("ask", "--seed", "7", "--json", "/roll 3d6")
    assert json.loads(again.stdout)["data"]["total"] == payload["data"]["total"]

    bad = cli.run("ask", "/roll 2d")
    assert bad.returncode == 2 and bad.stdout.strip() and bad.stderr == ""
    unknown = cli.run("ask", "--json", "/nosuchcommand")
    assert unknown.returncode == 2 and json.loads(unknown.stdout)["ok"] is False
    italian = cli.run("ask", "--lang", "it", "/roll 2d")
    assert italian.returncode == 2 and italian.stdout != bad.stdout


def test_import_rules_then_search_from_another_process(cli: Cli) -> None:
    book = FIXTURES / "numbered.txt"
    done = cli.run("import-rules", "--system", "wow", "--chat", "console:club", str(book))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Imported numbered.txt as rulebook #1 for console:club:")
    assert done.stderr == ""  # no log lines about migrations
    found = cli.run("ask", "--json", "--chat", "console:club", "/rules search 105.1a")
    assert found.returncode == 0, found.stdout
    assert json.loads(found.stdout)["data"]["passages"][0]["heading"].endswith("105 Dadi")
    elsewhere = cli.run("ask", "--json", "/rules search 105.1a")  # another chat
    assert elsewhere.returncode == 2

    missing = cli.run("import-rules", "--system", "wow", "--all-chats", str(cli.root / "nope.txt"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    empty = cli.root / "empty.txt"
    empty.write_text("")
    refused = cli.run("import-rules", "--system", "wow", "--all-chats", str(empty))
    assert refused.returncode == 2 and refused.stderr.startswith("wargame-bot: ")
    assert "Traceback" not in refused.stderr


def test_run_without_tokens_or_terminal_exits_2_naming_both_tokens(cli: Cli) -> None:
    for stdin in ("", "/roll 2d6\n"):  # end of input at once, or a pipe with lines in it
        done = cli.run("run", input=stdin)
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "TELEGRAM_TOKEN" in lines[0]
    assert not cli.db.exists()  # nothing was started


def test_run_without_tokens_on_a_terminal_is_the_console(cli: Cli) -> None:
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [BOT, "run"],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cli.cwd,
            env=cli.env,
            text=True,
        )
        os.close(follower)
        os.write(leader, b"/roll 2d6\n/quit\n")
        out, err = proc.communicate(timeout=120)
    finally:
        os.close(leader)
    assert proc.returncode == 0, err
    assert out.splitlines()[0].startswith("Wargame bot console:")
    assert "2d6 (" in out and err == ""


def read_until(fd: int, marker: bytes, seen: bytearray, timeout: float = 60) -> None:
    """Read the terminal's output until `marker` shows up (or it closes, or `timeout`)."""
    deadline = time.monotonic() + timeout
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the other end closed
                return
            if not chunk:
                return
            seen += chunk


def test_the_interactive_console_keeps_its_history_in_the_user_state_folder(cli: Cli) -> None:
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [BOT, "console"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=cli.cwd,
        env={**cli.env, "TERM": "xterm"},
    )
    os.close(follower)
    seen = bytearray()
    try:
        read_until(leader, b"/quit to leave.", seen)  # the welcome; typing ahead is fine
        assert b"Wargame bot console:" in seen
        os.write(leader, b"/roll 2d6\r")
        read_until(leader, b"Roll #1", seen)
        os.write(leader, b"/quit\r")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(leader)
    history = Path(cli.env["XDG_STATE_HOME"]) / "wargame-bot" / "console_history"
    assert "+/roll 2d6" in history.read_text(encoding="utf-8").splitlines()
    assert files_under(cli.cwd) == []


def test_an_export_that_cannot_be_saved_says_so_and_the_console_goes_on(cli: Cli) -> None:
    blocked = cli.root / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    script = "/campaign new Winter\n/campaign export\n/roll 2d6\n"
    done = cli.run("console", input=script, XDG_DATA_HOME=str(blocked), LANG="it_IT.UTF-8")
    assert done.returncode == 0
    path = blocked / "wargame-bot" / "exports" / "campaign-winter.md"
    assert f"Non sono riuscito a salvare campaign-winter.md in {path}" in done.stdout
    assert "Tiro n. 1" in done.stdout  # the next command still runs
    assert "Traceback" not in done.stdout + done.stderr


def test_ask_names_the_roller_by_their_login_not_an_english_placeholder(cli: Cli) -> None:
    """An Italian reply showed "player 🎲": the default console/ask user is the login name."""
    rolled = cli.run("ask", "--lang", "it", "--seed", "3", "/tira 2d6", USER="Ada", LOGNAME="Ada")
    assert rolled.returncode == 0, rolled.stderr
    first = rolled.stdout.splitlines()[0]
    assert first.startswith("Ada ") and "player" not in rolled.stdout
