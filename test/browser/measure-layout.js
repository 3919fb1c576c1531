// Runs in the page (page.evaluate), so it is plain JavaScript over the DOM: the tests' TypeScript
// program has Node's types, not the browser's.

/** Runs in the page: what is broken or cut, as "selector-ish: text" lines. */
export function measure() {
  /** @type {string[]} */
  const problems = [];
  const name = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
  const visible = (el) => el.offsetParent !== null;
  // Cut: a header or a button whose content is wider than its box (and not meant to scroll or truncate).
  for (const el of document.querySelectorAll('main th, main button, main .badge')) {
    if (!visible(el) || el.closest('.truncate')) continue;
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`cut ${name(el)}: ${el.textContent}`);
  }
  // Broken words: every word of every text node in a table, a button or a link is on one line.
  for (const host of document.querySelectorAll('main th, main td, main button, main a, main .badge')) {
    if (!visible(host)) continue;
    const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        // One rect per line box; an empty rect (collapsed whitespace) does not count.
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(`broken word in ${name(host)}: ${match[0]}`);
      }
    }
  }
  return [...new Set(problems)];
}

/**
 * Runs in the page: the words of the element `scope` selects that break across lines (every visible
 * text node but preformatted code, which scrolls). Self-contained, as page.evaluate sends only its text.
 */
export function brokenWordsIn(scope) {
  const root = document.querySelector(scope);
  if (!root) return [`nothing matches ${scope}`];
  const words = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('pre') || parent.offsetParent === null) continue;
    for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) words.push(match[0]);
    }
  }
  return [...new Set(words)];
}

/**
 * For the test of the measure: a header squeezed until its word breaks, and the page's primary
 * button too narrow for its name. Through the DOM and the CSSOM: the dashboard's CSP refuses a
 * <style> element (as it should).
 */
export function squeeze() {
  const table = document.createElement('table');
  Object.assign(table.style, { tableLayout: 'fixed', width: '4ch' });
  const th = table.createTHead().insertRow().appendChild(document.createElement('th'));
  th.textContent = 'Squeezed';
  Object.assign(th.style, { whiteSpace: 'normal', wordBreak: 'break-all' });
  document.querySelector('main').append(table);
  Object.assign(document.querySelector('main .page-header button').style, { width: '3ch', overflow: 'hidden' });
}
