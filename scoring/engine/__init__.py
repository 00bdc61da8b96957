"""The rules of Gin Rummy, plain Python: no Django, no database, no I/O (CONTRACT.md)."""
