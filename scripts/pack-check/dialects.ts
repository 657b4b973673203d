// A consumer of @soong-agent/dialects alone, installed from its packed tarball.
import { DialectError, getDialect, hasDialect } from '@soong-agent/dialects';

let code = '';
try {
  getDialect('no-such-dialect');
} catch (error) {
  if (DialectError.isInstance(error)) code = error.code;
}
if (code !== 'UNKNOWN_DIALECT' || hasDialect('no-such-dialect')) throw new Error('getDialect');
console.log('ok @soong-agent/dialects');
