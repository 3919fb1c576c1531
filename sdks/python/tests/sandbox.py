"""Real sandbox processes for the tests, started as `crm sandbox start --port 0 --json --db :memory:`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import List, Optional

CRM_BIN = Path(__file__).resolve().parents[3] / "bin" / "crm.js"


class Sandbox:
    def __init__(self, args: Optional[List[str]] = None) -> None:
        node = os.environ.get("CRM_NODE", "node")
        self.process = subprocess.Popen(
            [node, str(CRM_BIN), "sandbox", "start", "--port", "0", "--json", "--db", ":memory:", "--webhook-time-scale", "0.001", *(args or [])],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "NO_COLOR": "1"},
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line:
            raise RuntimeError(f"the sandbox did not start: {self.process.stderr.read() if self.process.stderr else ''}")
        ready = json.loads(line)
        self.base_url: str = ready["base_url"]
        self.api_key: str = ready["api_key"]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
