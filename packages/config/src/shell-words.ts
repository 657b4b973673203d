/** One word of a simple command, after quote removal and the expansions that can be known. */
export interface ShellWord {
  /**
   * The word as the shell passes it to the program: quotes removed, the given variables and `~`
   * expanded. `undefined` when only the running shell can know it: an unknown variable, a command
   * substitution, arithmetic, a glob, `~user`, or an unquoted expansion the shell would split.
   */
  text: string | undefined;
  /** The word as written in the command. */
  raw: string;
}

/** One simple command: its words (assignments and redirections left out), in order. */
export interface ShellSimpleCommand {
  words: ShellWord[];
}

/** What {@link parseShellWords} returns. */
export interface ShellParse {
  /** The simple commands, in the order they appear (pipelines, lists and compound commands flattened). */
  commands: ShellSimpleCommand[];
  /** `false` when the command ends inside a quote, a substitution or a here-document: the shell refuses it. */
  complete: boolean;
}

/** Options of {@link parseShellWords}. */
export interface ParseShellWordsOptions {
  /** Variables whose values are known (`$NAME`, `${NAME}`, `${NAME:-…}`); any other is unknown. @default {} */
  variables?: Readonly<Record<string, string>>;
  /** The value of `~` at the start of a word; without it such a word is unknown. */
  homeDir?: string;
}

const BLANK = new Set([' ', '\t']);
const OPERATOR = new Set([';', '&', '|', '(', ')', '<', '>', '\n']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
// Reserved words after which a command word follows (they are not programs themselves).
const LEADING_RESERVED = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{']);
const CLOSING_RESERVED = new Set(['fi', 'done', 'esac', '}']);
// Their words up to the next separator name variables or values, never programs.
const HEADER_RESERVED = new Set(['for', 'select', 'function']);
// Builtins whose `NAME=value` arguments set shell variables.
const ASSIGNING_BUILTINS = new Set(['export', 'readonly', 'local', 'declare', 'typeset']);

/** `[NAME, value]` of a `NAME=value` word (value unknown when the word is), else `undefined`. */
function assignmentOf(word: ShellWord): [name: string, value: string | undefined] | undefined {
  const name = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.raw)?.[1];
  if (name === undefined) return undefined;
  return [name, word.text?.slice(name.length + 1)];
}

/**
 * Splits a `/bin/sh -c` command string into simple commands and their words the way a POSIX shell
 * does: quotes (`'…'`, `"…"`, `\`), parameter expansion of the known variables, `~`, comments,
 * operators, redirections (their targets are not words of the command; an `N>` before one is not a
 * word either), here-documents, reserved words and `case` patterns. What only the running shell can
 * know (see {@link ShellWord.text}) is kept as a word with an unknown text, so positions stay right.
 * Never throws; never runs anything.
 */
export function parseShellWords(command: string, options: ParseShellWordsOptions = {}): ShellParse {
  return new ShellScanner(command, options).parse();
}

class ShellScanner {
  private index = 0;
  private complete = true;
  private readonly commands: ShellSimpleCommand[] = [];
  private current: ShellWord[] = [];
  /** The current command's words are not programs and arguments (`for x in …`, a `case` pattern). */
  private header = false;
  private caseState: 'none' | 'subject' | 'patterns' = 'none';
  private readonly caseStack: ('subject' | 'patterns')[] = [];
  private readonly hereDocuments: { delimiter: string; stripTabs: boolean }[] = [];
  /** Variables the command sets itself (`A=1; …`, `export A=1`); `undefined`: set to what only the shell knows. */
  private readonly assigned = new Map<string, string | undefined>();
  private pendingAssignments: [name: string, value: string | undefined][] = [];

  constructor(
    private readonly source: string,
    private readonly options: ParseShellWordsOptions,
  ) {}

  parse(): ShellParse {
    const { source } = this;
    while (this.index < source.length) {
      const character = source[this.index] as string;
      if (BLANK.has(character)) {
        this.index++;
      } else if (character === '\\' && source[this.index + 1] === '\n') {
        this.index += 2;
      } else if (character === '#') {
        const end = source.indexOf('\n', this.index);
        this.index = end === -1 ? source.length : end;
      } else if (character === '\n') {
        this.index++;
        this.endCommand();
        this.skipHereDocuments();
      } else if (character === '<' || character === '>') {
        this.redirection();
      } else if (OPERATOR.has(character)) {
        this.operator(character);
      } else {
        this.word();
      }
    }
    this.endCommand();
    if (this.hereDocuments.length > 0) this.complete = false;
    return { commands: this.commands, complete: this.complete };
  }

  private endCommand(): void {
    // `A=1` alone sets a shell variable for the commands after it; `A=1 cmd` only cmd's env.
    if (this.current.length === 0 && !this.header) {
      for (const [name, value] of this.pendingAssignments) this.assigned.set(name, value);
    } else if (!this.header && ASSIGNING_BUILTINS.has(this.current[0]?.raw ?? '')) {
      for (const word of this.current.slice(1)) {
        const assignment = assignmentOf(word);
        if (assignment !== undefined) this.assigned.set(assignment[0], assignment[1]);
      }
    }
    this.pendingAssignments = [];
    if (this.current.length > 0 && !this.header) this.commands.push({ words: this.current });
    this.current = [];
    this.header = false;
  }

  private operator(character: string): void {
    const { source } = this;
    const next = source[this.index + 1];
    this.index++;
    if (character === ';' && next === ';') {
      // `;;` ends a case item: patterns follow.
      this.index++;
      if (this.caseState !== 'none') this.caseState = 'patterns';
    } else if ((character === '&' || character === '|') && next === character) {
      this.index++;
    } else if (character === '|' && next === '&') {
      this.index++;
    } else if (character === ')' && this.caseState === 'patterns') {
      // The end of a case pattern: the words before it were patterns, not a command.
      this.current = [];
      this.header = false;
      this.caseState = 'subject';
      return;
    }
    this.endCommand();
  }

  private redirection(): void {
    const { source } = this;
    const start = this.index;
    const character = source[this.index] as string;
    this.index++;
    let hereDocument = false;
    if (character === '<' && source[this.index] === '<') {
      this.index++;
      if (source[this.index] === '<')
        this.index++; // bash here-string: `<<< word`
      else hereDocument = true;
    }
    const stripTabs = hereDocument && source[this.index] === '-';
    if (stripTabs) this.index++;
    if (!hereDocument && /[<>&|]/.test(source[this.index] ?? '') && this.index - start < 2)
      this.index++;
    while (BLANK.has(source[this.index] ?? '')) this.index++;
    // The target is a word the shell expands, but it is written to or read from, never run.
    const target = this.readWord();
    if (hereDocument && target !== undefined) {
      const delimiter = target.raw.replace(/\\(.)|['"]/g, '$1');
      this.hereDocuments.push({ delimiter, stripTabs });
    }
  }

  // Skips the bodies of the here-documents opened on the line that just ended.
  private skipHereDocuments(): void {
    const { source } = this;
    while (this.hereDocuments.length > 0) {
      const { delimiter, stripTabs } = this.hereDocuments[0] as {
        delimiter: string;
        stripTabs: boolean;
      };
      let found = false;
      while (this.index < source.length) {
        const end = source.indexOf('\n', this.index);
        const line = source.slice(this.index, end === -1 ? source.length : end);
        this.index = end === -1 ? source.length : end + 1;
        if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter) {
          found = true;
          break;
        }
      }
      if (!found) return;
      this.hereDocuments.shift();
    }
  }

  private word(): void {
    const { source } = this;
    const word = this.readWord();
    if (word === undefined || word.vanishes) return;
    // `2>file`: a number right before a redirection is its file descriptor, not a word.
    if (/^[0-9]+$/.test(word.raw) && (source[this.index] === '<' || source[this.index] === '>'))
      return;
    if (this.current.length === 0 && !this.header) {
      if (this.caseState === 'subject' && word.raw === 'esac') {
        this.caseState = this.caseStack.pop() ?? 'none';
        return;
      }
      if (this.caseState === 'patterns') {
        // A case pattern: dropped at its `)`.
        this.header = true;
        this.current.push(word);
        return;
      }
      if (LEADING_RESERVED.has(word.raw) || CLOSING_RESERVED.has(word.raw)) return;
      if (word.raw === 'case') {
        if (this.caseState !== 'none') this.caseStack.push(this.caseState);
        this.caseState = 'subject';
        this.header = true;
        this.readCaseHeader();
        return;
      }
      if (HEADER_RESERVED.has(word.raw)) {
        this.header = true;
        return;
      }
      // `NAME=value cmd`: assignments before the program are not words.
      const assignment = assignmentOf(word);
      if (assignment !== undefined) {
        this.pendingAssignments.push(assignment);
        return;
      }
      // `name() { …; }`: a function definition, not a command.
      if (/^[ \t]*\([ \t]*\)/.test(source.slice(this.index))) {
        this.index = source.indexOf(')', this.index) + 1;
        return;
      }
    }
    this.current.push(word);
  }

  // `case WORD in`: the subject and `in`, then patterns follow.
  private readCaseHeader(): void {
    const { source } = this;
    while (this.index < source.length) {
      while (BLANK.has(source[this.index] ?? '') || source[this.index] === '\n') this.index++;
      const word = this.readWord();
      if (word === undefined) break;
      if (word.raw === 'in') break;
    }
    this.header = false;
    this.current = [];
    this.caseState = 'patterns';
  }

  /** Reads one word at `index` (not at a blank or an operator); `undefined` at an operator or the end. */
  private readWord(): (ShellWord & { vanishes?: true }) | undefined {
    const { source } = this;
    const start = this.index;
    let text = '';
    let known = true;
    let quoted = false;
    const atStart = () => this.index === start;
    while (this.index < source.length) {
      const character = source[this.index] as string;
      if (BLANK.has(character) || OPERATOR.has(character)) break;
      if (character === '\\') {
        const next = source[this.index + 1];
        if (next === undefined) {
          this.index++;
          break;
        }
        if (next !== '\n') {
          text += next;
          quoted = true;
        }
        this.index += 2;
      } else if (character === "'") {
        quoted = true;
        const end = source.indexOf("'", this.index + 1);
        if (end === -1) return this.unterminated(start);
        text += source.slice(this.index + 1, end);
        this.index = end + 1;
      } else if (character === '"') {
        quoted = true;
        const inner = this.readDoubleQuoted();
        if (inner === undefined) return this.unterminated(start);
        if (inner.text === undefined) known = false;
        else text += inner.text;
      } else if (character === '$') {
        const expansion = this.readDollar(false);
        if (expansion === null) return this.unterminated(start);
        if (expansion === undefined) known = false;
        else text += expansion;
      } else if (character === '`') {
        if (!this.skipBackquote()) return this.unterminated(start);
        known = false;
      } else if (character === '~' && atStart()) {
        const rest = /^~([^/ \t;&|()<>\n'"`$\\]*)/.exec(
          source.slice(this.index),
        ) as RegExpExecArray;
        const user = rest[1] as string;
        const after = source[this.index + rest[0].length];
        const ends =
          after === undefined || after === '/' || BLANK.has(after) || OPERATOR.has(after);
        if (user === '' && ends && this.options.homeDir !== undefined) text += this.options.homeDir;
        else if (user === '' && ends) known = false;
        else {
          text += rest[0];
          if (ends) known = false; // ~user: another user's home
        }
        this.index += rest[0].length;
      } else {
        // A glob the shell may expand against the files that exist when it runs.
        if (character === '*' || character === '?') known = false;
        if (character === '[' && /^\[[^\s;&|()<>]*\]/.test(source.slice(this.index))) known = false;
        if (character === '{' && /^\{[^}\s]*,[^}\s]*\}/.test(source.slice(this.index)))
          known = false;
        text += character;
        this.index++;
      }
    }
    if (this.index === start) return undefined;
    const raw = source.slice(start, this.index);
    // An unquoted expansion to nothing leaves no word at all (`$EMPTY` is not an empty argument).
    if (known && text === '' && !quoted) return { text: undefined, raw, vanishes: true };
    return { text: known ? text : undefined, raw };
  }

  private unterminated(start: number): ShellWord {
    this.complete = false;
    this.index = this.source.length;
    return { text: undefined, raw: this.source.slice(start) };
  }

  // At `"`: the quoted text with its expansions (undefined when one is unknown); undefined (the
  // result) when the quote never closes.
  private readDoubleQuoted(): { text: string | undefined } | undefined {
    const { source } = this;
    this.index++;
    let text = '';
    let known = true;
    while (this.index < source.length) {
      const character = source[this.index] as string;
      if (character === '"') {
        this.index++;
        return { text: known ? text : undefined };
      }
      if (character === '\\') {
        const next = source[this.index + 1];
        if (next === undefined) break;
        if (next === '\n') {
          // line continuation
        } else if ('$`"\\'.includes(next)) text += next;
        else text += `\\${next}`;
        this.index += 2;
      } else if (character === '$') {
        const expansion = this.readDollar(true);
        if (expansion === null) return undefined;
        if (expansion === undefined) known = false;
        else text += expansion;
      } else if (character === '`') {
        if (!this.skipBackquote()) return undefined;
        known = false;
      } else {
        text += character;
        this.index++;
      }
    }
    return undefined;
  }

  /**
   * At `$`: the expansion's value, `undefined` when unknown, `null` when it never closes. Unquoted, a
   * value the shell would split into fields or expand as a glob is unknown too.
   */
  private readDollar(quoted: boolean): string | undefined | null {
    const { source } = this;
    const next = source[this.index + 1];
    const variables = this.options.variables ?? {};
    const lookUp = (name: string): string | undefined => {
      if (this.assigned.has(name)) return this.assigned.get(name);
      return Object.hasOwn(variables, name) ? variables[name] : undefined;
    };
    const settle = (value: string | undefined): string | undefined =>
      value === undefined || (!quoted && /[\s*?[]/.test(value)) ? undefined : value;
    if (next === '{') {
      const end = this.matchingClose(this.index + 2, '{', '}');
      if (end === -1) return null;
      const inner = source.slice(this.index + 2, end);
      this.index = end + 1;
      const plain = NAME.exec(inner);
      if (plain === null) return undefined;
      const name = plain[0];
      const operator = inner.slice(name.length);
      const value = lookUp(name);
      if (operator === '') return settle(value);
      // ${NAME:-default}, ${NAME-default}: a known, set variable wins over its default.
      if (/^:?-/.test(operator) && value !== undefined && (value !== '' || operator[0] !== ':'))
        return settle(value);
      return undefined;
    }
    if (next === '(') {
      const end = this.matchingClose(this.index + 2, '(', ')');
      if (end === -1) return null;
      this.index = end + 1;
      return undefined;
    }
    if (next === "'" && !quoted) {
      // bash's $'…': backslash escapes inside; not resolved here.
      let index = this.index + 2;
      while (index < source.length && source[index] !== "'")
        index += source[index] === '\\' ? 2 : 1;
      if (index >= source.length) return null;
      this.index = index + 1;
      return undefined;
    }
    const name = NAME.exec(source.slice(this.index + 1));
    if (name !== null) {
      this.index += 1 + name[0].length;
      return settle(lookUp(name[0]));
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.index += 2;
      return undefined;
    }
    // A lone `$` is literal.
    this.index++;
    return '$';
  }

  // The index of the `close` that ends a group opened just before `from`, skipping quotes and
  // nested groups; -1 when it never closes.
  private matchingClose(from: number, open: string, close: string): number {
    const { source } = this;
    let depth = 1;
    let index = from;
    while (index < source.length) {
      const character = source[index] as string;
      if (character === '\\') index += 2;
      else if (character === "'") {
        const end = source.indexOf("'", index + 1);
        if (end === -1) return -1;
        index = end + 1;
      } else if (character === '"') {
        index++;
        while (index < source.length && source[index] !== '"')
          index += source[index] === '\\' ? 2 : 1;
        if (index >= source.length) return -1;
        index++;
      } else if (character === '`') {
        const end = source.indexOf('`', index + 1);
        if (end === -1) return -1;
        index = end + 1;
      } else {
        if (character === open) depth++;
        else if (character === close && --depth === 0) return index;
        index++;
      }
    }
    return -1;
  }

  private skipBackquote(): boolean {
    const { source } = this;
    let index = this.index + 1;
    while (index < source.length && source[index] !== '`') index += source[index] === '\\' ? 2 : 1;
    if (index >= source.length) return false;
    this.index = index + 1;
    return true;
  }
}
