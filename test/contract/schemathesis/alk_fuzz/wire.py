"""Counts every HTTP request this schemathesis process puts on the wire, checks' own probes included."""

from __future__ import annotations

import atexit
import json
import threading

from requests.adapters import HTTPAdapter

from .state import OUTPUT

_lock = threading.Lock()
_count = {"requests": 0}
_send = HTTPAdapter.send


def _counting_send(self, request, *args, **kwargs):
    with _lock:
        _count["requests"] += 1
    return _send(self, request, *args, **kwargs)


HTTPAdapter.send = _counting_send
atexit.register(lambda: (OUTPUT / "requests.json").write_text(json.dumps(_count)))
