// Network, credentials and registries: uploads, servers, printing secrets, publishing, deleting remote storage.
import { type CmdView, type Family, type Finding, dangerous, firstOperand, hasFlag, hasLong, isPython, moderate, operands } from './rules-common.js';
import { shortcuts } from './shortcuts.js';

const NETWORK_TOOLS = new Set([
  'curl', 'wget', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'telnet', 'ftp', 'lftp', 'socat', 'mosh',
  'http', 'https', 'xh', 'aria2c', 'ping', 'ping6', 'traceroute', 'tracepath', 'mtr', 'dig', 'nslookup', 'host', 'whois',
  'nmap', 'websocat', 'grpcurl',
]);

/** Tools whose operands name URLs (`https://host/…`, or `host/path` for curl and the like). */
const URL_TOOLS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'aria2c', 'websocat', 'grpcurl', 'lftp', 'ftp']);
/** Tools whose `[user@]host:path` operands name hosts. */
const COPY_TOOLS = new Set(['scp', 'rsync', 'sftp']);
const MAX_PLACES = 4;
/** ssh's options that take a value (the host is the first operand after them). */
const SSH_VALUE_OPTIONS = [...'BbcDEeFIiJLlmOoPpQRSWw'].map((l) => '-' + l);

const NC_FAMILY: ReadonlySet<string> = new Set(['nc', 'ncat', 'netcat']);
/** nc's options that take a value (OpenBSD, traditional and nmap's ncat), so the host is the first operand after them. */
const NC_VALUE_OPTIONS = [
  ...[...'cefgGiIMmOpqsTVwWxX'].map((l) => '-' + l),
  '--proxy', '--proxy-type', '--proxy-auth', '--proxy-dns', '--source', '--source-port', '--wait', '--idle-timeout', '--exec', '--sh-exec', '--lua-exec',
];

/** The host of a URL (`https://user:pw@host:443/x` → `host:443`), or undefined when the word is none. */
function urlHost(word: string): string | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#\s]*)/.exec(word);
  if (m === null) return undefined;
  const authority = m[1]!;
  return authority.slice(authority.lastIndexOf('@') + 1);
}

/** The host of an scp-like `[user@]host.name:path` (a dotted name: `main:src` is a git revision), or undefined. */
function scpHost(word: string): string | undefined {
  const colon = word.indexOf(':');
  const before = colon < 0 ? '' : word.slice(0, colon);
  if (before.includes('/')) return undefined;
  const host = before.slice(before.lastIndexOf('@') + 1);
  return host.includes('.') ? host : undefined;
}

/**
 * The places a network command reaches, as written (ADR 0092): URLs' hosts, `host:path` hosts, the host of ssh and
 * of the socket tools, and git's remote (a name or a URL's host). Named in a reason, so an answer for one place never
 * covers another (`git push origin main` does not cover `git push https://elsewhere.example/r.git`).
 */
export function networkPlaces(c: CmdView, args: readonly string[] = c.args): string[] {
  const out: string[] = [];
  const ops = operands(args);
  if (URL_TOOLS.has(c.exe)) {
    for (const w of ops) {
      const host = urlHost(w);
      if (host !== undefined) out.push(host);
    }
    // No URL with a scheme: a bare `host/path` (`curl example.com/x`). Option values may be read so too: a wider reason.
    if (out.length === 0) for (const w of ops) if (/^[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?::\d+)?(?:\/|$)/.test(w)) out.push(w.split('/')[0]!);
  } else if (COPY_TOOLS.has(c.exe)) {
    for (const w of ops) {
      const host = urlHost(w) ?? /^(?:[^@/:]*@)?([^@/:]+):/.exec(w)?.[1];
      if (host !== undefined) out.push(host);
    }
    if (c.exe === 'sftp' && out.length === 0 && ops[0] !== undefined) out.push(ops[0].slice(ops[0].lastIndexOf('@') + 1));
  } else if (c.exe === 'git') {
    // A URL's host (`https://host/r.git`, `git@host:r.git`); a remote's name is left out, since the remotes are the
    // repository's own settings (and `git push` names none).
    const at = args.findIndex((a) => /^(push|fetch|pull|clone|ls-remote|archive|submodule|remote)$/.test(a));
    const rest = at < 0 ? [] : operands(args.slice(at + 1));
    for (const w of [...rest.slice(0, 3), ...args.filter((a) => a.startsWith('--remote=')).map((a) => a.slice(9))]) {
      const host = urlHost(w) ?? scpHost(w);
      if (host !== undefined) out.push(host);
    }
  } else if (c.exe === 'ssh' || c.exe === 'mosh') {
    const host = firstOperand(args, SSH_VALUE_OPTIONS).word;
    if (host !== undefined) out.push(host.slice(host.lastIndexOf('@') + 1));
  } else if (ops[0] !== undefined) {
    // ssh, nc, telnet, ping, dig …: the first operand is the host (`user@host`, socat's `TCP:host:port`); for the nc
    // family, past the values of its options (`nc -x proxy:1080 host 80` reaches the proxy, then the host).
    const host = NC_FAMILY.has(c.exe) ? (firstOperand(args, NC_VALUE_OPTIONS).word ?? ops[0]) : ops[0];
    const first = host.slice(host.lastIndexOf('@') + 1);
    out.push(c.exe === 'socat' ? ops.map((w) => /^(?:tcp|udp|ssl|openssl)[46]?:([^:,]+)/i.exec(w)?.[1]).filter((h) => h !== undefined).join(', ') : first);
  }
  out.push(...routedPlaces(c, args));
  return [...new Set(out.filter((h) => h !== ''))].slice(0, MAX_PLACES).map((h) => h.slice(0, 80));
}

/**
 * Where a connection is sent other than its URL says (ADR 0099): a proxy, a jump host, an address given for a name.
 * `curl --resolve api.example:443:6.6.6.6 https://api.example` reaches 6.6.6.6; named, so an answer for the plain
 * line does not cover the request, and whatever it carries, sent elsewhere. Option → how its value names the place.
 */
type PlaceOf = (value: string) => string[];
const hostOf: PlaceOf = (v) => [urlHost(v) ?? v.slice(v.lastIndexOf('@') + 1).split('/')[0]!];
const jumpHosts: PlaceOf = (v) => v.split(',').map((h) => h.slice(h.lastIndexOf('@') + 1).replace(/:\d+$/, ''));
/** `--resolve HOST:PORT:ADDR[,ADDR]…` (an IPv6 address in brackets keeps its colons). */
const resolvedAddresses: PlaceOf = (v) => (/^[^:]*:[^:]*:(.*)$/.exec(v)?.[1] ?? '').split(',');
/** `--connect-to HOST1:PORT1:HOST2:PORT2`: HOST2 (empty: the same host). */
const connectTarget: PlaceOf = (v) => [/^[^:]*:[^:]*:(\[[^\]]*\]|[^:]*)/.exec(v)?.[1] ?? ''];
const PROXY_OPTIONS: ReadonlyArray<readonly [string, PlaceOf]> = [
  ['-x', hostOf], ['--proxy', hostOf], ['--preproxy', hostOf], ['--proxy1.0', hostOf], ['--socks4', hostOf],
  ['--socks4a', hostOf], ['--socks5', hostOf], ['--socks5-hostname', hostOf],
];
const ROUTE_OPTIONS: ReadonlyMap<string, ReadonlyArray<readonly [string, PlaceOf]>> = new Map([
  ['curl', [...PROXY_OPTIONS, ['--resolve', resolvedAddresses], ['--connect-to', connectTarget], ['--doh-url', hostOf]]],
  ['ssh', [['-J', jumpHosts]]], ['scp', [['-J', jumpHosts]]], ['sftp', [['-J', jumpHosts]]],
  ['nc', [['-x', hostOf], ['--proxy', hostOf]]], ['ncat', [['--proxy', hostOf]]], ['netcat', [['-x', hostOf]]],
]);
/** Proxy settings programs read from their environment (curl, wget, git, pip …: lower or upper case). */
const PROXY_ENV = /^(https?|ftp|all|socks5?)_proxy$/i;

function routedPlaces(c: CmdView, args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of c.r.assignments) {
    const eq = a.indexOf('=');
    if (eq > 0 && PROXY_ENV.test(a.slice(0, eq)) && eq < a.length - 1) out.push(...hostOf(a.slice(eq + 1)));
  }
  const options = ROUTE_OPTIONS.get(c.exe);
  if (options === undefined) return out;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    for (const [name, placeOf] of options) {
      let value: string | undefined;
      if (a === name) value = args[i + 1];
      // A short option last in a cluster takes the next word (`-sx proxy:3128`).
      else if (name.length === 2 && /^-[A-Za-z]+$/.test(a) && a.endsWith(name[1]!)) value = args[i + 1];
      else if (name.startsWith('--') ? a.startsWith(name + '=') : a.startsWith(name) && !a.startsWith('--')) value = a.slice(name.length + (name.startsWith('--') ? 1 : 0));
      if (value !== undefined && value !== '') out.push(...placeOf(value));
    }
  }
  return out.filter((h) => h !== '');
}

/** Options that accept any TLS certificate: whoever answers in the host's place reads what the request carries. */
const INSECURE: ReadonlyMap<string, readonly string[]> = new Map([
  ['curl', ['-k', '--insecure', '--proxy-insecure', '--doh-insecure']],
  ['wget', ['--no-check-certificate']],
  ['http', ['--verify=no']], ['https', ['--verify=no']], ['xh', ['--verify=no', '--native-tls=false']],
]);

function insecureFinding(c: CmdView, out: Finding[]): void {
  const flags = INSECURE.get(c.exe);
  if (flags === undefined) return;
  for (const a of c.args) {
    if (a === '--') return;
    const shortCluster = c.exe === 'curl' && /^-[A-Za-z]+$/.test(a) && a.includes('k');
    if (flags.includes(a) || shortCluster) {
      out.push(moderate('accepts any TLS certificate, so another host can answer in its place'));
      return;
    }
  }
}

function networkRules(c: CmdView): Finding[] {
  const out: Finding[] = [];
  if (c.exe === 'rsync' && !c.args.some((a) => /^[^/]*:/.test(a) || a.startsWith('rsync://'))) return out;
  if (NETWORK_TOOLS.has(c.exe)) out.push(moderate('uses the network'));
  const places = NETWORK_TOOLS.has(c.exe) ? networkPlaces(c) : [];
  if (places.length > 0) out.push(moderate(`reaches ${places.join(', ')}`));
  insecureFinding(c, out);
  if ((c.exe === 'nc' || c.exe === 'ncat' || c.exe === 'netcat') && hasFlag(c.args, 'l', ['--listen'])) {
    out.push(moderate('starts a network service'));
  }
  if (c.exe === 'socat' && c.args.some((a) => /LISTEN/i.test(a))) out.push(moderate('starts a network service'));
  return out;
}

function uploadRules(c: CmdView): Finding[] {
  const upload = dangerous('uploads data over the network');
  if (c.exe === 'curl') {
    if (hasLong(c.args, ['--data', '--data-raw', '--data-binary', '--data-urlencode', '--data-ascii', '--form', '--form-string', '--upload-file', '--json'])) {
      return [upload];
    }
    for (let i = 0; i < c.args.length; i++) {
      const a = c.args[i]!;
      if (!/^-[a-zA-Z]+/.test(a) || a.startsWith('--')) {
        if ((a === '--request' || a.startsWith('--request=')) && /POST|PUT|PATCH|DELETE/i.test(a.split('=')[1] ?? c.args[i + 1] ?? '')) return [upload];
        continue;
      }
      // Short clusters: the first value-taking letter takes the rest; d/F/T upload, X with a writing method.
      const m = /^-[a-zA-Z]*?([dFTX])([\s\S]*)$/.exec(a);
      if (!m) continue;
      if (m[1] !== 'X') return [upload];
      const method = m[2] !== '' ? m[2]! : (c.args[i + 1] ?? '');
      if (/^(POST|PUT|PATCH|DELETE)$/i.test(method)) return [upload];
    }
  }
  if (c.exe === 'wget' && (hasLong(c.args, ['--post-data', '--post-file', '--body-data', '--body-file']) || c.args.some((a) => /^--method=(POST|PUT|PATCH)$/i.test(a)))) {
    return [upload];
  }
  return [];
}

/** `python -m http.server` and friends: serving files, bound to every interface unless told otherwise. */
function serveRules(c: CmdView): Finding[] {
  if (isPython(c.exe)) {
    const m = c.args.indexOf('-m');
    const mod = m >= 0 ? c.args[m + 1] : undefined;
    if (mod === 'http.server' || mod === 'SimpleHTTPServer') {
      const rest = c.args.slice(m + 2);
      const bi = rest.findIndex((a) => a === '--bind' || a === '-b');
      const bind = bi >= 0 ? rest[bi + 1] : rest.find((a) => a.startsWith('--bind='))?.slice(7);
      if (bind !== undefined && /^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(bind)) return [moderate('starts a network service')];
      return [dangerous('serves a directory on every network interface')];
    }
  }
  if (c.exe === 'php') {
    const si = c.args.indexOf('-S');
    if (si >= 0) {
      const addr = c.args[si + 1] ?? '';
      return /^(localhost|127\.|\[::1\])/.test(addr) ? [moderate('starts a network service')] : [dangerous('serves a directory on every network interface')];
    }
  }
  return [];
}

const SECRET_NAME = /(PASSWORD|PASSWD|TOKEN|SECRET|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|_KEY)\b/i;

const ENV_PRINTERS = ['echo', 'printf', 'print', 'printenv', 'env', 'set', 'export', 'declare', 'typeset'];

/** Printing environment variables that hold secrets, or the whole environment. */
/**
 * Whether `text` refers to a variable with a secret's name (`$TOKEN`, `${API_KEY}`), not as `${X:+…}`: what the
 * expression `/\$\{?([A-Za-z_][A-Za-z0-9_]*)(:\+)?/g` finds, by a scan (ADR 0089). At each `$` the expression takes a
 * `{` if a name follows it (else no match there: a name cannot start with `{`), then the longest name, then `:+` if
 * there; the next match starts after it, and neither a name nor `:+` holds a `$`, so every `$` is tried in turn.
 */
export function printsSecretName(text: string): boolean {
  for (let i = text.indexOf('$'); i >= 0; i = text.indexOf('$', i + 1)) {
    let start = i + 1;
    if (text.charCodeAt(start) === 0x7b) start++; // `{`
    if (!nameStart(text.charCodeAt(start))) continue;
    let end = start + 1;
    while (end < text.length && (nameStart(text.charCodeAt(end)) || (text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39))) end++;
    if (text.startsWith(':+', end)) continue;
    if (SECRET_NAME.test(text.slice(start, end))) return true;
  }
  return false;
}

function nameStart(code: number): boolean {
  return code === 0x5f || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function environmentRules(c: CmdView): Finding[] {
  const out: Finding[] = [];
  if (c.exe === 'echo' || c.exe === 'printf' || c.exe === 'print') {
    // `${X:+…}` only tests whether X is set, so it does not print it. A reference needs a `$` (most echoes have none).
    const text = c.args.join(' ');
    if (shortcuts.on ? printsSecretName(text) : [...text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)(:\+)?/g)].filter((m) => m[2] === undefined).some((m) => SECRET_NAME.test(m[1]!))) {
      out.push(dangerous('prints a credential'));
    }
  }
  if (c.exe === 'printenv') {
    const names = operands(c.args);
    if (names.length === 0) out.push(moderate('prints the whole environment, secrets included'));
    else if (names.some((n) => SECRET_NAME.test(n))) out.push(dangerous('prints a credential'));
  }
  const bare = c.args.length === 0 || (c.args.length === 1 && c.args[0] === '-p');
  if ((c.exe === 'env' && c.r.programWord !== undefined && operands(c.args).length === 0) || (['set', 'export', 'declare', 'typeset'].includes(c.exe) && bare)) {
    out.push(moderate('prints the whole environment, secrets included'));
  }
  return out;
}

/** `env | grep TOKEN`: the environment, filtered for its secrets, by whatever program reads it. */
function environmentFilterRules(c: CmdView): Finding[] {
  const out: Finding[] = [];
  const pipeline = c.part.pipeline;
  if (pipeline !== undefined && (c.part.pipeStage ?? 0) > 0 && /^\s*(env|printenv|set|export(\s+-p)?|declare\s+-[px]*)\s*\|/.test(pipeline)) {
    if (/token|secret|passw|key|credential|auth/i.test(c.text)) out.push(dangerous('prints credentials from the environment', 'pipeline'));
  }
  return out;
}

const CREDENTIAL_PRINTERS = ['security', 'gh', 'gcloud', 'az', 'aws', 'op', 'pass', 'gopass', 'secret-tool', 'kubectl', 'heroku', 'vault'];
const CREDENTIAL_HELPER = (exe: string): boolean => /^docker-credential-/.test(exe);

/** Commands whose purpose is to print a stored password, key or token. */
function storedCredentialRules(c: CmdView): Finding[] {
  const a = c.args;
  const sub = (n: number): string => a[n] ?? '';
  const prints = dangerous('prints a stored credential');
  switch (c.exe) {
    case 'security':
      if (/^(find-(generic|internet)-password|dump-keychain|export|find-certificate)$/.test(sub(0))) return [dangerous('prints stored passwords or keys')];
      return [];
    case 'gh':
      if (sub(0) === 'auth' && (sub(1) === 'token' || (sub(1) === 'status' && hasFlag(a, 't', ['--show-token'])))) return [prints];
      return [];
    case 'gcloud':
      if (a.some((x) => /^print-(access|identity)-token$/.test(x))) return [prints];
      return [];
    case 'az':
      if (sub(0) === 'account' && sub(1) === 'get-access-token') return [prints];
      return [];
    case 'aws':
      if ((sub(0) === 'configure' && (sub(1) === 'get' || sub(1) === 'export-credentials')) || (sub(0) === 'ecr' && sub(1) === 'get-login-password')) {
        return [prints];
      }
      return [];
    case 'op':
      if (sub(0) === 'read' || (sub(0) === 'item' && sub(1) === 'get')) return [prints];
      return [];
    case 'pass':
    case 'gopass':
      if (a.length === 0 || sub(0) === 'show' || !sub(0).startsWith('-')) return [prints];
      return [];
    case 'secret-tool':
      if (sub(0) === 'lookup') return [prints];
      return [];
    case 'kubectl':
      if (sub(0) === 'config' && sub(1) === 'view' && hasLong(a, ['--raw'])) return [prints];
      if (sub(0) === 'get' && /^secrets?$/.test(sub(1)) && a.some((x) => /^(-o|--output)(=|$)/.test(x))) return [prints];
      return [];
    case 'heroku':
      if (sub(0) === 'auth:token') return [prints];
      return [];
    case 'vault':
      if (sub(0) === 'read' || (sub(0) === 'kv' && sub(1) === 'get')) return [prints];
      return [];
    default:
      if (CREDENTIAL_HELPER(c.exe) && sub(0) === 'get') return [prints];
      return [];
  }
}

/** Publishing to a package registry or image registry (not a dry run). */
function publishRules(c: CmdView): Finding[] {
  if (hasLong(c.args, ['--dry-run']) || c.args.includes('-n') && c.exe === 'cargo') return [];
  const sub = firstOperand(c.args).word;
  const publishes =
    (['npm', 'pnpm', 'yarn', 'bun'].includes(c.exe) && (sub === 'publish' || (c.exe === 'yarn' && sub === 'npm' && c.args.includes('publish')))) ||
    (['cargo', 'poetry', 'flit', 'hatch'].includes(c.exe) && sub === 'publish') ||
    (c.exe === 'gem' && sub === 'push') ||
    (c.exe === 'twine' && sub === 'upload') ||
    (['docker', 'podman'].includes(c.exe) && (sub === 'push' || (sub === 'image' && c.args.includes('push')))) ||
    (c.exe === 'dotnet' && sub === 'nuget' && c.args.includes('push')) ||
    (c.exe === 'pod' && sub === 'trunk' && c.args.includes('push')) ||
    (c.exe === 'mvn' && c.args.includes('deploy')) ||
    (c.exe === 'swift' && sub === 'package-registry' && c.args.includes('publish'));
  return publishes ? [dangerous('publishes to a registry')] : [];
}

/** Deleting buckets, objects, clusters or cloud resources. */
function remoteDeleteRules(c: CmdView): Finding[] {
  const a = c.args;
  const del = dangerous('deletes remote storage or cloud resources');
  switch (c.exe) {
    case 'aws':
      if ((a[0] === 's3' && /^(rm|rb)$/.test(a[1] ?? '')) || a.slice(1, 3).some((x) => /^(delete|terminate|remove|purge)-/.test(x))) return [del];
      return [];
    case 'gsutil':
      return /^(rm|rb)$/.test(a[0] ?? '') ? [del] : [];
    case 'gcloud':
    case 'az':
      return a.some((x) => x === 'delete' || x === 'rm') ? [del] : [];
    case 'rclone':
      return /^(delete|deletefile|purge|rmdir|rmdirs|cleanup|sync)$/.test(a[0] ?? '') ? [del] : [];
    case 'kubectl':
    case 'oc':
      return a[0] === 'delete' ? [dangerous('deletes cluster resources')] : [];
    case 'helm':
      return /^(uninstall|delete|del)$/.test(a[0] ?? '') ? [dangerous('deletes cluster resources')] : [];
    case 'terraform':
    case 'tofu':
    case 'pulumi':
      return a[0] === 'destroy' || a.includes('-destroy') ? [dangerous('destroys managed infrastructure')] : [];
    case 'gh':
      return a[1] === 'delete' && /^(repo|release|secret|variable|cache)$/.test(a[0] ?? '') ? [del] : [];
    default:
      return [];
  }
}

function containerRules(c: CmdView): Finding[] {
  if (c.exe !== 'docker' && c.exe !== 'podman') return [];
  const sub = firstOperand(c.args, ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level']).word;
  if (sub !== 'run' && sub !== 'create' && sub !== 'exec') return [];
  const hostAccess =
    hasLong(c.args, ['--privileged', '--pid', '--cap-add']) ||
    c.args.some((x, i) => (x === '-v' || x === '--volume' || x === '--mount') && /^(\/|\/:|type=bind,source=\/,)/.test(c.args[i + 1] ?? '') && /^\/(:|,|$)/.test(c.args[i + 1] ?? '')) ||
    c.args.some((x) => /^(-v|--volume=)\/:/.test(x) || /\/var\/run\/docker\.sock/.test(x));
  if (hostAccess) return [dangerous('runs a container with full access to the host')];
  return [moderate('runs a container')];
}

const PUBLISHERS = ['npm', 'pnpm', 'yarn', 'bun', 'cargo', 'poetry', 'flit', 'hatch', 'gem', 'twine', 'docker', 'podman', 'dotnet', 'pod', 'mvn', 'swift'];
const REMOTE_DELETERS = ['aws', 'gsutil', 'gcloud', 'az', 'rclone', 'kubectl', 'oc', 'helm', 'terraform', 'tofu', 'pulumi', 'gh'];

export const NET_RULES: readonly Family[] = [
  { rule: networkRules, programs: NETWORK_TOOLS },
  { rule: uploadRules, programs: ['curl', 'wget'] },
  { rule: serveRules, programs: ['php'], matches: isPython },
  { rule: environmentRules, programs: ENV_PRINTERS },
  { rule: environmentFilterRules, everyCommand: true },
  { rule: storedCredentialRules, programs: CREDENTIAL_PRINTERS, matches: CREDENTIAL_HELPER },
  { rule: publishRules, programs: PUBLISHERS },
  { rule: remoteDeleteRules, programs: REMOTE_DELETERS },
  { rule: containerRules, programs: ['docker', 'podman'] },
];
