"""What the orchestrator (scripts/contract/run.ts) hands the hooks, through the environment."""

from __future__ import annotations

import json
import os
from pathlib import Path

KEYS: dict[str, str] = json.loads(os.environ["ALK_FUZZ_KEYS"])
"""API keys by kind: funded, poor (balance below every price), revoked, disabled (its account
is), unknown (well formed, never issued) and malformed (a bad checksum)."""

KIND_BY_KEY: dict[str, str] = {value: kind for kind, value in KEYS.items()}

OUTPUT = Path(os.environ["ALK_FUZZ_OUTPUT"])
"""Folder for the response records and the request count."""
