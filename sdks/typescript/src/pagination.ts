/**
 * A list call returns a `ListResult`: await it for one page (`data`, `next_cursor`, `has_more`), or
 * iterate it with `for await` to walk every page, fetching the next one when the current is used up.
 */
import type { WithResponse } from './core.js';

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

type Fetch<T> = (cursor: string | undefined) => Promise<WithResponse<{ data: T[]; next_cursor?: string | null }>>;

export class ListResult<T> implements PromiseLike<WithResponse<Page<T>>>, AsyncIterable<T> {
  constructor(
    private readonly fetchPage: Fetch<T>,
    private readonly cursor?: string,
  ) {}

  private async page(cursor: string | undefined): Promise<WithResponse<Page<T>>> {
    const page = await this.fetchPage(cursor);
    const next = page.next_cursor ?? null;
    return Object.defineProperty({ data: page.data, next_cursor: next, has_more: next !== null }, 'lastResponse', {
      value: page.lastResponse,
      enumerable: false,
    }) as WithResponse<Page<T>>;
  }

  then<A = WithResponse<Page<T>>, B = never>(
    onFulfilled?: ((page: WithResponse<Page<T>>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.page(this.cursor).then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor = this.cursor;
    for (;;) {
      const page = await this.page(cursor);
      yield* page.data;
      if (!page.has_more) return;
      cursor = page.next_cursor!;
    }
  }
}
