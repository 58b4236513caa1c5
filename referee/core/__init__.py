"""Game-agnostic machinery: log model, parsing, dice, replay driver, errors, names, output."""
