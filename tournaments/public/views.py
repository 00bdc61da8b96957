"""Pages anyone may see: the clubs, their tournaments and nights, a tournament's
standings, rounds, crosstable and players, the screen for the wall, and the
exports. Only what the organizer published is shown: every view checks the
tournament's flags itself, and an unpublished part is a 404."""

import datetime

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext

from clubs import selectors as clubs
from clubs.models import Player
from clubs.names import shown_names
from scoring.engine.games import GAMES
from scoring.engine.games.game import PlayedHand
from scoring.labels import record_rows
from scoring.results import keeping_of, party_results
from scoring.selectors import party_states, sheet_rows
from scoring.services.keeping import FormatTables, WholeTable
from tournaments import planned, stored_board
from tournaments.final.bracket import reached_label
from tournaments.public import knockout, parts
from tournaments.public.tables import ClubTable
from tournaments.published import (
    entrant_parties,
    public_entrant,
    public_tournament,
    recent_tournaments,
)
from web.spreadsheet import cells, csv_response, csv_writer, text_cell

# How far back the home page and a club's page look for nights and tournaments.
RECENT = datetime.timedelta(days=90)


def home(request):
    """The clubs, each with its current and recent tournaments and nights."""
    club_rows = list(clubs.club_list())
    since = timezone.localdate() - RECENT
    tournaments = _by_club(recent_tournaments(since=since))
    nights = _by_club(clubs.recent_nights(since=since))
    table = ClubTable(club_rows, request=request)
    recent = [
        {
            "club": c,
            "tournaments": tournaments.get(c.pk, [])[:5],
            "nights": nights.get(c.pk, [])[:5],
        }
        for c in club_rows
        if c.pk in tournaments or c.pk in nights
    ]
    # Every game a club may score, as the page names them: a site whose club plays
    # Chinchón is not opened on another game.
    games = ", ".join(game.name for game in GAMES.values())
    context = {"table": table, "recent": recent, "games": games}
    return render(request, "tournaments/public/club_list.html", context)


def _by_club(rows) -> dict:
    grouped: dict[int, list] = {}
    for row in rows:
        grouped.setdefault(row.club_id, []).append(row)
    return grouped


# --------------------------------------------------------------------------- a tournament


def tournament_detail(request, slug):
    tournament = public_tournament(slug)
    # The stored board (read at most once, and only when a part is not cached).
    version, load = stored_board.board_shown(tournament)
    context = {"tournament": tournament, "version": version or ""}
    context["standings_html"] = parts.standings_html(request, tournament, version, load)
    context["tables_html"] = parts.tables_html(tournament, version, load)
    context["events"] = parts.events_url(tournament, ["tables", "standings"], request.GET)
    return render(request, "tournaments/public/tournament_detail.html", context)


def tournament_live(request, slug, part):
    """A polled part of the tournament page or the screen: 204 while the page has
    the stored board's version, else the part's HTML and that version."""
    tournament = public_tournament(slug)
    published = {
        "standings": tournament.public_standings,
        "tables": tournament.public_pairings,
        "screen": True,
        "final": True,
    }
    if not published.get(part):
        raise Http404
    version, load = stored_board.board_shown(tournament)
    if version is not None and request.GET.get("v") == version:
        return HttpResponse(status=204)
    if part == "standings":
        response = HttpResponse(parts.standings_html(request, tournament, version, load))
    elif part == "tables":
        response = HttpResponse(parts.tables_html(tournament, version, load))
    elif part == "final":
        response = HttpResponse(knockout.bracket_html(tournament, version))
    else:
        response = HttpResponse(parts.screen_html(tournament, version, load))
    response["X-Board-Version"] = version or ""
    return response


def tournament_events(request, slug):
    """The live stream of the tournament's page and screen: an event after a new
    board is stored, never before, carrying the parts the page shows as the builder
    kept them with that board (a part not kept is asked for by the page, and finds
    a board at least as new as the news). No settle time: the builder stores a
    board at most every PUBLIC_REFRESH_SECONDS, so the events already come that
    seldom. What it needs of the tournament comes from the cache, not the database
    (`parts.opened`): a crowd opening their pages at once takes no connection. (With
    the tournament in the cache, `live` opens it without coming here at all.)"""
    return parts.stream(request, parts.opened(slug))


def tournament_screen(request, slug):
    """For a projector or a TV: no navigation, large type, the standings and the
    pairings in turn, and the round's clock."""
    tournament = public_tournament(slug)
    version, load = stored_board.board_shown(tournament)
    context = {"tournament": tournament, "version": version or ""}
    context["screen_html"] = parts.screen_html(tournament, version, load)
    context["events"] = parts.events_url(tournament, ["screen"], {})
    return render(request, "tournaments/public/tournament_screen.html", context)


def _results_board(slug):
    tournament = public_tournament(slug)
    if not tournament.public_results:
        raise Http404
    return tournament, stored_board.board_for(tournament)


def round_detail(request, slug, number):
    tournament, data = _results_board(slug)
    found = [r for r in data.rounds if r.number == number]
    if not found:
        raise Http404
    return render(
        request,
        "tournaments/public/round_detail.html",
        {"tournament": tournament, "round": found[0], "rounds": [r.number for r in data.rounds]},
    )


def plan_detail(request, slug):
    """An evening planned ahead, for the players and whoever follows it: every
    round's tables and each player's own tables for the evening, with the names
    the public may see (as `GET /api/tournaments/{slug}/plan`). Only while the
    pairings are public, and once round 1 fixed the plan."""
    tournament = public_tournament(slug)
    view = planned.plan_view(tournament, public=True) if tournament.public_pairings else None
    if view is None:
        raise Http404
    # Each player's row has a cell for every round, empty where the player was
    # not yet (or no longer) in the field.
    numbers = [r["number"] for r in view.rounds]
    rows = []
    for card in view.cards:
        seats = {seat["round"]: seat for seat in card["rounds"]}
        rows.append({"entrant": card["entrant"], "seats": [seats.get(n) for n in numbers]})
    context = {"tournament": tournament, "plan": view, "rows": rows}
    return render(request, "tournaments/public/tournament_plan.html", context)


def crosstable(request, slug):
    tournament, data = _results_board(slug)
    return render(
        request,
        "tournaments/public/tournament_crosstable.html",
        {"tournament": tournament, **_crosstable_context(data)},
    )


def _crosstable_context(data) -> dict:
    cells = data.crosstable()
    rows = [(line, cells.get(line.entrant, [])) for line in data.standings]
    return {"rows": rows, "rounds": [r.number for r in data.rounds]}


#: What a player's page shows of a party beside its result, by its keeping: the
#: format's sheet with its hands at tables of two (`party_states`); nothing more
#: at one whole table, whose confirmed hands come with its result.
SHEETS = {FormatTables: party_states, WholeTable: lambda ids: {}}


def player_detail(request, slug, entrant_id):
    """One entrant: every party with its result (and its score sheet where the
    party's tables keep one), and their figures: parties, won, plus/minus, and the
    record of the tournament's game in its own words (`Game.record`) from the
    confirmed hands."""
    tournament, data = _results_board(slug)
    entrant = public_entrant(tournament, entrant_id)
    tables = entrant_parties(tournament, entrant)
    ids = [t.party_id for t in tables if t.party_id]
    # Every party's result in one read; the format's sheet besides where the
    # party's keeping has one (tables of two).
    outcomes = party_results(ids, game=tournament.game)
    states = SHEETS[keeping_of(tournament.game)](ids)
    players = [entrant.player] + [s.player for state, _ in states.values() for s in state.seats]
    others = {p for pk, outcome in outcomes.items() if pk not in states for p in outcome.players}
    names = shown_names(
        tournament.club_id,
        players + list(Player.objects.filter(pk__in=others)),
        public=True,
    )
    me = entrant.player_id
    parties, played, places = [], [], []
    figures = {"parties": 0, "won": 0, "points": 0}
    for table in tables:
        if table.party_id is None:
            parties.append({"table": table})
            continue
        outcome = outcomes[table.party_id]
        finished, result = outcome.finished, outcome.plus_minus.get(me, 0)
        won = me in outcome.won
        # The place at the table where the game gives places; else by what the
        # settlement paid: who was paid most is first.
        place = outcome.places.get(me) or 1 + sum(
            paid > result for paid in outcome.plus_minus.values()
        )
        if table.party_id not in states:
            # A party at one whole table: its players and its confirmed hands.
            side = outcome.side_of(me)
            played += [PlayedHand(side, hand.scores, hand.facts) for hand in outcome.scored]
            opponents = [names[p] for p in outcome.players if p != me]
            parties.append({"table": table, "opponents": opponents})
        else:
            state, hands = states[table.party_id]
            mine = next(s for s in state.seats if s.player_id == me)
            played += [
                PlayedHand(mine.side, tuple(hand.scores), hand.facts or {})
                for hand in hands
                if hand.status == "confirmed" and hand.scores is not None
            ]
            opponents = [names[s.player_id] for s in state.seats if s.pk != mine.pk]
            parties.append(
                {
                    "table": table,
                    "state": state,
                    "sheet": sheet_rows(state, hands, names),
                    "opponents": opponents,
                }
            )
        parties[-1]["result"] = result if finished else None
        if finished:
            figures["parties"] += 1
            figures["won"] += won
            figures["points"] += result
            places.append(place)
    line = next((line for line in data.standings if line.entrant == entrant.pk), None)
    game = GAMES[tournament.game]
    return render(
        request,
        "tournaments/public/player_detail.html",
        {
            "tournament": tournament,
            "entrant": entrant,
            "name": names[entrant.player_id],
            "line": line,
            "parties": parties,
            "figures": figures,
            "record": record_rows(game, game.record(played, places, figures["parties"])),
        },
    )


# --------------------------------------------------------------------------- exports


def standings_csv(request, slug):
    """The standings as the page shows them: after the final in its order, with how
    far each of its players came; the withdrawn marked by the round after which
    they left."""
    tournament = public_tournament(slug)
    if not tournament.public_standings:
        raise Http404
    data = stored_board.board_for(tournament)
    final = any(line.reached for line in data.standings)
    response = csv_response(f"{tournament.slug}-standings.csv")
    writer = csv_writer(response)
    if tournament.plays_at_tables:
        # Points by place at tables of another game, then what breaks their ties.
        middle = [gettext("Tournament points"), gettext("Game score"), gettext("Parties won")]
    else:
        middle = [gettext("Won"), gettext("Plus/minus")]
    writer.writerow(
        [
            gettext("Place"),
            gettext("Player"),
            *([gettext("Final")] if final else []),
            gettext("Parties"),
            *middle,
            gettext("Byes"),
            gettext("Withdrawn after round"),
        ]
    )
    for line in data.standings:
        withdrawn = "" if line.withdrawn_after is None else line.withdrawn_after
        if tournament.plays_at_tables:
            values = [line.points, line.score, line.won]
        else:
            values = [line.won, line.points]
        writer.writerow(
            cells(
                [
                    line.place,
                    text_cell(line.name),
                    *([reached_label(line.reached)] if final else []),
                    line.played,
                    *values,
                    line.byes,
                    withdrawn,
                ]
            )
        )
    return response


def results_csv(request, slug):
    """Every table of every round, one line each. The result is a number only (the
    first player's plus/minus, a bye's or a forfeit's points), so a spreadsheet can
    add it up; what kind of result it is stands in a column of its own. At tables
    of another game, one line per player at each table (`_seat_results`)."""
    tournament, data = _results_board(slug)
    response = csv_response(f"{tournament.slug}-results.csv")
    writer = csv_writer(response)
    if tournament.plays_at_tables:
        _seat_results(writer, data)
        return response
    writer.writerow(
        [
            gettext("Round"),
            gettext("Table"),
            gettext("Player"),
            gettext("Opponent"),
            gettext("Result"),
            gettext("Kind"),
            gettext("Hands"),
            gettext("Finished"),
        ]
    )
    for round in data.rounds:
        for table in round.tables:
            first = table.sides[0]
            second = table.sides[1] if len(table.sides) > 1 else None
            if table.bye:
                kind = gettext("bye")
            elif table.absent is not None:
                kind = gettext("forfeit")
            else:
                kind = gettext("party")
            # A party still played has no result yet (its points are the hands so far).
            result = first.points if table.finished else None
            writer.writerow(
                cells(
                    [
                        round.number,
                        table.number,
                        text_cell(first.name),
                        text_cell(second.name) if second else "",
                        result,
                        kind,
                        table.hands,
                        table.finished,
                    ]
                )
            )
    return response


def _seat_results(writer, data) -> None:
    """A tournament at tables of another game: one line per player at each table —
    the table's score, the player's margin and place there, and the tournament points."""
    writer.writerow(
        [
            gettext("Round"),
            gettext("Table"),
            gettext("Player"),
            gettext("Score"),
            gettext("Margin"),
            gettext("Place"),
            gettext("Tournament points"),
            gettext("Hands"),
            gettext("Finished"),
        ]
    )
    for round in data.rounds:
        for table in round.tables:
            for side in table.sides:
                margin = side.points if table.finished and not table.bye else None
                writer.writerow(
                    cells(
                        [
                            round.number,
                            table.number,
                            text_cell(side.name),
                            side.total,
                            margin,
                            side.table_place,
                            side.earned,
                            table.hands,
                            table.finished,
                        ]
                    )
                )


def tournament_print(request, slug, what):
    """Printable pairings, standings or crosstable: the page's print styles put
    them on paper without the site around them."""
    tournament = public_tournament(slug)
    needs = {
        "pairings": tournament.public_pairings,
        "standings": tournament.public_standings,
        "crosstable": tournament.public_results,
    }
    if not needs.get(what):
        raise Http404
    data = stored_board.board_for(tournament)
    context = {"tournament": tournament, "what": what, "data": data}
    if what == "crosstable":
        context.update(_crosstable_context(data))
    if what == "pairings":
        context["round"] = data.current or (data.rounds[-1] if data.rounds else None)
    if what == "standings":
        # After the final, in its order (the board's), with how far each came.
        context["standings"] = [(line, reached_label(line.reached)) for line in data.standings]
        context["final"] = any(line.reached for line in data.standings)
    return render(request, "tournaments/public/tournament_print.html", context)
