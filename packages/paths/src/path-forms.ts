import path from 'node:path';
import { expandHome } from './expand-home.js';
import { type RealpathMemo, realPathOfLongestAncestor } from './real-path.js';

/** Where relative paths and `~` in {@link pathForms} are taken from. */
export interface PathFormsContext {
  /** Relative paths are resolved against it (itself resolved against the current dir). */
  projectDir: string;
  /** The OS home, absolute; `~` and `~/…` expand to it. */
  homeDir: string;
}

/**
 * Every form a path can be taken in (spec §1.2), deduplicated, the written form first: as written
 * (`~` expanded, resolved against the project dir, normalised) and with symlinks resolved through
 * its longest existing ancestor ({@link realPathOfLongestAncestor}) — both of the normalised path
 * and, when it has a `..` segment, of the path as the OS walks it (`link/..` is the parent of the
 * link's target, not the link's parent). A path is "under" a root when any form is under any form
 * of the root. `memo` shares resolutions between the paths of one decision.
 */
export function pathForms(
  written: string,
  context: PathFormsContext,
  memo: RealpathMemo = new Map(),
): string[] {
  const expanded = expandHome(written, context.homeDir);
  const normalised = path.resolve(context.projectDir, expanded);
  const forms = [normalised];
  addForm(forms, realPathOfLongestAncestor(normalised, memo));
  // Only `..` makes the OS walk differ from the normalised path (after a symlink).
  if (PARENT_SEGMENT.test(expanded)) {
    const raw = path.isAbsolute(expanded)
      ? expanded
      : `${path.resolve(context.projectDir)}${path.sep}${expanded}`;
    addForm(forms, realPathOfLongestAncestor(raw, memo));
  }
  return forms;
}

const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/;

function addForm(forms: string[], form: string): void {
  if (!forms.includes(form)) forms.push(form);
}
