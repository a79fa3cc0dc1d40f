/**
 * DEV PREVIEW ONLY: takes the README's screenshots of the main screens from
 * the dev preview (fake data, see `worker.ts`) at laptop and phone widths,
 * into `screenshots/`. Run `npm run screenshots --workspace
 * packages/dashboard`; with `PREVIEW_URL` set it uses a preview already
 * running (e.g. `npm run preview`) instead of starting its own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "../test/browser/support/chromium.ts";
import { seedPreviewData } from "./preview-admin/seed.ts";
import { PREVIEW_TOKEN } from "./preview-token.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "screenshots");
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function startPreview(
  port: number,
  vars: Record<string, string>,
): Promise<{ url: string; stop(): void }> {
  const args = [
    "dev",
    "-c",
    "dev/wrangler.jsonc",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--show-interactive-dev-session=false",
  ];
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const child: ChildProcess = spawn(path.join(ROOT, "../../node_modules/.bin/wrangler"), args, {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 150; attempt++) {
    if (
      await fetch(`${url}/_svc/dashboard/`).then(
        (response) => response.ok,
        () => false,
      )
    ) {
      return { url, stop: () => child.kill("SIGTERM") };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGTERM");
  throw new Error("the dev preview did not start within 30 s");
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/_svc/dashboard/`);
  await page.getByLabel("Admin token", { exact: true }).fill(PREVIEW_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(350); // drawer and toast animations
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`screenshots/${name}.png`);
}

/** Data → shard `room-lobby` → table `messages`, its first rows shown. */
async function openLobbyMessages(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Data" }).click();
  await page.getByRole("link", { name: "room-lobby", exact: true }).waitFor({ timeout: 15_000 });
  await page.getByRole("link", { name: "room-lobby", exact: true }).click();
  await page
    .getByRole("navigation", { name: "Tables" })
    .getByRole("link", { name: /^messages / })
    .click();
  await page.locator(".data-grid tbody tr").first().waitFor();
}

/** The data studio (issue 28): a table, viewed as a user, a document, staged edits, a run. */
async function shootDataStudio(page: Page): Promise<void> {
  const [ada] = seedPreviewData().users;
  await openLobbyMessages(page);
  await shoot(page, "data");

  await page.getByLabel("View as").selectOption("user");
  await page.getByLabel("User id or email").fill(ada?.email ?? "");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByText(/^Viewing as /).waitFor();
  await shoot(page, "data-view-as");

  await page.locator(".data-grid tbody tr:not(.grid-spacer)").first().getByRole("button").click();
  const drawer = page.getByRole("dialog", { name: "messages document" });
  await drawer.getByLabel("body").fill("Shipped the new onboarding flow (edited)");
  await shoot(page, "data-document");
  await drawer.getByRole("button", { name: "Stage change" }).click();
  await page.getByRole("button", { name: "Review and apply" }).click();
  await page.getByRole("dialog", { name: "Review 1 staged change" }).waitFor();
  await shoot(page, "data-review");
  await page.keyboard.press("Escape");

  await page.getByRole("link", { name: "Functions" }).click();
  await page.getByRole("link", { name: /messages:list/ }).click();
  await page.getByLabel("Shard key").fill("room-lobby");
  await page.getByLabel("User id or email").fill(ada?.email ?? "");
  await page.getByRole("button", { name: "Run query" }).click();
  await page.locator(".run-result").scrollIntoViewIfNeeded();
  await shoot(page, "functions");
}

async function main(): Promise<void> {
  if (!chromiumAvailable()) throw new Error("Chromium is missing: apt-get install -y chromium");
  const own = process.env.PREVIEW_URL === undefined ? await startPreview(8791, {}) : undefined;
  const url = process.env.PREVIEW_URL ?? own!.url;
  const browser = await launchChromium({ viewport: LAPTOP });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${url}/_svc/dashboard/`);
    await page.getByLabel("Admin token", { exact: true }).waitFor();
    await shoot(page, "sign-in");

    await signIn(page, url);
    await page.locator("table tbody tr").first().waitFor();
    await shoot(page, "users");

    for (const [button, title, name] of [
      ["Export", "Export users", "export-dialog"],
      ["Import", "Import users", "import-dialog"],
      ["New user", "New user", "create-user"],
    ] as const) {
      await page.getByRole("button", { name: button, exact: true }).click();
      await page.getByRole("dialog", { name: title }).waitFor();
      await shoot(page, name);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: title }).waitFor({ state: "detached" });
    }

    await page.locator("table tbody tr a").first().click();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    await shoot(page, "user-drawer");

    await page.getByRole("button", { name: "Edit profile" }).click();
    await page.getByRole("dialog", { name: "Edit profile" }).waitFor();
    await shoot(page, "edit-profile");
    await page
      .getByRole("dialog", { name: "Edit profile" })
      .getByRole("button", { name: "Cancel" })
      .click();

    await page.getByRole("button", { name: "Impersonate" }).click();
    await page.getByRole("button", { name: "Open the app as this user" }).waitFor();
    await shoot(page, "impersonate-dialog");
    await page.getByRole("button", { name: "Get a token for API use" }).click();
    await page.getByLabel("Session token").waitFor();
    await shoot(page, "impersonate-token");
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: "Ban" }).click();
    await page.getByLabel("Reason").fill("Spam in public channels");
    await shoot(page, "ban-dialog");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.locator(".drawer-content .section").last().scrollIntoViewIfNeeded();
    await shoot(page, "user-drawer-history");
    await page.keyboard.press("Escape");

    await page.getByRole("link", { name: "Organizations" }).click();
    await page.getByRole("link", { name: "Acme Robotics" }).waitFor();
    await shoot(page, "organizations");
    await page.getByRole("button", { name: "New organization" }).click();
    await page.getByRole("dialog", { name: "New organization" }).waitFor();
    await shoot(page, "create-organization");
    await page.keyboard.press("Escape");
    await page.getByRole("link", { name: "Acme Robotics" }).click();
    await page.getByRole("columnheader", { name: "Member" }).waitFor();
    await shoot(page, "organization-members");
    await page.getByRole("link", { name: "Invitations" }).click();
    await page.getByRole("columnheader", { name: "Invited", exact: true }).waitFor();
    await shoot(page, "organization-invitations");

    await page.getByRole("link", { name: "Overview" }).click();
    await page.locator(".chart-caption").waitFor();
    await shoot(page, "overview");

    await page.getByRole("link", { name: "Audit" }).click();
    await page.locator(".audit-entry").first().waitFor();
    await shoot(page, "audit");

    await page.getByRole("link", { name: "API" }).click();
    await page.locator(".operation").first().waitFor();
    await shoot(page, "api");

    await shootDataStudio(page);

    await page.setViewportSize(PHONE);
    await openLobbyMessages(page);
    await shoot(page, "data-phone");
    await page.getByRole("link", { name: "Users" }).click();
    await page.locator("table tbody tr").first().waitFor();
    await shoot(page, "users-phone");
    await page.locator("table tbody tr a").first().click();
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    await shoot(page, "user-drawer-phone");
    await page.close();

    if (own !== undefined) {
      const off = await startPreview(8792, { PREVIEW_ORGANIZATIONS: "off" });
      try {
        const offPage = await browser.context.newPage();
        await signIn(offPage, off.url);
        await offPage.getByRole("link", { name: "Organizations" }).click();
        await offPage.getByText("Organizations are not enabled").waitFor();
        await shoot(offPage, "organizations-off");
      } finally {
        off.stop();
      }
    }
  } finally {
    await browser.close();
    own?.stop();
  }
}

await main();
