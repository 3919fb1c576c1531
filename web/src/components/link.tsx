import type { ComponentChildren } from 'preact';
import { navigate } from '../router.js';

/** A link inside the dashboard: a real <a href> (open in a new tab works), followed without a page load. */
export function Link(props: {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
  title?: string;
  id?: string;
  draggable?: boolean;
}) {
  const { href, children, ...rest } = props;
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/** The URL of a record's page: /dashboard/leads/lead_… */
export const recordUrl = (resource: string, id: string): string => `/dashboard/${resource}/${encodeURIComponent(id)}`;
