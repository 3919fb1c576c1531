-- Which credential registered an OAuth app: an app outlives that key (docs/security.md), so
-- whoever revokes a leaked key must be able to find the apps it made. Null for older apps.
ALTER TABLE oauth_apps ADD COLUMN registered_by TEXT;
