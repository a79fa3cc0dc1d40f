import { describe, expect, it } from "vitest";
import { adminJson, signIn, signUp } from "./admin-http.ts";
import { adminAuth } from "./fixture/admin.ts";
import { freshEmail } from "./http.ts";

const PASSWORD = "edit-password-1";

interface Edited {
  user: { id: string; email: string; name: string; emailVerified: boolean };
  profile: Record<string, unknown>;
}

describe("editing a user's profile", () => {
  it("lists the editable fields: core, the username plugin's and the app's additionalFields", async () => {
    const { userFields } = await adminJson<{ userFields: { name: string; type: string }[] }>(
      "GET",
      "capabilities",
      200,
    );
    expect(userFields).toEqual(
      expect.arrayContaining([
        { name: "name", type: "string", required: true, unique: false },
        { name: "email", type: "string", required: true, unique: true, format: "email" },
        { name: "emailVerified", type: "boolean", required: false, unique: false },
        {
          name: "username",
          type: "string",
          required: false,
          unique: true,
          minLength: 3,
          maxLength: 30,
        },
        { name: "plan", type: "enum", required: false, unique: false, options: ["free", "pro"] },
        { name: "seats", type: "number", required: false, unique: false },
      ]),
    );
    const names = userFields.map((field) => field.name);
    for (const managed of ["id", "role", "banned", "createdAt", "twoFactorEnabled"]) {
      expect(names).not.toContain(managed);
    }
  });

  it("writes core, plugin and app fields that better-auth then reports; a new email signs in", async () => {
    const email = freshEmail("edit");
    const id = await signUp(email, PASSWORD);
    const username = `ann_${crypto.randomUUID().slice(0, 8)}`;
    const edited = await adminJson<Edited>("PATCH", `users/${id}`, 200, {
      body: { name: "  Ann Lee ", username: username.toUpperCase(), plan: "pro", seats: 5 },
    });
    expect(edited.user).toMatchObject({ id, name: "Ann Lee" });
    expect(edited.profile).toMatchObject({ name: "Ann Lee", username, plan: "pro", seats: 5 });
    const { token } = await signIn(email, PASSWORD);
    const session = await adminAuth.api.getSession({
      headers: new Headers({ authorization: `Bearer ${token}` }),
    });
    expect(session?.user).toMatchObject({ name: "Ann Lee", username, plan: "pro", seats: 5 });

    const newEmail = freshEmail("edit-moved");
    await adminJson("PATCH", `users/${id}`, 200, { body: { emailVerified: true } });
    const moved = await adminJson<Edited>("PATCH", `users/${id}`, 200, {
      body: { email: newEmail.toUpperCase() },
    });
    expect(moved.user).toMatchObject({ email: newEmail, emailVerified: false });
    expect((await signIn(newEmail, PASSWORD)).status).toBe(200);
    expect((await signIn(email, PASSWORD)).status).toBe(401);

    const { profile } = await adminJson<Edited>("GET", `users/${id}`, 200);
    expect(profile).toMatchObject({ email: newEmail, emailVerified: false, plan: "pro", seats: 5 });
    const { entries } = await adminJson<{ entries: { detail: string }[] }>(
      "GET",
      `audit?action=user.update&target=${id}`,
      200,
    );
    expect(entries.map((entry) => entry.detail)).toEqual([
      "changed email, emailVerified",
      "changed emailVerified",
      "changed name, username, plan, seats",
    ]);
  });

  it("refuses what better-auth would refuse, every field at once, and a taken email or username", async () => {
    const id = await signUp(freshEmail("edit-refused"), PASSWORD);
    const otherEmail = freshEmail("edit-other");
    const otherId = await signUp(otherEmail, PASSWORD);
    const otherUsername = `bo_${crypto.randomUUID().slice(0, 8)}`;
    await adminJson("PATCH", `users/${otherId}`, 200, { body: { username: otherUsername } });

    const invalid = await adminJson<{ errors: { path: string; message: string }[] }>(
      "PATCH",
      `users/${id}`,
      400,
      { body: { name: "", email: "not-an-email", username: "a!", plan: "gold", seats: "x" } },
    );
    expect(invalid.errors).toEqual([
      { path: "body.name", message: "is required" },
      { path: "body.email", message: "must be an email address" },
      { path: "body.username", message: "must be 3 to 30 characters" },
      { path: "body.plan", message: "must be one of free, pro" },
      { path: "body.seats", message: "must be a number" },
    ]);
    expect(await adminJson("PATCH", `users/${id}`, 400, { body: { role: "admin" } })).toMatchObject(
      { code: "VALIDATION_FAILED" },
    );
    expect(await adminJson("PATCH", `users/${id}`, 400, { body: {} })).toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(
      await adminJson("PATCH", `users/${id}`, 409, {
        body: { email: otherEmail, username: otherUsername },
      }),
    ).toMatchObject({ detail: "Another user already has this email, username." });
    expect(
      await adminJson("PATCH", "users/no-such-user", 404, { body: { name: "Nobody" } }),
    ).toMatchObject({ code: "NOT_FOUND" });
  });
});
