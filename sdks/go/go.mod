module crm

go 1.19
