import { resolveUserPath } from '@soong-agent/paths/internal';
import { ConfigError, type ConfigIssue } from './config-error.js';
import { ConfigFileSchema, type Settings } from './config-file-schema.js';
import { createIssue, type IssueText, type JsonPath, sortIssues } from './issues.js';
import { isTomlSyntaxError, parseTomlDocument } from './toml-document.js';
import { parameterCollisions } from './tool-arguments.js';
import { describeZodIssues } from './zod-issues.js';

/** config.toml with every default filled in: what a missing file means. */
export function defaultSettings(): Settings {
  return ConfigFileSchema.parse({}, { jitless: true });
}

/**
 * Parses and validates config.toml text. Throws `CONFIG_PARSE_FAILED` for TOML syntax,
 * `CONFIG_INVALID` with every problem found otherwise. `model.script` is resolved against the home.
 */
export function parseSettings(options: {
  text: string;
  file: string;
  home: string;
  homeDir: string;
}): Settings {
  const { text, file, homeDir } = options;
  const document = parseTomlDocument(text);
  if (isTomlSyntaxError(document)) {
    throw new ConfigError({
      code: 'CONFIG_PARSE_FAILED',
      issues: [createIssue({ file, homeDir, position: document.position, text: document.text })],
    });
  }
  const parsed = ConfigFileSchema.safeParse(document.value, { reportInput: true, jitless: true });
  const issues: ConfigIssue[] = [];
  const report = (jsonPath: JsonPath, text: IssueText) =>
    issues.push(
      createIssue({ file, homeDir, position: document.locate(jsonPath), jsonPath, text }),
    );
  if (!parsed.success) {
    for (const problem of describeZodIssues(parsed.error.issues, ConfigFileSchema)) {
      report(problem.jsonPath, problem.text);
    }
  } else {
    const seen = new Set<string>();
    for (const [index, tool] of parsed.data.tools.entries()) {
      if (seen.has(tool.name)) {
        report(['tools', index, 'name'], {
          problem: `a declarative tool named ${JSON.stringify(tool.name)} is already defined`,
          fix: 'give each [[tools]] entry its own name',
        });
      }
      seen.add(tool.name);
      for (const collision of parameterCollisions(tool)) {
        report(['tools', index, 'parameters', collision.name], {
          problem: `parameters ${JSON.stringify(collision.earlier)} and ${JSON.stringify(collision.name)} both become ${collision.variable}: one argument would overwrite the other`,
          fix: 'rename one of them',
        });
      }
    }
  }
  if (issues.length > 0 || !parsed.success) {
    throw new ConfigError({
      code: 'CONFIG_INVALID',
      issues: sortIssues(issues),
      cause: parsed.error,
    });
  }
  const settings = parsed.data;
  if (settings.model.script !== undefined) {
    settings.model.script = resolveUserPath(settings.model.script, options.home, homeDir);
  }
  return settings;
}
