import { Argument, type Command } from 'commander';
import { TRIGGERABLE_EVENT_TYPES, type TriggerableEventType } from '../../../domain/event-types.js';
import { lazyActions, subcommand } from '../../command-definition.js';
import { examples } from '../../help.js';

const run = lazyActions(() => import('./trigger.js'));

/** `crm trigger`. Definitions only; the code is imported when the command runs. */
export function registerTriggerCommand(program: Command): void {
  subcommand(
    program,
    'trigger',
    'Make the API calls that cause an event (e.g. deal.won creates a deal and wins it)',
    examples(
      [['crm trigger deal.won', 'creates a deal and wins it'], ['crm trigger invoice.paid --json']],
      "invoice.overdue and account.trial_ended come from the account's clock: `crm sandbox clock advance 30d`.",
    ),
  )
    .addArgument(new Argument('<event-type>', 'the event to cause').choices(TRIGGERABLE_EVENT_TYPES))
    .action(run((m, g, type: TriggerableEventType) => m.triggerCommand(g, type)));
}
