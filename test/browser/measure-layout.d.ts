// Types of measure-layout.js (plain JavaScript: it runs in the page).
/** What is broken or cut on the page, as "what: text" lines; empty when nothing is. */
export function measure(): string[];
/** The words of the element `scope` selects (a CSS selector) that break across lines, preformatted text aside; empty when none do. */
export function brokenWordsIn(scope: string): string[];
/** Squeezes a header and a button so that measure() has something to find. */
export function squeeze(): void;
