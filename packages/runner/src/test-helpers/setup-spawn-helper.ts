import { inject } from 'vitest';
import { setPosixSpawner } from '../posix-spawner.js';
import { setSpawnHelper, setSpawnHelperEntry } from '../spawn-helper.js';

// Every test file runs through the compiled spawn helper, or without it when asked.
setSpawnHelperEntry(inject('spawnHelperEntry'));
if (process.env.SOONG_AGENT_TEST_SPAWN_HELPER === 'off') setSpawnHelper(false);
// The same for the posix spawner (children spawned by Node throughout).
if (process.env.SOONG_AGENT_TEST_POSIX_SPAWNER === 'off') setPosixSpawner(false);
