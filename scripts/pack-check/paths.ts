// A consumer of @soong-agent/paths alone, installed from its packed tarball.
import { isPathInside } from '@soong-agent/paths';

if (!isPathInside('/p/src/a.ts', '/p/src') || isPathInside('/p/src2/a.ts', '/p/src')) {
  throw new Error('isPathInside');
}
console.log('ok @soong-agent/paths');
