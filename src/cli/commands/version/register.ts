import type { Command } from 'commander';
import { VERSION } from '../../../version.js';
import type { GlobalOptions } from '../../api.js';
import { subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';
import { printJson } from '../../output.js';

/** `crm version`: small enough to run where it is defined. */
export function registerVersionCommand(program: Command): void {
  subcommand(
    program,
    'version',
    'Print the version of crm and of the Node.js it runs on (the single binary embeds its own)',
    examples([['crm version'], ['crm version --json']]),
  ).action((_opts: unknown, cmd: Command) => {
    const about = { version: VERSION, node: process.version, platform: process.platform, arch: process.arch };
    if (cmd.optsWithGlobals<GlobalOptions>().json) printJson(about);
    else process.stdout.write(`crm ${about.version} (Node.js ${about.node}, ${about.platform}-${about.arch})\n`);
  });
}
