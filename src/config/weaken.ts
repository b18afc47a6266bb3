// What a config change weakens (ADR 0010): one phrase per way the new config lets more through than the old, shown
// by `wisp config set|unset` and the chat's /config before the change is kept.
import { DEFAULT_DENY } from '../core/deny-defaults.js';
import { thresholdRank } from '../core/levels.js';
import type { Config } from './schema.js';

/**
 * How `after` lets more through than `before`: more runs without a person, writes or reaches the network, or is
 * remembered longer. Timeouts are not on the list: an unanswered escalation is a refusal however long the wait,
 * and a longer command timeout lets the same command run longer, not a different one (ADR 0010).
 */
export function weakenings(before: Config, after: Config): string[] {
  const out: string[] = [];
  const b = before;
  const a = after;
  if (thresholdRank(a.approval.threshold) > thresholdRank(b.approval.threshold)) {
    out.push(
      a.approval.threshold === 'never'
        ? 'approval.threshold never: nothing is asked, every command that passes the policy runs'
        : `approval.threshold ${b.approval.threshold} → ${a.approval.threshold}: fewer commands are asked about`,
    );
  }
  if (a.approval.persistDays > b.approval.persistDays) {
    out.push(`approval.persistDays ${b.approval.persistDays} → ${a.approval.persistDays}: stored approvals last longer`);
  }
  if (a.escalation.channel === 'auto' && b.escalation.channel !== 'auto') {
    out.push('escalation.channel auto: every approval is granted without asking anyone');
  }
  if (b.sandbox.enabled && !a.sandbox.enabled) out.push('sandbox.enabled false: commands run unconfined');
  if (!b.sandbox.allowNetwork && a.sandbox.allowNetwork) out.push('sandbox.allowNetwork true: commands can reach the network');
  const addedPaths = a.sandbox.writablePaths.filter((p) => !b.sandbox.writablePaths.includes(p));
  if (addedPaths.length > 0) out.push(`sandbox.writablePaths: commands can now write to ${addedPaths.join(', ')}`);
  const removedDeny = b.policy.deny.filter((p) => !a.policy.deny.includes(p));
  if (removedDeny.length > 0) {
    const builtIn = removedDeny.filter((p) => (DEFAULT_DENY as readonly string[]).includes(p)).length;
    const which =
      removedDeny.length <= 2
        ? ` (${removedDeny.map((p) => abbreviate(p)).join(', ')})`
        : builtIn > 0
          ? `, ${builtIn} of them built in (sudo, rm -rf /, piping into a shell …)`
          : '';
    out.push(`policy.deny: ${removedDeny.length} deny pattern${removedDeny.length === 1 ? '' : 's'} removed${which}`);
  }
  if (b.policy.allow.length > 0) {
    if (a.policy.allow.length === 0) out.push('policy.allow emptied: commands no longer have to match an allow pattern');
    else {
      const addedAllow = a.policy.allow.filter((p) => !b.policy.allow.includes(p));
      if (addedAllow.length > 0) out.push(`policy.allow: more commands pass (${addedAllow.map((p) => abbreviate(p)).join(', ')})`);
    }
  }
  const ruleKey = (r: unknown): string => JSON.stringify(r);
  const afterRules = new Set(a.policy.rules.map(ruleKey));
  const removedRules = b.policy.rules.filter((r) => !afterRules.has(ruleKey(r)));
  if (removedRules.length > 0) {
    out.push(`policy.rules: ${removedRules.length} rule${removedRules.length === 1 ? '' : 's'} removed (${removedRules.map((r) => abbreviate(r.match)).join(', ')})`);
  }
  const enabledTools = b.tools.disabled.filter((t) => !a.tools.disabled.includes(t));
  if (enabledTools.length > 0) out.push(`tools.disabled: the model gets ${enabledTools.join(', ')} again`);
  if (a.audit.keepFiles < b.audit.keepFiles || a.audit.maxFileBytes < b.audit.maxFileBytes) {
    out.push('audit: less history is kept');
  }
  return out;
}

function abbreviate(s: string, max = 40): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
