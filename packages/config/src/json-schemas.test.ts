import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateConfigJsonSchemas } from './json-schemas.js';

const schemasDir = new URL('../schemas/', import.meta.url);

describe('generateConfigJsonSchemas', () => {
  it('matches the committed schemas/ files (run `pnpm build && pnpm generate:schemas` when this fails)', () => {
    const generated = generateConfigJsonSchemas();
    expect(generated.map((file) => file.name).sort()).toEqual(
      fs.readdirSync(fileURLToPath(schemasDir)).sort(),
    );
    for (const { name, schema } of generated) {
      const committed = JSON.parse(fs.readFileSync(new URL(name, schemasDir), 'utf8')) as unknown;
      expect(committed, name).toEqual(JSON.parse(JSON.stringify(schema)));
    }
  });

  it('lets editors accept $schema and reject unknown keys in hooks.json', () => {
    const hooks = generateConfigJsonSchemas().find((file) => file.name === 'hooks.schema.json')
      ?.schema as {
      properties: Record<string, { type?: string }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(hooks.properties.$schema?.type).toBe('string');
    expect(hooks.required).toEqual(['version']);
    expect(hooks.additionalProperties).toBe(false);
    expect(Object.keys(hooks.properties)).toEqual(['$schema', 'version', 'hooks']);
  });

  it('documents every config.toml default', () => {
    const config = generateConfigJsonSchemas().find((file) => file.name === 'config.schema.json')
      ?.schema as {
      properties: Record<string, { properties: Record<string, { default?: unknown }> }>;
    };
    const defaults = (section: string) =>
      Object.fromEntries(
        Object.entries(config.properties[section]?.properties ?? {}).map(([key, value]) => [
          key,
          value.default,
        ]),
      );
    expect(defaults('hooks')).toEqual({
      enabled: true,
      default_timeout: 30,
      on_failure: 'ignore',
      stop_loop_limit: 5,
      inline_result_bytes: 16384,
      deliver_context: false,
    });
    expect(defaults('runner')).toEqual({
      env_allowlist: [],
      env_exclude: [],
      max_output_bytes: 1048576,
      kill_grace_ms: 1000,
    });
    expect(defaults('permissions')).toEqual({ readonly: 'allow', write: 'ask', dangerous: 'ask' });
    expect(defaults('model')).toMatchObject({
      max_tokens: 4096,
      stream_idle_timeout: 300,
      request_timeout: 600,
      max_response_bytes: 33554432,
    });
  });
});
