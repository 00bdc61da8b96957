"""The rules of Gin Rummy, plain Python: no Django, no database, no I/O; the names
they bind are docs/developers.md's "The engine's contract"."""
