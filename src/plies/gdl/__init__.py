"""General Game Playing: the Game Description Language (GDL) in plies.

A KIF parser, a validator of GDL's restrictions, a fast reasoner, and :class:`GdlGame`,
which makes any GDL description a plies :class:`~plies.game.Game`.
"""
