// Defaults of the policy step. The built-in deny list is no longer a list of regexes in config: it is a set of named
// checks on the parsed parts (src/gate/deny.ts, ADR 0018), always on. `policy.deny` holds only the operator's own
// patterns, empty by default.
//
// LEGACY_DEFAULT_DENY is the regex list that earlier versions wrote as the default of `policy.deny`; a config file
// that still holds these exact strings (copied there by `wisp config set policy.deny …`) has them dropped on load —
// the built-in checks cover them, and they use lookahead, which the linear-time engine refuses (ADR 0017).

/** The operator's deny patterns when the config says nothing. */
export const DEFAULT_DENY: readonly string[] = [];

const B = String.raw`(?:^|[\s;&|(\x60{}!])`;
const CMD = String.raw`(?:^|[;&|(\x60{}!\n]|\$\()\s*`;
const WISP_SAFE_SUB = String.raw`(?:check|approvals|inquiries|config|logs|tools|doctor|help|-V|--version|-h|--help)`;

export const LEGACY_DEFAULT_DENY: readonly string[] = [
  // Privilege: sudo and friends anywhere as a word; su only where a command starts.
  String.raw`${B}(?:\S*/)?(?:sudo|doas|pkexec|run0)(?:\s|$)`,
  String.raw`${CMD}(?:\S*/)?su(?:\s|$)`,
  // Deleting the root: rm with a recursive flag and `/`, `//`, `/*`, `/.` as a target, in either order.
  String.raw`${B}rm\s+(?:[^;&|\n]*\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\s+(?:[^;&|\n]*\s)?(?:/+|/+\*|/+\.)(?:\s|$|[;&|)])`,
  String.raw`${B}rm\s+(?:[^;&|\n]*\s)?(?:/+|/+\*|/+\.)\s+(?:[^;&|\n]*\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s|$|[;&|)])`,
  String.raw`${B}rm\s[^;&|\n]*--no-preserve-root`,
  // Piping into a shell, also through env/exec/nohup/… wrappers or by path.
  String.raw`\|&?\s*(?:(?:\S*/)?(?:env|exec|nohup|command|builtin|nice|time|xargs|stdbuf)(?:\s+-\S+)*\s+)*(?:\S*/)?(?:sh|bash|zsh|dash|ksh|mksh|ash|fish)(?:\s|$)`,
  // Disk and volume tools (macOS and Linux).
  String.raw`${B}(?:\S*/)?(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|gdisk|sgdisk|cfdisk|parted|blkdiscard|newfs(?:_\w+)?)(?:\s|$)`,
  String.raw`${B}(?:\S*/)?diskutil\s+(?:erase\w*|zeroDisk|randomDisk|secureErase|partitionDisk|reformat|apfs\s+(?:delete\w*|erase\w*))`,
  String.raw`${B}(?:\S*/)?dd\s[^;&|\n]*\bof=/dev/(?!null\b|zero\b|stdout\b|stderr\b|fd/)`,
  String.raw`>\s*/dev/(?:sd[a-z]|nvme\d|r?disk\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d)`,
  // Answering wisp's own questions, or changing its config, from inside a gated command.
  String.raw`${B}(?:\S*/)?wisp\s+(?:approvals\s+(?:approve|deny)|inquiries\s+(?:answer|decline)|config\s+(?:set|unset))(?:\s|$)`,
  // A nested agent: `wisp respond|chat|mcp`, `wisp "prompt"`, or a bare `wisp` reading a prompt from stdin.
  String.raw`${B}(?:\S*/)?wisp\s+(?:respond|chat|mcp)(?:\s|$)`,
  String.raw`${B}(?:\S*/)?wisp\s+["']`,
  String.raw`^(?:\|\s*)?(?:\S*/)?wisp(?:\s*$|\s+(?!${WISP_SAFE_SUB}(?:\s|$)))`,
];
