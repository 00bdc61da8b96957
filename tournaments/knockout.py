"""The final stage of a tournament: a knockout of its best placed, or a knockout
tournament on its own. Writes (one transaction each, recorded like the other
organizer's actions) and reads of the bracket.

The bracket's rules are in `tournaments.engine.knockout`. Every game of a match is
a two-player party of `scoring`, like a round's table; who won a game is read from
its party, and only what the parties decide is stored here: the match's winner
(once one side has won enough games), the next round's match, the third-place
match, the end. That happens whenever a club's scores change
(`stages_advance`, hooked to `scoring.versions.after_scores_change`) and after
each service of this module."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from random import Random

from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from scoring.engine.rules import RULESETS
from scoring.models import Hand, Party
from scoring.selectors import party_sheets
from scoring.services import party_cancel, party_start
from tournaments import seeding, selectors
from tournaments.board import tournament_changed
from tournaments.engine import knockout as engine
from tournaments.engine.formats import format_of
from tournaments.models import (
    Entrant,
    FinalStage,
    Match,
    MatchGame,
    Tournament,
    TournamentRecord,
)
from tournaments.services import TournamentError, _locked, _record, new_seed

# --------------------------------------------------------------------------- names


def round_label(key: str) -> str:
    """A round's name (`engine.round_name`'s key, or "third-place") in the reader's
    language."""
    named = {
        engine.FINAL: gettext("Final"),
        engine.SEMI_FINAL: gettext("Semi-final"),
        engine.QUARTER_FINAL: gettext("Quarter-final"),
        engine.THIRD_PLACE: gettext("Match for third place"),
    }
    if key in named:
        return named[key]
    return gettext("Round of %(players)s") % {"players": key.rsplit(" ", 1)[-1]}


def _round_key(stage: FinalStage, round: int, third_place: bool = False) -> str:
    if third_place:
        return engine.THIRD_PLACE
    rounds = engine.round_count(len(stage.seeds))
    return engine.round_name(2 ** (rounds - round))


def _game_label(stage: FinalStage, match: Match, number: int) -> str:
    """The stored label of a game's party: "Cup · Final · game 2"."""
    name = round_label(_round_key(stage, match.round, match.third_place))
    game = gettext("game %(number)s") % {"number": number}
    suffix = f" · {name} · {game}"
    # A label holds 120 characters, and so may the tournament's name alone.
    room = Party._meta.get_field("label").max_length - len(suffix)
    return stage.tournament.name[:room] + suffix


# --------------------------------------------------------------------------- adding and starting


def _stage(tournament: Tournament) -> FinalStage:
    stage = FinalStage.objects.select_for_update().filter(tournament=tournament).first()
    if stage is None:
        raise TournamentError(gettext("This tournament has no final."))
    return stage


def _plays_third_place(stage: FinalStage) -> bool:
    """Whether the stage plays for third place: wanted, and two semi-final losers
    to play it (not with three qualifiers, where seed 1's semi-final is a bye)."""
    return stage.third_place and engine.third_place_playable(len(stage.seeds))


def _check_shape(qualifiers: int | None, best_of: int) -> None:
    if best_of not in engine.BEST_OF:
        raise TournamentError(gettext("A match is the best of 1 or of 3 games."))
    if qualifiers is not None and qualifiers < 2:
        raise TournamentError(gettext("A final needs at least two qualifiers."))


@transaction.atomic
def final_stage_add(
    *,
    tournament: Tournament,
    qualifiers: int,
    best_of: int = 1,
    third_place: bool = False,
    user=None,
    address=None,
) -> FinalStage:
    """Add a knockout final of the ``qualifiers`` best placed to a Swiss or round
    robin, any time before it is finished. At most as many qualifiers as entrants
    (those still playing, once it runs)."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    if FinalStage.objects.filter(tournament=tournament).exists():
        raise TournamentError(gettext("This tournament already has a final."))
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(
            gettext("The tournament is finished: a final is added before its end.")
        )
    _check_shape(qualifiers, best_of)
    entrants = tournament.entrants.filter(withdrawn_after__isnull=True)
    if tournament.status == Tournament.Status.RUNNING:
        entrants = entrants.filter(checked_in=True)
    if qualifiers > entrants.count():
        raise TournamentError(
            gettext("The tournament has only %(count)s entrants to qualify.")
            % {"count": entrants.count()}
        )
    stage = FinalStage.objects.create(
        tournament=tournament,
        qualifiers=qualifiers,
        best_of=best_of,
        third_place=third_place,
        seed=new_seed(),
    )
    _record(
        tournament,
        TournamentRecord.Action.FINAL_ADDED,
        user=user,
        address=address,
        qualifiers=qualifiers,
        best_of=best_of,
        third_place=third_place,
    )
    return stage


@transaction.atomic
def final_stage_remove(*, tournament: Tournament, user=None, address=None) -> None:
    """Take back a final that has not started (a knockout tournament keeps its own)."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    stage = _stage(tournament)
    if not format_of(tournament.format).plays_rounds:
        raise TournamentError(gettext("A knockout tournament is its final."))
    if stage.status != FinalStage.Status.PLANNED:
        raise TournamentError(gettext("The final has started: it cannot be removed."))
    stage.delete()
    _record(tournament, TournamentRecord.Action.FINAL_REMOVED, user=user, address=address)


def _qualified(tournament: Tournament, qualifiers: int) -> list[int]:
    """The qualifiers from the final standings, best first: ties ordered by the final
    card draw when one was made, else as the standings list them. An entrant who
    withdrew does not qualify; the next placed moves up."""
    lines = [line for line in selectors.standings_for(tournament).lines if not line.withdrawn]
    if len(lines) < qualifiers:
        raise TournamentError(
            gettext("Only %(count)s entrants are left to qualify.") % {"count": len(lines)}
        )
    return [line.entrant.pk for line in lines[:qualifiers]]


def _seeded(tournament: Tournament, ids: list[int], seed: int) -> tuple[list[int], str]:
    """A knockout tournament's seeds: by rating when the club has ratings (the
    unrated after the rated; equal ratings by lot), else by lot, from ``seed``."""
    order = sorted(ids)
    Random(seed).shuffle(order)
    ratings = seeding.ratings(tournament, order)
    if not ratings:
        return order, FinalStage.Seeding.LOT
    rated = sorted((pk for pk in order if pk in ratings), key=lambda pk: -ratings[pk])
    return rated + [pk for pk in order if pk not in ratings], FinalStage.Seeding.RATING


@transaction.atomic
def final_stage_start(*, tournament: Tournament, user=None, address=None) -> FinalStage:
    """Draw the bracket and start its first round: after the qualifying rounds are
    finished, seeded from the final standings; a knockout tournament from its
    registration, with every entrant checked in, seeded by rating or lot. Byes go
    to the best seeds and advance at once; every other match starts its first game."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    stage = _stage(tournament)
    if stage.status != FinalStage.Status.PLANNED:
        raise TournamentError(gettext("The final has already started."))
    if format_of(tournament.format).plays_rounds:
        if tournament.status != Tournament.Status.FINISHED:
            raise TournamentError(gettext("Finish the qualifying rounds first."))
        stage.seeds = _qualified(tournament, stage.qualifiers)
        stage.seeding = FinalStage.Seeding.STANDINGS
    else:
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(gettext("The tournament has already started."))
        ids = list(tournament.entrants.filter(checked_in=True).values_list("pk", flat=True))
        if len(ids) < 2:
            raise TournamentError(gettext("At least two entrants must be checked in."))
        stage.seeds, stage.seeding = _seeded(tournament, ids, stage.seed)
        stage.qualifiers = len(ids)
        tournament.status = Tournament.Status.RUNNING
        tournament.rounds = 0
        tournament.save(update_fields=["status", "rounds"])
    stage.status = FinalStage.Status.PLAYING
    stage.save()
    entrants = _entrants(tournament)
    for slot, (first, second) in enumerate(engine.first_round(stage.seeds)):
        match = Match.objects.create(
            stage=stage,
            round=1,
            slot=slot,
            first_id=first,
            second_id=second,
            winner_id=first if second is None else None,
        )
        if second is not None:
            _start_game(stage, match, 1, entrants)
    _record(
        tournament,
        TournamentRecord.Action.FINAL_STARTED,
        user=user,
        address=address,
        seeding=stage.seeding,
        seeds=[str(entrants[pk]) for pk in stage.seeds],
    )
    _advance(stage)
    return stage


def start_undo_refusal(stage: FinalStage) -> str:
    """Why the final's start cannot be taken back now ("" if it can): one check for
    the question's page and the service."""
    if stage.status == FinalStage.Status.PLANNED:
        return gettext("The final has not started.")
    played = Hand.objects.filter(party__match_game__match__stage=stage).exists()
    if played or stage.matches.filter(absent__isnull=False).exists():
        return gettext("Games of the final have begun: it cannot be undone.")
    return ""


@transaction.atomic
def final_stage_start_undo(*, tournament: Tournament, user=None, address=None) -> FinalStage:
    """Take back the start of the final while no game has a hand and no one has
    forfeited (the wrong qualifiers, a late correction of the standings): the
    bracket and its parties go, and the final waits to be started again. A knockout
    tournament goes back to its registration."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    stage = _stage(tournament)
    refusal = start_undo_refusal(stage)
    if refusal:
        raise TournamentError(refusal)
    games = list(MatchGame.objects.filter(match__stage=stage).select_related("party"))
    parties = [g.party for g in games]
    MatchGame.objects.filter(pk__in=[g.pk for g in games]).delete()
    stage.matches.all().delete()
    for party in parties:
        if party.status != Party.Status.CANCELLED:
            party_cancel(party=party, user=user, reason=gettext("The final was undone."))
    stage.status = FinalStage.Status.PLANNED
    stage.seeds = []
    stage.save(update_fields=["status", "seeds"])
    if not format_of(tournament.format).plays_rounds:
        tournament.status = Tournament.Status.REGISTRATION
        tournament.save(update_fields=["status"])
    _record(tournament, TournamentRecord.Action.FINAL_UNDONE, user=user, address=address)
    return stage


def _entrants(tournament: Tournament) -> dict[int, Entrant]:
    return {e.pk: e for e in tournament.entrants.select_related("player")}


def _start_game(stage: FinalStage, match: Match, number: int, entrants) -> MatchGame:
    """A game of the match: a two-player party under the tournament's rules, its
    seat draw replayable from the stage's seed."""
    tournament = stage.tournament
    rules = dataclasses.replace(RULESETS[tournament.ruleset], target=tournament.target)
    third = "t" if match.third_place else ""
    party = party_start(
        club=tournament.club,
        format="two",
        players=[entrants[match.first_id].player, entrants[match.second_id].player],
        rules=rules,
        confirmation_required=tournament.confirmation_required,
        label=_game_label(stage, match, number),
        rng=Random(f"{stage.seed}-{match.round}{third}-{match.slot}-{number}"),
    )
    return MatchGame.objects.create(match=match, number=number, party=party)


# --------------------------------------------------------------------------- advancing


def _game_sides(match: Match, games: list[MatchGame], sheets: dict) -> list[int] | None:
    """The side of the match winning each game in order, or ``None`` while the
    latest game is still played. A party that ends tied goes to the side that
    reached the target (it alone has the game bonus)."""
    sides = []
    side_of = {match.first.player_id: 0, match.second.player_id: 1}
    for game in games:
        state = sheets.get(game.party_id)
        if state is None or not state.finished:
            return None
        outcome = state.outcome
        party_side = outcome.winner
        if party_side is None:
            party_side = max(range(2), key=lambda s: outcome.sides[s].game_bonus)
        player = next(seat.player_id for seat in state.seats if seat.side == party_side)
        sides.append(side_of[player])
    return sides


def _next_game(stage: FinalStage, match: Match, number: int, entrants) -> None:
    """The match's game ``number``, unless a side has withdrawn: then the other wins
    the match without it (a withdrawn winner who waited for his next match, or one
    who left during a game that its party then decided)."""
    gone = [
        side
        for side, pk in enumerate((match.first_id, match.second_id))
        if entrants[pk].withdrawn_after is not None
    ]
    if not gone:
        _start_game(stage, match, number, entrants)
        return
    match.absent = gone[0]
    match.winner_id = (match.second_id, match.first_id)[gone[0]]
    match.save(update_fields=["absent", "winner"])


def _advance(stage: FinalStage) -> bool:
    """Decide what the parties have decided: each match whose games give one side
    enough wins gets its winner, or its next game; two neighbouring winners get
    their match in the next round, the semi-finals' losers the match for third
    place; the final decided ends the stage. Returns whether anything changed."""
    tournament = stage.tournament
    matches = list(
        stage.matches.select_related("first__player", "second__player").prefetch_related("games")
    )
    open_games = {
        m.pk: sorted(m.games.all(), key=lambda g: g.number)
        for m in matches
        if m.winner_id is None and m.second_id is not None
    }
    sheets = party_sheets([g.party_id for gs in open_games.values() for g in gs], cancelled=False)
    entrants = None
    changed = False
    for match in matches:
        if match.pk not in open_games:
            continue
        won_by = _game_sides(match, open_games[match.pk], sheets)
        if won_by is None:
            continue
        side = engine.match_winner(won_by, stage.best_of)
        if side is None:
            entrants = entrants or _entrants(tournament)
            _next_game(stage, match, len(won_by) + 1, entrants)
        else:
            match.winner_id = (match.first_id, match.second_id)[side]
            match.save(update_fields=["winner"])
        changed = True
    changed |= _next_matches(stage, matches)
    return changed


def _next_matches(stage: FinalStage, matches: list[Match]) -> bool:
    rounds = engine.round_count(len(stage.seeds))
    placed = {(m.round, m.slot): m for m in matches if not m.third_place}
    entrants = None
    made = []
    for round in range(1, rounds):
        for slot in range(0, 2 ** (rounds - round), 2):
            pair = placed.get((round, slot)), placed.get((round, slot + 1))
            following = engine.next_match(slot)[0]
            if None in pair or any(m.winner_id is None for m in pair):
                continue
            if (round + 1, following) in placed:
                continue
            ((first, second),) = engine.next_round([m.winner_id for m in pair])
            match = Match.objects.create(
                stage=stage, round=round + 1, slot=following, first_id=first, second_id=second
            )
            placed[(round + 1, following)] = match
            entrants = entrants or _entrants(stage.tournament)
            _next_game(stage, match, 1, entrants)
            made.append(match)
    third = next((m for m in matches if m.third_place), None)
    if _plays_third_place(stage) and third is None:
        semis = placed.get((rounds - 1, 0)), placed.get((rounds - 1, 1))
        # A semi-final that was a bye (3 qualifiers) leaves one loser: he is third.
        if all(m and m.winner_id and m.second_id for m in semis):
            losers = [m.first_id if m.winner_id == m.second_id else m.second_id for m in semis]
            third = Match.objects.create(
                stage=stage,
                round=rounds,
                slot=0,
                third_place=True,
                first_id=losers[0],
                second_id=losers[1],
            )
            entrants = entrants or _entrants(stage.tournament)
            _next_game(stage, third, 1, entrants)
            made.append(third)
    final = placed.get((rounds, 0))
    done = bool(final and final.winner_id) and (third is None or bool(third.winner_id))
    if _plays_third_place(stage) and third is None and done:
        semis = placed.get((rounds - 1, 0)), placed.get((rounds - 1, 1))
        done = not all(m and m.second_id for m in semis)
    status = FinalStage.Status.FINISHED if done else FinalStage.Status.PLAYING
    if stage.status != status:
        stage.status = status
        stage.save(update_fields=["status"])
        tournament = stage.tournament
        if not format_of(tournament.format).plays_rounds:
            tournament.status = Tournament.Status.FINISHED if done else Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        made.append(stage)
    return bool(made)


def stage_advance(*, stage: FinalStage) -> FinalStage:
    """What a party's end decides in the bracket (see `_advance`); safe to run any
    number of times: a match already decided, a game already started, a match
    already made are left as they are (the stage's row is locked first)."""
    _stage_advance(stage.pk)
    return FinalStage.objects.select_related("tournament__club").get(pk=stage.pk)


@transaction.atomic
def _stage_advance(pk: int) -> bool:
    stage = FinalStage.objects.select_for_update(of=("self",)).select_related("tournament__club")
    stage = stage.get(pk=pk)
    if stage.status != FinalStage.Status.PLAYING or not _advance(stage):
        return False
    tournament_changed(stage.tournament_id)
    return True


def stages_advance(club_id: int) -> None:
    """Advance every final the club plays: called after the commit of each change
    to the club's scores (`scoring.versions.after_scores_change`)."""
    playing = FinalStage.objects.filter(
        tournament__club_id=club_id, status=FinalStage.Status.PLAYING
    )
    for stage in playing:
        stage_advance(stage=stage)


def finals_advance_waiting() -> int:
    """The catch-up for an advance that never ran (its after-commit call failed, or
    the process ended between the commit and it): advances every final being
    played, each in its own transaction. Returns how many moved on."""
    playing = FinalStage.objects.filter(status=FinalStage.Status.PLAYING)
    return sum(_stage_advance(pk) for pk in list(playing.values_list("pk", flat=True)))


def game_decided_its_match(party) -> str | None:
    """Why the party's hands may no longer be corrected (`scoring.guards`): it is a
    game of a match already decided by its games, whose winner has gone on."""
    match = Match.objects.filter(games__party_id=party.pk).first()
    if match is None or match.winner_id is None or match.absent is not None:
        return None
    return gettext(
        "This party is a game of a match of the final that has been decided: its result stands."
    )


# --------------------------------------------------------------------------- forfeits


def _locked_match(match: Match) -> tuple[FinalStage, Match]:
    stage = FinalStage.objects.select_for_update(of=("self",)).select_related("tournament__club")
    stage = stage.get(pk=match.stage_id)
    match = Match.objects.select_related("first__player", "second__player").get(pk=match.pk)
    return stage, match


@transaction.atomic
def match_forfeit(*, match: Match, absent: Entrant, user=None, address=None) -> Match:
    """A no-show: the other side wins the match. The game being played is cancelled;
    once it has hands, its party decides (as at a round's table). Games already
    finished stay in the record."""
    stage, match = _locked_match(match)
    tournament_changed(stage.tournament_id)
    if match.winner_id is not None:
        raise TournamentError(gettext("This match is decided."))
    if absent.pk not in (match.first_id, match.second_id) or match.second_id is None:
        raise TournamentError(gettext("%(name)s does not play this match.") % {"name": absent})
    games = list(match.games.select_related("party").order_by("number"))
    running = [g for g in games if g.party.status == Party.Status.RUNNING]
    if any(Hand.objects.filter(party=g.party).exists() for g in running):
        raise TournamentError(
            gettext("Hands have been played in this game: its party decides the result.")
        )
    side = 0 if absent.pk == match.first_id else 1
    match.absent = side
    match.winner_id = (match.second_id, match.first_id)[side]
    match.save(update_fields=["absent", "winner"])
    for game in running:
        party = game.party
        game.delete()
        party_cancel(
            party=party,
            user=user,
            reason=gettext("No-show: the match is a forfeit."),
            forfeit={"absent": absent.player_id, "points": 0},
        )
    _record(
        stage.tournament,
        TournamentRecord.Action.MATCH_FORFEIT,
        user=user,
        address=address,
        match=round_label(_round_key(stage, match.round, match.third_place)),
        absent=str(absent),
    )
    _advance(stage)
    return match


def entrant_leaves_final(*, entrant: Entrant, user=None, address=None) -> Match | None:
    """An entrant withdrawn while the final is played forfeits the match he is in
    (`match_forfeit`); one who waits for his next opponent forfeits that match as
    soon as it is drawn (`_next_matches`). In a game that has hands he stays, as at
    a round's table: its party decides the game, and the match ends with it if it
    is not decided by then (`_next_game`). Returns the match forfeited, if any."""
    stage = FinalStage.objects.filter(
        tournament_id=entrant.tournament_id, status=FinalStage.Status.PLAYING
    ).first()
    if stage is None:
        return None
    match = (
        stage.matches.filter(winner__isnull=True, second__isnull=False)
        .filter(Q(first=entrant) | Q(second=entrant))
        .first()
    )
    if match is None:
        return None
    running = match.games.filter(party__status=Party.Status.RUNNING).values("party_id")
    if Hand.objects.filter(party__in=running).exists():
        return None
    return match_forfeit(match=match, absent=entrant, user=user, address=address)


def final_playing_with(entrant: Entrant) -> FinalStage | None:
    """The final being played that seeded him, if any: there a withdrawal gives his
    match away, and a reinstatement takes that back."""
    stage = FinalStage.objects.filter(
        tournament_id=entrant.tournament_id, status=FinalStage.Status.PLAYING
    ).first()
    return stage if stage is not None and entrant.pk in stage.seeds else None


def _given_away(stage: FinalStage, entrant: Entrant) -> Match | None:
    """The last match of the final he did not play (a no-show or his withdrawal)."""
    absent = Q(first=entrant, absent=0) | Q(second=entrant, absent=1)
    return stage.matches.filter(absent).order_by("-round", "-third_place").first()


def reinstate_refusal_in_final(stage: FinalStage, entrant: Entrant) -> str:
    """Why he cannot come back into the final ("" if he can): the match he gave
    away can be taken back only while the one it sent his opponent into has not
    begun (`match_forfeit_undo`)."""
    match = _given_away(stage, entrant)
    if match is not None and _forfeit_stands(stage, match):
        return gettext(
            "%(name)s's match in the final went to his opponent, whose next match has "
            "begun: he can no longer be reinstated."
        ) % {"name": entrant}
    return ""


def entrant_returns_to_final(*, stage: FinalStage, entrant: Entrant, user=None, address=None):
    """A withdrawal taken back in the final: the match it gave away is played again
    (`match_forfeit_undo`); one who had not been drawn again simply plays on."""
    match = _given_away(stage, entrant)
    if match is not None:
        match_forfeit_undo(match=match, user=user, address=address)


def still_in(stage: FinalStage, rounds: list[BracketRound]) -> list[Entrant]:
    """The players the final has not placed yet and who have not withdrawn: in a
    match being played, waiting for their next opponent, or a semi-final's loser
    before the match for third place. They are the ones who can withdraw."""
    if stage.status != FinalStage.Status.PLAYING:
        return []
    total = engine.round_count(len(stage.seeds))
    last: dict[int, tuple[MatchView, Entrant]] = {}
    for r in rounds:  # in order of play, the match for third place last
        for m in r.matches:
            for entrant in (m.first, m.second):
                if entrant is not None:
                    last[entrant.pk] = (m, entrant)
    found = []
    for m, entrant in last.values():
        if entrant.withdrawn_after is not None:
            continue
        if m.status == "playing":
            found.append(entrant)
        elif m.winner is not None and m.winner.pk == entrant.pk:
            if not m.third_place and m.round < total:  # his next match is not drawn yet
                found.append(entrant)
        elif not m.third_place and m.round == total - 1 and _plays_third_place(stage):
            found.append(entrant)  # a semi-final lost: third place is still to play
    return sorted(found, key=lambda e: stage.seeds.index(e.pk))


def _forfeit_stands(stage: FinalStage, match: Match) -> bool:
    """A forfeit stands once a match it sent someone into is decided or has a hand:
    taking it back would leave that player where he could not have got."""
    following = _following(stage, match)
    parties = [g.party_id for m in following for g in m.games.all()]
    return any(m.winner_id for m in following) or Hand.objects.filter(party__in=parties).exists()


def _following(stage: FinalStage, match: Match) -> list[Match]:
    """The matches this match's result put someone into: the next round's, and the
    third-place match after a semi-final."""
    rounds = engine.round_count(len(stage.seeds))
    if match.third_place:
        return []
    found = list(
        stage.matches.filter(
            round=match.round + 1, slot=engine.next_match(match.slot)[0], third_place=False
        )
    )
    if match.round == rounds - 1:
        found += list(stage.matches.filter(third_place=True))
    return found


@transaction.atomic
def match_forfeit_undo(*, match: Match, user=None, address=None) -> Match:
    """Take back a forfeit: the match is played again from the game it stopped at,
    as long as no match it sent someone into has a hand (those matches go)."""
    stage, match = _locked_match(match)
    tournament_changed(stage.tournament_id)
    if match.absent is None:
        raise TournamentError(gettext("This match has no forfeit to take back."))
    if _forfeit_stands(stage, match):
        raise TournamentError(gettext("The next match has begun: the forfeit stands."))
    following = _following(stage, match)
    parties = [g.party for m in following for g in m.games.select_related("party")]
    absent = (match.first, match.second)[match.absent]
    for m in following:
        m.games.all().delete()
        m.delete()
    for party in parties:
        if party.status != Party.Status.CANCELLED:
            party_cancel(party=party, user=user, reason=gettext("A forfeit was taken back."))
    match.absent = None
    match.winner_id = None
    match.save(update_fields=["absent", "winner"])
    number = match.games.count() + 1
    _start_game(stage, match, number, _entrants(stage.tournament))
    _record(
        stage.tournament,
        TournamentRecord.Action.MATCH_UNFORFEIT,
        user=user,
        address=address,
        match=round_label(_round_key(stage, match.round, match.third_place)),
        absent=str(absent),
    )
    if stage.status == FinalStage.Status.FINISHED:
        stage.status = FinalStage.Status.PLAYING
        stage.save(update_fields=["status"])
        tournament = stage.tournament
        if not format_of(tournament.format).plays_rounds:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return match


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class MatchView:
    """A match as the pages show it. ``first``/``second``: the entrants (``None``
    for a place not yet decided, and ``second`` for a bye); ``seeds`` theirs;
    ``wins`` the games each side won; ``games`` the games' party ids in order;
    ``party_id`` the game being played (its seat links are the organizer's)."""

    round: int
    slot: int
    third_place: bool
    match: Match | None
    first: Entrant | None
    second: Entrant | None
    seeds: tuple[int | None, int | None]
    wins: tuple[int, int]
    games: tuple[int, ...]
    party_id: int | None
    winner: Entrant | None
    absent: Entrant | None

    @property
    def status(self) -> str:
        """ "waiting" (not drawn yet), "bye", "playing", "forfeit" or "decided"."""
        if self.match is None:
            return "waiting"
        if self.second is None and self.match.second_id is None:
            return "bye"
        if self.absent is not None:
            return "forfeit"
        return "decided" if self.winner is not None else "playing"


@dataclass(frozen=True)
class BracketRound:
    number: int
    key: str  # `engine.round_name`'s key, or "third-place"
    matches: list[MatchView]

    @property
    def name(self) -> str:
        return round_label(self.key)


def bracket(stage: FinalStage) -> list[BracketRound]:
    """The bracket round by round, every place shown (matches not yet drawn are
    "waiting"), the match for third place last. Six queries, whatever its size."""
    if not stage.seeds:
        return []
    matches = list(
        stage.matches.select_related("first__player", "second__player", "winner__player")
    )
    games = defaultdict(list)
    for game in MatchGame.objects.filter(match__stage=stage).order_by("number"):
        games[game.match_id].append(game)
    sheets = party_sheets([g.party_id for gs in games.values() for g in gs], cancelled=False)
    seed_of = {pk: n for n, pk in enumerate(stage.seeds, start=1)}
    rounds = engine.round_count(len(stage.seeds))
    placed = {(m.round, m.slot, m.third_place): m for m in matches}

    def view(round, slot, third):
        match = placed.get((round, slot, third))
        if match is None:
            empty = (None, None, None, (None, None), (0, 0), (), None, None, None)
            return MatchView(round, slot, third, *empty)
        wins = [0, 0]
        party_id = None
        played = games[match.pk]
        if match.second_id is not None:
            for game in played:
                state = sheets.get(game.party_id)
                if state is None or not state.finished:
                    party_id = game.party_id
            finished = [g for g in played if g.party_id in sheets and sheets[g.party_id].finished]
            sides = _game_sides(match, finished, sheets) or []
            for side in sides:
                wins[side] += 1
        absent = None
        if match.absent is not None:
            absent = (match.first, match.second)[match.absent]
        return MatchView(
            round,
            slot,
            third,
            match,
            match.first,
            match.second,
            (seed_of.get(match.first_id), seed_of.get(match.second_id)),
            tuple(wins),
            tuple(g.party_id for g in played),
            party_id,
            match.winner,
            absent,
        )

    result = [
        BracketRound(r, _round_key(stage, r), [view(r, s, False) for s in range(2 ** (rounds - r))])
        for r in range(1, rounds + 1)
    ]
    if _plays_third_place(stage):
        result.append(BracketRound(rounds, engine.THIRD_PLACE, [view(rounds, 0, True)]))
    return result


def final_stage_of(tournament: Tournament) -> FinalStage | None:
    """The tournament's final, or ``None``; no query when the tournament was read
    with it (the selectors' ``select_related("final_stage")``)."""
    return getattr(tournament, "final_stage", None)


def final_stage_for_manage(slug: str) -> FinalStage:
    return get_object_or_404(
        FinalStage.objects.select_related("tournament__club"), tournament__slug=slug
    )


def match_for_manage(slug: str, pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("stage__tournament__club", "first__player", "second__player"),
        stage__tournament__slug=slug,
        pk=pk,
    )


@dataclass(frozen=True)
class FinalLine:
    """One line of the final standings: ``reached`` the knockout round's key an
    entrant went out in ("final" for the runner-up; "champion"; "" for those who did
    not qualify), ``line`` his line of the qualifying standings (``None`` in a
    knockout tournament)."""

    place: int
    shared: bool
    entrant: Entrant
    reached: str
    line: selectors.StandingsLine | None


CHAMPION = "champion"


def reached_label(key: str) -> str:
    """How far an entrant came (`FinalLine.reached`), in the reader's language."""
    if key == CHAMPION:
        return gettext("Winner")
    return round_label(key) if key else ""


def final_standings(tournament: Tournament) -> list[FinalLine]:
    """The final standings: once the final is decided, its players first, by how far
    they came (`engine.final_places`; the semi-finals' losers share third unless
    they played for it), then everyone else as the qualifying standings place them.
    Before that, the qualifying standings alone."""
    stage = final_stage_of(tournament)
    lines = []
    if format_of(tournament.format).plays_rounds:
        lines = selectors.standings_for(tournament).lines
    by_entrant = {line.entrant.pk: line for line in lines}
    if stage is None or stage.status != FinalStage.Status.FINISHED:
        return [FinalLine(x.place, x.shared, x.entrant, "", x) for x in lines]
    matches = list(stage.matches.all())
    entrants = _entrants(tournament)
    reached = dict.fromkeys(stage.seeds, 1)
    champion = third_winner = third_loser = None
    rounds = engine.round_count(len(stage.seeds))
    for m in matches:
        if m.third_place:
            third_winner = m.winner_id
            third_loser = m.first_id if m.winner_id == m.second_id else m.second_id
            continue
        for pk in (m.first_id, m.second_id):
            if pk is not None:
                reached[pk] = max(reached[pk], m.round)
        if m.round == rounds:
            champion = m.winner_id
    groups = engine.final_places(stage.seeds, reached, third_winner, third_loser, champion)
    result = []
    for group in groups:
        place = len(result) + 1
        for pk in group:
            if pk == champion:
                key = CHAMPION
            elif pk in (third_winner, third_loser):
                key = engine.THIRD_PLACE
            else:
                key = _round_key(stage, reached[pk])
            result.append(FinalLine(place, len(group) > 1, entrants[pk], key, by_entrant.get(pk)))
    qualified = set(stage.seeds)
    rest = [x for x in lines if x.entrant.pk not in qualified]
    previous = None
    for x in rest:
        tied = previous is not None and x.shared and x.place == previous.place
        place = result[-1].place if tied else len(result) + 1
        if tied and not result[-1].shared:
            result[-1] = dataclasses.replace(result[-1], shared=True)
        result.append(FinalLine(place, tied, x.entrant, "", x))
        previous = x
    return result
