"""A player's page in a club: their parties, plus/minus, ratings and each game's
record, in a fixed number of queries however many parties they played. Apart from
`seasons.selectors` (the seasons and the rating lists), which it reads."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone

from clubs.models import Club, Membership, Player
from clubs.names import names_in
from scoring.engine.games import GAMES
from scoring.engine.games.game import PlayedHand
from scoring.labels import record_rows
from scoring.models import Hand, Party, Seat, game_choices
from seasons.engine.ratings import Rating as RatingValue
from seasons.engine.stats import DEFENDER, KNOCKER, HandFact, PartyFact, player_stats
from seasons.models import Rating, RatingChange
from seasons.selectors import club_games, rating_chart


def settles(key: str) -> bool:
    """Whether the game's parties settle player to player (a game of party formats,
    `Game.formats`): its section shows, besides its record, what the settlements
    paid (boxes, shutouts, head to head), kept with the ratings. Each other game's
    section is its record alone (`other_games`)."""
    return bool(GAMES[key].formats)


def club_player(club: Club, player_id: int, *, public: bool) -> Player:
    """A player of the club: one who has sat at one of its parties or belongs to
    it. In public only one who agreed to be listed; anyone else is a 404."""
    players = Player.objects.filter(Q(memberships__club=club) | Q(seats__party__club=club))
    if public:
        players = Player.objects.filter(
            memberships__club=club, memberships__listed=True, memberships__active=True
        ).exclude(memberships__role=Membership.Role.GUEST)
    return get_object_or_404(players.distinct(), pk=player_id)


@dataclass(frozen=True)
class RecentParty:
    pk: int
    day: date | None
    label: str
    opponents: list[str]
    plus_minus: int


def player_page(
    *, club: Club, player: Player, public: bool, own: bool = False, today: date | None = None
) -> dict:
    """Everything a player's page shows, a section for each game they played, the
    club's own game first (`club_games`): in a game whose parties settle player to
    player (`settles`), plus/minus, the rating with its history, the game's figures
    with what each rests on, the best party, head to head and the latest parties;
    in each other game its rating and the game's record (`other_games`). A player
    who played nothing yet finds the club's game. Eight queries, however many
    parties. The page's own keys (``stats``, ``rating``, ``history`` …) are those
    of the first such game shown.

    ``public``: other players appear by their initials unless they agreed to be
    listed; ``own``: the player reads their own page (their personal link), so
    their own name is in full."""
    today = today or timezone.localdate()
    mine = dict(
        Seat.objects.filter(player=player, party__club=club).values_list("party_id", "side")
    )
    seat_ids = Seat.objects.filter(player=player, party__club=club).values("pk")
    # The hands of the party formats: only these name a knocker and a defender.
    hands = Hand.objects.filter(
        Q(knocker_id__in=seat_ids) | Q(defender_id__in=seat_ids),
        status=Hand.Status.CONFIRMED,
    ).exclude(party__status=Party.Status.CANCELLED)
    hand_facts = defaultdict(list)
    for party_id, game, knocker, kind, winner_side, deadwood, details in hands.values_list(
        "party_id",
        "party__game",
        "knocker__player_id",
        "kind",
        "winner__side",
        "knocker_deadwood",
        "details",
    ):
        role = KNOCKER if knocker == player.pk else DEFENDER
        laid_off = details.get("laid_off") if "defender_cards" in (details or {}) else None
        hand_facts[game].append(
            HandFact(
                role=role,
                kind=kind,
                won=winner_side == mine.get(party_id),
                knocker_deadwood=deadwood,
                laid_off=len(laid_off) if laid_off is not None else None,
            )
        )
    # The finished parties' results, kept with the ratings: one row per party and
    # player, of every game (another game's go to its own section).
    changes = RatingChange.objects.filter(club=club, player=player).order_by(
        "finished_at", "party_id"
    )
    party_facts, history = defaultdict(list), defaultdict(list)
    opponents_of, meta, elsewhere = {}, {}, []
    for change in changes.values(
        "party_id",
        "game",
        "place",
        "won",
        "finished_at",
        "mu",
        "sigma",
        "plus_minus",
        "boxes",
        "shutout_made",
        "shutout_suffered",
        "games",
        "party__label",
        "party__night__name",
    ):
        # Only the settlements of party formats pay boxes, shutouts and games
        # player to player; the other games' hands are in Hand.scores (`other_games`).
        key = change["game"]
        if not settles(key):
            elsewhere.append(change)
            continue
        pk, day = change["party_id"], change["finished_at"].date()
        history[key].append((day, RatingValue(change["mu"], change["sigma"]).shown()))
        games = tuple((opponent, amount) for opponent, amount in change["games"])
        opponents_of[pk] = list(dict.fromkeys(opponent for opponent, _ in games))
        meta[pk] = {"label": change["party__label"], "night__name": change["party__night__name"]}
        party_facts[key].append(
            PartyFact(
                key=pk,
                day=day,
                plus_minus=change["plus_minus"],
                boxes=change["boxes"],
                shutout_made=change["shutout_made"],
                shutout_suffered=change["shutout_suffered"],
                games=games,
            )
        )
    stats = {}
    for key in filter(settles, GAMES):
        party_facts[key].sort(key=lambda p: (p.day or date.min, p.key))
        stats[key] = player_stats(GAMES[key], hand_facts[key], party_facts[key])
    everyone = {p for players in opponents_of.values() for p in players}
    everyone.update(h.opponent for found in stats.values() for h in found.head_to_head)
    names = names_in(club, everyone | {player.pk})
    rows = {
        row.game: RatingValue(row.mu, row.sigma, row.parties, row.won, row.last_played)
        for row in Rating.objects.filter(club=club, player=player)
    }
    seen = (meta, opponents_of, names, public)
    settled = {
        key: _settled(found, party_facts[key], history[key], rows.get(key), seen, today)
        for key, found in stats.items()
    }
    order = club_games(club)
    played = {change["game"] for change in elsewhere}
    played.update(key for key, s in settled.items() if s["stats"].parties or s["stats"].hands)
    played.update(key for key, s in settled.items() if s["rating"])
    shown = [key for key in order if key in played] or order[:1]
    games = other_games(rows, elsewhere, mine, today, [k for k in shown if k in played])
    first = next((key for key in shown + order if key in settled), None)
    return {
        **(settled[first] if first else {}),
        "games": games,
        "sections": _sections(shown, games, settled, rows, today),
        "club": club,
        "player": names[player.pk],
        "name": names[player.pk].name if own else names[player.pk].shown(public),
        "today": today,
    }


def _settled(stats, parties: list, history: list, rating, seen: tuple, today: date) -> dict:
    """The part of a section that a game settled player to player adds: its figures
    (``stats``, `player_stats`), the rating and its history, head to head, the best
    and the latest parties (``parties`` in order). ``seen``: each party's label
    and opponents, the players' names and whether they are shown in public."""
    meta, opponents_of, names, public = seen
    recent = [
        RecentParty(
            p.key,
            p.day,
            meta[p.key]["label"] or meta[p.key]["night__name"] or "",
            [names[o].shown(public) for o in opponents_of[p.key] if o in names],
            p.plus_minus,
        )
        for p in reversed(parties[-10:])
    ]
    rivals = [
        {"name": names[h.opponent].shown(public), "rival": h}
        for h in stats.head_to_head
        if h.opponent in names
    ]
    return {
        "stats": stats,
        "rivals": rivals,
        "recent": recent,
        "best": meta.get(stats.best_party.key) if stats.best_party else None,
        "rating": rating,
        # As on the day it is read: a long absence makes a rating provisional again.
        "rating_shown": rating
        and {
            "label": rating.label(today),
            "spread": rating.spread(today),
            "provisional": rating.provisional(today),
            "parties": rating.parties,
        },
        "history": history,
        "chart": rating_chart([shown for _, shown in history]),
    }


def _sections(
    shown: list[str], games: list[dict], settled: dict, ratings: dict, today: date
) -> list[dict]:
    """The page's sections in order: a game settled player to player with its
    ``settled`` part (`_settled`), each other game's from `other_games`; an other
    game not played (the club's game, for a player who played nothing yet) with
    an empty record."""
    found = {section["key"]: section for section in games}
    names = dict(game_choices())
    sections = []
    for key in shown:
        if key in settled:
            sections.append({"key": key, "name": names[key], "settled": settled[key]})
        else:
            sections.append(found.get(key) or _section(key, names[key], [], {}, ratings, today))
    return sections


def other_games(
    ratings: dict, changes: list[dict], sides: dict, today: date, keys: list[str]
) -> list[dict]:
    """The player's sections of the games not settled player to player (seed 003)
    among ``keys``, in their order: the rating, parties, won, and the game's own
    record (`Game.record`) from the confirmed hands' facts. One query (the hands),
    none when no such game was played."""
    if not changes:
        return []
    parties = {change["party_id"] for change in changes}
    hands: dict = {}
    rows = Hand.objects.filter(party_id__in=parties, status=Hand.Status.CONFIRMED)
    for party_id, scores, facts in rows.order_by("party_id", "number", "table").values_list(
        "party_id", "scores", "facts"
    ):
        side = sides.get(party_id)
        if scores is not None and side is not None and side < len(scores):
            hands.setdefault(party_id, []).append(PlayedHand(side, tuple(scores), facts or {}))
    names = dict(game_choices())
    sections = []
    for game in keys:
        mine = [change for change in changes if change["game"] == game]
        if not settles(game) and mine:
            sections.append(_section(game, names[game], mine, hands, ratings, today))
    return sections


def _section(game: str, name, mine: list[dict], hands: dict, ratings: dict, today: date) -> dict:
    """One game's section from the player's finished parties of it (``mine``)
    and their hands (by party)."""
    played = [hand for change in mine for hand in hands.get(change["party_id"], [])]
    engine = GAMES[game]
    record = engine.record(played, [c["place"] for c in mine if c["place"]], len(mine))
    rating = ratings.get(game)
    return {
        "key": game,
        "name": name,
        "parties": len(mine),
        "won": sum(change["won"] for change in mine),
        "rating": rating,
        "label": rating.label(today) if rating else "—",
        "spread": rating.spread(today) if rating else None,
        "provisional": rating.provisional(today) if rating else False,
        "figures": record_rows(engine, record),
    }
