import { z } from 'zod';

/** Risk class of a tool; also always one of its tags. */
export const RiskClassSchema = z.enum(['readonly', 'write', 'dangerous']);
/** Risk class of a tool: `readonly`, `write` or `dangerous`. */
export type RiskClass = z.infer<typeof RiskClassSchema>;
