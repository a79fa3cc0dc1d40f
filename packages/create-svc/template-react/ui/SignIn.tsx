import { type FormEvent, useState } from "react";
import { authClient } from "./auth-client.ts";
import { navigate } from "./router.ts";

/** Runs a better-auth call with a form's fields; answers its error message, or null. */
async function submit(
  event: FormEvent<HTMLFormElement>,
  call: (field: (name: string) => string) => Promise<{ error: { message?: string } | null }>,
): Promise<string | null> {
  event.preventDefault();
  const data = new FormData(event.currentTarget);
  const { error } = await call((name) => String(data.get(name) ?? ""));
  if (error) return error.message ?? "Something went wrong; try again.";
  navigate("/");
  return null;
}

/** The sign-in page: email and password through better-auth's React client. */
export function SignIn() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <form
        onSubmit={async (event) => {
          setBusy(true);
          setError(
            await submit(event, (field) =>
              authClient.signIn.email({ email: field("email"), password: field("password") }),
            ),
          );
          setBusy(false);
        }}
      >
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error ? <p role="alert">{error}</p> : null}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        New here?{" "}
        <a
          href="/sign-up"
          onClick={(event) => {
            event.preventDefault();
            navigate("/sign-up");
          }}
        >
          Create an account
        </a>
      </p>
    </section>
  );
}

/** The sign-up page: name, email and password (at least 8 characters, better-auth's default). */
export function SignUp() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">Create an account</h1>
      <form
        onSubmit={async (event) => {
          setBusy(true);
          setError(
            await submit(event, (field) =>
              authClient.signUp.email({
                name: field("name"),
                email: field("email"),
                password: field("password"),
              }),
            ),
          );
          setBusy(false);
        }}
      >
        <label>
          Name
          <input name="name" autoComplete="name" required />
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
          />
        </label>
        {error ? <p role="alert">{error}</p> : null}
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
      <p>
        Have an account?{" "}
        <a
          href="/sign-in"
          onClick={(event) => {
            event.preventDefault();
            navigate("/sign-in");
          }}
        >
          Sign in
        </a>
      </p>
    </section>
  );
}
