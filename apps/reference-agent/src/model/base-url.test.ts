import { describe, expect, it } from 'vitest';
import { makeWorkspace } from '../test-helpers/cli.js';
import { modelVendors } from '../test-helpers/model-server.js';
import {
  baseUrlFor,
  keyEnvFor,
  modelServersClosedAfterEach,
  modelWorkspace,
  runPrompt,
  TEST_KEY,
} from '../test-helpers/model-workspace.js';
import { BASE_URL_ENV } from './select.js';

const TIMEOUT = 120_000;
const serve = modelServersClosedAfterEach();

for (const vendor of modelVendors) {
  const name = vendor.name;
  const envName = BASE_URL_ENV[name] as string;
  const answered = (text: string) => [{ frames: vendor.frames({ text }) }];

  describe(`the ${name} provider's address`, () => {
    it(
      `is --base-url, else base_url of [model], else ${envName}, as the vendor's SDK reads it`,
      async () => {
        const flag = await serve(answered('from the flag'));
        const configured = await serve(answered('from config.toml'));
        const fromEnv = await serve([...answered('from the env'), ...answered('again')]);
        const env = { [envName]: ` ${baseUrlFor(vendor, fromEnv.url)} ` };

        const withConfig = modelWorkspace(vendor, configured.url);
        const byFlag = await runPrompt(withConfig, {
          env,
          args: ['--base-url', baseUrlFor(vendor, flag.url)],
        });
        expect(byFlag.code, byFlag.stderr).toBe(0);
        const byConfig = await runPrompt(modelWorkspace(vendor, configured.url), { env });
        expect(byConfig.code, byConfig.stderr).toBe(0);

        // [model] without base_url, and --model naming the provider without any [model].
        const noBaseUrl = makeWorkspace({
          home: { 'config.toml': `[model]\nprovider = "${name}"\nmodel = "m"\n` },
        });
        const ws = { ...noBaseUrl, env: { ...noBaseUrl.env, [keyEnvFor(vendor)]: TEST_KEY } };
        const byEnv = await runPrompt(ws, { env });
        expect(byEnv.code, byEnv.stderr).toBe(0);
        const bare = makeWorkspace();
        const byEnvAndFlag = await runPrompt(
          { ...bare, env: { ...bare.env, [keyEnvFor(vendor)]: TEST_KEY } },
          { env, args: ['--model', `${name}:m`] },
        );
        expect(byEnvAndFlag.code, byEnvAndFlag.stderr).toBe(0);

        expect([flag, configured, fromEnv].map((server) => server.requests.length)).toEqual([
          1, 1, 2,
        ]);
      },
      TIMEOUT,
    );

    it(
      `exits 2 naming the source when --base-url or ${envName} is not an http(s) URL, or --base-url is given to the scripted model`,
      async () => {
        const workspace = makeWorkspace();
        const env = { ...workspace.env, [keyEnvFor(vendor)]: TEST_KEY };
        const flag = await runPrompt(
          { ...workspace, env },
          { args: ['--model', `${name}:m`, '--base-url', 'file:///etc/passwd'] },
        );
        expect(flag.code).toBe(2);
        expect(flag.stderr).toContain('--base-url "file:///etc/passwd" is not an http(s) URL');
        const fromEnv = await runPrompt(
          { ...workspace, env },
          { args: ['--model', `${name}:m`], env: { [envName]: 'localhost:8080' } },
        );
        expect(fromEnv.code).toBe(2);
        expect(fromEnv.stderr).toContain(`${envName} "localhost:8080" is not an http(s) URL`);
        const scripted = await runPrompt(
          { ...workspace, env },
          { args: ['--model', 'scripted:none.json', '--base-url', 'http://127.0.0.1:1'] },
        );
        expect(scripted.code).toBe(2);
        expect(scripted.stderr).toContain('--base-url is for the openai and anthropic providers');
      },
      TIMEOUT,
    );
  });
}
