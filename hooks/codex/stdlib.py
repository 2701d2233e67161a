"""The linker's fast start: the standard library it needs, precompiled to .pyc by Pyodide itself under Node.

Pyodide's own `python_stdlib.zip` holds only .py sources, so every start compiles them inside WebAssembly (about
three quarters of the boot). The build boots the pinned Pyodide under Node (stdlib.mjs), exercises the linker as
the browser's worker does, and zips the .pyc of every standard module that imported, and of codex's own (so the
fast start installs no wheel), less the few Pyodide imports only if present (stdlib.mjs's OPTIONAL); a second
Pyodide started from the zip alone must answer every sample request as the first did. The worker passes that zip to
`loadPyodide` as `stdLibURL` and falls back to the stock boot, with the wheel, if it fails. Made once per Pyodide + codex and
kept in node_modules/.cache (the result is deterministic; its name carries its content hash).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .linkify import FORMATS

MANIFEST = "assets/codex/manifest.json"  # codex.site writes it; the worker reads it
SCRIPT = Path(__file__).with_name("stdlib.mjs")
CACHE_DIR = Path("node_modules") / ".cache" / "codex-stdlib"
TIMEOUT_S = 600


class StdlibError(RuntimeError):
    """The build could not make the precompiled standard library (the hooks turn it into a one-line error)."""


@dataclass(frozen=True)
class Stdlib:
    name: str  # stdlib-<hash>.zip
    data: bytes
    modules: tuple[str, ...]  # the stdlib files it holds, as .py paths inside Pyodide's zip


def sample_requests(games: dict[str, str], text: str) -> list[dict[str, object]]:
    """Every kind of request the page sends, each output format, a detected game and a named one."""
    requests: list[dict[str, object]] = [{"op": "games"}]
    for game in ["auto", *games]:
        for fmt in FORMATS:
            requests.append({"op": "link", "game": game, "text": text, "format": fmt, "every": fmt == "html"})
        requests.append({"op": "link", "game": game, "text": text, "format": "markdown", "preview": True})
        requests.append({"op": "lookup", "game": game, "query": text.split()[0], "limit": 5})
        requests.append({"op": "traits", "game": game, "traits": text.split()[:3]})
        for markup in ("markdown", "bbcode", "any"):
            requests.append({"op": "mentions", "game": game, "text": text, "markup": markup})
    return requests


SAMPLE = ("Aegis 2 и Горение, **Burn** [b]Aegis[/b] `code` [x](http://example.org) <a href='#'>Aegis</a>\n"
          "> цитата Aegis\n\n    code Aegis\n| a | b |\n|---|---|\n| Aegis | Burn |\n")


def site_inputs(assets: dict[str, bytes]) -> tuple[bytes, dict[str, str]]:
    """The wheel and the game indexes the site serves (codex.site's assets), as the worker will load them."""
    manifest = json.loads(assets[MANIFEST])
    folder = MANIFEST.rsplit("/", 1)[0] + "/"
    indexes = {game["id"]: assets[folder + game["index"]].decode() for game in manifest["games"]}
    return assets[folder + manifest["wheel"]], indexes


def attach(assets: dict[str, bytes], made: Stdlib) -> None:
    """Serve the zip beside the wheel and name it in the manifest (`stdlib`, relative to the manifest)."""
    folder = MANIFEST.rsplit("/", 1)[0] + "/"
    manifest = json.loads(assets[MANIFEST])
    manifest["stdlib"] = made.name
    # codex's own modules are in it too (stdlib.mjs): the worker's fast start then installs no wheel.
    manifest["stdlib_codex"] = "codex/api.py" in made.modules
    # What a memory snapshot of the started linker depends on (the worker keys the reader's saved one by it): the
    # runtime's folder, this zip, the wheel, every index and the site's address.
    fingerprint = hashlib.sha256()
    for part in (manifest["pyodide"], made.data, assets[folder + manifest["wheel"]],
                 *(assets[folder + game["index"]] for game in manifest["games"]), manifest["site_url"]):
        fingerprint.update(hashlib.sha256(part.encode() if isinstance(part, str) else part).digest())
    manifest["snapshot"] = fingerprint.hexdigest()[:20]
    assets[folder + made.name] = made.data
    assets[MANIFEST] = json.dumps(manifest, ensure_ascii=False, indent=1).encode()


def build(pyodide_dir: Path, wheel: bytes, indexes: dict[str, str], site_url: str, root: Path) -> Stdlib:
    """The precompiled zip, from the cache when this Pyodide, this wheel and this script made it before."""
    stock = (pyodide_dir / "python_stdlib.zip").read_bytes()
    key = hashlib.sha256()
    for part in (stock, (pyodide_dir / "pyodide.asm.wasm").read_bytes(), wheel, SCRIPT.read_bytes(), SAMPLE.encode()):
        key.update(hashlib.sha256(part).digest())
    cache = root / CACHE_DIR / key.hexdigest()[:20]
    if not (cache / "stdlib.zip").is_file():
        _run(pyodide_dir, wheel, indexes, site_url, cache)
    data = (cache / "stdlib.zip").read_bytes()
    modules = tuple(json.loads((cache / "modules.json").read_text(encoding="utf-8")))
    return Stdlib(f"stdlib-{hashlib.sha256(data).hexdigest()[:16]}.zip", data, modules)


def _run(pyodide_dir: Path, wheel: bytes, indexes: dict[str, str], site_url: str, cache: Path) -> None:
    node = shutil.which("node")
    if node is None:
        raise StdlibError("node is not on PATH (it runs Pyodide to precompile the standard library; `npm ci` needs it too)")
    with tempfile.TemporaryDirectory(prefix="codex-stdlib-") as job_dir:
        job = Path(job_dir)
        (job / "codex.whl").write_bytes(wheel)
        (job / "indexes.json").write_text(json.dumps(indexes), encoding="utf-8")
        (job / "requests.json").write_text(json.dumps(sample_requests(indexes, SAMPLE)), encoding="utf-8")
        (job / "site_url.txt").write_text(site_url, encoding="utf-8")
        try:
            done = subprocess.run([node, str(SCRIPT), str(pyodide_dir), str(job)], capture_output=True, text=True,
                                  timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            raise StdlibError(f"precompiling the standard library in Pyodide took over {TIMEOUT_S} s") from None
        if done.returncode != 0 or not (job / "stdlib.zip").is_file():
            lines = [line for line in (done.stderr or done.stdout).splitlines() if line.startswith("codex-stdlib: ")]
            reason = lines[-1].removeprefix("codex-stdlib: ") if lines else f"node exited with {done.returncode}"
            raise StdlibError(f"precompiling the standard library in Pyodide ({SCRIPT.name}) failed: {reason[:500]}")
        staging = Path(tempfile.mkdtemp(prefix=cache.name + ".", dir=_made(cache.parent)))
        for name in ("stdlib.zip", "modules.json"):
            shutil.copyfile(job / name, staging / name)
        try:
            os.replace(staging, cache)  # atomic: builds running at once never read half a cache entry
        except OSError:  # another build finished the same entry first
            shutil.rmtree(staging, ignore_errors=True)


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder
