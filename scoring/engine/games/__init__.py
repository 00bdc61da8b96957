"""The other games of seed 003, one module each: Chinchón, Canasta, Blaue Vierzehn
and Cruzo. Pure Python, like the rest of the engine (`CONTRACT.md`, "The other
games of seed 003")."""
