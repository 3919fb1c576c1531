/**
 * Where `crm listen` keeps its secret and position (listen-state.ts), for the --state of `crm listen`
 * and `crm events resend|replay`. Here, not there: that module loads node:crypto (~6 ms), and the
 * definitions that use this are built for every command, --help too.
 */
export const DEFAULT_STATE_FILE = '.crm/listen.json';

export const STATE_HELP = 'where crm listen keeps its secret and position';
