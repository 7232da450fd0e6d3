"""Open a page in a real browser (Debian's Chromium, headless) and read what it saw.

A probe script is put at the top of a copy of the page: it records console errors and uncaught
exceptions, and on ``load`` writes what the test needs (images decoded or not, section ids, the
claims table's rows, the filter at work) into the DOM, which ``--dump-dom`` returns.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

PROBE = """<script>
window.__errors = [];
window.addEventListener('error', function (e) { __errors.push(String(e.message)); });
(function () {
  var original = console.error;
  console.error = function () {
    __errors.push(Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
})();
window.addEventListener('load', function () {
  var images = Array.prototype.slice.call(document.images);
  var rows = document.querySelectorAll('#all-claims tr[data-verdict]');
  var filtered = null;
  var select = document.getElementById('verdict-filter');
  if (select) {
    select.value = 'PASS';
    select.dispatchEvent(new Event('change'));
    filtered = {
      shown: Array.prototype.filter.call(rows, function (r) {
        return r.style.display !== 'none';
      }).length,
      counter: Number(document.getElementById('claims-shown').textContent)
    };
    select.value = '';
    select.dispatchEvent(new Event('change'));
  }
  var probe = document.createElement('pre');
  probe.id = 'probe';
  probe.textContent = JSON.stringify({
    images: images.length,
    undecoded: images.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                     .map(function (i) { return i.alt; }),
    errors: __errors,
    sections: Array.prototype.map.call(document.querySelectorAll('h2[id]'), function (h) {
      return h.id;
    }),
    claim_rows: rows.length,
    pass_filtered: filtered,
    height: document.documentElement.scrollHeight
  });
  document.body.appendChild(probe);
});
</script>"""


def chromium() -> str | None:
    """The Chromium binary, installed from Debian's archive when missing and possible (root
    with apt-get, as the SLURM test installs slurm-wlm); None when it cannot be had."""
    for name in ("chromium", "chromium-browser"):
        if path := shutil.which(name):
            return path
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return None
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        if subprocess.run(cmd, env=env, capture_output=True, timeout=900).returncode != 0:
            return None
    return shutil.which("chromium")


def _headless(browser: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
        capture_output=True,
        text=True,
        timeout=180,
    )


def probe_page(browser: str, page: Path, workdir: Path) -> dict[str, Any]:
    """Load ``page`` (a copy with the probe) and return what the probe recorded."""
    text = page.read_text(encoding="utf-8")
    probed = workdir / page.name
    probed.write_text(re.sub(r"<head>", "<head>" + PROBE, text, count=1), encoding="utf-8")
    proc = _headless(browser, "--virtual-time-budget=10000", "--dump-dom", probed.as_uri())
    found = re.search(r'<pre id="probe">(.*?)</pre>', proc.stdout, re.S)
    assert found, f"the probe did not report; chromium said: {proc.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


def screenshot(browser: str, page: Path, out: Path, height: int, width: int = 1200) -> None:
    """A full-page screenshot: the window as tall as the page."""
    proc = _headless(
        browser, f"--window-size={width},{height}", f"--screenshot={out}", page.as_uri()
    )
    assert out.exists() and out.stat().st_size > 0, proc.stderr[-2000:]
