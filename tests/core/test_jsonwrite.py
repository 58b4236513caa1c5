"""``referee.core.jsonwrite`` writes the text the standard encoder writes with ``indent=2``
and ``ensure_ascii=False``, to the byte (every ``--json`` output goes through it)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.core.jsonwrite import json_chunks

_PLAIN = (st.none() | st.booleans() | st.integers() | st.floats() | st.text())
_KEYS = st.text() | st.integers() | st.booleans() | st.none() | st.floats()
_VALUES = st.recursive(
    _PLAIN,
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
    | st.dictionaries(_KEYS, inner, max_size=5),
    max_leaves=40,
)


def standard(data: Any) -> str:
    return "".join(json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(data))


@given(_VALUES)
def test_the_same_text_as_the_standard_encoder(data: Any) -> None:
    assert "".join(json_chunks(data)) == standard(data)


def test_a_report_of_flat_problems_nested_in_an_envelope() -> None:
    problems = [{"line": n, "column": 1, "kind": "illegal-move", "rule": "Turn step 1",
                 "message": "'pass' \u00e9 \"quoted\"\n", "hint": None, "follows": n - 1}
                for n in range(3, 40)]
    data = {"schema": "referee/1", "ok": False, "problems": problems, "state": {},
            "pending": {"choices": [], "more": False}, "events": [[], [1, [2, {}]]]}
    assert "".join(json_chunks(data)) == standard(data)


def test_an_object_json_cannot_write_is_refused() -> None:
    try:
        "".join(json_chunks({"a": object()}))
    except TypeError as error:
        assert "not JSON serializable" in str(error)
    else:
        raise AssertionError("an object was written as JSON")
