"""A club night's results, whatever the games played at it: every player's parties
played and won, the plus/minus they add up to, and with a stake the amounts and the
fewest payments that settle the night.

Read at the app's level, not in an audience's folder: the results page, its CSV and
the organizer's API all read it here, so they give the same numbers."""

from clubs.models import Player
from scoring.engine.games.game import player_margins
from scoring.engine.payments import settle_up
from scoring.models import Party
from scoring.selectors import party_outcomes
from scoring.services.whole_table_sheet import table_results_of


def game_results(parties: list[Party]) -> dict[int, tuple]:
    """The results of the parties played at one whole table among ``parties``
    (their rows, cancelled ones left out by the caller), in two queries however
    many (`table_results_of`): each as (its game's name, finished, each player's
    plus/minus at the stake per point, the players of the winning sides).

    Every game pays its margins (`margins`: each side settles with every other the
    difference of their totals, the better one paid, the lower total better where
    the game says so), a side's margin shared by its players (`player_margins`).
    Cruzo, a placement game, pays the same way by its place points (the last place
    0, each place above one more, added over the games agreed): each player
    settles with every other the difference of their place points, so one game of
    three pays the first 1 from the second and 2 from the last."""
    names = {party.pk: str(party.get_game_display()) for party in parties}
    results = {}
    for pk, result in table_results_of(parties).items():
        results[pk] = (
            names[pk],
            result.finished,
            player_margins(result.sides, result.margins) if result.finished else {},
            frozenset(p for side in result.winners for p in result.sides[side]),
        )
    return results


def night_results(*, night) -> dict:
    """The night's results: every player who played a party of it, whatever the
    game, with the parties finished and won, the games played and the plus/minus
    they add up to (a cancelled party counts nowhere). Gin Rummy's parties come
    from `party_outcomes` (the one party outcome of every format: a player wins
    it with a plus); the other games' from their engines (`game_results`: the
    margins of the game's totals, the lower or the higher better as the game
    says, each player's share of the side's; won: a player of a winning side).
    With a stake per point, each player's amount and the fewest payments that
    settle the whole night (`scoring.engine.payments.settle_up`). Seven queries,
    however many parties (each reader leaves out the other's)."""
    parties = list(night.parties.exclude(status=Party.Status.CANCELLED).order_by("pk"))
    parties_by_pk = {party.pk: party for party in parties}
    gin_outcomes = party_outcomes([p.pk for p in parties])
    game_outcomes = game_results(parties)
    results = []  # (game, finished, plus_minus by player id, winners' player ids)
    for pk, outcome in gin_outcomes.items():
        winners = {pk for pk, amount in outcome.plus_minus.items() if amount > 0}
        game = parties_by_pk[pk].get_game_display()
        results.append((str(game), outcome.finished, outcome.plus_minus, winners))
    results.extend(game_outcomes.values())
    ids = {pk for _game, _finished, plus_minus, _winners in results for pk in plus_minus}
    players = {player.pk: player for player in Player.objects.filter(pk__in=ids)}
    lines = {
        pk: {"player": player, "played": 0, "won": 0, "plus_minus": 0, "games": []}
        for pk, player in players.items()
    }
    running = 0
    for game, finished, plus_minus, winners in results:
        if not finished:
            running += 1
            continue
        for pk, amount in plus_minus.items():
            line = lines[pk]
            line["played"] += 1
            line["won"] += pk in winners
            line["plus_minus"] += amount
            if game not in line["games"]:
                line["games"].append(game)
    rows = sorted(
        (line for line in lines.values() if line["played"]),
        key=lambda line: (-line["plus_minus"], line["player"].name, line["player"].pk),
    )
    stake = night.stake
    payments = []
    if stake:
        for row in rows:
            row["amount"] = row["plus_minus"] * stake
        balances = {row["player"].pk: row["plus_minus"] for row in rows}
        payments = [
            {
                "payer": players[transfer.payer],
                "payee": players[transfer.payee],
                "points": transfer.amount,
                "amount": transfer.amount * stake,
            }
            for transfer in settle_up(balances)
        ]
    return {"rows": rows, "stake": stake, "payments": payments, "running": running}
