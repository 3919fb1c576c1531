/**
 * The crm SDK for TypeScript: `new Crm({ apiKey, baseUrl })`, typed resources, retries with
 * idempotency keys, auto-pagination, streamed methods as async iterables (crm.assistant.ask),
 * Standard Webhooks verification. No runtime dependencies
 * (global fetch, node:crypto for webhook signatures).
 */
import { Core, type ClientOptions, type RequestOptions, type WithResponse } from './core.js';
import { Resources } from './generated/resources.js';

export class Crm extends Resources {
  private readonly core: Core;

  constructor(options: ClientOptions = {}) {
    const core = new Core(options);
    super(core);
    this.core = core;
  }

  get baseUrl(): string {
    return this.core.baseUrl;
  }

  /** Any endpoint: `crm.rawRequest('GET', '/v1/leads?limit=1')`. */
  rawRequest<T = unknown>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<WithResponse<T>> {
    return this.core.request<T>(method.toUpperCase(), path, { body }, options);
  }
}

export default Crm;
export { VERSION, type ClientOptions, type LastResponse, type RequestOptions, type WithResponse } from './core.js';
export * from './errors.js';
export type * from './generated/models.js';
export { ListResult, type Page } from './pagination.js';
export { EventStream, serverSentEvents, type ServerSentEvent } from './streaming.js';
export { Webhook } from './webhook.js';
