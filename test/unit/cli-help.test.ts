import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';

/**
 * Every command and subcommand of `crm`, as the program builder makes them (nothing hard-coded),
 * shows at least one example in its --help: an `Examples:` section with a `$ crm …` line.
 */
function walk(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => walk(sub, [...path, sub.name()]))];
}

/** `crm <path> --help` parsed as the CLI parses it, its output captured instead of printed. */
async function helpOf(path: string[]): Promise<string> {
  const program = buildProgram();
  let out = '';
  const capture = (command: Command): void => {
    command.exitOverride().configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
    command.commands.forEach(capture);
  };
  capture(program);
  await expect(program.parseAsync(['node', 'crm', ...path, '--help'])).rejects.toMatchObject({ code: 'commander.helpDisplayed' });
  return out;
}

const paths = walk(buildProgram());

describe('crm --help', () => {
  it('finds the whole command tree (a sanity check on the walk)', () => {
    const names = paths.map((p) => p.join(' '));
    for (const known of ['', 'sandbox start', 'sandbox clock advance', 'keys create', 'sync import', 'webhooks recover', 'sdk generate']) {
      expect(names).toContain(known);
    }
    expect(paths.length).toBeGreaterThan(40);
  });

  it('shows --max-field-size of sync import with its default and the units it takes', async () => {
    const help = await helpOf(['sync', 'import']);
    expect(help).toMatch(
      /--max-field-size <size>\s+the most characters a CSV field may have \(a row: 4\s+times that\)[\s\S]*?\(1M = 1,048,576\) \(default: 1M\)/,
    );
  });

  it.each(paths.map((p) => [p.length ? p.join(' ') : '(crm)', p] as const))('%s has an Examples: section with a crm line', async (_name, path) => {
    const help = await helpOf(path);
    expect(help).toContain(`Usage: crm ${path.join(' ')}`.trimEnd());
    const examples = help.slice(help.indexOf('\nExamples:\n'));
    expect(help).toContain('\nExamples:\n');
    const lines = examples.split('\n').filter((l) => /^\s+\$ /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    // Every example is a crm command (or pipes into one), and names this command when it is a leaf.
    for (const line of lines) expect(line).toMatch(/\bcrm\b/);
    const leaf = paths.filter((p) => p.length > path.length && p.slice(0, path.length).join(' ') === path.join(' ')).length === 0;
    if (leaf && path.length)
      expect(
        lines.some((l) => l.includes(`crm ${path.join(' ')}`) || l.includes(`crm --profile prod ${path.join(' ')}`)),
        lines.join('\n'),
      ).toBe(true);
  });
});
