"""SQLite's online backup API through apsw, as apsw's documentation shows it
(https://rogerbinns.github.io/apsw/example.html, "Backup"; https://rogerbinns.github.io/apsw/backup.html):
`destination.backup("main", source, "main")`, stepped until done. `backup SOURCE DEST` copies the store into a
new file; `restore BACKUP STORE` copies the backup into the live store through a connection to it, so SQLite
replaces the store's pages under its own locks. Both connections wait up to 10 s for a lock, as SQLite's
documentation recommends for a database that other connections write."""
import sys

import apsw

action, source_path, destination_path = sys.argv[1:4]
# Both opened read-write, as the sqlite3 shell's .backup and .restore open them: a backup of a WAL store is itself in
# WAL mode, and a read-only connection to it fails ("ReadOnlyError") where it has a -wal to recover but no -shm.
source = apsw.Connection(source_path, flags=apsw.SQLITE_OPEN_READWRITE)
destination = apsw.Connection(destination_path)
for connection in (source, destination):
    connection.set_busy_timeout(10_000)
# step(-1) copies every page in one step, so the copy is one snapshot of the source even while writers commit
# (a backup stepped a few pages at a time restarts whenever another connection writes).
with destination.backup("main", source, "main") as backup:
    while not backup.done:
        backup.step(-1)
destination.close()
source.close()
