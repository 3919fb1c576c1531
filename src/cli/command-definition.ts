import type { Command, CommandOptions } from 'commander';
import type { GlobalOptions } from './api.js';

/**
 * A command of `parent` with what every command declares: a description, and the text its --help
 * ends with (the examples: help.ts).
 */
export function subcommand(parent: Command, nameAndArgs: string, description: string, helpAfter: string, options?: CommandOptions): Command {
  return parent.command(nameAndArgs, options).description(description).addHelpText('after', helpAfter);
}

/**
 * The actions of a group's commands, whose code is in the module `load` imports: imported only when
 * one of them runs, so that --help stays fast. The function given to the result gets that module,
 * the options with the globals, then what commander passes an action (the command's arguments, then
 * its own options).
 */
export function lazyActions<M>(load: () => Promise<M>) {
  return <A extends unknown[], G extends GlobalOptions = GlobalOptions>(run: (module: M, globals: G, ...args: A) => unknown) =>
    async (...args: [...A, Command]): Promise<void> => {
      const cmd = args.at(-1) as Command;
      await run(await load(), cmd.optsWithGlobals<G>(), ...(args.slice(0, -1) as A));
    };
}
