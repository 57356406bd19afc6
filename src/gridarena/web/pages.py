"""HTML shells of the pages, and the one-file export of a replay (viewer, styles, data and frames inline).

The pages are small shells: the data comes inline as JSON (``<script type="application/json">``) or
from ``/api/``, and plain ES modules from ``static/`` draw it. Every string that reaches the HTML
goes through :func:`html.escape` or :func:`json_for_script`.

>>> "<\\\\/script>" in json_for_script({"x": "</script>"})
True
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

from gridarena.core.types import JSON

STATIC = "static"


def static_text(name: str) -> str:
    """A file of the package's ``static/`` folder, as text (the export inlines them)."""
    return resources.files("gridarena.web").joinpath(STATIC, name).read_text(encoding="utf-8")


def json_for_script(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "<\\!--")


def page(title: str, body: str, *, scripts: tuple[str, ...] = (), data: JSON | None = None) -> str:
    """A served page: the shared stylesheet and navigation, ``body``, optional inline data and modules."""
    inline = (
        f'<script type="application/json" id="page-data">{json_for_script(data)}</script>'
        if data is not None
        else ""
    )
    modules = "".join(f'<script type="module" src="/static/{name}"></script>' for name in scripts)
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} · gridarena</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="/static/gridarena.css"></head><body>'
        '<nav class="top"><a href="/">gridarena</a><a href="/">tournaments</a><a href="/replays">replays</a>'
        '<a href="/play">play</a></nav>'
        f"<main>{body}</main>{inline}{modules}</body></html>"
    )


def viewer_page(title: str, payload: dict[str, JSON]) -> str:
    """The served replay viewer: the replay inline, frames fetched from ``payload.source.frame_url``."""
    data = f'<script type="application/json" id="replay-data">{json_for_script(payload)}</script>'
    return page(title, f'<div id="viewer"></div>{data}', scripts=("viewer.js",))


def export_html(title: str, payload: dict[str, JSON], frames: list[str]) -> str:
    """One self-contained file: styles, script, replay and every frame inline; opens from ``file://``.

    The viewer module has no imports, so it runs inline with no server and no network (a module
    loaded from another ``file://`` URL would be blocked by the browser).
    """
    data = {**payload, "frames": frames}
    script = static_text("viewer.js").replace("</script", "<\\/script")
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} · gridarena</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{static_text('gridarena.css')}</style></head><body><main>"
        '<div id="viewer"></div></main>'
        f'<script type="application/json" id="replay-data">{json_for_script(data)}</script>'
        f'<script type="module">{script}</script>'
        "</body></html>"
    )
