// Part of benchmark "dashboard": the pipeline board with 1,000 more deals than the seed's (docs/dashboard.md#the-pipeline-board:
// "a board of 1,000 deals scrolls smoothly"), then with 10,000 more. Seeds them through the bulk API,
// then per load: time from navigation start until the board is ready (every column's count drawn and
// its first cards on screen), the cards and elements the page holds (a column draws 15 cards, then a
// page more as it is scrolled near its end), and the frame times while every column's cards are
// scrolled to their end and back (pages load on the way, as they do for a person).
import { median, round } from './stats.js';

export const EXTRA_DEALS = 1000;
const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const CURRENCIES = ['EUR', 'USD', 'JPY'];

async function apiCall(sandbox, method, path, body) {
  const res = await fetch(`${sandbox.base_url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.api_key}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** `count` deals over every stage, three currencies and the seed's clients, a bulk call per 1,000. */
export async function seedDeals(sandbox, count = EXTRA_DEALS) {
  const clients = (await apiCall(sandbox, 'GET', '/v1/clients?limit=100')).data;
  for (let from = 0; from < count; from += 1000) {
    const records = Array.from({ length: Math.min(1000, count - from) }, (_, k) => {
      const i = from + k;
      return {
        title: `Bench deal ${i + 1}`,
        value: CURRENCIES[i % 3] === 'JPY' ? 1000 * (i + 1) : 10.5 * (i + 1),
        currency: CURRENCIES[i % 3],
        stage: STAGES[i % STAGES.length],
        client_id: clients[i % clients.length].id,
      };
    });
    const result = await apiCall(sandbox, 'POST', '/v1/deals/bulk', { mode: 'create', records });
    const failed = result.results?.filter((r) => r.status === 'failed').length ?? 0;
    if (failed) throw new Error(`bulk: ${failed} deals failed`);
  }
  return countDeals(sandbox);
}

/** Every deal the API lists (the seed's and ours), 1,000 a page. */
async function countDeals(sandbox) {
  let total = 0;
  let cursor = null;
  do {
    const page = await apiCall(sandbox, 'GET', `/v1/deals?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    total += page.data.length;
    cursor = page.next_cursor;
  } while (cursor);
  return total;
}

/**
 * Loads the board once: `ready` is navigation start until its first card is on screen with every
 * column counted (checked to add up to the API's `totalDeals`); and the cards and elements it holds.
 */
export async function loadBoard(page, baseUrl, totalDeals) {
  await page.goto(`${baseUrl}/dashboard/deals?view=board`);
  await page.locator('.board .deal-card').first().waitFor();
  const t = await page.evaluate(() => ({
    ready: performance.now(),
    counted: [...document.querySelectorAll('.column-count')].reduce((n, el) => n + Number(el.textContent.replace(/\D/g, '')), 0), // "1,815 deals"
    cards: document.querySelectorAll('.deal-card').length,
    elements: document.getElementsByTagName('*').length,
  }));
  if (t.counted !== totalDeals) throw new Error(`the board counts ${t.counted} deals, the API ${totalDeals}`);
  return t;
}

/** Loads the board `repeat` times in a signed-in page; returns the rows of the report. */
export async function measureBoard(page, baseUrl, totalDeals, repeat) {
  const ready = [];
  let shape;
  for (let i = 0; i < repeat; i++) {
    shape = await loadBoard(page, baseUrl, totalDeals);
    ready.push(shape.ready);
  }
  // Scroll every column's cards to the end and back, one step a frame, timing each frame.
  const frames = await page.evaluate(async () => {
    const lists = [...document.querySelectorAll('.board .cards')];
    const times = [];
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = await frame();
    for (let step = 0; step <= 40; step++) {
      for (const l of lists) l.scrollTop = (l.scrollHeight * (step <= 20 ? step : 40 - step)) / 20;
      const t = await frame();
      times.push(t - last);
      last = t;
    }
    return times;
  });
  const sorted = [...frames].sort((a, b) => a - b);
  return [
    {
      name: `/dashboard/deals?view=board (${totalDeals} deals)`,
      ready_median_ms: round(median(ready), 1),
      ready_max_ms: round(Math.max(...ready), 1),
      loads: repeat,
      cards_drawn: shape.cards,
      page_elements: shape.elements,
      scroll_frame_median_ms: round(median(frames), 1),
      scroll_frame_p95_ms: round(sorted[Math.floor(sorted.length * 0.95)], 1),
      scroll_frame_max_ms: round(sorted.at(-1), 1),
    },
  ];
}
