import { createClient } from "@svc/client";
import { SvcProvider } from "@svc/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { authClient } from "./auth-client.ts";
import "./styles.css";

/** One client for the page: the same origin serves the UI, the API and the live queries. */
const client = createClient({ url: location.origin });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <SvcProvider client={client} authClient={authClient}>
      <App />
    </SvcProvider>
  </StrictMode>,
);
