"""The events of Battle Card's hot path, made in words only when someone reads them.

Self-play applies tens of thousands of commands a second and reads none of their events: an
event here keeps the plain facts of what happened (a tuple) and the two functions that turn
them into its sentence and its data, called the first time ``text`` or ``data`` is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.core.dice import Roll
from referee.core.engine import Event

ROW_WORDS = {"allied": "Allies stronger", "german": "Germans stronger", "equal": "equal"}

Facts = tuple[Any, ...]


class LazyEvent(Event):
    """An event whose words are ``words(*facts)`` and data ``data(*facts)``, made when read."""

    __slots__ = ("data_of", "facts", "words_of")

    def __init__(
        self,
        kind: str,
        facts: Facts,
        words_of: Callable[..., str],
        data_of: Callable[..., Mapping[str, Any]],
        rolls: tuple[Roll, ...] = (),
    ) -> None:
        self.kind = kind
        self.facts = facts
        self.words_of = words_of
        self.data_of = data_of
        self._text = ""
        self._data: Any = None
        self.rolls = rolls

    @property
    def text(self) -> str:
        text = self._text
        if not isinstance(text, str) or not text:
            text = self._text = self.words_of(*self.facts)
        return text

    @property
    def data(self) -> Mapping[str, Any]:
        if self._data is None:
            self._data = self.data_of(*self.facts)
        return self._data  # type: ignore[no-any-return]

    def with_rolls(self, rolls: tuple[Roll, ...]) -> Event:
        return LazyEvent(self.kind, self.facts, self.words_of, self.data_of, rolls)


# -- combat (Turn step 1) -----------------------------------------------------------------

_LABELS: dict[tuple[str, bool, int, int], str] = {}


def fight_label(city: str, attack: bool, allied: int, german: int) -> str:
    """What the combat die is rolled for: ``attack Grave (3 against 2)`` (made once each)."""
    key = (city, attack, allied, german)
    label = _LABELS.get(key)
    if label is None:
        mode = "attack" if attack else "defend"
        label = _LABELS[key] = f"{mode} {city} ({allied} against {german})"
    return label


def _combat_parts(
    allied_change: int, german_change: int, control: bool, control_refused: bool
) -> str:
    parts = []
    if allied_change:
        parts.append(f"Allies {allied_change}")
    if german_change:
        parts.append(f"Germany {german_change}")
    if control_refused:
        parts.append("no Allied control: the Allied unit is removed (option)")
    elif control:
        parts.append("Allied control")
    return "; ".join(parts) or "no effect"


def combat_words(
    city: str, attack: bool, unit: str, allied: int, german: int, row: str, face: int,
    allied_change: int, german_change: int, control: bool, control_refused: bool,
) -> str:
    mode = "attack" if attack else "defend"
    result = _combat_parts(allied_change, german_change, control, control_refused)
    return (
        f"{mode} at {city}: {unit} {allied} against German {german} "
        f"({ROW_WORDS[row]}), rolled {face}: {result}"
    )


def combat_data(
    city: str, attack: bool, unit: str, allied: int, german: int, row: str, face: int,
    allied_change: int, german_change: int, control: bool, control_refused: bool,
) -> dict[str, Any]:
    return {
        "city": city,
        "mode": "attack" if attack else "defend",
        "row": row,
        "roll": face,
        "allied": allied_change,
        "german": german_change,
        "control": control,
        "result": _combat_parts(allied_change, german_change, control, control_refused),
    }


# -- German reinforcement (Turn step 2) ---------------------------------------------------


def _control_words(taken: bool) -> str:
    return ", German control" if taken else ""


def grown_words(city: str, german: int, grown: int, taken: bool) -> str:
    return f"German reinforcement at {city}: {german} -> {grown}" + _control_words(taken)


def grown_data(city: str, german: int, grown: int, taken: bool) -> dict[str, Any]:
    return {"city": city, "german": grown}


def held_back_words(city: str, german: int, arnhem_allied: bool, taken: bool) -> str:
    side = "Allied" if arnhem_allied else "German"
    return f"no reinforcement for {city}: Arnhem is {side}-controlled" + _control_words(taken)


def held_back_data(city: str, german: int, arnhem_allied: bool, taken: bool) -> dict[str, Any]:
    return {"city": city, "german": german}


# -- the turn (Turn step 5) ---------------------------------------------------------------


def turn_words(turn: int) -> str:
    return f"turn {turn} begins"


def turn_data(turn: int) -> dict[str, Any]:
    return {"turn": turn}
