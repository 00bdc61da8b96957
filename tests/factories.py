import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubNight, Membership, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse battery")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Vienna"
    founded = 1950


class ClubNightFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubNight

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Night {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Faker("name")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    player = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)


class OrganizerFactory(MembershipFactory):
    role = Membership.Role.ORGANIZER
    player = factory.SubFactory(PlayerFactory, user=factory.SubFactory(UserFactory))


def start_party(format="two", players=2, seed=1909, **options):
    """A party between new club members, seats drawn with a fixed seed."""
    from random import Random

    from scoring.services.parties import party_start

    club = ClubFactory()
    members = [MembershipFactory(club=club).player for _ in range(players)]
    return party_start(club=club, format=format, players=members, rng=Random(seed), **options)


def start_night_party(night, format="two", players=2, seed=1909, **options):
    """A party at a club night between new members of the night's club."""
    from random import Random

    from scoring.services.parties import party_start

    members = [MembershipFactory(club=night.club).player for _ in range(players)]
    return party_start(
        club=night.club, night=night, format=format, players=members, rng=Random(seed), **options
    )


def start_game_party(game, players, options=None, night=None, **more):
    """A party of another game (`scoring.engine.games.GAMES`) between new club
    members, seated in the order they joined."""
    from scoring.services.parties import party_start

    club = night.club if night else ClubFactory()
    members = [MembershipFactory(club=club).player for _ in range(players)]
    return party_start(club=club, night=night, game=game, players=members, options=options, **more)


# A legal first hand of each game played at one whole table, entered by the first
# seat, for a party of the given number of players: something to confirm, or to
# enter against.
FIRST_HANDS = {
    "chinchon": (3, {"closer": 0, "penalties": [0, 5, 9]}),
    "canasta": (4, {"sides": [{"meld_points": 300, "natural_canastas": 1, "went_out": True},
                              {"meld_points": 90}]}),
    "blaue_vierzehn": (3, {"points": [20, 30, 6]}),
    "cruzo": (3, {"went_out": [2], "cards_left": {"0": 3, "1": 1}}),
}  # fmt: skip


def whole_table_party(game, pending=False):
    """A party of a game of `FIRST_HANDS` at its table, its first hand entered by
    the first seat (``pending``) or not."""
    from scoring.services.hands import hand_enter

    players, first = FIRST_HANDS[game]
    party = start_game_party(game, players)
    if pending:
        hand_enter(seat=party.seats.get(position=0), number=1, entry=first)
    return party
