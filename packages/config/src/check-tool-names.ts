import os from 'node:os';
import { findUnknownTools, type RuleSpec } from '@soong-agent/matcher';
import { type ConfigWarning, createWarning } from './config-warnings.js';
import type { LoadedConfig } from './load-config.js';

/**
 * UNKNOWN_TOOL warnings for `tool` values that name no tool in `knownTools`, with a "did you mean"
 * and the position in hooks.json. The loader does not know the tools; the engine and
 * `hooks validate` call this with theirs.
 */
export function checkToolNames(
  config: LoadedConfig,
  knownTools: readonly string[],
): ConfigWarning[] {
  const source = config.hooksSource;
  const specs: readonly RuleSpec[] =
    source?.specs ??
    config.hooks.rules.map((rule) =>
      rule.matcher === undefined
        ? { event: rule.event }
        : { event: rule.event, matcher: rule.matcher },
    );
  return findUnknownTools(specs, knownTools).map((unknown) => {
    const rule = config.hooks.rules[unknown.ruleIndex];
    const jsonPath = [
      ...(source?.rulePath(unknown.ruleIndex) ?? [
        'hooks',
        rule?.event ?? '?',
        rule?.ruleIndex ?? 0,
      ]),
      ...unknown.path,
    ];
    return createWarning({
      code: 'UNKNOWN_TOOL',
      file: config.hooksFile,
      homeDir: source?.homeDir ?? os.homedir(),
      position: source?.locate(jsonPath),
      jsonPath,
      text: {
        problem: `${JSON.stringify(unknown.tool)} names no known tool, so this rule never matches`,
        fix:
          unknown.suggestion === undefined
            ? `known tools: ${knownTools.join(', ')}`
            : `did you mean ${JSON.stringify(unknown.suggestion)}?`,
      },
    });
  });
}
