"""Real sandbox processes for the tests, started as `crm sandbox start --port 0 --json --db :memory:`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
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


class FakeProvider:
    """The scripted model provider (scripts/fake-model-provider.mjs, over test/helpers/fake-model-provider.ts):
    a real HTTP server speaking OpenAI's protocol, for a sandbox started with sandbox_args()."""

    def __init__(self) -> None:
        node = os.environ.get("CRM_NODE", "node")
        script = CRM_BIN.parents[1] / "scripts" / "fake-model-provider.mjs"
        # Its stdin is a pipe: when this process ends, the pipe closes and the provider stops.
        self.process = subprocess.Popen([node, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line:
            raise RuntimeError("the fake model provider did not start")
        ready = json.loads(line)
        self.url: str = ready["url"]
        self.control_url: str = ready["control_url"]

    def sandbox_args(self) -> List[str]:
        return ["--assistant-url", f"{self.url}/v1", "--assistant-model", "fake-model"]

    def script(self, steps: List[dict]) -> None:  # type: ignore[type-arg]
        """What the next model calls answer: {"text": ..., "toolCalls": [{"name", "args"}]} or {"status": 503}."""
        request = urllib.request.Request(f"{self.control_url}/script", data=json.dumps(steps).encode(), method="POST")
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request).close()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout):
            if stream:
                stream.close()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
