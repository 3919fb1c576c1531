import { useEffect, useRef, useState } from 'preact/hooks';
import { readStream } from '../stream.js';

interface Usage {
  day: string;
  totals: { requests: number };
  by_key: { key_id: string; requests: number }[];
  by_endpoint: { endpoint: string; requests: number }[];
  by_status: { status: number; requests: number }[];
  quota: { limit: number; used: number; remaining: number; resets_at: string } | null;
  rate_limit: { limit: number; window_seconds: number } | null;
  requests_per_second: { window_seconds: number; average: number; series: number[] };
}

const CLASSES = [
  ['2xx', (s: number) => s >= 200 && s < 300],
  ['4xx', (s: number) => s >= 400 && s < 500 && s !== 429],
  ['429', (s: number) => s === 429],
  ['5xx', (s: number) => s >= 500],
] as const;

/** Bars of requests per second, drawn again on every report (once a second). The table beside says the same in text. */
function Chart({ series }: { series: number[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    const max = Math.max(1, ...series);
    const width = c.width / Math.max(series.length, 1);
    g.clearRect(0, 0, c.width, c.height);
    g.fillStyle = getComputedStyle(c).color;
    series.forEach((n, i) => g.fillRect(i * width, c.height - (n / max) * c.height, Math.max(width - 1, 1), (n / max) * c.height));
  }, [series]);
  return <canvas ref={canvas} width={600} height={120} class="chart" role="img" aria-label={`Requests per second over the last ${series.length} seconds; the latest: ${series.at(-1) ?? 0}`} />;
}

/** Live usage: GET /v1/usage/stream sends the report once a second. */
export function UsagePage() {
  const [usage, setUsage] = useState<Usage | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    const abort = new AbortController();
    readStream('/v1/usage/stream', abort.signal, (data) => setUsage(data as Usage)).catch((e: Error) => {
      if (!abort.signal.aborted) setError(`The live report stopped: ${e.message}. Reload to follow again.`);
    });
    return () => abort.abort();
  }, []);
  if (error) return <p role="alert" class="error">{error}</p>;
  if (!usage) return <p>Waiting for the first report…</p>;
  const rps = usage.requests_per_second;
  return (
    <>
      <h2>Requests per second</h2>
      <Chart series={rps.series} />
      <p>
        Now <strong>{rps.series.at(-1) ?? 0}</strong>/s, average {rps.average.toFixed(1)}/s over {rps.window_seconds} s.
        {usage.rate_limit && ` Rate limit ${usage.rate_limit.limit} per ${usage.rate_limit.window_seconds} s per key.`}
      </p>
      <h2>Today ({usage.day}): {usage.totals.requests} requests</h2>
      <table>
        <caption>By status class</caption>
        <tbody>
          {CLASSES.map(([name, test]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{usage.by_status.filter((s) => test(s.status)).reduce((sum, s) => sum + s.requests, 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {usage.quota && (
        <p>
          Quota: {usage.quota.used} of {usage.quota.limit} used, {usage.quota.remaining} left until {usage.quota.resets_at.slice(0, 16).replace('T', ' ')} UTC.
        </p>
      )}
      <table>
        <caption>By endpoint</caption>
        <thead>
          <tr><th scope="col">Endpoint</th><th scope="col">Requests</th></tr>
        </thead>
        <tbody>
          {usage.by_endpoint.map((e) => (
            <tr key={e.endpoint}><td>{e.endpoint}</td><td>{e.requests}</td></tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>By key</caption>
        <thead>
          <tr><th scope="col">Key</th><th scope="col">Requests</th></tr>
        </thead>
        <tbody>
          {usage.by_key.map((k) => (
            <tr key={k.key_id}><td>{k.key_id}</td><td>{k.requests}</td></tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
