/**
 * What the allowlist can vouch for in a shell command: simple commands of
 * plain words joined by `&&`, `||`, `;` and `|`. The first word of each is an
 * executable the allowlist must name. Anything the shell would expand or
 * redirect — `$`, backticks, `(`, `)`, `<`, `>`, a lone `&`, a newline, `#`,
 * `~` or glob characters in the executable, `NAME=value` prefixes — makes the
 * command unanalysable, which counts as an allowlist miss.
 *
 * Why not `shell-quote`: its `parse` reads a newline as a space, so
 * `ls\nrm -rf ~` would look like one `ls` command; a security check must err
 * the other way.
 */
export type CommandAnalysis =
  | { readonly ok: true; readonly executables: readonly string[] }
  | { readonly ok: false; readonly reason: string };

const OPERATORS = ['&&', '||', ';', '|'] as const;
const UNSUPPORTED = new Set(['$', '`', '(', ')', '<', '>', '\n', '\r', '{', '}', '!']);

export function analyzeCommand(command: string): CommandAnalysis {
  const words: { text: string; quoted: boolean }[][] = [[]];
  let word: { text: string; quoted: boolean } | undefined;
  const flush = () => {
    if (word) words[words.length - 1]!.push(word);
    word = undefined;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === ' ' || ch === '\t') {
      flush();
      continue;
    }
    const op = OPERATORS.find((o) => command.startsWith(o, i));
    if (op) {
      if (command.startsWith('|&', i)) return miss('"|&"');
      flush();
      if (!words[words.length - 1]!.length) return miss(`"${op}" without a command before it`);
      words.push([]);
      i += op.length - 1;
      continue;
    }
    if (ch === '&') return miss('a background "&"');
    if (UNSUPPORTED.has(ch)) return miss(ch === '\n' || ch === '\r' ? 'a line break' : `"${ch}"`);
    if (ch === '#' && !word) return miss('a comment');
    word ??= { text: '', quoted: false };
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return miss('an unclosed quote');
      word.text += command.slice(i + 1, end);
      word.quoted = true;
      i = end;
    } else if (ch === '"') {
      const end = command.indexOf('"', i + 1);
      if (end < 0) return miss('an unclosed quote');
      const inner = command.slice(i + 1, end);
      if (/[$`\\]/.test(inner)) return miss('"$", "`" or "\\" inside double quotes');
      word.text += inner;
      word.quoted = true;
      i = end;
    } else if (ch === '\\') {
      const next = command[i + 1];
      if (next === undefined || next === '\n') return miss('a line continuation');
      word.text += next;
      word.quoted = true;
      i++;
    } else {
      word.text += ch;
    }
  }
  flush();
  if (!words[words.length - 1]!.length)
    return words.length === 1 ? miss('an empty command') : miss('an operator without a command after it');
  const executables: string[] = [];
  for (const simple of words) {
    const first = simple[0]!;
    if (!first.quoted && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first.text))
      return miss(`an environment assignment "${first.text.split('=')[0]}=…"`);
    if (/[*?[\]~]/.test(first.text) || first.text === '')
      return miss(`the executable ${JSON.stringify(first.text)} is a pattern`);
    executables.push(first.text);
  }
  return { ok: true, executables };
}

function miss(what: string): CommandAnalysis {
  return { ok: false, reason: `the command uses ${what}, which the allowlist cannot vouch for` };
}
