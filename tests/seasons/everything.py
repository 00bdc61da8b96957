"""A club where one player, Ada Quill, has something kept in every app: a login
and an e-mail, a membership, a finished party at a club night, a tournament entry
with a round played (or a bye) and closed and a pair kept apart, a rating and its
history, a line in a season, a personal link, and lines in the club's, the
parties', the tournaments' and the seasons' records. Ben Ash
played against her, Dan Ives played the tournament too; Cleo Birch played at the
same club, never at her table nor in her tournament: nothing of hers is Ada's."""

import datetime

from clubs.services import member_create
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.nights import night_create
from seasons.services import player_link_issue, season_create
from tests.factories import UserFactory
from tests.seasons.conftest import gin, play_party
from tournaments import registration, rounds, seating


def build(organizer, after_commit) -> dict:
    club = organizer.club
    user = organizer.player.user
    ada = member_create(club=club, name="Ada Quill", email="ada@quill.example", by=user).player
    ada.user = UserFactory(username="adaq", email="ada@quill.example")
    ada.save(update_fields=["user"])
    ben = member_create(club=club, name="Ben Ash", email="ben@ash.example", by=user).player
    cleo = member_create(club=club, name="Cleo Birch", email="cleo@birch.example", by=user).player
    dan = member_create(club=club, name="Dan Ives", by=user).player
    night = night_create(club=club, user=user, name="Tuesday", date=datetime.date(2026, 10, 6))
    with after_commit():
        night_party = play_party(club, [ada, ben], winner=ada, night=night)
        play_party(club, [ben, cleo], winner=cleo, night=night, seed=7)
    tournament = registration.tournament_create(
        club=club, name="Cup", slug="cup", format="round_robin", date=datetime.date(2026, 10, 10)
    )
    registration.entrant_register(tournament=tournament, players=[ada, ben, dan])
    entrants = {e.player_id: e for e in tournament.entrants.all()}
    for entrant in entrants.values():
        registration.entrant_check_in(entrant=entrant)
    registration.keep_apart_add(
        tournament=tournament, first=entrants[ada.pk], second=entrants[dan.pk], user=user
    )
    round = rounds.round_start(tournament=tournament)
    seating.round_pair(round_id=round.pk)
    with after_commit():
        for table in round.tables.filter(bye=False):
            seats = list(table.party.seats.order_by("position"))
            hand_enter(seat=seats[0], number=1, entry=gin(seats[0].position, 90))
            hand_confirm(seat=seats[1], number=1, version=1)
        rounds.round_close(round=round)
    season = season_create(
        club=club,
        user=user,
        name="Autumn 2026",
        starts=datetime.date(2026, 9, 1),
        ends=datetime.date(2026, 12, 31),
        counts="both",
        scheme="plus_minus",
        published=True,
    )
    link = player_link_issue(club=club, player=ada, user=user)
    return {
        "club": club,
        "ada": ada,
        "ben": ben,
        "cleo": cleo,
        "dan": dan,
        "night": night,
        "party": night_party,
        "tournament": tournament,
        "round": round,
        "season": season,
        "link": link,
    }
