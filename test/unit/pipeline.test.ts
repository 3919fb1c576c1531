import { describe, expect, it } from 'vitest';
import { STAGES, checkTransition, type Stage, type StageChange } from '../../src/domain/pipeline.js';

const OPEN: Stage[] = ['lead_in', 'qualified', 'proposal', 'negotiation'];

function outcome(from: Stage, to: Stage, via: StageChange): 'ok' | string {
  try {
    checkTransition(from, to, via);
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe('deal transitions', () => {
  it('lets open deals move to any stage by PATCH, and close them', () => {
    for (const from of OPEN) for (const to of STAGES) expect(outcome(from, to, 'patch')).toBe('ok');
  });

  it('refuses every PATCH that changes or repeats the stage of a closed deal', () => {
    for (const from of ['won', 'lost'] as Stage[]) for (const to of STAGES) expect(outcome(from, to, 'patch')).toBe('invalid_transition');
  });

  it('wins and loses only open deals', () => {
    for (const from of OPEN) {
      expect(outcome(from, 'won', 'win')).toBe('ok');
      expect(outcome(from, 'lost', 'lose')).toBe('ok');
    }
    expect(outcome('won', 'won', 'win')).toBe('invalid_transition');
    expect(outcome('lost', 'won', 'win')).toBe('invalid_transition');
    expect(outcome('won', 'lost', 'lose')).toBe('invalid_transition');
  });

  it('reopens closed deals into open stages only', () => {
    for (const from of ['won', 'lost'] as Stage[]) {
      for (const to of OPEN) expect(outcome(from, to, 'reopen')).toBe('ok');
      expect(outcome(from, 'won', 'reopen')).toBe('invalid_transition');
      expect(outcome(from, 'lost', 'reopen')).toBe('invalid_transition');
    }
    for (const from of OPEN) expect(outcome(from, 'qualified', 'reopen')).toBe('invalid_transition');
  });
});
