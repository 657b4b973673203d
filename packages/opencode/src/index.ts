// OpenCode calls every function this module exports as a plugin: it exports the plugin only.
export { SoongHooks as default, SoongHooks } from './soong-hooks.js';
