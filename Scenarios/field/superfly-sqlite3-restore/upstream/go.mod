module github.com/superfly/sqlite3-restore

go 1.19
