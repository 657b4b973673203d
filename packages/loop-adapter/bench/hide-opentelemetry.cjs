// Preload (`node --require`) that makes @opentelemetry/api unresolvable, as in an app that does
// not install it: the OpenTelemetry benchmark compares the engine with and without it.
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveWithoutOpenTelemetry(request, ...rest) {
  if (request === '@opentelemetry/api') {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
