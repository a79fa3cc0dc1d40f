import { useApp } from "../../app-context.ts";
import { LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { focusPageHeading, Link, navigate } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ApiKeysSection } from "../api-keys/api-keys-section.tsx";
import { InvitationList } from "./invitation-list.tsx";
import { MemberList } from "./member-list.tsx";
import { OrganizationActions } from "./organization-actions.tsx";

/**
 * One organization: its facts and actions, then members or invitations
 * (each tab has its own URL), then its API keys. After a delete the organizations list opens
 * with focus on its heading.
 */
export function OrganizationDetail(props: { orgId: string; tab: "members" | "invitations" }) {
  const { api } = useApp();
  const { orgId, tab } = props;
  const org = useLoad((signal) => api.getOrganization({ params: { id: orgId }, signal }), [orgId]);
  const tabHref = (to: "members" | "invitations") =>
    hrefOf({ page: "organizations", orgId, tab: to });
  const listHref = hrefOf({ page: "organizations", orgId: null, tab: "members" });
  return (
    <div class="page">
      <Link class="back-link" href={listHref}>
        ← Organizations
      </Link>
      <LoadView loaded={org} label="Loading organization…">
        {({ organization }) => (
          <>
            <header class="page-header">
              <div>
                <h1 class="page-title">{organization.name}</h1>
                <p class="page-subtitle">
                  <span class="mono">{organization.slug}</span> · {organization.memberCount}{" "}
                  {organization.memberCount === 1 ? "member" : "members"} · created{" "}
                  <Time iso={organization.createdAt} />
                </p>
              </div>
              <OrganizationActions
                organization={organization}
                onChanged={org.reload}
                onDeleted={() => {
                  navigate(listHref);
                  focusPageHeading();
                }}
              />
            </header>
            <nav class="tabs" aria-label="Organization">
              <Link
                class={tab === "members" ? "tab active" : "tab"}
                aria-current={tab === "members" ? "page" : undefined}
                href={tabHref("members")}
              >
                Members
              </Link>
              <Link
                class={tab === "invitations" ? "tab active" : "tab"}
                aria-current={tab === "invitations" ? "page" : undefined}
                href={tabHref("invitations")}
              >
                Invitations
              </Link>
            </nav>
            {tab === "members" ? (
              <MemberList key={orgId} orgId={orgId} onChanged={org.reload} />
            ) : (
              <InvitationList key={orgId} orgId={orgId} />
            )}
            <ApiKeysSection owner={{ organizationId: orgId }} ownerLabel={organization.name} />
          </>
        )}
      </LoadView>
    </div>
  );
}
