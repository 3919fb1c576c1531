import { useEffect, useRef } from 'preact/hooks';
import { keyLabel, useKeyNames } from '../components/key-names.js';
import { liveScopes, liveUsage, type StatusClass as Cls, type UsageReport } from '../live.js';

const CLASSES: Cls[] = ['2xx', '4xx', '429', '5xx'];
const CHART_SECONDS = 120;

/**
 * Requests per second over the last two minutes as bars stacked by status class, on a canvas
 * (hidden from screen readers: the table beside it carries the same numbers). Colours come from
 * the stylesheet (.class-2xx …), so dark mode applies.
 */
function Chart(props: { byClass: Record<Cls, number[]> }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    const series = Object.fromEntries(CLASSES.map((k) => [k, props.byClass[k].slice(-CHART_SECONDS)])) as Record<Cls, number[]>;
    const totals = series['2xx'].map((_, i) => CLASSES.reduce((sum, k) => sum + series[k][i]!, 0));
    const max = Math.max(1, ...totals);
    const colours = Object.fromEntries(CLASSES.map((k) => [k, getComputedStyle(c.parentElement!.querySelector(`.class-${k}`)!).color])) as Record<Cls, string>;
    g.clearRect(0, 0, c.width, c.height);
    const w = c.width / CHART_SECONDS;
    totals.forEach((_, i) => {
      let y = c.height;
      for (const k of CLASSES) {
        const h = (series[k][i]! / max) * (c.height - 2);
        g.fillStyle = colours[k];
        g.fillRect(i * w, y - h, Math.max(1, w - 1), h);
        y -= h;
      }
    });
  }, [props.byClass]);
  return (
    <figure class="chart-box">
      <canvas ref={canvas} width={600} height={140} aria-hidden="true" class="chart" />
      <figcaption>
        {CLASSES.map((k) => (
          <span key={k} class={`legend class-${k}`}>
            {`■ ${k}`}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The live usage report (from the dashboard's one stream), and why there is none. */
export function useUsage(): [UsageReport | null, string] {
  const error = liveScopes.value?.usage === false ? "This key lacks the scope 'usage:read'." : '';
  return [liveUsage.value, error];
}

export function Usage() {
  const [usage, error] = useUsage();
  const keys = useKeyNames();
  if (error || !usage) {
    return (
      <section>
        <h1>Usage</h1>
        {error ? <p role="alert" class="error">{error}</p> : <p>Waiting for the live report…</p>}
      </section>
    );
  }
  const byClass = Object.fromEntries(CLASSES.map((k) => [k, usage.requests_per_second.by_class.find((c) => c.status_class === k)?.series ?? []])) as Record<Cls, number[]>;
  const seconds = [...Array(10).keys()].map((i) => i - 10);
  return (
    <section>
      <h1>Usage</h1>
      <p>
        {`${usage.totals.requests} requests today. `}
        {usage.quota ? `Quota: ${usage.quota.used} of ${usage.quota.limit} used, resets ${usage.quota.resets_at}. ` : 'No quota. '}
        {usage.rate_limit ? `Rate limit: ${usage.rate_limit.limit} per ${usage.rate_limit.window_seconds} s.` : 'No rate limit.'}
      </p>
      <div class="split">
        <Chart byClass={byClass} />
        <table>
          <caption>Requests per second by status, last 10 seconds</caption>
          <thead>
            <tr>
              <th scope="col">Second</th>
              {CLASSES.map((k) => (
                <th scope="col" key={k}>
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {seconds.map((s) => (
              <tr key={s}>
                <th scope="row">{`${s} s`}</th>
                {CLASSES.map((k) => (
                  <td key={k}>{String(byClass[k].at(s) ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="split">
        <table>
          <caption>Today by status</caption>
          <tbody>
            {usage.by_status.map((s) => (
              <tr key={s.status}>
                <th scope="row">{String(s.status)}</th>
                <td>{String(s.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table>
          <caption>Today by key</caption>
          <tbody>
            {usage.by_key.map((k) => (
              <tr key={k.key_id}>
                <th scope="row">{keyLabel(keys, k.key_id)}</th>
                <td>{String(k.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table>
          <caption>Today by endpoint</caption>
          <tbody>
            {usage.by_endpoint.map((e) => (
              <tr key={e.endpoint}>
                <th scope="row">{e.endpoint}</th>
                <td>{String(e.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
