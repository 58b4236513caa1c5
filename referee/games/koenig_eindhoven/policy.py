"""Self-play policies for ``referee simulate koenig-eindhoven`` beyond the random one (whose
draw is the engine's ``random_command``: ``legal.random_legal``)."""

from __future__ import annotations

from typing import Any

POLICIES: dict[str, Any] = {}
