"""Battle Card's options: the readings of the card careful players disagree on, each
one a ``[Options]`` word of the log (docs/battle-card-interpretations.md)."""

# Options for the readings careful players disagree on (docs/battle-card-interpretations.md).
OPTIONS = {
    "nijmegen-needs-allied-arnhem": (
        "Turn step 2: Nijmegen's German unit grows only while the Allies control Arnhem "
        "(default: while the Germans do)"
    ),
    "landing-all-units": (
        "Turn step 4: the landing strengthens every Allied unit (the whole First Allied Airborne "
        "Army; default: the British 1st Airborne)"
    ),
    "no-control-when-destroyed": (
        "Turn step 1: a result 'Allies -1 and set Allied control' that removes the Allied unit "
        "sets no control (default: the control die is set to 6 all the same)"
    ),
    "check-grown-cities-only": (
        "Turn step 2: only a city whose German unit grew is checked for German control (default: "
        "every city with a German unit, Nijmegen too when it does not grow)"
    ),
    "landing-turns-completed": (
        "Turn step 4: the landing succeeds on a roll at most the number of turns completed "
        "(default: at most the turn number)"
    ),
}
