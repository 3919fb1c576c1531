import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';

interface Usage {
  totals: { requests: number };
  by_key: { key_id: string; requests: number }[];
  by_endpoint: { endpoint: string; requests: number }[];
  by_status: { status: number; requests: number }[];
  quota: { limit: number; used: number; remaining: number; resets_at: string } | null;
  rate_limit: { limit: number; window_seconds: number } | null;
  requests_per_second: { window_seconds: number; average: number; series: number[] };
}

/** Requests per second as bars on a canvas (decorative: the table beside it carries the same numbers). */
function Chart(props: { series: number[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    const max = Math.max(1, ...props.series);
    g.clearRect(0, 0, c.width, c.height);
    g.fillStyle = getComputedStyle(c).color;
    const w = c.width / Math.max(1, props.series.length);
    props.series.forEach((v, i) => {
      const h = (v / max) * (c.height - 2);
      g.fillRect(i * w, c.height - h, Math.max(1, w - 1), h);
    });
  }, [props.series]);
  return <canvas ref={canvas} width={600} height={120} aria-hidden="true" class="chart" />;
}

export function useUsage(): [Usage | null, string] {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    const tick = () => api<Usage>('GET', '/v1/usage').then((u) => live && setUsage(u), (e: Error) => live && setError(e.message));
    void tick();
    const timer = setInterval(tick, 1000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return [usage, error];
}

export function Usage() {
  const [usage, error] = useUsage();
  if (error) return <p role="alert" class="error">{error}</p>;
  if (!usage) return <p>Loading…</p>;
  const last = usage.requests_per_second.series.slice(-10);
  return (
    <section>
      <h1>Usage</h1>
      <p>
        {`${usage.totals.requests} requests today. `}
        {usage.quota ? `Quota: ${usage.quota.used} of ${usage.quota.limit} used, resets ${usage.quota.resets_at}. ` : 'No quota. '}
        {usage.rate_limit ? `Rate limit: ${usage.rate_limit.limit} per ${usage.rate_limit.window_seconds} s.` : 'No rate limit.'}
      </p>
      <div class="split">
        <Chart series={usage.requests_per_second.series} />
        <table>
          <caption>Requests per second, last 10 seconds (oldest first)</caption>
          <tbody>
            <tr>
              {last.map((v, i) => (
                <td key={i}>{String(v)}</td>
              ))}
            </tr>
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
                <th scope="row">{k.key_id}</th>
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
