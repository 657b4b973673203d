import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LoadConfigOptions, type LoadedConfig, loadConfig } from '../load-config.js';

/** A throwaway OS home with an agent home and a project dir in it. */
export interface TempLayout {
  /** The temp root (removed by `cleanup`). */
  root: string;
  /** Plays the user's OS home (`homeDir`). */
  homeDir: string;
  /** `<homeDir>/.soong-agent`, created. */
  home: string;
  /** `<root>/project`, created. */
  projectDir: string;
  /** Writes `relative` (under `home` unless absolute) and returns its absolute path. */
  write(relative: string, content: string | Uint8Array, mode?: number): string;
  /** `loadConfig` of this home, project and OS home; `options` override any of them. */
  load(options?: Partial<LoadConfigOptions>): LoadedConfig;
  cleanup(): void;
}

/** Creates a temp layout; call `cleanup` in `afterEach`. */
export function createTempLayout(): TempLayout {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-config-')));
  const homeDir = path.join(root, 'os-home');
  const home = path.join(homeDir, '.soong-agent');
  const projectDir = path.join(root, 'project');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.mkdirSync(projectDir, { recursive: true });
  return {
    root,
    homeDir,
    home,
    projectDir,
    write(relative, content, mode = 0o600) {
      const file = path.isAbsolute(relative) ? relative : path.join(home, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      fs.chmodSync(file, mode);
      return file;
    },
    load(options = {}) {
      return loadConfig({ home, projectDir, homeDir, ...options });
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** True when file permissions do not bind us (root). */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
