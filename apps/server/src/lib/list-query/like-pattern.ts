/**
 * The patterns `like` accepts: plain text, or a small subset of regular expressions that no input
 * can make slow. PostgreSQL's regular expressions have no limit on their complexity (one nested
 * counted repetition froze the embedded engine for minutes), so a pattern is parsed here, refused
 * unless it is in the subset, and sent to PostgreSQL re-written from the parsed form: the database
 * only ever compiles constructs listed below.
 *
 * The subset (matched case-insensitively, anywhere in the value unless anchored):
 * - any character stands for itself, except the metacharacters `\ ^ $ . * + ? ( ) [ ] { } |`;
 *   a backslash before one of them, or before `/`, makes it literal (`\.`, `\(`, `\\`);
 * - `.` any one character;
 * - classes `[abc]`, `[^abc]`, ranges `[a-z]` whose two ends are both digits, both lower-case
 *   ASCII letters, both upper-case ASCII letters or both non-ASCII (`[一-龥]`); inside a class a
 *   literal `-` goes first, last or as `\-`, and `\ [ ] ^` are escaped;
 * - `^` and `$` anchor at the start and the end of the value;
 * - `*`, `+`, `?` repeat the one character, `.` or class just before them;
 * - `|` separates alternatives, at the top level or inside one level of parentheses `( … )`,
 *   which may not be repeated.
 * Refused: nested or repeated groups, counted repetition `{n,m}`, lazy or possessive repetition,
 * backreferences, lookarounds and `(?…)` options, escapes such as `\d` `\w` `\s` `\b`, POSIX classes,
 * more than 10 repetition operators, ranges spanning more than 1,114,112 code points in total.
 * (The filter refuses patterns over 200 characters before they get here.)
 */

export const LIKE_LIMITS = { quantifiers: 10, rangeSpan: 0x11_0000 } as const;

/** What the refusal messages say is allowed. */
export const LIKE_SYNTAX = 'like takes text and the simple patterns . [ ] * + ? ^ $ | ( )';

/** A refused pattern; the message says what is not allowed (English, echoed to the caller). */
export class LikePatternError extends Error {}

type Quantifier = '*' | '+' | '?';
/** One character or a range of code points, both ends included. */
interface ClassItem {
  from: string;
  to: string;
}
type Atom = { kind: 'char'; char: string } | { kind: 'any' } | { kind: 'class'; negated: boolean; items: ClassItem[] };
type Item =
  | { kind: 'atom'; atom: Atom; quantifier: Quantifier | undefined }
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'group'; alternatives: Item[][] };

/** The parsed pattern: its top-level alternatives. */
export type LikePattern = Item[][];

const METACHARACTERS = new Set(['\\', '^', '$', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|']);
/** Characters a backslash may precede: the metacharacters and `/` (JavaScript's escapable set). */
const ESCAPABLE = new Set([...METACHARACTERS, '/']);
/** Inside a class `-` may be escaped too. */
const CLASS_ESCAPABLE = new Set([...ESCAPABLE, '-']);
const QUANTIFIER_CHARS: readonly Quantifier[] = ['*', '+', '?'];
const QUANTIFIERS = new Set<string>(QUANTIFIER_CHARS);
const isQuantifier = (char: string | undefined): char is Quantifier => QUANTIFIER_CHARS.some((q) => q === char);
const ESCAPABLE_TEXT = '\\ ^ $ . * + ? ( ) [ ] { } | /';

type CharKind = 'digit' | 'lower' | 'upper' | 'nonAscii' | 'other';

function kindOf(char: string): CharKind {
  if (char >= '0' && char <= '9') return 'digit';
  if (char >= 'a' && char <= 'z') return 'lower';
  if (char >= 'A' && char <= 'Z') return 'upper';
  return (char.codePointAt(0) ?? 0) >= 0x80 ? 'nonAscii' : 'other';
}

const codePoint = (char: string) => char.codePointAt(0) ?? 0;

/** Parses a `like` pattern; throws LikePatternError naming what is not allowed. */
export function parseLikePattern(pattern: string): LikePattern {
  return new Parser(pattern).parse();
}

class Parser {
  /** Code points: a character outside the BMP is one character, as in both regex engines. */
  private readonly chars: string[];
  private at = 0;
  private quantifiers = 0;
  private rangeSpan = 0;

  constructor(pattern: string) {
    this.chars = Array.from(pattern);
  }

  parse(): LikePattern {
    const alternatives = this.alternatives(false);
    if (this.peek() === ')') this.refuse("unbalanced ')': a literal ')' is written '\\)'");
    return alternatives;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private refuse(reason: string): never {
    throw new LikePatternError(reason);
  }

  private alternatives(inGroup: boolean): Item[][] {
    const alternatives = [this.sequence(inGroup)];
    while (this.peek() === '|') {
      this.at += 1;
      alternatives.push(this.sequence(inGroup));
    }
    return alternatives;
  }

  private sequence(inGroup: boolean): Item[] {
    const items: Item[] = [];
    for (let char = this.peek(); char !== undefined && char !== '|' && char !== ')'; char = this.peek()) {
      items.push(this.item(char, inGroup));
    }
    return items;
  }

  private item(char: string, inGroup: boolean): Item {
    switch (char) {
      case '(':
        return this.group(inGroup);
      case '^':
        this.at += 1;
        return { kind: 'start' };
      case '$':
        this.at += 1;
        return { kind: 'end' };
      case '*':
      case '+':
      case '?':
        return this.refuse(`a repetition '${char}' must follow a character, '.' or a class`);
      case '{':
        return this.refuse('counted repetition {n,m} is not allowed (a literal { is written \\{)');
      case '}':
        return this.refuse("a literal '}' is written '\\}'");
      case ']':
        return this.refuse("a literal ']' is written '\\]'");
      default: {
        const atom = this.atom(char);
        return { kind: 'atom', atom, quantifier: this.quantifier() };
      }
    }
  }

  private group(inGroup: boolean): Item {
    if (inGroup) this.refuse('nested groups are not allowed');
    if (this.peek(1) === '?') this.refuse('lookarounds and group options (?…) are not allowed');
    this.at += 1;
    const alternatives = this.alternatives(true);
    if (this.peek() !== ')') this.refuse("unclosed group: '(' without ')'");
    this.at += 1;
    const next = this.peek();
    if (next !== undefined && QUANTIFIERS.has(next)) this.refuse(`a repetition '${next}' after a group is not allowed`);
    if (next === '{') this.refuse('counted repetition {n,m} is not allowed');
    return { kind: 'group', alternatives };
  }

  private atom(char: string): Atom {
    if (char === '[') return this.characterClass();
    this.at += 1;
    if (char === '.') return { kind: 'any' };
    if (char === '\\') return { kind: 'char', char: this.escaped(ESCAPABLE) };
    return { kind: 'char', char };
  }

  /** The character after a backslash (the backslash consumed already). */
  private escaped(allowed: Set<string>): string {
    const char = this.peek();
    if (char === undefined) this.refuse('the pattern ends with a lone backslash (a literal \\ is written \\\\)');
    if (char >= '0' && char <= '9') this.refuse(`backreferences such as \\${char} are not allowed`);
    if (!allowed.has(char)) {
      this.refuse(`the escape \\${char} is not allowed (a backslash may only precede one of ${ESCAPABLE_TEXT})`);
    }
    this.at += 1;
    return char;
  }

  private quantifier(): Quantifier | undefined {
    const char = this.peek();
    if (char === '{') this.refuse('counted repetition {n,m} is not allowed (a literal { is written \\{)');
    if (!isQuantifier(char)) return undefined;
    this.at += 1;
    if (++this.quantifiers > LIKE_LIMITS.quantifiers) {
      this.refuse(`more than ${LIKE_LIMITS.quantifiers} repetitions (* + ?) are not allowed`);
    }
    const next = this.peek();
    if (next !== undefined && QUANTIFIERS.has(next)) {
      this.refuse(`a repetition right after another ('${char}${next}': lazy or repeated repetition) is not allowed`);
    }
    if (next === '{') this.refuse('counted repetition {n,m} is not allowed');
    return char;
  }

  private characterClass(): Atom {
    this.at += 1;
    const negated = this.peek() === '^';
    if (negated) this.at += 1;
    const items: ClassItem[] = [];
    for (;;) {
      const char = this.peek();
      if (char === undefined) this.refuse("unclosed class: '[' without ']'");
      if (char === ']') {
        if (items.length === 0) this.refuse("an empty class '[]' is not allowed (a literal ']' is written '\\]')");
        this.at += 1;
        return { kind: 'class', negated, items };
      }
      items.push(this.classItem(char, items.length === 0));
    }
  }

  private classItem(char: string, first: boolean): ClassItem {
    if (char === '[')
      this.refuse("'[' inside a class is written '\\[' (POSIX classes such as [:alpha:] are not allowed)");
    if (char === '-' && !first && this.peek(1) !== ']' && this.peek(1) !== undefined) {
      this.refuse("a literal '-' inside a class goes first, last or as '\\-'");
    }
    this.at += 1;
    const escaped = char === '\\';
    const from = escaped ? this.escaped(CLASS_ESCAPABLE) : char;
    // `x-]`: the `-` is the class's last character, not a range.
    if (this.peek() !== '-' || this.peek(1) === ']' || this.peek(1) === undefined || char === '-') {
      return { from, to: from };
    }
    this.at += 1;
    const to = this.peek() ?? '';
    if (escaped || to === '\\' || to === '[') this.refuseRange(`${from}-${to}`);
    this.at += 1;
    this.checkRange(from, to);
    return { from, to };
  }

  private refuseRange(range: string): never {
    return this.refuse(
      `the range '${range}' is not allowed: a range's ends are both digits, both a-z, both A-Z or both non-ASCII`,
    );
  }

  private checkRange(from: string, to: string): void {
    const kind = kindOf(from);
    if (kind === 'other' || kind !== kindOf(to)) this.refuseRange(`${from}-${to}`);
    if (codePoint(from) > codePoint(to)) this.refuse(`the range '${from}-${to}' is out of order`);
    this.rangeSpan += codePoint(to) - codePoint(from) + 1;
    if (this.rangeSpan > LIKE_LIMITS.rangeSpan) {
      this.refuse(`ranges spanning more than ${LIKE_LIMITS.rangeSpan.toLocaleString('en')} characters are not allowed`);
    }
  }
}

/** Characters escaped in the re-written pattern (ARE: `\` before a non-alphanumeric is that character). */
const CLASS_SPECIALS = new Set(['\\', ']', '[', '^', '-']);

/** The pattern as PostgreSQL (ARE) reads it: groups non-capturing, every metacharacter escaped. */
export function toPostgresRegex(pattern: LikePattern): string {
  return alternativesText(pattern);
}

function alternativesText(alternatives: Item[][]): string {
  return alternatives.map((items) => items.map(itemText).join('')).join('|');
}

function itemText(item: Item): string {
  switch (item.kind) {
    case 'start':
      return '^';
    case 'end':
      return '$';
    case 'group':
      return `(?:${alternativesText(item.alternatives)})`;
    case 'atom':
      return atomText(item.atom) + (item.quantifier ?? '');
  }
}

function atomText(atom: Atom): string {
  switch (atom.kind) {
    case 'any':
      return '.';
    case 'char':
      return METACHARACTERS.has(atom.char) ? `\\${atom.char}` : atom.char;
    case 'class': {
      const char = (c: string) => (CLASS_SPECIALS.has(c) ? `\\${c}` : c);
      const items = atom.items.map(({ from, to }) => (from === to ? char(from) : `${char(from)}-${char(to)}`));
      return `[${atom.negated ? '^' : ''}${items.join('')}]`;
    }
  }
}
