"""Mistakes a table or an organizer can make, each with a message a player understands.

The core raises `ValueError` subclasses for impossible results (an illegal knock, gin
with deadwood, a bad card); these add what only the stored party knows about."""


class EntryError(ValueError):
    """An entry that cannot be stored as it is."""


class StaleEntry(EntryError):
    """The entry is for a hand that is already recorded or not yet due (an old page)."""


class HandBlocked(EntryError):
    """An earlier hand must be confirmed or settled before this one."""


class NotYourHand(EntryError):
    """The seat may not do this (confirm its own entry, enter for another table)."""
