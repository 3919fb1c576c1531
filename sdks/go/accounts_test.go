package crm_test

import (
	"context"
	"testing"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

func TestAPIKeysOAuthAppsAndUsage(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	key, err := client.APIKeys.Create(ctx, &crm.APIKeyCreateParams{Name: "reader", Scopes: []string{"leads:read"}})
	must(t, err)
	if key.Secret == "" || key.Scopes[0] != "leads:read" {
		t.Fatalf("created %+v", key)
	}
	got, err := client.APIKeys.Retrieve(ctx, key.ID)
	must(t, err)
	if got.Last4 != key.Last4 {
		t.Fatalf("retrieved %+v", got)
	}
	found := false
	keys := client.APIKeys.List(ctx, nil)
	for keys.Next() {
		found = found || keys.APIKey().ID == key.ID
	}
	must(t, keys.Err())
	if !found {
		t.Fatal("the key is not listed")
	}
	revoked, err := client.APIKeys.Delete(ctx, key.ID)
	must(t, err)
	if revoked.RevokedAt == nil {
		t.Fatalf("revoked %+v", revoked)
	}

	app, err := client.OAuthApps.Create(ctx, &crm.OAuthAppCreateParams{Name: "Go app", RedirectURIs: []string{"http://localhost/cb"}, Scopes: []string{"leads:read"}})
	must(t, err)
	if app.ClientSecret == "" || app.ClientID == "" {
		t.Fatalf("app %+v", app)
	}
	apps := client.OAuthApps.List(ctx, nil)
	found = false
	for apps.Next() {
		found = found || apps.OAuthApp().ID == app.ID
	}
	must(t, apps.Err())
	if !found {
		t.Fatal("the app is not listed")
	}

	usage, err := client.Usage.Retrieve(ctx, nil)
	must(t, err)
	if usage.Totals.Requests == 0 || len(usage.ByEndpoint) == 0 {
		t.Fatalf("usage %+v", usage)
	}
}
