// Which rule families look at a command (ADR 0066): each family names the executables it applies to, and the table
// from name to families is built once, so a part runs the few families that can say anything about its program
// instead of all of them. Families run in their declared order, whatever brought them in, so findings (and the
// order of reasons) are what running every family gives.
import type { CmdView, Family, RuleFamily } from './rules-common.js';

export interface Dispatch {
  /** The families that can find anything in this command, in declared order. */
  readonly familiesFor: (c: CmdView) => readonly RuleFamily[];
}

export function buildDispatch(families: readonly Family[]): Dispatch {
  const every: number[] = [];
  const byProgram = new Map<string, number[]>();
  const byWrapper = new Map<string, number[]>();
  const matchers: Array<{ readonly index: number; readonly matches: (exe: string) => boolean }> = [];
  const add = (map: Map<string, number[]>, name: string, index: number): void => {
    const list = map.get(name);
    if (list === undefined) map.set(name, [index]);
    else if (list[list.length - 1] !== index) list.push(index);
  };
  families.forEach((f, index) => {
    if (f.everyCommand === true) every.push(index);
    for (const name of f.programs ?? []) add(byProgram, name, index);
    for (const name of f.wrappers ?? []) add(byWrapper, name, index);
    if (f.matches !== undefined) matchers.push({ index, matches: f.matches });
  });
  const sortedUnique = (indexes: Iterable<number>): number[] => [...new Set(indexes)].sort((a, b) => a - b);
  const matchedBy = (exe: string): number[] => matchers.filter((m) => m.matches(exe)).map((m) => m.index);
  const rules = (indexes: readonly number[]): RuleFamily[] => indexes.map((i) => families[i]!.rule);
  // Each listed program's families, with the every-command and name-matching ones merged in, built once.
  const listed = new Map<string, { readonly indexes: readonly number[]; readonly rules: readonly RuleFamily[] }>();
  for (const [name, indexes] of byProgram) {
    const all = sortedUnique([...every, ...indexes, ...matchedBy(name)]);
    listed.set(name, { indexes: all, rules: rules(all) });
  }
  const unlisted = { indexes: every, rules: rules(every) };

  return {
    familiesFor(c: CmdView): readonly RuleFamily[] {
      let found = listed.get(c.exe);
      if (found === undefined) {
        const matched = matchedBy(c.exe);
        if (matched.length === 0) found = unlisted;
        else {
          const all = sortedUnique([...every, ...matched]);
          found = { indexes: all, rules: rules(all) };
        }
      }
      let wrapped: number[] | undefined;
      for (const w of c.r.wrappers) {
        const indexes = byWrapper.get(w);
        if (indexes !== undefined) (wrapped ??= []).push(...indexes);
      }
      // Rare (`sudo ls`): merged by declared position.
      return wrapped === undefined ? found.rules : rules(sortedUnique([...found.indexes, ...wrapped]));
    },
  };
}
