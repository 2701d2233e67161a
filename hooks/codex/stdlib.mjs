// @ts-check
// Build step (run by hooks/codex/stdlib.py under Node): the standard library the linker needs, precompiled to
// .pyc by Pyodide itself (the same CPython 3.14 the browser runs), so the reader's browser skips compiling it.
//
// node stdlib.mjs <pyodide dir> <job dir>
//   job dir: codex.whl, indexes.json ({game: index JSON text}), requests.json ([request, ...]), site_url.txt
//   writes:  stdlib.zip (the .pyc of every module a booted, working linker has imported, codex's own included),
//            modules.json
// The linker is booted and exercised exactly as the worker does (docs/assets/javascripts/linker-worker.js), so
// the zip holds what Pyodide's own start-up imports plus what codex imports while answering every kind of request.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, jobDir] = process.argv.slice(2);
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
const pyodide = await loadPyodide({
  indexURL: pyodideDir.endsWith("/") ? pyodideDir : pyodideDir + "/", env: { PYTHONOPTIMIZE: "2" },
});
pyodide.unpackArchive(new Uint8Array(readFileSync(join(jobDir, "codex.whl"))), "wheel");
pyodide.FS.writeFile("/tmp/indexes.json", readFileSync(join(jobDir, "indexes.json")));
pyodide.FS.writeFile("/tmp/requests.json", readFileSync(join(jobDir, "requests.json")));
pyodide.FS.writeFile("/tmp/site_url.txt", readFileSync(join(jobDir, "site_url.txt")));
pyodide.runPython(`
import io, json, sys, zipfile
import importlib._bootstrap_external as _external
from codex.api import Codex

_codex = Codex.from_json(json.loads(open("/tmp/indexes.json", encoding="utf-8").read()),
                         open("/tmp/site_url.txt", encoding="utf-8").read())
for _request in json.load(open("/tmp/requests.json", encoding="utf-8")):
    _answer = json.loads(_codex.handle_json(json.dumps(_request)))
    if "error" in _answer:
        raise SystemExit(f"the linker failed a request while listing its modules: {_request!r}: {_answer['error']}")

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
_sources = {_name: _source.read(_name) for _name in _wanted}
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
writeFileSync(join(jobDir, "stdlib.zip"), pyodide.FS.readFile("/tmp/stdlib.zip"));
writeFileSync(join(jobDir, "modules.json"), pyodide.FS.readFile("/tmp/modules.json"));
