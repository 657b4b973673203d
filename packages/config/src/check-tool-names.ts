import os from 'node:os';
import type { RuleSpec } from '@soong-agent/matcher';
import { findUnknownTools } from '@soong-agent/matcher/internal';
import { MCP_TOOL_PREFIX } from '@soong-agent/protocol';
import { knownToolNames } from './config-file-schema.js';
import { type ConfigWarning, createWarning } from './config-warnings.js';
import type { LoadedConfig } from './load-config.js';
import { CONFIG_TOOL_ALIASES } from './tool-aliases.js';

/**
 * UNKNOWN_TOOL warnings for `tool` values that name no tool in `knownTools`, with a "did you mean"
 * and the position in hooks.json. The loader does not know the tools; the engine and
 * `hooks validate` call this with theirs, and the names config.toml's `[tools] known` declares
 * count as known too. Names starting with `mcp__` (MCP tools behind
 * `soong-agent mcp-proxy`) are never reported.
 */
export function checkToolNames(
  config: LoadedConfig,
  toolsOfHost: readonly string[],
): ConfigWarning[] {
  // What the host declares in config.toml counts as known too (spec §11: [tools] known).
  const knownTools = [...new Set([...toolsOfHost, ...knownToolNames(config.settings)])];
  const source = config.hooksSource;
  const specs: readonly RuleSpec[] =
    source?.specs ??
    config.hooks.rules.map((rule) =>
      rule.matcher === undefined
        ? { event: rule.event }
        : { event: rule.event, matcher: rule.matcher },
    );
  // Tools of MCP servers behind `soong-agent mcp-proxy` (mcp__<server>__<tool>) are known only
  // to the proxy, which learns them from the server: never reported here.
  const unknownTools = findUnknownTools(specs, knownTools, {
    toolAliases: CONFIG_TOOL_ALIASES,
  }).filter((unknown) => !unknown.tool.startsWith(MCP_TOOL_PREFIX));
  return unknownTools.map((unknown) => {
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
