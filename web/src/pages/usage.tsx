import { keyLabel, useKeyNames } from '../components/key-names.js';
import { when } from '../components/table.js';
import { STATUS_CLASSES, UsageChart } from '../components/usage-chart.js';
import { liveScopes, liveUsage, type StatusClass as Cls, type UsageReport } from '../live.js';
import { formatCount } from '../records/format.js';
import { HideDashboardRequests } from '../components/dashboard-requests.js';

const CLASSES = STATUS_CLASSES;

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
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : (
          <p>Waiting for the live report…</p>
        )}
      </section>
    );
  }
  const byClass = Object.fromEntries(CLASSES.map((k) => [k, usage.requests_per_second.by_class.find((c) => c.status_class === k)?.series ?? []])) as Record<
    Cls,
    number[]
  >;
  const seconds = [...Array(10).keys()].map((i) => i - 10);
  return (
    <section>
      <h1>Usage</h1>
      <div class="filters">
        <HideDashboardRequests />
      </div>
      <p>
        {`${formatCount(usage.totals.requests)} ${usage.source === 'api' ? 'requests today, not counting the dashboard’s own' : 'requests today'}. `}
        {usage.quota
          ? `Quota: ${formatCount(usage.quota.used)} of ${formatCount(usage.quota.limit)} used${usage.source === 'api' ? ' (the dashboard’s requests count too)' : ''}, resets ${when(usage.quota.resets_at)}. `
          : 'No quota. '}
        {usage.rate_limit ? `Rate limit: ${formatCount(usage.rate_limit.limit)} per ${usage.rate_limit.window_seconds} s.` : 'No rate limit.'}
      </p>
      <UsageChart byClass={byClass} />
      <div class="split">
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
