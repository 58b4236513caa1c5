"""Protocol v2 (docs/pbem.md, "Protocol v2"; docs/dice.md, "Play by e-mail, protocol v2").

Issue 27, section 1: "the party that rolls a die can write any face it likes, and the
opponent's `play`, `verify --secret` and `verify --since` all accept it: only the final
`verify` with both secrets ... finds `dice-mismatch`".  Under v2 every die and every reveal
is checked by the opponent's next `play`, with no secret.  Section 2: "The dice of a chance
step must not depend on how its lines are grouped".  And the logs made before: "Logs made
before the change still verify as they did (their version tag says how)".
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.core.dice import DiceStream
from referee.pbem import hashchain
from referee.pbem.chain import make_seal, plan_of, seal_of, seal_text
from referee.pbem.hashchain import (
    CHAIN_LENGTH,
    ChainExhausted,
    anchor,
    chain_of,
    chain_step,
    chain_top,
    descends,
    dice_key,
)
from referee.pbem.hidden import commitment_v2, nonce_v2
from referee.pbem.keys import read_secret
from referee.pbem.table import open_log

from .helpers import run, status

DATA = Path(__file__).parent / "data" / "v1"
SECRET = "a" * 64


def _frame(*fields: str | bytes) -> bytes:
    """An independent reading of the encoding in docs/pbem.md."""
    out = b"market-garden-referee/pbem/v1\x00"
    for item in fields:
        data = item.encode() if isinstance(item, str) else item
        out += len(data).to_bytes(4, "big") + data
    return out


# -- 5. test vectors, pinned forever ---------------------------------------------------------

def test_vector_chain_top_and_step() -> None:
    """x_N = HMAC-SHA256(secret, frame("v2/chain-top", party)); x_(i-1) = SHA-256(frame(
    "v2/chain", party, x_i))."""
    top = chain_top(SECRET, "allied")
    assert top == hmac.new(SECRET.encode(), _frame("v2/chain-top", "allied"),
                           hashlib.sha256).digest()
    assert top.hex() == "ab0910f40a50996085600c92332a4933b787a57cc3975e8b49969d7c26e218b9"
    below = chain_step("allied", top)
    assert below == hashlib.sha256(_frame("v2/chain", "allied", top)).digest()
    assert below.hex() == "7f93c26d743f13655fafbb549f0fc1dd0d1ee69e48ab10b131608c1d7d2c9662"


def test_vector_anchor_is_the_whole_chain_hashed_down() -> None:
    """The v2 commitment is x_0: x_N hashed down CHAIN_LENGTH = 2^16 times."""
    assert CHAIN_LENGTH == 2**16
    value = chain_top(SECRET, "keeper")
    for _ in range(CHAIN_LENGTH):
        value = hashlib.sha256(_frame("v2/chain", "keeper", value)).digest()
    assert anchor(SECRET, "keeper") == value.hex()
    assert value.hex() == "23cc371cc05baa08f6324ad3014a558218b76e7e42ee03c8ae5982eca19c7a07"
    chain = chain_of(SECRET, "keeper")
    assert chain.value(0) == value
    assert descends("keeper", chain.value(1), 1, value, 0)
    assert descends("keeper", chain.value(700), 700, chain.value(3), 3)
    assert not descends("keeper", chain.value(3), 3, chain.value(700), 700)
    assert chain_step("keeper", chain.value(CHAIN_LENGTH)) == chain.value(CHAIN_LENGTH - 1)


def test_vector_dice_key_and_the_dice_of_a_fixed_input() -> None:
    """key = SHA-256(frame("v2/dice", x_i, link(k-1), body(k), seal(k))); the dice are the v1
    stream seeded with its hex, drawn from 0."""
    value, link = bytes(range(32)), b"\x01" * 32
    key = dice_key(value, link, "allied: attack Grave", "0123456789abcdef")
    assert key == hashlib.sha256(_frame("v2/dice", value, link, "allied: attack Grave",
                                        "0123456789abcdef")).hexdigest()
    assert key == "e58cd618714dbf738c07bdd934dbb8253f2ff1ad331fd5f3bf61a6737682b21a"
    stream = DiceStream(key)
    assert [stream.face(i, 6) for i in range(8)] == [3, 3, 4, 3, 2, 5, 2, 2]
    assert [stream.face(i, 10) for i in range(8)] == [5, 9, 8, 9, 4, 9, 2, 6]


def test_vector_hidden_commitment() -> None:
    """nonce = HMAC-SHA256(secret, frame("v2/hidden-nonce", link, item)); commitment =
    SHA-256(frame("v2/hidden", nonce, value))."""
    link = b"\x02" * 32
    nonce = nonce_v2(SECRET, link, 0)
    assert nonce == hmac.new(SECRET.encode(), _frame("v2/hidden-nonce", link, "0"),
                             hashlib.sha256).digest()
    assert commitment_v2(nonce, 7) == hashlib.sha256(_frame("v2/hidden", nonce,
                                                            "7")).hexdigest()
    assert nonce.hex() == "daed0b624d21d317431977da8e0ea484431dd51a367d689af57e63e7beb91472"
    assert commitment_v2(nonce, 7) == (
        "b4caaaccbb4ff64f9ae3fccb75f42dcf74552e81c5884f2330da41ba2783169a")


def test_a_chain_that_runs_out_says_so() -> None:
    with pytest.raises(ChainExhausted, match="holds 65,536 rolled lines"):
        chain_of(SECRET, "allied").value(CHAIN_LENGTH + 1)


# -- logs made before v2 ---------------------------------------------------------------------

V1_GAMES = ["battle-card", "battle-card-moderated", "wwiic", "koenig", "arnhem44"]


def _v1_secrets(name: str) -> list[str]:
    """The secret files, in the header's order of commitment (as they were given then)."""
    text = (DATA / f"{name}.log").read_text()
    parties = re.findall(r'^\[(\w+)Commit "', text, re.M)
    paths = [DATA / (f"{name}.secret" if p == "Seed" else f"{name}.{p.lower()}.secret")
             for p in parties]
    return [arg for path in paths for arg in ("--secret", str(path))]


@pytest.mark.parametrize("name", V1_GAMES)
def test_a_v1_log_verifies_as_it_did(name: str) -> None:
    """The v1 logs in tests/pbem/data/v1 were made by 'referee play' before protocol v2
    (commit bf1993b), and their 'verify --json' kept beside them: the verdict is unchanged,
    word for word: every key but the position the log reaches (``state``, ``pending``,
    ``outcome``), which follows the rules as they are refereed now (issue 25's rulings
    changed Arnhem '44's bridge control, issue 26's the Eindhoven Bridge state, issue 28
    added ``pending.dice``): the dice, seals and findings are the protocol's."""
    assert '[Pbem "v1"]' in (DATA / f"{name}.log").read_text()
    ran = run("verify", DATA / f"{name}.log", *_v1_secrets(name), "--json")
    then = json.loads((DATA / f"{name}.verify.json").read_text())
    now = json.loads(ran.out)
    now["source"] = then["source"]
    position = ("state", "pending", "outcome")
    assert {k: v for k, v in now.items() if k not in position} == {
        k: v for k, v in then.items() if k not in position}
    assert (now["state"] is None) == (then["state"] is None)
    assert ran.code == 0 and now["findings"] == []


def test_a_v1_moderated_log_still_replays_with_its_secret_as_seed() -> None:
    """v1: "Dice are the v1 stream keyed by the secret, by the draw number over the whole
    log, exactly as a seeded log would be"."""
    secret = read_secret(DATA / "battle-card-moderated.secret").value
    ran = run("replay", DATA / "battle-card-moderated.log", "--seed", secret)
    assert ran.code == 0, ran.out


def test_a_v1_game_played_on_stays_v1(tmp_path: Path) -> None:
    """A v1 game in progress: 'play' writes v1 lines (no chain value) and the whole game still
    verifies under v1."""
    for path in DATA.glob("wwiic*"):
        shutil.copy(path, tmp_path / path.name)
    log = tmp_path / "wwiic.log"
    step = status(log)["next"]
    assert isinstance(step, dict)
    party = str(step["party"])
    move = [] if step["kind"] in ("roll", "chance") else [
        "pass" if "pass" in step["choices"] else step["choices"][-1]]  # type: ignore[operator,index]
    ran = run("play", log, *move, "--secret", tmp_path / f"wwiic.{party}.secret")
    assert ran.code == 0, ran.err
    assert "[chain " not in log.read_text()
    assert open_log(log).mode.protocol == "v1"
    ran = run("verify", log, *[a for p in ("allied", "german")
                               for a in ("--secret", str(tmp_path / f"wwiic.{p}.secret"))])
    assert ran.code == 0 and "verdict: proved" in ran.out


# -- 4. a forged die is found at the victim's next play --------------------------------------

FIXED = iter(())


@pytest.fixture
def fixed_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Secrets from a counter, so a game's dice are the same on every run."""
    made = (f"{n:02x}" * 32 for n in range(100, 200))
    from referee.pbem import keys

    monkeypatch.setattr(keys.system_random, "token_hex", lambda n: next(made))


def _new_game(folder: Path, game: str, first: str, second: str,
              position: str | None = None) -> tuple[Path, dict[str, Path]]:
    log = folder / "g.log"
    extra: list[str | Path] = []
    if position is not None:
        (folder / "start.pos").write_text(position)
        extra = ["--position", folder / "start.pos"]
    ran = run("new", game, "--commit", "--side", first, *extra, "-o", log)
    assert ran.code == 0, ran.err
    assert run("join", log, "--side", second).code == 0
    assert '[Pbem "v2"]' in log.read_text()
    return log, {p: folder / f"g.{p}.secret" for p in (first, second)}


Chooser = Callable[[str, list[str]], str]


def passing(party: str, choices: list[str]) -> str:
    return "pass" if "pass" in choices else choices[-1]


def _play_until_rolled(log: Path, secrets: dict[str, Path], choose: Chooser,
                       wanted: str = r"\{(d\d+|cup): .*\[chain ") -> tuple[int, str, str]:
    """Play until a party's 'play' wrote a line that matches ``wanted`` and, that party's
    plays done, the other party plays next: (that line, the roller, the victim).  The log as
    it was before that play, the copy the victim mailed, is left in ``mailed.log`` beside."""
    found: tuple[int, str] | None = None
    for _ in range(60):
        step = status(log)["next"]
        assert isinstance(step, dict) and step["kind"] != "over"
        party = str(step["party"])
        sent = log.read_text()
        before = set(sent.splitlines())
        move = [] if step["kind"] in ("roll", "chance") else [
            choose(party, list(step["choices"]))]  # type: ignore[call-overload]
        ran = run("play", log, *move, "--secret", secrets[party])
        assert ran.code == 0, ran.out + ran.err
        after = status(log)["next"]
        assert isinstance(after, dict)
        rolled = [n for n, line in enumerate(log.read_text().splitlines(), 1)
                  if line not in before and re.search(wanted, line)]
        if rolled and found is None:
            found = rolled[-1], party
            (log.parent / "mailed.log").write_text(sent)
        if found and after["kind"] != "over" and after["party"] != found[1]:
            return found[0], found[1], str(after["party"])
    raise AssertionError("no roll was made")


def _edit_first_die(log: Path, number: int) -> str:
    """The log's text with the first die of line ``number`` one face off (a drawn chit: another
    chit still in the cup, which was in it at the draw)."""
    text = log.read_text()
    lines = text.splitlines()
    line = lines[number - 1]
    cup = re.search(r"\{cup: ([^}|]+)", line)
    if cup:
        state = status(log)["state"]
        assert isinstance(state, dict)
        other = next(str(c) for c in state["cup"] if str(c) != cup.group(1).strip())
        lines[number - 1] = line.replace(cup.group(0), "{cup: " + other, 1)
    else:
        found = re.search(r"\{d(\d+): (\d+)", line)
        assert found, line
        sides, face = int(found.group(1)), int(found.group(2))
        new = face + 1 if face + 1 <= sides - 1 else face - 1  # within 0-9 and 1-10 alike
        lines[number - 1] = line.replace(found.group(0), f"{{d{sides}: {new}", 1)
    return "\n".join(lines) + "\n"


def _victim_plays(log: Path, secret: Path) -> str:
    step = status(log)["next"]
    assert isinstance(step, dict)
    move = [] if step["kind"] in ("roll", "chance") else [
        passing("", list(step["choices"]))]  # type: ignore[call-overload]
    before = log.read_text()
    ran = run("play", log, *move, "--secret", secret)
    assert ran.code == 1, ran.out + ran.err
    assert log.read_text() == before
    return " ".join(ran.err.split())


ARNHEM_START = """[Game "arnhem44"]
setup: clear; round 2; phase 3.3; icons 8
setup: place 2 inf Eindhoven; place 2 inf/UK Zon
setup: unseen 7 6; stock 2
"""


def arnhem_choice(party: str, choices: list[str]) -> str:
    """The Allied player tries to defuse the crate, the German shows it (test_hidden.py)."""
    wanted = ["reveal 7", "end movement"] + (["defuse Son-bridge crate 1"]
                                              if party == "allied" else [])
    for answer in wanted:
        if answer in choices:
            return answer
    return "pass" if "pass" in choices else choices[0]


GAMES: dict[str, tuple[str, str, str, Chooser, str | None]] = {
    "battle-card": ("battle-card", "allied", "keeper",
                    lambda p, c: "pass" if "pass" in c else c[0], None),
    "wwiic": ("wwiic", "allied", "german", passing, None),
    "koenig-eindhoven": ("koenig-eindhoven", "allied", "german", passing, None),
    "arnhem44": ("arnhem44", "german", "allied", arnhem_choice, ARNHEM_START),
}


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
@pytest.mark.parametrize("name", list(GAMES))
def test_a_forged_die_is_refused_at_the_victims_next_play(name: str, tmp_path: Path) -> None:
    """Two-secret v2 game: the roller edits a die it has just rolled and mails the log; the
    victim's ordinary 'play' refuses it, naming the cheat and the line; so do the victim's
    'verify --secret' (own secret only) and 'verify --since' the copy the victim mailed."""
    game, first, second, choose, position = GAMES[name]
    log, secrets = _new_game(tmp_path, game, first, second, position)
    number, roller, victim = _play_until_rolled(log, secrets, choose)
    mailed = tmp_path / "mailed.log"  # what the victim mailed to the roller
    log.write_text(_edit_first_die(log, number))

    said = _victim_plays(log, secrets[victim])
    assert f"line {number} (dice-mismatch:" in said
    assert "the dice were changed after they were rolled" in said

    ran = run("verify", log, "--secret", secrets[victim], "--json")
    found = [(f["line"], f["kind"]) for f in json.loads(ran.out)["findings"]]
    assert ran.code == 1 and found[0] == (number, "dice-mismatch")
    ran = run("verify", log, "--since", mailed, "--json")
    found = [(f["line"], f["kind"]) for f in json.loads(ran.out)["findings"]]
    assert ran.code == 1 and found[0] == (number, "dice-mismatch")
    assert roller != victim


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_a_forged_die_with_a_forged_chain_value(tmp_path: Path) -> None:
    """The keeper edits the die and writes another chain value beside it (any 64 hex digits):
    the value does not hash down to the keeper's commitment, so the player's next 'play'
    refuses the line as dice-mismatch."""
    log, secrets = _new_game(tmp_path, "battle-card", "allied", "keeper")
    number, roller, victim = _play_until_rolled(
        log, secrets, lambda p, c: "pass" if "pass" in c else c[0], r": attack .*\[chain ")
    assert (roller, victim) == ("keeper", "allied")
    lines = _edit_first_die(log, number).splitlines()
    lines[number - 1] = re.sub(r"\[chain (\d+) [0-9a-f]{64}\]",
                               lambda m: f"[chain {m.group(1)} {'7' * 64}]", lines[number - 1])
    log.write_text("\n".join(lines) + "\n")
    said = _victim_plays(log, secrets[victim])
    assert f"line {number}: value 1 of Keeper's chain written here does not hash down" in said


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_a_chain_value_out_of_turn_is_refused(tmp_path: Path) -> None:
    """"every line that R rolls advances R's index by exactly one": a keeper who skips to a
    later value of the chain (to roll other dice) is refused at the player's next play."""
    log, secrets = _new_game(tmp_path, "battle-card", "allied", "keeper")
    number, roller, victim = _play_until_rolled(
        log, secrets, lambda p, c: "pass" if "pass" in c else c[0], r": attack .*\[chain ")
    value = chain_of(read_secret(secrets[roller]).value, roller).value(2)
    lines = log.read_text().splitlines()
    lines[number - 1] = re.sub(r"\[chain 1 [0-9a-f]{64}\]", f"[chain 2 {value.hex()}]",
                               lines[number - 1])
    log.write_text("\n".join(lines) + "\n")
    said = _victim_plays(log, secrets[victim])
    assert (f"line {number}: this line reveals value 2 of Keeper's chain, but it is rolled "
            f"line 1 of Keeper, which takes value 1") in said


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_a_forged_crate_reveal_is_refused_at_the_victims_next_play(tmp_path: Path) -> None:
    """Arnhem '44, Phase 3.1: "the German player shows its value".  The German shows another
    value than the one he committed and reseals his line with his own secret (so no seal
    breaks): the opening he published does not open his commitment, and the Allied player's
    next 'play' refuses the line as hidden-changed."""
    log, secrets = _new_game(tmp_path, "arnhem44", "german", "allied", ARNHEM_START)
    assert run("play", log, "rig Son-bridge 7", "--secret", secrets["german"]).code == 0
    number, roller, victim = _play_until_rolled(log, secrets, arnhem_choice, r"reveal 7")
    mailed = tmp_path / "mailed.log"  # what the Allied player mailed to the German
    text = log.read_text()
    assert re.search(r"german: reveal 7 .*\[open crate-1 [0-9a-f]{64}\]", text)
    assert status(log)["next"]["party"] == "allied"  # type: ignore[index]
    lines = text.splitlines()
    lines[number - 1] = lines[number - 1].replace("german: reveal 7", "german: reveal 6")
    log.write_text("\n".join(lines) + "\n")
    _reseal(log, secrets["german"], "german", number)
    assert run("verify", log, "--secret", secrets["german"], "--json").code == 1
    said = _victim_plays(log, secrets["allied"])
    assert f"line {number}: crate 1 is shown as 6, but German committed it to another value" in said
    for extra in ([], ["--secret", str(secrets["allied"])], ["--since", str(mailed)]):
        ran = run("verify", log, *extra, "--json")
        found = [(f["line"], f["kind"]) for f in json.loads(ran.out)["findings"]]
        assert ran.code == 1 and found[0] == (number, "hidden-changed"), (extra, found)
    assert (roller, victim) == ("german", "allied")


def _reseal(log: Path, secret_file: Path, party: str, start: int) -> None:
    """Remake the seal of every line ``party`` wrote from line ``start`` on, in order (what a
    cheat can do to its own lines, holding its own secret)."""
    secret = read_secret(secret_file).value
    table = open_log(log)
    numbers = [n for n, p in plan_of(table.log, table.mode).lines.items()
               if n >= start and p.writer == party]
    for number in numbers:
        table = open_log(log)
        planned = plan_of(table.log, table.mode).lines[number]
        lines = log.read_text().splitlines()
        line = lines[number - 1]
        seal = make_seal(secret, planned.link, planned.body)
        lines[number - 1] = line.replace(seal_text(seal_of(line) or ""), seal_text(seal))
        log.write_text("\n".join(lines) + "\n")


# -- 3. the grouping of chance steps ---------------------------------------------------------

@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_chance_steps_grouped_otherwise_are_refused(tmp_path: Path) -> None:
    """Eindhoven Bridge's artillery (6.1), allied-support (6.2) and the Command Cup draw
    (7.0), the roller's run of chance steps.  Under v2 each is a line of its own, the one
    form 'referee play' writes: every other grouping, even sealed by the roller with its own
    secret, is refused at the other party's next play, so no grouping can give other dice."""
    log, secrets = _new_game(tmp_path, "koenig-eindhoven", "allied", "german")
    assert run("play", log, "--secret", secrets["allied"]).code == 0
    text = log.read_text()
    header = [line for line in text.splitlines() if line.startswith("[")]
    canonical = [line.split("#")[0].strip() for line in text.splitlines()
                 if line.startswith(("artillery", "allied-support", "draw"))]
    assert [c.split()[0] for c in canonical] == ["artillery", "allied-support", "draw"]
    assert all("{" in c for c in canonical)  # each with its dice
    secret = read_secret(secrets["allied"]).value
    chain = chain_of(secret, "allied")
    for grouping in ([[0, 1], [2]], [[0], [1, 2]], [[0, 1, 2]]):
        lines = list(header)
        for rolled, group in enumerate(grouping, 1):
            code = "; ".join(canonical[i] for i in group)  # the dice as the roller wants them
            draft = tmp_path / "draft.log"
            draft.write_text("\n".join(lines) + "\n" + code + "\n")
            table = open_log(draft)
            planned = plan_of(table.log, table.mode).lines[len(lines) + 1]
            seal = make_seal(secret, planned.link, planned.body)  # sealed by the roller
            lines.append(f"{code}  # {seal_text(seal)} "
                         f"[chain {rolled} {chain.value(rolled).hex()}]")
        grouped = tmp_path / "grouped.log"
        grouped.write_text("\n".join(lines) + "\n")
        first = len(header) + 1 + next(n for n, g in enumerate(grouping) if len(g) > 1)
        ran = run("play", grouped, "--secret", secrets["german"])
        assert ran.code == 1
        said = " ".join(ran.err.split())
        assert f"line {first}: under protocol v2 each chance step is a line of its own" in said
        ran = run("verify", grouped, "--json")
        found = [(f["line"], f["kind"]) for f in json.loads(ran.out)["findings"]]
        assert found[0] == (first, "protocol")


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_a_party_whose_chain_runs_out_is_told_so(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A chain holds CHAIN_LENGTH rolled lines; here it is made to hold one, and the
    keeper's second roll is refused with a sentence."""
    log, secrets = _new_game(tmp_path, "battle-card", "allied", "keeper")
    assert run("play", log, "--secret", secrets["allied"]).code == 0
    assert run("play", log, "attack Grave", "--secret", secrets["allied"]).code == 0
    monkeypatch.setattr(hashchain, "CHAIN_LENGTH", 1)
    assert run("play", log, "--secret", secrets["keeper"]).code == 0  # value 1: the last
    assert run("play", log, "attack Arnhem", "--secret", secrets["allied"]).code == 0
    ran = run("play", log, "--secret", secrets["keeper"])
    assert ran.code == 1
    assert "Keeper's chain of dice holds 1 rolled lines" in " ".join(ran.err.split())


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_the_roller_remembers_which_line_each_value_was_for(tmp_path: Path) -> None:
    """The record beside the secret file (GAME.keeper.secret.rolled): a dry run writes
    nothing; a roll made again for the same line (its save lost, say) is allowed; the same
    value for another line is the take-back of test_cheats.py."""
    log, secrets = _new_game(tmp_path, "battle-card", "allied", "keeper")
    ledger = tmp_path / "g.keeper.secret.rolled"
    assert run("play", log, "--secret", secrets["allied"]).code == 0
    assert run("play", log, "attack Grave", "--secret", secrets["allied"]).code == 0
    waiting = log.read_text()
    assert run("play", log, "--dry-run", "--secret", secrets["keeper"]).code == 0
    assert not ledger.exists()
    assert run("play", log, "--secret", secrets["keeper"]).code == 0
    rolled = log.read_text()
    assert re.search(r"^1 [0-9a-f]{16} [0-9a-f]{16}$", ledger.read_text(), re.M)
    assert ledger.stat().st_mode & 0o077 == 0
    log.write_text(waiting)
    assert run("play", log, "--secret", secrets["keeper"]).code == 0
    assert log.read_text() == rolled


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_dice_without_their_chain_value_are_refused(tmp_path: Path) -> None:
    """A keeper who strips the chain value from a line it rolled (so that nobody can check
    the faces it wrote) is refused at the player's next play."""
    log, secrets = _new_game(tmp_path, "battle-card", "allied", "keeper")
    number, _, victim = _play_until_rolled(
        log, secrets, lambda p, c: "pass" if "pass" in c else c[0], r": attack .*\[chain ")
    lines = _edit_first_die(log, number).splitlines()
    lines[number - 1] = re.sub(r" \[chain \d+ [0-9a-f]{64}\]", "", lines[number - 1])
    log.write_text("\n".join(lines) + "\n")
    said = _victim_plays(log, secrets[victim])
    assert f"line {number}: the dice on this line are written without Keeper's chain value" in said


@pytest.mark.usefixtures("fast_disk", "fixed_secrets")
def test_a_crate_shown_without_its_opening_is_refused(tmp_path: Path) -> None:
    """The German shows the crate but leaves out the nonce that opens his commitment: nobody
    could check the value, and the Allied player's next play refuses the line."""
    log, secrets = _new_game(tmp_path, "arnhem44", "german", "allied", ARNHEM_START)
    assert run("play", log, "rig Son-bridge 7", "--secret", secrets["german"]).code == 0
    number, _, _ = _play_until_rolled(log, secrets, arnhem_choice, r"reveal 7")
    lines = log.read_text().splitlines()
    lines[number - 1] = re.sub(r" \[open crate-1 [0-9a-f]{64}\]", "", lines[number - 1])
    log.write_text("\n".join(lines) + "\n")
    said = _victim_plays(log, secrets["allied"])
    assert f"line {number}: crate 1 is shown as 7 without its opening" in said


@pytest.mark.usefixtures("fast_disk")
def test_joining_a_v1_game_commits_as_v1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A v1 game opened before v2 and joined after: the joiner's commitment is a v1 one (the
    log's tag says which), and the game plays and verifies under v1."""
    from referee.pbem import header

    log = tmp_path / "g.log"
    with monkeypatch.context() as patch:  # the referee of before: it wrote v1 headers
        patch.setattr(header, "CURRENT_PROTOCOL", "v1")
        assert run("new", "battle-card", "--commit", "--side", "allied", "-o", log).code == 0
    assert '[Pbem "v1"]' in log.read_text()
    assert run("join", log).code == 0
    keeper = read_secret(tmp_path / "g.keeper.secret")
    assert f'[KeeperCommit "{keeper.commitment}"]' in log.read_text()
    assert run("play", log, "--secret", tmp_path / "g.allied.secret").code == 0
    assert run("play", log, "attack Grave", "--secret", tmp_path / "g.allied.secret").code == 0
    assert run("play", log, "--secret", tmp_path / "g.keeper.secret").code == 0
    assert "[chain " not in log.read_text()
    ran = run("verify", log, "--secret", tmp_path / "g.allied.secret", "--secret",
              tmp_path / "g.keeper.secret")
    assert ran.code == 0 and "verdict: proved" in ran.out
