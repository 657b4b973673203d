// Keys of a Claude Code settings file that a soong-agent hooks.json never has.
const CLAUDE_SETTINGS_KEYS = new Set([
  'permissions',
  'env',
  'model',
  'statusLine',
  'enabledPlugins',
  'apiKeyHelper',
  'includeCoAuthoredBy',
  'cleanupPeriodDays',
  'outputStyle',
  'disableAllHooks',
  'enableAllProjectMcpServers',
]);

/**
 * True when a hooks.json that failed validation is a pasted Claude Code settings file: no
 * `version`, and a Claude-only key or a `hooks` object whose rules use a string `matcher`
 * (Claude Code's regex) — so the error can point at `hooks import`, which converts it.
 */
export function looksLikeClaudeSettings(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const document = value as Record<string, unknown>;
  if ('version' in document) return false;
  if (Object.keys(document).some((key) => CLAUDE_SETTINGS_KEYS.has(key))) return true;
  const hooks = document.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return false;
  return Object.values(hooks).some(
    (rules) =>
      Array.isArray(rules) &&
      rules.some(
        (rule) =>
          typeof rule === 'object' &&
          rule !== null &&
          'hooks' in rule &&
          (typeof (rule as { matcher?: unknown }).matcher === 'string' || !('matcher' in rule)),
      ),
  );
}
