import { Argument, type Command } from 'commander';
import { TRIGGERABLE_EVENT_TYPES, type TriggerableEventType } from '../../../domain/event-types.js';
import type { GlobalOptions } from '../../api.js';
import { examples } from '../../help.js';

const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

/** `crm trigger`. Definitions only; the code is imported when the command runs. */
export function registerTriggerCommand(program: Command): void {
  program
    .command('trigger')
    .description('Make the API calls that cause an event (e.g. deal.won creates a deal and wins it)')
    .addArgument(new Argument('<event-type>', 'the event to cause').choices(TRIGGERABLE_EVENT_TYPES))
    .addHelpText(
      'after',
      examples(
        [['crm trigger deal.won', 'creates a deal and wins it'], ['crm trigger invoice.paid --json']],
        "invoice.overdue and account.trial_ended come from the account's clock: `crm sandbox clock advance 30d`.",
      ),
    )
    .action(async (type: TriggerableEventType, _opts: unknown, cmd: Command) => {
      const { triggerCommand } = await import('./trigger.js');
      await triggerCommand(globals(cmd), type);
    });
}
