"""A party of one of the club's other games started (issue 28), and the check that
keeps each game's parties to its own services. Its hands: `scoring.services.games`."""

from django.db import transaction
from django.utils.translation import get_language, gettext

from scoring import changes, errors
from scoring.engine.games import ENTRY_GAMES
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import Problem, check_table, settle_options
from scoring.models import AuditRecord, Party, Seat
from scoring.services.seating import check_seating
from scoring.services.seats import new_token


def refused(error: GameEntryError) -> errors.EntryError:
    """The engine's refusal as the one a player reads, in the page's language (each
    problem on its line)."""
    return errors.EntryError("\n".join(translated(problem) for problem in error.problems))


def translated(problem: str) -> str:
    """One of the engine's problems in the page's language: its template translated,
    then its parameters filled in (words and parts of the sentence the engine gave as
    problems translated too; numbers, names and cards as they are). A problem the
    engine did not word itself (Python's own message) is only readable in English:
    another language gets the general request to check the entry."""
    if not isinstance(problem, Problem):
        if (get_language() or "en").startswith("en"):
            return problem
        return gettext("This entry cannot be right: check it and enter it again.")
    if not problem.params:
        return gettext(problem.template)
    params = {
        name: translated(value) if isinstance(value, Problem) else value
        for name, value in problem.params.items()
    }
    return gettext(problem.template) % params


@transaction.atomic
def game_party_start(
    *,
    club,
    game: str,
    players: list,
    options: dict | None = None,
    night=None,
    confirmation_required: bool | None = None,
    label: str = "",
    user=None,
    address=None,
    anyway: bool = False,
    rematch_of: Party | None = None,
) -> Party:
    """Starts a party of ``game`` (a key of `ENTRY_GAMES`): the players sit in the order
    given (the table says who sits where; the first deals first), the game puts
    them into sides (`Game.sides`), and the options agreed (``options``) are
    settled over the game's defaults and kept on the party. The night's checks
    are Gin Rummy's (`check_seating`); confirmation not given comes from the
    night, else each hand is confirmed."""
    if game not in ENTRY_GAMES:
        raise errors.EntryError(gettext("There is no game called %(name)r.") % {"name": game})
    engine = ENTRY_GAMES[game]
    night = check_seating(night, players, anyway=anyway)
    try:
        check_table(engine, len(players))
        settled = settle_options(engine, options)
        sides = engine.sides(len(players), settled)
    except GameEntryError as error:
        raise refused(error) from error
    side_of = {seat: side for side, seats in enumerate(sides) for seat in seats}
    if confirmation_required is None:
        confirmation_required = night.confirmation_required if night else True
    party = Party.objects.create(
        club=club,
        night=night,
        label=label,
        game=game,
        rules=settled,
        confirmation_required=confirmation_required,
        first_dealer=0,
        rematch_of=rematch_of,
    )
    Seat.objects.bulk_create(
        Seat(party=party, player=player, side=side_of[i], position=i, token=new_token())
        for i, player in enumerate(players)
    )
    changes.night_changed(party.night_id)
    changes.party_started(party.pk)
    AuditRecord.objects.create(
        party=party,
        action=AuditRecord.Action.START,
        user=user,
        address=address,
        after={
            "game": game,
            "options": settled,
            "seats": [player.name for player in players],
            "sides": [list(seats) for seats in sides],
        },
    )
    return party


def check_other_game(party: Party) -> None:
    """These services take only parties of the other games."""
    if party.game not in ENTRY_GAMES:
        raise errors.WrongGame(
            gettext("This party plays %(game)s: enter its hands as %(game)s hands.")
            % {"game": party.get_game_display()}
        )
