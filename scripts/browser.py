"""Headless Chromium for the HTML report: the DOM after rendering, a screenshot, a blank check.

Used by tests/test_report_browser.py and by `make report`:

    python scripts/browser.py PAGE.html SHOT.png

The least machinery that works: Chromium's own `--dump-dom` and `--screenshot`, run as a
process with a throwaway profile; nothing else is installed.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTH, HEIGHT = 1280, 2000
TIMEOUT = 120  # seconds: a cold start on a busy CI machine


def find_chromium() -> str | None:
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(browser: str, page: Path, *flags: str) -> str:
    with tempfile.TemporaryDirectory(prefix="mdmem-chromium-") as profile:
        done = subprocess.run(
            [
                browser,
                "--headless=new",
                "--no-sandbox",  # CI runs as root, where the sandbox refuses to start
                "--disable-gpu",
                "--no-first-run",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                *flags,
                page.resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"{browser} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def dump_dom(browser: str, page: Path) -> str:
    """The document as the browser holds it once loaded (after any script would have run)."""
    return _run(browser, page, "--dump-dom")


def screenshot(
    browser: str, page: Path, png: Path, width: int = WIDTH, height: int = HEIGHT
) -> None:
    _run(browser, page, f"--window-size={width},{height}", f"--screenshot={png.resolve()}")
    if not png.is_file():
        raise RuntimeError(f"{browser} wrote no screenshot to {png}")


def png_size(png: Path) -> tuple[int, int]:
    """(width, height) from the PNG's header."""
    data = png.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{png} is not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def distinct_rows(png: Path) -> int:
    """How many different pixel rows the image holds: 1 for a blank page, many for text.

    Read with zlib only: each row of the decompressed image data starts with its filter
    byte; rows are compared as they are stored, which is enough to tell a blank page.
    """
    data = png.read_bytes()
    width, height = png_size(png)
    position, chunks = 8, []
    header = b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        chunk = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            chunks.append(chunk)
        position += 12 + length
    channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(header[9], 4) if header else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = 1 + width * channels * (header[8] // 8 if header else 1)
    return len({raw[row * stride : (row + 1) * stride] for row in range(height)})


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python scripts/browser.py PAGE.html SHOT.png", file=sys.stderr)
        return 2
    browser = find_chromium()
    if browser is None:
        print("no Chromium found: install it (apt-get install chromium)", file=sys.stderr)
        return 1
    page, png = Path(argv[0]), Path(argv[1])
    screenshot(browser, page, png)
    print(f"Wrote {png} ({png.stat().st_size} bytes, {distinct_rows(png)} distinct rows).")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
