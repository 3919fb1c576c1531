import { describe, expect, it } from 'vitest';
import { CLOCK_EVENT_TYPES, TRIGGERABLE_EVENT_TYPES } from '../../src/domain/event-types.js';
import { runCrm } from '../helpers/cli-process.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

let sandbox: RunningApp;
let api: ApiClient;

useApp({}, (s, a) => {
  sandbox = s;
  api = a;
});

const crm = (...args: string[]) => runCrm([...args, '--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey]);

describe.concurrent('crm trigger', () => {
  // Each type, as its own process, as a user runs it; the event it reports must exist and be that type.
  it.each(TRIGGERABLE_EVENT_TYPES.map((t) => [t]))('%s makes the API calls that cause it', async (type) => {
    const { code, stdout, stderr } = await crm('trigger', type, '--json');
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { type: string; object_id: string; event_id: string };
    expect(out.type).toBe(type);
    expect(out.event_id).toMatch(/^evt_/);
    const event = await api.get(`/v1/events/${out.event_id}`);
    expect(event.status).toBe(200);
    expect(event.body.type).toBe(type);
    expect(event.body.data.object.id).toBe(out.object_id);
  });

  it('says what it did, for people', async () => {
    const { code, stdout } = await crm('trigger', 'deal.won');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Triggered deal\.won: created a deal and won it \(deal_\w+\) → evt_\w+\n$/);
  });

  it.each(CLOCK_EVENT_TYPES.map((t) => [t]))('%s is refused as a usage error that points at the clock', async (type) => {
    const { code, stderr } = await crm('trigger', type);
    expect(code).toBe(2);
    expect(stderr).toContain('deal.won'); // the choices it lists
    const help = await crm('trigger', '--help');
    expect(help.stdout).toContain('crm sandbox clock advance');
  });

  it('refuses an unknown event type as a usage error', async () => {
    const { code, stderr } = await crm('trigger', 'deal.exploded');
    expect(code).toBe(2);
    expect(stderr).toContain('deal.won');
  });
});
