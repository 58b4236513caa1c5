"""Contact with operation GARDEN (reading A27): an airborne group has made contact when one of
its units stands in a sector with a ground (UK or US) Allied unit and no German unit.  Contact
is permanent once made.  Phase 3.4 needs it ("Airborne troops cannot be engaged in constructing
Bailey bridges until they've made contact with operation GARDEN"); supply distribution
(Phase 2.3) uses the same definition.
"""

from __future__ import annotations

from referee.core.engine import Event
from referee.games.arnhem44.board import AIRBORNE, GERMAN_GROUP
from referee.games.arnhem44.state import AState

GARDEN = frozenset({"UK", "US"})


def update_contact(state: AState) -> list[Event]:
    events = []
    for sector, counts in state.units.items():
        groups = {g for g, _ in counts}
        if GERMAN_GROUP in groups or not groups & GARDEN:
            continue
        for group in sorted(groups & AIRBORNE - state.contact):
            state.contact.add(group)
            events.append(Event("contact", f"airborne group {group} makes contact with operation "
                                f"GARDEN at {sector}", {"group": group, "sector": sector}))
    return events
