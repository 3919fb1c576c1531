import { useEffect, useState } from 'preact/hooks';

/** Each page is its own URL under /dashboard/; filters live in the query string, so reloads keep them. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(location.href));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return url;
}

/** Replaces one query parameter without a new history entry (a filter being typed). */
export function setQuery(name: string, value: string): void {
  const url = new URL(location.href);
  if (value) url.searchParams.set(name, value);
  else url.searchParams.delete(name);
  history.replaceState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}
