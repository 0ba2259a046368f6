"""Play, watch and replay games in the browser: ``hostwcg serve`` (docs/web.md).

``serve.py`` is the command, ``app.py`` the Starlette app, ``sessions.py`` what one tab's
game does, ``table.py`` what a seat is sent, ``files.py`` which files may be read. The page
itself is static HTML, CSS and JavaScript in ``static/``, shipped with the package.
Starlette and uvicorn come with the ``web`` extra; ``serve.py`` imports them only when run.
"""
