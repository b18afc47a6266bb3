// A NUL made by an escape inside `$'…'` ends that text in bash (its strings are C strings): `$'sudo\x00x' ls` runs
// `sudo ls`. The gate read the word as `sudo` + NUL + `x`, which no deny entry knew, so the line was asked, not
// refused (found in session 8, policy8). decodeAnsiC now ends the text at such an escape, as bash does.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { decodeAnsiC } from '../../src/gate/words.js';

beforeAll(async () => {
  await initParser();
});

describe('attack: a NUL escape inside $\'…\' hides the program bash runs', () => {
  it.each([
    ['ab\\x00cd', 'ab'],
    ['ab\\x0cd', 'ab\fd'],
    ['ab\\0cd', 'ab'],
    ['ab\\000cd', 'ab'],
    ['ab\\400cd', 'ab'],
    ['ab\\u0000cd', 'ab'],
    ['ab\\U00000000cd', 'ab'],
    ['ab\\c@cd', 'ab'],
    ['\\x00', ''],
    ['ab\\x41cd', 'abAcd'],
    ['ab\\101cd', 'abAcd'],
  ])('decodeAnsiC(%j) is %j, as bash reads it', (body, value) => {
    expect(decodeAnsiC(body)).toBe(value);
  });

  it('the word continues after the closing quote: $\'ab\\x00cd\'ef is abef', () => {
    expect(parseLine("echo $'ab\\x00cd'ef").parts[0]!.words).toEqual(['echo', 'abef']);
  });

  it.each([
    ['sudo spelled with a NUL escape and a tail', "$'sudo\\x00x' ls", 'privilege'],
    ['sudo spelled with an octal NUL', "$'sudo\\0' ls", 'privilege'],
    ['sudo after an empty NUL-ended string', "$'\\x00'sudo ls", 'privilege'],
    ['sudo spelled with a control-@ NUL', "$'sudo\\c@junk' ls", 'privilege'],
    ['rm of the root spelled with a NUL escape', "$'rm\\u0000x' -rf /", 'delete-root'],
    ['sudo behind a wrapper, spelled with a NUL escape', "nohup $'sudo\\x00x' ls", 'privilege'],
  ])('%s is refused: %s', (_name, line, rule) => {
    const a = analyzeLine(line, defaultConfig(), '/tmp');
    expect(a.policy).toBe('denied');
    expect(a.policyRule).toBe(rule);
  });
});
