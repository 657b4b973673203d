import path from 'node:path';

const SHELL_SAFE = /^[A-Za-z0-9_./:=@%+,-]+$/;

/** `value` quoted for a POSIX shell when it needs quoting. */
export function shellQuote(value: string): string {
  return SHELL_SAFE.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command line that runs this CLI again, for hints such as "inspect it: …": `soong-agent`
 * when it was started through its bin link (installed, or `npm link`ed), else `node <abs path of
 * cli.js>`, which works from a fresh clone where `soong-agent` is not on PATH.
 */
export function selfCommand(argv: readonly string[] = process.argv): string {
  const script = argv[1];
  if (script === undefined || path.basename(script) === 'soong-agent') return 'soong-agent';
  return `node ${shellQuote(path.resolve(script))}`;
}
