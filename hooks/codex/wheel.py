"""A pure-Python wheel of this package, made in memory so the browser runs exactly the code the build ran."""
from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

from . import __version__

NAME = "codex"
VERSION = __version__


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def wheel_bytes() -> tuple[str, bytes]:
    """(file name, bytes) of a py3-none-any wheel holding every module of the package; deterministic."""
    package = Path(__file__).parent
    files: dict[str, bytes] = {
        f"{NAME}/{path.relative_to(package).as_posix()}": path.read_bytes()
        for path in sorted(package.rglob("*.py"))
    }
    info = f"{NAME}-{VERSION}.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: codex\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return f"{NAME}-{VERSION}-py3-none-any.whl", buffer.getvalue()
