"""The benchmarks jar's content stamp: results are stale when the classes change, not when
`mvn package` merely rewrites the jar (as `make test` does), so a stamp file is touched only
when the digest of the jar's entries changes.

    python -m hotpath.measure.stamp target/benchmarks.jar target/benchmarks.stamp
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path


def classes_digest(jar: Path) -> str:
    """SHA-256 over every entry's name and CRC; Maven's pom.properties and the manifest carry
    build-time details, not code."""
    h = hashlib.sha256()
    with zipfile.ZipFile(jar) as z:
        for info in sorted(z.infolist(), key=lambda i: i.filename):
            if info.filename.startswith("META-INF/maven/") or info.filename == "META-INF/MANIFEST.MF":
                continue
            h.update(f"{info.filename}\0{info.CRC:08x}\n".encode())
    return h.hexdigest()


def update(jar: Path, stamp: Path) -> bool:
    """Write the digest into ``stamp`` if it differs; True when it did (the classes changed)."""
    digest = classes_digest(jar)
    if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest:
        return False
    stamp.write_text(digest + "\n", encoding="utf-8")
    return True



def stale(results: Path, stamp: Path | None = None) -> bool:
    """A results file is stale when it is missing or older than the jar's stamp."""
    from ..paths import ROOT

    stamp = stamp or ROOT / "target" / "benchmarks.stamp"
    if not results.is_file():
        return True
    return stamp.is_file() and results.stat().st_mtime < stamp.stat().st_mtime


if __name__ == "__main__":
    jar, stamp = Path(sys.argv[1]), Path(sys.argv[2])
    if update(jar, stamp):
        print(f"{jar}: classes changed; results older than {stamp} are stale")
