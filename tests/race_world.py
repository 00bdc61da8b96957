"""A club in the state an organizer's action needs, for the race harness
(tests/test_race_harness.py): built through the services, the way the pages build
it, and each piece made once per world, when a recipe first asks for it."""

from datetime import date
from functools import cached_property

from clubs.models import Membership
from clubs.services import api_token_create, organizer_invite
from notices.models import Channel, Kind, Notice
from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel, party_start
from seasons.services import season_create
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory
from tournaments import registration, rounds, tables, withdrawals
from tournaments.final.forfeits import match_forfeit
from tournaments.final.setup import final_stage_add, final_stage_start
from tournaments.models import KeepApart

#: A Chinchón hand of two: seat 0 closed with everything melded.
CHINCHON_HAND = {"closer": 0, "penalties": [0, 30]}


class World:
    """One club, its owner (the organizer who sends every request, with a session
    and a personal API key) and what the recipes need, made on first use."""

    def __init__(self):
        self.owner = OrganizerFactory(role=Membership.Role.OWNER)
        self.club = self.owner.club
        self.user = self.owner.player.user
        self.key = api_token_create(user=self.user, name="harness")[1]

    # Members, nights, parties, hands -----------------------------------------------

    def member(self, role=Membership.Role.MEMBER) -> Membership:
        return MembershipFactory(club=self.club, role=role)

    @cached_property
    def pair(self):
        return [self.member().player, self.member().player]

    @cached_property
    def night(self):
        return ClubNightFactory(club=self.club)

    @cached_property
    def party(self) -> Party:
        """A party running at the night, no hand played yet."""
        return party_start(club=self.club, night=self.night, format="two", players=self.pair)

    @cached_property
    def over_party(self) -> Party:
        players = [self.member().player, self.member().player]
        party = party_start(club=self.club, night=self.night, format="two", players=players)
        return party_cancel(party=party, user=self.user, reason="started by mistake")

    def seats(self, party=None):
        return list((party or self.party).seats.select_related("player").order_by("position"))

    @cached_property
    def pending_hand(self):
        """Hand 1 of `party`, entered by seat 0 and waiting for seat 1."""
        first, _ = self.seats()
        return hand_enter(seat=first, number=1, entry=Result("knock", 0, 3, 21)).hand

    @cached_property
    def disputed_hand(self):
        hand = self.pending_hand
        hand_enter(seat=self.seats()[1], number=1, entry=Result("knock", 0, 3, 30))
        hand.refresh_from_db()
        return hand

    @cached_property
    def game_party(self) -> Party:
        """A Chinchón party of two at the night: one confirmation settles a hand."""
        players = [self.member().player, self.member().player]
        return party_start(club=self.club, night=self.night, game="chinchon", players=players)

    @cached_property
    def game_pending_hand(self):
        """Hand 1 of `game_party`, entered by seat 0 and waiting for seat 1."""
        first, _ = self.seats(self.game_party)
        return hand_enter(seat=first, number=1, entry=CHINCHON_HAND).hand

    @cached_property
    def game_disputed_hand(self):
        hand = self.game_pending_hand
        other = {**CHINCHON_HAND, "penalties": [0, 25]}
        hand_enter(seat=self.seats(self.game_party)[1], number=1, entry=other)
        hand.refresh_from_db()
        return hand

    @cached_property
    def guest_who_played(self):
        """A guest with a party behind him, and the member he became."""
        guest = self.member(Membership.Role.GUEST).player
        other = self.member().player
        party_start(club=self.club, night=self.night, format="two", players=[guest, other])
        return guest, self.member().player

    @cached_property
    def organizer(self) -> Membership:
        username = f"organizer-{self.club.pk}"
        membership, _ = organizer_invite(membership=self.member(), username=username, by=None)
        return membership

    # A player's mail ----------------------------------------------------------------

    @cached_property
    def reader(self) -> Membership:
        """A member with an address of his own (a new one in every world)."""
        return MembershipFactory(club=self.club, player__email=f"reader-{self.club.pk}@example.org")

    @cached_property
    def mailed(self) -> Notice:
        """A notice mailed to the reader, which his mail provider reports on."""
        return Notice.objects.create(
            club=self.club,
            player=self.reader.player,
            kind=Kind.TABLE,
            channel=Channel.EMAIL,
            key=f"race-{self.club.pk}",
            subject="Your table",
            body="Table 3",
            status=Notice.Status.SENT,
        )

    @cached_property
    def season(self):
        return season_create(
            club=self.club,
            user=self.user,
            name="Season",
            starts=date(2000, 1, 1),
            ends=date(2099, 12, 31),
            counts="both",
            scheme="plus_minus",
        )

    # Tournaments ---------------------------------------------------------------------

    def _tournament(self, name, format="swiss"):
        tournament = registration.tournament_create(club=self.club, name=name, format=format)
        players = [self.member().player for _ in range(4)]
        registration.entrant_register(tournament=tournament, players=players)
        for entrant in tournament.entrants.all():
            registration.entrant_check_in(entrant=entrant)
        return tournament

    @cached_property
    def tournament(self):
        """A Swiss in registration: four members entered and checked in."""
        return self._tournament("Open")

    @cached_property
    def entrants(self):
        return list(self.tournament.entrants.order_by("pk"))

    @cached_property
    def round(self):
        """Round 1 of `tournament`, paired and being played (the pairing runs
        after the commit, at once here: the harness's test commits as it goes)."""
        round = rounds.round_start(tournament=self.tournament)
        round.refresh_from_db()
        return round

    @cached_property
    def playing(self):
        """`tournament` with its round 1 being played."""
        self.round  # noqa: B018 - made on first use
        return self.tournament

    @cached_property
    def played(self):
        """`tournament` with every table of round 1 played out (one gin each)."""
        for view in tables.round_tables(self.round):
            if view.table.bye:
                continue
            first, second = view.table.party.seats.order_by("position")
            entered = hand_enter(seat=first, number=1, entry=Result("gin", 0, 0, 90)).hand
            hand_confirm(seat=second, number=1, version=entered.version)
        return self.tournament

    @cached_property
    def closed(self):
        """`tournament` with round 1 played and closed: round 2 waits to be paired."""
        self.played  # noqa: B018 - made on first use
        rounds.round_close(round=self.round)
        return self.tournament

    @cached_property
    def table(self):
        return next(v.table for v in tables.round_tables(self.round) if not v.table.bye)

    def table_entrants(self):
        return [s.entrant for s in self.table.seatings.order_by("side")]

    @cached_property
    def forfeited_table(self):
        return tables.table_forfeit(table=self.table, absent=self.table_entrants()[0])

    @cached_property
    def withdrawn(self):
        self.playing  # noqa: B018 - a withdrawal comes after the start
        return withdrawals.entrant_withdraw(entrant=self.entrants[0])

    @cached_property
    def apart(self) -> KeepApart:
        first, second = self.entrants[:2]
        return registration.keep_apart_add(tournament=self.tournament, first=first, second=second)

    @cached_property
    def with_final(self):
        """A Swiss in registration with a final of two added."""
        tournament = self._tournament("With final")
        final_stage_add(tournament=tournament, qualifiers=2)
        return tournament

    @cached_property
    def knockout(self):
        """A knockout of four in registration: its final starts from here."""
        return self._tournament("Cup", format="knockout")

    @cached_property
    def knockout_playing(self):
        final_stage_start(tournament=self.knockout)
        return self.knockout

    @cached_property
    def match(self):
        stage = self.knockout_playing.final_stage
        return stage.matches.exclude(second=None).order_by("pk").first()

    @cached_property
    def forfeited_match(self):
        return match_forfeit(match=self.match, absent=self.match.first)
