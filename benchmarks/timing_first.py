"""A MkDocs hook that runs first in every event (priority 100): marks when the event's handlers start."""
import timing_clock

globals().update(timing_clock.handlers(100, "start"))
