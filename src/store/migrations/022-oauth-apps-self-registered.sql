-- OAuth apps an MCP client registered itself through dynamic client registration (RFC 7591,
-- POST /oauth/register), with no key involved: nobody on the team made them, so the consent page
-- says so and only a signed-in dashboard user may approve them (docs/security.md). They are public
-- clients: no secret is ever handed out, and PKCE stands in for it.
ALTER TABLE oauth_apps ADD COLUMN self_registered INTEGER NOT NULL DEFAULT 0 CHECK (self_registered IN (0, 1));
CREATE INDEX oauth_apps_self_registered ON oauth_apps (created_at) WHERE self_registered = 1;
