"""Who plays whom: the table(s) of the next hand, per party format, from the hands
counted so far. Players are seat positions, numbered in draw order."""

from scoring.engine.deal import NextHand, chouette_turns, dealer_for_hand, rotation_turns
from scoring.engine.deal import partnership_tables as core_partnership_tables
from scoring.engine.settlement import partnership_round


def next_tables(party_format: str, first_dealer: int, lineup: dict, rounds: list) -> tuple:
    """The tables of the next hand: one, or one per table for partnerships.

    ``lineup`` maps each side to its seat positions in draw order; ``rounds`` holds,
    for each counted hand, its entries (``None`` or ``(side, points)``), one per table.
    ``first_dealer`` is the side that dealt first (two players), or the team that
    deals the first round (partnerships). The rotation starts with positions 0
    (forehand) and 1 (dealer), position 2 sitting out; the chouette with the box
    (side 0) against the first partner (seed 000, "zu dritt").
    """
    entries = [tables[0] for tables in rounds]
    if party_format == "two":
        dealer = dealer_for_hand(first_dealer, entries)
        return (NextHand(dealer=lineup[dealer][0], forehand=lineup[1 - dealer][0]),)
    if party_format == "rotation":
        return (rotation_turns(entries, (0, 1))[-1],)
    if party_format == "chouette":
        return (chouette_turns(entries, box=lineup[0][0], team=lineup[1])[-1],)
    team_entries = [partnership_round(tables) for tables in rounds]
    dealing = dealer_for_hand(first_dealer, team_entries)
    return core_partnership_tables((lineup[0], lineup[1]), len(rounds) + 1, dealing)
