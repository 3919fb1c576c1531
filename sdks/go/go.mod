module github.com/crm-sandbox/crm-sandbox/sdks/go

go 1.19
