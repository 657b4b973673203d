import type { ConvertOptions, ConvertResult } from '../dialect.js';
import { isRecord } from '../shared.js';
import {
  Conversion,
  type ConvertedHook,
  type ConvertedMatcher,
  hasEvent,
  observeOnlyNote,
  parseConfigJson,
} from './conversion.js';
import { convertToolMatcher, type ToolCatalog } from './tool-matcher.js';

/** What a format's hook converter gets. */
export interface HookContext {
  /** JSON path of the hook, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  path: string;
  /** Their event name. */
  theirEvent: string;
  /** Our event name. */
  event: string;
  conversion: Conversion;
  options: ConvertOptions;
}

/**
 * The Claude Code settings shape, shared by Claude Code, Codex and Gemini CLI:
 * `{"hooks": {<Event>: [{"matcher": …, "hooks": [{"type": "command", …}]}]}}`.
 */
export interface GroupedFormat {
  /** The agent, in messages. */
  agent: string;
  /** Their event → ours (only events with an equivalent here). */
  events: Readonly<Record<string, string>>;
  /** Their events without an equivalent → why (others: a generic reason). */
  unsupported: Readonly<Record<string, string>>;
  /** Their events whose matcher is tested against the tool name. */
  toolEvents: ReadonlySet<string>;
  /** Their events whose matcher is tested against the session's source (`startup`, …). */
  sourceEvents: ReadonlySet<string>;
  /**
   * How the agent compares a source matcher: `list` (split on `|` / `,`, as Claude Code), or
   * `exact` (the whole matcher against the source as one string, as Gemini CLI: a list never
   * fires there). @default 'list'
   */
  sourceMatcher?: 'list' | 'exact';
  /** Their tool names, matcher rule. */
  catalog: ToolCatalog;
  /** Group keys besides `matcher` and `hooks` that are understood (with a note, or silently). */
  groupKeys?: Readonly<Record<string, string | null>>;
  /** Converts one handler; refuses (through `context.conversion`) and returns undefined when it cannot. */
  convertHook(hook: Record<string, unknown>, context: HookContext): ConvertedHook | undefined;
  /** Top-level notes on the settings object (e.g. `disableAllHooks`). */
  settingsNotes?(settings: Record<string, unknown>, conversion: Conversion): void;
  /** A hint when no event key is one of theirs: the file is probably another agent's. */
  otherFormatHint?(events: readonly string[]): string | undefined;
}

/** Converts settings text in the grouped shape (spec §12 import rules). Pure. */
export function convertGrouped(
  format: GroupedFormat,
  text: string,
  options: ConvertOptions = {},
): ConvertResult {
  const conversion = new Conversion(options);
  const settings = parseConfigJson(text, options.file ?? `${format.agent} settings`);
  if (!isRecord(settings)) {
    conversion.refuse('(root)', `not a JSON object (a ${format.agent} hooks file is one)`);
    return conversion.result();
  }
  format.settingsNotes?.(settings, conversion);
  convertHooksObject(format, settings.hooks, 'hooks', conversion, options);
  return conversion.result();
}

/** Converts the `hooks` object of a grouped-shape file into `conversion`. */
export function convertHooksObject(
  format: GroupedFormat,
  hooks: unknown,
  hooksPath: string,
  conversion: Conversion,
  options: ConvertOptions,
): void {
  if (hooks === undefined) {
    conversion.refuse(hooksPath, 'absent: the file configures no hooks');
    return;
  }
  if (!isRecord(hooks)) {
    conversion.refuse(hooksPath, 'not an object of events');
    return;
  }
  const eventNames = Object.keys(hooks);
  const known = eventNames.filter(
    (event) => Object.hasOwn(format.events, event) || Object.hasOwn(format.unsupported, event),
  );
  if (known.length === 0 && eventNames.length > 1) {
    const hint = format.otherFormatHint?.(eventNames);
    conversion.refuse(
      hooksPath,
      `none of ${eventNames.map((event) => JSON.stringify(event)).join(', ')} is a ${format.agent} event: this is not a ${format.agent} hooks file${hint === undefined ? '' : ` (${hint})`}`,
    );
    return;
  }
  for (const [theirEvent, groups] of Object.entries(hooks)) {
    const eventPath = `${hooksPath}.${theirEvent}`;
    const event = Object.hasOwn(format.events, theirEvent) ? format.events[theirEvent] : undefined;
    if (event === undefined || !hasEvent(event)) {
      const why = format.unsupported[theirEvent];
      const hint =
        Object.hasOwn(format.events, theirEvent) || why !== undefined
          ? undefined
          : format.otherFormatHint?.([theirEvent]);
      conversion.refuse(
        eventPath,
        why ??
          `soong-agent has no ${JSON.stringify(theirEvent)} event${event === undefined ? ` (and it is not a ${format.agent} event${hint === undefined ? '' : `; ${hint}`})` : ' in this version'}`,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      conversion.refuse(eventPath, 'not an array of matcher groups');
      continue;
    }
    for (const [groupIndex, group] of groups.entries()) {
      convertGroup(
        format,
        theirEvent,
        event,
        group,
        `${eventPath}[${groupIndex}]`,
        conversion,
        options,
      );
    }
  }
}

function convertGroup(
  format: GroupedFormat,
  theirEvent: string,
  event: string,
  group: unknown,
  groupPath: string,
  conversion: Conversion,
  options: ConvertOptions,
): void {
  if (!isRecord(group)) {
    conversion.refuse(groupPath, 'not a matcher group (expected {"matcher": …, "hooks": [...]})');
    return;
  }
  if (!Array.isArray(group.hooks) || group.hooks.length === 0) {
    conversion.refuse(`${groupPath}.hooks`, 'not a non-empty array of hooks');
    return;
  }
  const matchers = convertGroupMatcher(
    format,
    theirEvent,
    event,
    group.matcher,
    `${groupPath}.matcher`,
    conversion,
  );
  if (matchers === false) return;
  for (const [key, message] of Object.entries(format.groupKeys ?? {})) {
    if (group[key] !== undefined && message !== null)
      conversion.note(`${groupPath}.${key}`, message);
  }
  for (const key of Object.keys(group)) {
    if (key !== 'matcher' && key !== 'hooks' && !Object.hasOwn(format.groupKeys ?? {}, key)) {
      conversion.note(`${groupPath}.${key}`, `unknown key ${JSON.stringify(key)} dropped`);
    }
  }
  addConvertedHooks(
    group.hooks.map((hook, index) => ({ hook, path: `${groupPath}.hooks[${index}]` })),
    format.agent,
    format.convertHook,
    { theirEvent, event, conversion, options },
    matchers,
  );
}

/**
 * Converts the hooks of one group (each with its JSON path) by `convertHook`, notes what each loses
 * against `agent`, and adds those converted as one rule per matcher (none when no hook converts).
 */
export function addConvertedHooks(
  handlers: readonly { hook: unknown; path: string }[],
  agent: string,
  convertHook: GroupedFormat['convertHook'],
  context: Omit<HookContext, 'path'>,
  matchers: readonly (ConvertedMatcher | undefined)[],
): void {
  const { conversion, event } = context;
  const converted: ConvertedHook[] = [];
  for (const { hook, path } of handlers) {
    if (!isRecord(hook)) {
      conversion.refuse(path, 'not a hook object');
      continue;
    }
    const done = convertHook(hook, { ...context, path });
    if (done === undefined) continue;
    conversion.recordOrigin(done, path);
    conversion.noteProjectScript(path, done);
    const lost = observeOnlyNote(agent, event);
    if (lost !== undefined) conversion.note(`${path} (${done.name ?? 'unnamed'})`, lost);
    converted.push(done);
  }
  if (converted.length > 0) conversion.addRules(event, matchers, converted);
}

/** The rule matchers of a group: tool matchers converted, source matchers on session start, others ignored. */
export function convertGroupMatcher(
  format: Pick<
    GroupedFormat,
    'agent' | 'toolEvents' | 'sourceEvents' | 'catalog' | 'sourceMatcher'
  >,
  theirEvent: string,
  event: string,
  matcher: unknown,
  path: string,
  conversion: Conversion,
): (ConvertedMatcher | undefined)[] | false {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*')
    return [undefined];
  if (format.toolEvents.has(theirEvent)) {
    return convertToolMatcher(matcher, path, format.catalog, conversion);
  }
  const shown = JSON.stringify(matcher);
  if (format.sourceEvents.has(theirEvent) && format.sourceMatcher === 'exact') {
    if (matcher === 'startup') return [undefined];
    const listed = typeof matcher === 'string' && /[|,]/.test(matcher);
    conversion.refuse(
      path,
      listed
        ? `${shown} never fires in ${format.agent}: it compares a ${theirEvent} matcher with the source as one exact string (no lists, no regex), so this hook never ran there; write "startup" (or "*", or no matcher) to run it when a session starts`
        : `${shown} never matches here: soong-agent sessions always start fresh (source "startup"); write "startup" (or "*", or no matcher) to run it when a session starts`,
    );
    return false;
  }
  if (format.sourceEvents.has(theirEvent)) {
    const sources =
      typeof matcher === 'string' ? matcher.split(/[|,]/).map((source) => source.trim()) : [];
    if (sources.includes('startup') || sources.includes('.*')) {
      const others = sources.filter(
        (source) => source !== 'startup' && source !== '' && source !== '.*',
      );
      if (others.length > 0) {
        conversion.note(
          path,
          `${others.join(', ')} dropped from ${shown}: soong-agent sessions always start fresh (source "startup")`,
        );
      }
      return [undefined];
    }
    conversion.refuse(
      path,
      `${shown} never matches here: soong-agent sessions always start fresh (source "startup")`,
    );
    return false;
  }
  if (event === 'Stop' || event === 'UserPromptSubmit') {
    conversion.note(path, `${shown} ignored (${format.agent} ignores matchers on this event too)`);
    return [undefined];
  }
  conversion.note(
    path,
    `${shown} dropped: soong-agent has no matcher for ${event}, so the hook runs on every ${event} (it only observes, so running more often changes nothing but the log)`,
  );
  return [undefined];
}
