// Types of measure-layout.js (plain JavaScript: it runs in the page).
/** What is broken or cut on the page, as "what: text" lines; empty when nothing is. */
export function measure(): string[];
/** Squeezes a header and a button so that measure() has something to find. */
export function squeeze(): void;
