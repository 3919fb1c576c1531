<?php

namespace Crm;

/**
 * One page of a list: $data, $next_cursor, $has_more. foreach over it walks this page;
 * autoPagingIterator() walks every page, fetching the next when one runs out.
 *
 * @template T of Model
 * @implements \IteratorAggregate<int, T>
 */
final class Collection implements \IteratorAggregate, \Countable
{
    /** @var list<T> */
    public readonly array $data;
    public readonly ?string $next_cursor;
    public readonly bool $has_more;

    /**
     * @param list<T> $data
     * @param \Closure(string): Collection<T> $fetchPage fetches the page at a cursor
     */
    public function __construct(array $data, ?string $nextCursor, private readonly ?ApiResponse $lastResponse, private readonly \Closure $fetchPage)
    {
        $this->data = $data;
        $this->next_cursor = $nextCursor;
        $this->has_more = $nextCursor !== null;
    }

    /** @return \Generator<int, T> every item of this page and the ones after it */
    public function autoPagingIterator(): \Generator
    {
        $page = $this;
        while (true) {
            foreach ($page->data as $item) {
                yield $item;
            }
            if (!$page->has_more) {
                return;
            }
            $page = ($page->fetchPage)($page->next_cursor);
        }
    }

    /** The next page, or null after the last. @return Collection<T>|null */
    public function nextPage(): ?Collection
    {
        return $this->has_more ? ($this->fetchPage)($this->next_cursor) : null;
    }

    public function getLastResponse(): ?ApiResponse
    {
        return $this->lastResponse;
    }

    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->data);
    }

    public function count(): int
    {
        return count($this->data);
    }
}
