"""The clock the timing hooks share: when each MkDocs event's handlers started and finished, in build order."""
from __future__ import annotations

import time

# Every MkDocs event a build runs (mkdocs.plugins), with whether its handlers receive an item to return.
EVENTS = {
    "config": True, "pre_build": False, "files": True, "nav": True, "env": True, "post_build": False,
    "pre_template": True, "template_context": True, "post_template": True,
    "pre_page": True, "page_read_source": False, "page_markdown": True, "page_content": True,
    "page_context": True, "post_page": True,
}

marks: list[tuple[str, str, float]] = []  # (event, "start" | "end", perf_counter)


def mark(event: str, edge: str) -> None:
    marks.append((event, edge, time.perf_counter()))


def handlers(priority: int, edge: str) -> dict[str, object]:
    """`on_<event>` functions that only mark the clock (the first and the last handler of every event)."""
    from mkdocs.plugins import event_priority

    out: dict[str, object] = {}
    for event, has_item in EVENTS.items():
        def handler(*args: object, _event: str = event, _has_item: bool = has_item, **kwargs: object) -> object:
            mark(_event, edge)
            return args[0] if _has_item and args else None

        out[f"on_{event}"] = event_priority(priority)(handler)
    return out
