"""A list call returns one Page (data, next_cursor, has_more); auto_paging_iter() walks every page,
fetching the next when the current is used up."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Generic, Iterator, List, Optional, Type, TypeVar

from ._object import CrmObject, Response

if TYPE_CHECKING:
    from ._core import Core, RequestOptions

T = TypeVar("T", bound=CrmObject)


class Page(Generic[T]):
    def __init__(self, data: List[T], next_cursor: Optional[str], last_response: Response, fetch_next: Any) -> None:
        self.data = data
        self.next_cursor = next_cursor
        self.has_more = next_cursor is not None
        self.last_response = last_response
        self._fetch_next = fetch_next

    @classmethod
    def fetch(cls, core: "Core", path: str, query: Dict[str, Any], model: Type[T], options: "RequestOptions") -> "Page[T]":
        parsed, response = core.request("GET", path, query=query, options=options)
        cursor = parsed.get("next_cursor")
        items = [model(item) for item in parsed.get("data", [])]
        return cls(items, cursor, response, lambda: cls.fetch(core, path, {**query, "cursor": cursor}, model, options))

    def next_page(self) -> Optional["Page[T]"]:
        return self._fetch_next() if self.has_more else None

    def auto_paging_iter(self) -> Iterator[T]:
        page: Optional[Page[T]] = self
        while page is not None:
            yield from page.data
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"Page(data=[{len(self.data)} items], has_more={self.has_more})"
