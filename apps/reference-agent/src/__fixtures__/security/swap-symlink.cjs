// Swaps symlinks for as long as it runs: each LINK (argv pairs: LINK TARGET_A TARGET_B) is pointed
// at TARGET_A, then TARGET_B, then A again, each time by an atomic rename of a fresh symlink, so
// the link always exists. Prints "ready" after the first round; the test kills it.
const fs = require('node:fs');

const pairs = [];
for (let index = 2; index + 2 < process.argv.length; index += 3) {
  pairs.push(process.argv.slice(index, index + 3));
}
let round = 0;
for (;;) {
  for (const [link, first, second] of pairs) {
    const temp = `${link}.swap-${process.pid}`;
    fs.rmSync(temp, { force: true });
    fs.symlinkSync(round % 2 === 0 ? first : second, temp);
    fs.renameSync(temp, link);
  }
  if (round === 0) process.stdout.write('ready\n');
  round += 1;
}
