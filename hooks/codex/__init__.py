"""Rules Codex: the bilingual rules glossary's loader, validator, resolver and page generator (pure Python)."""

__version__ = "0.2.0"  # the one version: the package, its wheel for the browser and the benchmarks' reports
