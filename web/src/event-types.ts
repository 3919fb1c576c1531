// The catalogue of event types (docs/reference/events.md#types), shared with the server's own list.
export { EVENT_TYPES } from '../../src/domain/event-types.js';
export { SCOPES } from '../../src/domain/scopes.js';
