"""Reports are attached to issues and opened without a network: nothing in them may be fetched."""

from __future__ import annotations

import re

_EXTERNAL = re.compile(
    r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?//""",
    re.IGNORECASE)


def external_references(html: str) -> list[str]:
    """Scripts, styles or images that a browser would fetch from the network."""
    return [m.group(0) for m in _EXTERNAL.finditer(html)]
