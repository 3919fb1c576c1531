import { ApiError } from '../errors.js';

/** The one default pipeline (docs/reference/states.md#deals-the-pipeline): stages in order with their default win probabilities. */
export const STAGES = ['lead_in', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
export type Stage = (typeof STAGES)[number];

export const STAGE_PROBABILITY: Record<Stage, number> = {
  lead_in: 0.1,
  qualified: 0.25,
  proposal: 0.5,
  negotiation: 0.75,
  won: 1.0,
  lost: 0.0,
};

export const STAGE_NAMES: Record<Stage, string> = {
  lead_in: 'Lead in',
  qualified: 'Qualified',
  proposal: 'Proposal',
  negotiation: 'Negotiation',
  won: 'Won',
  lost: 'Lost',
};

export const isClosed = (stage: Stage): boolean => stage === 'won' || stage === 'lost';

/** How a stage change was asked for: a PATCH, or one of the explicit win/lose/reopen actions. */
export type StageChange = 'patch' | 'win' | 'lose' | 'reopen';

/**
 * The transition rules in one place. Open stages move freely; closing is allowed from any open
 * stage; a closed deal moves only through `reopen`, and only to an open stage.
 */
export function checkTransition(from: Stage, to: Stage, via: StageChange): void {
  const refuse = (why: string) => new ApiError('invalid_transition', why);
  if (via === 'reopen') {
    if (!isClosed(from)) throw refuse(`The deal is open (stage '${from}'); only won or lost deals can be reopened.`);
    if (isClosed(to)) throw refuse(`Reopen needs an open stage, not '${to}'.`);
    return;
  }
  if (isClosed(from) && from !== to) {
    throw refuse(`The deal is ${from}; reopen it first with POST /v1/deals/{id}/reopen {"stage": "…"}.`);
  }
  if (isClosed(from) && from === to) throw refuse(`The deal is already ${from}.`);
}
