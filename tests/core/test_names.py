"""Names: case, spaces, dots, hyphens and apostrophes do not count; unknown names get a
did-you-mean; a name two things share is ambiguous."""

from __future__ import annotations

import pytest

from referee.core.errors import AmbiguousName, UnknownName
from referee.core.names import NameIndex, normalise, split_leading_name


def test_spellings_of_one_name_match() -> None:
    assert normalise("St. Oedenrode") == normalise("st oedenrode") == normalise("St-Oedenrode")
    assert normalise("'s-Hertogenbosch") == normalise("s Hertogenbosch")


def test_lookup_and_did_you_mean() -> None:
    index: NameIndex[str] = NameIndex("space")
    for name in ("Groesbeek", "Grave", "St. Oedenrode"):
        index.add(name, name.lower())
    assert index.lookup("ST OEDENRODE") == "st. oedenrode"
    with pytest.raises(UnknownName) as caught:
        index.lookup("Groesbek", column=7)
    assert caught.value.suggestions == ("Groesbeek",)
    assert caught.value.column == 7
    assert "did you mean 'Groesbeek'?" in caught.value.message


def test_unknown_name_without_anything_close() -> None:
    index = NameIndex.from_mapping("city", {"Arnhem": 1})
    with pytest.raises(UnknownName) as caught:
        index.lookup("Zzyzx")
    assert caught.value.message == "unknown city 'Zzyzx'"


def test_a_shared_alias_is_ambiguous() -> None:
    index: NameIndex[str] = NameIndex("unit")
    index.add("1st Airborne", "1AB", ["1st"])
    index.add("1st Polish", "1P", ["1st"])
    with pytest.raises(AmbiguousName, match="could mean '1st Airborne', '1st Polish'"):
        index.lookup("1st")
    assert index.lookup("1st Polish") == "1P"


def test_split_leading_name_takes_the_longest_known_run() -> None:
    index: NameIndex[str] = NameIndex("unit")
    index.add("1st Airborne", "1AB")
    index.add("1st", "first")
    assert split_leading_name(["1st", "Airborne", "Arnhem"], index) == ("1AB", ["Arnhem"])
    assert split_leading_name(["1st", "Arnhem"], index) == ("first", ["Arnhem"])
    with pytest.raises(UnknownName):
        split_leading_name(["Monty", "Arnhem"], index)


def test_a_remembered_name_is_normalised_as_the_first_time() -> None:
    """``normalise`` remembers each name it was asked (issue 31), and starts afresh after
    ``NORMALISED_NAMES`` of them: every answer is the one the rule gives."""
    import re

    from referee.core import names

    def rule(name: str) -> str:
        return re.sub(r"[\s.\-_'\u2019]+", "", name).casefold()

    asked = [f"St. Oedenrode-{i}" if i % 3 else f"1st  Airborne\u2019s {i} STRASSE"
             for i in range(names.NORMALISED_NAMES + 50)]
    for round_ in range(2):
        for name in asked:
            assert normalise(name) == rule(name), (round_, name)
    assert len(names._normalised) <= names.NORMALISED_NAMES
    assert normalise("Straße") == rule("Straße") == "strasse"
