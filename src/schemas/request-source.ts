import { z } from 'zod';
import { buildOnce } from './lazy.js';

/** Who made a /v1 request: the dashboard (its session cookie) or anything else with a key or token. */
export const REQUEST_SOURCES = ['api', 'dashboard'] as const;
export type RequestSource = (typeof REQUEST_SOURCES)[number];

export const RequestSourceSchema = buildOnce(() =>
  z
    .enum(REQUEST_SOURCES, { error: 'Expected "api" or "dashboard".' })
    .describe('"dashboard": made by the dashboard (signed in with a session cookie); "api": made with an API key or OAuth token'),
);
