/** What the server's thread and the checkpoint thread (checkpoint-thread.ts) say to each other. */
export type CheckpointMessage = { op: 'checkpoint'; path: string; signal: Int32Array } | { op: 'release'; path: string; signal: Int32Array; seq: number };

/** The slots of a database's shared signal: a checkpoint asked for and not begun (0 or 1)… */
export const PENDING = 0;
/** …and the number of the last release the thread has done. */
export const RELEASED = 1;
