// What a related record's name shows while it is not known. Only the API's own word (a 404, or an
// id left out of a `?ids=` answer) is "Not found": a refused or failed request says what happened.
import type { NameLookup } from './relations.js';

export function NameStatus(props: { lookup: Exclude<NameLookup, { state: 'found' }>; id: string }) {
  const { lookup, id } = props;
  switch (lookup.state) {
    case 'loading':
      return <span class="muted">…</span>;
    case 'rate-limited':
      return <span class="muted">Rate limited, retrying…</span>;
    case 'missing':
      return <span class="muted">{`Not found (${id})`}</span>;
    case 'forbidden':
      return <span class="muted">{`Hidden (needs ${lookup.scope})`}</span>;
    case 'failed':
      return (
        <span class="muted" title={`The name could not be loaded: ${lookup.reason}. It is asked again when the page is opened again.`}>
          {`Couldn't load (${id})`}
        </span>
      );
  }
}
