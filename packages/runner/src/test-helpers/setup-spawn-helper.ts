import { inject } from 'vitest';
import { setSpawnHelper, setSpawnHelperEntry } from '../spawn-helper.js';

// Every test file runs through the compiled spawn helper, or without it when asked.
setSpawnHelperEntry(inject('spawnHelperEntry'));
if (process.env.SOONG_AGENT_TEST_SPAWN_HELPER === 'off') setSpawnHelper(false);
