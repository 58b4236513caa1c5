"""``referee lsp`` end to end: an editor's session over stdio, with a client of our own
(``tests/lsp/client.py``) driving the server process (issue 33)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="referee lsp needs pygls (pip install '.[lsp]')")

from referee.api import legal_moves, replay_text
from referee.core.resources import bundled
from tests.lsp.client import Client

LOGS = bundled("logs")


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    started = Client()
    started.initialize(LOGS)
    yield started
    assert started.errors() == []
    assert started.shutdown() == 0


def uri_of(name: str) -> str:
    return (LOGS / name).resolve().as_uri()


def text_of(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    """The text after the edits of one document (given in order, none overlapping)."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(position: dict[str, int]) -> int:
        line = position["line"]
        return len(text) if line >= len(lines) else offsets[line] + position["character"]

    for edit in sorted(edits, key=lambda e: at(e["range"]["start"]), reverse=True):
        start, end = at(edit["range"]["start"]), at(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def actions(client: Client, uri: str, line: int) -> list[dict[str, Any]]:
    found = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": line, "character": 0},
                  "end": {"line": line, "character": 0}},
        "context": {"diagnostics": []}})
    return list(found or [])


def test_wwiic_6_a_move_to_a_space_not_adjacent_is_a_diagnostic_with_its_rule_and_range(
        client: Client) -> None:
    """WWII Commander 6 (Movement) and 2.0: "Spaces that share a border, river boundary or
    canal boundary are adjacent."  E4 and Arnhem share none: typing that move gives the
    referee's problem at the command, with kind and rule as the code."""
    uri = uri_of("wwiic/opening.log")
    assert client.open(uri, text_of("wwiic/opening.log")) == []
    line = text_of("wwiic/opening.log").splitlines()[10]
    assert line == "german: activate 406 E4->Wyler"
    found = client.change(uri, 2, (10, 25), (10, 30), "Arnhem")
    first = found[0]
    assert first["code"] == "illegal-move [6]"
    assert first["range"]["start"] == {"line": 10, "character": 8}
    assert first["range"]["end"]["line"] == 10
    assert "Arnhem is not adjacent to E4" in first["message"]
    follows = [d for d in found if d.get("relatedInformation")]
    assert follows, "the problems that follow from the skipped line point at it"
    assert follows[0]["relatedInformation"][0]["location"]["range"]["start"]["line"] == 10
    assert follows[0]["severity"] == 2
    assert client.change(uri, 3, (10, 25), (10, 31), "Wyler") == []
    client.close(uri)
    assert client.diagnostics(uri) == []


def test_a_did_you_mean_is_applied_by_a_code_action(client: Client) -> None:
    """A misspelt place gets the did-you-mean of `referee check`; its quick fix writes the
    name the referee suggests, and the log is clean again."""
    uri = uri_of("wwiic/opening.log")
    text = text_of("wwiic/opening.log").replace("505/82 Groesbeek->Hengstal",
                                                "505/82 Groesbek->Hengstal")
    found = client.open(uri, text)
    assert found[0]["code"] == "unknown-name"
    assert found[0]["range"]["start"] == {"line": 12, "character": 24}
    fixes = [a for a in actions(client, uri, 12) if a["kind"] == "quickfix"]
    assert fixes[0]["title"] == "Write 'Groesbeek' for 'Groesbek' (did you mean)"
    fixed = apply(text, fixes[0]["edit"]["changes"][uri])
    assert fixed == text_of("wwiic/opening.log")
    assert client.replace_all(uri, 2, fixed) == []
    client.close(uri)


def test_the_line_the_referee_awaits_is_inserted_by_a_code_action(client: Client) -> None:
    """A tabletop log with no seed writes the referee's rolls itself: a move written before
    the roll that comes first is out of turn, and the quick fix inserts that roll with the
    dice to fill in before it."""
    name = "arnhem44/tabletop.log"
    uri = uri_of(name)
    text = text_of(name)
    end = len(text.splitlines())
    client.open(uri, text)
    found = client.change(uri, 2, (end, 0), (end, 0), "german: pass\n")
    assert found and found[0]["code"].startswith("missing-decision")
    report = replay_text(text)
    pending = report.pending()
    assert pending is not None and pending["side"] == "referee"
    inserts = [a for a in actions(client, uri, end) if a["title"].startswith("Insert")]
    assert len(inserts) == 1
    edit = inserts[0]["edit"]["changes"][uri][0]
    assert edit["range"]["start"] == {"line": end, "character": 0}
    assert edit["newText"].startswith(pending["choices"][0] + " {d")
    client.close(uri)


def test_fmt_as_a_code_action_gives_the_text_of_referee_fmt(client: Client) -> None:
    """The log indented by hand comes back as `referee fmt` writes it, by a code action
    and by the editor's own formatting command alike."""
    from referee.api import format_source

    name = "battle-card/win.log"
    uri = uri_of(name)
    text = "\n".join(f"  {line}" if line.startswith(("allied", "turn")) else line
                     for line in text_of(name).splitlines()) + "\n"
    client.open(uri, text)
    fmt = [a for a in actions(client, uri, 0) if a["title"].startswith("Format")]
    assert len(fmt) == 1
    assert apply(text, fmt[0]["edit"]["changes"][uri]) == format_source(LOGS / name)[1]
    formatted = client.request("textDocument/formatting", {
        "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}})
    assert apply(text, formatted) == format_source(LOGS / name)[1]
    client.close(uri)


MID_GAME = (("battle-card", "win.log"), ("wwiic", "full-game-draw.log"),
            ("koenig-eindhoven", "complete-game.log"), ("arnhem44", "complete-game.log"))


@pytest.mark.parametrize(("game", "log"), MID_GAME)
def test_completion_mid_game_offers_the_legal_commands(client: Client, game: str,
                                                       log: str) -> None:
    """The commands offered at a line are the `moves` of the line before it."""
    name = f"{game}/{log}"
    uri = uri_of(name)
    text = text_of(name)
    client.open(uri, text)
    lines = text.splitlines()
    middle = len(lines) // 2
    report = replay_text(text, upto=middle)
    pending = report.pending()
    assert pending is not None
    found = client.at("textDocument/completion", uri, middle, 0)
    commands = [i["label"] for i in found["items"] if i["kind"] == 3]
    assert commands == legal_moves(report)
    side = str(pending["side"])
    if side != "referee":
        assert found["items"][0]["textEdit"]["newText"] == f"{side}: {commands[0]}"
    typed = commands[-1][:3]
    prefix = "" if side == "referee" else f"{side}: "
    client.change(uri, 2, (middle, 0), (middle, 0), f"{prefix}{typed}\n")
    narrowed = client.at("textDocument/completion", uri, middle, len(prefix) + len(typed))
    labels = [i["label"] for i in narrowed["items"] if i["kind"] == 3]
    assert labels == [c for c in commands if c.startswith(typed)]
    client.close(uri)


def test_completion_after_a_roll_offers_its_dice(client: Client) -> None:
    """After a command that rolls, in a log without a seed: the dice record to fill in."""
    name = "koenig-eindhoven/opening-tabletop.log"
    uri = uri_of(name)
    text = text_of(name)
    end = len(text.splitlines())
    client.open(uri, text)
    report = replay_text(text)
    pending = report.pending()
    assert pending is not None and pending["side"] == "referee"
    command = pending["choices"][0]
    client.change(uri, 2, (end, 0), (end, 0), f"{command} \n")
    found = client.at("textDocument/completion", uri, end, len(command) + 1)
    dice = [i for i in found["items"] if i["kind"] == 15]
    assert dice and dice[0]["label"].startswith("{d6: _")
    client.close(uri)


def test_hover_shows_the_position_after_the_line(client: Client) -> None:
    name = "wwiic/opening.log"
    uri = uri_of(name)
    client.open(uri, text_of(name))
    shown = client.at("textDocument/hover", uri, 12, 2)["contents"]["value"]
    pending = replay_text(text_of(name), upto=13).pending()
    assert pending is not None
    assert shown.startswith("**After line 13**")
    assert pending["text"] in shown
    on_name = client.at("textDocument/hover", uri, 12, 19)["contents"]["value"]
    assert "**505/82**" in on_name and "Hengstal" in on_name
    client.close(uri)


def test_go_to_definition_on_a_rule_citation_opens_its_rules_entry(client: Client) -> None:
    """`[6.3]` in a comment: the row of 6.3 in docs/wwiic-rules-coverage.md, the entry
    `referee rules wwiic 6.3` shows."""
    from referee.rules import entry_line

    name = "wwiic/opening.log"
    uri = uri_of(name)
    text = text_of(name).replace("# 3.H: first action", "# [6.3] and 3.H: first action")
    client.open(uri, text)
    column = text.splitlines()[7].index("[6.3]") + 2
    found = client.at("textDocument/definition", uri, 7, column)
    entry = entry_line("wwiic", "6.3")
    assert entry is not None
    assert found["uri"] == entry[0].resolve().as_uri()
    assert found["range"]["start"]["line"] == entry[1]
    assert entry[0].read_text(encoding="utf-8").splitlines()[entry[1]].startswith("| 6.3")
    client.close(uri)


def test_semantic_tokens_mark_comments_sides_commands_names_and_dice(client: Client) -> None:
    uri = "untitled:tokens"
    client.open(uri, '[Game "wwiic"]\nallied: activate 505/82 Mook->Groesbeek {d10: 3}  # x\n')
    data = client.request("textDocument/semanticTokens/full",
                          {"textDocument": {"uri": uri}})["data"]
    kinds = [data[i + 3] for i in range(0, len(data), 5)]
    # tag name, tag value; side, command, name, name, dice, comment
    assert kinds == [6, 5, 1, 2, 3, 3, 4, 0]
    client.close(uri)


def test_a_sealed_play_by_email_log_is_offered_no_edit(client: Client) -> None:
    """Its seals cover every line: no quick fix, no formatting."""
    path = Path(__file__).resolve().parent.parent / "pbem/data/v1/arnhem44.log"
    uri = path.as_uri()
    client.open(uri, path.read_text(encoding="utf-8"))
    for line in (0, 12, 20):
        assert actions(client, uri, line) == []
    assert not client.request("textDocument/formatting", {
        "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}})
    client.close(uri)


def test_hostile_documents_get_diagnostics_and_no_read_outside_the_folder(
        client: Client, tmp_path: Path) -> None:
    from referee.core.parsing import MAX_BYTES

    (tmp_path / "inside").mkdir()
    (tmp_path / "secret.pos").write_text('[Game "battle-card"]\nsetup: secret\n')
    (tmp_path / "inside" / "link.pos").symlink_to(tmp_path / "secret.pos")
    header = '[Game "battle-card"]\n'
    cases = {
        "huge": header + "x" * (MAX_BYTES + 1),
        "binary": header + "\x00\x01\x02\ufffd\x7f" * 50 + "\n\u2028\r\r\n",
        "parent": header + '[Position "../secret.pos"]\n',
        "absolute": header + f'[Position "{tmp_path / "secret.pos"}"]\n',
        "link": header + '[Position "link.pos"]\n',
    }
    for number, (case, text) in enumerate(cases.items()):
        uri = (tmp_path / "inside" / f"{case}.log").as_uri()
        found = client.open(uri, text, version=number + 1)
        assert found, case
        assert all("secret" not in d["message"].replace("secret.pos", "") for d in found), case
        client.close(uri)
    found = client.open("untitled:nofolder", header + '[Position "start.pos"]\n')
    assert "no folder" in found[0]["message"]
    client.close("untitled:nofolder")


def test_completion_of_a_name_being_typed(client: Client) -> None:
    """Past the command word, the game's place and unit names for the word typed."""
    name = "wwiic/opening.log"
    uri = uri_of(name)
    text = text_of(name)
    client.open(uri, text)
    client.change(uri, 2, (10, 25), (10, 30), "Wy")
    found = client.at("textDocument/completion", uri, 10, 27)
    names = [i["label"] for i in found["items"] if i["kind"] == 12]
    assert "Wyler" in names
    assert all(n.lower().startswith("wy") for n in names)
    client.close(uri)
