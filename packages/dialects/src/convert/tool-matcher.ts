import { type Conversion, type ConvertedMatcher, listOf } from './conversion.js';
import {
  alternativesOf,
  compileRegex,
  finiteStrings,
  isAnyTail,
  literalPrefix,
  parseRegex,
  RegexAnalysisError,
  type RegexNode,
} from './regex-analysis.js';

/** One agent's tool names and matcher rules, for converting its tool matchers to ours. */
export interface ToolCatalog {
  /** The agent, in messages ("Claude Code"). */
  agent: string;
  /**
   * Every tool name the agent's hooks see (and matcher aliases) → our tool name(s), or null when we
   * have none.
   */
  names: Readonly<Record<string, string | readonly string[] | null>>;
  /** True when the agent reads `matcher` as an exact name or list (its own rule), not as a regex. */
  isExact(matcher: string): boolean;
  /** The names of an exact matcher. */
  splitExact(matcher: string): string[];
  /** Their MCP tool name → ours (`mcp__server__tool`), or undefined when it is not one. */
  mcpName(name: string): string | undefined;
  /** The server of a regex prefix that selects one MCP server's tools (`mcp__github__`), else undefined. */
  mcpServerOfPrefix(prefix: string): string | undefined;
  /** An MCP tool name of a server nobody has, to see whether a regex matches MCP tools at large. */
  mcpProbe: string;
  /** What the agent does with an invalid regex: compare exactly (Gemini), or reject the hook. */
  invalidRegex: 'exact' | 'reject';
}

/** A list of exact names separated by `|` or `,` (Claude Code, Cursor), blanks dropped. */
export function splitNameList(matcher: string): string[] {
  return matcher
    .split(/[|,]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * Converts one tool matcher (spec §12 import rules): exact names → `{"tool": [...]}` in our names; a
 * regex → the exact set of known tools it matches (the note names it), one server's MCP tools →
 * `{"mcp_server": [...]}` (a second rule), every tool → no matcher; anything else is refused with
 * what to write. Returns the matchers, one rule each (`undefined`: no matcher), or false when the
 * group is refused. Never runs the regex through a backtracking engine.
 */
export function convertToolMatcher(
  matcher: unknown,
  path: string,
  catalog: ToolCatalog,
  conversion: Conversion,
): (ConvertedMatcher | undefined)[] | false {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*')
    return [undefined];
  if (typeof matcher !== 'string') {
    conversion.refuse(path, `a ${Array.isArray(matcher) ? 'list' : typeof matcher}, not a string`);
    return false;
  }
  const shown = JSON.stringify(matcher.length > 200 ? `${matcher.slice(0, 200)}…` : matcher);
  if (matcher.trim() === '' || matcher.trim() === '*') return [undefined];
  if (catalog.isExact(matcher))
    return exactMatcher(catalog.splitExact(matcher), shown, path, catalog, conversion);
  let tree: RegexNode;
  try {
    tree = parseRegex(matcher);
  } catch (error) {
    if (!(error instanceof RegexAnalysisError)) throw error;
    if (!isValidRegExp(matcher)) {
      if (catalog.invalidRegex === 'exact')
        return exactMatcher([matcher], shown, path, catalog, conversion);
      conversion.refuse(
        path,
        `${shown} is not a valid regular expression (${catalog.agent} rejects it)`,
      );
      return false;
    }
    conversion.refuse(
      path,
      `${shown} is a regular expression this import cannot analyse (${error.message}); soong-agent matchers are exact: write {"tool": [...]} with the tools it should match (${knownList(catalog)})`,
    );
    return false;
  }
  return regexMatcher(tree, matcher, shown, path, catalog, conversion);
}

function exactMatcher(
  names: readonly string[],
  shown: string,
  path: string,
  catalog: ToolCatalog,
  conversion: Conversion,
): (ConvertedMatcher | undefined)[] | false {
  const tools: string[] = [];
  const noEquivalent: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const ours = ourNames(name, catalog);
    if (ours === null) noEquivalent.push(name);
    else if (ours === undefined) unknown.push(name);
    else for (const tool of ours) if (!tools.includes(tool)) tools.push(tool);
  }
  if (tools.length === 0) {
    const why = [
      noEquivalent.length > 0 ? `${listOf(noEquivalent)}: no soong-agent equivalent` : '',
      unknown.length > 0
        ? `${listOf(unknown)}: not a ${catalog.agent} tool name (it never matched there either)`
        : '',
    ].filter((part) => part !== '');
    conversion.refuse(path, `${shown} names no tool soong-agent has (${why.join('; ')})`);
    return false;
  }
  if (noEquivalent.length > 0) {
    conversion.note(
      path,
      `${listOf(noEquivalent)} dropped from ${shown}: no soong-agent equivalent; kept ${listOf(tools)}`,
    );
  }
  if (unknown.length > 0) {
    conversion.note(
      path,
      `${listOf(unknown)} dropped from ${shown}: not a ${catalog.agent} tool name (it never matched there either); kept ${listOf(tools)}`,
    );
  }
  return [{ tool: tools }];
}

function regexMatcher(
  tree: RegexNode,
  matcher: string,
  shown: string,
  path: string,
  catalog: ToolCatalog,
  conversion: Conversion,
): (ConvertedMatcher | undefined)[] | false {
  const known = Object.keys(catalog.names);
  let whole: ReturnType<typeof compileRegex>;
  try {
    whole = compileRegex(tree);
  } catch (error) {
    if (!(error instanceof RegexAnalysisError)) throw error;
    conversion.refuse(
      path,
      `${shown} is too large to analyse; write {"tool": [...]} with the tools it should match (${knownList(catalog)})`,
    );
    return false;
  }
  const matchedKnown = known.filter((name) => whole.test(name));
  if (matchedKnown.length === known.length && whole.test(catalog.mcpProbe)) {
    conversion.note(path, `${shown} matches every tool: converted to no matcher`);
    return [undefined];
  }
  const tools: string[] = [];
  const theirs: string[] = [];
  const servers: string[] = [];
  const unconverted: string[] = [];
  const matchNothing: string[] = [];
  const addTheirs = (name: string) => {
    if (!theirs.includes(name)) theirs.push(name);
    for (const tool of ourNames(name, catalog) ?? []) if (!tools.includes(tool)) tools.push(tool);
  };
  for (const alternative of alternativesOf(tree)) {
    const source = alternative.source ?? matcher;
    let compiled: ReturnType<typeof compileRegex>;
    try {
      compiled = compileRegex(alternative);
    } catch {
      unconverted.push(`${JSON.stringify(source)} (too large to analyse)`);
      continue;
    }
    const strings = finiteStrings(alternative);
    const { prefix, rest } = literalPrefix(alternative);
    const server = catalog.mcpServerOfPrefix(prefix);
    if (strings?.every((string) => catalog.mcpName(string) !== undefined)) {
      for (const string of strings) addTheirs(string); // mcp__s__(a|b|c): those tools
      continue;
    }
    if (server !== undefined && isAnyTail(rest)) {
      if (!servers.includes(server)) servers.push(server);
      continue;
    }
    if (compiled.test(catalog.mcpProbe)) {
      unconverted.push(`${JSON.stringify(source)} (it matches MCP tools of every server)`);
      continue;
    }
    const hits = known.filter((name) => compiled.test(name));
    if (hits.length === 0) {
      matchNothing.push(JSON.stringify(source));
      continue;
    }
    for (const name of hits) addTheirs(name);
  }
  if (tools.length === 0 && servers.length === 0) {
    const rule = /^([A-Za-z]+)\((.+)\)$/.exec(matcher);
    if (rule !== null && theirs.length === 0) {
      const ours = ourNames(rule[1] as string, catalog);
      conversion.refuse(
        path,
        `${shown} is a permission-rule spelling (as in "permissions"), not a tool name: ${catalog.agent} reads it as a regular expression that matches no tool, so this hook never ran there; to run it on ${rule[1]} calls write {"tool": ${JSON.stringify(ours ?? [rule[1]])}} and test the input (${JSON.stringify(rule[2])}) in the script`,
      );
      return false;
    }
    const matchedText =
      theirs.length === 0
        ? `; it matches no ${catalog.agent} tool`
        : `; among ${catalog.agent}'s tools it matches ${listOf(theirs)}, none of which soong-agent has`;
    conversion.refuse(
      path,
      `${shown} is a regular expression; soong-agent matchers are exact${matchedText}${unconverted.length > 0 ? `; not convertible: ${unconverted.join(', ')}` : ''}: write {"tool": [...]} with the tools it should match (${knownList(catalog)})`,
    );
    return false;
  }
  const matchers: ConvertedMatcher[] = [];
  const parts: string[] = [];
  if (tools.length > 0) {
    matchers.push({ tool: tools });
    parts.push(`{"tool": ${JSON.stringify(tools)}}`);
  }
  if (servers.length > 0) {
    matchers.push({ mcp_server: servers });
    parts.push(`{"mcp_server": ${JSON.stringify(servers)}} (a second rule with the same hooks)`);
  }
  const dropped = theirs.filter((name) => ourNames(name, catalog) === null);
  conversion.note(
    path,
    `regular expression ${shown} matches exactly ${theirs.length > 0 ? listOf(theirs) : 'no built-in tool'}${servers.length > 0 ? `${theirs.length > 0 ? ' and ' : ', '}every tool of MCP server ${listOf(servers)}` : ''} among ${catalog.agent}'s tools: converted to ${parts.join(' and ')}${dropped.length > 0 ? ` (${listOf(dropped)}: no soong-agent equivalent)` : ''}`,
  );
  if (matchNothing.length > 0) {
    conversion.note(
      path,
      `${listOf(matchNothing)} dropped from ${shown}: matches no ${catalog.agent} tool (it never fired there)`,
    );
  }
  if (unconverted.length > 0) {
    conversion.refuse(
      path,
      `part of ${shown} not converted: ${unconverted.join(', ')}; the rest was`,
    );
  }
  return matchers;
}

/** Their name → ours; null: a tool of theirs we do not have; undefined: not a tool name of theirs. */
export function ourNames(name: string, catalog: ToolCatalog): readonly string[] | null | undefined {
  if (Object.hasOwn(catalog.names, name)) {
    const ours = catalog.names[name] as string | readonly string[] | null;
    return typeof ours === 'string' ? [ours] : ours;
  }
  const mcp = catalog.mcpName(name);
  return mcp === undefined ? undefined : [mcp];
}

function knownList(catalog: ToolCatalog): string {
  const pairs = Object.entries(catalog.names)
    .filter(([, ours]) => ours !== null)
    .map(
      ([theirs, ours]) =>
        `${theirs} = ${typeof ours === 'string' ? ours : (ours as string[]).join('+')}`,
    );
  return `soong-agent names: ${pairs.join(', ')}`;
}

function isValidRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
