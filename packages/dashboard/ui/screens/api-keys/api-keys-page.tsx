import { PageHeader } from "../../components/page-header.tsx";
import { ApiKeysSection } from "./api-keys-section.tsx";

/**
 * Every API key of the app on one page, newest first, each with its owner
 * (a user or an organization, linked), scopes, dates and a revoke button:
 * otherwise keys show only inside one owner's drawer or page.
 *
 * @example <ApiKeysPage />
 */
export function ApiKeysPage() {
  return (
    <div class="page">
      <PageHeader
        title="API keys"
        subtitle="Every key of the app, whoever owns it. New keys are made from a user or an organization."
      />
      <ApiKeysSection owner={null} ownerLabel="" />
    </div>
  );
}
