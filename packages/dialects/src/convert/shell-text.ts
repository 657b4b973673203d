/** Where a placeholder stands in a `/bin/sh -c` command string. */
export type ShellContext = 'plain' | 'double' | 'single' | 'comment';

/** What {@link replaceInShell}'s `replacement` is told about one occurrence. */
export interface ShellPlace {
  /** The quoting the occurrence is in (the innermost: inside `"$(…)"` it is `plain`). */
  context: ShellContext;
  /** A here-document starts before it: its quoting cannot be known from here. */
  uncertain: boolean;
}

/**
 * `command` with each `placeholder` replaced by `replacement(place)`, told how the shell quotes
 * the spot (unquoted, in `"…"`, in `'…'`, in a comment; `$(…)` and backticks nest). A backslash
 * right before the placeholder (outside `'…'`) is dropped: it would escape the replacement's first
 * character. `undefined` from `replacement` makes the whole result `undefined`. Never runs anything.
 */
export function replaceInShell(
  command: string,
  placeholder: string,
  replacement: (place: ShellPlace) => string | undefined,
): string | undefined {
  let out = '';
  // Each frame: its quoting and, for a `$(…)` or a subshell, the parentheses still open in it.
  const frames: { quote: 'plain' | 'double' | 'single' | 'backtick'; parens: number }[] = [
    { quote: 'plain', parens: 0 },
  ];
  let comment = false;
  let uncertain = false;
  let index = 0;
  while (index < command.length) {
    const frame = frames.at(-1) as (typeof frames)[number];
    if (command.startsWith(placeholder, index)) {
      const context: ShellContext = comment
        ? 'comment'
        : frame.quote === 'backtick'
          ? 'plain'
          : frame.quote;
      const text = replacement({ context, uncertain });
      if (text === undefined) return undefined;
      out += text;
      index += placeholder.length;
      continue;
    }
    const char = command[index] as string;
    index += 1;
    if (comment) {
      if (char === '\n') comment = false;
      out += char;
      continue;
    }
    if (frame.quote === 'single') {
      if (char === "'") frames.pop();
      out += char;
      continue;
    }
    if (char === '\\') {
      if (command.startsWith(placeholder, index)) continue;
      out += char + (command[index] ?? '');
      index += 1;
      continue;
    }
    out += char;
    if (char === '`') {
      if (frame.quote === 'backtick') frames.pop();
      else frames.push({ quote: 'backtick', parens: 0 });
      continue;
    }
    if (char === '$' && command[index] === '(') {
      out += '(';
      index += 1;
      frames.push({ quote: 'plain', parens: 1 });
      continue;
    }
    if (frame.quote === 'double') {
      if (char === '"') frames.pop();
      continue;
    }
    if (char === '"') frames.push({ quote: 'double', parens: 0 });
    else if (char === "'") frames.push({ quote: 'single', parens: 0 });
    else if (char === '(') frame.parens += 1;
    else if (char === ')') {
      frame.parens -= 1;
      if (frame.parens === 0 && frames.length > 1) frames.pop();
    } else if (char === '<' && command[index] === '<') uncertain = true;
    else if (char === '#' && /^$|[\s;&|()<>]$/.test(out.slice(-2, -1))) comment = true;
  }
  return out;
}

const BARE_WORD = /^[A-Za-z0-9_/.,:=@%+-]+$/;

/** True when `value` needs no quoting anywhere in a shell command (nor in most other code). */
export function isBareWord(value: string): boolean {
  return BARE_WORD.test(value);
}

/**
 * True when the command hands text to something that parses it again (`eval`, `sh -c`,
 * `node -e`, `python3 -c`…): a value quoted for the outer shell is not quoted for that one.
 */
export function reparsesText(command: string): boolean {
  return /(?:^|[\s;&|(`])(?:eval|-[A-Za-z]*[ce][A-Za-z]*|--eval|--command|-p|--print)(?=[\s'"]|$)/.test(
    command,
  );
}
