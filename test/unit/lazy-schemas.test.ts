// The resource schemas are built on first use (src/schemas/lazy.ts), not when their modules load:
// that was ~15 ms of every sandbox start (docs/benchmarks.md), and their building blocks (common.ts) ~11 ms
// more. These tests hold the mechanics, and that a schema module's import builds nothing.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildDeclaredSchemas, buildOnce, lazySchema } from '../../src/schemas/lazy.js';
import { Account } from '../../src/schemas/account.js';
import { Currency } from '../../src/schemas/common.js';
import { Lead, LeadCreate } from '../../src/schemas/lead.js';

/** Whether zod's global registry holds a schema under this id (its `.meta({ id })`). */
const registered = (id: string) => (z.globalRegistry as unknown as { _idmap: Map<string, unknown> })._idmap.has(id);

describe('lazySchema', () => {
  it('builds once, on first use, and validates and infers as the schema it builds', () => {
    let builds = 0;
    const Thing = lazySchema(() => {
      builds++;
      return z.strictObject({ name: z.string().min(1) });
    });
    expect(builds).toBe(0);
    expect(Thing.safeParse({ name: 'x' }).success).toBe(true);
    const failed = Thing.safeParse({ name: '', other: 1 });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((issue) => issue.code).sort()).toEqual(['too_small', 'unrecognized_keys']);
    expect(Thing.unwrap()).toBe(Thing.unwrap());
    expect(Object.keys(Thing.unwrap().shape)).toEqual(['name']);
    expect(builds).toBe(1);
    const typed: z.infer<typeof Thing> = { name: 'typed' };
    expect(Thing.parse(typed)).toEqual(typed);
  });

  it('registers an id once however often it is unwrapped (a second build would throw on the id)', () => {
    const Named = lazySchema(() => z.object({ n: z.number() }).meta({ id: 'LazySchemaTestNamed' }));
    expect(registered('LazySchemaTestNamed')).toBe(false);
    Named.unwrap();
    Named.unwrap();
    expect(registered('LazySchemaTestNamed')).toBe(true);
  });
});

describe('buildOnce', () => {
  it('builds a part on its first call and hands out that same part after', () => {
    let builds = 0;
    const Part = buildOnce(() => {
      builds++;
      return z.string().max(3);
    });
    expect(builds).toBe(0);
    const first = Part();
    expect(Part()).toBe(first);
    expect(builds).toBe(1);
    expect(first.safeParse('abcd').success).toBe(false);
  });

  it('shares one instance among the schemas built from it, as a plain value did', () => {
    expect(Currency()).toBe(Currency());
    expect(Currency().safeParse('EUR').success).toBe(true);
    expect(Currency().safeParse('XXX').success).toBe(false);
  });
});

describe('the resource schemas', () => {
  it("build their modules' parts with them, not at import (PlanLimit: a part with an id)", () => {
    expect(registered('PlanLimit')).toBe(false);
    Account.unwrap();
    expect(registered('PlanLimit')).toBe(true);
  });

  it('are not built when their module is imported, and all are by buildDeclaredSchemas', () => {
    expect(registered('Lead')).toBe(false);
    expect(registered('LeadCreate')).toBe(false);
    expect(LeadCreate.safeParse({ first_name: 'Ada' }).success).toBe(true);
    expect(registered('LeadCreate')).toBe(true);
    expect(registered('Lead')).toBe(false); // the response schema: nobody asked for it yet
    expect(registered('LeadList')).toBe(false);
    buildDeclaredSchemas();
    expect(registered('Lead')).toBe(true);
    expect(registered('LeadList')).toBe(true);
    expect(z.globalRegistry.get(Lead.unwrap())?.id).toBe('Lead');
  });
});
