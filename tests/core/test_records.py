"""Issue 31: ``referee.core.records.frozen`` makes a class as ``@dataclass(frozen=True)``
does, at a third of the cost: the same ``__init__`` (defaults, factories, keywords), repr,
equality, hash, docstring, ``FrozenInstanceError``, fields and ``replace``.  Checked on
record shapes side by side, and on every command of the bundled Arnhem '44 logs against
twins made by ``dataclass`` from the very source of ``commands.py``."""

from __future__ import annotations

import dataclasses
import itertools
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pytest

from referee.core.parsing import parse_log
from referee.core.records import frozen, once, record
from referee.games.arnhem44 import commands

ROOT = Path(__file__).resolve().parents[2]


def _shapes(decorate: Any) -> list[type]:
    class Base:
        chance: ClassVar[bool] = False

    class Empty(Base):
        pass

    class One(Base):
        name: str

    class Many(Base):
        groups: tuple[tuple[str, int], ...]
        path: tuple[str, ...]
        joker: bool = False
        note: str = field(default="x", compare=False)
        items: list[int] = field(default_factory=list, repr=False, hash=False)

    class Child(Many):
        chance: ClassVar[bool] = True
        extra: int = 3

        def __repr__(self) -> str:
            return "its own"

    return [decorate(kind) for kind in (Base, Empty, One, Many, Child)]


def _seen(made: Any) -> tuple[Any, ...]:
    try:
        made.joker = True
        refused = ""
    except dataclasses.FrozenInstanceError as error:
        refused = str(error)
    try:
        del made.joker
    except dataclasses.FrozenInstanceError as error:
        refused += str(error)
    return (repr(made), hash(made), refused, type(made).__doc__, type(made).__match_args__,
            [(f.name, f.default) for f in dataclasses.fields(made)], made.chance)


@pytest.mark.parametrize("index", range(5))
def test_a_record_is_made_as_a_frozen_dataclass(index: int) -> None:
    ours, theirs = _shapes(frozen)[index], _shapes(dataclass(frozen=True))[index]
    calls: Any = {
        0: [((), {})], 1: [((), {})], 2: [(("a",), {}), ((), {"name": "b"})],
    }.get(index, [((((("inf", "82"), 2),), ("A", "B")), {}),
                  (((), ()), {"joker": True, "note": "y", "items": [1]}),
                  ((), {"groups": (), "path": ("C",)})])
    made = []
    for args, kwargs in calls:
        mine, twin = ours(*args, **kwargs), theirs(*args, **kwargs)
        assert _seen(mine) == _seen(twin)
        assert dataclasses.replace(mine).__dict__ == dataclasses.replace(twin).__dict__
        made.append((mine, twin))
    for mine, twin in made:
        for other, other_twin in made:
            assert (mine == other) == (twin == other_twin)
            assert (mine != other) == (twin != other_twin)
        assert mine != twin and (mine == 1) is False
    with pytest.raises(TypeError):
        ours(*calls[0][0], 1, 2, 3, 4, 5, 6, 7)
    if index > 2:
        assert ours((), ()).items is not ours((), ()).items  # a fresh list each time
        assert ours((), (), note="n") == ours((), (), note="m")  # compare=False


@pytest.mark.parametrize("index", range(5))
def test_a_mutable_record_is_made_as_a_dataclass(index: int) -> None:
    ours, theirs = _shapes(record)[index], _shapes(dataclass)[index]
    args: Any = {0: (), 1: (), 2: ("a",)}.get(index, ((), ("A",)))
    mine, twin = ours(*args), theirs(*args)
    assert (repr(mine), ours.__doc__, ours.__hash__) == (repr(twin), theirs.__doc__, None)  # type: ignore[comparison-overlap]
    assert (mine == ours(*args), mine == twin) == (True, False)
    if index > 2:
        mine.joker = twin.joker = True
        assert repr(mine) == repr(twin) and mine != ours(*args)
        assert ours.__setattr__ is object.__setattr__  # type: ignore[comparison-overlap]

    def own() -> Any:
        class Own:
            name: str

            def __eq__(self, other: object) -> bool:
                return True

            def __hash__(self) -> int:
                return 7

        return Own

    mine, twin = frozen(own())("a"), dataclass(frozen=True)(own())("b")
    assert mine == twin and hash(mine) == hash(twin) == 7
    assert repr(mine).replace("'a'", "'b'") == repr(twin)


def test_a_mutable_record_sets_its_fields_as_dataclass_does() -> None:
    """A mutable record's ``__init__`` assigns each field, as dataclass's does: a class that
    watches its own assignments (``__setattr__``) sees every field set, in order."""

    def watched() -> Any:
        class Watched:
            seen: ClassVar[list[str]]
            name: str
            count: int = 2
            items: list[int] = field(default_factory=list)

            def __setattr__(self, key: str, value: object) -> None:
                type(self).seen.append(key)
                object.__setattr__(self, key, value)

        Watched.seen = []
        return Watched

    ours, theirs = record(watched()), dataclass(watched())
    ours("a"), theirs("a")
    assert ours.seen == theirs.seen == ["name", "count", "items"]
    assert vars(ours("b", 3, [1])) == vars(theirs("b", 3, [1])) == {
        "name": "b", "count": 3, "items": [1]}


def _twins() -> types.ModuleType:
    """commands.py made with ``@dataclass(frozen=True)``, as it was before ``frozen``."""
    source = Path(commands.__file__).read_text(encoding="utf-8")
    assert source.count("\n@frozen\n") >= 30
    source = source.replace("\n@frozen\n", "\n@dataclass(frozen=True)\n").replace(
        "from referee.core.records import frozen", "from dataclasses import dataclass")
    module = types.ModuleType("referee_commands_twins")
    sys.modules[module.__name__] = module  # dataclass resolves ClassVar through it
    try:
        exec(compile(source, "commands_twins.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module


def test_every_command_of_the_logs_is_its_dataclass_twin() -> None:
    twins = _twins()
    made: list[tuple[Any, Any]] = []
    for path in sorted((ROOT / "logs" / "arnhem44").glob("*.log")):
        for entry in parse_log(path.read_text(encoding="utf-8")).entries:
            for item in getattr(entry, "items", ()):
                command = getattr(item, "command", None)
                if not isinstance(command, commands.Cmd):
                    continue
                twin_kind = getattr(twins, type(command).__name__)
                twin = twin_kind(**{f.name: getattr(command, f.name)
                                    for f in dataclasses.fields(command)})
                made.append((command, twin))
    kinds = {type(command) for command, _ in made}
    assert len(made) > 1500 and len(kinds) >= 20, (len(made), len(kinds))
    for kind in kinds:
        assert kind.__doc__ == getattr(twins, kind.__name__).__doc__
    for command, twin in made:
        assert (repr(command), str(command), hash(command)) == (repr(twin), str(twin), hash(twin))
        assert command == type(command)(*dataclasses.astuple(command)) and command != twin
    for (first, first_twin), (second, second_twin) in itertools.pairwise(made):
        assert (first == second) == (first_twin == second_twin)


def test_once_works_a_value_out_at_the_first_read_and_keeps_it() -> None:
    """``once`` as ``functools.cached_property`` (which ``DiceRecord.faces`` was): worked out
    at the first read, kept in the instance's ``__dict__``, on a frozen record too."""
    calls: list[int] = []

    @frozen
    class Dice:
        groups: tuple[tuple[int, ...], ...]

        @once
        def faces(self) -> tuple[int, ...]:
            calls.append(1)
            return tuple(f for group in self.groups for f in group)

    dice = Dice(((1, 2), (3,)))
    assert isinstance(vars(Dice)["faces"], once) and Dice.faces is vars(Dice)["faces"]
    assert dice.faces == (1, 2, 3) and dice.faces is dice.faces and len(calls) == 1
    assert vars(dice)["faces"] == (1, 2, 3) and dice == Dice(((1, 2), (3,)))
    assert Dice(((4,),)).faces == (4,) and len(calls) == 2
