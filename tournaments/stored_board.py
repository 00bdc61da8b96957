"""The public board kept in the shared cache: built off the request path by a task
(`tournaments.tasks.store_board`) when its inputs move, read by every public page.

At a championship the board of a thousand entrants takes seconds to build. Built by
whichever request finds it out of date, it would make every phone's request queue
behind the web processes building it. So a builder elected per tournament builds it
after the commit of each change and stores it; the pages serve whatever board is
stored, and a web process builds it only when none is (or a build was lost). Its
own counter (`board_stored_key`) moves after the board is stored, never before:
a spectator's page woken by that counter always finds a board at least as new as
the news (`live.streams`).

A change asks for a build (`board_wanted`, after its commit): it moves the
tournament's "wanted" number and sends one task unless one is already due. The
task elects one builder with a lock; the builder notes the wanted number, builds,
stores, moves the counter, and when the wanted number moved meanwhile, asks for
one more build. A build follows the last one after `settings.PUBLIC_REFRESH_SECONDS`
at the earliest (a countdown, never a drop): the last change of a busy spell is
always built. With tasks run eagerly (no broker: `make run`, the tests) the same
code builds in the committing process, at once.

Without a board stored (a cold cache, a restart, the board expired) the page
that asks builds it once, stores it and moves the counter; the others wait a few
seconds for it. Without a cache at all every request builds: slower, never wrong.
A build asked for and lost (the broker away) is caught up by the first page that
finds it overdue by a refresh and a minute: it builds the board as on a cold cache."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache

from live import counters
from tournaments.board import Board, build_board
from tournaments.kept import keep_results
from tournaments.models import FinalStage, Tournament

log = logging.getLogger(__name__)

#: A builder holds its lock at most this long: one that died leaves it to the
#: next after that (a championship's board takes a few seconds).
LOCK_SECONDS = 60
#: A task sent and not started after its countdown and this long is taken as lost
#: (the broker away): the next change sends another.
DUE_SECONDS = 60
#: A page that finds no board while another process builds the first one waits
#: this long for it before it builds one itself.
COLD_WAIT_SECONDS = 5.0
#: The stored board is kept this long after its build: a quiet spell (between two
#: rounds) must not make a spectator's request build it. What keeps it right is the
#: builder; a build lost with the broker is caught up by the next reader once it
#: is overdue (`board_shown`).
STORED_SECONDS = 24 * 3600

# What the builder found (`board_store`), for its task to act on.
STORED, CURRENT, AGAIN, BUSY, GONE, NO_CACHE = "stored", "current", "again", "busy", "gone", "-"


def board_stored_key(tournament_id: int) -> str:
    """The counter that moves after each board stored: the public pages' version,
    and what their live stream follows."""
    return f"v:board-stored:{tournament_id}"


def _board_key(pk: int) -> str:
    # (The number after "board" is the stored board's form: a board kept by an
    # older release is not read by this one, which builds its own.)
    return f"board-3:{pk}"


def _built_key(pk: int) -> str:
    # (the wanted number the stored board covers, when it was stored)
    return f"board-built:{pk}"


def _wanted_key(pk: int) -> str:
    return f"board-wanted:{pk}"


def _lock_key(pk: int) -> str:
    return f"board-building:{pk}"


def _due_key(pk: int) -> str:
    return f"board-due:{pk}"


# --------------------------------------------------------------------------- asking for a build


def board_wanted(tournament_id: int, *, moved: bool = True, at_least: float = 0) -> float | None:
    """A change to the board's inputs is committed (``moved``), or the builder asks
    again: the countdown after which the build task is to run, or None when one is
    already due (or the cache is down: nothing could be stored). The countdown
    keeps builds `PUBLIC_REFRESH_SECONDS` apart, and is ``at_least`` long."""
    refresh = settings.PUBLIC_REFRESH_SECONDS
    try:
        if moved:
            _move(_wanted_key(tournament_id))
        built = cache.get(_built_key(tournament_id))
        # (A clock set back would make the wait longer than a refresh: never.)
        wait = 0.0 if built is None else min(refresh, max(0.0, built[1] + refresh - time.time()))
        wait = max(wait, at_least)
        if not cache.add(_due_key(tournament_id), True, int(wait) + DUE_SECONDS):
            return None
    except Exception:
        log.warning("cache unavailable: board %s not asked for", tournament_id, exc_info=True)
        return None
    return wait


def board_not_due(tournament_id: int) -> None:
    """The task could not be sent (the broker away): the next change sends one."""
    _try(cache.delete, _due_key(tournament_id))


def boards_moved_by_scores(club_id: int) -> list[int]:
    """The club's tournaments whose board a hand at the club may move: those
    running or with a final being played; and any other whose board is stored (a
    hand of a finished one corrected; and the wall screen kept with every stored
    board shows the club's season table, which any hand at the club moves). One
    with no board stored needs nothing: its next reader builds it (`board_shown`)."""
    found = Tournament.objects.filter(club_id=club_id).values_list(
        "pk", "status", "final_stage__status"
    )
    playing, others = [], []
    for pk, status, final in found:
        live = status == Tournament.Status.RUNNING or final == FinalStage.Status.PLAYING
        (playing if live else others).append(pk)
    if others:
        try:
            stored = cache.get_many([_built_key(pk) for pk in others])
        except Exception:
            log.warning("cache unavailable: stored boards not looked up", exc_info=True)
            stored = {}
        playing += [pk for pk in others if _built_key(pk) in stored]
    return playing


# --------------------------------------------------------------------------- building


def board_store(*, tournament_id: int) -> str:
    """The builder: at most one per tournament at a time (the lock). Builds the
    board from committed rows, stores it, then moves its counter. Safe to run
    twice: a board that already covers every change asked for is left as it is
    (`CURRENT`). `AGAIN`: a change was asked for during the build, which it may
    not show, so the caller asks for one more; `BUSY`: another builder is at work."""
    pk = tournament_id
    try:
        # From here on a change sends a new task: this one may have read too early.
        cache.delete(_due_key(pk))
        if not cache.add(_lock_key(pk), True, LOCK_SECONDS):
            return BUSY
    except Exception:
        log.warning("cache unavailable: board %s not built", pk, exc_info=True)
        return NO_CACHE
    try:
        # The wanted number before the rows: a change committed after this read
        # moves it, and is built next time.
        found = _try(cache.get_many, [_wanted_key(pk), _built_key(pk)])
        if found is None:
            return NO_CACHE
        wanted, built = found.get(_wanted_key(pk)), found.get(_built_key(pk))
        if built is not None and built[0] == wanted:
            return CURRENT
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            return GONE
        # The seats whose table moved since the last build are kept first: the build
        # and every other reader then add up kept rows (`tournaments.kept`).
        # (A failing build is the task's failure, logged by Celery; the lock goes.)
        keep_results(tournament)
        board = build_board(tournament)
        if _try(_store, tournament, board, wanted) is None:
            return NO_CACHE
        moved = _try(cache.get, _wanted_key(pk)) != wanted
    finally:
        _try(cache.delete, _lock_key(pk))
    return AGAIN if moved else STORED


def with_board(callback) -> None:
    """``callback(tournament, board)`` returns what is to be kept with each new
    board, ``{name: value}``: the public pages' parts, rendered by the builder
    (tournaments/public/parts.py, registered at start-up: the pages stand above)."""
    if callback not in _with_board:
        _with_board.append(callback)


_with_board = []


def _along(tournament: Tournament, board: Board) -> dict:
    kept = {}
    for callback in _with_board:
        try:
            kept.update(callback(tournament, board))
        except Exception:  # the page renders the part itself on its ask
            log.exception("what is kept with board %s failed", tournament.pk)
    return kept


def _store(tournament: Tournament, board: Board, wanted) -> int | None:
    """Stores the board, then moves its counter (in that order: a reader of the new
    number finds this board or a newer one), keeping what is kept with it under the
    new number before the pages are told. The counter's new number."""
    pk = tournament.pk
    along = _along(tournament, board)
    stored = {_board_key(pk): board, _built_key(pk): (wanted, time.time())}
    cache.set_many(stored, STORED_SECONDS)

    def keep_along(number: int) -> None:
        version = _version(tournament, number)
        kept = {f"{name}:{version}": value for name, value in along.items()}
        _try(cache.set_many, kept, settings.PUBLIC_CACHE_SECONDS)

    return counters.bump(board_stored_key(pk), ready=keep_along if along else None)


# --------------------------------------------------------------------------- reading


class Shown(NamedTuple):
    """The board a public page shows: its version (the stored board's counter and
    the tournament's public flags; None without a cache) and ``load()``, which
    reads the board itself only when a part must be rendered."""

    version: str | None
    load: Callable[[], Board]


def board_shown(tournament: Tournament, *, cold: bool = True) -> Shown:
    """The stored board, whatever its age (the builder keeps it current). None
    stored yet: built here once, stored, and its counter moved. A page that only
    needs the version (the final's, which renders from its own rows) says
    ``cold=False``: then it has no version (nothing cached) until a board is."""
    pk = tournament.pk
    try:
        found = cache.get_many([board_stored_key(pk), _built_key(pk), _wanted_key(pk)])
    except Exception:
        log.warning("cache unavailable: the board is built uncached", exc_info=True)
        return Shown(None, functools.cache(lambda: build_board(tournament)))
    number, built = found.get(board_stored_key(pk)), found.get(_built_key(pk))
    wanted = found.get(_wanted_key(pk))
    if number is not None and built is not None and not _overdue(built, wanted):
        return Shown(_version(tournament, number), functools.cache(lambda: _load(tournament)))
    if not cold:
        return Shown(None, functools.cache(lambda: _cold(tournament, wanted)[0]))
    board, number = _cold(tournament, wanted)
    return Shown(None if number is None else _version(tournament, number), lambda: board)


def board_for(tournament: Tournament) -> Board:
    """The stored board (see `board_shown`)."""
    return board_shown(tournament).load()


def _overdue(built, wanted) -> bool:
    """A change asked for long ago and still not built: its task was lost."""
    covers, at = built
    late = settings.PUBLIC_REFRESH_SECONDS + DUE_SECONDS
    return covers != wanted and time.time() - at > late


def version_form(tournament: Tournament) -> str:
    """A public page's version with ``{}`` for the stored board's number: the
    flags too, since the parts rendered depend on what is published. (The live
    stream fills it in with each number it is told, `tournament_events`.)"""
    flags = (tournament.public_pairings, tournament.public_standings, tournament.public_results)
    return "-".join(["{}", *(str(int(flag)) for flag in flags)])


def _version(tournament: Tournament, number: int) -> str:
    return version_form(tournament).format(number)


def _load(tournament: Tournament) -> Board:
    try:
        board = cache.get(_board_key(tournament.pk))
    except Exception:
        log.warning("cache unavailable: the board is built uncached", exc_info=True)
        return build_board(tournament)
    if board is None:  # gone since its version was read
        board, _ = _cold(tournament, None)
    return board


def _cold(tournament: Tournament, wanted) -> tuple[Board, int | None]:
    """No board stored: the first page to ask builds and stores it (under the
    builder's lock); one asking meanwhile waits for that board a few seconds, so
    that a restart at a championship is not a build in every request. The board,
    and its counter's number (None when it is not stored)."""
    pk = tournament.pk
    try:
        building = not cache.add(_lock_key(pk), True, LOCK_SECONDS)
    except Exception:
        log.warning("cache unavailable: the board is built uncached", exc_info=True)
        return build_board(tournament), None
    if building:
        deadline = time.monotonic() + COLD_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.1)
            found = _try(cache.get_many, [board_stored_key(pk), _board_key(pk)]) or {}
            if len(found) == 2:
                return found[_board_key(pk)], found[board_stored_key(pk)]
        return build_board(tournament), None
    try:
        board = build_board(tournament)
        number = _try(_store, tournament, board, wanted)
    finally:
        _try(cache.delete, _lock_key(pk))
    return board, number


# --------------------------------------------------------------------------- the cache


def _move(key: str) -> None:
    """Moves a number on; one never set (or lost) starts at the clock's nanoseconds,
    above any it reached before."""
    try:
        cache.incr(key)
    except ValueError:
        if not cache.add(key, time.time_ns(), None):
            cache.incr(key)


def _try(call, *args):
    try:
        return call(*args)
    except Exception:
        log.warning("cache unavailable", exc_info=True)
        return None
