"""The committed app icons are what tools/make_icons.py makes from the logo now (a stale icon fails here).

Compared as pixels in Chromium, with a small tolerance: another Chromium version may anti-alias an edge
differently, which is no reason to regenerate; a changed logo changes far more than that.
"""
from __future__ import annotations

import base64
import sys

import pytest

from conftest import CHROMIUM, ROOT, skip_unless_ci

pytestmark = [pytest.mark.browser, pytest.mark.slow]
sys.path.insert(0, str(ROOT / "tools"))

DIFF = """async ([a, b]) => {
  const load = (src) => new Promise((resolve, reject) => {
    const img = new Image(); img.onload = () => resolve(img); img.onerror = reject; img.src = src; });
  const [x, y] = await Promise.all([load(a), load(b)]);
  if (x.naturalWidth !== y.naturalWidth || x.naturalHeight !== y.naturalHeight) return {size: false};
  const pixels = (img) => { const c = document.createElement("canvas"); c.width = img.naturalWidth;
    c.height = img.naturalHeight; const g = c.getContext("2d"); g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data; };
  const p = pixels(x), q = pixels(y);
  let differing = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i+1] - q[i+1]), Math.abs(p[i+2] - q[i+2]), Math.abs(p[i+3] - q[i+3])) > 48) differing++;
  }
  return {size: true, share: differing / (p.length / 4)};
}"""


def test_committed_icons_match_the_logo():
    if not CHROMIUM.exists():
        skip_unless_ci(f"{CHROMIUM} is not installed")
    import make_icons
    from playwright.sync_api import sync_playwright

    from project import CHROMIUM_ARGS

    made = make_icons.make_all()
    assert made, "no icon was made"
    uri = lambda data: "data:image/png;base64," + base64.b64encode(data).decode()  # noqa: E731
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        for path, data in made.items():
            committed = (ROOT / "docs" / path).read_bytes()
            result = page.evaluate(DIFF, [uri(committed), uri(data)])
            assert result["size"], path
            assert result["share"] < 0.005, f"{path}: {result['share']:.1%} of pixels differ; run tools/make_icons.py"
        browser.close()
