"""The web app (``plies web``): play any game against the engine in a browser and look at
its search: the value of every move, the principal variation, the statistics and the
tree with its pruned branches.

:mod:`.api` answers the JSON API without any web machinery, :mod:`.view` describes a
position for the page, :mod:`.app` is the Starlette app (imported only when serving),
and :mod:`plies.cli.web` is the command.  The page itself is plain HTML, CSS and
JavaScript in ``static/``, with no build step.
"""
