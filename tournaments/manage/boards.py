"""The round page's tables (`_round_board.html`), each rendered once for each state it
shows and kept in the cache. The page asks for its tables every few seconds, and
at a championship a few of its 500 tables have moved since: rendering all of them
held a web process for 0.6 s every 4 s, while the phones' requests queued."""

import contextlib
import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

#: Long enough for a round; a table's next state has another key anyway.
KEEP_SECONDS = 3600


def boards_html(round, views, playing: bool) -> str:
    """Every table's part, the kept ones read in one trip; the cache away, all are
    rendered."""
    tournament = round.tournament
    keys = [_key(round, view, playing) for view in views]
    try:
        kept = cache.get_many(keys)
    except Exception:
        kept = {}
    parts, missing = [], {}
    for key, view in zip(keys, views, strict=True):
        if key not in kept:
            context = {"tournament": tournament, "round": round, "playing": playing, "view": view}
            kept[key] = missing[key] = render_to_string(
                "tournaments/manage/_round_board.html", context
            )
        parts.append(kept[key])
    if missing:
        with contextlib.suppress(Exception):  # rendered again on the next ask
            cache.set_many(missing, KEEP_SECONDS)
    return mark_safe("".join(parts))


def _key(round, view, playing: bool) -> str:
    """Everything the table's part shows: its row, its party's count of changes
    (every hand, confirmation, correction and status moves it), who sits there by
    name, whether the round is played, the tournament's game and address, the
    language."""
    table, tournament = view.table, round.tournament
    party = table.party
    shown = (
        table.pk,
        table.number,
        table.bye,
        table.absent,
        table.party_id,
        party.changes if party is not None else None,
        party.started_at.isoformat() if party is not None else None,
        [(e.pk, e.player.name) for e in view.entrants],
        playing,
        tournament.slug,
        tournament.plays_at_tables,
        round.number,
        get_language(),
    )
    return "round-board:" + hashlib.sha256(repr(shown).encode()).hexdigest()
