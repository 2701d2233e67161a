#!/usr/bin/env python3
"""Make the web app's PNG icons from the site's logo (docs/assets/images/logo.svg), with Debian's Chromium.

    .venv/bin/python tools/make_icons.py

Run it after changing the logo and commit the PNGs it writes to docs/assets/images/icons/ (the build only copies
them: rasterising at every build would start a browser). The same Chromium gives the same bytes; another version
may differ by a few anti-aliased pixels, which tests/test_icons.py tolerates while catching a stale icon.

"any" icons are the logo as drawn (transparent corners); "maskable" ones fill the whole square with the logo's
background and shrink the drawing to the central 80%, the zone every platform's mask keeps (Android's circles,
squircles; iOS's rounded square for the apple-touch icon).
"""
from __future__ import annotations

import base64
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))  # the project helper: Debian's Chromium and its flags

from codex.offline import ICONS, Icon  # noqa: E402  (the icon list the manifest is made from)

LOGO = ROOT / "docs" / "assets" / "images" / "logo.svg"
SAFE_ZONE = 0.8  # of the side: what a maskable icon's drawing may use


def logo_background(svg: str) -> str:
    """The fill of the logo's first <rect>: its background, which a maskable icon extends to the edges."""
    match = re.search(r'<rect\b[^>]*\bfill="(#[0-9a-fA-F]{3,8})"', svg)
    if not match:
        raise SystemExit(f"{LOGO}: no <rect fill=\"#...\"> background to extend for maskable icons")
    return match.group(1)


def icon_html(svg: str, icon: Icon) -> str:
    """A page whose viewport is the icon: the logo, or for maskable icons the logo inside the safe zone."""
    src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode()
    side = icon.size
    drawn = round(side * SAFE_ZONE) if icon.maskable else side
    background = logo_background(svg) if icon.maskable else "transparent"
    return (
        "<!doctype html><html><body style=\"margin:0;background:transparent\">"
        f"<div style=\"width:{side}px;height:{side}px;background:{background};display:flex;"
        "align-items:center;justify-content:center\">"
        f"<img src=\"{src}\" width=\"{drawn}\" height=\"{drawn}\" alt=\"\"></div></body></html>"
    )


def render(pages: list[tuple[Icon, str]]) -> dict[str, bytes]:
    """Each icon's PNG, rendered by Chromium at device scale 1 (one browser for all of them)."""
    from playwright.sync_api import sync_playwright

    from project import CHROMIUM as DEBIAN_CHROMIUM, CHROMIUM_ARGS

    out: dict[str, bytes] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(DEBIAN_CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for icon, html in pages:
                page = browser.new_page(viewport={"width": icon.size, "height": icon.size}, device_scale_factor=1)
                page.set_content(html)
                page.wait_for_function("document.images[0].complete && document.images[0].naturalWidth > 0")
                out[icon.path] = page.screenshot(omit_background=True, type="png")
                page.close()
        finally:
            browser.close()
    return out


def make_all(svg: str | None = None) -> dict[str, bytes]:
    """docs-relative path -> PNG bytes, for every icon the manifest names."""
    text = LOGO.read_text(encoding="utf-8") if svg is None else svg
    return render([(icon, icon_html(text, icon)) for icon in ICONS if icon.path.endswith(".png")])


def main() -> None:
    for path, data in make_all().items():
        target = ROOT / "docs" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        print(f"{target.relative_to(ROOT)}: {len(data)} bytes")


if __name__ == "__main__":
    main()
