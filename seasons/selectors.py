"""Reads for the seasons' pages: each in a fixed number of queries, however many
parties, events or players."""

from datetime import date

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from clubs.models import Club, ClubNight, Membership, Player
from clubs.names import Named, listed_ids, names_in
from scoring.engine.games import GAMES
from scoring.models import Party, game_choices
from seasons.engine.ratings import Rating as RatingValue
from seasons.engine.season import Event, Line, Scheme, Score, season_table
from seasons.models import ALL_GAMES, PlayerLink, Rating, RatingChange, RatingLedger, Season
from tournaments.models import FinalStage, Round, Seating, Tournament
from tournaments.standings import final_standings
from web.tokens import is_link_token


def club_games(club: Club) -> list[str]:
    """Every game, the one the club plays most first: by the club's parties
    (cancelled ones left out), more first; equal ones, and the games it never
    played, in the games' order. So the pages open on the club's own game, and on
    Gin Rummy only for a club with no party yet. One query."""
    counts = dict(
        Party.objects.filter(club=club)
        .exclude(status=Party.Status.CANCELLED)
        .order_by()
        .values_list("game")
        .annotate(parties=Count("pk"))
    )
    return sorted(GAMES, key=lambda key: -counts.get(key, 0))


def main_game(club: Club) -> str:
    """The game the club plays most (`club_games`)."""
    return club_games(club)[0]


def rating_game(value) -> str | None:
    """The game asked for (``?game=``); None when none or unknown (the rating list
    then opens on the club's game, `rating_board`)."""
    return value if value in GAMES else None


#: The chart's drawing area, in SVG units (it scales to the page's width).
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 120, 8


def rating_chart(values: list[int]) -> dict | None:
    """The rating's history as an SVG polyline drawn on the server (no script):
    its points, and the lowest and highest rating for the axis labels."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (CHART_WIDTH - 2 * CHART_PAD) / (len(values) - 1)
    inner = CHART_HEIGHT - 2 * CHART_PAD
    points = " ".join(
        f"{CHART_PAD + i * step:.1f},{CHART_PAD + inner - (v - low) / span * inner:.1f}"
        for i, v in enumerate(values)
    )
    return {
        "points": points,
        "low": low,
        "high": high,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
    }


def rating_list(
    *, club: Club, public: bool, today: date | None = None, game: str | None = None
) -> list[dict]:
    """The club's ratings in ``game`` (each game keeps its own; by default the
    game the club plays most, `main_game`), best first; provisional ones after
    the rest (a rating that is not yet known is not ranked). In public, a player
    who did not agree to be listed appears by his initials. Two queries, three
    for the club's game."""
    return rating_board(club=club, public=public, today=today, game=game)["ratings"]


def rating_board(
    *, club: Club, public: bool, today: date | None = None, game: str | None = None
) -> dict:
    """The rating list of ``game`` (`rating_list`; by default the club's game,
    `main_game`) and the games it can be listed by (``games``: the one shown and
    each game with a rated party, in the games' order, as (key, name)). Two
    queries, three for the club's game: the club's ratings of every game are read
    at once."""
    today = today or timezone.localdate()
    game = game or main_game(club)
    rows = list(Rating.objects.filter(club=club).select_related("player"))
    found = {row.game for row in rows}
    listed = listed_ids(club)
    entries = []
    for row in rows:
        if row.game != game:
            continue
        value = RatingValue(row.mu, row.sigma, row.parties, row.won, row.last_played)
        named = Named(row.player_id, row.player.name, row.player_id in listed)
        entries.append(
            {
                "player": named,
                "name": named.shown(public),
                "rating": value,
                "shown": value.shown(today),
                "label": value.label(today),
                "spread": value.spread(today),
                "provisional": value.provisional(today),
                "parties": row.parties,
                "won": row.won,
            }
        )
    entries.sort(key=lambda e: (e["provisional"], -e["shown"], e["name"]))
    games = [(key, name) for key, name in game_choices() if key == game or key in found]
    return {"ratings": entries, "games": games, "game": game}


def unrated_members(*, club: Club) -> list[Player]:
    """The club's active members and guests with no rated party at it yet, of any
    game, by name: the organizer's players list links them too, so it leads to
    every player (one rated in another game only, through that game's list). One
    query."""
    return list(
        Player.objects.filter(memberships__club=club, memberships__active=True)
        .exclude(ratings__club=club)
        .distinct()
        .order_by("name", "pk")
    )


def club_by_slug(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


# ---------------------------------------------------------------------------- seasons


def season_events(season: Season) -> list[Event]:
    """The season's events with each player's plus/minus over its finished
    parties: the club nights and/or tournaments dated within the season, of the
    season's game. Read from the results kept with the ratings (one row per player
    and party), and the tournaments' byes (an event for a player who had only a bye
    there): four queries, summed by the database, however many events and parties.

    A season of all games places each party of a night at its own table (an event
    of its own: plus/minus of different games do not add up) and each tournament by
    its own results (one game); it scores by place."""
    days: dict = {}
    sums: dict = {}
    decided: dict = {}
    changes = RatingChange.objects.filter(club_id=season.club_id).order_by()
    every = season.game == ALL_GAMES
    if not every:
        changes = changes.filter(game=season.game)
    if season.counts in (Season.Counts.BOTH, Season.Counts.NIGHTS):
        nights = ClubNight.objects.filter(
            club_id=season.club_id, date__range=(season.starts, season.ends)
        )
        if every:
            rows = changes.filter(party__night__in=nights).values_list(
                "party_id", "party__night__date", "player_id", "plus_minus", "place"
            )
            for party, day, player, plus_minus, place in rows:
                days[("party", party)] = day
                sums.setdefault(("party", party), {})[player] = plus_minus
                decided.setdefault(("party", party), {})[player] = place
            # A row kept before places were (Gin Rummy's): placed by plus/minus.
            decided = {k: v for k, v in decided.items() if None not in v.values()}
        else:
            days.update({("night", pk): day for pk, day in nights.values_list("pk", "date")})
            rows = (
                changes.filter(party__night__in=nights)
                .values_list("party__night_id", "player_id")
                .annotate(total=Sum("plus_minus"))
            )
            for night, player, total in rows:
                sums.setdefault(("night", night), {})[player] = total
    if season.counts in (Season.Counts.BOTH, Season.Counts.TOURNAMENTS):
        tournaments = Tournament.objects.filter(
            club_id=season.club_id, date__range=(season.starts, season.ends)
        )
        if not every:
            tournaments = tournaments.filter(game=season.game)
        listed = tournaments.values_list("pk", "date", "final_stage__status")
        days.update({("tournament", pk): day for pk, day, _ in listed})
        finals = [pk for pk, _, status in listed if status == FinalStage.Status.FINISHED]
        # A tournament's parties: its rounds' tables and its final's games.
        table = "party__tournament_table__round__tournament_id"
        game = "party__match_game__match__stage__tournament_id"
        rows = (
            changes.filter(
                Q(party__tournament_table__round__tournament__in=tournaments)
                | Q(party__match_game__match__stage__tournament__in=tournaments)
            )
            .values_list(Coalesce(table, game), "player_id")
            .annotate(total=Sum("plus_minus"))
        )
        for tournament, player, total in rows:
            sums.setdefault(("tournament", tournament), {})[player] = total
        # A bye of a paired round is a round he took part in: the tournament is one
        # of his events even if it was all he had there (no party: 0 plus/minus).
        byes = Seating.objects.filter(
            table__bye=True,
            round__tournament__in=tournaments,
            round__status__in=(Round.Status.PLAYING, Round.Status.CLOSED),
        ).values_list("round__tournament_id", "entrant__player_id")
        for tournament, player in byes:
            sums.setdefault(("tournament", tournament), {}).setdefault(player, 0)
        if finals:
            decided.update(_final_places(tournaments.filter(pk__in=finals)))
    return [Event(key, days[key], found, decided.get(key)) for key, found in sums.items()]


def _final_places(tournaments) -> dict:
    """Each of these tournaments' places as its decided final ordered them
    (`standings.final_standings`: the final's players by how far they came, then
    the rest by the rounds), by player. A few queries for each tournament with a
    decided final; a season has a handful."""
    decided = {}
    for tournament in tournaments:
        lines = final_standings(tournament, public=False)
        decided[("tournament", tournament.pk)] = {
            line.entrant.player_id: line.place for line in lines
        }
    return decided


def season_lines(season: Season, *, live: bool = False, scheme: Scheme | None = None) -> list:
    """The season table: as frozen when the season closed, or (``live``, or an open
    season, or another ``scheme`` to preview) from the parties as they stand."""
    if season.closed_at is not None and not live and scheme is None and season.frozen:
        return [_line(data) for data in season.frozen]
    return season_table(season_events(season), scheme or _scheme(season))


def _scheme(season: Season) -> Scheme:
    return Scheme(
        kind=season.scheme,
        place_points=tuple(season.place_points or ()),
        best_of=season.best_of,
        minimum_events=season.minimum_events,
    )


def _line(data: dict) -> Line:
    scores = tuple(
        Score(tuple(s["event"]), s["plus_minus"], s["place"], s["points"], s["counted"])
        for s in data["scores"]
    )
    return Line(
        data["player"], data["place"], data["total"], data["events"], data["needed"], scores
    )


def season_page(season: Season, *, public: bool, scheme: Scheme | None = None) -> dict:
    """The season table with the players' names (initials in public for those who
    did not agree to be listed). Five queries, however many players and events."""
    lines = season_lines(season, scheme=scheme)
    names = names_in(season.club, [line.player for line in lines])
    rows = [
        {
            "line": line,
            "player": names.get(line.player) or Named(line.player, "?", False),
            "name": (names.get(line.player) or Named(line.player, "?", False)).shown(public),
            "dropped": sum(not s.counted for s in line.scores),
        }
        for line in lines
    ]
    return {"season": season, "rows": rows}


def previous_season(season: Season) -> Season | None:
    """The club's season that ended last before this one starts: what a new scheme
    is tried on."""
    return (
        Season.objects.filter(club_id=season.club_id, ends__lt=season.starts)
        .exclude(pk=season.pk)
        .order_by("-ends")
        .first()
    )


def season_list(*, club: Club, public: bool) -> list[Season]:
    seasons = Season.objects.filter(club=club)
    if public:
        seasons = seasons.filter(published=True)
    return list(seasons.order_by("-starts", "name"))


def season_by_id(season_id: int, *, public: bool = False, slug: str | None = None) -> Season:
    seasons = Season.objects.select_related("club")
    if public:
        seasons = seasons.filter(published=True)
    if slug is not None:
        seasons = seasons.filter(club__slug=slug)
    return get_object_or_404(seasons, pk=season_id)


def current_season(*, club: Club, public: bool, today: date | None = None) -> Season | None:
    """The season running today (the latest started), or else the latest."""
    today = today or timezone.localdate()
    seasons = Season.objects.filter(club=club)
    if public:
        seasons = seasons.filter(published=True)
    running = seasons.filter(starts__lte=today, ends__gte=today).order_by("-starts").first()
    return running or seasons.order_by("-ends").first()


def season_in_progress(*, club_id: int, today: date | None = None) -> Season | None:
    """The club's published season running today and not closed (the latest
    started), or None: what the wall screen of the club's tournament shows."""
    today = today or timezone.localdate()
    return (
        Season.objects.filter(
            club_id=club_id,
            published=True,
            closed_at__isnull=True,
            starts__lte=today,
            ends__gte=today,
        )
        .order_by("-starts", "-pk")
        .first()
    )


def ratings_through(*, club_id: int) -> int:
    """How far the club's ratings (and so its season tables) have read the parties'
    record: it moves with every change they fold in."""
    found = RatingLedger.objects.filter(club_id=club_id).values_list("audit_through", flat=True)
    return next(iter(found), 0)


def player_by_link(token: str) -> PlayerLink:
    """The player a personal link opens; a replaced or unknown link, or anything
    that cannot be one, is a 404."""
    if not is_link_token(token):
        raise Http404
    return get_object_or_404(PlayerLink.objects.select_related("club", "player"), token=token)


def player_link(*, club: Club, player: Player) -> PlayerLink | None:
    return PlayerLink.objects.filter(club=club, player=player).first()


def guest_membership(*, club: Club, player: Player) -> Membership | None:
    """The player's membership when he is a guest of the club, else None."""
    return Membership.objects.filter(
        club=club, player=player, role=Membership.Role.GUEST, active=True
    ).first()


def merge_candidates(*, club: Club):
    """The members a guest may have become: the club's active members."""
    return (
        Player.objects.filter(memberships__club=club, memberships__active=True)
        .exclude(memberships__role=Membership.Role.GUEST)
        .order_by("name")
    )


def entrant_ratings(tournament: Tournament, entrant_ids) -> dict[int, float]:
    """The club's ratings of a tournament's entrants (entrant id -> rating), for
    seeding a knockout tournament (`tournaments.seeding`); the unrated are left
    out. The rating's mean: the seeding orders players, it does not bet on them."""
    # A tournament of another game seeds by that game's ratings.
    rows = Rating.objects.filter(
        club_id=tournament.club_id,
        game=tournament.game,
        player__entries__tournament=tournament,
        player__entries__pk__in=list(entrant_ids),
    ).values_list("player__entries__pk", "mu")
    return dict(rows)
