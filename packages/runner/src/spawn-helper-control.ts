// Shared by the host's side of the spawn helper and the helper itself (which loads nothing more).

/**
 * Host → helper, one JSON line each on their own pipe (the helper's descriptor
 * {@link CONTROL_FD}): a stop never waits behind other runs' inputs (megabytes each) on the channel,
 * so it may reach the helper before the run it names.
 */
export type HelperControl =
  | { t: 'abort'; id: number }
  | { t: 'stop'; id: number; signal: NodeJS.Signals };

/** The helper's descriptor of the control pipe. @internal */
export const CONTROL_FD = 4;
