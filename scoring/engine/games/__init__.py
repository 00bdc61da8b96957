"""The other games of seed 003, one module each: Chinchón, Canasta, Blaue Vierzehn
and Cruzo, each behind one interface (`scoring.engine.games.game.Game`). Pure
Python, like the rest of the engine (`CONTRACT.md`, "The other games of seed 003").

Patience and bridge stay out: a patience has no opponent to score against, and a
bridge club plays duplicate with movements and matchpoints of its own."""

from scoring.engine.games import blaue_vierzehn, canasta, chinchon, cruzo
from scoring.engine.games.game import Game

#: Every game behind the interface, by key.
GAMES: dict[str, Game] = {
    game.key: game for game in (chinchon.GAME, canasta.GAME, blaue_vierzehn.GAME, cruzo.GAME)
}
