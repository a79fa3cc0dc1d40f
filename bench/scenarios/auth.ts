import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, medianRatio, sized } from "../lib/load.ts";
import { workerdCpuMs } from "../lib/workerd-cpu.ts";

/** Sign-up and sign-in through svc (`handleAuthRequest`) against plain better-auth with the same options. */
export interface AuthResult {
  figures: LoadFigures[];
  signUpRatio: number;
  signInRatio: number;
}

const PASSWORD = "a long password";

export async function measureAuth(log: (line: string) => void): Promise<AuthResult> {
  const app = await startBenchApp();
  try {
    const origin = { origin: app.url };
    for (const base of ["/api/auth", "/plain-auth"]) {
      await postJson(
        `${app.url}${base}/sign-up/email`,
        { email: "signin@example.com", password: PASSWORD, name: "Sign In" },
        origin,
      );
    }
    let counter = 0;
    const signUpBody = () =>
      JSON.stringify({
        email: `user${counter++}@example.com`,
        password: PASSWORD,
        name: "Bench User",
      });
    const signInBody = JSON.stringify({ email: "signin@example.com", password: PASSWORD });
    const headers = { "content-type": "application/json", origin: app.url };
    const figures = await compare(
      [
        {
          name: "sign-up, svc",
          method: "POST",
          url: `${app.url}/api/auth/sign-up/email`,
          headers,
          makeBody: signUpBody,
        },
        {
          name: "sign-up, plain better-auth",
          method: "POST",
          url: `${app.url}/plain-auth/sign-up/email`,
          headers,
          makeBody: signUpBody,
        },
        {
          name: "sign-in, svc",
          method: "POST",
          url: `${app.url}/api/auth/sign-in/email`,
          headers,
          body: signInBody,
        },
        {
          name: "sign-in, plain better-auth",
          method: "POST",
          url: `${app.url}/plain-auth/sign-in/email`,
          headers,
          body: signInBody,
        },
      ],
      // Password hashing is ~50 ms of CPU: a few connections saturate the two cores.
      sized({
        connections: 4,
        warmupSeconds: 2,
        roundSeconds: 5,
        rounds: 3,
        cpuProbe: workerdCpuMs,
      }),
      log,
    );
    const [svcUp, plainUp, svcIn, plainIn] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    return {
      figures,
      signUpRatio: medianRatio(svcUp, plainUp),
      signInRatio: medianRatio(svcIn, plainIn),
    };
  } finally {
    await app.stop();
  }
}
