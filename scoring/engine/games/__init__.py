"""Every game a club scores, one module each, behind one interface
(`scoring.engine.games.game.Game`): Gin Rummy (seeds 000–002, its rules in the
engine's own modules, which `gin_rummy` asks) and seed 003's Chinchón, Canasta,
Blaue Vierzehn and Cruzo. Pure Python, like the rest of the engine.

Patience and bridge stay out: a patience has no opponent to score against, and a
bridge club plays duplicate with movements and matchpoints of its own."""

from scoring.engine.games import blaue_vierzehn, canasta, chinchon, cruzo, gin_rummy
from scoring.engine.games.game import Game

#: Every game behind the interface, by key.
GAMES: dict[str, Game] = {
    game.key: game
    for game in (gin_rummy.GAME, chinchon.GAME, canasta.GAME, blaue_vierzehn.GAME, cruzo.GAME)
}

#: The games whose hands are entered as the game's own entry and scored by
#: `Game.hand` alone (every one but Gin Rummy, whose party formats seat tables of
#: their own within a party: see `scoring.engine.formats`).
ENTRY_GAMES: dict[str, Game] = {key: game for key, game in GAMES.items() if not game.formats}

#: The others: games whose party formats seat tables of their own within a party,
#: each hand entered as a knock at one of them (`scoring.services.hands`).
FORMAT_GAMES: dict[str, Game] = {key: game for key, game in GAMES.items() if game.formats}
