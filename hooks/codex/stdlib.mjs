// @ts-check
// Build step (run by hooks/codex/stdlib.py under Node): the standard library the linker needs, precompiled to
// .pyc by Pyodide itself (the same CPython 3.14 the browser runs), so the reader's browser skips compiling it.
//
// node stdlib.mjs <pyodide dir> <job dir>
//   job dir: codex.whl, indexes.json ({game: index JSON text}), requests.json ([request, ...]), site_url.txt
//   writes:  stdlib.zip (the .pyc of every module a booted, working linker has imported, codex's own included),
//            modules.json
// The linker is booted and exercised exactly as the worker does (docs/assets/javascripts/linker-worker.js), so
// the zip holds what Pyodide's own start-up imports plus what codex imports while answering every kind of request,
// less OPTIONAL (below). Then a second Pyodide boots from the zip itself and answers every request again: the
// zip keeps what that start imported, and the build stops unless its answers are the first's.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, jobDir] = process.argv.slice(2);
// Left out: modules Pyodide's bootstrap imports only under `try: ... except ImportError` and the linker never
// uses — asyncio's ssl (asyncio runs without it, as in a Python built without OpenSSL), and shutil's and
// zipfile's bz2, lzma and zstd compressors (each left unsupported). Importing them was 25-60 ms of every cold
// start under Node, and 59 KB of the zip with what only they import. (Prefixes of the zip's paths.)
const OPTIONAL = ["ssl.py", "bz2.py", "lzma.py", "compression/"];
// One line on failure (the build shows it), never a stack through the minified runtime.
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);
function fail(err) {
  const text = String((err && err.message) || err).trim().split("\n");
  process.stderr.write(`codex-stdlib: ${text[text.length - 1].slice(0, 500)}\n`);
  process.exit(1);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
// Compiled as `python -OO` compiles (optimize=2: no docstrings, no asserts): docstrings are a seventh of the zip and
// of the heap the browser unmarshals them into; codex has no assert and reads no __doc__, and CPython's own test
// suite runs its standard library this way. The modules are listed under -OO too, so anything that behaves
// differently without docstrings (dataclasses writing one from the signature) is listed as it will run.
const indexURL = pyodideDir.endsWith("/") ? pyodideDir : pyodideDir + "/";
const pyodide = await loadPyodide({ indexURL, env: { PYTHONOPTIMIZE: "2" } });
pyodide.unpackArchive(new Uint8Array(readFileSync(join(jobDir, "codex.whl"))), "wheel");
// The linker answers every request (the same code runs again in the check below).
const EXERCISE = `
import json
from codex.api import Codex

_codex = Codex.from_json(json.loads(open("/tmp/indexes.json", encoding="utf-8").read()),
                         open("/tmp/site_url.txt", encoding="utf-8").read())
_answers = []
for _request in json.load(open("/tmp/requests.json", encoding="utf-8")):
    _answers.append(_codex.handle_json(json.dumps(_request)))
    if "error" in json.loads(_answers[-1]):
        raise SystemExit(f"the linker failed a request while listing its modules: {_request!r}: {_answers[-1]}")
open("/tmp/answers.json", "w", encoding="utf-8").write(json.dumps(_answers))
`;
/** @param {any} py */
function exercise(py) {
  for (const name of ["indexes.json", "requests.json", "site_url.txt"]) py.FS.writeFile(`/tmp/${name}`, readFileSync(join(jobDir, name)));
  py.runPython(EXERCISE);
  return py.FS.readFile("/tmp/answers.json", { encoding: "utf8" });
}
const answers = exercise(pyodide);
pyodide.globals.set("OPTIONAL", pyodide.toPy(OPTIONAL));
pyodide.runPython(`
import io, json, sys, zipfile
import importlib._bootstrap_external as _external

if sys.flags.optimize != 2:
    raise SystemExit(f"the modules must be listed as they will run (-OO), but sys.flags.optimize is {sys.flags.optimize}")
_ZIP = sys.path[1]  # /lib/python314.zip: the stdlib Pyodide mounted
if not _ZIP.endswith(".zip"):
    raise SystemExit(f"unexpected sys.path: {sys.path}")
_source = zipfile.ZipFile(_ZIP)
_names = set(_source.namelist())
_wanted = set()
for _module in list(sys.modules.values()):
    _origin = getattr(getattr(_module, "__spec__", None), "origin", None) or ""
    if _origin.startswith(_ZIP + "/"):
        _wanted.add(_origin[len(_ZIP) + 1:])
_folders = {n.rsplit("/", 1)[0] for n in _wanted if "/" in n}
for _folder in list(_folders):  # every package's __init__ on the way down
    _parts = _folder.split("/")
    for _i in range(1, len(_parts) + 1):
        _init = "/".join(_parts[:_i]) + "/__init__.py"
        if _init in _names:
            _wanted.add(_init)
# codex itself too (the wheel's modules the linker imported): compiling them in the browser was most of
# "import codex". Imported from this zip, the fast start needs no wheel at all.
import codex as _codex_package
_SITE = _codex_package.__path__[0].rsplit("/", 1)[0]  # site-packages, where the wheel was unpacked
_own = {}
for _module in list(sys.modules.values()):
    _origin = getattr(getattr(_module, "__spec__", None), "origin", None) or ""
    if _origin.startswith(_SITE + "/codex/") and _origin.endswith(".py"):
        _own[_origin[len(_SITE) + 1:]] = open(_origin, "rb").read()
for _name in list(_own):  # every package's __init__ on the way down
    _parts = _name.split("/")[:-1]
    for _i in range(1, len(_parts) + 1):
        _init = "/".join(_parts[:_i]) + "/__init__.py"
        if _init not in _own:
            _own[_init] = open(_SITE + "/" + _init, "rb").read()
if "codex/api.py" not in _own:
    raise SystemExit(f"codex.api was not imported from the wheel: {sorted(_own)}")
_sources = {_name: _source.read(_name) for _name in _wanted if not _name.startswith(tuple(OPTIONAL))}
_sources.update(_own)
_out = io.BytesIO()
with zipfile.ZipFile(_out, "w") as _zip:
    for _name in sorted(_sources):
        _data = _sources[_name]
        # Sourceless .pyc: zipimport loads them without looking for a .py (there is none) or its time stamp.
        _code = compile(_data, _ZIP + "/" + _name, "exec", dont_inherit=True, optimize=2)
        _entry = zipfile.ZipInfo(_name + "c", date_time=(1980, 1, 1, 0, 0, 0))
        _entry.compress_type = zipfile.ZIP_DEFLATED
        _zip.writestr(_entry, bytes(_external._code_to_timestamp_pyc(_code, 0, len(_data))))
open("/tmp/stdlib.zip", "wb").write(_out.getvalue())
open("/tmp/modules.json", "w").write(json.dumps(sorted(_sources)))
`);

// The check: Pyodide started from the zip alone (codex too: no wheel), as the browser's fast start does, answers
// every request as the first did; the zip then keeps only what this start imported (what only a left-out module
// needed goes too).
const made = join(jobDir, "stdlib.zip");
writeFileSync(made, pyodide.FS.readFile("/tmp/stdlib.zip"));
const check = await loadPyodide({ indexURL, stdLibURL: made, env: { PYTHONOPTIMIZE: "2" } });
if (exercise(check) !== answers) fail(new Error("the linker started from the precompiled zip answers differently"));
check.runPython(`
import io, json, sys, zipfile
_ZIP = sys.path[1]  # the zip just made, mounted as the standard library
_used = set()
for _module in list(sys.modules.values()):
    _origin = getattr(getattr(_module, "__spec__", None), "origin", None) or ""
    if _origin.startswith(_ZIP + "/"):
        _used.add(_origin[len(_ZIP) + 1:])
_source = zipfile.ZipFile(_ZIP)
_kept = [n for n in _source.namelist() if n in _used]
_out = io.BytesIO()
with zipfile.ZipFile(_out, "w") as _zip:
    for _name in _kept:
        _zip.writestr(_source.getinfo(_name), _source.read(_name))
open("/tmp/stdlib.zip", "wb").write(_out.getvalue())
_kept = [n[:-1] for n in _kept]  # listed as the .py they were compiled from
open("/tmp/modules.json", "w").write(json.dumps(_kept))
`);
writeFileSync(join(jobDir, "stdlib.zip"), check.FS.readFile("/tmp/stdlib.zip"));
writeFileSync(join(jobDir, "modules.json"), check.FS.readFile("/tmp/modules.json"));
