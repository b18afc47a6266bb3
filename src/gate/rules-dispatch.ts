// Which rule families look at a command (ADR 0066): each family names the executables it applies to, and a name's
// families are found once and remembered, so a part runs the few families that can say anything about its program
// instead of all of them. Families run in their declared order, whatever brought them in, so findings (and the
// order of reasons) are what running every family gives.
import type { CmdView, Family, RuleFamily } from './rules-common.js';

export interface Dispatch {
  /** The families that can find anything in this command, in declared order. */
  readonly familiesFor: (c: CmdView) => readonly RuleFamily[];
}

/** Names remembered with their families; they come from the model's text, so the memory is bounded. */
const MAX_NAMES = 512;

export function buildDispatch(families: readonly Family[]): Dispatch {
  // Sets built natively from each declaration: cheap enough for a first `wisp check` (a name → families table
  // built ahead for every listed name cost more than rating the command).
  const entries = families.map((f) => ({
    rule: f.rule,
    every: f.everyCommand === true,
    programs: new Set(f.programs ?? []),
    matches: f.matches,
    wrappers: new Set(f.wrappers ?? []),
  }));
  const bringers = new Set(entries.flatMap((e) => [...e.wrappers]));
  const byName = new Map<string, readonly RuleFamily[]>();

  const forName = (exe: string): readonly RuleFamily[] => {
    let found = byName.get(exe);
    if (found === undefined) {
      found = entries.filter((e) => e.every || e.programs.has(exe) || (e.matches !== undefined && e.matches(exe))).map((e) => e.rule);
      if (byName.size < MAX_NAMES) byName.set(exe, found);
    }
    return found;
  };

  return {
    familiesFor(c: CmdView): readonly RuleFamily[] {
      const found = forName(c.exe);
      if (!c.r.wrappers.some((w) => bringers.has(w))) return found;
      // Rare (`sudo ls`): the wrappers' families too, in declared order.
      return entries.filter((e) => found.includes(e.rule) || c.r.wrappers.some((w) => e.wrappers.has(w))).map((e) => e.rule);
    },
  };
}
