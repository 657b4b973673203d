export {
  createHookSession,
  type HookSession,
  type HookSessionOptions,
  type StopResult,
} from './hook-session.js';
