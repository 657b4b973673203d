// Compares the two sides of a case and decides its verdict against the list of deliberate
// differences (deliberate.json).
import { readFileSync } from 'node:fs';

/** The observations compared between the real agent and ours, with how a table names them. */
export const COMPARED_FIELDS = /** @type {const} */ ([
  'ran',
  'rewritten',
  'toldReason',
  'toldContext',
  'hookCalls',
  'turns',
]);

/**
 * One listed deliberate difference.
 * @typedef {object} DeliberateDifference
 * @property {string[]} agents agent names, or ["*"]
 * @property {string[]} cases case ids
 * @property {string[]} [fields] the observations allowed to differ (default: any)
 * @property {boolean} [untilDeliverContext] only while ours runs without `[hooks] deliver_context`
 * @property {string} reason why we differ on purpose
 */

/** Reads and checks the list; a malformed entry is an error naming its index. */
export function loadDeliberate(file, knownCases, knownAgents) {
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  const list = parsed.differences;
  if (!Array.isArray(list)) throw new Error(`${file}: "differences" must be an array`);
  list.forEach((entry, index) => {
    const where = `${file}: differences[${index}]`;
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '')
      throw new Error(`${where}.reason: say why the difference is deliberate`);
    for (const name of entry.agents ?? [])
      if (name !== '*' && !knownAgents.includes(name))
        throw new Error(
          `${where}.agents: unknown agent "${name}" (known: ${knownAgents.join(', ')})`,
        );
    for (const id of entry.cases ?? [])
      if (!knownCases.includes(id)) throw new Error(`${where}.cases: unknown case "${id}"`);
    for (const field of entry.fields ?? [])
      if (!COMPARED_FIELDS.includes(field))
        throw new Error(
          `${where}.fields: unknown field "${field}" (known: ${COMPARED_FIELDS.join(', ')})`,
        );
  });
  return /** @type {DeliberateDifference[]} */ (list);
}

/** The fields where the two observations differ. */
export function differingFields(real, ours) {
  return COMPARED_FIELDS.filter((field) => real[field] !== ours[field]);
}

/**
 * The verdict of one case: `agree`, `deliberate` (every difference listed), `DIFFERENT` (an
 * unlisted difference) or `ERROR` (a side timed out or did not run).
 */
export function verdictOf({ agent, caseId, real, ours, deliberate, deliverContext }) {
  if (real === undefined || ours === undefined || real.timedOut || ours.timedOut)
    return { verdict: 'ERROR', fields: [], entries: [] };
  const fields = differingFields(real, ours);
  if (fields.length === 0) return { verdict: 'agree', fields, entries: [] };
  const entries = deliberate.filter(
    (entry) =>
      (entry.agents.includes('*') || entry.agents.includes(agent)) &&
      entry.cases.includes(caseId) &&
      !(entry.untilDeliverContext === true && deliverContext),
  );
  const covered = fields.every((field) =>
    entries.some((entry) => entry.fields === undefined || entry.fields.includes(field)),
  );
  return { verdict: covered ? 'deliberate' : 'DIFFERENT', fields, entries };
}

/** One observation in a few words, for the table. */
export function describe(observation) {
  if (observation === undefined) return 'did not run';
  const parts = [observation.ran ? 'ran' : 'blocked'];
  if (observation.rewritten) parts[0] = 'ran rewritten';
  const told = [observation.toldReason ? 'reason' : '', observation.toldContext ? 'context' : '']
    .filter(Boolean)
    .join('+');
  if (told !== '') parts.push(`told ${told}`);
  parts.push(
    `hook×${observation.hookCalls}`,
    `${observation.turns} turn${observation.turns === 1 ? '' : 's'}`,
  );
  if (observation.timedOut) parts.push('TIMED OUT');
  else if (observation.exitCode !== 0) parts.push(`exit ${observation.exitCode}`);
  if (observation.importNote !== undefined) parts.push('not imported');
  return parts.join(', ');
}

/**
 * How ours' hook input differs from the real agent's, by key (`tool_input.command`), or undefined
 * when they match or a side's hook did not run.
 */
export function inputKeyDifference(real, ours) {
  if (real === undefined || ours === undefined) return undefined;
  const realKeys = real.inputKeys ?? [];
  const ourKeys = ours.inputKeys ?? [];
  if (realKeys.length === 0 || ourKeys.length === 0) return undefined;
  const missing = realKeys.filter((key) => !ourKeys.includes(key));
  const extra = ourKeys.filter((key) => !realKeys.includes(key));
  if (missing.length === 0 && extra.length === 0) return undefined;
  return [
    missing.length > 0 ? `ours lacks ${missing.join(', ')}` : '',
    extra.length > 0 ? `ours adds ${extra.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}
