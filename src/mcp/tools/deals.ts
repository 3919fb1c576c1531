import { z } from 'zod';
import { Deal, DealCreate, DealListQuery, DealSummary, DealSummaryQuery, DealUpdate, Pipeline, Stage } from '../../schemas/deal.js';
import type { McpBackend } from '../backend.js';
import { type CrmTool, Deleted, pageOf, pathId, toolsOf } from '../tool-kit.js';

type Keyed = { idempotency_key?: string };
const DealId = z.object({ id: z.string().describe('The deal id (deal_…)') });

export function dealTools(api: McpBackend): CrmTool[] {
  const tool = toolsOf('deals');
  return [
    tool({
      name: 'list_pipeline_stages',
      title: 'List pipeline stages',
      description: 'The sales pipeline: its stages in order with their default win probabilities (won and lost are closed stages).',
      kind: 'read',
      input: z.object({}),
      output: z.object({ data: z.array(Pipeline.unwrap()), next_cursor: z.null() }),
      run: () => api.call('GET', '/v1/pipelines'),
    }),
    tool({
      name: 'list_deals',
      title: 'List deals',
      description:
        'Lists deals, oldest first (order=desc: newest first; sort by title, value, expected_close_date or updated_at), filtered by stage, client_id, tag or external_id, or found by words of the title or client name (q). Pass next_cursor as cursor for the next page.',
      kind: 'read',
      input: DealListQuery.unwrap(),
      output: pageOf(Deal.unwrap()),
      run: (q) => api.call('GET', '/v1/deals', { query: q }),
    }),
    tool({
      name: 'summarize_pipeline',
      title: 'Summarize the pipeline',
      description:
        "Each stage's number of deals and their value per currency (exact sums), for all deals or those of a client_id, a tag or words of the title or client name (q). Answers 'how much is in negotiation?' without listing every deal.",
      kind: 'read',
      input: DealSummaryQuery.unwrap(),
      output: DealSummary.unwrap(),
      run: (q) => api.call('GET', '/v1/deals/summary', { query: q }),
    }),
    tool({
      name: 'get_deal',
      title: 'Get a deal',
      description: 'Gets one deal by id.',
      kind: 'read',
      input: DealId,
      output: Deal.unwrap(),
      run: ({ id }) => api.call('GET', `/v1/deals/${pathId(id)}`),
    }),
    tool({
      name: 'create_deal',
      title: 'Create a deal',
      description: 'Creates a deal in a pipeline stage. value is in major units (19.99) with at most the currency’s decimals.',
      kind: 'create',
      input: DealCreate.unwrap(),
      output: Deal.unwrap(),
      run: ({ idempotency_key, ...body }: Keyed) => api.call('POST', '/v1/deals', { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'update_deal',
      title: 'Update a deal',
      description: 'Changes the given fields of a deal. Moving an open deal to another open stage works here; closed deals move only through reopen_deal.',
      kind: 'update',
      input: z.object({ ...DealId.shape, ...DealUpdate.unwrap().shape }),
      output: Deal.unwrap(),
      run: ({ id, idempotency_key, ...body }: { id: string } & Keyed) =>
        api.call('PATCH', `/v1/deals/${pathId(id)}`, { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'move_deal_stage',
      title: 'Move a deal to a stage',
      description:
        'Moves an open deal to another stage (its win probability follows the stage). Use win_deal / lose_deal to close it, reopen_deal for closed deals.',
      kind: 'update',
      input: z.object({ ...DealId.shape, stage: Stage.unwrap() }),
      output: Deal.unwrap(),
      run: ({ id, stage, idempotency_key }: { id: string; stage: string } & Keyed) =>
        api.call('PATCH', `/v1/deals/${pathId(id)}`, { body: { stage }, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'win_deal',
      title: 'Win a deal',
      description: 'Marks an open deal won (sets won_at; emits deal.won once).',
      kind: 'update',
      input: DealId,
      output: Deal.unwrap(),
      run: ({ id, idempotency_key }: { id: string } & Keyed) => api.call('POST', `/v1/deals/${pathId(id)}/win`, { idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'lose_deal',
      title: 'Lose a deal',
      description: 'Marks an open deal lost, with an optional reason.',
      kind: 'update',
      input: z.object({ ...DealId.shape, reason: z.string().max(500).optional() }),
      output: Deal.unwrap(),
      run: ({ id, reason, idempotency_key }: { id: string; reason?: string } & Keyed) =>
        api.call('POST', `/v1/deals/${pathId(id)}/lose`, { body: reason === undefined ? {} : { reason }, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'reopen_deal',
      title: 'Reopen a deal',
      description: 'Reopens a won or lost deal into an open stage (lead_in, qualified, proposal or negotiation).',
      kind: 'update',
      input: z.object({ ...DealId.shape, stage: Stage.unwrap() }),
      output: Deal.unwrap(),
      run: ({ id, stage, idempotency_key }: { id: string; stage: string } & Keyed) =>
        api.call('POST', `/v1/deals/${pathId(id)}/reopen`, { body: { stage }, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'delete_deal',
      title: 'Delete a deal',
      description: 'Deletes a deal for good; its invoices stay, without the deal.',
      kind: 'destroy',
      input: DealId,
      output: Deleted,
      run: ({ id, idempotency_key }: { id: string } & Keyed) => api.call('DELETE', `/v1/deals/${pathId(id)}`, { idempotencyKey: idempotency_key }),
    }),
  ];
}
