"""Server-Sent Events as typed events: what a streamed method (crm.assistant.ask) returns.

The request is sent when iteration starts, so an error answer (problem+json: 503, 502, 404, ...)
raises its CrmError from the `for` before any event. Each event is the JSON of its `data:` lines
(its type in it, as the `event:` line repeats), typed (AssistantStreamEvent); an `error` event is an event like the others (the stream ends after
it), not an exception. close(), leaving a `with` block, or the end of the loop closes the HTTP
response. The client's timeout bounds each wait for the server: between two events, not the whole
stream."""
from __future__ import annotations

import codecs
import json
import socket
from typing import Any, Callable, Generic, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Type, TypeVar

from ._errors import ConnectionError, CrmError
from ._object import CrmObject, Response

T = TypeVar("T", bound=CrmObject)


class ServerSentEvent(NamedTuple):
    """One event as sent: `event:` (default "message"), its joined `data:` lines, `id:`."""

    event: str
    data: str
    id: Optional[str]


class EventStream(Generic[T]):
    """Iterate once: `for event in stream`, or `with crm.assistant.ask(...) as events:`."""

    def __init__(self, open_stream: Callable[[], Tuple[Any, Response]], model: Type[T]) -> None:
        self._open = open_stream
        self._model = model
        self._raw: Any = None
        self._events: Optional[Iterator[T]] = None
        self.last_response: Optional[Response] = None

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        if self._events is None:
            self._events = self._read()
        if self._raw is None and self.last_response is not None:
            raise StopIteration  # closed
        return next(self._events)

    def _read(self) -> Iterator[T]:
        self._raw, self.last_response = self._open()
        try:
            for message in server_sent_events(_chunks(self._raw)):
                yield self._model(_event(message))
        finally:
            self.close()

    def close(self) -> None:
        """Stops the HTTP response; the iteration ends."""
        if self._events is None:
            self._events = iter(())  # closed before it started: nothing is sent
        if self._raw is not None:
            self._raw.close()
            self._raw = None

    def __enter__(self) -> "EventStream[T]":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _chunks(raw: Any) -> Iterator[bytes]:
    """The body as it arrives (read1: what is there, without waiting for a full buffer)."""
    while True:
        try:
            chunk = raw.read1(65536)
        except (socket.timeout, OSError) as error:
            raise ConnectionError(f"The stream stopped: {error}") from error
        if not chunk:
            return
        yield chunk


def _event(message: ServerSentEvent) -> Any:
    try:
        parsed = json.loads(message.data)
    except ValueError as error:
        raise CrmError(f"The server sent an event that is not JSON (event: {message.event}): {message.data[:200]}") from error
    return parsed


def server_sent_events(chunks: Iterable[bytes]) -> Iterator[ServerSentEvent]:
    """Parses an event stream as the HTML standard says: lines end in CRLF, LF or CR; a blank line
    dispatches the event; `:` starts a comment (a heartbeat); `data:` lines join with a line feed;
    one space after the colon is dropped; an event cut off before its blank line is not dispatched."""
    buffer = ""
    first = True
    event = ""
    data: List[str] = []
    last_id: Optional[str] = None
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for chunk in _then_end(chunks):
        done = chunk is None
        buffer += decoder.decode(b"", final=True) if done else decoder.decode(chunk)
        if first and buffer:
            buffer, first = (buffer[1:] if buffer[0] == "\ufeff" else buffer), False
        while True:
            ends = [i for i in (buffer.find("\r"), buffer.find("\n")) if i >= 0]
            if not ends:
                break
            end = min(ends)
            # A CR last in the buffer may be the first half of a CRLF: wait for the next chunk.
            if not done and buffer[end] == "\r" and end == len(buffer) - 1:
                break
            line = buffer[:end]
            buffer = buffer[end + (2 if buffer[end : end + 2] == "\r\n" else 1):]
            if line == "":
                if data:  # no data (an id-only message, a lone event: line) dispatches nothing
                    yield ServerSentEvent(event or "message", "\n".join(data), last_id)
                event, data = "", []
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
            elif field == "id" and "\0" not in value:
                last_id = value


def _then_end(chunks: Iterable[bytes]) -> Iterator[Optional[bytes]]:
    """The chunks, then None: the end, where a last CR ends its line."""
    yield from chunks
    yield None
