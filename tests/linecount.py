"""Lines of code a call executes, counted with sys.settrace: a cost that does not depend on the machine's load, so a
test can say "linear" (n and 4n inputs cost about 1:4) without timing anything."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def lines_executed(call: Callable[[], Any], counted: Callable[[str], bool]) -> int:
    """How many lines `call()` executes in the files whose name `counted` accepts."""
    count = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if not counted(frame.f_code.co_filename):
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return count
