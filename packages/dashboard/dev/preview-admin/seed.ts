/**
 * DEV PREVIEW ONLY: deterministic, realistic-looking data for the fake admin
 * API: users with sessions, sign-in methods and passkeys, organizations with
 * members and invitations, and an audit trail (API keys start empty).
 */
import type {
  Account,
  ApiKey,
  AuditEntry,
  Invitation,
  Member,
  Organization,
  Passkey,
  Session,
  User,
} from "../../ui/api/types.ts";

/** Everything the fake admin API serves, mutable in memory. */
export interface PreviewData {
  users: User[];
  sessions: Map<string, Session[]>;
  accounts: Map<string, Account[]>;
  passkeys: Map<string, Passkey[]>;
  organizations: Organization[];
  members: Map<string, Member[]>;
  invitations: Map<string, Invitation[]>;
  audit: AuditEntry[];
  apiKeys: ApiKey[];
}

const FIRST = [
  "Ada",
  "Grace",
  "Alan",
  "Katherine",
  "Linus",
  "Margaret",
  "Dennis",
  "Barbara",
  "Ken",
  "Frances",
  "Tim",
  "Radia",
  "Edsger",
  "Hedy",
  "John",
  "Sophie",
  "Donald",
  "Adele",
  "Bjarne",
  "Joan",
  "Guido",
  "Shafi",
  "Leslie",
  "Anita",
  "Niklaus",
  "Lynn",
  "Yukihiro",
  "Mary",
  "James",
  "Jean",
];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Johnson",
  "Torvalds",
  "Hamilton",
  "Ritchie",
  "Liskov",
  "Thompson",
  "Allen",
  "Berners-Lee",
  "Perlman",
  "Dijkstra",
  "Lamarr",
  "McCarthy",
  "Wilson",
  "Knuth",
  "Goldberg",
  "Stroustrup",
  "Clarke",
  "van Rossum",
  "Goldwasser",
  "Lamport",
  "Borg",
  "Wirth",
  "Conway",
  "Matsumoto",
  "Keller",
  "Gosling",
  "Sammet",
];
const AGENTS = [
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:144.0) Gecko/20100101 Firefox/144.0",
  "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/142.0 Mobile Safari/537.36",
];

const NOW = Date.parse("2026-11-23T09:00:00.000Z");
const DAY = 24 * 3600 * 1000;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh data set; the same every time. */
export function seedPreviewData(): PreviewData {
  const next = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const id = (prefix: string) =>
    `${prefix}_${Math.floor(next() * 36 ** 8)
      .toString(36)
      .padStart(8, "0")}`;
  const iso = (ms: number) => new Date(ms).toISOString();

  const data: PreviewData = {
    users: [],
    sessions: new Map(),
    accounts: new Map(),
    passkeys: new Map(),
    organizations: [],
    members: new Map(),
    invitations: new Map(),
    audit: [],
    apiKeys: [],
  };

  for (let index = 0; index < 64; index++) {
    const first = FIRST[index % FIRST.length]!;
    const last = LAST[(index * 7) % LAST.length]!;
    const created = NOW - Math.floor(next() * 400 * DAY);
    const banned = index % 11 === 5;
    const user: User = {
      id: id("usr"),
      email:
        `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "") +
        (index >= FIRST.length ? index : "") +
        "@example.com",
      name: `${first} ${last}`,
      emailVerified: next() > 0.2,
      image: null,
      role: index % 9 === 0 ? "admin" : "user",
      banned,
      banReason: banned ? pick(["Spam in public channels", "Chargeback fraud", null]) : null,
      banExpires: banned && index % 2 === 0 ? iso(NOW + 6 * DAY) : null,
      username: `${first}${index}`.toLowerCase(),
      displayUsername: null,
      twoFactorEnabled: next() > 0.6,
      phoneNumber: null,
      phoneNumberVerified: false,
      isAnonymous: false,
      createdAt: iso(created),
      updatedAt: iso(created + Math.floor(next() * (NOW - created))),
      // Signed in at some point between sign-up and now; every fifth user never did.
      lastSignInAt: index % 5 === 3 ? null : iso(created + Math.floor(next() * (NOW - created))),
      lastActiveAt: null,
    };
    user.lastActiveAt =
      user.lastSignInAt &&
      iso(Math.min(NOW, Date.parse(user.lastSignInAt) + Math.floor(next() * 3 * DAY)));
    data.users.push(user);
    const sessionCount = banned ? 0 : Math.floor(next() * 4);
    data.sessions.set(
      user.id,
      Array.from({ length: sessionCount }, () => {
        const started = NOW - Math.floor(next() * 6 * DAY);
        return {
          id: id("ses"),
          createdAt: iso(started),
          updatedAt: iso(started + 3600_000),
          expiresAt: iso(started + 7 * DAY),
          ipAddress: `203.0.113.${Math.floor(next() * 250) + 1}`,
          userAgent: pick(AGENTS),
          impersonatedBy: null,
        };
      }),
    );
    const accounts: Account[] = [
      {
        id: id("acc"),
        providerId: "credential",
        accountId: user.id,
        scope: null,
        createdAt: user.createdAt,
        updatedAt: user.createdAt,
      },
    ];
    if (next() > 0.55) {
      accounts.push({
        id: id("acc"),
        providerId: pick(["github", "google"]),
        accountId: String(Math.floor(next() * 9e7) + 1e7),
        scope: "read:user,user:email",
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      });
    }
    data.accounts.set(user.id, accounts);
    data.passkeys.set(
      user.id,
      next() > 0.6
        ? [
            {
              id: id("pk"),
              name: pick(["MacBook Touch ID", "iPhone", "YubiKey 5C", null]),
              deviceType: pick(["multiDevice", "singleDevice"]),
              backedUp: next() > 0.5,
              createdAt: user.updatedAt,
            },
          ]
        : [],
    );
  }

  const orgNames = [
    "Acme Robotics",
    "Globex",
    "Initech",
    "Umbrella Research",
    "Hooli",
    "Stark Industries",
    "Wayne Labs",
  ];
  for (const name of orgNames) {
    const org: Organization = {
      id: id("org"),
      name,
      slug: name.toLowerCase().replace(/\s+/g, "-"),
      logo: null,
      metadata: null,
      createdAt: iso(NOW - Math.floor(next() * 300 * DAY)),
      memberCount: 0,
    };
    const members: Member[] = [];
    const size = 3 + Math.floor(next() * 9);
    for (let index = 0; index < size; index++) {
      const user = data.users[(orgNames.indexOf(name) * 5 + index * 3) % data.users.length]!;
      if (members.some((member) => member.user.id === user.id)) continue;
      members.push({
        id: id("mem"),
        role: index === 0 ? "owner" : index < 3 ? "admin" : "member",
        createdAt: iso(Date.parse(org.createdAt) + index * DAY),
        user: { id: user.id, email: user.email, name: user.name },
      });
    }
    org.memberCount = members.length;
    data.organizations.push(org);
    data.members.set(org.id, members);
    const owner = members[0]!.user;
    data.invitations.set(
      org.id,
      Array.from({ length: Math.floor(next() * 4) }, (_, index) => ({
        id: id("inv"),
        email: `${pick(FIRST).toLowerCase()}.${index}@partner.example`,
        role: pick(["member", "admin"]),
        status: pick(["pending", "pending", "accepted", "canceled"]),
        expiresAt: iso(NOW + (index - 1) * 2 * DAY),
        createdAt: iso(NOW - (index + 1) * DAY),
        inviter: { id: owner.id, email: owner.email },
      })),
    );
  }

  const actions: [AuditEntry["action"], AuditEntry["targetType"]][] = [
    ["user.ban", "user"],
    ["user.unban", "user"],
    ["user.role", "user"],
    ["user.password", "user"],
    ["user.impersonate", "user"],
    ["session.revoke", "session"],
    ["user.create", "user"],
  ];
  for (let index = 0; index < 80; index++) {
    const [action, targetType] = pick(actions);
    const user = pick(data.users);
    data.audit.push({
      id: id("aud"),
      at: iso(NOW - index * 5 * 3600_000 - Math.floor(next() * 3600_000)),
      operator: pick(["admin", "admin", "alice", "ci"]),
      action,
      targetType,
      targetId: targetType === "user" ? user.id : id("ses"),
      userId: user.id,
      user: { name: user.name, email: user.email },
      outcome: next() > 0.92 ? "error" : "ok",
      detail: null,
      reason:
        action === "user.ban"
          ? "Spam in public channels"
          : action === "user.impersonate"
            ? "Support ticket #4821"
            : null,
    });
  }
  return data;
}
