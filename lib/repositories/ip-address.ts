// IP addresses as the import URL blocker needs them: every spelling git, curl or the C library would
// accept for a host (decimal, octal, hex and short IPv4 forms; IPv6 with an IPv4 tail) parsed to one
// value, printed in one canonical form, and IPv4 addresses carried inside IPv6 ones taken out.

export type Ip = { family: 4; value: number } | { family: 6; words: number[] };

/**
 * IPv4 as inet_aton reads it ("numbers-and-dots"): 1 to 4 parts, each decimal, octal (leading 0) or hex
 * (0x), the last part filling the remaining bytes: `2130706433`, `0177.0.0.1`, `0x7f.1` are 127.0.0.1.
 */
export function parseIpv4Loose(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  const nums: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) n = part.length === 1 ? 0 : parseInt(part.slice(1), 8);
    else if (/^[1-9][0-9]*$/.test(part)) n = Number(part);
    else return null;
    if (!Number.isSafeInteger(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return null;
  return nums.reduce((acc, n, i) => acc + n * 2 ** (8 * (3 - i)), 0) + last;
}

/** IPv6 without brackets or zone; an IPv4 dotted tail is allowed. Returns the eight 16-bit words. */
export function parseIpv6(text: string): number[] | null {
  let head = text;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseDottedDecimal(dotted[2]);
    if (v4 === null) return null;
    head = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
    tail.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const [left, right] = [groups(halves[0]), halves.length === 2 ? groups(halves[1]) : []];
  if (![...left, ...right].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const known = left.length + right.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = new Array<number>(8 - known).fill(0);
  return [...left.map((g) => parseInt(g, 16)), ...zeros, ...right.map((g) => parseInt(g, 16)), ...tail];
}

function parseDottedDecimal(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

/** An address as a resolver or a URL's bracketed host gives it: canonical IPv4 or any IPv6 form. */
export function parseIp(text: string): Ip | null {
  const v4 = parseDottedDecimal(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const words = parseIpv6(text);
  return words ? { family: 6, words } : null;
}

export function formatIp(ip: Ip): string {
  if (ip.family === 4) return [24, 16, 8, 0].map((shift) => Math.floor(ip.value / 2 ** shift) % 256).join('.');
  // RFC 5952: the longest run of two or more zero words becomes "::".
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (ip.words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && ip.words[j] === 0) j++;
    if (j - i > best.len && j - i >= 2) best = { start: i, len: j - i };
    i = j;
  }
  const hex = ip.words.map((w) => w.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.len).join(':')}`;
}

const v4 = (hi: number, lo: number): Ip => ({ family: 4, value: hi * 0x10000 + lo });

/**
 * The IPv4 address an IPv6 one stands for, when it has one: IPv4-mapped `::ffff:a.b.c.d` (how a
 * dual-stack socket reaches IPv4), IPv4-translated `::ffff:0:a.b.c.d`, the deprecated IPv4-compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and 6to4 `2002:aabb:ccdd::`. A gateway may carry any of them
 * to the IPv4 address, so they are judged as that address.
 */
export function embeddedIpv4(ip: Ip): Ip | null {
  if (ip.family === 4) return null;
  const w = ip.words;
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6], w[7]);
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6], w[7]);
  if (zeros(0, 6) && (w[6] !== 0 || w[7] > 1)) return v4(w[6], w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6], w[7]);
  if (w[0] === 0x2002) return v4(w[1], w[2]);
  return null;
}
