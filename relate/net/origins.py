"""An `Origin` header or `--origin` value -> its normal form (`scheme://host[:port]`, lower case,
no default port), so the allow-list compares like with like."""
from __future__ import annotations

from urllib.parse import urlsplit


def normal_origin(text: str) -> str | None:
    """`https://Example.com:8443/` -> `https://example.com:8443`; None when it is no origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None and port != default else "")
