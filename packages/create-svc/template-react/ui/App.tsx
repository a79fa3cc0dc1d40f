import { useConnectionState, useSvcAuth } from "@svc/react";
import { authClient } from "./auth-client.ts";
import { Notes } from "./Notes.tsx";
import { navigate, usePath } from "./router.ts";
import { SignIn, SignUp } from "./SignIn.tsx";

/** The page frame: header, the page for the path, and the live connection's state. */
export function App() {
  const { isLoading, isAuthenticated } = useSvcAuth();
  const { data: session } = authClient.useSession();
  const path = usePath();
  const connection = useConnectionState();
  let page = <p>Loading…</p>;
  if (!isLoading) {
    if (isAuthenticated) page = <Notes />;
    else page = path === "/sign-up" ? <SignUp /> : <SignIn />;
  }
  return (
    <>
      <header>
        <p className="brand">{"{{name}}"}</p>
        <nav aria-label="Main">
          {/* The admin dashboard is served by the same worker (sign in with SVC_ADMIN_TOKEN). */}
          <a href="/_svc/dashboard/">Admin dashboard</a>
          {isAuthenticated && session ? (
            <>
              <span className="who">{session.user.email}</span>
              <button
                type="button"
                onClick={async () => {
                  await authClient.signOut();
                  navigate("/sign-in");
                }}
              >
                Sign out
              </button>
            </>
          ) : null}
        </nav>
      </header>
      <main>{page}</main>
      <p role="status" className="connection">
        {connection.state === "reconnecting" ? "Reconnecting…" : ""}
      </p>
    </>
  );
}
