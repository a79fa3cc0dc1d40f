/**
 * The bits of an IPv6 address that name one caller in svc's per-address
 * limits: a /64, the network one host or one customer line usually gets
 * (RFC 6177), so anyone holding a /64 holds 2^64 addresses. Keyed by the
 * full address, 25 sign-ups from `2001:db8:1:2::1…25` all passed a limit of
 * 20 per address.
 *
 * @example createRestRateLimit(limiter, { name: "rest", ipv6Prefix: 56 })
 */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * Checks an `ipv6Prefix` option: a whole number of bits from 1 to 128.
 * Called when a limit is built, so a mistake fails at startup.
 *
 * @example checkIpv6Prefix(options.ipv6Prefix, "createRestRateLimit") // 64 when absent
 */
export function checkIpv6Prefix(prefix: number | undefined, where: string): number {
  const bits = prefix ?? DEFAULT_IPV6_PREFIX;
  if (!Number.isInteger(bits) || bits < 1 || bits > 128)
    throw new Error(`svc: ${where} ipv6Prefix must be a whole number of bits from 1 to 128`);
  return bits;
}

/** An IPv6 address as its eight 16-bit groups, or `undefined` when it is none. */
function groupsOf(address: string): number[] | undefined {
  let text = address.split("%")[0] ?? "";
  // A dotted IPv4 tail (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`) is two groups.
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const octets = dotted.slice(2).map(Number);
    if (octets.some((octet) => octet > 255)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0] ?? "");
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return groups.map((group) => Number.parseInt(group, 16));
}

/**
 * The bucket key of a caller's address in a per-address limit: an IPv4
 * address as it is, an IPv6 address as its network of `ipv6Prefix` bits
 * (`2001:db8:1:2::7` → `2001:db8:1:2:0:0:0:0/64`), an IPv4-mapped IPv6 address
 * as the IPv4 address it maps. Anything else (`anonymous`, a value no
 * parser reads) is its own key.
 *
 * @example addressKey("2001:db8:1:2:3:4:5:6") // "2001:db8:1:2:0:0:0:0/64"
 */
export function addressKey(address: string, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  const trimmed = address.trim();
  if (!trimmed.includes(":")) return trimmed;
  const groups = groupsOf(trimmed);
  if (groups === undefined) return trimmed.toLowerCase();
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  const kept = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - index * 16));
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${kept.map((group) => group.toString(16)).join(":")}/${ipv6Prefix}`;
}
