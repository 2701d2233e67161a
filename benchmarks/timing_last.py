"""A MkDocs hook that runs last in every event (priority -100): marks when the event's handlers are done."""
import timing_clock

globals().update(timing_clock.handlers(-100, "end"))
