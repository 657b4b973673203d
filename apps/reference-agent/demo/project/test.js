import assert from 'node:assert/strict';
import { greeting } from './src/greeting.js';

assert.equal(greeting('soong'), 'Hello, soong!');
console.log('1 test passed');
