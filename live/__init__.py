"""The pages that update themselves: counters in the shared cache that move after
each commit (`counters`), the streams that tell the open pages (`streams`) and
what each event carries (`events`). Below every app, which each say what their
changes move (`scoring.changes`, the tournaments' board)."""
